//! The search bot: iterative-deepening negamax with alpha-beta pruning on the shared evaluation.
//!
//! Problem: a bot must answer within its time, and the lab must give the same numbers on any
//! machine. Decision: the search stops at a node budget (deterministic: the lab uses only that)
//! and, as a process, also at a deadline (a share of the time limit); it then answers with the
//! best action of the last iteration it completed. Move ordering puts winning and ball-taking
//! actions first and the previous iteration's best action at the root first, which is what makes
//! alpha-beta cut. Limits: no transposition table (the game is short and rarely transposes
//! within a few plies); a side with no action passes and the pass costs a ply.

use super::eval::{WIN, evaluate};
use crate::board::{Board, Side};
use crate::compile::{Actions, Evaluation};
use crate::moves::{self, Action, Effect, Kind};
use std::time::Instant;

pub struct Budget {
    pub max_depth: u32,
    pub nodes: u64,
    pub deadline: Option<Instant>,
}

/// What a search found.
#[derive(Debug, Clone, Copy)]
pub struct Found {
    pub action: Action,
    pub score: f64,
    /// The deepest iteration completed.
    pub depth: u32,
    pub nodes: u64,
}

struct Searcher<'a> {
    acts: &'a Actions,
    w: &'a Evaluation,
    nodes: u64,
    budget: &'a Budget,
    stopped: bool,
    /// One action list per ply, reused.
    lists: Vec<Vec<(i32, Action)>>,
}

/// How promising an action looks before searching it (higher first).
fn order_key(b: &Board, side: Side, a: &Action) -> i32 {
    let ball = b.ball();
    let carried = a.from == ball;
    let progress = i32::from(b.progress(side, a.to.row.min(b.n() + 1)));
    match a.kind {
        Kind::Move if carried && a.to.row == b.goal_row(side) => 10_000,
        Kind::Attack if a.to == ball => 9_000,
        Kind::Suicide if a.to == ball => 8_000,
        Kind::Attack => 5_000 + progress,
        Kind::Pass => 3_000 + progress,
        Kind::Move if carried => 2_000 + progress,
        Kind::Move if a.to == ball => 1_500,
        Kind::Suicide => 1_000,
        Kind::Move if a.to.row == b.goal_row(side) => -1_000,
        Kind::Move => progress,
    }
}

impl Searcher<'_> {
    fn out_of_budget(&mut self) -> bool {
        if self.nodes >= self.budget.nodes {
            self.stopped = true;
        } else if self.nodes & 1023 == 0
            && let Some(d) = self.budget.deadline
            && Instant::now() >= d
        {
            self.stopped = true;
        }
        self.stopped
    }

    fn fill(&mut self, b: &Board, side: Side, ply: usize) {
        if self.lists.len() <= ply {
            self.lists.resize_with(ply + 1, Vec::new);
        }
        let mut list = std::mem::take(&mut self.lists[ply]);
        list.clear();
        moves::each(b, side, self.acts, |a| {
            list.push((order_key(b, side, &a), a));
            true
        });
        // Stable: equal keys keep generation order, so the search is deterministic.
        list.sort_by_key(|x| std::cmp::Reverse(x.0));
        self.lists[ply] = list;
    }

    fn negamax(&mut self, b: &Board, side: Side, depth: u32, ply: usize, mut alpha: f64, beta: f64) -> f64 {
        self.nodes += 1;
        if self.out_of_budget() {
            return 0.0;
        }
        if depth == 0 {
            return evaluate(b, side, self.acts, self.w);
        }
        self.fill(b, side, ply);
        if self.lists[ply].is_empty() {
            if !moves::has_legal(b, side.other(), self.acts) {
                return 0.0; // neither side can act: a draw
            }
            return -self.negamax(b, side.other(), depth - 1, ply + 1, -beta, -alpha);
        }
        let mut best = f64::NEG_INFINITY;
        let count = self.lists[ply].len();
        for i in 0..count {
            let a = self.lists[ply][i].1;
            let mut child = b.clone();
            let score = match moves::apply(&mut child, side, a) {
                Effect::Won(s, _) if s == side => WIN - ply as f64,
                Effect::Won(..) => -WIN + ply as f64,
                Effect::Continue => -self.negamax(&child, side.other(), depth - 1, ply + 1, -beta, -alpha),
            };
            if self.stopped {
                return 0.0;
            }
            if score > best {
                best = score;
            }
            if score > alpha {
                alpha = score;
            }
            if alpha >= beta {
                break;
            }
        }
        best
    }
}

/// The best action for `side` (which must have one) within the budget.
pub fn search(b: &Board, side: Side, acts: &Actions, w: &Evaluation, budget: &Budget) -> Found {
    let mut s = Searcher { acts, w, nodes: 0, budget, stopped: false, lists: Vec::new() };
    let mut root: Vec<(i32, Action)> = Vec::new();
    moves::each(b, side, acts, |a| {
        root.push((order_key(b, side, &a), a));
        true
    });
    root.sort_by_key(|x| std::cmp::Reverse(x.0));
    assert!(!root.is_empty(), "search asked for a side with no action");
    let mut found = Found { action: root[0].1, score: 0.0, depth: 0, nodes: 0 };
    for depth in 1..=budget.max_depth {
        let (mut alpha, beta) = (f64::NEG_INFINITY, f64::INFINITY);
        let mut best: Option<(usize, f64)> = None;
        for (i, &(_, a)) in root.iter().enumerate() {
            let mut child = b.clone();
            let score = match moves::apply(&mut child, side, a) {
                Effect::Won(s, _) if s == side => WIN,
                Effect::Won(..) => -WIN,
                Effect::Continue => -s.negamax(&child, side.other(), depth - 1, 1, -beta, -alpha),
            };
            if s.stopped {
                break;
            }
            if best.is_none_or(|(_, sc)| score > sc) {
                best = Some((i, score));
            }
            alpha = alpha.max(score);
        }
        if s.stopped {
            break;
        }
        let (i, score) = best.expect("at least one action");
        found = Found { action: root[i].1, score, depth, nodes: s.nodes };
        // The best action first in the next iteration: it sets the bound the others must beat.
        let chosen = root.remove(i);
        root.insert(0, chosen);
        if score.abs() >= WIN - 1000.0 {
            break; // a forced result: deeper search cannot change it
        }
    }
    found.nodes = s.nodes;
    found
}
