//! Exact XP amounts: rationals over `i128`.
//!
//! The document asks progression to "preserve fractions of XP" (§16). Multipliers (0.85, 0.7…) and
//! support shares (25 %, 15 %, 10 %) are decimals, and paying a level mid-award divides by a
//! multiplier, so amounts are kept as reduced fractions: ten thousand awards of 0.1 XP make exactly
//! 1,000 XP. Content numbers enter through their shortest decimal text (`0.85` → 17/20), never
//! through the binary value of the `f64`.

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::cmp::Ordering;
use std::fmt;

/// An exact amount of XP. Always reduced, denominator positive.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Xp {
    num: i128,
    den: i128,
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum XpError {
    #[error("'{0}' is not an XP amount (write 400, 12.5 or 17/20)")]
    Parse(String),
    #[error("XP arithmetic overflowed")]
    Overflow,
    #[error("division of XP by zero")]
    DivisionByZero,
}

fn gcd(a: i128, b: i128) -> i128 {
    // Unsigned, so that i128::MIN cannot overflow an absolute value.
    let (mut a, mut b) = (a.unsigned_abs(), b.unsigned_abs());
    while b != 0 {
        (a, b) = (b, a % b);
    }
    i128::try_from(a).unwrap_or(i128::MAX)
}

impl Xp {
    pub const ZERO: Xp = Xp { num: 0, den: 1 };

    pub fn new(num: i128, den: i128) -> Result<Xp, XpError> {
        if den == 0 {
            return Err(XpError::DivisionByZero);
        }
        let g = gcd(num, den).max(1);
        let (mut n, mut d) = (num / g, den / g);
        if d < 0 {
            n = n.checked_neg().ok_or(XpError::Overflow)?;
            d = d.checked_neg().ok_or(XpError::Overflow)?;
        }
        Ok(Xp { num: n, den: d })
    }

    pub fn int(n: i64) -> Xp {
        Xp { num: n as i128, den: 1 }
    }

    /// A content number, read through its shortest decimal text (`0.85` is exactly 17/20).
    pub fn from_content(x: f64) -> Result<Xp, XpError> {
        if !x.is_finite() {
            return Err(XpError::Parse(x.to_string()));
        }
        // Rust prints f64 without exponent and with the shortest text that reads back the same.
        Xp::parse(&format!("{x}"))
    }

    /// `400`, `-12.25`, `17/20`.
    pub fn parse(text: &str) -> Result<Xp, XpError> {
        let t = text.trim();
        let bad = || XpError::Parse(text.to_string());
        if let Some((n, d)) = t.split_once('/') {
            let n: i128 = n.trim().parse().map_err(|_| bad())?;
            let d: i128 = d.trim().parse().map_err(|_| bad())?;
            return if d == 0 { Err(bad()) } else { Xp::new(n, d) };
        }
        let (neg, body) = match t.strip_prefix('-') {
            Some(rest) => (true, rest),
            None => (false, t.strip_prefix('+').unwrap_or(t)),
        };
        let (int, frac) = body.split_once('.').unwrap_or((body, ""));
        if int.is_empty() && frac.is_empty()
            || !int.chars().all(|c| c.is_ascii_digit())
            || !frac.chars().all(|c| c.is_ascii_digit())
            || frac.len() > 30
        {
            return Err(bad());
        }
        let digits = format!("{int}{frac}");
        let n: i128 = if digits.is_empty() { 0 } else { digits.parse().map_err(|_| bad())? };
        let d = 10i128.checked_pow(frac.len() as u32).ok_or_else(bad)?;
        Xp::new(if neg { -n } else { n }, d)
    }

    pub fn checked_add(self, o: Xp) -> Result<Xp, XpError> {
        let g = gcd(self.den, o.den);
        let l = (self.den / g).checked_mul(o.den).ok_or(XpError::Overflow)?;
        let a = self.num.checked_mul(l / self.den).ok_or(XpError::Overflow)?;
        let b = o.num.checked_mul(l / o.den).ok_or(XpError::Overflow)?;
        Xp::new(a.checked_add(b).ok_or(XpError::Overflow)?, l)
    }

    pub fn checked_sub(self, o: Xp) -> Result<Xp, XpError> {
        self.checked_add(Xp { num: o.num.checked_neg().ok_or(XpError::Overflow)?, den: o.den })
    }

    pub fn checked_mul(self, o: Xp) -> Result<Xp, XpError> {
        // Cross-reduce first so intermediate products stay small.
        let g1 = gcd(self.num, o.den).max(1);
        let g2 = gcd(o.num, self.den).max(1);
        let n = (self.num / g1).checked_mul(o.num / g2).ok_or(XpError::Overflow)?;
        let d = (self.den / g2).checked_mul(o.den / g1).ok_or(XpError::Overflow)?;
        Xp::new(n, d)
    }

    pub fn checked_div(self, o: Xp) -> Result<Xp, XpError> {
        if o.num == 0 {
            return Err(XpError::DivisionByZero);
        }
        self.checked_mul(Xp { num: o.den, den: o.num }.normalised()?)
    }

    fn normalised(self) -> Result<Xp, XpError> {
        Xp::new(self.num, self.den)
    }

    pub fn is_zero(&self) -> bool {
        self.num == 0
    }
    pub fn is_positive(&self) -> bool {
        self.num > 0
    }

    /// An integer amount of XP, exactly (a budget up to `u64::MAX`).
    pub fn whole(n: i128) -> Xp {
        Xp { num: n, den: 1 }
    }

    /// For people, exactly: `18,446,744,073,709,211,640`, `26,666.67` (fractions to the cent,
    /// half up), `-1,050`.
    pub fn grouped(&self) -> String {
        let (neg, a, d) = (self.num < 0, self.num.unsigned_abs(), self.den.unsigned_abs());
        let (mut whole, rem) = (a / d, a % d);
        // Cents of the remainder, half up; `rem < d`, so `rem * 200` overflows only for
        // denominators no content decimal produces — then the float is close enough.
        let mut cents = match rem.checked_mul(200) {
            Some(r2) => (r2 / d).div_ceil(2),
            None => ((rem as f64 / d as f64) * 100.0).round() as u128,
        };
        if cents == 100 {
            whole += 1;
            cents = 0;
        }
        let digits = whole.to_string();
        let mut s = String::new();
        for (i, ch) in digits.chars().enumerate() {
            if i > 0 && (digits.len() - i).is_multiple_of(3) {
                s.push(',');
            }
            s.push(ch);
        }
        if cents > 0 {
            s.push_str(&format!(".{cents:02}"));
        }
        if neg && (whole > 0 || cents > 0) { format!("-{s}") } else { s }
    }

    pub fn to_f64(&self) -> f64 {
        self.num as f64 / self.den as f64
    }

    /// Whether the value is a terminating decimal (denominator of the form 2^a·5^b).
    fn decimal_places(&self) -> Option<u32> {
        let mut d = self.den;
        let (mut twos, mut fives) = (0u32, 0u32);
        while d % 2 == 0 {
            d /= 2;
            twos += 1;
        }
        while d % 5 == 0 {
            d /= 5;
            fives += 1;
        }
        (d == 1).then_some(twos.max(fives))
    }
}

impl Default for Xp {
    fn default() -> Self {
        Xp::ZERO
    }
}

impl PartialOrd for Xp {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Xp {
    fn cmp(&self, other: &Self) -> Ordering {
        // a/b vs c/d with b, d > 0: compare a·d with c·b, widening through the sign-magnitude
        // split when the products would overflow.
        match (self.num.checked_mul(other.den), other.num.checked_mul(self.den)) {
            (Some(l), Some(r)) => l.cmp(&r),
            _ => self.to_f64().partial_cmp(&other.to_f64()).unwrap_or(Ordering::Equal),
        }
    }
}

/// Integers as `400`, terminating decimals as `12.25`, anything else as `1234/17`.
impl fmt::Display for Xp {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.den == 1 {
            return write!(f, "{}", self.num);
        }
        match self.decimal_places() {
            Some(places) if places <= 30 => {
                let scale = 10i128.pow(places);
                match self.num.checked_mul(scale / self.den) {
                    Some(scaled) => {
                        let sign = if scaled < 0 { "-" } else { "" };
                        let a = scaled.unsigned_abs();
                        let s = scale as u128;
                        write!(f, "{sign}{}.{:0width$}", a / s, a % s, width = places as usize)
                    }
                    None => write!(f, "{}/{}", self.num, self.den),
                }
            }
            _ => write!(f, "{}/{}", self.num, self.den),
        }
    }
}

impl Serialize for Xp {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.to_string())
    }
}

impl<'de> Deserialize<'de> for Xp {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        #[derive(Deserialize)]
        #[serde(untagged)]
        enum Raw {
            Text(String),
            Int(i64),
            Float(f64),
        }
        match Raw::deserialize(d)? {
            Raw::Text(t) => Xp::parse(&t).map_err(serde::de::Error::custom),
            Raw::Int(i) => Ok(Xp::int(i)),
            Raw::Float(x) => Xp::from_content(x).map_err(serde::de::Error::custom),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn x(s: &str) -> Xp {
        Xp::parse(s).unwrap()
    }

    #[test]
    fn parses_and_prints() {
        assert_eq!(x("400").to_string(), "400");
        assert_eq!(x("12.50").to_string(), "12.5");
        assert_eq!(x("-0.05").to_string(), "-0.05");
        assert_eq!(x("17/20").to_string(), "0.85");
        assert_eq!(x("20/17").to_string(), "20/17");
        assert_eq!(x(".5"), x("1/2"));
        assert!(Xp::parse("1e3").is_err());
        assert!(Xp::parse("abc").is_err());
        assert!(Xp::parse("1/0").is_err());
        assert!(Xp::parse("").is_err());
    }

    #[test]
    fn content_numbers_are_read_as_written() {
        assert_eq!(Xp::from_content(0.85).unwrap(), x("17/20"));
        assert_eq!(Xp::from_content(0.1).unwrap(), x("1/10"));
        assert_eq!(Xp::from_content(1200.0).unwrap(), Xp::int(1200));
    }

    #[test]
    fn grouped_is_exact_for_the_largest_budget() {
        let left = Xp::whole(u64::MAX as i128).checked_sub(Xp::int(339_975)).unwrap();
        assert_eq!(left.grouped(), "18,446,744,073,709,211,640");
        assert_eq!(x("-1050").grouped(), "-1,050");
        assert_eq!(x("80000/3").grouped(), "26,666.67");
        assert_eq!(x("0.995").grouped(), "1");
        assert_eq!(x("0.004").grouped(), "0");
        assert_eq!(x("12.5").grouped(), "12.50");
    }

    #[test]
    fn arithmetic_is_exact() {
        let mut sum = Xp::ZERO;
        for _ in 0..10_000 {
            sum = sum.checked_add(x("0.1")).unwrap();
        }
        assert_eq!(sum, Xp::int(1000));
        let third = Xp::int(1).checked_div(Xp::int(3)).unwrap();
        assert_eq!(third.checked_mul(Xp::int(3)).unwrap(), Xp::int(1));
        assert!(x("0.3") > x("1/4"));
        assert_eq!(x("2").checked_sub(x("2.5")).unwrap(), x("-0.5"));
    }
}
