//! Space Football: its rules, properties and championship, bots as processes, the command line,
//! the battlefield's API and its games surviving a restart.
//!
//! One test binary per area (CONTRIBUTING.md, "Tests"); each module is named for what it checks.

#[path = "../common/mod.rs"]
mod common;
#[path = "../space_support/mod.rs"]
mod space_support;

mod bot_processes;
mod championship;
mod cli;
mod properties;
mod rules;
mod serve_restart;
mod web;
