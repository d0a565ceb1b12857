//! Runs: the record of a match — what it was made with (ruleset, revision version and
//! fingerprint, engine version, seed, both squads as they started, every human intent) and what
//! happened (events, a state hash after every round) — and bit-exact replay.

use crate::catalog::{Catalog, CatalogError, ENGINE_VERSION};
use crate::club::Club;
use crate::engine::{self, EngineError, Event, Match, Options, RecordedIntent, Rules, Step, TeamStats};
use crate::ruleset::compile;
use serde::{Deserialize, Serialize};
use std::sync::Arc;

pub const FORMAT: &str = "microfut-run/1";

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RunRecord {
    pub format: String,
    pub ruleset: String,
    pub revision: String,
    pub fingerprint: String,
    pub engine_version: String,
    pub seed: u64,
    /// The side a person played: "home", "away", or none.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub human: Option<String>,
    #[serde(default)]
    pub formations: [Option<String>; 2],
    pub home: Club,
    pub away: Club,
    pub intents: Vec<RecordedIntent>,
    pub score: [u32; 2],
    pub stats: [TeamStats; 2],
    pub events: Vec<Event>,
    /// FNV-1a hash of the state after every round, hex.
    pub round_hashes: Vec<String>,
}

#[derive(Debug, thiserror::Error)]
pub enum RunError {
    #[error("not a run record ({0})")]
    Format(String),
    #[error(transparent)]
    Catalog(#[from] CatalogError),
    #[error("{0}")]
    Compile(String),
    #[error(transparent)]
    Engine(#[from] EngineError),
}

/// A side name as runs and the CLI write it.
pub fn side_name(t: usize) -> &'static str {
    if t == 0 { "home" } else { "away" }
}

pub fn side_index(name: &str) -> Option<usize> {
    match name {
        "home" => Some(0),
        "away" => Some(1),
        _ => None,
    }
}

impl RunRecord {
    /// The record of a finished (or stopped) match.
    pub fn of(m: &Match, rules: &Rules, formations: [Option<String>; 2], human: Option<usize>) -> RunRecord {
        let rs = &rules.rs;
        RunRecord {
            format: FORMAT.into(),
            ruleset: rs.id.clone(),
            revision: rs.version.to_string(),
            fingerprint: rs.fingerprint.clone(),
            engine_version: ENGINE_VERSION.into(),
            seed: m.seed(),
            human: human.map(|t| side_name(t).to_string()),
            formations,
            home: m.teams()[0].club.clone(),
            away: m.teams()[1].club.clone(),
            intents: m.intents().to_vec(),
            score: m.score(),
            stats: m.stats().clone(),
            events: m.events().to_vec(),
            round_hashes: m.round_hashes().iter().map(|h| format!("{h:016x}")).collect(),
        }
    }

    pub fn parse(bytes: &[u8]) -> Result<RunRecord, RunError> {
        let r: RunRecord = crate::catalog::from_json(bytes).map_err(|e| RunError::Format(e.to_string()))?;
        if r.format != FORMAT {
            return Err(RunError::Format(format!("format '{}', expected '{FORMAT}'", r.format)));
        }
        Ok(r)
    }
}

/// What a replay found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Replay {
    Identical {
        rounds: usize,
    },
    /// 0-based round whose state hash differs (or where the runs stop agreeing on length).
    Differs {
        round: usize,
        expected: Option<String>,
        actual: Option<String>,
    },
    /// A recorded human intent the replayed match does not offer at its round.
    IntentRefused {
        round: u32,
        intent: String,
        reason: String,
    },
    /// Every state hash agrees, but what the record says happened (score, statistics or
    /// events) is not what the replay produced: the record was edited after it was written.
    RecordEdited {
        /// `score`, `stats` or `events`.
        part: &'static str,
        /// Where the first difference is, e.g. `event 17 (round 1763)`.
        at: String,
    },
}

/// The revision a run pins, compiled for the engine; refused when missing, changed or for
/// another engine.
pub fn pinned_rules(catalog: &Catalog, record: &RunRecord) -> Result<Arc<Rules>, RunError> {
    let rev = catalog.pinned(&record.ruleset, &record.revision, &record.fingerprint)?;
    let rs = compile(rev).map_err(|d| RunError::Compile(format!("{}: {}", rev.label(), d[0])))?;
    Ok(Arc::new(Rules::new(Arc::new(rs)).map_err(EngineError::from)?))
}

/// Plays the recorded match again under its pinned revision, feeding back every human intent at
/// the round it was declared, and compares the state hash of every round.
pub fn replay(rules: Arc<Rules>, record: &RunRecord) -> Result<Replay, RunError> {
    let human = record.human.as_deref().and_then(side_index);
    let options = Options { human, retention: Some(0), formations: record.formations.clone() };
    let mut m = Match::new(rules, &record.home, &record.away, record.seed, options)?;
    let mut intents = record.intents.iter().peekable();
    loop {
        match m.step() {
            Step::Finished => break,
            Step::Round => {}
            Step::Decision => {
                let round = m.state().round;
                match intents.peek() {
                    Some(i) if i.round == round => {
                        let i = intents.next().expect("peeked");
                        if let Err(e) = m.decide(&i.intent) {
                            return Ok(Replay::IntentRefused {
                                round,
                                intent: i.intent.to_string(),
                                reason: e.to_string(),
                            });
                        }
                    }
                    _ => m.decide_npc().expect("a decision is pending"),
                }
            }
        }
        let n = m.round_hashes().len();
        if n > 0 {
            let actual = format!("{:016x}", m.round_hashes()[n - 1]);
            let expected = record.round_hashes.get(n - 1);
            if expected != Some(&actual) {
                return Ok(Replay::Differs { round: n - 1, expected: expected.cloned(), actual: Some(actual) });
            }
        }
    }
    let n = m.round_hashes().len();
    if n != record.round_hashes.len() {
        return Ok(Replay::Differs { round: n, expected: record.round_hashes.get(n).cloned(), actual: None });
    }
    if let Some(edited) = compare_outcome(&m, record) {
        return Ok(edited);
    }
    Ok(Replay::Identical { rounds: n })
}

/// What the record claims happened against what the replay produced, compared as JSON (the
/// form the record was written in).
fn compare_outcome(m: &Match, record: &RunRecord) -> Option<Replay> {
    fn json<T: Serialize>(v: &T) -> serde_json::Value {
        serde_json::to_value(v).expect("run records serialise")
    }
    if record.score != m.score() {
        return Some(Replay::RecordEdited {
            part: "score",
            at: format!("{:?} recorded, {:?} replayed", record.score, m.score()),
        });
    }
    // Statistics an engine added after the record was written are not in it.
    let older = semver::Version::parse(&record.engine_version).map_or(true, |v| v < semver::Version::new(0, 5, 3));
    let stats = |s: &TeamStats| {
        let mut v = json(s);
        if older && let Some(o) = v.as_object_mut() {
            for k in TeamStats::ADDED_IN_0_5_3 {
                o.remove(*k);
            }
        }
        v
    };
    for (t, (a, b)) in record.stats.iter().zip(m.stats().iter()).enumerate() {
        if stats(a) != stats(b) {
            return Some(Replay::RecordEdited { part: "stats", at: format!("the {} side's", side_name(t)) });
        }
    }
    let (recorded, replayed) = (&record.events, m.events());
    let first = recorded.iter().zip(replayed.iter()).position(|(a, b)| json(a) != json(b));
    let at = match first {
        Some(k) => Some(k),
        None if recorded.len() != replayed.len() => Some(recorded.len().min(replayed.len())),
        None => None,
    }?;
    let round = replayed.get(at).or(recorded.get(at)).map(|e| e.round);
    Some(Replay::RecordEdited {
        part: "events",
        at: match round {
            Some(r) => format!("event {at} (round {r}; {} recorded, {} replayed)", recorded.len(), replayed.len()),
            None => format!("event {at}"),
        },
    })
}

/// Compiles a revision for the match engine, naming what is missing when it cannot.
pub fn rules_for(catalog: &Catalog, version: Option<&str>) -> Result<Arc<Rules>, RunError> {
    let rev = catalog.revision("microfut", version)?;
    let rs = compile(rev).map_err(|d| RunError::Compile(format!("{}: {}", rev.label(), d[0])))?;
    Ok(Arc::new(engine::Rules::new(Arc::new(rs)).map_err(EngineError::from)?))
}
