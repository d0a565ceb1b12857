//! Range tables and curves: the content's lookup functions, callable from expressions.
//!
//! A range table maps an input to the value of the bin that holds it. Bins are intervals written
//! in the usual notation (`[0, 1.5]`, `(1.5, 3]`, `(6, inf)`); a table may round its input first
//! (the baseline applies distance and percentage bins to the rounded value), in which case bins
//! are sets of integers and `[0, 8]`, `[9, 14]` leave no gap. Inputs outside the table's domain
//! take the nearest bin, so a lookup never fails in the match loop.

use crate::expr::{Lookup, round};
use std::fmt;

#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Interval {
    pub lo: f64,
    pub lo_closed: bool,
    pub hi: f64,
    pub hi_closed: bool,
}

impl Interval {
    pub fn point(x: f64) -> Self {
        Interval { lo: x, lo_closed: true, hi: x, hi_closed: true }
    }

    /// Parses `[a, b]`, `(a, b]`, `[a, inf)`, `(-inf, b)`.
    pub fn parse(s: &str) -> Result<Self, String> {
        let s = s.trim();
        let bad = || format!("'{s}' is not an interval such as [0, 8], (1.5, 3] or (6, inf)");
        let lo_closed = match s.chars().next() {
            Some('[') => true,
            Some('(') => false,
            _ => return Err(bad()),
        };
        let hi_closed = match s.chars().last() {
            Some(']') => true,
            Some(')') => false,
            _ => return Err(bad()),
        };
        let inner = &s[1..s.len() - 1];
        let (a, b) = inner.split_once(',').ok_or_else(bad)?;
        let num = |t: &str| -> Result<f64, String> {
            match t.trim() {
                "inf" | "+inf" => Ok(f64::INFINITY),
                "-inf" => Ok(f64::NEG_INFINITY),
                t => t.parse::<f64>().map_err(|_| bad()),
            }
        };
        let (lo, hi) = (num(a)?, num(b)?);
        if lo.is_infinite() && lo_closed || hi.is_infinite() && hi_closed {
            return Err(format!("'{s}': an infinite end must be open"));
        }
        if lo > hi || (lo == hi && !(lo_closed && hi_closed)) {
            return Err(format!("'{s}' is empty"));
        }
        Ok(Interval { lo, lo_closed, hi, hi_closed })
    }

    pub fn contains(&self, x: f64) -> bool {
        (x > self.lo || (self.lo_closed && x == self.lo)) && (x < self.hi || (self.hi_closed && x == self.hi))
    }

    /// The smallest and largest integers inside, if any.
    pub fn integer_span(&self) -> Option<(f64, f64)> {
        let first = if self.lo_closed { self.lo.ceil() } else { self.lo.floor() + 1.0 };
        let last = if self.hi_closed { self.hi.floor() } else { self.hi.ceil() - 1.0 };
        (first <= last).then_some((first, last))
    }
}

impl fmt::Display for Interval {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let end = |x: f64| {
            if x.is_infinite() { if x > 0.0 { "inf".into() } else { "-inf".into() } } else { format!("{x}") }
        };
        write!(
            f,
            "{}{}, {}{}",
            if self.lo_closed { '[' } else { '(' },
            end(self.lo),
            end(self.hi),
            if self.hi_closed { ']' } else { ')' }
        )
    }
}

#[derive(Debug, Clone)]
pub struct Bin {
    pub interval: Interval,
    pub value: f64,
    pub tag: Option<String>,
}

#[derive(Debug, Clone)]
pub struct RangeTable {
    pub id: String,
    pub round_input: bool,
    /// Sorted by lower end; validated to tile the domain without gap or overlap.
    pub bins: Vec<Bin>,
    /// Upper ends of every bin but the last, when they strictly increase (always, once tiling is
    /// checked): the lookup then counts the ends `x` lies beyond, without branches.
    ends: Option<Vec<End>>,
    /// The same ends as strict thresholds (`x ≥ hi` is `x > hi⁻`, the double below), padded with
    /// +∞, when there are at most [`WIDE`]: a fixed-width count the compiler unrolls.
    wide: Option<[f64; WIDE]>,
}

const WIDE: usize = 8;

#[derive(Debug, Clone, Copy)]
struct End {
    hi: f64,
    open: bool,
}

impl RangeTable {
    pub fn new(id: String, round_input: bool, bins: Vec<Bin>) -> RangeTable {
        let his: Vec<End> = bins
            .iter()
            .take(bins.len().saturating_sub(1))
            .map(|b| End { hi: b.interval.hi, open: !b.interval.hi_closed })
            .collect();
        let increasing = his.windows(2).all(|w| w[0].hi < w[1].hi);
        let wide = (increasing && his.len() <= WIDE && his.iter().all(|e| e.hi.is_finite())).then(|| {
            let mut t = [f64::INFINITY; WIDE];
            for (t, e) in t.iter_mut().zip(&his) {
                *t = if e.open { e.hi.next_down() } else { e.hi };
            }
            t
        });
        RangeTable { id, round_input, bins, ends: increasing.then_some(his), wide }
    }

    /// The upper ends of every bin but the last — all a lookup compares its input with — when
    /// they increase (always, once tiling is checked).
    pub fn ends(&self) -> Option<impl Iterator<Item = f64> + '_> {
        self.ends.as_ref().map(|e| e.iter().map(|e| e.hi))
    }

    /// Index of the bin holding `x` (nearest bin outside the domain; the first for NaN).
    #[inline]
    pub fn bin_index(&self, x: f64) -> usize {
        let x = if self.round_input { round(x) } else { x };
        if let Some(t) = &self.wide {
            return t.iter().map(|&t| (x > t) as usize).sum();
        }
        if let Some(ends) = &self.ends {
            // The first bin whose upper end is not behind `x` is the number of ends behind it,
            // since the ends increase; NaN is behind none. Branch-free: lookups sit in every
            // pipeline and their bins are unpredictable.
            return ends.iter().map(|e| ((x > e.hi) | (e.open & (x >= e.hi))) as usize).sum();
        }
        self.scan(x)
    }

    /// The reference lookup: the first bin whose upper end is not behind `x`.
    fn scan(&self, x: f64) -> usize {
        for (i, b) in self.bins.iter().enumerate() {
            let below_hi = x < b.interval.hi || (b.interval.hi_closed && x == b.interval.hi);
            if below_hi {
                return i;
            }
        }
        if x.is_nan() { 0 } else { self.bins.len() - 1 }
    }

    #[inline]
    pub fn value(&self, x: f64) -> f64 {
        self.bins[self.bin_index(x)].value
    }

    pub fn tag(&self, x: f64) -> Option<&str> {
        self.bins[self.bin_index(x)].tag.as_deref()
    }

    /// Checks that bins tile their domain: sorted, no gap, no overlap (on integers when the input
    /// is rounded). Returns (bin index, message) per problem.
    pub fn check_tiling(&self) -> Vec<(usize, String)> {
        let mut problems = Vec::new();
        for i in 1..self.bins.len() {
            let (a, b) = (&self.bins[i - 1].interval, &self.bins[i].interval);
            if self.round_input {
                let (Some((_, a_last)), Some((b_first, _))) = (a.integer_span(), b.integer_span()) else {
                    problems.push((i, format!("bin {b} holds no integer, but this table rounds its input")));
                    continue;
                };
                if b_first <= a_last {
                    problems.push((i, format!("bin {b} overlaps {a} (both hold {b_first})")));
                } else if b_first > a_last + 1.0 {
                    problems.push((i, format!("gap between {a} and {b}: {} falls in no bin", a_last + 1.0)));
                }
            } else if b.lo < a.hi || (b.lo == a.hi && a.hi_closed && b.lo_closed) {
                problems.push((i, format!("bin {b} overlaps {a}")));
            } else if b.lo > a.hi || (b.lo == a.hi && !a.hi_closed && !b.lo_closed) {
                problems.push((i, format!("gap between {a} and {b}")));
            }
        }
        problems
    }
}

/// Inside expressions a table of a non-finite argument is not a value: NaN carries the fault on
/// to the stage that called it, which the pipeline then reports (its bins would hide it).
impl Lookup for RangeTable {
    #[inline]
    fn lookup(&self, x: f64) -> f64 {
        if x.is_finite() { self.value(x) } else { f64::NAN }
    }
}

/// A piecewise-linear curve through anchor points (the document's "interpolate linearly"),
/// flat beyond its ends.
#[derive(Debug, Clone)]
pub struct Curve {
    pub id: String,
    pub points: Vec<(f64, f64)>,
}

impl Curve {
    pub fn at(&self, x: f64) -> f64 {
        let p = &self.points;
        if x.is_nan() || x <= p[0].0 {
            return p[0].1;
        }
        for w in p.windows(2) {
            let ((x0, y0), (x1, y1)) = (w[0], w[1]);
            if x <= x1 {
                return y0 + (y1 - y0) * (x - x0) / (x1 - x0);
            }
        }
        p[p.len() - 1].1
    }
}

impl Lookup for Curve {
    fn lookup(&self, x: f64) -> f64 {
        if x.is_finite() { self.at(x) } else { f64::NAN }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn table(round_input: bool, bins: &[(&str, f64)]) -> RangeTable {
        RangeTable::new(
            "t".into(),
            round_input,
            bins.iter().map(|(r, v)| Bin { interval: Interval::parse(r).unwrap(), value: *v, tag: None }).collect(),
        )
    }

    #[test]
    fn parses_intervals() {
        let i = Interval::parse("(1.5, 3]").unwrap();
        assert!(!i.contains(1.5) && i.contains(1.6) && i.contains(3.0) && !i.contains(3.01));
        let i = Interval::parse("(6, inf)").unwrap();
        assert!(i.contains(1e9) && !i.contains(6.0));
        assert!(Interval::parse("[1, inf]").is_err());
        assert!(Interval::parse("[3, 1]").is_err());
        assert!(Interval::parse("1, 3").is_err());
        assert_eq!(Interval::parse("[0, 8]").unwrap().integer_span(), Some((0.0, 8.0)));
        assert_eq!(Interval::parse("(0.5, 3)").unwrap().integer_span(), Some((1.0, 2.0)));
    }

    #[test]
    fn continuous_lookup_respects_closed_ends() {
        let t = table(false, &[("[0, 1.5]", -3.0), ("(1.5, 3]", -2.0), ("(3, 6]", 0.0), ("(6, inf)", 1.0)]);
        assert!(t.check_tiling().is_empty());
        assert_eq!(t.value(1.5), -3.0);
        assert_eq!(t.value(1.51), -2.0);
        assert_eq!(t.value(6.0), 0.0);
        assert_eq!(t.value(6.01), 1.0);
        assert_eq!(t.value(-4.0), -3.0, "below the domain takes the first bin");
    }

    #[test]
    fn rounded_lookup_uses_integer_bins() {
        let t = table(true, &[("[0, 8]", 2.0), ("[9, 14]", 1.0), ("[15, 22]", 0.0), ("[23, inf)", -2.0)]);
        assert!(t.check_tiling().is_empty());
        assert_eq!(t.value(8.49), 2.0);
        assert_eq!(t.value(8.5), 1.0, "8.5 m rounds to 9 m");
        assert_eq!(t.value(22.4), 0.0);
    }

    fn sample_tables() -> Vec<RangeTable> {
        vec![
            table(false, &[("[0, 1.5]", -3.0), ("(1.5, 3]", -2.0), ("(3, 6]", 0.0), ("(6, inf)", 1.0)]),
            table(
                false,
                &[("(-inf, 10)", 0.5), ("[10, 25)", 0.7), ("[25, 40)", 0.9), ("[40, 60)", 1.0), ("[60, inf)", 1.1)],
            ),
            table(false, &[("[0, 45]", 0.0), ("(45, 90]", -1.0), ("(90, 135]", -2.0), ("(135, 180]", -3.0)]),
            table(
                true,
                &[("(-inf, -4]", -2.0), ("[-3, -1]", -1.0), ("[0, 2]", 0.0), ("[3, 5]", 1.0), ("[6, inf)", 2.0)],
            ),
            table(
                true,
                &[("(-inf, -4]", 0.0), ("[-3, -3]", 1.0), ("[-2, -2]", 2.0), ("[-1, -1]", 3.0), ("[0, inf)", 4.0)],
            ),
            table(true, &[("[0, 8]", 2.0)]),
            // More ends than the fixed-width count holds: the loop over them.
            table(
                false,
                &[
                    ("(-inf, 1]", 0.0),
                    ("(1, 2)", 1.0),
                    ("[2, 3]", 2.0),
                    ("(3, 4)", 3.0),
                    ("[4, 5]", 4.0),
                    ("(5, 6]", 5.0),
                    ("(6, 7)", 6.0),
                    ("[7, 8]", 7.0),
                    ("(8, 9]", 8.0),
                    ("(9, 10)", 9.0),
                    ("[10, inf)", 10.0),
                ],
            ),
        ]
    }

    proptest::proptest! {
        /// The branch-free lookup is the scan, bin for bin, on and around every end.
        #[test]
        fn fast_lookup_is_the_scan(pick in 0usize..7, x in -300.0f64..300.0, end in 0usize..12, nudge in -3i32..=3) {
            let t = &sample_tables()[pick];
            proptest::prop_assert!(t.ends.is_some());
            proptest::prop_assert_eq!(t.wide.is_some(), pick < 6);
            proptest::prop_assert_eq!(t.bin_index(x), t.scan(if t.round_input { round(x) } else { x }));
            let hi = t.bins[end % t.bins.len()].interval.hi;
            if hi.is_finite() {
                // Around the end, and on it and one double either side.
                for near in [hi + f64::from(nudge) * 0.25, hi, hi.next_up(), hi.next_down()] {
                    let r = if t.round_input { round(near) } else { near };
                    proptest::prop_assert_eq!(t.bin_index(near), t.scan(r), "{}", near);
                }
            }
        }
    }

    #[test]
    fn fast_lookup_handles_non_finite_inputs_like_the_scan() {
        for t in sample_tables() {
            for x in [f64::NAN, f64::INFINITY, f64::NEG_INFINITY, f64::MAX, f64::MIN] {
                let r = if t.round_input { round(x) } else { x };
                assert_eq!(t.bin_index(x), t.scan(r), "{x} in {:?}", t.bins);
            }
        }
    }

    #[test]
    fn finds_gaps_and_overlaps() {
        let gap = table(false, &[("[0, 1]", 0.0), ("(1.5, 3]", 1.0)]);
        assert_eq!(gap.check_tiling().len(), 1);
        let overlap = table(false, &[("[0, 2]", 0.0), ("[2, 3]", 1.0)]);
        assert_eq!(overlap.check_tiling().len(), 1);
        let int_gap = table(true, &[("[0, 8]", 0.0), ("[10, 14]", 1.0)]);
        assert!(int_gap.check_tiling()[0].1.contains("9 falls in no bin"));
        let int_overlap = table(true, &[("[0, 9]", 0.0), ("[9, 14]", 1.0)]);
        assert!(int_overlap.check_tiling()[0].1.contains("overlaps"));
    }

    #[test]
    fn curve_interpolates_linearly_and_is_flat_outside() {
        let c = Curve { id: "cap".into(), points: vec![(15.0, 5000.0), (17.0, 8000.0), (19.0, 12000.0)] };
        assert_eq!(c.at(16.0), 6500.0);
        assert_eq!(c.at(17.0), 8000.0);
        assert_eq!(c.at(10.0), 5000.0);
        assert_eq!(c.at(40.0), 12000.0);
    }
}
