//! The rules machinery: the expression evaluator against evalexpr, the pipelines' properties and
//! extensions, the rules document's worked examples and Appendix D, and the odds shown against the
//! odds rolled.
//!
//! One test binary per area (CONTRIBUTING.md, "Tests"); each module is named for what it checks.

#[path = "../common/mod.rs"]
mod common;

mod appendix_d;
mod expr_differential;
mod odds_shown_are_rolled;
mod pipeline_extensions;
mod pipeline_properties;
mod worked_examples;
