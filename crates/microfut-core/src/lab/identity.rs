//! What a lab run is: enough to tell whether two partial results belong to the same command.

use super::metric::{Metric, Unit};
use crate::catalog::{Labels, Revision};
use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RevisionRef {
    pub version: String,
    pub fingerprint: String,
}

impl RevisionRef {
    pub fn of(rev: &Revision) -> RevisionRef {
        RevisionRef { version: rev.version.to_string(), fingerprint: rev.fingerprint.clone() }
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ScenarioRef {
    pub id: String,
    pub label: Labels,
    pub description: Labels,
    /// Fingerprint of the patched revision this scenario runs.
    pub fingerprint: String,
    /// The same, under the `--against` revision.
    pub against_fingerprint: Option<String>,
    pub metrics: Vec<Metric>,
}

/// The command a result answers: ruleset, revision(s) by fingerprint, scenarios, N and seed.
/// Together with the shard count it identifies a sharded run; results merge only when equal.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Identity {
    /// The engine that ran it; simulations of another engine version may differ.
    pub engine: String,
    pub ruleset: String,
    pub unit: Unit,
    pub revision: RevisionRef,
    pub against: Option<RevisionRef>,
    /// Simulations per scenario.
    pub simulations: u64,
    pub seed: u64,
    /// What the simulations depend on beyond the revision (see `Simulator::setup`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub setup: Option<String>,
    pub scenarios: Vec<ScenarioRef>,
}
