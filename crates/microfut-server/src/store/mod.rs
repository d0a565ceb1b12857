//! The run store: SQLite below the HTTP API, so a run survives the server.
//!
//! Problem: a person's match must survive a crash (`kill -9` in the middle of it) and continue
//! from its last committed round, and its record must replay `identical`; a hundred runs advance
//! at once.
//!
//! Decision: one SQLite file (rusqlite, SQLite bundled so every machine has the same version) in
//! WAL mode: readers never block the writer, and a commit is durable against a killed process as
//! soon as it returns (`synchronous=NORMAL` syncs the log at checkpoints, which loses nothing
//! when only the process dies; a power cut may lose the last commits, never corrupt the file).
//! A run row holds what the run pins (ruleset, revision and fingerprint, engine version, seed,
//! human side, formations; its squads in `run_squads`, so that the row every advance updates
//! stays within one page — migration 5) and how far it got; rounds (state hash and the dice rolled),
//! events, human intents and the decision log (bounded by the content's retention) are rows of
//! their own. Each advance is one transaction: the rows of its new rounds and the run row move
//! together or not at all. The engine's state is not stored: `run::resume` rebuilds a match
//! from the pinned inputs and checks every stored hash. Schema changes are numbered migrations
//! applied in order and recorded in `PRAGMA user_version`; a file from a newer schema is refused.
//!
//! Writes go to one writer thread that owns the only writing connection (SQLite allows one
//! writer) and commits them in groups: the advances of different runs that arrive while a
//! commit is in progress are written together in the next transaction, each inside its own
//! savepoint, so one that fails is rolled back alone and the others still commit. Every advance
//! stays atomic and is answered only once its group has committed; grouping only shares the
//! cost of a commit (its WAL frames, its locks) among concurrent runs — with a hundred runs
//! advancing at once, one transaction per advance made the writer the queue every request
//! waited in. Rows with large bodies live in rowid tables with a unique (run, seq) index:
//! appended at the end of the table instead of scattered through a clustered index whose cells
//! overflow at ~1 KB (migration 3). A decision, ~4 KB as the endpoint shows it, is stored as
//! positional arrays (`decisions.rs`, ~45 % of that) so that it fits a page; it was ~90 % of
//! the bytes an advance wrote. The advance that ends a match moves its rounds, events and
//! decisions into zstd-compressed `chunks` rows (`chunks.rs`): a finished match takes ~1.4 MB
//! instead of ~6 MB, and reads return the same bytes.
//!
//! The writer answers an advance through a tokio oneshot (`Pending`): the HTTP handler awaits it
//! without holding a thread, so a hundred runs waiting for their group commit cost no parked
//! threads and the commit wakes the runtime's workers rather than a hundred sleepers. Expired
//! decisions (past the content's retention) are deleted once `EXPIRY_BATCH` of them have
//! accumulated, in one statement, rather than one row per advance; reads skip them meanwhile.
//!
//! Limits: one writer thread serialises writes; a run's token is kept only as its SHA-256.

mod chunks;
mod decisions;
mod effects;
pub mod prune;
mod schema;
pub mod timing;

pub use decisions::{compact as compact_decision, expand as expand_decision};
pub use effects::{CommandRow, NewJourney, StoredJourney};

use microfut_football::club::Club;
use microfut_football::engine::{Event, RecordedIntent, TeamStats};
use microfut_football::run::{FORMAT, RunRecord};
use rusqlite::{Connection, OptionalExtension, params};
use std::any::Any;
use std::marker::PhantomData;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, mpsc};
use tokio::sync::oneshot;

#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    #[error("run store {path}: {message}")]
    Open { path: String, message: String },
    #[error("run store: {0}")]
    Sql(rusqlite::Error),
    #[error("run store: stored data is unreadable ({0})")]
    Corrupt(String),
    #[error("run store: the write was not committed ({0})")]
    Write(String),
    /// The disk (or the file system's quota) is full: nothing of the write is in the file.
    #[error("{full}; nothing of this write was kept ({0})", full = crate::sqlite_file::DISK_FULL)]
    Full(String),
    /// The store's file was deleted or replaced under the server: writes are refused.
    #[error("run store {0}")]
    Vanished(String),
    /// A new run would take the store past its cap (`Store::set_max_runs`).
    #[error("the run store holds {max} runs, as many as it may")]
    Capacity { max: u64 },
    /// The store's file (its pages in use and its WAL) is over its cap in bytes
    /// (`Store::set_max_bytes`): no new run or journey.
    #[error("the run store uses {} MiB, over the {} MiB it may (--max-store-mb)", mib(*.used), mib(*.max))]
    Bytes { used: u64, max: u64 },
}

/// Bytes in whole mebibytes, rounded up (so a store just over its cap never reads "2048 of 2048").
pub fn mib(bytes: u64) -> u64 {
    bytes.div_ceil(1 << 20)
}

impl StoreError {
    /// The same failure for another write of a group that failed as a whole.
    fn again(&self) -> StoreError {
        match self {
            StoreError::Full(m) => StoreError::Full(m.clone()),
            StoreError::Vanished(m) => StoreError::Vanished(m.clone()),
            other => StoreError::Write(other.to_string()),
        }
    }

    fn sql(e: rusqlite::Error) -> StoreError {
        e.into()
    }
}

/// A SQLite failure, a full disk named as such (every `?` in the store goes through here).
impl From<rusqlite::Error> for StoreError {
    fn from(e: rusqlite::Error) -> StoreError {
        if crate::sqlite_file::is_full(&e) { StoreError::Full(e.to_string()) } else { StoreError::Sql(e) }
    }
}

/// Bytes of the file read through a memory map.
const MMAP_BYTES: i64 = 1 << 30;

/// How often the WAL is checkpointed (off the writer's path).
const CHECKPOINT_EVERY: std::time::Duration = std::time::Duration::from_millis(250);

/// Most writes one transaction groups.
const MAX_GROUP: usize = 256;

/// The WAL is cut back to this size when it restarts after a checkpoint: a burst of writes (a
/// prune, a checkpoint held back by a long read) would otherwise keep its high-water mark on
/// disk for good, beside a store that `--max-store-mb` caps.
const WAL_KEPT_BYTES: i64 = 32 << 20;

/// Expired decisions are deleted once this many have accumulated past the retention, in one
/// statement, rather than one row per advance; reads hide them meanwhile (`decisions`).
const EXPIRY_BATCH: u64 = 64;

type Output = Box<dyn Any + Send>;
type Job = Box<dyn FnOnce(&Connection) -> Result<Output, StoreError> + Send>;
type Answer = Result<Output, StoreError>;
/// An answer with when its group began and committed (`timing`).
type Stamped = (Answer, timing::CommitStamp);

/// How the writer answers: through a tokio oneshot that a caller on the async runtime awaits
/// without holding a thread, or a channel a caller blocks on (usable from any thread, including
/// one inside a runtime, where a oneshot's `blocking_recv` would panic).
enum Reply {
    Async(oneshot::Sender<Stamped>),
    Blocking(mpsc::SyncSender<Stamped>),
}

impl Reply {
    fn send(self, out: Answer, stamp: timing::CommitStamp) {
        // The caller may have gone (a dropped request): the write stands either way.
        let _ = match self {
            Reply::Async(tx) => tx.send((out, stamp)).map_err(|_| ()),
            Reply::Blocking(tx) => tx.send((out, stamp)).map_err(|_| ()),
        };
    }
}

fn stopped() -> StoreError {
    StoreError::Write("the writer has stopped".into())
}

/// A write handed to the writer thread, answered once the transaction that holds it has
/// committed (or failed). Dropping it does not cancel the write.
#[must_use = "a queued write is answered only through its Pending"]
pub struct Pending<T> {
    answer: oneshot::Receiver<Stamped>,
    _out: PhantomData<fn() -> T>,
}

fn unpack<T: 'static>(out: Option<Stamped>) -> Result<T, StoreError> {
    let out = out.ok_or_else(stopped)?.0?;
    Ok(*out.downcast::<T>().expect("a write answers with its own type"))
}

impl<T: 'static> Pending<T> {
    /// Waits, on the async runtime, for the commit that holds this write.
    pub async fn committed(self) -> Result<T, StoreError> {
        unpack(self.answer.await.ok())
    }

    /// `committed`, with when the writer began the group holding this write and when it
    /// committed (for `timing`; `None` if the writer stopped).
    pub async fn committed_stamped(self) -> (Result<T, StoreError>, Option<timing::CommitStamp>) {
        let out = self.answer.await.ok();
        let stamp = out.as_ref().map(|o| o.1);
        (unpack(out), stamp)
    }

    /// Blocks this thread until the commit; off the async runtime only (it panics inside one).
    pub fn wait(self) -> Result<T, StoreError> {
        unpack(self.answer.blocking_recv().ok())
    }
}

/// A store's caps: runs (journeys counted apart) and bytes (`Store::set_max_bytes`).
#[derive(Debug, Clone, Copy)]
pub struct Limits {
    pub max_runs: u64,
    pub max_bytes: u64,
}

/// What a run pins, as created.
#[derive(Debug, Clone)]
pub struct NewRun {
    pub id: String,
    pub token_sha256: String,
    pub ruleset: String,
    pub revision: String,
    pub fingerprint: String,
    pub engine_version: String,
    pub seed: u64,
    pub human: Option<String>,
    pub formations: [Option<String>; 2],
    pub home: Club,
    pub away: Club,
    pub retention: usize,
}

/// A stored run row with everything needed to rebuild and extend it.
#[derive(Debug, Clone)]
pub struct StoredRun {
    pub run: NewRun,
    pub rounds: usize,
    pub pending: bool,
    pub finished: bool,
    pub score: [u32; 2],
    pub stats: [TeamStats; 2],
    pub events: usize,
    pub decisions: u64,
    pub created_at: i64,
}

/// One round as committed: its state hash and the dice it rolled (JSON).
#[derive(Debug, Clone)]
pub struct RoundRow {
    pub round: u32,
    pub hash: String,
    pub rolls: String,
}

/// The new events of a run, serialised once: the rows `Advance::events` stores and, from the
/// same strings, the reply's events (`RawValue`), so an advance does not serialise its events
/// twice (once for the store, once through a `serde_json::Value` for the reply).
pub fn events_json(events: &[Event]) -> Vec<(u32, String)> {
    events.iter().map(|e| (e.round, json(e))).collect()
}

/// Everything one advance adds to a run, written in one transaction.
#[derive(Debug)]
pub struct Advance<'a> {
    pub rounds: Vec<RoundRow>,
    /// New events as (round, the event's JSON), numbered from `first_event`: serialised once by
    /// the caller, which answers with the same bytes (`events_json`).
    pub events: Vec<(u32, String)>,
    pub first_event: usize,
    pub intents: &'a [RecordedIntent],
    pub first_intent: usize,
    /// New decisions (`compact_decision`), numbered from `first_decision`.
    pub decisions: Vec<(u32, String)>,
    pub first_decision: u64,
    /// Decisions kept (the content's retention); older rows are deleted.
    pub retention: usize,
    pub pending: bool,
    pub finished: bool,
    pub score: [u32; 2],
    pub stats: &'a [TeamStats; 2],
}

pub struct Store {
    path: PathBuf,
    jobs: Option<mpsc::Sender<(Job, Reply)>>,
    writer: Option<std::thread::JoinHandle<()>>,
    checkpointer: Option<(mpsc::Sender<()>, std::thread::JoinHandle<()>)>,
    readers: Mutex<Vec<Connection>>,
    /// The file opened at `path` (`sqlite_file::still_there`).
    opened: crate::sqlite_file::Identity,
    /// The cap on stored runs (`set_max_runs`); `u64::MAX`, no cap, until set.
    max_runs: std::sync::atomic::AtomicU64,
    /// The cap in bytes on the file's pages in use and its WAL (`set_max_bytes`); `u64::MAX`
    /// until set.
    max_bytes: std::sync::atomic::AtomicU64,
    /// The WAL's frames not yet copied into the file, in bytes, as the checkpointer last saw.
    wal_backlog: Arc<AtomicU64>,
}

impl Drop for Store {
    /// Closes the queue and waits for the writer to finish what it was given.
    fn drop(&mut self) {
        if let Some((stop, t)) = self.checkpointer.take() {
            drop(stop);
            let _ = t.join();
        }
        self.jobs.take();
        if let Some(w) = self.writer.take() {
            let _ = w.join();
        }
    }
}

/// Copies the WAL into the database file every `CHECKPOINT_EVERY`, on a connection of its own,
/// so that neither the copy nor its fsync happens inside a commit (a `PASSIVE` checkpoint never
/// blocks the writer), and leaves in `backlog` the bytes of WAL frames it could not copy yet
/// (`Room`). Stops when `stop` is dropped.
fn checkpoint_periodically(conn: Connection, stop: mpsc::Receiver<()>, backlog: Arc<AtomicU64>) {
    let page = conn.pragma_query_value(None, "page_size", |r| r.get::<_, i64>(0)).unwrap_or(4096).max(0) as u64;
    while let Err(mpsc::RecvTimeoutError::Timeout) = stop.recv_timeout(CHECKPOINT_EVERY) {
        let frames =
            conn.query_row("PRAGMA wal_checkpoint(PASSIVE)", [], |r| Ok((r.get::<_, i64>(1)?, r.get::<_, i64>(2)?)));
        if let Ok((log, copied)) = frames {
            // A frame is a page and its 24-byte header.
            backlog.store((log - copied).max(0) as u64 * (page + 24), Ordering::Relaxed);
        }
    }
}

/// What the writer needs to know about its file: where it is and which file it opened there.
struct File {
    path: PathBuf,
    opened: crate::sqlite_file::Identity,
    /// Set once a vanished file has been reported (on stderr), so it is logged once.
    reported: bool,
}

impl File {
    /// Refuses to write to a file that is no longer the one the path names: a deleted file's
    /// writes would be lost at the next start, a replaced one's would land in the old inode.
    fn check(&mut self) -> Result<(), StoreError> {
        crate::sqlite_file::still_there(&self.path, self.opened).map_err(|why| {
            if !self.reported {
                self.reported = true;
                eprintln!("error: run store {why}");
            }
            StoreError::Vanished(why)
        })
    }
}

/// The writer thread: takes what is queued (at most `MAX_GROUP`), writes each in a savepoint of
/// one transaction, commits, then answers each. A failed write is rolled back alone; a failed
/// commit fails the whole group (none of it is in the file).
fn write_groups(conn: Connection, jobs: mpsc::Receiver<(Job, Reply)>, mut file: File) {
    while let Ok(first) = jobs.recv() {
        let began = std::time::Instant::now();
        let mut group = vec![first];
        while group.len() < MAX_GROUP {
            match jobs.try_recv() {
                Ok(j) => group.push(j),
                Err(_) => break,
            }
        }
        commit_group(&conn, &mut file, group, began);
    }
}

/// One group: a transaction, a savepoint per write, the commit, then every answer.
fn commit_group(conn: &Connection, file: &mut File, group: Vec<(Job, Reply)>, began: std::time::Instant) {
    let size = group.len();
    let stamp = |committed| timing::CommitStamp { group_began: began, committed, group_size: size };
    if let Err(e) = file.check().and_then(|()| conn.execute_batch("BEGIN IMMEDIATE").map_err(StoreError::sql)) {
        for (_, reply) in group {
            reply.send(Err(e.again()), stamp(std::time::Instant::now()));
        }
        return;
    }
    let (done, lost) = write_group(conn, group);
    let written = std::time::Instant::now();
    // A group SQLite rolled back as a whole (a full disk, an I/O error) is not committed: every
    // write in it fails with the reason, not with "no transaction is active".
    let committed = match lost {
        Some(e) => Err(e),
        None => conn.execute_batch("COMMIT").map_err(StoreError::sql),
    };
    let at = std::time::Instant::now();
    timing::record_group(timing::GroupTimes { size, began, written, committed: at });
    match committed {
        Ok(()) => {
            for (reply, out) in done {
                reply.send(out, stamp(at));
            }
        }
        Err(e) => {
            if !conn.is_autocommit() {
                let _ = conn.execute_batch("ROLLBACK");
            }
            for (reply, _) in done {
                reply.send(Err(e.again()), stamp(at));
            }
        }
    }
}

/// Writes each job of a group in its own savepoint of the open transaction. Returns each job's
/// answer and, when SQLite rolled the whole transaction back under them (it does so for a full
/// disk or an I/O error, whatever savepoint is open), why: then none of the group is in the
/// file, and no later job may run (outside a transaction, each would commit on its own).
fn write_group(conn: &Connection, group: Vec<(Job, Reply)>) -> (Vec<(Reply, Answer)>, Option<StoreError>) {
    let mut done = Vec::with_capacity(group.len());
    let mut lost: Option<StoreError> = None;
    // The savepoint statements are prepared once (not parsed twice per write).
    let savepoint = |sql: &str| conn.prepare_cached(sql).and_then(|mut st| st.execute([])).map(|_| ());
    for (job, reply) in group {
        if let Some(e) = &lost {
            done.push((reply, Err(e.again())));
            continue;
        }
        let out = match savepoint("SAVEPOINT job") {
            Err(e) => Err(StoreError::sql(e)),
            Ok(()) => match job(conn) {
                Ok(v) => savepoint("RELEASE job").map(|_| v).map_err(StoreError::sql),
                Err(e) => {
                    if !conn.is_autocommit() && conn.execute_batch("ROLLBACK TO job; RELEASE job").is_err() {
                        lost = Some(e.again());
                    }
                    Err(e)
                }
            },
        };
        if lost.is_none() && conn.is_autocommit() {
            lost = Some(match &out {
                Err(e) => e.again(),
                Ok(_) => StoreError::Write("the transaction was rolled back".into()),
            });
        }
        done.push((reply, out));
    }
    (done, lost)
}

fn now() -> i64 {
    std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_secs() as i64)
}

fn corrupt(e: impl std::fmt::Display) -> StoreError {
    StoreError::Corrupt(e.to_string())
}

impl Store {
    /// Opens (creating if needed) the store at `path` and brings its schema up to date.
    pub fn open(path: &Path) -> Result<Store, StoreError> {
        let open_err =
            |e: &dyn std::fmt::Display| StoreError::Open { path: path.display().to_string(), message: e.to_string() };
        let mut conn = Connection::open(path).map_err(|e| open_err(&e))?;
        // Checked before anything is written to it (switching to WAL writes the header).
        crate::sqlite_file::check(&conn).map_err(|e| open_err(&e))?;
        configure(&conn).map_err(|e| open_err(&e))?;
        schema::migrate(&mut conn).map_err(|e| open_err(&e))?;
        // Checkpoints run on their own thread (below), not at the end of a commit.
        conn.pragma_update(None, "wal_autocheckpoint", 0).map_err(|e| open_err(&e))?;
        // Every statement an advance runs stays prepared (rusqlite keeps 16 by default; the
        // chunks of three kinds of rows, `chunks.rs`, brought the writer's to ~25).
        conn.set_prepared_statement_cache_capacity(64);
        let ck = Connection::open(path).map_err(|e| open_err(&e))?;
        configure(&ck).map_err(|e| open_err(&e))?;
        let (stop, stopped) = mpsc::channel();
        let wal_backlog = Arc::new(AtomicU64::new(0));
        let backlog = wal_backlog.clone();
        let checkpointer = std::thread::Builder::new()
            .name("run-store-checkpoint".into())
            .spawn(move || checkpoint_periodically(ck, stopped, backlog))
            .map_err(|e| open_err(&e))?;
        let opened = crate::sqlite_file::identity(path).map_err(|e| open_err(&e))?;
        let file = File { path: path.to_path_buf(), opened, reported: false };
        let (jobs, queue) = mpsc::channel();
        let writer = std::thread::Builder::new()
            .name("run-store-writer".into())
            .spawn(move || write_groups(conn, queue, file))
            .map_err(|e| open_err(&e))?;
        Ok(Store {
            path: path.to_path_buf(),
            jobs: Some(jobs),
            writer: Some(writer),
            checkpointer: Some((stop, checkpointer)),
            readers: Mutex::new(Vec::new()),
            opened,
            max_runs: std::sync::atomic::AtomicU64::new(u64::MAX),
            max_bytes: std::sync::atomic::AtomicU64::new(u64::MAX),
            wal_backlog,
        })
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Queues `f` for the writer, which runs it inside a transaction (shared with concurrent
    /// writes, `f` alone in its savepoint); the answer comes once that transaction has committed.
    fn queue<T: Send + 'static>(
        &self,
        f: impl FnOnce(&Connection) -> Result<T, StoreError> + Send + 'static,
    ) -> Result<Pending<T>, StoreError> {
        let (reply, answer) = oneshot::channel();
        self.send(f, Reply::Async(reply))?;
        Ok(Pending { answer, _out: PhantomData })
    }

    /// `queue`, blocking this thread until the commit.
    fn write<T: Send + 'static>(
        &self,
        f: impl FnOnce(&Connection) -> Result<T, StoreError> + Send + 'static,
    ) -> Result<T, StoreError> {
        let (reply, answer) = mpsc::sync_channel(1);
        self.send(f, Reply::Blocking(reply))?;
        unpack(answer.recv().ok())
    }

    fn send<T: Send + 'static>(
        &self,
        f: impl FnOnce(&Connection) -> Result<T, StoreError> + Send + 'static,
        reply: Reply,
    ) -> Result<(), StoreError> {
        let job: Job = Box::new(move |c| f(c).map(|v| Box::new(v) as Output));
        self.jobs.as_ref().ok_or_else(stopped)?.send((job, reply)).map_err(|_| stopped())
    }

    fn read<T>(&self, f: impl FnOnce(&Connection) -> Result<T, StoreError>) -> Result<T, StoreError> {
        let conn = self.readers.lock().unwrap_or_else(|p| p.into_inner()).pop();
        let conn = match conn {
            Some(c) => c,
            None => {
                // A new connection opens whatever the path names now: not another file.
                crate::sqlite_file::still_there(&self.path, self.opened).map_err(StoreError::Vanished)?;
                let c = Connection::open_with_flags(
                    &self.path,
                    rusqlite::OpenFlags::SQLITE_OPEN_READ_ONLY | rusqlite::OpenFlags::SQLITE_OPEN_NO_MUTEX,
                )?;
                c.busy_timeout(std::time::Duration::from_secs(5))?;
                c.pragma_update(None, "mmap_size", MMAP_BYTES)?;
                c
            }
        };
        let out = f(&conn);
        let mut pool = self.readers.lock().unwrap_or_else(|p| p.into_inner());
        if pool.len() < 8 {
            pool.push(conn);
        }
        out
    }

    /// Stores a new run with no events (a run whose kick-off is not stored: its first advance
    /// writes it). The server stores its runs with [`Store::start_run`].
    pub fn create_run(&self, r: &NewRun) -> Result<(), StoreError> {
        self.start_run(r, Vec::new(), &Default::default())
    }

    /// Stores a new run as the match stands before its first round: the events `Match::new`
    /// made (the kick-off, as `events_json` serialises them) and the statistics then, so the
    /// record of a run that has not advanced yet is the record of that match, and replays.
    /// Refused with `Capacity` when the store holds its cap of runs already.
    pub fn start_run(&self, r: &NewRun, events: Vec<(u32, String)>, stats: &[TeamStats; 2]) -> Result<(), StoreError> {
        let r = r.clone();
        let stats = serde_json::to_string(stats).map_err(corrupt)?;
        let max = self.max_runs();
        let room = self.room();
        self.write(move |c| {
            room.check(c)?;
            if max < u64::MAX {
                let held: i64 = c.prepare_cached("SELECT count(*) FROM runs")?.query_row([], |row| row.get(0))?;
                if held as u64 >= max {
                    return Err(StoreError::Capacity { max });
                }
            }
            c.prepare_cached(
                "INSERT INTO runs (id, token_sha256, created_at, ruleset, revision, fingerprint, engine_version, seed, \
                 human, formations, retention, stats) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12)",
            )?
            .execute(params![
                r.id,
                r.token_sha256,
                now(),
                r.ruleset,
                r.revision,
                r.fingerprint,
                r.engine_version,
                r.seed.to_string(),
                r.human,
                json(&r.formations),
                r.retention as i64,
                stats,
            ])?;
            c.prepare_cached("INSERT INTO run_squads (run_id, home, away) VALUES (?1, ?2, ?3)")?.execute(params![
                r.id,
                json(&r.home),
                json(&r.away)
            ])?;
            let mut st = c.prepare_cached("INSERT INTO events (run_id, seq, round, body) VALUES (?1, ?2, ?3, ?4)")?;
            for (seq, (round, body)) in events.iter().enumerate() {
                st.execute(params![r.id, seq as i64, round, body])?;
            }
            c.prepare_cached("UPDATE runs SET events = ?2 WHERE id = ?1")?
                .execute(params![r.id, events.len() as i64])?;
            Ok(())
        })
    }

    /// Both caps at once (`serve --max-runs`, `--max-store-mb`).
    pub fn set_limits(&self, limits: Limits) {
        self.set_max_runs(limits.max_runs);
        self.set_max_bytes(limits.max_bytes);
    }

    /// At most `max` runs are stored: `start_run` refuses the next one (`Capacity`).
    pub fn set_max_runs(&self, max: u64) {
        self.max_runs.store(max, std::sync::atomic::Ordering::Relaxed);
    }

    fn max_runs(&self) -> u64 {
        self.max_runs.load(std::sync::atomic::Ordering::Relaxed)
    }

    /// No new run or journey once the file's pages in use and its WAL take `max` bytes or more
    /// (`StoreError::Bytes`); runs in progress still advance, so a person's match is never cut
    /// short by the cap. Pages freed by deleting or pruning runs count as room: SQLite writes
    /// new rows into them before it grows the file.
    pub fn set_max_bytes(&self, max: u64) {
        self.max_bytes.store(max, std::sync::atomic::Ordering::Relaxed);
    }

    /// What a creation's write job checks the store's size against.
    fn room(&self) -> Room {
        Room { wal: self.wal_backlog.load(Ordering::Relaxed), max: self.max_bytes.load(Ordering::Relaxed) }
    }

    /// How many runs the store holds.
    pub fn count_runs(&self) -> Result<u64, StoreError> {
        self.read(|c| Ok(c.prepare_cached("SELECT count(*) FROM runs")?.query_row([], |r| r.get::<_, i64>(0))? as u64))
    }

    /// Deletes run `id` and every row of it (rounds, events, intents, decisions, squads), in one
    /// transaction; `false` when there was no such run.
    pub fn delete_run(&self, id: &str) -> Result<bool, StoreError> {
        let id = id.to_string();
        self.write(move |c| delete_run_rows(c, &id))
    }

    /// Commits one advance of run `id` atomically, blocking until it is in the file.
    pub fn commit(&self, id: &str, a: &Advance<'_>) -> Result<(), StoreError> {
        let (reply, answer) = mpsc::sync_channel(1);
        self.send(self.advance_job(id, a)?, Reply::Blocking(reply))?;
        unpack(answer.recv().ok())
    }

    /// Queues one advance of run `id`, to be committed atomically (alone in its savepoint of the
    /// writer's next group); the `Pending` answers once it is in the file. A caller must not
    /// queue the next advance of the same run before this one has answered.
    pub fn queue_commit(&self, id: &str, a: &Advance<'_>) -> Result<Pending<()>, StoreError> {
        self.queue(self.advance_job(id, a)?)
    }

    /// The writer's job for one advance. The rows are serialised here, on the caller's thread,
    /// so the writer only writes.
    fn advance_job(
        &self,
        id: &str,
        a: &Advance<'_>,
    ) -> Result<impl FnOnce(&Connection) -> Result<(), StoreError> + Send + 'static, StoreError> {
        let id = id.to_string();
        let rounds: Vec<chunks::Row> = a
            .rounds
            .iter()
            .map(|r| chunks::Row {
                key: r.round.into(),
                round: r.round.into(),
                texts: vec![r.hash.clone(), r.rolls.clone()],
            })
            .collect();
        let events: Vec<chunks::Row> = a
            .events
            .iter()
            .enumerate()
            .map(|(k, (round, body))| chunks::Row {
                key: (a.first_event + k) as i64,
                round: (*round).into(),
                texts: vec![body.clone()],
            })
            .collect();
        let intents = a
            .intents
            .iter()
            .enumerate()
            .map(|(k, i)| {
                Ok(((a.first_intent + k) as i64, i.round, serde_json::to_string(&i.intent).map_err(corrupt)?))
            })
            .collect::<Result<Vec<_>, StoreError>>()?;
        let total = a.first_decision + a.decisions.len() as u64;
        // Rows before `total - retention` are expired; they are deleted when that line crosses a
        // multiple of EXPIRY_BATCH (and when the match ends), so the delete runs once per batch.
        let retention = a.retention as u64;
        let line = |n: u64| n.saturating_sub(retention) / EXPIRY_BATCH;
        let forget_before = (total > retention
            && ((!a.decisions.is_empty() && line(total) > line(a.first_decision)) || a.finished))
            .then(|| (total - retention) as i64);
        // New decisions already past the retention (an advance of more than it) are not written.
        let kept_from = total.saturating_sub(retention) as i64;
        let decisions: Vec<chunks::Row> = a
            .decisions
            .iter()
            .enumerate()
            .map(|(k, (round, body))| chunks::Row {
                key: (a.first_decision + k as u64) as i64,
                round: (*round).into(),
                texts: vec![body.clone()],
            })
            .filter(|r| r.key >= kept_from)
            .collect();
        let (new_rounds, new_events) = (rounds.len() as i64, events.len() as i64);
        // The advance that ends the match seals the run's rows into compressed chunks, packed
        // here rather than on the writer (`chunks.rs`); before that they are plain rows.
        let rows =
            [(chunks::Kind::Rounds, rounds), (chunks::Kind::Events, events), (chunks::Kind::Decisions, decisions)];
        let rows = if a.finished {
            let seals = rows
                .into_iter()
                .map(|(kind, new)| {
                    let min_key = if kind == chunks::Kind::Decisions { kept_from } else { 0 };
                    self.read(|c| chunks::plan_seal(c, &id, kind, new, min_key))
                })
                .collect::<Result<Vec<_>, _>>()?;
            NewRows::Sealed(seals)
        } else {
            NewRows::Plain(rows)
        };
        let stats = serde_json::to_string(a.stats).map_err(corrupt)?;
        let (pending, finished, score) = (a.pending, a.finished, a.score);
        Ok(move |c: &Connection| {
            let mut st = c.prepare_cached("INSERT INTO intents (run_id, seq, round, body) VALUES (?1, ?2, ?3, ?4)")?;
            for (seq, round, body) in &intents {
                st.execute(params![id, seq, round, body])?;
            }
            if let Some(before) = forget_before {
                c.prepare_cached("DELETE FROM decisions WHERE run_id = ?1 AND seq < ?2")?
                    .execute(params![id, before])?;
            }
            match &rows {
                NewRows::Plain(plain) => {
                    for (kind, new) in plain {
                        chunks::insert_plain(c, &id, *kind, new)?;
                    }
                }
                NewRows::Sealed(seals) => {
                    for seal in seals {
                        chunks::write_seal(c, &id, seal)?;
                    }
                }
            }
            c.prepare_cached(
                "UPDATE runs SET rounds = rounds + ?2, pending = ?3, finished = ?4, score_home = ?5, score_away = ?6, \
                 stats = ?7, events = events + ?8, decisions = ?9, \
                 finished_at = CASE WHEN ?4 THEN coalesce(finished_at, ?10) END WHERE id = ?1",
            )?
            .execute(params![
                id,
                new_rounds,
                pending,
                finished,
                score[0],
                score[1],
                stats,
                new_events,
                total as i64,
                now(),
            ])?;
            Ok(())
        })
    }

    pub fn run(&self, id: &str) -> Result<Option<StoredRun>, StoreError> {
        self.read(|c| load_run(c, id))
    }

    /// The stored token digest of a run, for authorising writes.
    pub fn token_sha256(&self, id: &str) -> Result<Option<String>, StoreError> {
        self.read(|c| {
            Ok(c.prepare_cached("SELECT token_sha256 FROM runs WHERE id = ?1")?
                .query_row([id], |r| r.get(0))
                .optional()?)
        })
    }

    pub fn hashes(&self, id: &str) -> Result<Vec<String>, StoreError> {
        Ok(self.rounds(id, 0, usize::MAX)?.into_iter().map(|r| r.hash).collect())
    }

    pub fn intents(&self, id: &str) -> Result<Vec<RecordedIntent>, StoreError> {
        self.read(|c| {
            let mut st = c.prepare_cached("SELECT round, body FROM intents WHERE run_id = ?1 ORDER BY seq")?;
            let rows = st.query_map([id], |r| Ok((r.get::<_, u32>(0)?, r.get::<_, String>(1)?)))?;
            let mut out = Vec::new();
            for row in rows {
                let (round, body) = row?;
                out.push(RecordedIntent { round, intent: serde_json::from_str(&body).map_err(corrupt)? });
            }
            Ok(out)
        })
    }

    /// Events from round `from` on (at most `limit`), in order.
    pub fn events(&self, id: &str, from: u32, limit: usize) -> Result<Vec<serde_json::Value>, StoreError> {
        self.event_texts(id, from, limit)?.iter().map(|b| serde_json::from_str(b).map_err(corrupt)).collect()
    }

    /// [`Store::events`] as stored: each event's JSON, byte for byte as its advance wrote it.
    pub fn event_texts(&self, id: &str, from: u32, limit: usize) -> Result<Vec<String>, StoreError> {
        let rows = self.read(|c| chunks::read(c, id, chunks::Kind::Events, from.into(), 0, limit))?;
        Ok(rows.into_iter().map(|mut r| r.texts.swap_remove(0)).collect())
    }

    /// Rounds from `from` on (at most `limit`): hash and rolls.
    pub fn rounds(&self, id: &str, from: u32, limit: usize) -> Result<Vec<RoundRow>, StoreError> {
        let rows = self.read(|c| chunks::read(c, id, chunks::Kind::Rounds, from.into(), 0, limit))?;
        rows.into_iter()
            .map(|r| {
                let round = u32::try_from(r.key).map_err(corrupt)?;
                let [hash, rolls]: [String; 2] =
                    r.texts.try_into().map_err(|_| corrupt("a round without its texts"))?;
                Ok(RoundRow { round, hash, rolls })
            })
            .collect()
    }

    /// Kept decisions from round `from` on (at most `limit`), oldest first: the last `retention`
    /// of the run's decisions (expired rows not yet deleted are skipped).
    pub fn decisions(&self, id: &str, from: u32, limit: usize) -> Result<Vec<serde_json::Value>, StoreError> {
        let rows = self.read(|c| {
            let kept_from: Option<i64> = c
                .prepare_cached("SELECT decisions - retention FROM runs WHERE id = ?1")?
                .query_row([id], |r| r.get(0))
                .optional()?;
            match kept_from {
                Some(kept_from) => chunks::read(c, id, chunks::Kind::Decisions, from.into(), kept_from, limit),
                None => Ok(Vec::new()),
            }
        })?;
        rows.into_iter().map(|r| decisions::expand(serde_json::from_str(&r.texts[0]).map_err(corrupt)?)).collect()
    }

    /// The run as the record file `microfut replay` reads.
    pub fn record(&self, id: &str) -> Result<Option<RunRecord>, StoreError> {
        let Some(run) = self.run(id)? else { return Ok(None) };
        let events = self
            .events(id, 0, usize::MAX >> 1)?
            .into_iter()
            .map(|v| serde_json::from_value::<Event>(v).map_err(corrupt))
            .collect::<Result<Vec<_>, _>>()?;
        Ok(Some(
            RunRecord {
                format: FORMAT.into(),
                ruleset: run.run.ruleset.clone(),
                revision: run.run.revision.clone(),
                fingerprint: run.run.fingerprint.clone(),
                engine_version: run.run.engine_version.clone(),
                seed: run.run.seed,
                human: run.run.human.clone(),
                formations: run.run.formations.clone(),
                home: run.run.home.clone(),
                away: run.run.away.clone(),
                intents: self.intents(id)?,
                score: run.score,
                stats: run.stats.clone(),
                events,
                round_hashes: self.hashes(id)?,
                seal: None,
            }
            .sealed(),
        ))
    }

    /// Uploaded clubs: (id, club).
    pub fn clubs(&self) -> Result<Vec<Club>, StoreError> {
        self.read(|c| {
            let mut st = c.prepare_cached("SELECT body FROM clubs ORDER BY id")?;
            let rows = st.query_map([], |r| r.get::<_, String>(0))?;
            rows.map(|b| serde_json::from_str(&b?).map_err(corrupt)).collect()
        })
    }

    pub fn club(&self, id: &str) -> Result<Option<Club>, StoreError> {
        self.read(|c| {
            let body: Option<String> =
                c.prepare_cached("SELECT body FROM clubs WHERE id = ?1")?.query_row([id], |r| r.get(0)).optional()?;
            body.map(|b| serde_json::from_str(&b).map_err(corrupt)).transpose()
        })
    }

    /// Stores an uploaded club; `false` when a club with that id exists already.
    pub fn add_club(&self, club: &Club) -> Result<bool, StoreError> {
        let body = serde_json::to_string(club).map_err(corrupt)?;
        let club_id = club.id.clone();
        self.write(move |c| {
            let n = c
                .prepare_cached("INSERT OR IGNORE INTO clubs (id, body, created_at) VALUES (?1, ?2, ?3)")?
                .execute(params![club_id, body, now()])?;
            Ok(n == 1)
        })
    }

    /// A digest of every row of every table: equal before and after a read proves it wrote nothing.
    pub fn digest(&self) -> Result<String, StoreError> {
        use sha2::{Digest, Sha256};
        self.read(|c| {
            let mut h = Sha256::new();
            for table in schema::TABLES {
                let mut st = c.prepare(&format!("SELECT * FROM {table} ORDER BY 1, 2, 3"))?;
                let n = st.column_count();
                let mut rows = st.query([])?;
                while let Some(row) = rows.next()? {
                    for i in 0..n {
                        let v: rusqlite::types::Value = row.get(i)?;
                        h.update(format!("{v:?}\u{1f}").as_bytes());
                    }
                    h.update(b"\x1e");
                }
            }
            Ok(hex::encode(h.finalize()))
        })
    }
}

/// An advance's rounds, events and decisions as its write job writes them: plain rows while the
/// match goes on, chunks (with the run's earlier rows) once it ends.
enum NewRows {
    Plain([(chunks::Kind, Vec<chunks::Row>); 3]),
    Sealed(Vec<chunks::Seal>),
}

/// The cap in bytes as a creation's write job sees it.
struct Room {
    /// The WAL's frames not yet copied into the file (`checkpoint_periodically`): the WAL file
    /// itself keeps its high-water mark (up to `WAL_KEPT_BYTES`) after a checkpoint, space it
    /// reuses and no run holds, so its length would keep a small cap full for good.
    wal: u64,
    max: u64,
}

impl Room {
    fn check(&self, c: &Connection) -> Result<(), StoreError> {
        if self.max == u64::MAX {
            return Ok(());
        }
        let used = pages_in_use(c)? + self.wal;
        if used >= self.max { Err(StoreError::Bytes { used, max: self.max }) } else { Ok(()) }
    }
}

/// (page_count − freelist_count) × page_size, as the connection sees the file (the writer's
/// own transaction and the WAL's committed pages included).
fn pages_in_use(c: &Connection) -> Result<u64, StoreError> {
    let pragma = |name: &str| -> Result<u64, StoreError> {
        Ok(c.pragma_query_value(None, name, |r| r.get::<_, i64>(0))?.max(0) as u64)
    };
    let pages = pragma("page_count")?.saturating_sub(pragma("freelist_count")?);
    Ok(pages * pragma("page_size")?)
}

fn configure(c: &Connection) -> rusqlite::Result<()> {
    c.busy_timeout(std::time::Duration::from_secs(5))?;
    c.pragma_update(None, "journal_mode", "WAL")?;
    c.pragma_update(None, "synchronous", "NORMAL")?;
    c.pragma_update(None, "foreign_keys", "ON")?;
    // Pages read through a memory map rather than a read() per page: the writer touches the
    // index pages of a hundred runs in turn. (A larger page cache costs more than it saves: SQLite
    // walks its whole hash at the end of every transaction.)
    c.pragma_update(None, "mmap_size", MMAP_BYTES)?;
    c.pragma_update(None, "journal_size_limit", WAL_KEPT_BYTES)?;
    Ok(())
}

/// Journey `id` and its commands; `false` if there was none.
fn delete_journey_rows(c: &Connection, id: &str) -> Result<bool, StoreError> {
    c.prepare_cached("DELETE FROM effect_commands WHERE run_id = ?1")?.execute([id])?;
    Ok(c.prepare_cached("DELETE FROM effect_runs WHERE id = ?1")?.execute([id])? == 1)
}

/// Every row of run `id`, children first (they reference the run); `false` if there was none.
fn delete_run_rows(c: &Connection, id: &str) -> Result<bool, StoreError> {
    for table in ["rounds", "events", "intents", "decisions", "chunks", "run_squads"] {
        c.prepare_cached(&format!("DELETE FROM {table} WHERE run_id = ?1"))?.execute([id])?;
    }
    Ok(c.prepare_cached("DELETE FROM runs WHERE id = ?1")?.execute([id])? == 1)
}

fn load_run(c: &Connection, id: &str) -> Result<Option<StoredRun>, StoreError> {
    let row = c
        .prepare_cached(
            "SELECT id, token_sha256, created_at, ruleset, revision, fingerprint, engine_version, seed, human, \
             formations, s.home, s.away, retention, rounds, pending, finished, score_home, score_away, stats, events, \
             decisions FROM runs JOIN run_squads s ON s.run_id = runs.id WHERE id = ?1",
        )?
        .query_row([id], |r| {
            Ok((
                (r.get::<_, String>(0)?, r.get::<_, String>(1)?, r.get::<_, i64>(2)?),
                (r.get::<_, String>(3)?, r.get::<_, String>(4)?, r.get::<_, String>(5)?, r.get::<_, String>(6)?),
                (r.get::<_, String>(7)?, r.get::<_, Option<String>>(8)?, r.get::<_, String>(9)?),
                (r.get::<_, String>(10)?, r.get::<_, String>(11)?, r.get::<_, i64>(12)?),
                (r.get::<_, i64>(13)?, r.get::<_, bool>(14)?, r.get::<_, bool>(15)?),
                (r.get::<_, u32>(16)?, r.get::<_, u32>(17)?, r.get::<_, String>(18)?),
                (r.get::<_, i64>(19)?, r.get::<_, i64>(20)?),
            ))
        })
        .optional()?;
    let Some((
        (id, token, created_at),
        (ruleset, revision, fingerprint, engine),
        (seed, human, formations),
        clubs,
        progress,
        score,
        counts,
    )) = row
    else {
        return Ok(None);
    };
    Ok(Some(StoredRun {
        run: NewRun {
            id,
            token_sha256: token,
            ruleset,
            revision,
            fingerprint,
            engine_version: engine,
            seed: seed.parse().map_err(corrupt)?,
            human,
            formations: serde_json::from_str(&formations).map_err(corrupt)?,
            home: serde_json::from_str(&clubs.0).map_err(corrupt)?,
            away: serde_json::from_str(&clubs.1).map_err(corrupt)?,
            retention: clubs.2 as usize,
        },
        rounds: progress.0 as usize,
        pending: progress.1,
        finished: progress.2,
        score: [score.0, score.1],
        stats: serde_json::from_str(&score.2).map_err(corrupt)?,
        events: counts.0 as usize,
        decisions: counts.1 as u64,
        created_at,
    }))
}

/// `serde_json::to_string` for values that always serialise (plain data, string keys).
fn json<T: serde::Serialize>(v: &T) -> String {
    serde_json::to_string(v).expect("store values serialise")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn job(sql: &'static str) -> (Job, Reply, mpsc::Receiver<Stamped>) {
        let (tx, rx) = mpsc::sync_channel(1);
        let job: Job = Box::new(move |c| {
            c.execute_batch(sql)?;
            Ok(Box::new(()) as Output)
        });
        (job, Reply::Blocking(tx), rx)
    }

    /// A group in which one write fills the file (`max_page_count`, SQLite's own SQLITE_FULL):
    /// SQLite rolls the whole transaction back, so every write of the group fails as a full disk
    /// — the one released before it too — and the one after it is not run (outside a
    /// transaction it would have committed alone, while its caller was told it failed).
    #[test]
    fn a_write_that_fills_the_file_fails_its_whole_group_and_commits_nothing_alone() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("full.db");
        let conn = Connection::open(&path).unwrap();
        configure(&conn).unwrap();
        conn.execute_batch("CREATE TABLE t (x)").unwrap();
        let pages: i64 = conn.pragma_query_value(None, "page_count", |r| r.get(0)).unwrap();
        conn.pragma_update(None, "max_page_count", pages + 4).unwrap();
        let mut file =
            File { path: path.clone(), opened: crate::sqlite_file::identity(&path).unwrap(), reported: false };
        let jobs = [
            job("INSERT INTO t VALUES ('before')"),
            job("INSERT INTO t VALUES (zeroblob(1000000))"),
            job("INSERT INTO t VALUES ('after')"),
        ];
        let mut answers = Vec::new();
        let mut group = Vec::new();
        for (j, reply, rx) in jobs {
            group.push((j, reply));
            answers.push(rx);
        }
        commit_group(&conn, &mut file, group, std::time::Instant::now());
        for (k, rx) in answers.iter().enumerate() {
            let (out, _) = rx.recv().unwrap();
            assert!(matches!(out, Err(StoreError::Full(_))), "write {k}: {:?}", out.map(|_| ()));
        }
        let rows: i64 = conn.query_row("SELECT count(*) FROM t", [], |r| r.get(0)).unwrap();
        assert_eq!(rows, 0, "nothing of the group is in the file");
        assert!(conn.is_autocommit(), "no transaction is left open");
        // The next group writes as usual.
        let (j, reply, rx) = job("INSERT INTO t VALUES ('next')");
        commit_group(&conn, &mut file, vec![(j, reply)], std::time::Instant::now());
        assert!(rx.recv().unwrap().0.is_ok());
    }
}
