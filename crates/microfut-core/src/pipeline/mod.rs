//! Resolution: evaluating a compiled pipeline into a value, a difficulty, an exact probability
//! and, when asked, every contribution to the value.
//!
//! `resolve` is the hot path: no allocation, no string, locals on the stack. `resolve_traced`
//! does the same work and also records one entry per stage into a caller-owned buffer;
//! `explain` turns those entries into labelled, sourced rows for people and JSON.

mod explain;

pub use explain::{ContributionView, Explanation, InputView};

use crate::dice::{Dice, Difficulty, Probability};
use crate::expr::{Frame, round};
use crate::ruleset::{Inputs, MAX_LOCALS, Op, Pipeline};

/// The outcome of evaluating a pipeline (no dice involved).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Resolution {
    /// After the clamp.
    pub value: f64,
    /// Before the clamp: base with every modifier applied.
    pub raw: f64,
    /// `None` for derived values. With fractional values (0.6) the lower of the two whole
    /// difficulties the test is rolled against (see `fraction`).
    pub difficulty: Option<i32>,
    /// The share of rolls made against `difficulty + 1` (0 for whole values: every revision
    /// before 0.6).
    pub fraction: f64,
    /// The exact odds at `difficulty` (at the lower difficulty when `fraction` > 0; `chance`
    /// mixes both).
    pub probability: Option<Probability>,
    /// The exact odds at `difficulty + 1`, when `fraction` > 0.
    pub probability_above: Option<Probability>,
    /// False when a `requires` clause fails (e.g. the target is out of range).
    pub possible: bool,
    /// The first failed requirement, by index.
    pub blocked_by: Option<usize>,
    /// The first part whose amount (or the running value after it) was NaN or infinite: the
    /// content cannot be evaluated at these inputs, and nothing of this resolution may be used
    /// (`validate` refuses expressions that can do this over their inputs' domains).
    pub nonfinite: Option<Part>,
}

impl Resolution {
    /// Success probability as a float, 0 when impossible or not an action.
    pub fn chance(&self) -> f64 {
        match (self.possible, self.probability) {
            (true, Some(p)) if self.fraction == 0.0 => p.as_f64(),
            (true, Some(p)) => {
                let hi = self.probability_above.map_or(0.0, |q| q.as_f64());
                (1.0 - self.fraction) * p.as_f64() + self.fraction * hi
            }
            _ => 0.0,
        }
    }

    /// The difficulty as the engine's estimates read it (whole part and fraction).
    pub fn diff(&self) -> Option<Difficulty> {
        self.difficulty.map(|d| Difficulty { d, f: self.fraction })
    }

    /// Rolls the dice against the difficulty (with a fraction, first which of the two).
    pub fn roll(&self, dice: &mut Dice, pipeline: &Pipeline) -> Roll {
        let total = dice.roll(pipeline.odds.spec());
        if self.fraction > 0.0 && dice.unit() < self.fraction {
            return self.against(total, self.difficulty.unwrap_or(0) + 1);
        }
        self.with_total(total)
    }

    /// The margin a given dice total gives (for `--roll N` and tests); with a fraction, against
    /// the lower difficulty.
    pub fn with_total(&self, total: u32) -> Roll {
        self.against(total, self.difficulty.unwrap_or(0))
    }

    fn against(&self, total: u32, difficulty: i32) -> Roll {
        let margin = total as i32 - difficulty;
        Roll { total, margin, success: self.possible && margin >= 0 }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Roll {
    pub total: u32,
    pub margin: i32,
    pub success: bool,
}

/// Which part of a pipeline an entry comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Part {
    Let(u16),
    Require(u16),
    Base,
    Modifier(u16),
    Clamp,
    /// The resolution's difficulty expression.
    Difficulty,
}

/// One recorded step: `amount` is the stage's own result; `after` the running value after it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Entry {
    pub part: Part,
    pub amount: f64,
    /// For table stages, the table's input.
    pub input: Option<f64>,
    pub after: f64,
}

/// Defined with the ruleset, whose inputs' preparation reports it too, so that the ruleset
/// needs nothing from the pipeline that evaluates it.
pub use crate::ruleset::NonFinite;

impl Pipeline {
    /// `file#pointer` of the expression a part evaluates: a stage's `expr`, or a table stage's
    /// `input`; the difficulty's; the clamp's.
    pub fn part_source(&self, part: Part) -> String {
        let stage =
            |s: &crate::ruleset::Stage| format!("{}/{}", s.source, if s.table.is_some() { "input" } else { "expr" });
        match part {
            Part::Let(i) => stage(&self.lets[i as usize]),
            Part::Base => stage(&self.base),
            Part::Modifier(i) => stage(&self.modifiers[i as usize]),
            Part::Require(i) => format!("{}/expr", self.requires[i as usize].source),
            Part::Clamp => format!("{}/clamp", self.source),
            Part::Difficulty => self.difficulty_source.clone(),
        }
    }

    /// The fault of a resolution of this pipeline, if it met a non-finite value.
    pub fn fault(&self, r: &Resolution) -> Option<NonFinite> {
        let part = r.nonfinite?;
        let name = match part {
            Part::Let(i) => format!("stage '{}'", self.lets[i as usize].id),
            Part::Base => "stage 'base'".to_string(),
            Part::Modifier(i) => format!("stage '{}'", self.modifiers[i as usize].id),
            Part::Require(i) => format!("requirement '{}'", self.requires[i as usize].id),
            Part::Clamp => "the clamp".to_string(),
            Part::Difficulty => "the difficulty".to_string(),
        };
        Some(NonFinite { pipeline: self.id.clone(), part: name, source_at: self.part_source(part) })
    }

    /// Evaluates without recording anything. Allocation-free.
    #[inline]
    pub fn resolve(&self, inputs: &Inputs) -> Resolution {
        self.run::<false, false>(inputs, &mut Vec::new(), &mut [0.0; MAX_LOCALS], usize::MAX)
    }

    /// Evaluates and records one entry per stage into `trace` (cleared first).
    pub fn resolve_traced(&self, inputs: &Inputs, trace: &mut Vec<Entry>) -> Resolution {
        trace.clear();
        self.run::<true, false>(inputs, trace, &mut [0.0; MAX_LOCALS], usize::MAX)
    }

    /// Resolves once per value of the input `slot`, the other inputs as given, and hands each
    /// resolution to `each` with the value's index; `slot` is left at the last value. Each
    /// result is `resolve`'s for that value, bit for bit — the same stages add up in the same
    /// order — but stages that do not depend on `slot` are evaluated only for the first value.
    /// (The NPC weighs a pass at every quality its margin may give the interceptors and the
    /// receiver: one slot, a handful of values, a long pipeline.)
    pub fn resolve_each(
        &self,
        inputs: &mut Inputs,
        slot: usize,
        values: &[f64],
        mut each: impl FnMut(usize, Resolution),
    ) {
        let mut locals = [0.0f64; MAX_LOCALS];
        for (k, &v) in values.iter().enumerate() {
            inputs.set(slot, v);
            let r = if k == 0 {
                self.run::<false, false>(inputs, &mut Vec::new(), &mut locals, slot)
            } else {
                self.run::<false, true>(inputs, &mut Vec::new(), &mut locals, slot)
            };
            each(k, r);
        }
    }

    /// With `REUSE`, `locals` already holds the amounts of a run on the same inputs except
    /// `slot`, and stages that do not depend on `slot` keep them.
    #[inline(always)]
    fn run<const TRACE: bool, const REUSE: bool>(
        &self,
        inputs: &Inputs,
        trace: &mut Vec<Entry>,
        locals: &mut [f64; MAX_LOCALS],
        slot: usize,
    ) -> Resolution {
        let keeps = |s: &crate::ruleset::Stage| REUSE && s.depends_on.binary_search(&slot).is_err();
        let iv = inputs.values.as_slice();
        // Stages kept from a first run were checked by it.
        let mut nonfinite = None;
        let mut check = |x: f64, part: Part| {
            if !x.is_finite() && nonfinite.is_none() {
                nonfinite = Some(part);
            }
        };
        for (i, s) in self.lets.iter().enumerate() {
            if keeps(s) {
                continue;
            }
            let v = s.expr.eval(&Frame { inputs: iv, locals });
            check(v, Part::Let(i as u16));
            locals[s.local] = v;
            if TRACE {
                trace.push(Entry { part: Part::Let(i as u16), amount: v, input: None, after: v });
            }
        }
        let mut possible = true;
        let mut blocked_by = None;
        for (i, r) in self.requires.iter().enumerate() {
            let ok = r.cond.holds(&Frame { inputs: iv, locals });
            if !ok && possible {
                possible = false;
                blocked_by = Some(i);
            }
            if TRACE {
                trace.push(Entry {
                    part: Part::Require(i as u16),
                    amount: if ok { 1.0 } else { 0.0 },
                    input: None,
                    after: 0.0,
                });
            }
        }
        let base = if keeps(&self.base) {
            locals[self.base.local]
        } else {
            let b = self.base.expr.eval(&Frame { inputs: iv, locals });
            check(b, Part::Base);
            locals[self.base.local] = b;
            b
        };
        let mut v = base;
        if TRACE {
            let input = self.base.probe.as_ref().map(|p| p.eval(&Frame { inputs: iv, locals }));
            trace.push(Entry { part: Part::Base, amount: base, input, after: v });
        }
        for (i, m) in self.modifiers.iter().enumerate() {
            if let Some(r) = self.running_local {
                locals[r] = v;
            }
            let a = if keeps(m) {
                locals[m.local]
            } else {
                let a = m.expr.eval(&Frame { inputs: iv, locals });
                locals[m.local] = a;
                a
            };
            v = match m.op {
                Op::Add => v + a,
                Op::Mul => v * a,
                Op::Set => a,
            };
            // The amount, or the running value it leaves (a product can overflow).
            check(a + v, Part::Modifier(i as u16));
            if TRACE {
                let input = m.probe.as_ref().map(|p| p.eval(&Frame { inputs: iv, locals }));
                trace.push(Entry { part: Part::Modifier(i as u16), amount: a, input, after: v });
            }
        }
        let raw = v;
        let value = match self.clamp {
            Some((lo, hi)) => v.clamp(lo, hi),
            None => v,
        };
        if TRACE && value != raw {
            trace.push(Entry { part: Part::Clamp, amount: value - raw, input: None, after: value });
        }
        locals[self.value_local] = value;
        let (mut difficulty, mut fraction, mut probability_above) = (None, 0.0, None);
        if let Some(d) = self.difficulty.as_ref() {
            let x = d.eval(&Frame { inputs: iv, locals });
            check(x, Part::Difficulty);
            if self.fractional {
                // A hair from a whole number is that number (as `round` treats decimals).
                let near = x.round();
                let x = if (x - near).abs() < 1e-9 { near } else { x };
                let whole = x.floor();
                difficulty = Some(whole as i32);
                fraction = x - whole;
                if fraction > 0.0 {
                    probability_above = Some(self.odds.success((whole as i32).saturating_add(1)));
                }
            } else {
                difficulty = Some(round(x) as i32);
            }
        }
        let probability = difficulty.map(|d| self.odds.success(d));
        Resolution { value, raw, difficulty, fraction, probability, probability_above, possible, blocked_by, nonfinite }
    }
}
