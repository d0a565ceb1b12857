//! The match state: 22 players, the ball, the clock and the score. Hashed after every round so a
//! replay can name the first round that differs.

use super::geometry::V2;
use microfut_core::ruleset::Inputs;
use microfut_core::state_hash::XorMulRot29;

/// The line a player plays in, from his role (content) — the engine only needs the line.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Line {
    Goalkeeper,
    Defence,
    Midfield,
    Attack,
}

impl Line {
    /// The engine's line for a content line id; `None` for a line the engine does not know (a
    /// revision naming one is refused when it loads).
    pub fn from_id(id: &str) -> Option<Line> {
        match id {
            "goalkeeper" => Some(Line::Goalkeeper),
            "defence" => Some(Line::Defence),
            "midfield" => Some(Line::Midfield),
            "attack" => Some(Line::Attack),
            _ => None,
        }
    }

    pub fn id(self) -> &'static str {
        match self {
            Line::Goalkeeper => "goalkeeper",
            Line::Defence => "defence",
            Line::Midfield => "midfield",
            Line::Attack => "attack",
        }
    }
}

#[derive(Debug, Clone)]
pub struct Player {
    pub team: usize,
    /// Index of the sheet in the club's squad.
    pub sheet: usize,
    pub shirt: u32,
    /// Formation slot (base position and role).
    pub slot: usize,
    pub line: Line,
    /// Vocabulary values of this player; context slots are overwritten before each use. An angle
    /// only range tables read may hold a stand-in from its bin (`geometry::AnglePlan`), not the
    /// exact angle: read angles from positions, not from here.
    pub inputs: Inputs,
    pub pos: V2,
    /// Body direction (unit), or zero when neutral.
    pub dir: V2,
    pub stamina: f64,
    /// Consecutive rounds without moving (from `neutral_after_still_rounds` on: neutral orientation,
    /// document §5).
    pub still: u8,
    /// Positioning error from the last positioning test (document §32).
    pub error: V2,
    /// The carrier who beat this defender and the round it happened (baseline §10); he stays beaten
    /// for `beaten_rounds` after it (`Match::still_beaten`).
    pub beaten_by: Option<(usize, u32)>,
    pub distance_covered: f64,
    /// This round's movement, for stamina and orientation.
    pub moved: f64,
    pub pace: usize,
    pub duel: bool,
    pub with_ball: bool,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RestartKind {
    KickOff,
    ThrowIn,
    GoalKick,
    Corner,
    FreeKick,
    Penalty,
    /// 0.6: after impeding (a foul content tags `indirect`): no shot straight at goal.
    IndirectFreeKick,
}

impl RestartKind {
    pub fn name(self) -> &'static str {
        match self {
            RestartKind::KickOff => "kick_off",
            RestartKind::ThrowIn => "throw_in",
            RestartKind::GoalKick => "goal_kick",
            RestartKind::Corner => "corner",
            RestartKind::FreeKick => "free_kick",
            RestartKind::Penalty => "penalty",
            RestartKind::IndirectFreeKick => "indirect_free_kick",
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Restart {
    pub kind: RestartKind,
    pub team: usize,
    /// World coordinates.
    pub spot: V2,
    /// The player to take it, when the rules name one (the fouled player, the keeper).
    pub taker: Option<usize>,
}

#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Ball {
    Held(usize),
    Loose,
    Dead(Restart),
}

#[derive(Debug, Clone)]
pub struct State {
    pub players: Vec<Player>,
    pub ball: V2,
    pub ball_state: Ball,
    /// The team last in control of the ball.
    pub possession: usize,
    /// The team that touched the ball last (for restarts).
    pub last_touch: usize,
    pub score: [u32; 2],
    /// 0-based half.
    pub half: u32,
    /// Seconds played in this half.
    pub clock: f64,
    pub round: u32,
    /// Whether each team attacks towards x = pitch length in this half.
    pub attacks_right: [bool; 2],
    pub finished: bool,
    /// Rounds each team held the ball (possession share).
    pub possession_rounds: [u32; 2],
}

impl State {
    pub fn holder(&self) -> Option<usize> {
        match self.ball_state {
            Ball::Held(p) => Some(p),
            _ => None,
        }
    }

    pub fn minute(&self, half_seconds: f64) -> f64 {
        (self.half as f64 * half_seconds + self.clock) / 60.0
    }

    /// A hash of every field a round can change, including how far the dice have moved
    /// (what a run record stores after every round).
    pub fn hash(&self, dice_draws: u64) -> u64 {
        let mut h = XorMulRot29::new();
        h.u64(self.round as u64);
        h.u64(self.half as u64);
        h.f64(self.clock);
        h.u64(self.score[0] as u64);
        h.u64(self.score[1] as u64);
        h.f64(self.ball.x);
        h.f64(self.ball.y);
        match self.ball_state {
            Ball::Held(p) => h.u64(1000 + p as u64),
            Ball::Loose => h.u64(2000),
            Ball::Dead(r) => {
                h.u64(3000 + r.kind as u64 * 10 + r.team as u64);
                h.f64(r.spot.x);
                h.f64(r.spot.y);
            }
        }
        h.u64(self.possession as u64);
        h.u64(self.last_touch as u64);
        h.u64(dice_draws);
        for p in &self.players {
            h.f64(p.pos.x);
            h.f64(p.pos.y);
            h.f64(p.dir.x);
            h.f64(p.dir.y);
            h.f64(p.stamina);
            h.f64(p.error.x);
            h.f64(p.error.y);
            h.u64(p.still as u64);
            h.u64(p.beaten_by.map_or(0, |(c, r)| 1 + c as u64 * 100_000 + r as u64));
        }
        h.finish()
    }
}

/// A stable 64-bit hash of a few integers (decision noise; never the dice).
pub fn mix(parts: &[u64]) -> u64 {
    let mut h = XorMulRot29::new();
    for p in parts {
        h.u64(*p);
    }
    // Finalise (splitmix64) so nearby inputs spread over the whole range.
    let mut z = h.finish().wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}
