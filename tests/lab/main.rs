//! `microfut lab`: the command end to end, the lab core as a library, the match engine's metrics,
//! clusters and reports, and `lab calibrate`'s draws.
//!
//! One test binary per area (CONTRIBUTING.md, "Tests"); each module is named for what it checks.

#[path = "../common/mod.rs"]
mod common;

mod calibrate_draws;
mod calibrate_populations;
mod calibrate_short;
mod cluster;
mod end_to_end;
mod library;
mod matches;
mod sensitivity;
