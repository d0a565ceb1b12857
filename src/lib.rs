//! Microfut: a data-driven rules engine for a football game resolved like a tabletop RPG.
//!
//! Data flows one way: `catalog` (versioned, fingerprinted content) → `ruleset` (compiled) →
//! `pipeline` (resolution with contributions) → higher layers. See ARCHITECTURE.md.

// The core's modules, at the paths they had before the workspace (`microfut::catalog`, …).
pub use microfut_core::{bot_process, catalog, dice, expr, files, lab, pipeline, ruleset};

pub mod api;
pub mod calibrate;
/// The command line (`microfut …`): only with the `cli` feature (the default), so the library
/// alone does not pull clap and indicatif into its users' builds.
#[cfg(feature = "cli")]
pub mod cli;
pub mod club;
pub mod effects;
pub mod engine;
pub mod run;
pub mod season;
pub mod server;
pub mod sheet;
pub mod space;
pub mod space_web;
pub mod sqlite_file;
pub mod store;
pub mod trilha;
