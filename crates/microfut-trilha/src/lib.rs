//! Trilha do Mandacaru: a small race game, the second ruleset on the catalog, dice and lab.
//!
//! Every rule is content (`content/trilha/<version>/`): the track, the special squares and their
//! effects, the dice, the seats with their start squares and strategies, how the race ends and
//! how ties are settled. This module compiles those documents (with meaning checks located by
//! file and JSON pointer), plays one game, plugs into the lab and draws the printable board.

pub mod board;
mod compile;
mod doc;
mod entry;
mod game;
mod simulator;

pub use compile::{MAX_DICE, MAX_SEATS, Rules, Seat, Special, compile};
pub use doc::{BeyondFinish, EndRule, StrategyKind, Ties};
pub use entry::Trilha;
pub use game::{Outcome, play};
pub use simulator::{TrilhaSimulator, win_scale};
