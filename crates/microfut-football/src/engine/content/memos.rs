//! What the engine may keep instead of re-evaluating: a pipeline that reads only a few of the
//! values a match changes repeats its results, keyed by those values.

use super::{MEMO_KEY, Pipes, RANGE_KEY, Slots};
use microfut_core::ruleset::{Ruleset, VarKind};

/// The context values stamina recovery reads (at most [`MEMO_KEY`]), when that is all it reads
/// besides a player's sheet: its result can then be kept per player and context.
pub(super) fn recovery(rs: &Ruleset, pipes: &Pipes, slots: &Slots) -> Option<Vec<usize>> {
    let written = slots.written();
    let key: Vec<usize> = rs.pipelines[pipes.stamina_recovery]
        .inputs
        .iter()
        .copied()
        .filter(|&v| rs.vars[v].kind == VarKind::Context || written.contains(&v))
        .collect();
    (key.len() <= MEMO_KEY).then_some(key)
}

/// Movement range: the same memo, keyed by a table bin where only range tables read a value
/// (stamina through its fatigue table changes every round, its bin seldom).
pub(super) fn range(rs: &Ruleset, pipes: &Pipes, slots: &Slots) -> Option<Vec<(usize, Option<Vec<f64>>)>> {
    let written = slots.written();
    let key: Vec<(usize, Option<Vec<f64>>)> = rs.pipelines[pipes.movement_range]
        .inputs
        .iter()
        .copied()
        .filter(|&v| rs.vars[v].kind == VarKind::Context || written.contains(&v))
        .map(|v| (v, rs.table_bounds[v].clone()))
        .collect();
    (key.len() <= RANGE_KEY).then_some(key)
}
