//! Journey records and bit-exact replay. A record pins what the run was made with — the
//! revision and its fingerprint, the mode, the policy the mode selected and the policy's own
//! fingerprint, the executor version, the seed — and keeps every command with the state hash
//! after it. Replay plays the commands again on the pinned revision and names the first
//! command whose hash differs; a revision that changed, a mode that now selects another policy
//! or another executor is refused, never silently migrated.

mod report;

pub use report::{ReadRecord, refusal};

use super::combat::{Command, Event, Run};
use super::model::World;
use microfut_core::catalog::seal::Seal;
use microfut_core::catalog::{Catalog, CatalogError, ENGINE_VERSION};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::sync::Arc;

pub const FORMAT: &str = "effects-run/1";

/// How this binary plays a journey. It changes when the same content and commands would play
/// differently (an executor fix); a record of another executor needs the binary that made it.
pub const EXECUTOR: u32 = 1;

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct PolicyPin {
    pub id: String,
    pub fingerprint: String,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct RecordOutcome {
    /// `None` when the run was recorded before its end.
    pub victory: Option<bool>,
    pub encounters_won: u32,
    pub hero: BTreeMap<String, f64>,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct JourneyRecord {
    pub format: String,
    pub ruleset: String,
    pub revision: String,
    pub fingerprint: String,
    pub engine_version: String,
    pub executor: u32,
    pub run_id: String,
    pub mode: String,
    /// The policy the mode selected, or none.
    pub policy: Option<PolicyPin>,
    pub journey: String,
    pub seed: u64,
    pub commands: Vec<Command>,
    /// The state hash after each command, hex.
    pub state_hashes: Vec<String>,
    pub outcome: RecordOutcome,
    pub events: Vec<Event>,
    /// Digests of the engine version, which replay cannot recompute, and of each command, by
    /// JSON pointer; absent in records written before seals.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seal: Option<Seal>,
}

/// What replay cannot recompute: every other field is what the replayed run records.
const SEALED: [&str; 1] = ["/engineVersion"];

/// The sealed parts: the engine version, and each command — two cards alike in a hand play the
/// same whichever position a command names, so an edited position can replay identical.
fn sealed_parts(record: &serde_json::Value) -> Vec<String> {
    let mut parts = SEALED.map(String::from).to_vec();
    let commands = record.get("commands").and_then(|c| c.as_array()).map_or(0, Vec::len);
    parts.extend((0..commands).map(|i| format!("/commands/{i}")));
    parts
}

#[derive(Debug, thiserror::Error)]
pub enum RecordError {
    #[error("not a journey record ({0})")]
    Format(String),
    #[error(transparent)]
    Catalog(#[from] CatalogError),
    #[error("{0}")]
    Compile(String),
    #[error(
        "the run was played by effects executor {recorded}; this binary is executor {this}: replay it with the binary that made it"
    )]
    Executor { recorded: u32, this: u32 },
    #[error("{0}")]
    Mode(String),
    /// A field of the record no run can hold (an edit), by JSON pointer.
    #[error("{pointer}: {message}")]
    Record { pointer: String, message: String },
}

impl JourneyRecord {
    pub fn of(run: &Run) -> JourneyRecord {
        let world = run.world();
        JourneyRecord {
            format: FORMAT.into(),
            ruleset: world.rs.id.clone(),
            revision: world.rs.version.to_string(),
            fingerprint: world.rs.fingerprint.clone(),
            engine_version: ENGINE_VERSION.into(),
            executor: EXECUTOR,
            run_id: run.id().into(),
            mode: run.mode().id.clone(),
            policy: run.policy().map(|p| PolicyPin { id: p.id.clone(), fingerprint: p.fingerprint.clone() }),
            journey: run.journey().id.clone(),
            seed: run.seed(),
            commands: run.commands().to_vec(),
            state_hashes: run.hashes().iter().map(|h| format!("{h:016x}")).collect(),
            outcome: RecordOutcome {
                victory: run.victory(),
                encounters_won: run.encounters_won(),
                hero: run.hero().values.clone(),
            },
            events: run.events().to_vec(),
            seal: None,
        }
        .sealed()
    }

    /// The record with its seal (any earlier one replaced).
    pub fn sealed(mut self) -> JourneyRecord {
        self.seal = None;
        let v = serde_json::to_value(&self).expect("journey records serialise");
        self.seal = Some(microfut_core::catalog::seal::seal(&v, &sealed_parts(&v)));
        self
    }

    /// Reads a record strictly: a value that does not fit, and anything the file says that
    /// the record's types do not read (a key inside an event), named by JSON pointer.
    pub fn parse(bytes: &[u8]) -> Result<JourneyRecord, RecordError> {
        let value: serde_json::Value = microfut_core::catalog::from_json(bytes)
            .map_err(|e| RecordError::Format(microfut_core::catalog::describe_json_error(&e)))?;
        JourneyRecord::from_value(value)
    }

    /// [`JourneyRecord::parse`] of a value already read strictly (`catalog::from_json`).
    pub fn from_value(value: serde_json::Value) -> Result<JourneyRecord, RecordError> {
        if let Some(f) = value.get("format")
            && f.as_str() != Some(FORMAT)
        {
            return Err(RecordError::Record {
                pointer: "/format".into(),
                message: format!("{f}, expected \"{FORMAT}\""),
            });
        }
        let r: JourneyRecord = microfut_core::catalog::from_value_located(value.clone(), "a journey record")
            .map_err(|e| RecordError::Record { pointer: e.pointer, message: e.message })?;
        let read = serde_json::to_value(&r).expect("journey records serialise");
        if let Some(u) = microfut_core::catalog::seal::first_unread(&value, &read) {
            return Err(RecordError::Record { pointer: u.pointer, message: u.message });
        }
        Ok(r)
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Replay {
    Identical {
        commands: usize,
    },
    /// 1-based command whose state hash differs (or where the runs stop agreeing on length).
    Differs {
        sequence: usize,
        expected: Option<String>,
        actual: Option<String>,
    },
    /// A recorded command the replay refuses.
    CommandRefused {
        sequence: usize,
        command: String,
        reason: String,
    },
    /// Every hash agrees, but the record's outcome or events are not what the replay produced.
    RecordEdited {
        part: &'static str,
        at: String,
    },
}

/// The world a record pins: its revision (refused when missing or changed), compiled, with
/// the mode selecting the same policy as when it was recorded.
pub fn pinned_world(catalog: &Catalog, record: &JourneyRecord) -> Result<Arc<World>, RecordError> {
    if let Some(seal) = &record.seal {
        let v = serde_json::to_value(record).expect("journey records serialise");
        if let Some(p) = microfut_core::catalog::seal::broken(&v, seal, &sealed_parts(&v)) {
            return Err(RecordError::Record {
                pointer: p,
                message: "edited after the record was written: it no longer matches the record's seal".into(),
            });
        }
    }
    if record.executor != EXECUTOR {
        return Err(RecordError::Executor { recorded: record.executor, this: EXECUTOR });
    }
    let rev = catalog.pinned(&record.ruleset, &record.revision, &record.fingerprint)?;
    let world = super::compile(rev).map_err(|d| RecordError::Compile(format!("{}: {}", rev.label(), d[0])))?;
    let mode = world
        .modes
        .get(&record.mode)
        .ok_or_else(|| RecordError::Mode(format!("revision {} has no mode '{}'", rev.label(), record.mode)))?;
    let now = world.mode_policy(mode).map(|p| PolicyPin { id: p.id.clone(), fingerprint: p.fingerprint.clone() });
    if now != record.policy {
        return Err(RecordError::Mode(format!(
            "mode '{}' of {} selects {:?}, but the run was made with {:?}",
            record.mode,
            rev.label(),
            now.map(|p| p.id),
            record.policy.as_ref().map(|p| &p.id)
        )));
    }
    Ok(Arc::new(world))
}

/// Plays the recorded commands again and compares the state hash after each, then the
/// outcome and the events.
pub fn replay(world: Arc<World>, record: &JourneyRecord) -> Result<Replay, RecordError> {
    let mut run = Run::new(world, &record.mode, record.seed, record.run_id.clone())
        .map_err(|e| RecordError::Mode(e.to_string()))?;
    for (i, command) in record.commands.iter().enumerate() {
        if let Err(e) = run.apply(command) {
            return Ok(Replay::CommandRefused {
                sequence: i + 1,
                command: serde_json::to_string(command).expect("commands serialise"),
                reason: e.to_string(),
            });
        }
        let actual = format!("{:016x}", run.hashes()[i]);
        let expected = record.state_hashes.get(i);
        if expected != Some(&actual) {
            return Ok(Replay::Differs { sequence: i + 1, expected: expected.cloned(), actual: Some(actual) });
        }
    }
    let n = record.commands.len();
    if record.state_hashes.len() != n {
        return Ok(Replay::Differs { sequence: n + 1, expected: record.state_hashes.get(n).cloned(), actual: None });
    }
    let replayed = JourneyRecord::of(&run);
    if replayed.outcome != record.outcome {
        return Ok(Replay::RecordEdited { part: "outcome", at: "the outcome".into() });
    }
    let json = |e: &Event| serde_json::to_value(e).expect("events serialise");
    let first = record.events.iter().zip(&replayed.events).position(|(a, b)| json(a) != json(b));
    let at = match first {
        Some(k) => Some(k),
        None if record.events.len() != replayed.events.len() => Some(record.events.len().min(replayed.events.len())),
        None => None,
    };
    if let Some(k) = at {
        return Ok(Replay::RecordEdited {
            part: "events",
            at: format!("event {k} ({} recorded, {} replayed)", record.events.len(), replayed.events.len()),
        });
    }
    // Every other field is what the replayed run records too (the seal covers the rest).
    let whole = |r: &JourneyRecord| {
        let mut v = serde_json::to_value(r).expect("journey records serialise");
        if let Some(o) = v.as_object_mut() {
            o.remove("seal");
            for p in SEALED {
                o.remove(&p[1..]);
            }
        }
        v
    };
    if let Some(d) = microfut_core::catalog::seal::first_unread(&whole(record), &whole(&replayed)) {
        return Ok(Replay::RecordEdited { part: "record", at: d.pointer });
    }
    Ok(Replay::Identical { commands: n })
}
