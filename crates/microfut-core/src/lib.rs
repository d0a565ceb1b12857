//! Microfut's core: what every game is built on and that knows no game.
//!
//! Data flows one way: `catalog` (versioned, fingerprinted content) → `ruleset` (compiled) →
//! `pipeline` (resolution with contributions); `expr` and `dice` below them; `lab` runs any
//! game that implements its `Simulator`; `files` reads and writes what commands touch;
//! `bot_process` runs a bot program as a child process; `game` is what a game gives the
//! catalog, the lab and the command line; `record` is the vocabulary of every game's replay; `state_hash` is the hash records store of a game's
//! state; `digest` and `markup` write SHA-256 in hex and escaped HTML. See ARCHITECTURE.md.

pub mod bot_process;
pub mod catalog;
pub mod dice;
pub mod digest;
pub mod expr;
pub mod files;
pub mod game;
pub mod lab;
pub mod markup;
pub mod pipeline;
pub mod record;
pub mod ruleset;
pub mod state_hash;
