//! The NPC's planning state: how it weighs candidates, the values it swaps into the players'
//! inputs while it plans, and what it scored the last decision with, for the decision log.
//!
//! Invariants: the planner never draws a die and never changes how a match goes on. Values it
//! swaps in (`planned_own` under `npc.plan_context`, `expected_own` while pricing a strike
//! against what it expects) are put back before the round goes on; `adapted` and
//! `possession_value` are read only by the decision log; weighing every candidate changes no
//! choice, only which candidates the log marks pruned (`tests/football/npc_pruning.rs`).

use super::npc::Axes;

/// (player, slot, own value): an input replaced while the NPC plans, to be put back.
pub(super) type Own = Vec<(usize, usize, f64)>;

#[derive(Default)]
pub(super) struct Planner {
    /// The NPC weighs every candidate exactly, bounds or not (off by default; tests compare).
    pub(super) weigh_every_candidate: bool,
    /// Inputs replaced while the NPC prices a strike against what it expects.
    pub(super) expected_own: Own,
    /// Inputs replaced while the NPC weighs its candidates under `npc.plan_context`.
    pub(super) planned_own: Own,
    /// The match-state adaptation last scored with: (round, carrier, shift).
    pub(super) adapted: Option<(u32, usize, Axes)>,
    /// The value of possession of the last decision scored: (round, carrier, value).
    pub(super) possession_value: Option<(u32, usize, f64)>,
}

impl Planner {
    /// The adaptation scored this round for this carrier, if it was.
    pub(super) fn adapted_for(&self, round: u32, carrier: usize) -> Option<Axes> {
        self.adapted.filter(|&(r, p, _)| r == round && p == carrier).map(|(_, _, shift)| shift)
    }

    /// The value of possession scored this round for this carrier, if it was.
    pub(super) fn possession_value_for(&self, round: u32, carrier: usize) -> Option<f64> {
        self.possession_value.filter(|&(r, p, _)| r == round && p == carrier).map(|(_, _, v)| v)
    }
}
