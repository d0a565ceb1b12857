//! A match record's replay in the vocabulary every game shares (`microfut_core::record`): what
//! `microfut replay` and `microfut space replay` print, and the `--json` report.

use super::{FORMAT, MatchRecord, ReplayError, check_located, pinned_rules};
use crate::board::Board;
use crate::referee::Outcome;
use microfut_core::catalog::Catalog;
use microfut_core::record::{Record, Refusal, ReplayReport, Unit, Verdict, pin_pointer};

/// A match record read for replay, with the name its messages call it by.
pub struct ReadRecord {
    pub name: String,
    pub record: MatchRecord,
}

impl ReadRecord {
    /// Reads a record already parsed strictly as JSON; a field no match can hold is named by
    /// its pointer.
    pub fn read(name: &str, value: serde_json::Value) -> Result<ReadRecord, Refusal> {
        let record = MatchRecord::from_value(value).map_err(|e| refusal(name, e))?;
        Ok(ReadRecord { name: name.to_string(), record })
    }
}

impl Record for ReadRecord {
    fn pin(&self) -> (&str, &str) {
        (&self.record.ruleset, &self.record.revision)
    }

    fn replay(&self, catalog: &Catalog) -> Result<ReplayReport, Refusal> {
        let rules = pinned_rules(catalog, &self.record).map_err(|e| refusal(&self.name, e))?;
        let board = Board::from_json(&self.record.board).map_err(|e| refusal(&self.name, ReplayError::Board(e)))?;
        let record = &self.record;
        let (verdict, message) = match check_located(&rules, board, record) {
            Ok(o) => (
                Verdict::Identical,
                format!("identical: every action legal under {} {}, {}", record.ruleset, record.revision, summary(&o)),
            ),
            Err(m) => (
                Verdict::Differs {
                    step: m.action.map(|k| k as u64),
                    pointer: m.pointer,
                    expected: m.expected,
                    actual: m.actual,
                },
                format!("differs: {}", m.statement),
            ),
        };
        Ok(ReplayReport {
            format: FORMAT.to_string(),
            ruleset: record.ruleset.clone(),
            revision: record.revision.clone(),
            fingerprint: record.fingerprint.clone(),
            steps: record.actions.len() as u64,
            unit: Unit::Actions,
            verdict,
            message,
        })
    }
}

/// A problem of the record (`name#pointer`), or of what it pins, naming the record.
pub fn refusal(name: &str, e: ReplayError) -> Refusal {
    match e {
        ReplayError::Record { pointer, message } => Refusal::at(name, &pointer, message),
        ReplayError::Catalog(e) => match pin_pointer(&e) {
            Some(pointer) => Refusal::at(name, pointer, e),
            None => Refusal::of(name, e),
        },
        e => Refusal::of(name, e),
    }
}

/// An outcome in one line: "white wins by goal after 31 action(s) · points 3–0 · white valid,
/// black valid".
pub fn summary(o: &Outcome) -> String {
    let valid = |v: bool| if v { "valid" } else { "INVALID" };
    format!(
        "{} after {} action(s) · points {}–{} · white {}, black {}",
        super::describe(o.winner, o.victory),
        o.actions,
        o.points[0],
        o.points[1],
        valid(o.valid[0]),
        valid(o.valid[1])
    )
}
