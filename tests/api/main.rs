//! `microfut serve`: the HTTP API, the run store (migrations, limits, faults, a crash mid-match),
//! exported records, request bodies refused, and slow or greedy clients.
//!
//! One test binary per area (CONTRIBUTING.md, "Tests"); each module is named for what it checks.

#[path = "../common/mod.rs"]
mod common;
#[path = "../space_support/mod.rs"]
mod space_support;

mod crash;
mod effects;
mod endpoints;
mod migration;
mod records;
mod request_bodies;
mod slow_clients;
mod store_faults;
mod store_limits;
