//! Where an advance's time goes, measured by the load benchmark only (`benches/serve_load.rs`).
//!
//! Problem: the p99 of an advance under load is the sum of several waits — the run's lock, the
//! blocking pool's queue, the round, serialising its rows, the writer's queue, the group commit,
//! the wake-up of the awaiting handler — and a profile shows CPU, not waits.
//!
//! Decision: plain timestamps (no tracing dependency), recorded only while `enable` has been
//! called; otherwise each stamp point costs one relaxed atomic load. The advance handler stamps
//! its phases into an `AdvanceTimes`; the writer stamps, per group, when it started writing and
//! when its `COMMIT` returned, and passes both back with the answer.
//!
//! Limits: process-wide (one server per process, as in the benchmark); samples are kept in
//! memory until `take`, so it is not for a long-running server.

use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

static ENABLED: AtomicBool = AtomicBool::new(false);
static ADVANCES: Mutex<Vec<AdvanceTimes>> = Mutex::new(Vec::new());
static GROUPS: Mutex<Vec<GroupTimes>> = Mutex::new(Vec::new());

/// Starts recording (the benchmark calls it; nothing else does).
pub fn enable() {
    ENABLED.store(true, Ordering::Relaxed);
}

pub fn enabled() -> bool {
    ENABLED.load(Ordering::Relaxed)
}

/// When each phase of one advance ended, server side.
#[derive(Debug, Clone, Copy)]
pub struct AdvanceTimes {
    /// The handler was called (the request parsed).
    pub entered: Instant,
    /// The run's lock was taken.
    pub locked: Instant,
    /// A blocking-pool thread began playing.
    pub on_pool: Instant,
    /// The round was played.
    pub played: Instant,
    /// Its rows were serialised and queued for the writer.
    pub queued: Instant,
    /// The reply was built and the blocking-pool thread let go.
    pub pool_done: Instant,
    /// The writer began the group holding it.
    pub group_began: Instant,
    /// The group's `COMMIT` returned.
    pub committed: Instant,
    /// The handler was woken with the answer.
    pub answered: Instant,
    /// Rows written in that group.
    pub group_size: usize,
}

impl AdvanceTimes {
    pub fn new() -> AdvanceTimes {
        let t = Instant::now();
        AdvanceTimes {
            entered: t,
            locked: t,
            on_pool: t,
            played: t,
            queued: t,
            pool_done: t,
            group_began: t,
            committed: t,
            answered: t,
            group_size: 0,
        }
    }
}

impl Default for AdvanceTimes {
    fn default() -> Self {
        AdvanceTimes::new()
    }
}

/// One group commit: its size, the time its jobs took and the time its `COMMIT` took.
#[derive(Debug, Clone, Copy)]
pub struct GroupTimes {
    pub size: usize,
    pub began: Instant,
    pub written: Instant,
    pub committed: Instant,
}

/// What the writer passes back with an answer.
#[derive(Debug, Clone, Copy)]
pub struct CommitStamp {
    pub group_began: Instant,
    pub committed: Instant,
    pub group_size: usize,
}

pub fn record_advance(t: AdvanceTimes) {
    if enabled() {
        ADVANCES.lock().unwrap_or_else(|p| p.into_inner()).push(t);
    }
}

pub fn record_group(g: GroupTimes) {
    if enabled() {
        GROUPS.lock().unwrap_or_else(|p| p.into_inner()).push(g);
    }
}

/// Takes every sample recorded so far.
pub fn take() -> (Vec<AdvanceTimes>, Vec<GroupTimes>) {
    let a = std::mem::take(&mut *ADVANCES.lock().unwrap_or_else(|p| p.into_inner()));
    let g = std::mem::take(&mut *GROUPS.lock().unwrap_or_else(|p| p.into_inner()));
    (a, g)
}
