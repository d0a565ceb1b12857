//! The laboratory: many simulations per rule scenario, exact aggregation, confidence intervals,
//! A/B comparison of revisions, shards across machines.
//!
//! Ruleset-agnostic: a ruleset plugs in by implementing [`Simulator`]. Scenarios are content (a
//! revision's scenarios document of JSON merge-patch overlays), so adding one needs no Rust.
//! Determinism: simulation `i` of scenario `s` draws from `Dice::derived(seed, "lab/<s>/" + i)`,
//! and accumulators are exact integer sums, so neither threads nor shards change a single bit.

mod accumulate;
mod html;
mod identity;
pub mod merge_patch;
mod metric;
mod plot;
mod report;
mod run;
pub mod scenario;
mod shard;
mod simulator;
pub mod stats;

pub use accumulate::{Accumulator, Layout, OBSERVATION_LIMIT};
pub use identity::{Identity, RevisionRef, ScenarioRef};
pub use metric::{Format, Kind, Metric, Part, RESERVED_KEYS, Unit, slot, slots};
pub use report::{Lang, Report};
pub use run::{Prepared, Request, prepare, run};
pub use scenario::Scenario;
pub use shard::{
    FORMAT as SHARD_FORMAT, KUBERNETES_INDEX_VAR, Merged, SHARD_COUNT_VAR, SLURM_INDEX_VAR, Shard, merge, merge_files,
    to_json as shard_json,
};
pub use simulator::Simulator;

use crate::catalog::Diagnostic;
use std::path::PathBuf;

#[derive(Debug, thiserror::Error)]
pub enum LabError {
    #[error("the number of simulations per scenario must be at least 1")]
    NoSimulations,
    #[error("scenario '{scenario}', simulation {index}: {message}")]
    Simulation { scenario: String, index: u64, message: String },
    #[error("{revision} has {} content error(s):\n{}", .diagnostics.len(), list(.diagnostics))]
    Invalid { revision: String, diagnostics: Vec<Diagnostic> },
    #[error("unknown scenario '{id}' in {revision}{hint} (scenarios: {known})")]
    UnknownScenario { id: String, revision: String, known: String, hint: String },
    #[error("scenario '{id}' is not in {revision}, so it cannot be compared (its scenarios: {known})")]
    ScenarioNotIn { id: String, revision: String, known: String },
    #[error("scenario overlays of {revision} make it invalid ({} problem(s)):\n{}", .diagnostics.len(), list(.diagnostics))]
    Overlay { revision: String, diagnostics: Vec<Diagnostic> },
    #[error(
        "scenario '{scenario}' measures different metrics under the two revisions (ids, parts, kinds or scales), so they cannot be compared"
    )]
    MetricsDiffer { scenario: String },
    #[error("--shard '{text}': {why}")]
    BadShard { text: String, why: String },
    #[error("no shard files given")]
    NoShards,
    #[error("{}: {message}", .path.display())]
    ShardFile { path: PathBuf, message: String },
    #[error(transparent)]
    TooLarge(crate::files::ReadError),
    #[error("{}{}: {message}", .path.display(), if pointer.is_empty() { String::new() } else { format!("#{pointer}") })]
    ShardField { path: PathBuf, pointer: String, message: String },
    #[error(
        "{} and {} come from different lab commands: {pointer} is {left} in the first and {right} in the second; merge only the shards of one command",
        .first.display(), .other.display()
    )]
    ShardsDiffer { first: PathBuf, other: PathBuf, pointer: String, left: String, right: String },
    #[error("shard {index}/{count} given twice: {} and {}", .first.display(), .second.display())]
    ShardTwice { index: u64, count: u64, first: PathBuf, second: PathBuf },
    #[error("missing shard(s) {missing} of {count}: merge needs every shard of the command")]
    ShardsMissing { missing: String, count: u64 },
}

fn list(d: &[Diagnostic]) -> String {
    d.iter().map(|d| format!("  {d}")).collect::<Vec<_>>().join("\n")
}
