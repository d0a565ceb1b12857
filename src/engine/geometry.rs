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

/// Distance from `p` to the segment `a`–`b`, and where along it (0 at `a`, 1 at `b`) the nearest
/// point lies.
/// The share of a ball's path at either end that belongs to the passer and the receiver: a
/// player closer to an end than this stands at the end, not on the line between (geometry, not
/// a rule: it only keeps the two ends themselves out).
pub const LINE_END: f64 = 0.02;

pub fn to_segment(p: V2, a: V2, b: V2) -> (f64, f64) {
    let ab = b - a;
    let l2 = ab.dot(ab);
    if l2 == 0.0 {
        return (p.dist(a), 0.0);
    }
    let t = ((p - a).dot(ab) / l2).clamp(0.0, 1.0);
    (p.dist(a + ab * t), t)
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
        let (d, t) = to_segment(V2::new(5.0, 3.0), V2::new(0.0, 0.0), V2::new(10.0, 0.0));
        assert_eq!((d, t), (3.0, 0.5));
        let (d, t) = to_segment(V2::new(-4.0, 3.0), V2::new(0.0, 0.0), V2::new(10.0, 0.0));
        assert_eq!((d, t), (5.0, 0.0));
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
