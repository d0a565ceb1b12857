//! A journey record's replay in the vocabulary every game shares (`microfut_core::record`):
//! what `microfut replay` and `microfut effects replay` print, and the `--json` report.

use super::{FORMAT, JourneyRecord, RecordError, Replay, pinned_world, replay};
use microfut_core::catalog::Catalog;
use microfut_core::record::{Record, Refusal, ReplayReport, Unit, Verdict, pin_pointer};

/// A journey record read for replay, with the name its messages call it by.
pub struct ReadRecord {
    pub name: String,
    pub record: JourneyRecord,
}

impl ReadRecord {
    /// Reads a record already parsed strictly as JSON; a field no run can hold is named by
    /// its pointer.
    pub fn read(name: &str, value: serde_json::Value) -> Result<ReadRecord, Refusal> {
        let record = JourneyRecord::from_value(value).map_err(|e| refusal(name, "cannot read", e))?;
        Ok(ReadRecord { name: name.to_string(), record })
    }
}

impl Record for ReadRecord {
    fn pin(&self) -> (&str, &str) {
        (&self.record.ruleset, &self.record.revision)
    }

    fn replay(&self, catalog: &Catalog) -> Result<ReplayReport, Refusal> {
        let world = pinned_world(catalog, &self.record).map_err(|e| refusal(&self.name, "cannot replay", e))?;
        let result = replay(world, &self.record).map_err(|e| refusal(&self.name, "cannot replay", e))?;
        Ok(report(&self.name, &self.record, result))
    }
}

/// A problem of the record (`name#pointer`), or of what it pins, naming the record; `doing` is
/// what could not be done (`cannot read`, `cannot replay`).
pub fn refusal(name: &str, doing: &str, e: RecordError) -> Refusal {
    match e {
        RecordError::Record { pointer, message } => Refusal::at(name, &pointer, message),
        e @ RecordError::Format(_) => Refusal::of(name, e),
        RecordError::Catalog(e) => match pin_pointer(&e) {
            Some(pointer) => Refusal::at(name, pointer, e),
            None => Refusal::new(format!("{doing} {name}: {e}")),
        },
        e => Refusal::new(format!("{doing} {name}: {e}")),
    }
}

/// The report of a replay: its verdict, and the line `effects replay` has always printed.
pub fn report(name: &str, record: &JourneyRecord, result: Replay) -> ReplayReport {
    let (verdict, message) = match result {
        Replay::Identical { commands } => {
            let line = format!(
                "identical ({commands} commands, {} {}, mode {}, policy {})",
                record.ruleset,
                record.revision,
                record.mode,
                record.policy.as_ref().map(|p| p.id.as_str()).unwrap_or("none")
            );
            (Verdict::Identical, line)
        }
        Replay::Differs { sequence, expected, actual } => {
            let line = format!(
                "differs at command {sequence}: recorded state {}, replayed {}",
                expected.as_deref().unwrap_or("nothing"),
                actual.as_deref().unwrap_or("nothing")
            );
            let pointer = if sequence >= 1 && sequence <= record.state_hashes.len() {
                format!("/stateHashes/{}", sequence - 1)
            } else {
                "/stateHashes".to_string()
            };
            (Verdict::Differs { step: Some(sequence as u64), pointer, expected, actual }, line)
        }
        Replay::CommandRefused { sequence, command, reason } => {
            let line = format!(
                "differs at command {sequence}: the recorded command {command} is refused by the replay ({reason})"
            );
            let pointer = format!("/commands/{}", sequence.saturating_sub(1));
            (Verdict::Refused { step: sequence as u64, pointer, input: command, reason }, line)
        }
        Replay::RecordEdited { part: "record", at } => {
            let line = format!(
                "{name}#{at}: the record was edited after it was written: every command replays identically, but the replayed run records something else there"
            );
            (Verdict::Differs { step: None, pointer: at, expected: None, actual: None }, line)
        }
        Replay::RecordEdited { part, at } => {
            let line = format!(
                "differs: every command's state replays identically, but what the record says about {part} differs \
                 from the replay (first at {at}); the run file was edited after it was written"
            );
            (Verdict::Differs { step: None, pointer: format!("/{part}"), expected: None, actual: None }, line)
        }
    };
    ReplayReport {
        format: FORMAT.to_string(),
        ruleset: record.ruleset.clone(),
        revision: record.revision.clone(),
        fingerprint: record.fingerprint.clone(),
        steps: record.commands.len() as u64,
        unit: Unit::Commands,
        verdict,
        message,
    }
}
