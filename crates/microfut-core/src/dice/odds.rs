//! Exact success odds of "roll NdS, succeed if the total reaches the difficulty".

use serde::Serialize;
use std::fmt;

/// How many dice of how many sides; the rules document rolls 3d6.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, serde::Deserialize)]
pub struct DiceSpec {
    pub count: u32,
    pub sides: u32,
}

impl DiceSpec {
    pub const D3D6: DiceSpec = DiceSpec { count: 3, sides: 6 };

    pub fn min_total(self) -> u32 {
        self.count
    }
    pub fn max_total(self) -> u32 {
        self.count * self.sides
    }
}

/// An exact probability: favourable outcomes over all outcomes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Probability {
    pub favourable: u64,
    pub outcomes: u64,
}

impl Probability {
    pub fn as_f64(self) -> f64 {
        self.favourable as f64 / self.outcomes as f64
    }
}

impl fmt::Display for Probability {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.favourable, self.outcomes)
    }
}

/// A difficulty as a revision with fractional values plays it (0.6): the whole difficulty `d`,
/// or `d + 1` a share `f` of the time (0 ≤ f < 1). A value of 12.4 against `21 - value` is a
/// difficulty of 8.6: rolled against 8 four times in ten and against 9 six times. Whole values
/// (every revision before 0.6) have `f = 0` and play exactly as before.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Difficulty {
    pub d: i32,
    pub f: f64,
}

impl Difficulty {
    pub const fn whole(d: i32) -> Difficulty {
        Difficulty { d, f: 0.0 }
    }

    /// The difficulty as one number (for ordering and display).
    pub fn real(self) -> f64 {
        self.d as f64 + self.f
    }

    /// The same difficulty moved by a whole number.
    pub fn plus(self, k: i32) -> Difficulty {
        Difficulty { d: self.d + k, f: self.f }
    }
}

/// Ways to roll each total `t` (index `t`, from 0) with `count` dice of `sides` faces, exactly,
/// in time linear in count × sides — one step per total, no enumeration of rolls and no
/// die-by-die convolution.
///
/// With n dice of s sides the totals minus n are the coefficients q_j of
/// Q(x) = ((1 − xˢ)/(1 − x))ⁿ. Differentiating log Q and clearing denominators gives
/// Q′·(1 − x)(1 − xˢ) = n·Q·(1 − s·xˢ⁻¹ + (s − 1)·xˢ), whose coefficients are the recurrence
///   (j + 1)·q_{j+1} = (j + n)·q_j + (j − s + 1 − n·s)·q_{j−s+1} + (n·(s − 1) − j + s)·q_{j−s},
/// with q_0 = 1 and q_j = 0 for j < 0. The division is exact (q_{j+1} is an integer); terms are
/// below 2⁶⁴ (a count of outcomes) times n·s, so `i128` holds them.
fn distribution(spec: DiceSpec) -> Vec<u64> {
    let (n, s) = (i128::from(spec.count), i128::from(spec.sides));
    let top = (n * (s - 1)) as usize;
    let mut q = vec![0i128; top + 1];
    q[0] = 1;
    let at = |q: &[i128], j: i128| if j < 0 { 0 } else { q[j as usize] };
    for j in 0..top as i128 {
        let next =
            (j + n) * q[j as usize] + (j - s + 1 - n * s) * at(&q, j - s + 1) + (n * (s - 1) - j + s) * at(&q, j - s);
        debug_assert_eq!(next % (j + 1), 0, "the recurrence divides exactly");
        q[j as usize + 1] = next / (j + 1);
    }
    let mut dist = vec![0u64; spec.count as usize];
    dist.extend(q.into_iter().map(|w| u64::try_from(w).expect("a count of outcomes fits u64")));
    dist
}

/// `at_least[t]` = number of outcomes whose total is ≥ t, for every t.
#[derive(Debug, Clone)]
pub struct Odds {
    spec: DiceSpec,
    outcomes: u64,
    at_least: Vec<u64>,
    exactly: Vec<u64>,
    /// `success(t).as_f64()` for every t, divided once here: estimates ask it in inner loops.
    chance: Vec<f64>,
}

impl Odds {
    /// Whether `spec` can be counted exactly: at least one die of at least two sides, and
    /// sides^count outcomes that fit the counters. Content with other dice is refused when it
    /// is checked (the schema bounds count and sides; this bounds their product).
    pub fn supports(spec: DiceSpec) -> bool {
        spec.count >= 1 && spec.sides >= 2 && u64::from(spec.sides).checked_pow(spec.count).is_some()
    }

    pub fn new(spec: DiceSpec) -> Self {
        assert!(Self::supports(spec), "unsupported dice {spec:?}");
        let dist = distribution(spec);
        let outcomes: u64 = u64::from(spec.sides).pow(spec.count);
        debug_assert_eq!(dist.iter().map(|&w| u128::from(w)).sum::<u128>(), u128::from(outcomes));
        let mut at_least = vec![0u64; dist.len() + 1];
        for t in (0..dist.len()).rev() {
            at_least[t] = at_least[t + 1] + dist[t];
        }
        let chance = at_least.iter().map(|&f| Probability { favourable: f, outcomes }.as_f64()).collect();
        Odds { spec, outcomes, at_least, exactly: dist, chance }
    }

    pub fn spec(&self) -> DiceSpec {
        self.spec
    }

    /// P(total ≥ difficulty), exact. Difficulties below the minimum always succeed.
    pub fn success(&self, difficulty: i32) -> Probability {
        let favourable =
            if difficulty <= 0 { self.outcomes } else { self.at_least.get(difficulty as usize).copied().unwrap_or(0) };
        Probability { favourable, outcomes: self.outcomes }
    }

    /// `success(difficulty).as_f64()`, bit for bit, without the division.
    #[inline]
    pub fn chance(&self, difficulty: i32) -> f64 {
        if difficulty <= 0 { 1.0 } else { self.chance.get(difficulty as usize).copied().unwrap_or(0.0) }
    }

    /// The chance of reaching a difficulty that may lie between two whole numbers: rolled
    /// against `d` or, a `f` share of the time, against `d + 1` (see [`Difficulty`]).
    #[inline]
    pub fn chance_of(&self, d: Difficulty) -> f64 {
        if d.f == 0.0 { self.chance(d.d) } else { (1.0 - d.f) * self.chance(d.d) + d.f * self.chance(d.d + 1) }
    }

    /// P(total = t), exact.
    pub fn exactly(&self, total: u32) -> Probability {
        let favourable = self.exactly.get(total as usize).copied().unwrap_or(0);
        Probability { favourable, outcomes: self.outcomes }
    }

    /// Iterates (total, probability of exactly that total) over every possible total.
    pub fn totals(&self) -> impl Iterator<Item = (u32, Probability)> + '_ {
        (self.spec.min_total()..=self.spec.max_total()).map(|t| (t, self.exactly(t)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn three_d6_reaching_8_is_181_of_216() {
        let o = Odds::new(DiceSpec::D3D6);
        let p = o.success(8);
        assert_eq!((p.favourable, p.outcomes), (181, 216));
        assert_eq!(format!("{:.2}", p.as_f64() * 100.0), "83.80");
    }

    #[test]
    fn chance_is_the_exact_probability_as_a_float() {
        for spec in [DiceSpec::D3D6, DiceSpec { count: 2, sides: 10 }] {
            let o = Odds::new(spec);
            for d in -3..(spec.max_total() as i32 + 4) {
                assert_eq!(o.chance(d).to_bits(), o.success(d).as_f64().to_bits(), "{spec:?} {d}");
            }
        }
    }

    #[test]
    fn edges() {
        let o = Odds::new(DiceSpec::D3D6);
        assert_eq!(o.success(3).favourable, 216);
        assert_eq!(o.success(4).favourable, 215);
        assert_eq!(o.success(18).favourable, 1);
        assert_eq!(o.success(19).favourable, 0);
        assert_eq!(o.success(-5).favourable, 216);
        assert_eq!(o.totals().map(|(_, p)| p.favourable).sum::<u64>(), 216);
    }

    /// Die-by-die convolution: the obvious way, quadratic, as the reference.
    fn convolved(spec: DiceSpec) -> Vec<u128> {
        let mut dist = vec![1u128];
        for _ in 0..spec.count {
            let mut next = vec![0u128; dist.len() + spec.sides as usize];
            for (total, &ways) in dist.iter().enumerate() {
                for face in 1..=spec.sides as usize {
                    next[total + face] += ways;
                }
            }
            dist = next;
        }
        dist
    }

    #[test]
    fn the_recurrence_counts_what_convolution_counts() {
        for count in 1..=12 {
            for sides in (2..=40).chain([60, 99, 100]) {
                let spec = DiceSpec { count, sides };
                if !Odds::supports(spec) {
                    continue;
                }
                let want = convolved(spec);
                let got = distribution(spec);
                assert_eq!(got.len(), want.len(), "{count}d{sides}");
                assert!(got.iter().zip(&want).all(|(&g, &w)| u128::from(g) == w), "{count}d{sides}");
            }
        }
    }

    #[test]
    fn dice_whose_outcomes_overflow_are_not_supported() {
        assert!(Odds::supports(DiceSpec { count: 12, sides: 40 }));
        assert!(!Odds::supports(DiceSpec { count: 12, sides: 41 }));
        assert!(Odds::supports(DiceSpec { count: 3, sides: 100 }));
        assert!(!Odds::supports(DiceSpec { count: 0, sides: 6 }));
        assert!(!Odds::supports(DiceSpec { count: 3, sides: 1 }));
        let o = Odds::new(DiceSpec { count: 12, sides: 40 });
        assert_eq!(o.success(12).favourable, 40u64.pow(12));
        assert_eq!(o.success(480).favourable, 1);
    }

    #[test]
    fn matches_brute_force() {
        let o = Odds::new(DiceSpec::D3D6);
        for d in 3..=18 {
            let mut n = 0;
            for a in 1..=6 {
                for b in 1..=6 {
                    for c in 1..=6 {
                        if a + b + c >= d {
                            n += 1;
                        }
                    }
                }
            }
            assert_eq!(o.success(d).favourable, n, "difficulty {d}");
        }
    }
}
