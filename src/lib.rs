//! Microfut: a data-driven rules engine for a football game resolved like a tabletop RPG.
//!
//! Data flows one way: `catalog` (versioned, fingerprinted content) → `ruleset` (compiled) →
//! `pipeline` (resolution with contributions) → higher layers. See ARCHITECTURE.md.

pub mod api;
pub mod bot_process;
pub mod calibrate;
pub mod catalog;
/// The command line (`microfut …`): only with the `cli` feature (the default), so the library
/// alone does not pull clap and indicatif into its users' builds.
#[cfg(feature = "cli")]
pub mod cli;
pub mod club;
pub mod dice;
pub mod effects;
pub mod engine;
pub mod expr;
pub mod files;
pub mod lab;
pub mod pipeline;
pub mod ruleset;
pub mod run;
pub mod season;
pub mod server;
pub mod sheet;
pub mod space;
pub mod space_web;
pub mod sqlite_file;
pub mod store;
pub mod trilha;
