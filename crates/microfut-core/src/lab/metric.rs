//! What a simulator measures, and where each observation goes.
//!
//! A metric is a mean of one integer per simulation, or a ratio of two sums. Observations are
//! integers so that sums are exact: a simulator whose natural value is fractional declares a
//! `scale` (the value is `observation / scale`), e.g. a win shared three ways is `2` of `6`.

use crate::catalog::Labels;
use serde::{Deserialize, Serialize};

/// How a metric is estimated from its observations.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Kind {
    /// The mean of one observation per simulation.
    Mean,
    /// Σ numerator / Σ denominator over all simulations (two observations each), with a
    /// delta-method confidence interval: e.g. completed passes over attempted passes.
    Ratio,
}

impl Kind {
    /// Observation slots one value of this kind takes.
    pub fn slots(self) -> usize {
        match self {
            Kind::Mean => 1,
            Kind::Ratio => 2,
        }
    }
}

/// How a value is shown to people (tools always get plain numbers).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Format {
    /// A fraction of 1 shown as a percentage; differences in percentage points.
    Percent,
    Number,
}

impl Format {
    /// Whether an estimate shown this way is a share (it lies in [0, 1]): its interval is
    /// Wilson's, not the normal one (see `stats`).
    pub fn is_share(self) -> bool {
        self == Format::Percent
    }
}

/// One element of a metric that has several (a seat of a game: `win_share` of each seat).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Part {
    pub id: String,
    pub label: Labels,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Metric {
    /// The key in JSON output (`win_share`, `mean_rounds`).
    pub id: String,
    pub label: Labels,
    pub kind: Kind,
    /// Observations are in units of `1/scale` (1 for counts).
    pub scale: u64,
    pub format: Format,
    /// Empty for a single value; otherwise one value per part, in this order.
    pub parts: Vec<Part>,
}

impl Metric {
    /// Whether one estimate of the metric is a share (shown as a percentage, in [0, 1]).
    /// Differences between two revisions are not shares.
    pub fn is_share(&self) -> bool {
        self.format.is_share()
    }

    /// How many values (columns) the metric has: one per part, or one.
    pub fn values(&self) -> usize {
        self.parts.len().max(1)
    }

    /// Observation slots the metric takes in one simulation.
    pub fn slots(&self) -> usize {
        self.values() * self.kind.slots()
    }

    pub fn part(&self, index: usize) -> Option<&Part> {
        self.parts.get(index)
    }
}

/// The slot of the first observation of `metric`'s value `part` (0 for a single value): slots
/// follow the declared metrics in order, each value taking one slot (a mean) or two (a ratio:
/// numerator, then denominator).
pub fn slot(metrics: &[Metric], metric: &str, part: usize) -> Option<usize> {
    let mut at = 0;
    for m in metrics {
        if m.id == metric {
            return (part < m.values()).then_some(at + part * m.kind.slots());
        }
        at += m.slots();
    }
    None
}

/// Observation slots one simulation fills.
pub fn slots(metrics: &[Metric]) -> usize {
    metrics.iter().map(Metric::slots).sum()
}

/// What one simulation is called, for tables and JSON (`games`, `matches`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Unit {
    pub id: String,
    pub label: Labels,
}

/// Keys of a scenario object in JSON output that metric ids must not take.
pub const RESERVED_KEYS: &[&str] = &["id", "label", "description", "fingerprint", "against_fingerprint", "simulations"];
