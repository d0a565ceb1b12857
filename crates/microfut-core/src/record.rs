//! One vocabulary for replaying any game's record (issue 51): what a record pins (ruleset,
//! revision, fingerprint), how many steps it holds and in what unit, and the verdict —
//! identical, the first difference, or a recorded input the replay refuses. Each game reads its
//! own format and keeps its own replay; it maps its own verdict into a [`ReplayReport`] through
//! [`crate::game::Game::replay`], so `microfut replay` asks the registry instead of matching
//! formats.

use crate::catalog::{Catalog, CatalogError, printable};
use serde::{Deserialize, Serialize};

/// The unit a game's record counts its steps in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Unit {
    /// A match's rounds (Microfut), numbered from 0 as the engine counts them.
    Rounds,
    /// A Space Football match's actions, numbered from 1.
    Actions,
    /// A World 1 journey's commands, numbered from 1.
    Commands,
}

impl Unit {
    pub fn name(self) -> &'static str {
        match self {
            Unit::Rounds => "rounds",
            Unit::Actions => "actions",
            Unit::Commands => "commands",
        }
    }
}

/// What a replay found.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "verdict", rename_all = "camelCase")]
pub enum Verdict {
    /// Every step replays as recorded, and so does what the record says happened.
    Identical,
    /// The first thing that does not hold.
    Differs {
        /// The step where the replay first parts from the record, numbered as the game's own
        /// messages number it (see [`Unit`]); none when every step agrees and it is what the
        /// record says about the result that differs (an edited record).
        step: Option<u64>,
        /// The part of the record that differs, as a JSON pointer into it.
        pointer: String,
        /// What the record says there (a state hash, or a statement), when it is one value.
        expected: Option<String>,
        /// What the replay produced there.
        actual: Option<String>,
    },
    /// A recorded input (a person's intent, a command) the replayed game does not accept.
    Refused {
        step: u64,
        /// The input's JSON pointer in the record.
        pointer: String,
        input: String,
        reason: String,
    },
}

/// A replay's result in the vocabulary every game shares (`microfut replay --json` prints it).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ReplayReport {
    /// The record's format (`microfut-run/1`, `space-match/1`, `effects-run/1`).
    pub format: String,
    /// What the record pins.
    pub ruleset: String,
    pub revision: String,
    pub fingerprint: String,
    /// How many steps the record holds, in `unit`.
    pub steps: u64,
    pub unit: Unit,
    #[serde(flatten)]
    pub verdict: Verdict,
    /// The verdict in one line, as the game's own replay command prints it.
    pub message: String,
}

impl ReplayReport {
    pub fn identical(&self) -> bool {
        self.verdict == Verdict::Identical
    }
}

/// Why a record cannot be replayed at all (bad input: the command exits 2). The message names
/// the record, and the JSON pointer of the field at fault when there is one.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{message}")]
pub struct Refusal {
    pub message: String,
}

impl Refusal {
    /// A problem of the record as a whole, or of the content it pins: `name: message`.
    pub fn of(name: &str, message: impl std::fmt::Display) -> Refusal {
        Refusal { message: format!("{name}: {message}") }
    }

    /// A problem of one field: `name#pointer: message` (`name: message` for the empty pointer,
    /// the record itself). What the record holds is echoed on one line, control characters
    /// escaped.
    pub fn at(name: &str, pointer: &str, message: impl std::fmt::Display) -> Refusal {
        if pointer.is_empty() {
            return Refusal { message: format!("{name}: {}", printable(&message.to_string())) };
        }
        Refusal { message: format!("{name}#{}: {}", printable(pointer), printable(&message.to_string())) }
    }

    /// A message already composed (it names the record).
    pub fn new(message: impl Into<String>) -> Refusal {
        Refusal { message: message.into() }
    }
}

/// The field of a record a catalog's refusal of its pin is about: the ruleset it names, the
/// revision (malformed or absent from the content) or the fingerprint (not the revision's).
pub fn pin_pointer(e: &CatalogError) -> Option<&'static str> {
    match e {
        CatalogError::UnknownRuleset(..) => Some("/ruleset"),
        CatalogError::BadVersion(_) | CatalogError::MissingRevision { .. } => Some("/revision"),
        CatalogError::FingerprintMismatch { .. } => Some("/fingerprint"),
        _ => None,
    }
}

/// A game's record, read and checked as its format requires, ready to replay.
pub trait Record {
    /// The ruleset and revision the record pins: what the catalog given to
    /// [`Record::replay`] must hold (a command loads only that revision).
    fn pin(&self) -> (&str, &str);

    /// Plays the record again on its pinned revision.
    fn replay(&self, catalog: &Catalog) -> Result<ReplayReport, Refusal>;
}

/// The format a JSON record declares (`/format`), when it declares one as a string.
pub fn format_of(record: &serde_json::Value) -> Option<&str> {
    record.get("format").and_then(|f| f.as_str())
}

/// The ruleset a JSON record names (`/ruleset`), when it names one as a string.
pub fn ruleset_of(record: &serde_json::Value) -> Option<&str> {
    record.get("ruleset").and_then(|f| f.as_str())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn report(verdict: Verdict) -> ReplayReport {
        ReplayReport {
            format: "space-match/1".into(),
            ruleset: "space".into(),
            revision: "0.1.0".into(),
            fingerprint: "sha256:00".into(),
            steps: 12,
            unit: Unit::Actions,
            verdict,
            message: "…".into(),
        }
    }

    /// The verdict is flattened into the report: one object a script reads without nesting.
    #[test]
    fn a_report_is_one_flat_object_that_reads_back() {
        let r = report(Verdict::Differs {
            step: Some(3),
            pointer: "/actions/2".into(),
            expected: None,
            actual: Some("x".into()),
        });
        let v = serde_json::to_value(&r).unwrap();
        assert_eq!(v["verdict"], "differs");
        assert_eq!(v["step"], 3);
        assert_eq!(v["pointer"], "/actions/2");
        assert_eq!(v["unit"], "actions");
        assert!(v["expected"].is_null());
        assert_eq!(serde_json::from_value::<ReplayReport>(v).unwrap(), r);
        let same = report(Verdict::Identical);
        let v = serde_json::to_value(&same).unwrap();
        assert_eq!(v["verdict"], "identical");
        assert!(v.get("step").is_none());
        assert_eq!(serde_json::from_value::<ReplayReport>(v).unwrap(), same);
    }

    #[test]
    fn a_refusal_names_the_record_and_the_pointer_on_one_line() {
        assert_eq!(Refusal::at("r.json", "/revision", "missing").message, "r.json#/revision: missing");
        assert_eq!(Refusal::at("r.json", "", "not an object").message, "r.json: not an object");
        assert_eq!(Refusal::at("r.json", "", "a\nb").message, "r.json: a\\nb");
    }
}
