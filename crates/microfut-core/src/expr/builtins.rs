//! The functions content expressions may call, with the rules document's semantics.
//!
//! Rounding is decimal-faithful: coefficients such as 0.45 or 0.65 are not exact in binary, so
//! `round(0.65*13 + 0.35*9)` could land a hair below a true .5. A value within
//! [`DECIMAL_TOLERANCE`] of the boundary counts as on it. This is arithmetic hygiene, not a rule.

/// How close to a rounding boundary counts as on it.
pub const DECIMAL_TOLERANCE: f64 = 1e-9;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Builtin {
    Round,
    Floor,
    Ceil,
    Clamp,
    Min,
    Max,
    Abs,
    Sqrt,
    Atan2,
    Hypot,
    If,
}

impl Builtin {
    pub const ALL: [Builtin; 11] = [
        Builtin::Round,
        Builtin::Floor,
        Builtin::Ceil,
        Builtin::Clamp,
        Builtin::Min,
        Builtin::Max,
        Builtin::Abs,
        Builtin::Sqrt,
        Builtin::Atan2,
        Builtin::Hypot,
        Builtin::If,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Builtin::Round => "round",
            Builtin::Floor => "floor",
            Builtin::Ceil => "ceil",
            Builtin::Clamp => "clamp",
            Builtin::Min => "min",
            Builtin::Max => "max",
            Builtin::Abs => "abs",
            Builtin::Sqrt => "sqrt",
            Builtin::Atan2 => "atan2",
            Builtin::Hypot => "hypot",
            Builtin::If => "if",
        }
    }

    pub fn by_name(name: &str) -> Option<Builtin> {
        Builtin::ALL.into_iter().find(|b| b.name() == name)
    }

    /// (minimum, maximum) number of arguments; `None` = unbounded.
    pub fn arity(self) -> (usize, Option<usize>) {
        match self {
            Builtin::Round | Builtin::Floor | Builtin::Ceil | Builtin::Abs | Builtin::Sqrt => (1, Some(1)),
            Builtin::Atan2 | Builtin::Hypot => (2, Some(2)),
            Builtin::Clamp | Builtin::If => (3, Some(3)),
            Builtin::Min | Builtin::Max => (1, None),
        }
    }
}

/// Exact floor: a truncating cast for the magnitudes content uses, libm beyond (and for NaN).
/// floor is exactly specified by IEEE 754, so this is the same number on every platform.
#[inline]
fn exact_floor(y: f64) -> f64 {
    if y.abs() < 4.0e15 {
        let t = y as i64 as f64;
        if t > y { t - 1.0 } else { t }
    } else {
        libm::floor(y)
    }
}

/// The document's round: nearest integer, x.5 rounds up (so round(-2.5) = -2).
#[inline]
pub fn round(x: f64) -> f64 {
    exact_floor(x + 0.5 + DECIMAL_TOLERANCE)
}

#[inline]
pub fn floor(x: f64) -> f64 {
    exact_floor(x + DECIMAL_TOLERANCE)
}

#[inline]
pub fn ceil(x: f64) -> f64 {
    -exact_floor(-(x - DECIMAL_TOLERANCE))
}

/// clamp(min, max, x) in the document's argument order.
#[inline]
pub fn clamp(lo: f64, hi: f64, x: f64) -> f64 {
    if x < lo {
        lo
    } else if x > hi {
        hi
    } else {
        x
    }
}

/// atan2 in degrees: every angle in content is in degrees.
#[inline]
pub fn atan2_deg(y: f64, x: f64) -> f64 {
    libm::atan2(y, x).to_degrees()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_is_half_up() {
        assert_eq!(round(2.5), 3.0);
        assert_eq!(round(-2.5), -2.0);
        assert_eq!(round(2.49), 2.0);
        assert_eq!(round(-2.51), -3.0);
        assert_eq!(round(11.5), 12.0);
        // 0.15*4 + 0.35*14 is 5.5 in decimal but 5.499999999999999 in binary.
        let sum = std::hint::black_box(0.15) * 4.0 + 0.35 * 14.0;
        assert!(sum < 5.5);
        assert_eq!(round(sum), 6.0);
    }

    #[test]
    fn floor_and_ceil_match_libm() {
        for x in [-7.5, -7.0, -0.3, 0.0, 0.3, 2.0, 2.999, 1e17, -1e17, 123456.75] {
            assert_eq!(exact_floor(x), libm::floor(x), "{x}");
            assert_eq!(ceil(x), libm::ceil(x), "{x}");
        }
        assert!(exact_floor(f64::NAN).is_nan());
        assert_eq!(exact_floor(f64::INFINITY), f64::INFINITY);
    }

    #[test]
    fn clamp_uses_document_order() {
        assert_eq!(clamp(3.0, 17.0, 22.0), 17.0);
        assert_eq!(clamp(3.0, 17.0, -1.0), 3.0);
        assert_eq!(clamp(3.0, 17.0, 9.0), 9.0);
    }

    #[test]
    fn atan2_is_in_degrees() {
        assert!((atan2_deg(1.0, 1.0) - 45.0).abs() < 1e-12);
        assert_eq!(atan2_deg(0.0, 5.0), 0.0);
    }
}
