//! `microfut store prune`: deleting the finished runs (and World 1 journeys) of a run store
//! that finished longer ago than a given age.
//!
//! Problem: every finished run keeps its rounds, events and decision log (a few MB); a public
//! server fills its disk (issue 49: 3 GB in 40 s from eight clients). An operator needs to
//! remove old finished runs without stopping the server.
//!
//! Decision: a command of its own on its own connection, beside a running server: the file is
//! opened read-write but never created, checked (`quick_check`) and required to be a run store
//! of this binary's schema (it never migrates a file another server may be using); runs are
//! deleted in small transactions (`BATCH`), each waiting for the server's writer through the
//! busy timeout and holding the write lock briefly, so advances keep flowing meanwhile. Runs in
//! progress are never touched. The age is counted from when a run finished (`finished_at`,
//! migration 6; runs that finished before it count from their creation).
//!
//! Limits: SQLite reuses the freed pages for new runs but does not give them back to the file
//! system (that is `VACUUM`, which needs the file to itself). A server keeps a run it holds in
//! memory readable (`GET /runs/{id}`) until it evicts it; its store-backed reads answer 404.

use super::{StoreError, now, schema};
use rusqlite::{Connection, OpenFlags};
use std::path::Path;
use std::time::Duration;

/// Runs deleted per transaction: the server's writer waits for one batch at most.
const BATCH: usize = 16;

/// One deleted (or, in a dry run, deletable) run or journey.
#[derive(Debug, Clone)]
pub struct PrunedRun {
    pub id: String,
    /// When it finished, UTC (`YYYY-MM-DD HH:MM:SS`).
    pub finished: String,
    /// What it was: `home 2–3 away` for a match, the journey's id for a journey.
    pub what: String,
}

#[derive(Debug, Clone, Default)]
pub struct Pruned {
    pub runs: Vec<PrunedRun>,
    pub journeys: Vec<PrunedRun>,
    /// Bytes of the file now free for new rows (SQLite's free pages after the prune).
    pub freed_bytes: u64,
}

fn open(path: &Path) -> Result<Connection, StoreError> {
    let fail = |message: String| StoreError::Open { path: path.display().to_string(), message };
    match std::fs::metadata(path) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Err(fail("no such file".into())),
        Err(e) => return Err(fail(e.to_string())),
        Ok(m) if !m.is_file() => return Err(fail("not a regular file".into())),
        Ok(_) => {}
    }
    let conn = Connection::open_with_flags(path, OpenFlags::SQLITE_OPEN_READ_WRITE | OpenFlags::SQLITE_OPEN_NO_MUTEX)
        .map_err(|e| fail(e.to_string()))?;
    crate::sqlite_file::check(&conn).map_err(fail)?;
    // A server writing the same file holds the lock for one group commit at a time.
    conn.busy_timeout(Duration::from_secs(30)).map_err(|e| fail(e.to_string()))?;
    let version: i64 = conn.pragma_query_value(None, "user_version", |r| r.get(0)).map_err(|e| fail(e.to_string()))?;
    if version == 0 {
        return Err(fail("not a run store (no microfut tables in it)".into()));
    }
    if version as usize != schema::VERSION {
        return Err(fail(format!(
            "the store's schema is version {version}, this microfut's is {}: prune it with the microfut \
             that serves it{}",
            schema::VERSION,
            if (version as usize) < schema::VERSION {
                " (or start this version's `microfut serve` on it once, which migrates it)"
            } else {
                ""
            }
        )));
    }
    Ok(conn)
}

fn freelist_bytes(c: &Connection) -> Result<u64, StoreError> {
    let pages: i64 = c.pragma_query_value(None, "freelist_count", |r| r.get(0))?;
    let size: i64 = c.pragma_query_value(None, "page_size", |r| r.get(0))?;
    Ok((pages * size) as u64)
}

/// The finished runs and journeys of the store at `path` that finished at least `older_than`
/// ago, deleted unless `dry_run`. On a failure part-way, the batches already committed stay
/// deleted (each is whole); the error says why the rest were not.
pub fn prune(path: &Path, older_than: Duration, dry_run: bool) -> Result<Pruned, StoreError> {
    let conn = open(path)?;
    let cutoff = now().saturating_sub(i64::try_from(older_than.as_secs()).unwrap_or(i64::MAX));
    let runs = candidates(
        &conn,
        "SELECT r.id, datetime(coalesce(r.finished_at, r.created_at), 'unixepoch'), \
         coalesce(json_extract(s.home, '$.id'), '?') || ' ' || r.score_home || '–' || r.score_away || ' ' || \
         coalesce(json_extract(s.away, '$.id'), '?') \
         FROM runs r LEFT JOIN run_squads s ON s.run_id = r.id \
         WHERE r.finished AND coalesce(r.finished_at, r.created_at) <= ?1 ORDER BY 2, 1",
        cutoff,
    )?;
    let journeys = candidates(
        &conn,
        "SELECT id, datetime(coalesce(finished_at, created_at), 'unixepoch'), journey FROM effect_runs \
         WHERE finished AND coalesce(finished_at, created_at) <= ?1 ORDER BY 2, 1",
        cutoff,
    )?;
    let mut out = Pruned { runs, journeys, freed_bytes: 0 };
    if dry_run {
        return Ok(out);
    }
    let free_before = freelist_bytes(&conn)?;
    let ids: Vec<(bool, String)> = out
        .runs
        .iter()
        .map(|r| (true, r.id.clone()))
        .chain(out.journeys.iter().map(|j| (false, j.id.clone())))
        .collect();
    for batch in ids.chunks(BATCH) {
        // Immediate: the write lock is taken (or waited for) before anything is read, so a
        // server's commit in between cannot make the transaction's snapshot stale.
        let tx = rusqlite::Transaction::new_unchecked(&conn, rusqlite::TransactionBehavior::Immediate)?;
        for (is_run, id) in batch {
            if *is_run {
                super::delete_run_rows(&tx, id)?;
            } else {
                super::delete_journey_rows(&tx, id)?;
            }
        }
        tx.commit()?;
    }
    // Into the database file now rather than at the server's next checkpoint (or next start).
    let _ = conn.query_row("PRAGMA wal_checkpoint(PASSIVE)", [], |_| Ok(()));
    out.freed_bytes = freelist_bytes(&conn)?.saturating_sub(free_before);
    Ok(out)
}

fn candidates(c: &Connection, sql: &str, cutoff: i64) -> Result<Vec<PrunedRun>, StoreError> {
    let mut st = c.prepare(sql)?;
    let rows = st.query_map([cutoff], |r| Ok(PrunedRun { id: r.get(0)?, finished: r.get(1)?, what: r.get(2)? }))?;
    Ok(rows.collect::<Result<Vec<_>, _>>()?)
}
