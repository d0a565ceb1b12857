//! The built-in bots: random (a legal action chosen uniformly), greedy (the action whose resulting
//! position evaluates best, one action ahead) and search (alpha-beta on the same evaluation).
//! They play in this process (the lab, benchmarks, the battlefield page) or as a bot process
//! speaking the protocol (`microfut space bot NAME`), and like every bot they always play white.

pub mod eval;
pub mod search;

use super::board::{Board, Side};
use super::compile::{Actions, Evaluation, Rules, SearchParams};
use super::moves::{self, Action, Effect};
use super::referee::{Answer, Ask, Fault, Player};
use microfut_core::dice::Dice;
use std::time::{Duration, Instant};

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum BotKind {
    Random,
    Greedy,
    Search,
}

impl BotKind {
    pub const ALL: [BotKind; 3] = [BotKind::Random, BotKind::Greedy, BotKind::Search];

    pub fn name(self) -> &'static str {
        match self {
            BotKind::Random => "random",
            BotKind::Greedy => "greedy",
            BotKind::Search => "search",
        }
    }

    pub fn parse(s: &str) -> Result<BotKind, String> {
        BotKind::ALL
            .into_iter()
            .find(|k| k.name() == s)
            .ok_or_else(|| format!("unknown built-in bot '{s}' (built-in bots: random, greedy, search)"))
    }
}

/// How long the search may think.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Thinking {
    /// Only the content's node budget: the same answers on every machine (the lab).
    Nodes,
    /// As a process: a share of the time limit, and up to the node budget × the process factor.
    Clock,
}

/// A built-in bot playing in this process.
pub struct Builtin {
    pub kind: BotKind,
    acts: Actions,
    eval: Evaluation,
    search: SearchParams,
    thinking: Thinking,
    /// Node budget override (`--nodes`), else the content's.
    nodes: Option<u64>,
    dice: Dice,
    list: Vec<Action>,
    /// The last search's depth and nodes, for the bot's log.
    pub last: Option<search::Found>,
}

impl Builtin {
    /// A bot under `rules`; `dice` is the random bot's stream (the others never draw).
    pub fn new(kind: BotKind, rules: &Rules, dice: Dice, thinking: Thinking) -> Builtin {
        Builtin {
            kind,
            acts: rules.actions,
            eval: rules.evaluation,
            search: rules.search,
            thinking,
            nodes: None,
            dice,
            list: Vec::new(),
            last: None,
        }
    }

    /// Plays under these actions (a bot process takes them from each turn line: the referee's
    /// rules are the ones that count).
    pub fn set_actions(&mut self, actions: Actions) {
        self.acts = actions;
    }

    pub fn with_nodes(mut self, nodes: Option<u64>) -> Builtin {
        self.nodes = nodes;
        self
    }

    /// The action for white on `view`, which must have one.
    pub fn choose(&mut self, view: &Board, time_limit: Duration) -> Action {
        match self.kind {
            BotKind::Random => {
                moves::legal(view, Side::White, &self.acts, &mut self.list);
                self.list[self.dice.below(self.list.len() as u32) as usize]
            }
            BotKind::Greedy => greedy(view, &self.acts, &self.eval, &mut self.list),
            BotKind::Search => {
                let nodes = self.nodes.unwrap_or(self.search.nodes_per_action);
                let budget = match self.thinking {
                    Thinking::Nodes => search::Budget { max_depth: self.search.max_depth, nodes, deadline: None },
                    Thinking::Clock => search::Budget {
                        max_depth: self.search.max_depth,
                        nodes: nodes.saturating_mul(if self.nodes.is_some() {
                            1
                        } else {
                            self.search.process_node_factor
                        }),
                        deadline: Some(Instant::now() + time_limit.mul_f64(self.search.time_share)),
                    },
                };
                let found = search::search(view, Side::White, &self.acts, &self.eval, &budget);
                self.last = Some(found);
                found.action
            }
        }
    }
}

impl Player for Builtin {
    fn act(&mut self, ask: &Ask) -> Result<Answer, Fault> {
        Ok(self.choose(ask.view, ask.time_limit).into())
    }
}

/// The action whose resulting position is best for white, one action ahead; a win at once beats
/// everything, a loss at once is last. Ties go to the first in generation order.
pub fn greedy(view: &Board, acts: &Actions, w: &Evaluation, list: &mut Vec<Action>) -> Action {
    moves::legal(view, Side::White, acts, list);
    let mut best = (f64::NEG_INFINITY, list[0]);
    for &a in list.iter() {
        let mut b = view.clone();
        let score = match moves::apply(&mut b, Side::White, a) {
            Effect::Won(Side::White, _) => eval::WIN,
            Effect::Won(Side::Black, _) => -eval::WIN,
            Effect::Continue => eval::evaluate(&b, Side::White, acts, w),
        };
        if score > best.0 {
            best = (score, a);
        }
    }
    best.1
}
