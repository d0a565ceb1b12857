//! Space Football: a grid game of robots, the course's championship of bots and its grading — a
//! third ruleset on the same catalog, dice, run records and lab.
//!
//! Every rule and number is content (`content/space/<version>/`): the column range and the
//! fields as formulas of n, which actions exist, the points, the time limit, a bot's limits, the
//! validity threshold, the grades, and the built-in bots' evaluation and budgets. This module
//! compiles those documents (`compile`), keeps the board (`board`) and the rules of play
//! (`moves`), referees a match (`referee`) between players that always play white, runs bots as
//! processes behind the JSON-lines protocol (`protocol`, `process`), records and replays matches
//! (`record`), scores championships (`championship`) and plugs into the lab (`simulator`).

pub mod board;
pub mod bots;
pub mod championship;
mod compile;
mod doc;
mod entry;
pub mod moves;
pub mod protocol;
pub mod record;
pub mod referee;
mod simulator;

pub use board::{Board, BoardJson, MAX_N, MAX_ROBOTS, Side, Square};
pub use compile::{Actions, Championship, Evaluation, Limits, Points, Rules, SearchParams, Setup, compile};
pub use entry::Space;
pub use moves::{Action, Effect, Kind, Victory};
pub use referee::{Answer, Ask, Fault, Finished, Outcome, Played, Player, Reason};
pub use simulator::SpaceSimulator;

/// The dice label of the board `microfut space board --seed S` and `space match --seed S` draw.
pub const BOARD_LABEL: &[u8] = b"space/board";
