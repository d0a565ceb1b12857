//! What a match writes down as it plays: its events, the state hash after each round, the
//! decision log, the intents a person declared, the round's rolls and the first fault.
//!
//! Invariant: play only appends to the chronicle and never reads it to decide anything — no
//! roll, choice, movement or hash depends on what is here — with one exception, `fault`: a
//! match that met a non-finite value stops after that round (`Step::Faulted`). Front ends,
//! run records and the store read the chronicle; a replay compares its hashes.

use super::RecordedIntent;
use super::events::Event;
use super::log::DecisionLog;
use super::projection::RollRecord;
use microfut_core::pipeline::Part;
use std::cell::Cell;
use std::sync::Arc;

/// The first evaluation that met a non-finite value: (pipeline, part, round).
pub(super) type Fault = Option<(usize, Part, u32)>;

pub(super) struct Chronicle {
    /// Every event, in the order written (`events::in_order_of_play` orders them for reading).
    pub(super) events: Vec<Event>,
    /// The state hash after each round.
    pub(super) hashes: Vec<u64>,
    pub(super) log: DecisionLog,
    pub(super) intents: Vec<RecordedIntent>,
    /// The tests rolled since the current round began (front ends show the dice; see
    /// `projection`).
    pub(super) rolls: Vec<RollRecord>,
    /// Each player's (club id, player id) as the decision log writes them (a substitute's
    /// replaces the man he relieves).
    pub(super) log_ids: Vec<(Arc<str>, Arc<str>)>,
    /// The first non-finite evaluation. Estimates take `&Match`, hence the cell.
    pub(super) fault: Cell<Fault>,
}

impl Chronicle {
    pub(super) fn new(retention: usize, log_ids: Vec<(Arc<str>, Arc<str>)>) -> Chronicle {
        Chronicle {
            events: Vec::with_capacity(4096),
            hashes: Vec::with_capacity(3000),
            log: DecisionLog::new(retention),
            intents: Vec::new(),
            rolls: Vec::with_capacity(16),
            log_ids,
            fault: Cell::new(None),
        }
    }

    /// Notes `pipe`'s non-finite `part` in `round`, unless an earlier fault was noted.
    pub(super) fn note_fault(&self, pipe: usize, part: Part, round: u32) {
        if self.fault.get().is_none() {
            self.fault.set(Some((pipe, part, round)));
        }
    }
}
