//! Plane geometry on the pitch. Distances in metres; angles in degrees (as in content).
//!
//! Every team reasons in its own *attacking frame*: x runs from its own goal line (0) to the
//! opponent's (pitch length), so content maps (threat, danger, formations) are written once.
//! A half-turn of the pitch converts between frames.

use serde::{Deserialize, Serialize};
use std::ops::{Add, Mul, Sub};

#[derive(Debug, Clone, Copy, PartialEq, Default, Serialize, Deserialize)]
pub struct V2 {
    pub x: f64,
    pub y: f64,
}

impl V2 {
    pub const ZERO: V2 = V2 { x: 0.0, y: 0.0 };

    pub const fn new(x: f64, y: f64) -> V2 {
        V2 { x, y }
    }
    /// Length. `sqrt` is exactly rounded by IEEE 754, so this is the same on every platform;
    /// pitch coordinates cannot overflow, so `hypot`'s care is not needed.
    pub fn len(self) -> f64 {
        (self.x * self.x + self.y * self.y).sqrt()
    }
    pub fn dist(self, o: V2) -> f64 {
        (self - o).len()
    }
    /// Squared distance: `dist` is its square root, bit for bit.
    pub fn dist2(self, o: V2) -> f64 {
        let d = self - o;
        d.x * d.x + d.y * d.y
    }
    pub fn dot(self, o: V2) -> f64 {
        self.x * o.x + self.y * o.y
    }
    /// Unit vector, or zero for a zero vector.
    pub fn unit(self) -> V2 {
        let l = self.len();
        if l > 0.0 { self * (1.0 / l) } else { V2::ZERO }
    }
    /// The point `d` metres from `self` towards `to` (not beyond it).
    pub fn toward(self, to: V2, d: f64) -> V2 {
        let gap = self.dist(to);
        if gap <= d || gap == 0.0 { to } else { self + (to - self) * (d / gap) }
    }
    /// Unit vector at `deg` degrees (0 = +x, counter-clockwise).
    pub fn from_angle(deg: f64) -> V2 {
        let r = deg.to_radians();
        V2::new(libm::cos(r), libm::sin(r))
    }
    /// Direction of this vector in degrees.
    pub fn angle(self) -> f64 {
        libm::atan2(self.y, self.x).to_degrees()
    }
    /// Rotated by `deg` degrees.
    pub fn rotated(self, deg: f64) -> V2 {
        self.turned(Turn::of(deg))
    }
    /// Rotated by a turn whose sine and cosine are already known.
    pub fn turned(self, t: Turn) -> V2 {
        V2::new(self.x * t.cos - self.y * t.sin, self.x * t.sin + self.y * t.cos)
    }
}

/// A rotation, kept as its sine and cosine (fixed rotations are computed once).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Turn {
    pub sin: f64,
    pub cos: f64,
}

impl Turn {
    pub fn of(deg: f64) -> Turn {
        Turn { sin: libm::sin(deg.to_radians()), cos: libm::cos(deg.to_radians()) }
    }
}

impl Add for V2 {
    type Output = V2;
    fn add(self, o: V2) -> V2 {
        V2::new(self.x + o.x, self.y + o.y)
    }
}
impl Sub for V2 {
    type Output = V2;
    fn sub(self, o: V2) -> V2 {
        V2::new(self.x - o.x, self.y - o.y)
    }
}
impl Mul<f64> for V2 {
    type Output = V2;
    fn mul(self, k: f64) -> V2 {
        V2::new(self.x * k, self.y * k)
    }
}

/// Unsigned angle between two directions, 0–180°; 0 when either is zero (no preference).
pub fn angle_between(a: V2, b: V2) -> f64 {
    let (la, lb) = (a.len(), b.len());
    if la == 0.0 || lb == 0.0 {
        return 0.0;
    }
    let c = (a.dot(b) / (la * lb)).clamp(-1.0, 1.0);
    libm::acos(c).to_degrees()
}

/// How to give a pipeline the angle between two directions when it only reads the angle through
/// range tables (`Ruleset::table_bounds`): every table compares it with the same few ends, so the
/// angle's cosine can be compared with theirs instead of taking `acos` (9 % of a match, otherwise).
/// The input then holds a value strictly between the same two ends as the exact angle — the
/// pipelines see the same bins, bit for bit — and the exact angle whenever the cosine lies
/// within a hair of an end's.
#[derive(Debug, Clone, PartialEq)]
pub struct AnglePlan {
    /// Cosines of the ends, which lie strictly inside (0°, 180°) and increase: the cosines fall.
    cos: Vec<f64>,
    /// `reps[j]`: a value beyond exactly `j` ends (between end j−1 and end j).
    reps: Vec<f64>,
}

/// How near (in cosine) to an end the exact angle is taken: far above the errors of `acos`,
/// `cos` and degrees (~1e-15), far below any difference content could mean.
const ANGLE_GUARD: f64 = 1e-9;

impl AnglePlan {
    /// A plan for angles read only through bins ending at `ends`, or `None` when an end lies
    /// where angles cannot be told apart by their cosine alone (at or beyond 0° or 180°).
    pub fn new(ends: &[f64]) -> Option<AnglePlan> {
        if ends.iter().any(|&e| !(e > 1e-3 && e < 180.0 - 1e-3)) || ends.windows(2).any(|w| w[0] >= w[1]) {
            return None;
        }
        let cos = ends.iter().map(|&e| libm::cos(e.to_radians())).collect();
        let mut edges = vec![0.0];
        edges.extend_from_slice(ends);
        edges.push(180.0);
        let reps = edges.windows(2).map(|w| (w[0] + w[1]) / 2.0).collect();
        Some(AnglePlan { cos, reps })
    }

    /// [`angle_between`], or a value the plan's tables cannot tell from it.
    #[inline]
    pub fn angle(&self, a: V2, b: V2) -> f64 {
        let (la, lb) = (a.len(), b.len());
        if la == 0.0 || lb == 0.0 {
            return 0.0;
        }
        let c = (a.dot(b) / (la * lb)).clamp(-1.0, 1.0);
        let mut beyond = 0;
        for &e in &self.cos {
            if (c - e).abs() <= ANGLE_GUARD {
                return libm::acos(c).to_degrees();
            }
            beyond += usize::from(c < e);
        }
        self.reps[beyond]
    }
}

/// Where along the segment `a`–`b` (0 at `a`, 1 at `b`) the point nearest to `p` lies; the
/// distance to the segment is `p.dist(a + (b - a) * t)`, for callers that need it.
pub fn along_segment(p: V2, a: V2, b: V2) -> f64 {
    let ab = b - a;
    let l2 = ab.dot(ab);
    if l2 == 0.0 {
        return 0.0;
    }
    ((p - a).dot(ab) / l2).clamp(0.0, 1.0)
}

/// `q.sqrt() <= r`, bit for bit, taking the square root only when `q` lies within a hair of
/// `r²` (`sqrt` is exactly rounded, so away from the boundary the squares decide).
#[inline]
pub fn sqrt_le(q: f64, r: f64) -> bool {
    // Tiny or negative bounds (squares underflowing) take the plain road.
    if r.is_nan() || r < 1e-100 {
        return q.sqrt() <= r;
    }
    let r2 = r * r;
    if q < r2 * (1.0 - 1e-9) {
        true
    } else if q > r2 * (1.0 + 1e-9) {
        false
    } else {
        q.sqrt() <= r
    }
}

/// The pitch as content describes it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Pitch {
    pub length: f64,
    pub width: f64,
    pub goal_y: f64,
    pub post_low: f64,
    pub post_high: f64,
    pub box_depth: f64,
    pub box_half_width: f64,
}

impl Pitch {
    /// A point in a team's attacking frame, seen from the other end (and back).
    pub fn turn(&self, p: V2) -> V2 {
        V2::new(self.length - p.x, self.width - p.y)
    }
    pub fn centre(&self) -> V2 {
        V2::new(self.length / 2.0, self.width / 2.0)
    }
    /// Centre of the goal attacked in an attacking frame.
    pub fn goal(&self) -> V2 {
        V2::new(self.length, self.goal_y)
    }
    pub fn own_goal(&self) -> V2 {
        V2::new(0.0, self.goal_y)
    }
    pub fn in_bounds(&self, p: V2) -> bool {
        p.x >= 0.0 && p.x <= self.length && p.y >= 0.0 && p.y <= self.width
    }
    pub fn clamp(&self, p: V2) -> V2 {
        V2::new(p.x.clamp(0.0, self.length), p.y.clamp(0.0, self.width))
    }
    /// Inside the penalty box the frame attacks.
    pub fn in_attacking_box(&self, p: V2) -> bool {
        p.x >= self.length - self.box_depth && (p.y - self.goal_y).abs() <= self.box_half_width
    }
    /// Inside the penalty box the frame defends.
    pub fn in_own_box(&self, p: V2) -> bool {
        p.x <= self.box_depth && (p.y - self.goal_y).abs() <= self.box_half_width
    }
    /// Shot angle α (document §5): atan2(|y − goal y|, max(floor, length − x)).
    pub fn shot_angle(&self, p: V2, dx_floor: f64) -> f64 {
        libm::atan2((p.y - self.goal_y).abs(), (self.length - p.x).max(dx_floor)).to_degrees()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn segment_distance() {
        let to_segment = |p: V2, a: V2, b: V2| {
            let t = along_segment(p, a, b);
            (p.dist(a + (b - a) * t), t)
        };
        let (d, t) = to_segment(V2::new(5.0, 3.0), V2::new(0.0, 0.0), V2::new(10.0, 0.0));
        assert_eq!((d, t), (3.0, 0.5));
        let (d, t) = to_segment(V2::new(-4.0, 3.0), V2::new(0.0, 0.0), V2::new(10.0, 0.0));
        assert_eq!((d, t), (5.0, 0.0));
        assert_eq!(along_segment(V2::new(1.0, 1.0), V2::new(2.0, 2.0), V2::new(2.0, 2.0)), 0.0);
    }

    #[test]
    fn comparing_squares_decides_as_the_square_root_does() {
        let mut x = 0x2545_f491_4f6c_dd1du64;
        let mut next = || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        };
        for _ in 0..200_000 {
            let r = (next() % 4_000_000) as f64 / 1e5;
            let q = match next() % 3 {
                // At the boundary, one ulp either side of it, and anywhere.
                0 => r * r,
                1 => f64::from_bits((r * r).to_bits().wrapping_add(next() % 5).wrapping_sub(2)),
                _ => (next() % 2_000_000_000) as f64 / 1e6,
            };
            assert_eq!(sqrt_le(q, r), q.sqrt() <= r, "q {q} r {r}");
        }
        for (q, r) in [(0.0, 0.0), (1e-300, 1e-160), (4.0, -2.0), (f64::NAN, 1.0), (1.0, f64::INFINITY)] {
            assert_eq!(sqrt_le(q, r), q.sqrt() <= r, "q {q} r {r}");
        }
        let (a, b) = (V2::new(3.25, -1.5), V2::new(-7.0, 12.125));
        assert_eq!(a.dist2(b).sqrt().to_bits(), a.dist(b).to_bits());
    }

    /// Every table comparing an angle with the plan's ends puts the plan's value in the exact
    /// angle's bin: on random directions, on directions exactly at the ends and a hair off them.
    #[test]
    fn an_angle_plan_keeps_every_bin() {
        let ends = [45.0, 90.0, 135.0];
        let plan = AnglePlan::new(&ends).expect("ends inside (0, 180)");
        let bin = |x: f64, closed: bool| ends.iter().filter(|&&e| if closed { x > e } else { x >= e }).count();
        let mut x = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            (x >> 11) as f64 / (1u64 << 53) as f64
        };
        let mut pairs = Vec::new();
        for _ in 0..100_000 {
            pairs.push((
                V2::new(next() * 20.0 - 10.0, next() * 20.0 - 10.0),
                V2::new(next() * 20.0 - 10.0, next() * 20.0 - 10.0),
            ));
        }
        for e in ends {
            for off in [0.0, 1e-12, 1e-9, 1e-7, 1e-5] {
                for sign in [-1.0, 1.0] {
                    let a = V2::new(next() * 3.0 + 0.1, next() * 3.0 - 1.5);
                    let turn = (e + sign * off).to_radians();
                    pairs.push((a, a.turned(Turn { sin: libm::sin(turn), cos: libm::cos(turn) })));
                }
            }
        }
        pairs.push((V2::ZERO, V2::new(1.0, 0.0)));
        for (a, b) in pairs {
            let (exact, planned) = (angle_between(a, b), plan.angle(a, b));
            for closed in [true, false] {
                assert_eq!(bin(exact, closed), bin(planned, closed), "{a:?} {b:?}: {exact} vs {planned}");
            }
            assert!((0.0..=180.0).contains(&planned));
        }
        assert_eq!(AnglePlan::new(&[0.0, 90.0]), None);
        assert_eq!(AnglePlan::new(&[90.0, 45.0]), None);
        assert_eq!(AnglePlan::new(&[]).map(|p| p.angle(V2::new(1.0, 0.0), V2::new(0.0, 1.0))), Some(90.0));
    }

    #[test]
    fn angles() {
        assert!((angle_between(V2::new(1.0, 0.0), V2::new(0.0, 2.0)) - 90.0).abs() < 1e-9);
        assert!((angle_between(V2::new(1.0, 0.0), V2::new(-1.0, 0.0)) - 180.0).abs() < 1e-9);
        assert_eq!(angle_between(V2::ZERO, V2::new(1.0, 0.0)), 0.0);
        assert!((V2::from_angle(90.0).rotated(-90.0).x - 1.0).abs() < 1e-12);
    }

    #[test]
    fn turning_the_pitch_twice_is_identity() {
        let p = Pitch {
            length: 105.0,
            width: 68.0,
            goal_y: 34.0,
            post_low: 30.34,
            post_high: 37.66,
            box_depth: 16.5,
            box_half_width: 20.16,
        };
        let a = V2::new(10.0, 20.0);
        assert_eq!(p.turn(p.turn(a)), a);
        assert_eq!(p.turn(a), V2::new(95.0, 48.0));
        assert!(p.in_attacking_box(V2::new(95.0, 34.0)) && !p.in_attacking_box(V2::new(80.0, 34.0)));
    }
}
