//! Every open connection, the phase it is in, and the reaper that closes those that wait on
//! their client too long.

use super::Limits;
use std::collections::BTreeMap;
use std::sync::atomic::{AtomicU8, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use tokio::sync::Notify;

/// Where a connection is in its request cycle.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Phase {
    /// Opened, or some bytes of a request arrived: waiting for the rest of its head.
    Head = 0,
    /// Between requests: the last answer was handed over, nothing of the next has arrived.
    Idle = 1,
    /// The head was read; the body is still arriving.
    Body = 2,
    /// The request is with the server (its handler, then its answer).
    Handling = 3,
}

impl Phase {
    fn of(v: u8) -> Phase {
        match v {
            0 => Phase::Head,
            1 => Phase::Idle,
            2 => Phase::Body,
            _ => Phase::Handling,
        }
    }
}

/// Why the server closes a connection.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Why {
    /// Its head or body took longer than the timeout.
    Timeout = 1,
    /// Kept alive with nothing sent for longer than the idle timeout.
    Idle = 2,
    /// A write made no progress for the write timeout.
    Stalled = 3,
    /// The server needed its slot for a new connection.
    Pressure = 4,
}

impl Why {
    fn of(v: u8) -> Option<Why> {
        Some(match v {
            1 => Why::Timeout,
            2 => Why::Idle,
            3 => Why::Stalled,
            4 => Why::Pressure,
            _ => return None,
        })
    }
}

/// One connection's clock, shared by its socket, its service and the registry. Times are
/// milliseconds since the registry's epoch.
pub(super) struct ConnState {
    epoch: Instant,
    phase: AtomicU8,
    since: AtomicU64,
    /// When a write began to wait (plus one; 0: no write is waiting), and the bytes written since.
    stalled: AtomicU64,
    progress: AtomicUsize,
    why: AtomicU8,
    close: Notify,
}

impl ConnState {
    fn new(epoch: Instant) -> ConnState {
        let s = ConnState {
            epoch,
            phase: AtomicU8::new(Phase::Head as u8),
            since: AtomicU64::new(0),
            stalled: AtomicU64::new(0),
            progress: AtomicUsize::new(0),
            why: AtomicU8::new(0),
            close: Notify::new(),
        };
        s.since.store(s.now(), Ordering::Relaxed);
        s
    }

    fn now(&self) -> u64 {
        self.epoch.elapsed().as_millis() as u64
    }

    pub(super) fn phase(&self) -> Phase {
        Phase::of(self.phase.load(Ordering::Acquire))
    }

    pub(super) fn enter(&self, p: Phase) {
        self.since.store(self.now(), Ordering::Relaxed);
        self.phase.store(p as u8, Ordering::Release);
    }

    /// Moves to `to` only from `from` (a late event of an earlier phase changes nothing).
    pub(super) fn leave(&self, from: Phase, to: Phase) {
        if self.phase() == from {
            self.enter(to);
        }
    }

    /// A write could not go out: the stall clock starts unless it is already running.
    pub(super) fn write_waits(&self) {
        if self.stalled.load(Ordering::Relaxed) == 0 {
            self.progress.store(0, Ordering::Relaxed);
            self.stalled.store(self.now() + 1, Ordering::Relaxed);
        }
    }

    /// Bytes went out: enough of them stop the stall clock.
    pub(super) fn wrote(&self, n: usize) {
        if self.stalled.load(Ordering::Relaxed) != 0
            && self.progress.fetch_add(n, Ordering::Relaxed) + n >= super::STALL_PROGRESS
        {
            self.stalled.store(0, Ordering::Relaxed);
        }
    }

    /// Everything the server had to write went out.
    pub(super) fn flushed(&self) {
        self.stalled.store(0, Ordering::Relaxed);
    }

    pub(super) fn why(&self) -> Option<Why> {
        Why::of(self.why.load(Ordering::Acquire))
    }

    /// Asks the connection's task to close it; the first reason given is kept.
    fn shut(&self, why: Why) -> bool {
        let first = self.why.compare_exchange(0, why as u8, Ordering::AcqRel, Ordering::Acquire).is_ok();
        if first {
            self.close.notify_one();
        }
        first
    }

    /// Completes once the connection is to be closed.
    pub(super) async fn closed(&self) {
        self.close.notified().await;
    }

    /// Since when this connection has been waiting on its client, if it is.
    fn waiting_since(&self) -> Option<u64> {
        let phase = match self.phase() {
            Phase::Head | Phase::Idle | Phase::Body => Some(self.since.load(Ordering::Relaxed)),
            Phase::Handling => None,
        };
        let write = self.stalled.load(Ordering::Relaxed).checked_sub(1);
        match (phase, write) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        }
    }

    /// The reason to close it now, if one of its timeouts has run out.
    fn overdue(&self, now: u64, limits: &Limits) -> Option<Why> {
        let since = self.since.load(Ordering::Relaxed);
        let over = |d: Duration| now.saturating_sub(since) >= d.as_millis() as u64;
        if let Some(t) = self.stalled.load(Ordering::Relaxed).checked_sub(1)
            && now.saturating_sub(t) >= limits.write_timeout.as_millis() as u64
        {
            return Some(Why::Stalled);
        }
        match self.phase() {
            Phase::Head if over(limits.header_timeout) => Some(Why::Timeout),
            Phase::Idle if over(limits.idle_timeout) => Some(Why::Idle),
            // The body answers 408 itself when it runs out of time; this is for a handler that
            // stopped reading it.
            Phase::Body if over(limits.body_timeout + Duration::from_secs(2)) => Some(Why::Timeout),
            _ => None,
        }
    }
}

/// The open connections.
pub(super) struct Registry {
    epoch: Instant,
    limits: Limits,
    conns: Mutex<BTreeMap<u64, Arc<ConnState>>>,
    next: AtomicU64,
    /// Connections closed since memory was last given back, and the most open since then.
    closed: AtomicUsize,
    peak: AtomicUsize,
}

impl Registry {
    pub(super) fn new(limits: Limits) -> Registry {
        Registry {
            epoch: Instant::now(),
            limits,
            conns: Mutex::new(BTreeMap::new()),
            next: AtomicU64::new(0),
            closed: AtomicUsize::new(0),
            peak: AtomicUsize::new(0),
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, BTreeMap<u64, Arc<ConnState>>> {
        self.conns.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    pub(super) fn open(&self) -> (u64, Arc<ConnState>) {
        let id = self.next.fetch_add(1, Ordering::Relaxed);
        let state = Arc::new(ConnState::new(self.epoch));
        let mut conns = self.lock();
        conns.insert(id, state.clone());
        self.peak.fetch_max(conns.len(), Ordering::Relaxed);
        (id, state)
    }

    pub(super) fn close(&self, id: u64) {
        self.lock().remove(&id);
        self.closed.fetch_add(1, Ordering::Relaxed);
    }

    pub(super) fn len(&self) -> usize {
        self.lock().len()
    }

    /// Closes the connection that has waited longest on its client (a slow head, an idle
    /// keep-alive, a slow body, a stalled write); one being answered is never chosen.
    pub(super) fn evict_longest_waiting(&self) -> bool {
        let conns = self.lock();
        let oldest = conns
            .values()
            .filter(|c| c.why().is_none())
            .filter_map(|c| c.waiting_since().map(|t| (t, c)))
            .min_by_key(|(t, _)| *t);
        oldest.is_some_and(|(_, c)| c.shut(Why::Pressure))
    }

    fn reap_once(&self) {
        let now = self.epoch.elapsed().as_millis() as u64;
        let open = {
            let conns = self.lock();
            for c in conns.values().filter(|c| c.why().is_none()) {
                if let Some(why) = c.overdue(now, &self.limits) {
                    c.shut(why);
                }
            }
            conns.len()
        };
        // After a flood (most of the connections open at its peak closed), hand the memory
        // they used back to the system.
        let peak = self.peak.load(Ordering::Relaxed);
        if self.closed.load(Ordering::Relaxed) >= 64 && open * 4 <= peak {
            super::trim_memory();
            self.closed.store(0, Ordering::Relaxed);
            self.peak.store(open, Ordering::Relaxed);
        }
    }
}

/// Checks the timeouts a few times per the shortest of them.
pub(super) async fn reap(registry: Arc<Registry>) {
    let l = registry.limits;
    let shortest = l.header_timeout.min(l.idle_timeout).min(l.body_timeout).min(l.write_timeout);
    let tick = (shortest / 8).clamp(Duration::from_millis(25), Duration::from_millis(500));
    let mut every = tokio::time::interval(tick);
    every.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        every.tick().await;
        registry.reap_once();
    }
}
