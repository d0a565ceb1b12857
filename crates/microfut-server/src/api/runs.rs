//! The runs the server plays: create, advance, decide, read — each a call of the same library
//! functions the CLI uses (`engine::Match` step/candidates/decide, explanations, projections,
//! `run::resume`), with the store below.
//!
//! Live matches are kept in memory (at most `LIVE_CAP`, least recently used evicted) and
//! rebuilt from the store when needed; a run's mutex serialises its writes. An advance or an
//! intent is committed in one transaction before it is answered; if the commit fails the live
//! match is dropped, so the next request rebuilds it from what was committed.
//!
//! The run's mutex is tokio's and is held until the commit has answered, so no request sees (or
//! extends) a state that is not in the file yet. On the server, an advance or an intent plays on
//! the blocking pool, queues its commit and returns; the handler then *awaits* the commit on the
//! async worker, so a hundred runs waiting for their group commit hold no thread (before, each
//! parked a blocking-pool thread that the commit had to wake). Playing one round inline on the
//! two async workers used less CPU per advance but, on a machine shared with other work, gave
//! the server too small a share of the cores: its p99 was worse (BENCHMARKS.md). The synchronous
//! entry points (`with_run`, `advance`, `intent`) lock with `blocking_lock`: call them off the
//! async runtime.

use super::dto::*;
use super::live::LiveCache;
use super::views::{StoredRoll, candidate_view, player_id, roll_view, stored_roll, stored_roll_view};
use crate::error::{ApiError, ApiResult};
use crate::store::{Advance, NewRun, Pending, RoundRow, Store, StoredRun, timing};
use axum::http::StatusCode;
use microfut_core::catalog::{Catalog, ENGINE_VERSION};
use microfut_football::club::Club;
use microfut_football::engine::state::{Ball, Line};
use microfut_football::engine::{Intent, Match, Options, Rules, Step, round2};
use microfut_football::run::resume::{Resume, ResumeError, resume};
use serde_json::value::RawValue;
use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use tokio::sync::OwnedMutexGuard;

/// Live matches kept in memory; older ones are rebuilt from the store on their next request.
const LIVE_CAP: usize = 512;
/// What a failed commit of an advance or an intent kept: nothing (each is one transaction).
const ADVANCE_LOST: &str = "nothing of this advance was kept";
const INTENT_LOST: &str = "nothing of this intent was kept";
/// Contributions a projection lists per value (the rest are counted as truncated).
const MAX_CONTRIBUTIONS: usize = 64;

pub struct LiveRun {
    pub id: String,
    pub m: Match,
    pub rules: Arc<Rules>,
    pub human: Option<usize>,
    pub retention: usize,
    token_sha256: String,
    committed_rounds: usize,
    committed_events: usize,
    committed_intents: usize,
    committed_decisions: u64,
    /// Set when the stored run cannot be continued by this server (another engine).
    pub frozen: Option<String>,
}

type Slot = Arc<tokio::sync::Mutex<Option<LiveRun>>>;

/// A commit queued for a run, with the counters the run reaches once it has landed.
struct Staged {
    /// The queued commit, or why it could not be queued (the match has moved on in memory
    /// either way, so a failure here is settled as a failed commit: the run is dropped).
    pending: Result<Pending<()>, crate::store::StoreError>,
    /// When staging began (the round played) and when the commit was queued (`timing`).
    played: std::time::Instant,
    queued: std::time::Instant,
    rounds: usize,
    events: usize,
    intents: usize,
    decisions: u64,
}

pub struct Runs {
    pub catalog: Arc<Catalog>,
    pub store: Arc<Store>,
    rules: Mutex<HashMap<String, Arc<Rules>>>,
    live: Mutex<LiveCache<tokio::sync::Mutex<Option<LiveRun>>>>,
}

/// The SHA-256 of a token in lowercase hex: every write checks its token with it.
pub use microfut_core::digest::sha256_hex;

/// `bytes` random bytes from the operating system, in hex: run and journey ids and tokens.
/// `bytes` random bytes from the operating system, as hex: run and game ids and write tokens
/// (never the dice).
pub(crate) fn random_hex(bytes: usize) -> ApiResult<String> {
    let mut buf = vec![0u8; bytes];
    getrandom::fill(&mut buf).map_err(|e| ApiError::unavailable(format!("no randomness: {e}")))?;
    Ok(hex::encode(&buf))
}

fn store_err(e: crate::store::StoreError) -> ApiError {
    ApiError::unavailable(e.to_string())
}

/// A write the store refused, in words a client can act on: `what` says what was not kept
/// ("nothing of this advance was kept"). A full disk and a vanished file are 503 with
/// Retry-After — the server's condition, not the request's fault; once space is freed (or the
/// file restored and the server restarted) the same request succeeds.
pub(crate) fn write_err(e: crate::store::StoreError, what: &str) -> ApiError {
    use crate::store::StoreError;
    match e {
        StoreError::Full(_) => ApiError::new(
            StatusCode::SERVICE_UNAVAILABLE,
            "disk_full",
            format!(
                "{}; {what}: the server's run store cannot grow. Try again once space is freed \
                 (an operator can delete old runs: microfut store prune)",
                crate::sqlite_file::DISK_FULL
            ),
            None,
        ),
        StoreError::Vanished(why) => {
            ApiError::new(StatusCode::SERVICE_UNAVAILABLE, "store_gone", format!("{what}: the run store {why}"), None)
        }
        e => ApiError::unavailable(format!("{what}: {e}")),
    }
}

/// What a creation makes, for `create_err`'s words.
#[derive(Clone, Copy)]
pub(crate) enum Created {
    Run,
    Journey,
}

/// A creation the store refused: over one of its caps, `409 store_full` naming the cap reached
/// and how to make room; any other failure as `write_err`.
pub(crate) fn create_err(e: crate::store::StoreError, what: Created) -> ApiError {
    use crate::store::{StoreError, mib};
    let (noun, delete) = match what {
        Created::Run => ("runs", "DELETE /api/v1/runs/{runId} with the run's token"),
        Created::Journey => ("journeys", "DELETE /api/v1/effects/journeys/{journeyId} with the journey's token"),
    };
    let room = "or ask its operator to prune old ones (microfut store prune)";
    match e {
        StoreError::Capacity { max } => ApiError::conflict(
            "store_full",
            None,
            format!(
                "this server keeps at most {max} {noun} (--max-runs) and has that many: delete {noun} you have \
                 finished ({delete}), {room} or raise --max-runs"
            ),
        ),
        StoreError::Bytes { used, max } => ApiError::conflict(
            "store_full",
            None,
            format!(
                "this server's run store is full: it uses {} MiB of the {} MiB it may (--max-store-mb): delete \
                 runs and journeys you have finished ({delete}), {room} or raise --max-store-mb",
                mib(used),
                mib(max)
            ),
        ),
        e => write_err(
            e,
            match what {
                Created::Run => "the run was not created",
                Created::Journey => "the journey was not created",
            },
        ),
    }
}

fn forbidden() -> ApiError {
    ApiError::new(StatusCode::FORBIDDEN, "forbidden", "this token does not open this run", Some("Authorization"))
}

/// Player index for `home-9`, or a 404 naming `playerId`.
pub fn player_index(m: &Match, id: &str) -> ApiResult<usize> {
    let parsed = id.split_once('-').and_then(|(side, shirt)| {
        let t = match side {
            "home" => 0,
            "away" => 1,
            _ => return None,
        };
        Some((t, shirt.parse::<u32>().ok()?))
    });
    let Some((t, shirt)) = parsed else {
        return Err(ApiError::invalid("playerId", format!("'{id}' is not a player id (home-<shirt> or away-<shirt>)")));
    };
    m.state()
        .players
        .iter()
        .position(|p| p.team == t && p.shirt == shirt)
        .ok_or_else(|| ApiError::not_found("playerId", format!("no player {id} on the pitch")))
}

fn rolls_now(m: &Match) -> Vec<RollView> {
    m.round_rolls().iter().map(|r| roll_view(m, r)).collect()
}

fn pending_view(m: &Match) -> Option<PendingView> {
    let c = m.candidates()?;
    Some(PendingView {
        round: m.state().round,
        player: m.state().holder().map(|h| player_id(m, h)).unwrap_or_default(),
        candidates: c.len(),
    })
}

fn minute(m: &Match) -> f64 {
    round2(m.state().minute(m.rules().clock.half_seconds))
}

impl Runs {
    pub fn new(catalog: Arc<Catalog>, store: Arc<Store>) -> Runs {
        Runs { catalog, store, rules: Mutex::new(HashMap::new()), live: Mutex::new(LiveCache::new(LIVE_CAP)) }
    }

    /// The compiled rules of a revision (by version, or the newest published), cached by fingerprint.
    pub fn rules(&self, version: Option<&str>, field: &str) -> ApiResult<Arc<Rules>> {
        let rev = self.catalog.revision("microfut", version).map_err(|e| ApiError::invalid(field, e.to_string()))?;
        if let Some(r) = self.rules.lock().unwrap_or_else(|p| p.into_inner()).get(&rev.fingerprint) {
            return Ok(r.clone());
        }
        let rules = microfut_football::run::rules_for(&self.catalog, Some(&rev.version.to_string()))
            .map_err(|e| ApiError::invalid(field, e.to_string()))?;
        self.rules.lock().unwrap_or_else(|p| p.into_inner()).insert(rev.fingerprint.clone(), rules.clone());
        Ok(rules)
    }

    fn pinned_rules(&self, run: &NewRun) -> Result<Arc<Rules>, String> {
        if let Some(r) = self.rules.lock().unwrap_or_else(|p| p.into_inner()).get(&run.fingerprint) {
            return Ok(r.clone());
        }
        let record_like = microfut_football::run::RunRecord {
            format: microfut_football::run::FORMAT.into(),
            ruleset: run.ruleset.clone(),
            revision: run.revision.clone(),
            fingerprint: run.fingerprint.clone(),
            engine_version: run.engine_version.clone(),
            seed: run.seed,
            human: None,
            formations: [None, None],
            home: run.home.clone(),
            away: run.away.clone(),
            intents: Vec::new(),
            score: [0, 0],
            stats: Default::default(),
            events: Vec::new(),
            round_hashes: Vec::new(),
            seal: None,
        };
        let rules = microfut_football::run::pinned_rules(&self.catalog, &record_like).map_err(|e| e.to_string())?;
        self.rules.lock().unwrap_or_else(|p| p.into_inner()).insert(run.fingerprint.clone(), rules.clone());
        Ok(rules)
    }

    /// A club file by id, unchecked: a sample of the content, else an uploaded one; with the
    /// name messages give it (the sample's content path, `clubs/<id>.json` for an upload).
    pub fn club_file(&self, id: &str, field: &str) -> ApiResult<(serde_json::Value, String)> {
        if let Ok(entry) = self.catalog.ruleset("microfut")
            && let Some(v) = entry.extra.get(&format!("clubs/{id}.json"))
        {
            return Ok((v.clone(), self.catalog.display_path(&format!("microfut/clubs/{id}.json"))));
        }
        match self.store.club(id).map_err(store_err)? {
            Some(c) => Ok((serde_json::to_value(&c).expect("clubs serialise"), format!("clubs/{id}.json (uploaded)"))),
            None => Err(ApiError::invalid(field, format!("no club '{id}' (GET /api/v1/clubs lists them)"))),
        }
    }

    /// A club by id, checked as `microfut club validate` checks it under the revision `rs` that
    /// will play it (a sample or an upload that another revision refuses is refused here), every
    /// problem worded as `club validate` prints it.
    pub fn club(&self, id: &str, field: &str, rs: &microfut_core::ruleset::Ruleset) -> ApiResult<Club> {
        let (value, file) = self.club_file(id, field)?;
        let bytes = serde_json::to_vec(&value).expect("values serialise");
        let (club, schema) = microfut_football::sheet::read_document::<Club>(&bytes, &file, "club.schema.json")
            .map_err(|e| match e {
                microfut_football::sheet::SheetFileError::Unreadable(problems) => {
                    ApiError::invalid(field, problems.iter().map(|d| d.to_string()).collect::<Vec<_>>().join("; "))
                }
                other => ApiError::invalid(field, format!("{file}: {other}")),
            })?;
        let report = club
            .validate(rs, schema)
            .map_err(|e| ApiError::invalid(field, format!("{file}: the club cannot be checked: {e}")))?;
        if !report.is_valid() {
            return Err(ApiError::invalid(
                field,
                format!(
                    "club '{id}' is not valid under {}: {}",
                    rs.label(),
                    report.problems.iter().map(|p| p.line(&file)).collect::<Vec<_>>().join("; ")
                ),
            ));
        }
        Ok(club)
    }

    pub fn create(&self, req: CreateRun) -> ApiResult<CreatedRun> {
        let rules = self.rules(req.revision.as_deref(), "/revision")?;
        let home = self.club(&req.home, "/home", &rules.rs)?;
        let away = self.club(&req.away, "/away", &rules.rs)?;
        let seed = match req.seed {
            Some(s) => s,
            None => u64::from_str_radix(&random_hex(8)?, 16).unwrap_or(0) >> 11,
        };
        let human = req.human.map(Side::index);
        let formations = [req.home_formation.clone(), req.away_formation.clone()];
        let options = Options { human, retention: None, formations: formations.clone() };
        let m = Match::new(rules.clone(), &home, &away, seed, options).map_err(|e| {
            let msg = e.to_string();
            let field = if msg.contains("formation") {
                if msg.contains(&format!("'{}'", home.id)) { "/homeFormation" } else { "/awayFormation" }
            } else if msg.contains(&format!("'{}'", home.id)) {
                "/home"
            } else {
                "/away"
            };
            ApiError::invalid(field, msg)
        })?;
        let id = random_hex(16)?;
        let token = random_hex(32)?;
        let rs = &rules.rs;
        let new = NewRun {
            id: id.clone(),
            token_sha256: sha256_hex(&token),
            ruleset: rs.id.clone(),
            revision: rs.version.to_string(),
            fingerprint: rs.fingerprint.clone(),
            engine_version: ENGINE_VERSION.into(),
            seed,
            human: human.map(|t| microfut_football::run::side_name(t).to_string()),
            formations,
            home: home.clone(),
            away: away.clone(),
            retention: m.decisions().retention(),
        };
        // The kick-off is stored with the run, so the record of a run that has not advanced
        // yet replays (and an advance that fails cannot leave it out).
        let start = crate::store::events_json(m.events());
        self.store.start_run(&new, start, m.stats()).map_err(|e| create_err(e, Created::Run))?;
        let committed_events = m.events().len();
        let live = LiveRun {
            id: id.clone(),
            retention: new.retention,
            m,
            rules: rules.clone(),
            human,
            token_sha256: new.token_sha256.clone(),
            committed_rounds: 0,
            committed_events,
            committed_intents: 0,
            committed_decisions: 0,
            frozen: None,
        };
        let slot: Slot = Arc::new(tokio::sync::Mutex::new(Some(live)));
        self.remember(&id, slot);
        Ok(CreatedRun {
            run_id: id,
            token,
            ruleset: new.ruleset,
            revision: new.revision,
            fingerprint: new.fingerprint,
            engine_version: new.engine_version,
            seed,
            human: req.human,
            home: ClubRef { id: home.id.clone(), name: home.name.clone() },
            away: ClubRef { id: away.id.clone(), name: away.name.clone() },
        })
    }

    fn remember(&self, id: &str, slot: Slot) {
        self.live.lock().unwrap_or_else(|p| p.into_inner()).insert(id, slot);
    }

    fn forget(&self, id: &str) {
        self.live.lock().unwrap_or_else(|p| p.into_inner()).remove(id);
    }

    /// The slot of run `id` (empty until rebuilt), marked as just used.
    fn slot(&self, id: &str) -> Slot {
        self.live.lock().unwrap_or_else(|p| p.into_inner()).get_or_insert_with(id, || tokio::sync::Mutex::new(None))
    }

    /// Rebuilds the run into its empty slot; a run that cannot be rebuilt is forgotten.
    fn fill(&self, id: &str, slot: &mut Option<LiveRun>) -> ApiResult<()> {
        if slot.is_none() {
            match self.rebuild(id) {
                Ok(run) => *slot = Some(run),
                Err(e) => {
                    self.forget(id);
                    return Err(e);
                }
            }
        }
        Ok(())
    }

    /// Runs `f` on the live run `id`, rebuilding it from the store first when needed. Blocks
    /// on the run's lock: call it off the async runtime.
    pub fn with_run<T>(&self, id: &str, f: impl FnOnce(&mut LiveRun) -> ApiResult<T>) -> ApiResult<T> {
        let slot = self.slot(id);
        let mut guard = slot.blocking_lock();
        self.fill(id, &mut guard)?;
        f(guard.as_mut().expect("filled above"))
    }

    /// The live run `id`, locked without holding a thread while another request has it, and
    /// rebuilt from the store (on the blocking pool) when needed.
    async fn lock_run(self: &Arc<Self>, id: &str) -> ApiResult<OwnedMutexGuard<Option<LiveRun>>> {
        let guard = self.slot(id).lock_owned().await;
        if guard.is_some() {
            return Ok(guard);
        }
        let (runs, id) = (self.clone(), id.to_string());
        let (guard, filled) = tokio::task::spawn_blocking(move || {
            let mut guard = guard;
            let filled = runs.fill(&id, &mut guard);
            (guard, filled)
        })
        .await
        .map_err(|e| ApiError::unavailable(format!("internal failure: {e}")))?;
        filled.map(|()| guard)
    }

    /// Runs `play` on the live run `id` (on the blocking pool) and answers once the commit it
    /// queued has landed, awaiting it without holding a thread.
    async fn write_run<T: Send + 'static>(
        self: &Arc<Self>,
        id: &str,
        what: &'static str,
        play: impl FnOnce(&Runs, &mut LiveRun) -> ApiResult<(T, Staged)> + Send + 'static,
    ) -> ApiResult<T> {
        // Phase stamps for the load benchmark (`store::timing`); off, each is one atomic load.
        let timed = timing::enabled();
        let mut times = timing::AdvanceTimes::new();
        let stamp = move |at: &mut std::time::Instant| {
            if timed {
                *at = std::time::Instant::now();
            }
        };
        let guard = self.lock_run(id).await?;
        stamp(&mut times.locked);
        let runs = self.clone();
        let (mut guard, played) = tokio::task::spawn_blocking(move || {
            let mut guard = guard;
            stamp(&mut times.on_pool);
            let played = play(&runs, guard.as_mut().expect("filled"));
            stamp(&mut times.pool_done);
            (guard, played, times)
        })
        .await
        .map(|(guard, played, t)| {
            times = t;
            (guard, played)
        })
        .map_err(|e| ApiError::unavailable(format!("internal failure: {e}")))?;
        let (out, staged) = played?;
        let Staged { pending, rounds, events, intents, decisions, played: played_at, queued } = staged;
        let (landed, commit) = match pending {
            Ok(p) => p.committed_stamped().await,
            Err(e) => (Err(e), None),
        };
        if timed {
            (times.played, times.queued) = (played_at, queued);
            if let Some(c) = commit {
                (times.group_began, times.committed, times.group_size) = (c.group_began, c.committed, c.group_size);
            }
        }
        let counts = (rounds, events, intents, decisions);
        self.settle(id, &mut guard, counts, landed, what)?;
        stamp(&mut times.answered);
        timing::record_advance(times);
        Ok(out)
    }

    /// Records a landed commit in the run; a failed one drops the live match (it is ahead of
    /// the store) so that the next request rebuilds it from what was committed.
    fn settle(
        &self,
        id: &str,
        slot: &mut Option<LiveRun>,
        (rounds, events, intents, decisions): (usize, usize, usize, u64),
        landed: Result<(), crate::store::StoreError>,
        what: &str,
    ) -> ApiResult<()> {
        if let Err(e) = landed {
            *slot = None;
            self.forget(id);
            return Err(write_err(e, what));
        }
        let run = slot.as_mut().expect("held since staging");
        run.committed_rounds += rounds;
        run.committed_events = events;
        run.committed_intents = intents;
        run.committed_decisions = decisions;
        Ok(())
    }

    /// A write off the async runtime: `play`, then block until its commit has landed.
    fn write_run_blocking<T>(
        &self,
        id: &str,
        what: &'static str,
        play: impl FnOnce(&Runs, &mut LiveRun) -> ApiResult<(T, Staged)>,
    ) -> ApiResult<T> {
        let slot = self.slot(id);
        let mut guard = slot.blocking_lock();
        self.fill(id, &mut guard)?;
        let (out, staged) = play(self, guard.as_mut().expect("filled above"))?;
        let Staged { pending, rounds, events, intents, decisions, .. } = staged;
        let landed = pending.and_then(Pending::wait);
        let counts = (rounds, events, intents, decisions);
        self.settle(id, &mut guard, counts, landed, what)?;
        Ok(out)
    }

    fn rebuild(&self, id: &str) -> ApiResult<LiveRun> {
        let stored: StoredRun = self
            .store
            .run(id)
            .map_err(store_err)?
            .ok_or_else(|| ApiError::not_found("runId", format!("no run '{id}'")))?;
        let run = &stored.run;
        let frozen_rules = |why: String| ApiError::conflict("run_not_playable", Some("runId"), why);
        let rules = self.pinned_rules(run).map_err(frozen_rules)?;
        // An engine plays every older revision of its series exactly as the engine that recorded
        // it (the legacy fence; the replay corpus proves it), and `resume` below checks every
        // stored round's hash, so a run recorded by an earlier engine of the series plays on —
        // upgrading the server does not strand runs in progress. A newer engine's run, or another
        // series', is refused.
        if !plays_on(&run.engine_version) {
            return Err(ApiError::conflict(
                "run_not_playable",
                Some("runId"),
                format!(
                    "run {id} was recorded by engine {}; this server is engine {ENGINE_VERSION}, which plays on \
                     runs recorded by its own series up to its own version (its record and events stay readable)",
                    run.engine_version
                ),
            ));
        }
        let hashes = self.store.hashes(id).map_err(store_err)?;
        let intents = self.store.intents(id).map_err(store_err)?;
        let human = run.human.as_deref().and_then(microfut_football::run::side_index);
        let options = Options { human, retention: Some(run.retention), formations: run.formations.clone() };
        let m = resume(
            rules.clone(),
            Resume {
                home: &run.home,
                away: &run.away,
                seed: run.seed,
                options,
                intents: &intents,
                hashes: &hashes,
                pending: stored.pending,
            },
        )
        .map_err(|e| match e {
            ResumeError::Diverged(msg) => frozen_rules(format!("run {id}: {msg}")),
            ResumeError::Run(e) => frozen_rules(format!("run {id}: {e}")),
        })?;
        // What the store holds, not what the replay made: a run whose first advance failed
        // before the kick-off was stored with the run (or a store written before that) lacks the
        // kick-off event, and the next advance must write it — counting the replay's events as
        // stored left it out of the record for good.
        let total_decisions = m.decisions().len() as u64 + m.decisions().dropped();
        if stored.events > m.events().len() || stored.decisions > total_decisions {
            return Err(frozen_rules(format!(
                "run {id}: the store holds {} events and {} decisions, more than its {} rounds make ({} and {})",
                stored.events,
                stored.decisions,
                hashes.len(),
                m.events().len(),
                total_decisions
            )));
        }
        Ok(LiveRun {
            id: id.to_string(),
            rules,
            human,
            retention: run.retention,
            token_sha256: run.token_sha256.clone(),
            committed_rounds: hashes.len(),
            committed_events: stored.events,
            committed_intents: intents.len(),
            committed_decisions: stored.decisions,
            frozen: None,
            m,
        })
    }

    /// Checks the bearer token of a write to run `id`.
    pub fn authorise(run: &LiveRun, token: &str) -> ApiResult<()> {
        if sha256_hex(token) == run.token_sha256 { Ok(()) } else { Err(forbidden()) }
    }

    /// Queues what `run` did since its last commit, to be written in one transaction. The run
    /// must stay locked until the commit has answered (`settle`). Returns, with it, the events
    /// from `reply_from` on for the reply: the same bytes the store writes, serialised once.
    fn stage(
        &self,
        run: &LiveRun,
        rounds: Vec<RoundRow>,
        reply_from: usize,
    ) -> ApiResult<(Staged, Vec<Box<RawValue>>)> {
        let played = std::time::Instant::now();
        let m = &run.m;
        let events = crate::store::events_json(&m.events()[run.committed_events..]);
        let reply_events = events
            .iter()
            .skip(reply_from.saturating_sub(run.committed_events))
            .map(|(_, body)| RawValue::from_string(body.clone()).expect("an event's JSON is JSON"))
            .collect();
        let log = m.decisions();
        let total = log.len() as u64 + log.dropped();
        let new = (total - run.committed_decisions) as usize;
        let kept_new = new.min(log.len());
        let decisions: Vec<(u32, String)> =
            log.decisions().skip(log.len() - kept_new).map(|d| (d.round, crate::store::compact_decision(d))).collect();
        let advance = Advance {
            rounds,
            events,
            first_event: run.committed_events,
            intents: &m.intents()[run.committed_intents..],
            first_intent: run.committed_intents,
            decisions,
            first_decision: total - kept_new as u64,
            retention: run.retention,
            pending: m.candidates().is_some(),
            finished: m.finished(),
            score: m.score(),
            stats: m.stats(),
        };
        let n_rounds = advance.rounds.len();
        let pending = self.store.queue_commit(&run.id, &advance);
        let staged = Staged {
            pending,
            played,
            queued: std::time::Instant::now(),
            rounds: n_rounds,
            events: m.events().len(),
            intents: m.intents().len(),
            decisions: total,
        };
        Ok((staged, reply_events))
    }

    fn round_row(m: &Match) -> RoundRow {
        let hashes = m.round_hashes();
        // Stored compactly — [player, pipeline, difficulty, total, margin, success, probability,
        // role] — and labelled when read (`stored_rolls`): a round can hold twenty-odd tests.
        let rolls: Vec<StoredRoll> = m.round_rolls().iter().map(|r| stored_roll(m, r)).collect();
        RoundRow {
            round: (hashes.len() - 1) as u32,
            hash: format!("{:016x}", hashes[hashes.len() - 1]),
            rolls: serde_json::to_string(&rolls).expect("rolls serialise"),
        }
    }

    /// The rolls of a stored round, labelled from the run's pinned revision.
    pub fn stored_rolls(&self, run: &NewRun, json: &str) -> Vec<RollView> {
        let rolls: Vec<StoredRoll> = serde_json::from_str(json).unwrap_or_default();
        let rules = self.pinned_rules(run).ok();
        rolls.into_iter().map(|row| stored_roll_view(rules.as_deref(), row)).collect()
    }

    /// `POST …/advance` on the server: played on the blocking pool, the commit awaited.
    pub async fn advance_async(
        self: &Arc<Self>,
        id: &str,
        token: String,
        req: AdvanceRequest,
    ) -> ApiResult<AdvanceResult> {
        self.write_run(id, ADVANCE_LOST, move |runs, run| runs.play_advance(run, &token, &req)).await
    }

    /// The same advance, blocking until committed (off the async runtime).
    pub fn advance(&self, id: &str, token: &str, req: AdvanceRequest) -> ApiResult<AdvanceResult> {
        self.write_run_blocking(id, ADVANCE_LOST, |runs, run| runs.play_advance(run, token, &req))
    }

    fn play_advance(&self, run: &mut LiveRun, token: &str, req: &AdvanceRequest) -> ApiResult<(AdvanceResult, Staged)> {
        {
            Self::authorise(run, token)?;
            if run.m.finished() {
                return Err(ApiError::conflict("finished", Some("runId"), "the match is over"));
            }
            if run.m.candidates().is_some() && !req.delegate {
                return Err(ApiError::conflict(
                    "decision_pending",
                    Some("/until"),
                    "your player has the ball: declare an intent (POST …/intents) or advance with \"delegate\": true",
                ));
            }
            let first_event = run.m.events().len();
            let mut rounds = Vec::new();
            let stopped = loop {
                let step = if run.m.candidates().is_some() {
                    run.m.decide_npc().expect("a decision is pending");
                    Step::Round
                } else {
                    run.m.step()
                };
                match step {
                    // A fault (content validate refuses) ends the match where it stopped.
                    Step::Finished | Step::Faulted => break Stop::End,
                    Step::Decision if req.delegate => {
                        run.m.decide_npc().expect("a decision is pending");
                        rounds.push(Self::round_row(&run.m));
                    }
                    Step::Decision => break Stop::Decision,
                    Step::Round => rounds.push(Self::round_row(&run.m)),
                }
                if run.m.finished() {
                    break Stop::End;
                }
                if req.until == Until::Round {
                    break Stop::Round;
                }
            };
            let last_rolls = if rounds.is_empty() { Vec::new() } else { rolls_now(&run.m) };
            let played = rounds.len() as u32;
            let (staged, events) = self.stage(run, rounds, first_event)?;
            let m = &run.m;
            let result = AdvanceResult {
                run_id: run.id.clone(),
                rounds_played: played,
                stopped_at: stopped,
                round: m.state().round,
                minute: minute(m),
                score: m.score(),
                finished: m.finished(),
                pending: pending_view(m),
                events,
                rolls: last_rolls,
            };
            Ok((result, staged))
        }
    }

    /// `DELETE /runs/{id}`: the run and all its rows, with its token. Waits for a write in
    /// progress on the run (its lock), then deletes in one transaction and drops the live
    /// match, so no request sees it again (one waiting for the lock finds it gone: 404).
    pub async fn delete_async(self: &Arc<Self>, id: &str, token: String) -> ApiResult<()> {
        let mut guard = self.slot(id).lock_owned().await;
        let (runs, key) = (self.clone(), id.to_string());
        let out = tokio::task::spawn_blocking(move || {
            let digest = runs.store.token_sha256(&key).map_err(store_err)?;
            let Some(digest) = digest else {
                return Err(ApiError::not_found("runId", format!("no run '{key}'")));
            };
            if sha256_hex(&token) != digest {
                return Err(forbidden());
            }
            runs.store.delete_run(&key).map_err(|e| write_err(e, "the run was not deleted")).map(|_| ())
        })
        .await
        .map_err(|e| ApiError::unavailable(format!("internal failure: {e}")))?;
        if out.is_ok() || out.as_ref().is_err_and(|e| e.status == StatusCode::NOT_FOUND) {
            *guard = None;
            self.forget(id);
        }
        out
    }

    /// `POST …/intents` on the server: played on the blocking pool, the commit awaited.
    pub async fn intent_async(
        self: &Arc<Self>,
        id: &str,
        token: String,
        req: IntentRequest,
    ) -> ApiResult<IntentResult> {
        self.write_run(id, INTENT_LOST, move |runs, run| runs.play_intent(run, &token, &req)).await
    }

    /// The same intent, blocking until committed (off the async runtime).
    pub fn intent(&self, id: &str, token: &str, req: IntentRequest) -> ApiResult<IntentResult> {
        self.write_run_blocking(id, INTENT_LOST, |runs, run| runs.play_intent(run, token, &req))
    }

    fn play_intent(&self, run: &mut LiveRun, token: &str, req: &IntentRequest) -> ApiResult<(IntentResult, Staged)> {
        {
            Self::authorise(run, token)?;
            let intent = Intent { kind: req.kind, target: req.target, zone: req.zone.clone() };
            let Some(candidates) = run.m.candidates() else {
                return Err(ApiError::conflict(
                    "no_decision_pending",
                    Some("runId"),
                    "no decision of yours is pending: advance the run to your next decision first",
                ));
            };
            let same_kind = candidates.iter().any(|c| c.kind == req.kind);
            // The zones this kind may aim at now (a set piece's delivery, a penalty's side).
            let zones: Vec<String> = candidates
                .iter()
                .filter(|c| c.kind == req.kind)
                .filter_map(|c| c.zone.as_deref().map(str::to_string))
                .collect();
            let carrier = run.m.state().holder();
            let round = run.m.state().round;
            let first_event = run.m.events().len();
            // Tests rolled as the round opened (positioning, a restart) come before the decision.
            let earlier = run.m.round_rolls().len();
            if let Err(e) = run.m.decide(&intent) {
                return Err(match (&req.zone, same_kind) {
                    (_, false) => ApiError::invalid("/kind", e.to_string()),
                    (Some(z), true) if zones.is_empty() => ApiError::invalid(
                        "/zone",
                        format!(
                            "a zone applies only to a set piece's delivery or a penalty, and this {} is neither \
                             (zone '{z}' refused; the run is unchanged)",
                            req.kind.name()
                        ),
                    ),
                    (Some(z), true) if !zones.contains(z) => ApiError::invalid(
                        "/zone",
                        format!("no {} to zone '{z}' is a candidate (zones: {})", req.kind.name(), zones.join(", ")),
                    ),
                    (None, true) if !zones.is_empty() => ApiError::invalid(
                        "/zone",
                        format!("this {} needs a zone: one of {}", req.kind.name(), zones.join(", ")),
                    ),
                    _ => ApiError::invalid("/target", e.to_string()),
                });
            }
            let row = Self::round_row(&run.m);
            let mut rolls = rolls_now(&run.m);
            let mut action = rolls.split_off(earlier);
            if let Some(c) = carrier {
                let who = player_id(&run.m, c);
                // The carrier's own tests first (stable: the rest keep their order).
                action.sort_by_key(|r| r.player != who);
            }
            let (staged, events) = self.stage(run, vec![row], first_event)?;
            let m = &run.m;
            let result = IntentResult {
                run_id: run.id.clone(),
                round,
                intent: intent.to_string(),
                rolls: action,
                earlier_rolls: rolls,
                events,
                score: m.score(),
                finished: m.finished(),
                pending: pending_view(m),
            };
            Ok((result, staged))
        }
    }

    pub fn candidates(&self, id: &str) -> ApiResult<CandidatesView> {
        self.with_run(id, |run| {
            let m = &mut run.m;
            let Some(list) = m.candidates().map(|c| c.to_vec()) else {
                return Err(ApiError::conflict(
                    "no_decision_pending",
                    Some("runId"),
                    "no decision of the human side is pending",
                ));
            };
            let draws = m.dice_draws();
            let mut out = Vec::with_capacity(list.len());
            let mut best = 0;
            for (i, c) in list.iter().enumerate() {
                if c.score > list[best].score {
                    best = i;
                }
                out.push(candidate_view(m, i, c));
            }
            debug_assert_eq!(draws, m.dice_draws(), "explaining draws no die");
            Ok(CandidatesView {
                run_id: run.id.clone(),
                round: m.state().round,
                player: m.state().holder().map(|h| player_id(m, h)).unwrap_or_default(),
                restart: m.restart_taken().map(|r| r.name().to_string()),
                npc_choice: best,
                candidates: out,
            })
        })
    }

    pub fn view(&self, id: &str) -> ApiResult<RunView> {
        self.with_run(id, |run| {
            let m = &run.m;
            let rules = m.rules();
            let st = m.state();
            let roles = &rules.roles;
            let team_view = |t: usize| {
                let team = &m.teams()[t];
                TeamView {
                    id: team.club.id.clone(),
                    name: team.club.name.clone(),
                    formation: rules.formations[team.formation].id.clone(),
                    attacks_right: st.attacks_right[t],
                    stats: serde_json::to_value(&m.stats()[t]).expect("stats"),
                }
            };
            let players = st
                .players
                .iter()
                .enumerate()
                .map(|(i, p)| {
                    let team = &m.teams()[p.team];
                    let sheet = &team.club.squad[p.sheet];
                    let role = rules.formations[team.formation].slots[p.slot].role.clone();
                    PlayerView {
                        id: player_id(m, i),
                        side: Side::of(p.team),
                        shirt: p.shirt,
                        name: sheet.name.clone(),
                        role_label: roles.role(&role).map(|r| r.label.clone()),
                        role,
                        line: match p.line {
                            Line::Goalkeeper => "goalkeeper",
                            Line::Defence => "defence",
                            Line::Midfield => "midfield",
                            Line::Attack => "attack",
                        }
                        .into(),
                        x: p.pos.x,
                        y: p.pos.y,
                        dir: (p.dir.x != 0.0 || p.dir.y != 0.0).then_some([p.dir.x, p.dir.y]),
                        stamina: p.stamina,
                        has_ball: st.holder() == Some(i),
                    }
                })
                .collect();
            let (state, holder, restart) = match st.ball_state {
                Ball::Held(p) => ("held", Some(player_id(m, p)), None),
                Ball::Loose => ("loose", None, None),
                Ball::Dead(r) => ("dead", None, Some(r.kind.name().to_string())),
            };
            let pitch = &rules.pitch;
            Ok(RunView {
                run_id: run.id.clone(),
                ruleset: rules.rs.id.clone(),
                revision: rules.rs.version.to_string(),
                fingerprint: rules.rs.fingerprint.clone(),
                engine_version: ENGINE_VERSION.into(),
                seed: m.seed(),
                human: run.human.map(Side::of),
                round: st.round,
                half: st.half,
                clock: st.clock,
                minute: minute(m),
                score: st.score,
                finished: st.finished,
                home: team_view(0),
                away: team_view(1),
                pitch: PitchView {
                    length: pitch.length,
                    width: pitch.width,
                    goal_y: pitch.goal_y,
                    post_low: pitch.post_low,
                    post_high: pitch.post_high,
                    box_depth: pitch.box_depth,
                    box_half_width: pitch.box_half_width,
                },
                ball: BallView { x: st.ball.x, y: st.ball.y, state: state.into(), holder, restart },
                players,
                pending: pending_view(m),
            })
        })
    }

    pub fn attributes(&self, id: &str, player: &str) -> ApiResult<AttributesView> {
        self.with_run(id, |run| {
            let p = player_index(&run.m, player)?;
            let draws = run.m.dice_draws();
            let proj = run.m.project(p).ok_or_else(|| ApiError::not_found("playerId", "no such player"))?;
            debug_assert_eq!(draws, run.m.dice_draws(), "a projection draws no die");
            let rs = &run.rules.rs;
            let attributes = proj
                .values
                .into_iter()
                .map(|v| {
                    let truncated = v.contributions.len() > MAX_CONTRIBUTIONS;
                    AttributeProjection {
                        attribute_id: v.id,
                        kind: v.kind.into(),
                        display_name: v.label,
                        unit: v.unit,
                        base_value: v.base,
                        effective_value: v.effective,
                        pipeline_id: v.pipeline,
                        pipeline_fingerprint: v.pipeline_fingerprint,
                        difficulty: v.difficulty,
                        probability: v.probability,
                        context_tags: v.context_tags,
                        contributions: v
                            .contributions
                            .into_iter()
                            .take(MAX_CONTRIBUTIONS)
                            .map(|c| Contribution {
                                stage: c.stage,
                                kind: c.kind.into(),
                                label: c.label,
                                op: c.op.into(),
                                amount: c.amount,
                                running: c.running,
                                input: c.input.as_ref().map(|i| i.value),
                                table: c.input.map(|i| i.table),
                                source: c.source,
                            })
                            .collect(),
                        contributions_truncated: truncated,
                    }
                })
                .collect();
            let c = proj.context;
            Ok(AttributesView {
                run_id: run.id.clone(),
                round: proj.round,
                content_revision: format!("{} {}", rs.id, rs.version),
                fingerprint: rs.fingerprint.clone(),
                player_id: player.to_string(),
                authority: "match".into(),
                context: ProjectionContextView {
                    stamina: c.stamina,
                    nearest_opponent: c.nearest_opponent,
                    opponents_within_3m: c.opponents_within_3m,
                    orientation: c.orientation,
                    distance_to_goal: c.distance_to_goal,
                    angle_to_goal: c.angle_to_goal,
                },
                attributes,
            })
        })
    }

    pub fn sheet(&self, id: &str, player: &str) -> ApiResult<PlayerSheetView> {
        self.with_run(id, |run| {
            let p = player_index(&run.m, player)?;
            let pl = &run.m.state().players[p];
            let sheet = &run.m.teams()[pl.team].club.squad[pl.sheet];
            let view = sheet
                .view(&run.rules.rs)
                .map_err(|e| ApiError::conflict("sheet_unreadable", Some("playerId"), e.to_string()))?;
            Ok(PlayerSheetView {
                run_id: run.id.clone(),
                player_id: player.to_string(),
                sheet: serde_json::to_value(view).expect("sheets serialise"),
                stamina: pl.stamina,
                x: pl.pos.x,
                y: pl.pos.y,
            })
        })
    }

    /// Fails with 404 when the run does not exist (reads served from the store).
    pub fn stored(&self, id: &str) -> ApiResult<StoredRun> {
        self.store.run(id).map_err(store_err)?.ok_or_else(|| ApiError::not_found("runId", format!("no run '{id}'")))
    }
}

/// Whether this engine may play on a run recorded by engine `recorded`: the same major and minor
/// version (the series whose older revisions it plays unchanged), and no newer than itself.
fn plays_on(recorded: &str) -> bool {
    let now = microfut_core::catalog::engine_version();
    semver::Version::parse(recorded).is_ok_and(|v| v.major == now.major && v.minor == now.minor && v <= now)
}

#[cfg(test)]
mod tests {
    use super::plays_on;

    /// Runs of this engine's series recorded by it or an earlier patch play on (a server upgrade
    /// keeps them); a later patch, another series, or a version that does not parse do not.
    #[test]
    fn a_server_plays_on_runs_of_its_series_up_to_its_own_version() {
        let now = microfut_core::catalog::engine_version();
        assert!(plays_on(&now.to_string()));
        assert!(plays_on(&format!("{}.{}.0", now.major, now.minor)));
        assert!(!plays_on(&format!("{}.{}.{}", now.major, now.minor, now.patch + 1)));
        assert!(!plays_on(&format!("{}.{}.0", now.major, now.minor + 1)));
        if now.minor > 0 {
            assert!(!plays_on(&format!("{}.{}.99", now.major, now.minor - 1)));
        }
        assert!(!plays_on(&format!("{}.{}.{}", now.major + 1, now.minor, now.patch)));
        assert!(!plays_on("banana") && !plays_on(""));
    }
}
