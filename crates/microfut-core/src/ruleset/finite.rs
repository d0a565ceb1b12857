//! Expressions that can give NaN or infinity are refused before anything plays them.
//!
//! The problem: `x / 0`, `10 ^ 400` or `sqrt(-dx)` parse and compile, and a pipeline built on
//! them answers NaN — which rounds to a difficulty of 0, a 100 % success, or a player nobody can
//! move. The decision: when a revision compiles, every pipeline is evaluated over its inputs'
//! declared domains and any part that gives a non-finite value there (a `let`, the base, a
//! modifier's amount or the running value it leaves, a table's input, the difficulty) is refused
//! at its JSON pointer, with inputs that show it. At run time the same parts are checked on
//! every evaluation (`Resolution::nonfinite`): an error names the pipeline and stage, never a
//! silent number.
//!
//! Domains: a variable's vocabulary scale; an unbounded end stands for "any size" and is sampled
//! up to ±10⁶ (`UNBOUNDED`). A variable of kind `derived` that a derived pipeline computes
//! takes that pipeline's values instead (range = 8 + 2.4·power never reaches 0, although its
//! scale starts there), found the same way, in dependency order.
//!
//! Points: the centre; each input swept over its domain (every whole value of a small integer
//! scale, such as 3–18) with the others at the centre; the corners (all of them up to 8 inputs,
//! 128 drawn from a fixed stream beyond); and 32 points drawn inside — a few hundred evaluations
//! per pipeline, a few milliseconds per revision. Limits: sampling, not proof — a
//! singularity strictly inside a continuous domain (`1 / (distance − 7.3)`) can escape it; the
//! run-time check catches what sampling misses. Conditions (`requires`, the tests inside `if`)
//! are not numbers and are not checked.

use super::{Inputs, Pipeline, Ruleset, VarKind};
use crate::catalog::Diagnostic;
use crate::dice::Dice;
use std::collections::BTreeSet;

/// What an unbounded end of a scale is sampled up to.
const UNBOUNDED: f64 = 1e6;
/// All corners up to this many inputs; beyond, `DRAWN_CORNERS` of them.
const ALL_CORNERS: usize = 8;
const DRAWN_CORNERS: usize = 128;
const INSIDE: usize = 32;
/// Points of a continuous (or large integer) domain in a sweep.
const SWEEP: usize = 9;
/// Integer domains this small are swept value by value.
const SMALL_INTEGER: f64 = 32.0;

#[derive(Debug, Clone, Copy)]
struct Domain {
    lo: f64,
    hi: f64,
    integer: bool,
}

impl Domain {
    fn at(&self, t: f64) -> f64 {
        let x = self.lo + (self.hi - self.lo) * t;
        if self.integer { x.round().clamp(self.lo.ceil(), self.hi.floor()) } else { x }
    }
}

pub(super) fn check(rs: &Ruleset) -> Vec<Diagnostic> {
    let mut domains: Vec<Domain> = rs
        .vars
        .iter()
        .map(|v| {
            let (lo, hi) = match (v.min.is_finite(), v.max.is_finite()) {
                (true, true) => (v.min, v.max),
                (true, false) => (v.min, v.min + UNBOUNDED),
                (false, true) => (v.max - UNBOUNDED, v.max),
                (false, false) => (-UNBOUNDED, UNBOUNDED),
            };
            Domain { lo, hi, integer: v.integer && lo.ceil() <= hi.floor() }
        })
        .collect();
    let mut out = Vec::new();
    let mut reported = BTreeSet::new();
    let mut inputs = rs.inputs();
    // Derived values first, so what reads them samples the values they can take.
    for &p in &rs.derived_order {
        let pl = &rs.pipelines[p];
        let (lo, hi) = sweep(rs, pl, &domains, &mut inputs, &mut reported, &mut out);
        if let Some(o) = pl.output
            && rs.vars[o].kind == VarKind::Derived
            && lo <= hi
        {
            domains[o] = Domain { lo, hi, integer: domains[o].integer && lo.ceil() <= hi.floor() };
        }
    }
    for (i, pl) in rs.pipelines.iter().enumerate() {
        if !rs.derived_order.contains(&i) {
            sweep(rs, pl, &domains, &mut inputs, &mut reported, &mut out);
        }
    }
    out
}

/// Evaluates one pipeline at every sample point; reports each faulty part once. Returns the
/// range of the finite values it gave.
fn sweep(
    rs: &Ruleset,
    pl: &Pipeline,
    domains: &[Domain],
    inputs: &mut Inputs,
    reported: &mut BTreeSet<String>,
    out: &mut Vec<Diagnostic>,
) -> (f64, f64) {
    let slots = &pl.inputs;
    let k = slots.len();
    let centre: Vec<f64> = slots.iter().map(|&s| domains[s].at(0.5)).collect();
    let mut points: Vec<Vec<f64>> = vec![centre.clone()];
    for (j, &s) in slots.iter().enumerate() {
        let d = domains[s];
        let values: Vec<f64> = if d.integer && d.hi - d.lo <= SMALL_INTEGER {
            (d.lo.ceil() as i64..=d.hi.floor() as i64).map(|x| x as f64).collect()
        } else {
            let mut v: Vec<f64> = (0..SWEEP).map(|i| d.at(i as f64 / (SWEEP - 1) as f64)).collect();
            if d.lo < 0.0 && d.hi > 0.0 {
                v.push(0.0);
            }
            v
        };
        for x in values {
            let mut p = centre.clone();
            p[j] = x;
            points.push(p);
        }
    }
    let mut dice = Dice::derived(0, format!("ruleset/finite/{}", pl.id).as_bytes());
    let corner = |mask: u64| -> Vec<f64> {
        slots.iter().enumerate().map(|(j, &s)| domains[s].at(if mask >> j & 1 == 1 { 1.0 } else { 0.0 })).collect()
    };
    if k <= ALL_CORNERS {
        points.extend((0..1u64 << k).map(corner));
    } else {
        for _ in 0..DRAWN_CORNERS {
            let mask = slots.iter().enumerate().fold(0u64, |m, (j, _)| m | u64::from(dice.unit() < 0.5) << j.min(63));
            points.push(corner(mask));
        }
    }
    for _ in 0..INSIDE {
        points.push(slots.iter().map(|&s| domains[s].at(dice.unit())).collect());
    }

    let (mut lo, mut hi) = (f64::INFINITY, f64::NEG_INFINITY);
    for p in &points {
        for (j, &s) in slots.iter().enumerate() {
            inputs.set(s, p[j]);
        }
        let r = pl.resolve(inputs);
        match pl.fault(&r) {
            None => {
                lo = lo.min(r.value);
                hi = hi.max(r.value);
            }
            Some(f) => {
                if reported.insert(f.source_at.clone()) {
                    let shown: Vec<String> =
                        slots.iter().enumerate().map(|(j, &s)| format!("{} = {}", rs.vars[s].id, p[j])).collect();
                    let (file, pointer) = super::split_source(&f.source_at);
                    // A shared modifier or the difficulty: say which pipeline showed it.
                    let context = if f.source_at.starts_with(&format!("{}/", pl.source)) {
                        String::new()
                    } else {
                        format!("(in pipeline '{}') ", pl.id)
                    };
                    // A formula with a declared result gives NaN outside it: say which.
                    let bounded: Vec<String> = rs
                        .formulas_at(&f.source_at)
                        .iter()
                        .filter(|x| x.result.is_some())
                        .map(|x| x.describe())
                        .collect();
                    let formulas =
                        if bounded.is_empty() { String::new() } else { format!("; it calls {}", bounded.join("; ")) };
                    out.push(Diagnostic::new(
                        file,
                        pointer,
                        format!(
                            "{context}{} can be NaN or infinite over its inputs' declared scales, e.g. at {}{formulas}",
                            f.part,
                            if shown.is_empty() { "any inputs".to_string() } else { shown.join(", ") }
                        ),
                    ));
                }
            }
        }
    }
    (lo, hi)
}

/// A resolution that met a NaN or an infinity: which pipeline, which part, where it is written.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[error(
    "pipeline '{pipeline}', {part}, gave a value that is not a finite number ({source_at}); run `microfut validate`"
)]
pub struct NonFinite {
    pub pipeline: String,
    /// `stage 'mod_pass_distance'`, `the difficulty`.
    pub part: String,
    /// `file#pointer` of the expression.
    pub source_at: String,
}
