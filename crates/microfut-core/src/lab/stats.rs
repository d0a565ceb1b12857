//! Estimates and 95 % confidence intervals from exact sums.
//!
//! Every estimate is a smooth function g of the means of a few variables (one for a mean, two for
//! a ratio, twice that in an A/B comparison). Its standard error comes from the delta method:
//! se² = ∇gᵀ Σ ∇g / n, with Σ the sample covariance of the variables. For a plain mean that is
//! the textbook s/√n. The covariance is computed exactly in integers first (n·Σxy − Σx·Σy), so no
//! cancellation in floating point, and the result depends only on the sums.
//!
//! Intervals: estimate ± 1.96·se, except for shares (values in [0, 1]: a win share, a pass
//! completion rate), where the normal interval misbehaves at small counts — it reaches below 0 %
//! or above 100 %, and collapses to a point when nothing happened (0 of 3,000 games is not
//! "0.00 ± 0.00 %"). Shares get Wilson's score interval instead, on the *effective number of
//! trials* n* = p(1−p)/v (v the plug-in variance of the estimate: the delta method's, so a ratio
//! of sums with many attempts per simulation, which are not independent, counts for what its
//! spread says, not for its number of attempts — Kish's design effect). For a mean of yes/no
//! observations n* is the number of simulations and this is the textbook Wilson interval. At
//! 0 or 1 there is no spread to measure, so n* is the number of simulations (which are
//! independent by construction): conservative for a ratio. Differences between revisions keep
//! the normal interval (they are not shares, and their paired spread is what matters).

use super::accumulate::{Accumulator, Layout, cross_index};
use serde::Serialize;

/// The 0.975 quantile of the standard normal distribution: 95 % two-sided intervals.
pub const Z95: f64 = 1.959_963_984_540_054;

#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Estimate {
    /// `None` when undefined (a ratio over a zero denominator).
    pub value: Option<f64>,
    /// `None` with fewer than two simulations or an undefined value.
    pub std_error: Option<f64>,
    /// Simulations it comes from.
    pub n: u64,
}

impl Estimate {
    /// The normal interval, estimate ± 1.96·se.
    pub fn ci95(&self) -> Option<(f64, f64)> {
        let (v, se) = (self.value?, self.std_error?);
        Some((v - Z95 * se, v + Z95 * se))
    }

    /// The 95 % interval of a share (a value in [0, 1]): Wilson's score interval on the
    /// effective number of trials (see the module comment). Within [0, 1], it contains the
    /// estimate, and it has width at 0 and 1. An estimate outside [0, 1] (not a share after all)
    /// gets the normal interval.
    pub fn wilson95(&self) -> Option<(f64, f64)> {
        let (p, se) = (self.value?, self.std_error?);
        if !(0.0..=1.0).contains(&p) || self.n < 2 {
            return self.ci95();
        }
        let n = self.n as f64;
        let plug_in = se * se * (n - 1.0) / n;
        let spread = p * (1.0 - p);
        let trials = if spread == 0.0 {
            n
        } else if plug_in > 0.0 {
            spread / plug_in
        } else {
            // Every simulation gave the same fraction: no uncertainty left to show.
            return Some((p, p));
        };
        Some(wilson(p, trials))
    }

    /// The interval a value shown this way gets: Wilson's for a share, the normal one otherwise.
    pub fn ci95_as(&self, share: bool) -> Option<(f64, f64)> {
        if share { self.wilson95() } else { self.ci95() }
    }

    pub fn half_width(&self) -> Option<f64> {
        self.std_error.map(|se| Z95 * se)
    }

    /// Whether the interval leaves out zero (a difference that is not noise at 95 %).
    pub fn excludes_zero(&self) -> bool {
        self.ci95().is_some_and(|(lo, hi)| lo > 0.0 || hi < 0.0)
    }
}

/// Wilson's score interval for a proportion `p` observed over `n` trials, at 95 %.
pub fn wilson(p: f64, n: f64) -> (f64, f64) {
    let z2 = Z95 * Z95;
    let denom = 1.0 + z2 / n;
    let centre = (p + z2 / (2.0 * n)) / denom;
    let half = Z95 / denom * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt();
    // Exact arithmetic keeps p inside and the ends within [0, 1]; rounding must not undo that.
    ((centre - half).clamp(0.0, p), (centre + half).clamp(p, 1.0))
}

/// n·Σxy − Σx·Σy, exactly. Written around integer quotients (Σx = qx·n + rx) so that no
/// intermediate grows beyond n·Σ(x−qx)(y−qy): it stays in `i128` for any run the accumulator
/// accepts.
fn centered(n: i128, sx: i128, sy: i128, pxy: i128) -> i128 {
    let (qx, rx) = (sx.div_euclid(n), sx.rem_euclid(n));
    let qy = sy.div_euclid(n);
    let ry = sy.rem_euclid(n);
    let inner = pxy - qx * sy - qy * rx;
    n * inner - rx * ry
}

/// `num / den` as the nearest `f64` when both are exact in `f64` (so 2034/6000 prints as 0.339),
/// otherwise whole part plus fraction.
fn quotient(num: i128, den: i128) -> f64 {
    const EXACT: i128 = 1 << 53;
    if num.abs() < EXACT && den < EXACT {
        num as f64 / den as f64
    } else {
        num.div_euclid(den) as f64 + num.rem_euclid(den) as f64 / den as f64
    }
}

/// Means and sample covariance (in metric units, i.e. divided by `scale`) of one value's variables.
pub struct Moments {
    pub n: u64,
    pub means: Vec<f64>,
    /// Row-major k×k; empty when n < 2.
    pub cov: Vec<f64>,
}

impl Moments {
    pub fn of(acc: &Accumulator, layout: &Layout, unit: usize, scale: u64) -> Moments {
        let (at, k) = layout.unit(unit);
        let n = acc.n;
        if n == 0 {
            return Moments { n, means: vec![f64::NAN; k], cov: Vec::new() };
        }
        let ni = i128::from(n);
        let sums = &acc.values[at..at + k];
        let cross = &acc.values[at + k..];
        let scale = i128::from(scale);
        let means = sums.iter().map(|&x| quotient(x, ni * scale)).collect();
        let mut cov = Vec::new();
        if n >= 2 {
            cov = vec![0.0; k * k];
            let denom = ni * (ni - 1) * scale * scale;
            for i in 0..k {
                for j in i..k {
                    let c = quotient(centered(ni, sums[i], sums[j], cross[cross_index(k, i, j)]), denom);
                    cov[i * k + j] = c;
                    cov[j * k + i] = c;
                }
            }
        }
        Moments { n, means, cov }
    }

    /// The estimate g(means) with gradient `grad` at the means (delta method).
    pub fn estimate(&self, value: f64, grad: &[f64]) -> Estimate {
        let n = self.n;
        if !value.is_finite() {
            return Estimate { value: None, std_error: None, n };
        }
        if self.cov.is_empty() {
            return Estimate { value: Some(value), std_error: None, n };
        }
        let k = self.means.len();
        let mut var = 0.0;
        for i in 0..k {
            for j in 0..k {
                var += grad[i] * self.cov[i * k + j] * grad[j];
            }
        }
        let se = (var.max(0.0) / self.n as f64).sqrt();
        Estimate { value: Some(value), std_error: se.is_finite().then_some(se), n }
    }
}

/// A mean of the variable at `i`.
pub fn mean(m: &Moments, i: usize) -> Estimate {
    let mut g = vec![0.0; m.means.len()];
    g[i] = 1.0;
    m.estimate(m.means[i], &g)
}

/// Σx/Σy with x at `i`, y at `i + 1`.
pub fn ratio(m: &Moments, i: usize) -> Estimate {
    let (x, y) = (m.means[i], m.means[i + 1]);
    let mut g = vec![0.0; m.means.len()];
    g[i] = 1.0 / y;
    g[i + 1] = -x / (y * y);
    m.estimate(x / y, &g)
}

/// Mean of arm 0 minus mean of arm 1 (variables 0 and 1), paired by seed.
pub fn mean_difference(m: &Moments) -> Estimate {
    m.estimate(m.means[0] - m.means[1], &[1.0, -1.0])
}

/// Ratio of arm 0 minus ratio of arm 1 (variables 0,1 and 2,3), paired by seed.
pub fn ratio_difference(m: &Moments) -> Estimate {
    let (xa, ya, xb, yb) = (m.means[0], m.means[1], m.means[2], m.means[3]);
    m.estimate(xa / ya - xb / yb, &[1.0 / ya, -xa / (ya * ya), -1.0 / yb, xb / (yb * yb)])
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::catalog::Labels;
    use crate::lab::metric::{Format, Kind, Metric};

    fn metric(kind: Kind, scale: u64) -> Vec<Metric> {
        let l = Labels { pt_br: "x".into(), en: "x".into() };
        vec![Metric { id: "m".into(), label: l, kind, scale, format: Format::Number, parts: vec![] }]
    }

    #[test]
    fn centered_matches_the_naive_formula() {
        for (n, sx, sy, p) in [(3, 7, -5, 4), (10, 1000, 999, 100_000), (1, 5, 5, 25), (7, -3, -8, 11)] {
            assert_eq!(centered(n, sx, sy, p), n * p - sx * sy, "{n} {sx} {sy} {p}");
        }
    }

    #[test]
    fn mean_and_ci_of_a_small_sample() {
        let ms = metric(Kind::Mean, 2);
        let l = Layout::new(&ms, 1);
        let mut a = Accumulator::new(&l);
        for x in [2, 4, 6, 8] {
            a.add(&l, &[x]);
        }
        // Values 1, 2, 3, 4: mean 2.5, sample variance 5/3.
        let m = Moments::of(&a, &l, 0, 2);
        let e = mean(&m, 0);
        assert_eq!(e.value, Some(2.5));
        let se = (5.0f64 / 3.0 / 4.0).sqrt();
        assert!((e.std_error.unwrap() - se).abs() < 1e-15);
    }

    #[test]
    fn ratio_of_sums_not_mean_of_ratios() {
        let ms = metric(Kind::Ratio, 1);
        let l = Layout::new(&ms, 1);
        let mut a = Accumulator::new(&l);
        a.add(&l, &[1, 1]);
        a.add(&l, &[0, 3]);
        let m = Moments::of(&a, &l, 0, 1);
        assert_eq!(ratio(&m, 0).value, Some(0.25));
    }

    #[test]
    fn undefined_values_are_none() {
        let ms = metric(Kind::Ratio, 1);
        let l = Layout::new(&ms, 1);
        let mut a = Accumulator::new(&l);
        a.add(&l, &[0, 0]);
        a.add(&l, &[0, 0]);
        let e = ratio(&Moments::of(&a, &l, 0, 1), 0);
        assert_eq!(e.value, None);
        assert_eq!(e.ci95(), None);
    }

    /// A mean of yes/no observations, `k` yeses out of `n`.
    fn bernoulli(k: u64, n: u64) -> Estimate {
        let ms = metric(Kind::Mean, 1);
        let l = Layout::new(&ms, 1);
        let mut a = Accumulator::new(&l);
        for i in 0..n {
            a.add(&l, &[i64::from(i < k)]);
        }
        mean(&Moments::of(&a, &l, 0, 1), 0)
    }

    #[test]
    fn wilson_gives_the_textbook_intervals() {
        // 0 of 10: [0, z²/(n + z²)]; 1 of 10: [1.79 %, 40.4 %] (Wilson 1927; Newcombe 1998).
        let (lo, hi) = wilson(0.0, 10.0);
        assert_eq!(lo, 0.0);
        assert!((hi - Z95 * Z95 / (10.0 + Z95 * Z95)).abs() < 1e-15, "{hi}");
        let (lo, hi) = wilson(0.1, 10.0);
        assert!((lo - 0.017_876).abs() < 1e-6 && (hi - 0.404_150).abs() < 1e-6, "{lo} {hi}");
        // From the exact sums of yes/no observations the effective number of trials is the
        // number of simulations, so the lab gives the same intervals.
        for (k, n) in [(0, 10), (1, 10), (7, 10), (10, 10), (3, 3000), (1500, 3000)] {
            let (a, b) = bernoulli(k, n).wilson95().unwrap();
            let (x, y) = wilson(k as f64 / n as f64, n as f64);
            assert!((a - x).abs() < 1e-12 && (b - y).abs() < 1e-12, "{k}/{n}: {a} {b} vs {x} {y}");
        }
    }

    #[test]
    fn a_share_interval_stays_in_0_1_contains_the_estimate_and_has_width_at_the_ends() {
        for n in [2, 3, 5, 12, 100] {
            for k in 0..=n {
                let e = bernoulli(k, n);
                let (lo, hi) = e.wilson95().unwrap();
                let p = e.value.unwrap();
                assert!(0.0 <= lo && lo <= p && p <= hi && hi <= 1.0, "{k}/{n}: [{lo}, {hi}]");
                assert!(hi - lo > 0.0, "{k}/{n}: an interval of no width");
            }
        }
        // Every simulation the same fraction (a share split three ways each time): no spread.
        let ms = metric(Kind::Mean, 3);
        let l = Layout::new(&ms, 1);
        let mut a = Accumulator::new(&l);
        for _ in 0..5 {
            a.add(&l, &[1]);
        }
        let e = mean(&Moments::of(&a, &l, 0, 3), 0);
        assert_eq!(e.wilson95(), Some((1.0 / 3.0, 1.0 / 3.0)));
    }

    /// Exact coverage over every possible count (binomial weights): the probability that the
    /// interval of a run of `n` yes/no simulations contains the true share `p`.
    fn coverage(n: u64, p: f64, interval: impl Fn(&Estimate) -> (f64, f64)) -> f64 {
        let mut total = 0.0;
        for k in 0..=n {
            let ln_choose: f64 = (1..=k).map(|i| ((n - k + i) as f64 / i as f64).ln()).sum();
            let weight = (ln_choose + k as f64 * p.ln() + (n - k) as f64 * (1.0 - p).ln()).exp();
            let (lo, hi) = interval(&bernoulli(k, n));
            if lo <= p && p <= hi {
                total += weight;
            }
        }
        total
    }

    #[test]
    fn wilson_covers_rare_events_at_small_counts_where_the_normal_interval_does_not() {
        for (n, p) in [(10, 0.05), (30, 1.0 / 36.0), (30, 0.2), (100, 0.01), (100, 0.5), (200, 0.003)] {
            let w = coverage(n, p, |e| e.wilson95().unwrap());
            assert!(w > 0.9, "Wilson covers {p} at n = {n} only {w:.3} of the time");
        }
        // The normal interval cut at the bounds misses a rare event most of the time: a run in
        // which it never happened gets [0, 0].
        let cut = coverage(30, 1.0 / 36.0, |e| {
            let (lo, hi) = e.ci95().unwrap();
            (lo.max(0.0), hi.min(1.0))
        });
        assert!(cut < 0.6, "{cut}");
    }

    /// Wilson's interval of a ratio of sums over simulations of `(successes, attempts)`.
    fn ratio_interval(sims: &[(i64, i64)]) -> (f64, f64) {
        let ms = metric(Kind::Ratio, 1);
        let l = Layout::new(&ms, 1);
        let mut a = Accumulator::new(&l);
        for &(x, y) in sims {
            a.add(&l, &[x, y]);
        }
        ratio(&Moments::of(&a, &l, 0, 1), 0).wilson95().unwrap()
    }

    #[test]
    fn a_ratio_counts_for_the_trials_its_spread_is_worth() {
        let close = |(a, b): (f64, f64), (x, y): (f64, f64)| (a - x).abs() < 1e-12 && (b - y).abs() < 1e-12;
        // Two attempts per simulation that succeed independently (0, 1, 1 or 2 of 2): worth
        // every attempt, 80 trials from 40 simulations.
        let independent: Vec<(i64, i64)> = (0..40).map(|i| ([0, 1, 1, 2][i % 4], 2)).collect();
        assert!(close(ratio_interval(&independent), wilson(0.5, 80.0)));
        // Ten attempts per simulation that all succeed or all fail together: 400 attempts, but
        // no more information than one each, 40 trials.
        let clustered: Vec<(i64, i64)> = (0..40).map(|i| (if i % 4 == 0 { 10 } else { 0 }, 10)).collect();
        assert!(close(ratio_interval(&clustered), wilson(0.25, 40.0)));
    }

    #[test]
    fn identical_arms_differ_by_exactly_zero() {
        let ms = metric(Kind::Mean, 1);
        let l = Layout::new(&ms, 2);
        let mut a = Accumulator::new(&l);
        for x in [3, 9, 4, 4, 1] {
            a.add(&l, &[x, x]);
        }
        let d = mean_difference(&Moments::of(&a, &l, 0, 1));
        assert_eq!(d.value, Some(0.0));
        assert_eq!(d.ci95(), Some((0.0, 0.0)));
    }
}
