//! The referee: plays one match between two players, each of which always plays white.
//!
//! Problem: a bot is written once, for white, yet plays both colours. Decision: before asking
//! black, the referee turns the board half a circle and swaps the colours (`Board::mirrored`),
//! and turns black's answer back before checking it on the real board; a player never learns
//! which colour it really is except from `Ask::colour`, which is informative. Every answer is
//! checked against the rules before it touches the board; the first invalid one ends the match,
//! lost and invalid for that player only. A side with no legal action passes without being
//! asked; when neither side can act the match is a draw. Every action moves a robot forward,
//! removes one, or passes the ball forward, so a match always ends.

use super::board::{Board, Side, Square};
use super::compile::Rules;
use super::moves::{self, Action, Effect, Kind, Victory};
use serde::{Deserialize, Serialize};
use std::time::Duration;

/// Why an answer was invalid.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Reason {
    /// No answer within the time limit.
    Timeout,
    /// An answer that the rules do not allow on the board.
    IllegalAction,
    /// A line that is not an answer (not JSON, missing or wrong fields).
    Malformed,
    /// The bot's process ended, or could not start.
    Crash,
    /// A line longer than the limit.
    OutputLimit,
}

impl Reason {
    pub fn name(self) -> &'static str {
        match self {
            Reason::Timeout => "timeout",
            Reason::IllegalAction => "illegal_action",
            Reason::Malformed => "malformed",
            Reason::Crash => "crash",
            Reason::OutputLimit => "output_limit",
        }
    }
}

/// An invalid answer: why, in words, and what was answered (as far as it was read).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Fault {
    pub reason: Reason,
    pub detail: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub answer: Option<String>,
}

impl Fault {
    pub fn new(reason: Reason, detail: impl Into<String>) -> Fault {
        Fault { reason, detail: detail.into(), answer: None }
    }
}

/// What a player is asked: the board as it sees it (always playing white, white to act).
pub struct Ask<'a> {
    pub view: &'a Board,
    /// 1 for the match's first action; passes do not count.
    pub turn: u32,
    pub time_limit: Duration,
    /// The colour it really plays (informative: `view` is already mirrored for black).
    pub colour: Side,
}

/// A player's answer, in its own (white) view. `kind` may be left out: the board decides it.
#[derive(Debug, Clone, PartialEq)]
pub struct Answer {
    pub from: Square,
    pub to: Square,
    pub kind: Option<Kind>,
    /// How long it took (process bots), for the record.
    pub elapsed: Option<Duration>,
    /// The line as written (process bots), kept when it turns out illegal.
    pub line: Option<String>,
}

impl From<Action> for Answer {
    fn from(a: Action) -> Answer {
        Answer { from: a.from, to: a.to, kind: Some(a.kind), elapsed: None, line: None }
    }
}

/// Someone who plays: a built-in bot in this process, or a bot process.
pub trait Player {
    fn act(&mut self, ask: &Ask) -> Result<Answer, Fault>;
    /// The match is over (or this player is no longer needed): stop, and give back anything
    /// worth keeping (a bot process's standard error).
    fn finish(&mut self) -> Option<String> {
        None
    }
}

/// One action of a match, on the real board.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Played {
    pub side: Side,
    #[serde(flatten)]
    pub action: Action,
    /// The player's thinking time in milliseconds (process bots).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ms: Option<f64>,
}

/// How a match ended, as `microfut space match --json` prints it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Outcome {
    pub winner: Option<Side>,
    pub victory: Victory,
    /// The invalid answer of a side, by side name (only a side that made one).
    pub reasons: std::collections::BTreeMap<Side, Fault>,
    pub points: [u32; 2],
    pub valid: [bool; 2],
    /// Actions played (passes are not actions).
    pub actions: u32,
}

impl Outcome {
    /// The outcome of a finished match: points by the revision, validity from the faults.
    pub fn new(
        rules: &Rules,
        winner: Option<Side>,
        victory: Victory,
        fault: Option<(Side, Fault)>,
        actions: u32,
    ) -> Outcome {
        let p = &rules.points;
        let points = match (winner, victory) {
            (None, _) => [p.draw, p.draw],
            (Some(w), v) => {
                let won = match v {
                    Victory::Goal => p.goal,
                    Victory::Destruction => p.destruction,
                    Victory::OpponentInvalid => p.opponent_invalid,
                    Victory::Draw => p.draw,
                };
                let mut pts = [p.loss, p.loss];
                pts[w.index()] = won;
                pts
            }
        };
        let mut valid = [true, true];
        let mut reasons = std::collections::BTreeMap::new();
        if let Some((side, f)) = fault {
            valid[side.index()] = false;
            reasons.insert(side, f);
        }
        Outcome { winner, victory, reasons, points, valid, actions }
    }
}

/// A finished match: its outcome, its actions (when recorded) and the players' standard error.
#[derive(Debug, Clone)]
pub struct Finished {
    pub outcome: Outcome,
    pub log: Vec<Played>,
    pub stderr: [Option<String>; 2],
}

pub struct Options {
    pub time_limit: Duration,
    /// Keep every action (the match record needs them; the lab does not).
    pub record: bool,
}

/// Plays a match from `board`, white first.
pub fn play(rules: &Rules, mut board: Board, players: [&mut dyn Player; 2], opts: &Options) -> Finished {
    let mut log = Vec::new();
    let mut to_move = Side::White;
    let mut actions = 0u32;
    let acts = &rules.actions;
    let outcome = loop {
        if !moves::has_legal(&board, to_move, acts) {
            if !moves::has_legal(&board, to_move.other(), acts) {
                break Outcome::new(rules, None, Victory::Draw, None, actions);
            }
            to_move = to_move.other();
            continue;
        }
        let mirrored;
        let view = match to_move {
            Side::White => &board,
            Side::Black => {
                mirrored = board.mirrored();
                &mirrored
            }
        };
        let ask = Ask { view, turn: actions + 1, time_limit: opts.time_limit, colour: to_move };
        let answer = match players[to_move.index()].act(&ask) {
            Ok(a) => a,
            Err(f) => {
                break Outcome::new(
                    rules,
                    Some(to_move.other()),
                    Victory::OpponentInvalid,
                    Some((to_move, f)),
                    actions,
                );
            }
        };
        let (from, to) = match to_move {
            Side::White => (answer.from, answer.to),
            Side::Black => (answer.from.mirrored(board.n()), answer.to.mirrored(board.n())),
        };
        let kind = match moves::classify(&board, to_move, acts, from, to, answer.kind) {
            Ok(k) => k,
            Err(why) => {
                let mut f = Fault::new(Reason::IllegalAction, why);
                f.answer = Some(answer.line.unwrap_or_else(|| {
                    let shown = Action::new(answer.kind.unwrap_or(Kind::Move), answer.from, answer.to);
                    serde_json::to_string(&shown).expect("serialises")
                }));
                break Outcome::new(
                    rules,
                    Some(to_move.other()),
                    Victory::OpponentInvalid,
                    Some((to_move, f)),
                    actions,
                );
            }
        };
        let action = Action::new(kind, from, to);
        actions += 1;
        if opts.record {
            log.push(Played { side: to_move, action, ms: answer.elapsed.map(|d| d.as_secs_f64() * 1e3) });
        }
        if let Effect::Won(side, victory) = moves::apply(&mut board, to_move, action) {
            break Outcome::new(rules, Some(side), victory, None, actions);
        }
        to_move = to_move.other();
    };
    let stderr = [players[0].finish(), players[1].finish()];
    Finished { outcome, log, stderr }
}
