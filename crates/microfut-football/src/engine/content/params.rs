//! The engine's numeric parameters, declared once: each field *is* the content parameter of the
//! same id, so a field cannot drift from the id it reads (0.5's loader read
//! `pass_imprecise_offset_per_margin` into `pass_imprecise_per_margin`, and twenty more like it).
//! Each must be in the revision, or, for a published revision that predates it, in the
//! revision's entry of the ruleset's `upgrades.json`.

use super::{ContentError, MAX_HELPERS, param_error};
use crate::engine::geometry::V2;
use microfut_core::ruleset::Ruleset;

macro_rules! params {
    ($( $(#[doc = $doc:literal])* $field:ident, )*) => {
        /// Numbers the engine's geometry and orchestration use.
        #[derive(Debug, Clone, Copy)]
        pub struct Params {
            $( $(#[doc = $doc])* pub $field: f64, )*
        }

        impl Params {
            /// Every parameter id the engine reads as a number, in the order it reads them.
            pub const IDS: &'static [&'static str] = &[$(stringify!($field)),*];

            /// Reads every parameter by its field's name, in declaration order (the order
            /// missing names are reported in).
            pub(super) fn load(read: impl Fn(&str) -> Result<f64, ContentError>) -> Result<Params, ContentError> {
                Ok(Params { $( $field: read(stringify!($field))?, )* })
            }
        }
    };
}

params! {
    pressure_extra_radius,
    shot_dx_floor,
    stamina_start,
    stamina_max,
    half_time_recovery,
    pass_imprecise_offset_per_margin,
    pass_misplaced_offset_min,
    pass_misplaced_offset_max,
    loose_ball_min,
    loose_ball_max,
    rebound_min,
    rebound_max,
    deflection_min,
    deflection_max,
    clearance_min,
    clearance_max,
    aerial_contest_radius,
    keeper_claim_radius,
    positioning_error_per_margin,
    save_rule,
    interception_rule,
    block_rule,
    penalty_spot_distance,
    restart_distance,
    goal_kick_spot_x,
    tackle_reach,
    loose_ball_reach,
    pass_min_distance,
    pace_sprint_gap,
    pace_reposition_gap,
    pos_follow_x,
    pos_follow_y,
    pos_attack_shift,
    pos_defence_shift,
    pos_width_attack,
    pos_width_defence,
    pos_verticality_push,
    pos_security_drop,
    pos_late_push,
    pos_late_minute,
    pos_min_x,
    pos_last_line_margin,
    press_count,
    press_radius,
    press_goal_side,
    mark_radius,
    mark_weight,
    mark_goal_side,
    support_distance,
    support_count,
    support_angle,
    gk_depth,
    gk_depth_per_ball_metre,
    gk_max_depth,
    cross_min_x,
    cross_min_wide,
    cross_landing_depth,
    cross_landing_offset,
    header_max_distance,
    shot_max_distance,
    shot_post_inset,
    dribble_trigger_distance,
    dribble_beyond,
    /// A defender taken on contests the carrier from up to this many tackle reaches away.
    take_on_reach_factor,
    /// A player who moved less than this (m) in a round stood still.
    still_threshold,
    /// Rounds standing still after which a player's body is neutral (no facing).
    neutral_after_still_rounds,
    /// A player this close (m) to his destination is there.
    arrival_tolerance,
    /// An urgent player sprints while farther than this share of his running range.
    urgent_sprint_share,
    /// A pass arriving farther than this many loose-ball reaches from its receiver is loose.
    receive_reach_factor,
    /// Carries shorter than this (m) are not offered.
    carry_min_range,
    /// Half-angle (°) of the cone ahead in which an opponent can be taken on.
    dribble_cone,
    /// Cross runners spread over this many lanes around the landing point …
    cross_runner_lanes,
    /// … this far apart along the pitch (m) …
    cross_runner_step_x,
    /// … and across it (m).
    cross_runner_step_y,
    /// A headed clearance leaves within ± this angle (°) of the line away from goal.
    clearance_spread,
    /// A parried shot rebounds within ± this angle (°) of the line back to the shooter.
    parry_spread,
    /// At a penalty, everyone but the taker and the keeper stands this far (m) outside the box.
    penalty_box_clearance,
    /// Supporting runs stay this far (m) inside the touchlines.
    touchline_margin,
    /// The share of a ball's path at either end that belongs to the passer and the receiver:
    /// nobody closer to an end than this intercepts it (0.6; engine 0.5.2 kept 0.02 in code).
    intercept_line_end,
    /// At kick-off every player stands at least this far (m) inside his own half.
    kickoff_line_gap,
    /// A defender a carrier took on and beat stays beaten for this many rounds after that round:
    /// he does not challenge the carrier, does not block his carries, and is covered (engine 0.5.12;
    /// 0.5.11 kept 1 in code).
    beaten_rounds,
}

impl Params {
    /// Where a keeper stands for a ball at `ball`, in front of his goal `goal` (any frame):
    /// on the ball–goal line, deeper the farther the ball (document §29).
    pub fn keeper_spot(&self, goal: V2, ball: V2) -> V2 {
        let depth = (self.gk_depth + self.gk_depth_per_ball_metre * ball.dist(goal)).min(self.gk_max_depth);
        goal + (ball - goal).unit() * depth
    }
}

impl Params {
    /// What the engine's own structures need of the numbers.
    pub(super) fn check(&self, r: &Ruleset) -> Result<(), ContentError> {
        // Positioning keeps its pressers and supporters in fixed arrays.
        for (id, v) in [("press_count", self.press_count), ("support_count", self.support_count)] {
            if !(0.0..=MAX_HELPERS as f64).contains(&v) {
                return Err(param_error(r, id, format!("'{id}' is {v}; the match engine supports 0 to {MAX_HELPERS}")));
            }
        }
        if self.cross_runner_lanes.is_nan() || self.cross_runner_lanes < 1.0 {
            return Err(param_error(
                r,
                "cross_runner_lanes",
                format!("'cross_runner_lanes' is {}; at least 1 lane is needed", self.cross_runner_lanes),
            ));
        }
        // Stamina is kept within [0, max].
        if self.stamina_max.is_nan() || self.stamina_max < 0.0 {
            return Err(param_error(
                r,
                "stamina_max",
                format!("'stamina_max' is {}; stamina runs from 0 up", self.stamina_max),
            ));
        }
        Ok(())
    }
}
