//! Estimates and 95 % confidence intervals from exact sums.
//!
//! Every estimate is a smooth function g of the means of a few variables (one for a mean, two for
//! a ratio, twice that in an A/B comparison). Its standard error comes from the delta method:
//! se² = ∇gᵀ Σ ∇g / n, with Σ the sample covariance of the variables. For a plain mean that is
//! the textbook s/√n. The covariance is computed exactly in integers first (n·Σxy − Σx·Σy), so no
//! cancellation in floating point, and the result depends only on the sums.

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
}

impl Estimate {
    pub fn ci95(&self) -> Option<(f64, f64)> {
        let (v, se) = (self.value?, self.std_error?);
        Some((v - Z95 * se, v + Z95 * se))
    }

    /// The interval cut to the values the estimate can take (a share lies in [0, 1]): at small
    /// counts the normal approximation would otherwise reach below 0 % or above 100 %.
    pub fn ci95_within(&self, bounds: Option<(f64, f64)>) -> Option<(f64, f64)> {
        let (lo, hi) = self.ci95()?;
        Some(match bounds {
            Some((a, b)) => (lo.clamp(a, b), hi.clamp(a, b)),
            None => (lo, hi),
        })
    }

    pub fn half_width(&self) -> Option<f64> {
        self.std_error.map(|se| Z95 * se)
    }

    /// Whether the interval leaves out zero (a difference that is not noise at 95 %).
    pub fn excludes_zero(&self) -> bool {
        self.ci95().is_some_and(|(lo, hi)| lo > 0.0 || hi < 0.0)
    }
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
        if !value.is_finite() {
            return Estimate { value: None, std_error: None };
        }
        if self.cov.is_empty() {
            return Estimate { value: Some(value), std_error: None };
        }
        let k = self.means.len();
        let mut var = 0.0;
        for i in 0..k {
            for j in 0..k {
                var += grad[i] * self.cov[i * k + j] * grad[j];
            }
        }
        let se = (var.max(0.0) / self.n as f64).sqrt();
        Estimate { value: Some(value), std_error: se.is_finite().then_some(se) }
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
