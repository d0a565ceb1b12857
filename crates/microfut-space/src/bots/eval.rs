//! The value of a position for a side: a weighted sum of features, the weights from content
//! (`bots.json#/evaluation`). The greedy bot maximises it one action ahead; the search bot at its
//! horizon. Reads only the board: no dice, no state.

use crate::board::{Board, Side};
use crate::compile::{Actions, Evaluation};

/// Worth more than any position: a won match. Wins found sooner score higher (`WIN - ply`).
pub const WIN: f64 = 1e9;

/// Features of a position from `side`'s point of view (own minus opponent's).
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Features {
    pub robot: f64,
    pub progress: f64,
    pub ball_held: f64,
    pub carrier_progress: f64,
    pub carrier_threatened: f64,
    pub loose_ball_reach: f64,
}

pub fn features(b: &Board, side: Side, acts: &Actions) -> Features {
    let other = side.other();
    let n = b.n();
    let mut f = Features { robot: f64::from(b.count(side)) - f64::from(b.count(other)), ..Features::default() };
    let mut progress = 0i32;
    for r in 1..=n {
        let (mine, theirs) = (b.row_mask(side, r).count_ones() as i32, b.row_mask(other, r).count_ones() as i32);
        progress += mine * i32::from(b.progress(side, r)) - theirs * i32::from(b.progress(other, r));
    }
    f.progress = f64::from(progress);
    let ball = b.ball();
    match b.holder() {
        Some(h) => {
            let sign = if h == side { 1.0 } else { -1.0 };
            f.ball_held = sign;
            f.carrier_progress = sign * f64::from(b.progress(h, ball.row));
            if threatened(b, h, acts) {
                f.carrier_threatened = -sign;
            }
        }
        None => {
            f.loose_ball_reach = f64::from(reach(b, side)) - f64::from(reach(b, other));
        }
    }
    f
}

/// Whether the opponent of the holder `h` can take or free the ball next action: a robot of
/// theirs on a diagonal behind the carrier (from their side: ahead of them) or, for a suicide
/// attack, two rows before it.
fn threatened(b: &Board, h: Side, acts: &Actions) -> bool {
    let o = h.other();
    let ball = b.ball();
    let (r, c) = (i32::from(ball.row), i32::from(ball.col));
    let back = -o.forward();
    (acts.attack && (b.has(o, r + back, c - 1) || b.has(o, r + back, c + 1)))
        || (acts.suicide_attack && (-1..=1).any(|dc| b.has(o, r + 2 * back, c + dc)))
}

/// Rows between a loose ball and the nearest robot of `side` that can still reach it (behind it
/// and within a column per row); `n + 2` when none can.
fn reach(b: &Board, side: Side) -> u8 {
    let ball = b.ball();
    let target = b.progress(side, ball.row);
    let mut best = b.n() + 2;
    for sq in b.robots(side) {
        let p = b.progress(side, sq.row);
        if p < target {
            let dr = target - p;
            if sq.col.abs_diff(ball.col) <= dr && dr < best {
                best = dr;
            }
        }
    }
    best
}

/// The position's value for `side`.
#[inline]
pub fn evaluate(b: &Board, side: Side, acts: &Actions, w: &Evaluation) -> f64 {
    let f = features(b, side, acts);
    w.robot * f.robot
        + w.progress * f.progress
        + w.ball_held * f.ball_held
        + w.carrier_progress * f.carrier_progress
        + w.carrier_threatened * f.carrier_threatened
        + w.loose_ball_reach * f.loose_ball_reach
}
