//! The command line end to end: the document's examples, `match` and `replay` (of every game's
//! record), the sheet commands,
//! every set-piece candidate declared at the terminal, and `play` in Portuguese.
//!
//! One test binary per area (CONTRIBUTING.md, "Tests"); each module is named for what it checks.

#[path = "../common/mod.rs"]
mod common;

mod end_to_end;
mod match_and_replay;
mod play_in_portuguese;
mod replay_any_record;
mod set_pieces_declared_at_the_terminal;
mod sheets;
