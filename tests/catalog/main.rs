//! The catalog of content: loading one revision, validation (schema and meaning, each problem
//! named by file and JSON pointer), domains, mutated content that must play or be refused, the
//! golden fingerprint and publishing.
//!
//! One test binary per area (CONTRIBUTING.md, "Tests"); each module is named for what it checks.

#[path = "../common/mod.rs"]
mod common;

mod domains;
mod fingerprint;
mod load_one;
mod mutations;
mod publish;
mod validation;
