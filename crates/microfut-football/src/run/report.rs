//! A run record's replay in the vocabulary every game shares (`microfut_core::record`): what
//! `microfut replay` prints of a match, and its `--json` report.

use super::{FORMAT, Replay, RunError, RunRecord, pinned_rules, replay};
use microfut_core::catalog::{Catalog, ENGINE_VERSION};
use microfut_core::record::{Record, Refusal, ReplayReport, Unit, Verdict};

/// A run record read for `microfut replay`, with the name its messages call it by.
pub struct ReadRecord {
    pub name: String,
    pub record: RunRecord,
}

impl ReadRecord {
    /// Reads a record already parsed strictly as JSON; a field no run can hold is named by
    /// its pointer.
    pub fn read(name: &str, value: serde_json::Value) -> Result<ReadRecord, Refusal> {
        let record = RunRecord::from_value(value).map_err(|e| refusal(name, e))?;
        Ok(ReadRecord { name: name.to_string(), record })
    }

    /// The replay's verdict, and the record's own, for a caller that needs more than the report.
    pub fn replay_run(&self, catalog: &Catalog) -> Result<Replay, Refusal> {
        let rules = pinned_rules(catalog, &self.record).map_err(|e| refusal(&self.name, e))?;
        replay(rules, &self.record).map_err(|e| refusal(&self.name, e))
    }
}

impl Record for ReadRecord {
    fn pin(&self) -> (&str, &str) {
        (&self.record.ruleset, &self.record.revision)
    }

    fn replay(&self, catalog: &Catalog) -> Result<ReplayReport, Refusal> {
        Ok(report(&self.name, &self.record, self.replay_run(catalog)?))
    }
}

/// A problem of the record (by JSON pointer), or of the content it pins, naming the record.
pub fn refusal(name: &str, e: RunError) -> Refusal {
    match e {
        RunError::Record { pointer, message } => Refusal::at(name, &pointer, message),
        RunError::Format(m) => Refusal::of(name, format!("not a run record ({m})")),
        other => Refusal::new(format!("cannot replay {name}: {other}")),
    }
}

/// The report of a replay: its verdict, and the line `microfut replay` has always printed.
pub fn report(name: &str, record: &RunRecord, result: Replay) -> ReplayReport {
    // A run made by another engine version may be played differently by this one: say so.
    let engine_note = if record.engine_version == ENGINE_VERSION {
        String::new()
    } else {
        format!(" (recorded with engine {}; this is engine {ENGINE_VERSION})", record.engine_version)
    };
    let (verdict, message) = match result {
        Replay::Identical { rounds } => {
            let so_far = if record.finished() { "" } else { " so far: the run is unfinished" };
            // A record written before seals: what replay cannot recompute went unchecked.
            let seal_note = if record.seal.is_some() { "" } else { "; unsealed: its squads' names were not checked" };
            let line = format!(
                "identical ({rounds} rounds{so_far}, {} {}){engine_note}{seal_note}",
                record.ruleset, record.revision
            );
            (Verdict::Identical, line)
        }
        Replay::Differs { round, expected, actual } => {
            let line = format!(
                "differs at round {round}: recorded state {}, replayed {}{engine_note}",
                expected.as_deref().unwrap_or("nothing"),
                actual.as_deref().unwrap_or("nothing")
            );
            let pointer = if round < record.round_hashes.len() {
                format!("/round_hashes/{round}")
            } else {
                "/round_hashes".to_string()
            };
            (Verdict::Differs { step: Some(round as u64), pointer, expected, actual }, line)
        }
        Replay::IntentRefused { round, intent, reason } => {
            let line = format!(
                "differs at round {round}: the recorded intent '{intent}' is refused by the replay ({reason}){engine_note}"
            );
            let pointer = match record.intents.iter().position(|i| i.round == round) {
                Some(k) => format!("/intents/{k}"),
                None => "/intents".to_string(),
            };
            (Verdict::Refused { step: u64::from(round), pointer, input: intent, reason }, line)
        }
        Replay::RecordEdited { part, at } => {
            let line = format!(
                "{name}#/{part}: the record was edited after it was written: the match replays identically, but what it says about {part} differs from the replay (first at {at})"
            );
            (Verdict::Differs { step: None, pointer: format!("/{part}"), expected: None, actual: None }, line)
        }
    };
    ReplayReport {
        format: FORMAT.to_string(),
        ruleset: record.ruleset.clone(),
        revision: record.revision.clone(),
        fingerprint: record.fingerprint.clone(),
        steps: record.round_hashes.len() as u64,
        unit: Unit::Rounds,
        verdict,
        message,
    }
}
