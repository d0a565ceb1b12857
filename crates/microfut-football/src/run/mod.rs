//! Runs: the record of a match — what it was made with (ruleset, revision version and
//! fingerprint, engine version, seed, both squads as they started, every human intent) and what
//! happened (events, a state hash after every round) — and bit-exact replay.

mod report;
pub mod resume;

pub use report::{ReadRecord, refusal};

use crate::club::Club;
use crate::engine::{self, EngineError, Event, Match, Options, RecordedIntent, Rules, Step, TeamStats};
use microfut_core::catalog::seal::Seal;
use microfut_core::catalog::{Catalog, CatalogError, ENGINE_VERSION, Status};
use microfut_core::ruleset::compile;
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
    /// The state hash after every round (`engine::State::hash`), hex.
    pub round_hashes: Vec<String>,
    /// Digests of the parts replay cannot recompute (`sealed_parts`: the squads, player by
    /// player, the engine version, the human side, the formations), by JSON pointer; absent in
    /// records written before seals.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seal: Option<Seal>,
}

/// What replay cannot recompute, by JSON pointer: names and every other field of both clubs
/// (a part per player), the engine version, the human side and the formations (a human side
/// that declared nothing, or a formation named that is the default, plays the same).
fn sealed_parts(record: &serde_json::Value) -> Vec<String> {
    let mut parts: Vec<String> = ["/engine_version", "/human", "/formations"].map(String::from).to_vec();
    for side in ["/home", "/away"] {
        parts.extend(microfut_core::catalog::seal::parts_of(record, side, &["squad"]));
    }
    parts
}

#[derive(Debug, thiserror::Error)]
pub enum RunError {
    #[error("not a run record ({0})")]
    Format(String),
    /// A field of the record that no run can hold (an edited record), by JSON pointer.
    #[error("{}{message}", if pointer.is_empty() { String::new() } else { format!("{pointer}: ") })]
    Record { pointer: String, message: String },
    #[error(transparent)]
    Catalog(#[from] CatalogError),
    #[error("{0}")]
    Compile(String),
    #[error(transparent)]
    Engine(#[from] EngineError),
    #[error(transparent)]
    Fault(#[from] crate::engine::MatchFault),
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
            seal: None,
        }
        .sealed()
    }

    /// The record with its seal (any earlier one replaced).
    pub fn sealed(mut self) -> RunRecord {
        self.seal = None;
        let v = serde_json::to_value(&self).expect("run records serialise");
        self.seal = Some(microfut_core::catalog::seal::seal(&v, &sealed_parts(&v)));
        self
    }

    /// Whether the match was played to its end (its events hold the final whistle); a record
    /// the server exports while the run is in progress holds its rounds so far.
    pub fn finished(&self) -> bool {
        self.events.iter().any(|e| matches!(e.kind, engine::EventKind::FullTime { .. }))
    }

    /// Reads a record strictly; a value that does not fit names its JSON pointer.
    pub fn parse(bytes: &[u8]) -> Result<RunRecord, RunError> {
        let value: serde_json::Value = microfut_core::catalog::from_json(bytes)
            .map_err(|e| RunError::Format(microfut_core::catalog::describe_json_error(&e)))?;
        RunRecord::from_value(value)
    }

    /// [`RunRecord::parse`] of a value already read strictly (`catalog::from_json`).
    pub fn from_value(value: serde_json::Value) -> Result<RunRecord, RunError> {
        if let Some(f) = value.get("format")
            && f.as_str() != Some(FORMAT)
        {
            return Err(RunError::Record { pointer: "/format".into(), message: format!("{f}, expected \"{FORMAT}\"") });
        }
        let record: RunRecord = microfut_core::catalog::from_value_located(value.clone(), "a run record")
            .map_err(|e| RunError::Record { pointer: e.pointer, message: e.message })?;
        // Everything the file says must have been read: serde drops a key no field names (and
        // events, flattened, cannot refuse one), and replay would never see it.
        let read = serde_json::to_value(&record).expect("run records serialise");
        if let Some(u) = microfut_core::catalog::seal::first_unread(&value, &read) {
            return Err(RunError::Record { pointer: u.pointer, message: u.message });
        }
        Ok(record)
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
        /// `score`, `stats`, `events`, `intents` or `round_hashes`.
        part: &'static str,
        /// Where the first difference is, e.g. `event 17 (round 1763)`.
        at: String,
    },
}

/// The revision a run pins, compiled for the engine; refused when missing, changed or for
/// another engine. A field of the record no run can hold is blamed on the record, by pointer.
pub fn pinned_rules(catalog: &Catalog, record: &RunRecord) -> Result<Arc<Rules>, RunError> {
    let bad = |pointer: &str, message: String| RunError::Record { pointer: pointer.into(), message };
    if record.ruleset != "microfut" {
        let r = microfut_core::catalog::printable(&record.ruleset);
        return Err(bad("/ruleset", format!("'{r}': run records are Microfut matches")));
    }
    let rev = catalog.revision(&record.ruleset, Some(&record.revision)).map_err(|e| match e {
        CatalogError::BadVersion(_) | CatalogError::MissingRevision { .. } => bad("/revision", e.to_string()),
        e => RunError::Catalog(e),
    })?;
    if rev.fingerprint != record.fingerprint {
        // A published revision that loads matches the fingerprint catalog.json recorded when it
        // was published: its files are intact, so the record is what changed.
        if rev.status() == Some(Status::Published) {
            return Err(bad(
                "/fingerprint",
                format!(
                    "the record pins {}, but published revision {} is {} (its files still match the fingerprint recorded when it was published): the record was edited",
                    record.fingerprint,
                    rev.label(),
                    rev.fingerprint
                ),
            ));
        }
        catalog.pinned(&record.ruleset, &record.revision, &record.fingerprint)?;
    }
    let engine = semver::Version::parse(&record.engine_version).map_err(|_| {
        bad(
            "/engine_version",
            format!("'{}' is not an engine version", microfut_core::catalog::printable(&record.engine_version)),
        )
    })?;
    if let Some(m) = &rev.manifest
        && let Ok(req) = semver::VersionReq::parse(&m.engine)
        && !req.matches(&engine)
    {
        return Err(bad(
            "/engine_version",
            format!(
                "engine {engine} cannot have made this run: revision {} accepts engines {} only",
                rev.label(),
                m.engine
            ),
        ));
    }
    let rs = compile(rev).map_err(|d| RunError::Compile(format!("{}: {}", rev.label(), d[0])))?;
    Ok(Arc::new(Rules::new(Arc::new(rs)).map_err(EngineError::from)?))
}

/// Checks what the record says the match was made with against the pinned revision: the human
/// side, the formations, both clubs (exactly as `club validate` checks a club file) and the
/// recorded intents' rounds. Each problem names its JSON pointer in the record.
pub fn check_record(rules: &Rules, record: &RunRecord) -> Result<(), RunError> {
    let bad = |pointer: String, message: String| RunError::Record { pointer, message };
    if let Some(seal) = &record.seal {
        let v = serde_json::to_value(record).expect("run records serialise");
        if let Some(p) = microfut_core::catalog::seal::broken(&v, seal, &sealed_parts(&v)) {
            return Err(bad(
                p,
                "edited after the record was written: it no longer matches the record's seal (replay cannot recompute it: names and other fields that do not change play)".into(),
            ));
        }
    }
    if let Some(h) = &record.human
        && side_index(h).is_none()
    {
        return Err(bad(
            "/human".into(),
            format!("'{}' is not a side (home or away)", microfut_core::catalog::printable(h)),
        ));
    }
    for (t, f) in record.formations.iter().enumerate() {
        if let Some(f) = f
            && rules.formation(Some(f)).is_none()
        {
            let known: Vec<&str> = rules.formations.iter().map(|f| f.id.as_str()).collect();
            return Err(bad(
                format!("/formations/{t}"),
                format!("unknown formation '{f}' (known: {})", known.join(", ")),
            ));
        }
    }
    for (side, club) in [("home", &record.home), ("away", &record.away)] {
        let value = serde_json::to_value(club).expect("clubs serialize");
        if let Err(e) = Club::check_value(&value, "", &format!("/{side}"), &rules.rs) {
            return Err(match e {
                crate::club::ClubRefusal::Problems(d) => {
                    let more =
                        if d.len() > 1 { format!(" (and {} more problem(s))", d.len() - 1) } else { String::new() };
                    bad(d[0].pointer.clone(), format!("{}{more}", d[0].message))
                }
                other => bad(format!("/{side}"), other.to_string().trim_start_matches(": ").to_string()),
            });
        }
    }
    if record.human.is_none() && !record.intents.is_empty() {
        return Err(bad("/intents".into(), "intents are recorded, but no side was played by a person (/human)".into()));
    }
    for (k, pair) in record.intents.windows(2).enumerate() {
        if pair[1].round <= pair[0].round {
            return Err(bad(
                format!("/intents/{}/round", k + 1),
                format!(
                    "round {} is not after the previous intent's round {}: a side decides at most once a round",
                    pair[1].round, pair[0].round
                ),
            ));
        }
    }
    Ok(())
}

/// Plays the recorded match again under its pinned revision, feeding back every human intent at
/// the round it was declared, and compares the state hash of every round, then what the record
/// says happened. The record is checked first ([`check_record`]).
///
/// A record without the final whistle is of a run still in progress (the server exports one at
/// any moment, even before its first round): it is replayed to its last round and compared
/// there — or, when its person's side has the ball, up to that side's pending decision in the
/// next round, whose opening the server has played and stored.
pub fn replay(rules: Arc<Rules>, record: &RunRecord) -> Result<Replay, RunError> {
    check_record(&rules, record)?;
    if record.finished() {
        return replay_to(rules, record, Until::End);
    }
    let rounds = record.round_hashes.len();
    let before = replay_to(rules.clone(), record, Until::After(rounds))?;
    if matches!(before, Replay::Identical { .. }) || record.human.is_none() {
        return Ok(before);
    }
    match replay_to(rules, record, Until::Pending(rounds))? {
        same @ Replay::Identical { .. } => Ok(same),
        _ => Ok(before),
    }
}

/// How far [`replay_to`] plays.
#[derive(Clone, Copy, PartialEq)]
enum Until {
    End,
    /// This many rounds.
    After(usize),
    /// This many rounds, then the next round's opening up to the human side's decision.
    Pending(usize),
}

fn replay_to(rules: Arc<Rules>, record: &RunRecord, until: Until) -> Result<Replay, RunError> {
    let human = record.human.as_deref().and_then(side_index);
    let options = Options { human, retention: Some(0), formations: record.formations.clone() };
    let mut m = Match::new(rules, &record.home, &record.away, record.seed, options)?;
    let mut intents = record.intents.iter().enumerate().peekable();
    // The first round whose recorded hash differs. Play goes on: when every later hash agrees
    // again, the match replayed identically and only the record's hash was edited (a real
    // divergence never comes back, the hash covers the dice drawn).
    let mut first: Option<(usize, Option<String>, String)> = None;
    let differs = |(round, expected, actual): (usize, Option<String>, String)| Replay::Differs {
        round,
        expected,
        actual: Some(actual),
    };
    let stop = match until {
        Until::End => usize::MAX,
        Until::After(n) | Until::Pending(n) => n,
    };
    loop {
        if m.round_hashes().len() >= stop {
            if until == Until::Pending(stop) && m.step() != Step::Decision {
                return Ok(Replay::Differs { round: stop, expected: None, actual: None });
            }
            break;
        }
        match m.step() {
            Step::Finished => break,
            Step::Faulted => return Err(m.fault().expect("a faulted match says why").into()),
            Step::Round => {}
            Step::Decision => {
                let round = m.state().round;
                match intents.peek() {
                    Some((k, i)) if i.round < round => {
                        if let Some(f) = first {
                            return Ok(differs(f));
                        }
                        return Ok(Replay::RecordEdited {
                            part: "intents",
                            at: format!(
                                "intent {k} (round {}): the side a person played had no decision in that round",
                                i.round
                            ),
                        });
                    }
                    Some((_, i)) if i.round == round => {
                        let (_, i) = intents.next().expect("peeked");
                        if let Err(e) = m.decide(&i.intent) {
                            if let Some(f) = first {
                                return Ok(differs(f));
                            }
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
                match first {
                    None if expected.is_some() => first = Some((n - 1, expected.cloned(), actual)),
                    Some(f) => return Ok(differs(f)),
                    None => return Ok(differs((n - 1, None, actual))),
                }
            }
        }
    }
    let n = m.round_hashes().len();
    if n != record.round_hashes.len() {
        if let Some(f) = first {
            return Ok(differs(f));
        }
        return Ok(Replay::Differs { round: n, expected: record.round_hashes.get(n).cloned(), actual: None });
    }
    if let Some((round, expected, actual)) = first {
        return Ok(Replay::RecordEdited {
            part: "round_hashes",
            at: format!(
                "round {round}: {} recorded, {actual} replayed, and every other round agrees",
                expected.unwrap_or_default()
            ),
        });
    }
    if let Some((k, i)) = intents.next() {
        let stopped = if until == Until::End { "the match ended" } else { "the record stops" };
        return Ok(Replay::RecordEdited {
            part: "intents",
            at: format!(
                "intent {k} (round {}): {stopped} after round {} without that decision",
                i.round,
                n.saturating_sub(1)
            ),
        });
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
    let written_by = semver::Version::parse(&record.engine_version).unwrap_or(semver::Version::new(0, 0, 0));
    let stats = |s: &TeamStats| {
        let mut v = json(s);
        if let Some(o) = v.as_object_mut() {
            for k in TeamStats::not_written_by(&written_by) {
                o.remove(k);
            }
        }
        v
    };
    for (t, (a, b)) in record.stats.iter().zip(m.stats().iter()).enumerate() {
        if stats(a) != stats(b) {
            return Some(Replay::RecordEdited { part: "stats", at: format!("the {} side's", side_name(t)) });
        }
    }
    // Records written before issue 50 put a pass after the loose ball it left.
    let recorded = crate::engine::events::in_order_of_play(&record.events);
    let replayed = m.events();
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
