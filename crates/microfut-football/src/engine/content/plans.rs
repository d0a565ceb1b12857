//! Precomputation: content tables tabulated once per revision over every value the dice can give
//! (margins, pass plans, opposed-test odds), so a match looks them up instead of evaluating them.

use super::*;

/// Content tables read by margin (or difficulty), tabulated over every value the dice can give.
#[derive(Debug, Clone)]
pub struct Margins {
    pub(super) lo: i32,
    pub(super) pass: Vec<(PassOutcome, f64, f64)>,
    pub(super) shot: Vec<ShotOutcome>,
    /// P(a reception keeps the ball) by the control test's difficulty.
    pub(super) control_keep: Vec<f64>,
}

impl Margins {
    pub(super) fn new(
        odds: &microfut_core::dice::Odds,
        pass: &Tagged<PassOutcome>,
        q_int: &RangeTable,
        shot: &Tagged<ShotOutcome>,
        control: &Tagged<ControlOutcome>,
    ) -> Margins {
        let spec = odds.spec();
        let (tmin, tmax) = (spec.min_total() as i32, spec.max_total() as i32);
        // Margins run from (min total − max difficulty) to (max total − min difficulty); cover
        // difficulties well beyond any clamp (values beyond read as the ends).
        let lo = tmin - tmax - 10;
        let hi = tmax - tmin + 10;
        let mut p = Vec::new();
        let mut sh = Vec::new();
        for m in lo..=hi {
            let x = m as f64;
            p.push((pass.of(x), pass.value(x), q_int.value(x)));
            sh.push(shot.of(x));
        }
        let control_keep = (lo..=hi)
            .map(|d| {
                odds.totals()
                    .filter(|(t, _)| control.of((*t as i32 - d) as f64) != ControlOutcome::Loose)
                    .map(|(_, pr)| pr.as_f64())
                    .sum()
            })
            .collect();
        Margins { lo, pass: p, shot: sh, control_keep }
    }

    pub(super) fn at(&self, v: i32) -> usize {
        (v - self.lo).clamp(0, self.pass.len() as i32 - 1) as usize
    }

    /// (outcome, Q_REC, Q_INT) of a pass or cross with this margin.
    pub fn pass(&self, margin: i32) -> (PassOutcome, f64, f64) {
        self.pass[self.at(margin)]
    }

    pub fn shot(&self, margin: i32) -> ShotOutcome {
        self.shot[self.at(margin)]
    }

    /// Chance a reception with this difficulty keeps the ball (clean or a heavy touch).
    pub fn control_keep(&self, difficulty: i32) -> f64 {
        self.control_keep[self.at(difficulty)]
    }

    /// [`Margins::control_keep`] for a difficulty that may be fractional (0.6).
    pub fn control_keep_of(&self, d: microfut_core::dice::Difficulty) -> f64 {
        if d.f == 0.0 {
            self.control_keep(d.d)
        } else {
            (1.0 - d.f) * self.control_keep(d.d) + d.f * self.control_keep(d.d + 1)
        }
    }
}

/// What a pass of one difficulty can do, for the NPC's estimate: the margins that leave the
/// ball within the receiver's reach, with their chances, and the distinct (Q_INT, Q_REC) pairs
/// they give, in order of first appearance (interceptor and receiver difficulties depend on the
/// margin only through these).
#[derive(Debug, Clone, Default)]
pub struct PassPlan {
    pub q_ints: Vec<f64>,
    pub q_recs: Vec<f64>,
    /// (margin, its chance, index of its pair).
    pub reachable: Vec<(i32, f64, usize)>,
}

impl PassPlan {
    pub fn build(difficulty: i32, odds: &microfut_core::dice::Odds, margins: &Margins, params: &Params) -> PassPlan {
        let mut plan = PassPlan::default();
        for (total, p) in odds.totals() {
            let margin = total as i32 - difficulty;
            let (outcome, q_rec, q_int) = margins.pass(margin);
            let within = match outcome {
                PassOutcome::OnTarget => true,
                PassOutcome::Imprecise => {
                    params.pass_imprecise_offset_per_margin * margin.unsigned_abs() as f64
                        <= params.receive_reach_factor * params.loose_ball_reach
                }
                PassOutcome::Misplaced => false,
            };
            if !within {
                continue;
            }
            let entry = match plan.q_ints.iter().zip(&plan.q_recs).position(|(&qi, &qr)| qi == q_int && qr == q_rec) {
                Some(i) => i,
                None => {
                    plan.q_ints.push(q_int);
                    plan.q_recs.push(q_rec);
                    plan.q_ints.len() - 1
                }
            };
            plan.reachable.push((margin, p.as_f64(), entry));
        }
        plan
    }
}

/// The plans of a pass whose difficulty lies between `d` and `d + 1` (0.6): both plans' margins
/// over one list of (Q_INT, Q_REC) pairs, so interceptors and the receiver are weighed once.
#[derive(Debug, Clone, Default)]
pub struct MixedPlan {
    pub q_ints: Vec<f64>,
    pub q_recs: Vec<f64>,
    /// (margin, its chance at `d`, pair) and the same at `d + 1`.
    pub lo: Vec<(i32, f64, usize)>,
    pub hi: Vec<(i32, f64, usize)>,
}

impl MixedPlan {
    pub fn build(d: i32, odds: &microfut_core::dice::Odds, margins: &Margins, params: &Params) -> MixedPlan {
        let (a, b) = (PassPlan::build(d, odds, margins, params), PassPlan::build(d + 1, odds, margins, params));
        let mut m = MixedPlan::default();
        let entry = |qi: f64, qr: f64, m: &mut MixedPlan| match m
            .q_ints
            .iter()
            .zip(&m.q_recs)
            .position(|(&x, &y)| x == qi && y == qr)
        {
            Some(i) => i,
            None => {
                m.q_ints.push(qi);
                m.q_recs.push(qr);
                m.q_ints.len() - 1
            }
        };
        for &(margin, p, e) in &a.reachable {
            let k = entry(a.q_ints[e], a.q_recs[e], &mut m);
            m.lo.push((margin, p, k));
        }
        for &(margin, p, e) in &b.reachable {
            let k = entry(b.q_ints[e], b.q_recs[e], &mut m);
            m.hi.push((margin, p, k));
        }
        m
    }
}

/// [`PassPlan`]s for every difficulty a pass is likely to have, built once per revision.
#[derive(Debug, Clone)]
pub struct PassPlans {
    pub(super) lo: i32,
    pub(super) plans: Vec<PassPlan>,
    /// Built only for revisions with fractional values.
    pub(super) mixed: Vec<MixedPlan>,
}

impl PassPlans {
    pub(super) fn new(
        odds: &microfut_core::dice::Odds,
        margins: &Margins,
        params: &Params,
        fractional: bool,
    ) -> PassPlans {
        let spec = odds.spec();
        // Difficulties well beyond the dice's totals behave like the ends; cover a wide band.
        let lo = spec.min_total() as i32 - 20;
        let hi = spec.max_total() as i32 + 20;
        let mixed = if fractional {
            (lo..=hi).map(|d| MixedPlan::build(d, odds, margins, params)).collect()
        } else {
            Vec::new()
        };
        PassPlans { lo, plans: (lo..=hi).map(|d| PassPlan::build(d, odds, margins, params)).collect(), mixed }
    }

    /// The plan of a pass with this difficulty, when tabulated.
    pub fn get(&self, difficulty: i32) -> Option<&PassPlan> {
        usize::try_from(difficulty - self.lo).ok().and_then(|i| self.plans.get(i))
    }

    /// The mixed plan of a pass between `difficulty` and the next, when tabulated.
    pub fn mixed(&self, difficulty: i32) -> Option<&MixedPlan> {
        usize::try_from(difficulty - self.lo).ok().and_then(|i| self.mixed.get(i))
    }
}

/// Exact probabilities of opposed tests, tabulated by both difficulties (they are small integers).
#[derive(Debug, Clone)]
pub struct DuelOdds {
    pub(super) lo: i32,
    pub(super) n: usize,
    /// P(carrier keeps) under the content's duel table.
    pub(super) keep: Vec<f64>,
    /// P(first wins) with ties contested again.
    pub(super) win: Vec<f64>,
}

impl DuelOdds {
    /// Both tests' margins enter only through their difference, and that difference through
    /// the difference of the difficulties: the distribution of (carrier total − defender total)
    /// is computed once and each pair of difficulties reads it, so the table costs the square
    /// of the totals, not their fourth power. Counts are exact integers (`u128`: up to the
    /// square of the outcomes), divided once per entry as before.
    pub(super) fn new(odds: &microfut_core::dice::Odds, tackle: &Tagged<DuelOutcome>) -> DuelOdds {
        let spec = odds.spec();
        // Difficulties of actions lie between 21 − max and 21 − min of any clamp; cover the dice.
        let lo = spec.min_total() as i32 - 2;
        let hi = spec.max_total() as i32 + 2;
        let n = (hi - lo + 1) as usize;
        let totals: Vec<(i32, u128)> = odds.totals().map(|(t, p)| (t as i32, u128::from(p.favourable))).collect();
        // ways[d − d_lo] = outcome pairs with carrier total − defender total = d.
        let (tmin, tmax) = (spec.min_total() as i32, spec.max_total() as i32);
        let d_lo = tmin - tmax;
        let mut ways = vec![0u128; (2 * (tmax - tmin) + 1) as usize];
        for &(ta, pa) in &totals {
            for &(tb, pb) in &totals {
                ways[(ta - tb - d_lo) as usize] += pa * pb;
            }
        }
        let all: u128 = ways.iter().sum();
        // Per difference of difficulties e = da − db: the margins' difference is (ta − tb) − e.
        let span = n as i32 - 1;
        let mut keep_by = Vec::with_capacity(2 * n - 1);
        let mut win_by = Vec::with_capacity(2 * n - 1);
        for e in -span..=span {
            let (mut k, mut w, mut tie) = (0u128, 0u128, 0u128);
            for (i, &x) in ways.iter().enumerate() {
                let d = d_lo + i as i32;
                // The defender's margin minus the carrier's: (tb − db) − (ta − da) = e − d.
                if tackle.of((e - d) as f64) == DuelOutcome::CarrierKeeps {
                    k += x;
                }
                match d.cmp(&e) {
                    std::cmp::Ordering::Greater => w += x,
                    std::cmp::Ordering::Equal => tie += x,
                    std::cmp::Ordering::Less => {}
                }
            }
            keep_by.push(k as f64 / all as f64);
            win_by.push(if all == tie { 0.5 } else { w as f64 / (all - tie) as f64 });
        }
        let mut keep = vec![0.0; n * n];
        let mut win = vec![0.0; n * n];
        for a in 0..n {
            for b in 0..n {
                let e = (a as i32 - b as i32 + span) as usize;
                keep[a * n + b] = keep_by[e];
                win[a * n + b] = win_by[e];
            }
        }
        DuelOdds { lo, n, keep, win }
    }

    pub(super) fn index(&self, a: i32, b: i32) -> usize {
        let clamp = |d: i32| (d - self.lo).clamp(0, self.n as i32 - 1) as usize;
        clamp(a) * self.n + clamp(b)
    }

    /// Chance the carrier keeps the ball in a duel, by the two tests' difficulties.
    pub fn keep(&self, carrier: i32, defender: i32) -> f64 {
        self.keep[self.index(carrier, defender)]
    }

    /// [`DuelOdds::keep`] for difficulties that may be fractional (0.6): each side is rolled
    /// against its two whole neighbours in proportion, independently.
    pub fn keep_of(&self, carrier: microfut_core::dice::Difficulty, defender: microfut_core::dice::Difficulty) -> f64 {
        Self::mixed(carrier, defender, |a, b| self.keep(a, b))
    }

    /// [`DuelOdds::win`] for difficulties that may be fractional.
    pub fn win_of(&self, first: microfut_core::dice::Difficulty, second: microfut_core::dice::Difficulty) -> f64 {
        Self::mixed(first, second, |a, b| self.win(a, b))
    }

    pub(super) fn mixed(
        a: microfut_core::dice::Difficulty,
        b: microfut_core::dice::Difficulty,
        at: impl Fn(i32, i32) -> f64,
    ) -> f64 {
        if a.f == 0.0 && b.f == 0.0 {
            return at(a.d, b.d);
        }
        let (fa, fb) = (a.f, b.f);
        (1.0 - fa) * ((1.0 - fb) * at(a.d, b.d) + fb * at(a.d, b.d + 1))
            + fa * ((1.0 - fb) * at(a.d + 1, b.d) + fb * at(a.d + 1, b.d + 1))
    }

    /// Chance the first of two contested tests wins (ties contested again).
    pub fn win(&self, first: i32, second: i32) -> f64 {
        self.win[self.index(first, second)]
    }
}

/// The NPC's opportunity and danger maps tabulated on a grid (lever `npc_map_grid`, issue 15).
///
/// The problem: the maps are pipelines the NPC evaluates twice for every candidate and once for
/// every tackle a defender weighs — some 40,000 evaluations a match of a function of the spot
/// alone. The decision: when a revision asks for it, each map is evaluated once per revision at
/// the nodes of a grid over the pitch (spacing at most the content's step) and read by bilinear
/// interpolation. Limits: only maps that read nothing but the spot (`spot_x`, `spot_y`) can be
/// tabulated — a revision whose maps read anything else is refused; values between nodes are
/// interpolated, not exact, which is why it is a lever (it can change a close choice).
#[derive(Debug, Clone)]
pub struct MapGrid {
    pipes: [usize; 2],
    /// Nodes along x and y, and their spacing (m).
    n: [usize; 2],
    step: [f64; 2],
    /// Per map, the node values, x-major: `values[m][i * n[1] + j]` at (i·step_x, j·step_y).
    values: [Vec<f64>; 2],
}

impl MapGrid {
    /// The most nodes a map's grid may have (a 0.1 m grid over a 120 × 90 m pitch is ~1.1 M).
    const MAX_NODES: usize = 1_200_000;

    pub(super) fn new(
        r: &Ruleset,
        pipes: [usize; 2],
        spot: [usize; 2],
        pitch: &super::super::geometry::Pitch,
        step: f64,
    ) -> Result<MapGrid, String> {
        for &p in &pipes {
            let pl = &r.pipelines[p];
            if let Some(&v) = pl.inputs.iter().find(|v| !spot.contains(v)) {
                return Err(format!(
                    "parameter 'npc_map_grid' tabulates the NPC's maps over the spot, but map '{}' also reads '{}'",
                    pl.id, r.vars[v].id
                ));
            }
        }
        let size = [pitch.length, pitch.width];
        let cells = size.map(|s| (s / step).ceil().max(1.0) as usize);
        let n = cells.map(|c| c + 1);
        if n[0] * n[1] > Self::MAX_NODES {
            return Err(format!(
                "parameter 'npc_map_grid' is too fine for this pitch ({step} m: {} nodes)",
                n[0] * n[1]
            ));
        }
        let step = [size[0] / cells[0] as f64, size[1] / cells[1] as f64];
        let mut inputs = microfut_core::ruleset::Inputs { values: vec![0.0; r.vars.len()] };
        let mut values = [Vec::with_capacity(n[0] * n[1]), Vec::with_capacity(n[0] * n[1])];
        for (m, &p) in pipes.iter().enumerate() {
            for i in 0..n[0] {
                for j in 0..n[1] {
                    inputs.set(spot[0], (i as f64 * step[0]).min(size[0]));
                    inputs.set(spot[1], (j as f64 * step[1]).min(size[1]));
                    let v = r.pipelines[p].resolve(&inputs).value;
                    if !v.is_finite() {
                        return Err(format!("map '{}' is not finite at a grid node ({v})", r.pipelines[p].id));
                    }
                    values[m].push(v);
                }
            }
        }
        Ok(MapGrid { pipes, n, step, values })
    }

    /// Which tabulated map a pipeline is, if it is one.
    #[inline]
    pub fn which(&self, pipe: usize) -> Option<usize> {
        self.pipes.iter().position(|&p| p == pipe)
    }

    /// Map `m` at (x, y), both already within the pitch: bilinear between the four nodes around.
    #[inline]
    pub fn value(&self, m: usize, x: f64, y: f64) -> f64 {
        let (fx, fy) = (x / self.step[0], y / self.step[1]);
        let i = node_below(fx).min(self.n[0] - 2);
        let j = node_below(fy).min(self.n[1] - 2);
        let (tx, ty) = ((fx - i as f64).clamp(0.0, 1.0), (fy - j as f64).clamp(0.0, 1.0));
        let v = &self.values[m];
        let at = |a: usize, b: usize| v[a * self.n[1] + b];
        let lo = at(i, j) + (at(i, j + 1) - at(i, j)) * ty;
        let hi = at(i + 1, j) + (at(i + 1, j + 1) - at(i + 1, j)) * ty;
        lo + (hi - lo) * tx
    }
}

/// `x.floor().max(0.0) as usize` without the floor: a float-to-integer cast truncates towards
/// zero and saturates (NaN and negatives to 0, +∞ to the maximum), which for every `x` is the
/// same integer — and `floor` is a libm call on the baseline x86-64 target (no SSE4.1): 1 % of a
/// match when every map read paid for two.
#[inline]
fn node_below(x: f64) -> usize {
    x as usize
}

#[cfg(test)]
mod tests {
    /// The cast gives the node the floor gave, for every kind of value a map read can meet.
    #[test]
    fn node_below_is_the_floor_clamped_at_zero() {
        let mut xs = vec![f64::NAN, f64::INFINITY, f64::NEG_INFINITY, -0.0, 0.0, -0.5, -1.0, -1e300, 1e300];
        xs.extend([f64::MIN_POSITIVE, 1.0 - f64::EPSILON, 1.0, 2.0_f64.powi(53) + 2.0, usize::MAX as f64]);
        for k in 0..4000 {
            let x = k as f64 * 0.0173 - 5.0;
            xs.extend([x, x.floor(), x.floor() - f64::EPSILON * x.abs(), x.next_up(), x.next_down()]);
        }
        for x in xs {
            assert_eq!(super::node_below(x), x.floor().max(0.0) as usize, "{x:e}");
        }
    }
}
