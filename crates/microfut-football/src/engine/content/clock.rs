//! The match clock: how long a round, a half and each restart last.

use super::names::Names;
use super::{ContentError, MAX_ROUNDS, param_error};
use microfut_core::ruleset::Ruleset;

#[derive(Debug, Clone, Copy)]
pub struct Clock {
    pub round_seconds: f64,
    pub half_seconds: f64,
    pub halves: u32,
    pub throw_in: f64,
    pub goal_kick: f64,
    pub corner: f64,
    pub free_kick: f64,
    pub kickoff_after_goal: f64,
}

impl Clock {
    pub(super) fn load(names: &Names) -> Clock {
        let n = |id: &str| names.param(id);
        Clock {
            round_seconds: n("round_seconds"),
            half_seconds: n("half_minutes") * 60.0,
            halves: n("halves") as u32,
            throw_in: n("restart_throw_in"),
            goal_kick: n("restart_goal_kick"),
            corner: n("restart_corner"),
            free_kick: n("restart_free_kick"),
            kickoff_after_goal: n("restart_kickoff_after_goal"),
        }
    }

    /// The clock must run and end.
    pub(super) fn check(&self, r: &Ruleset) -> Result<(), ContentError> {
        // The clock must run and end: positive lengths, at least one half, and no more rounds
        // than the engine keeps (`MAX_ROUNDS`, a capacity — domains keep content well below it).
        for (id, v) in [("round_seconds", self.round_seconds), ("half_minutes", self.half_seconds)] {
            if v.is_nan() || v <= 0.0 {
                return Err(param_error(r, id, format!("the clock needs a positive '{id}', not {v}")));
            }
        }
        let halves = r.param("halves").unwrap_or(f64::NAN);
        if halves.is_nan() || halves < 1.0 || halves.fract() != 0.0 {
            return Err(param_error(
                r,
                "halves",
                format!("a match needs a whole number of halves, at least 1, not {halves}"),
            ));
        }
        let rounds = (self.half_seconds / self.round_seconds).ceil() * halves;
        if rounds > MAX_ROUNDS as f64 {
            return Err(param_error(
                r,
                "half_minutes",
                format!(
                    "{halves} halves of {} min in rounds of {} s make {rounds} rounds; the match engine plays at most {MAX_ROUNDS}",
                    self.half_seconds / 60.0,
                    self.round_seconds
                ),
            ));
        }
        Ok(())
    }
}
