//! Exact, order-independent aggregation of observations.
//!
//! Rayon reduces partial results in whatever order its threads finish, and shards are merged
//! later on another machine. Floating-point sums would differ in the last bits between those
//! orders, so every observation is an integer and an accumulator keeps, per value, the count,
//! the sums and the sums of cross products in `i128`. Integer addition is associative and
//! commutative, so any split and any merge order give the same bits. Estimates are computed
//! from the exact sums only at the end (`stats`).

use super::metric::Metric;

/// Largest observation magnitude accepted (2³¹). With it, a product is below 2⁶², and sums of
/// up to 2⁶⁴ simulations stay below 2¹²⁶: `i128` never overflows.
pub const OBSERVATION_LIMIT: u64 = 1 << 31;

/// Where one value's variables are read from and accumulated to.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Unit {
    /// Observation slots of its variables: per arm, the numerator (and denominator) slot.
    obs: Vec<usize>,
    /// Offset of its sums in the accumulator; the cross products follow.
    at: usize,
}

/// How one scenario's observations map onto its accumulator: one unit per metric value, with
/// one or two variables per arm (two arms in an A/B comparison, which run on the same seeds).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Layout {
    units: Vec<Unit>,
    /// Slots one arm's simulation fills.
    pub slots_per_arm: usize,
    pub arms: usize,
    len: usize,
}

/// Accumulator entries of a value with `k` variables: k sums and k(k+1)/2 cross products.
fn entries(k: usize) -> usize {
    k + k * (k + 1) / 2
}

impl Layout {
    pub fn new(metrics: &[Metric], arms: usize) -> Layout {
        let slots_per_arm = super::metric::slots(metrics);
        let mut units = Vec::new();
        let mut slot = 0;
        let mut at = 0;
        for m in metrics {
            let per = m.kind.slots();
            for _ in 0..m.values() {
                let obs: Vec<usize> =
                    (0..arms).flat_map(|arm| (0..per).map(move |j| arm * slots_per_arm + slot + j)).collect();
                let k = obs.len();
                units.push(Unit { obs, at });
                at += entries(k);
                slot += per;
            }
        }
        Layout { units, slots_per_arm, arms, len: at }
    }

    /// Observation slots of one simulation across all arms.
    pub fn observation_len(&self) -> usize {
        self.slots_per_arm * self.arms
    }

    /// Accumulator entries.
    pub fn len(&self) -> usize {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The accumulator entries (sums, then cross products) of value `unit`, and its variables.
    pub(crate) fn unit(&self, unit: usize) -> (usize, usize) {
        let u = &self.units[unit];
        (u.at, u.obs.len())
    }
}

/// Exact sums for one scenario: how many simulations, and per value Σx and Σxᵢxⱼ.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Accumulator {
    pub n: u64,
    pub values: Vec<i128>,
}

impl Accumulator {
    pub fn new(layout: &Layout) -> Accumulator {
        Accumulator { n: 0, values: vec![0; layout.len()] }
    }

    /// Adds one simulation's observations (all arms).
    ///
    /// # Panics
    /// When an observation exceeds [`OBSERVATION_LIMIT`]: a simulator bug, not a user error.
    #[inline]
    pub fn add(&mut self, layout: &Layout, obs: &[i64]) {
        self.n += 1;
        for u in &layout.units {
            let mut x = [0i128; 4];
            let k = u.obs.len();
            for (j, &slot) in u.obs.iter().enumerate() {
                let v = obs[slot];
                assert!(v.unsigned_abs() <= OBSERVATION_LIMIT, "observation {v} in slot {slot} exceeds 2^31");
                x[j] = i128::from(v);
            }
            let acc = &mut self.values[u.at..u.at + entries(k)];
            let (sums, cross) = acc.split_at_mut(k);
            let mut c = 0;
            for i in 0..k {
                sums[i] += x[i];
                for j in i..k {
                    cross[c] += x[i] * x[j];
                    c += 1;
                }
            }
        }
    }

    /// Whether these sums can come from `n` simulations of `metrics`: every observation is at
    /// most [`OBSERVATION_LIMIT`] in size, so |Σx| ≤ n·L and 0 ≤ Σx² ≤ n·L²; (Σx)² ≤ n·Σx² and
    /// (Σxy)² ≤ Σx²·Σy² (Cauchy–Schwarz); a share shown as a percentage lies in [0, 1] — a mean
    /// observation in [0, scale], a ratio's numerator between 0 and its denominator. The first
    /// entry that breaks one, with why. (A file edited to other *possible* sums cannot be told
    /// from a real one.)
    pub fn check(&self, metrics: &[Metric], arms: usize) -> Result<(), (usize, String)> {
        let layout = Layout::new(metrics, arms);
        if self.values.len() != layout.len() {
            return Err((0, "accumulator size does not match its metrics".into()));
        }
        let n = i128::from(self.n);
        let lim = OBSERVATION_LIMIT as i128;
        // Products of sums exceed i128: compared in f64 with a margin far above its rounding.
        let le = |a: f64, b: f64| a <= b * (1.0 + 1e-9) + 1.0;
        let mut unit = 0;
        for m in metrics {
            let per = m.kind.slots();
            for part in 0..m.values() {
                let name = match m.part(part) {
                    Some(p) => format!("{} ({})", m.id, p.id),
                    None => m.id.clone(),
                };
                let (at, k) = layout.unit(unit);
                unit += 1;
                let sum = |i: usize| self.values[at + i];
                let cross_at = |i: usize, j: usize| at + k + cross_index(k, i, j);
                let cross = |i: usize, j: usize| self.values[cross_at(i, j)];
                if m.format == super::metric::Format::Percent {
                    let scale = i128::from(m.scale);
                    // Variables run arm by arm: per arm one (a mean) or two (numerator, denominator).
                    for arm in 0..arms {
                        let first = arm * per;
                        if m.kind == super::metric::Kind::Mean {
                            let (s, sq) = (sum(first), cross(first, first));
                            if s < 0 || s > n.saturating_mul(scale) || sq > scale.saturating_mul(s) {
                                return Err((at + first, format!("{name}: a share summing to {s} (in 1/{scale})")));
                            }
                        } else {
                            let (num, den) = (sum(first), sum(first + 1));
                            if num < 0 || den < 0 || num > den {
                                return Err((at + first, format!("{name}: a share of {num} in {den}")));
                            }
                        }
                    }
                }
                for i in 0..k {
                    let (s, sq) = (sum(i), cross(i, i));
                    if s.unsigned_abs() > (n * lim).unsigned_abs() {
                        return Err((at + i, format!("{name}: a sum of {s}")));
                    }
                    if sq < 0 || sq > n * lim * lim {
                        return Err((cross_at(i, i), format!("{name}: a sum of squares of {sq}")));
                    }
                    if !le((s as f64).powi(2), n as f64 * sq as f64) {
                        return Err((
                            cross_at(i, i),
                            format!("{name}: a sum of squares of {sq} below (Σx)²/n for Σx = {s}"),
                        ));
                    }
                    for j in i + 1..k {
                        let c = cross(i, j);
                        if !le((c as f64).powi(2), sq as f64 * cross(j, j) as f64) {
                            return Err((cross_at(i, j), format!("{name}: a sum of products of {c}")));
                        }
                    }
                }
            }
        }
        Ok(())
    }

    /// Adds another accumulator of the same layout (a thread's or a shard's part).
    pub fn merge(&mut self, other: &Accumulator) {
        assert_eq!(self.values.len(), other.values.len(), "accumulators of different layouts");
        self.n += other.n;
        for (a, b) in self.values.iter_mut().zip(&other.values) {
            *a += b;
        }
    }
}

/// Index of the cross product of variables `i ≤ j` among `k`, counted from the first product.
pub(crate) fn cross_index(k: usize, i: usize, j: usize) -> usize {
    debug_assert!(i <= j && j < k);
    // Rows 0..i hold k, k-1, … entries.
    i * k - i * (i.saturating_sub(1)) / 2 + (j - i)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::catalog::Labels;
    use crate::lab::metric::{Format, Kind, Part};

    fn metrics() -> Vec<Metric> {
        let l = Labels { pt_br: "x".into(), en: "x".into() };
        vec![
            Metric {
                id: "share".into(),
                label: l.clone(),
                kind: Kind::Mean,
                scale: 6,
                format: Format::Percent,
                parts: vec![Part { id: "a".into(), label: l.clone() }, Part { id: "b".into(), label: l.clone() }],
            },
            Metric { id: "ratio".into(), label: l, kind: Kind::Ratio, scale: 1, format: Format::Number, parts: vec![] },
        ]
    }

    #[test]
    fn cross_index_walks_the_upper_triangle_in_order() {
        for k in 1..=4 {
            let mut c = 0;
            for i in 0..k {
                for j in i..k {
                    assert_eq!(cross_index(k, i, j), c, "k={k} i={i} j={j}");
                    c += 1;
                }
            }
        }
    }

    #[test]
    fn layout_of_two_arms_pairs_each_value_across_arms() {
        let l = Layout::new(&metrics(), 2);
        assert_eq!(l.slots_per_arm, 4);
        assert_eq!(l.observation_len(), 8);
        // share a: slots 0 and 4; share b: 1 and 5; ratio: 2,3 and 6,7.
        assert_eq!(l.units[0].obs, [0, 4]);
        assert_eq!(l.units[1].obs, [1, 5]);
        assert_eq!(l.units[2].obs, [2, 3, 6, 7]);
        assert_eq!(l.len(), 5 + 5 + 14);
    }

    #[test]
    fn sums_and_products_are_exact() {
        let l = Layout::new(&metrics(), 1);
        let mut a = Accumulator::new(&l);
        a.add(&l, &[6, 0, 3, 4]);
        a.add(&l, &[2, 2, 1, 2]);
        assert_eq!(a.n, 2);
        // share a: Σ=8, Σx²=40; share b: Σ=2, Σx²=4; ratio: Σx=4, Σy=6, Σx²=10, Σxy=14, Σy²=20.
        assert_eq!(a.values, [8, 40, 2, 4, 4, 6, 10, 14, 20]);
    }
}
