//! Seed 002's effect resolution (World 1): the policy, its properties, the world's content and the
//! command line.
//!
//! One test binary per area (CONTRIBUTING.md, "Tests"); each module is named for what it checks.

#[path = "../common/mod.rs"]
mod common;

mod cli;
mod policy;
mod properties;
mod world;
