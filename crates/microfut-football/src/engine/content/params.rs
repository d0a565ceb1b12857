//! The engine's numeric parameters, declared once: each field *is* the content parameter of the
//! same id, so a field cannot drift from the id it reads (0.5's loader read
//! `pass_imprecise_offset_per_margin` into `pass_imprecise_per_margin`, and twenty more like it).
//! `required` parameters must be in the revision; `in_code` ones fall back, for revisions older
//! than their carrier, to the value engine 0.5.1 kept in code (`legacy.rs`).

use super::ContentError;
use crate::engine::geometry::V2;

macro_rules! params {
    ($( $(#[doc = $doc:literal])* $field:ident: $how:ident, )*) => {
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
            pub(super) fn load(
                required: impl Fn(&str) -> Result<f64, ContentError>,
                in_code: impl Fn(&str) -> Result<f64, ContentError>,
            ) -> Result<Params, ContentError> {
                Ok(Params { $( $field: params!(@read $how required in_code $field)?, )* })
            }
        }
    };
    (@read required $r:ident $c:ident $field:ident) => { $r(stringify!($field)) };
    (@read in_code $r:ident $c:ident $field:ident) => { $c(stringify!($field)) };
}

params! {
    pressure_extra_radius: required,
    shot_dx_floor: required,
    stamina_start: required,
    stamina_max: required,
    half_time_recovery: required,
    pass_imprecise_offset_per_margin: required,
    pass_misplaced_offset_min: required,
    pass_misplaced_offset_max: required,
    loose_ball_min: required,
    loose_ball_max: required,
    rebound_min: required,
    rebound_max: required,
    deflection_min: required,
    deflection_max: required,
    clearance_min: required,
    clearance_max: required,
    aerial_contest_radius: required,
    keeper_claim_radius: required,
    positioning_error_per_margin: required,
    save_rule: required,
    interception_rule: required,
    block_rule: required,
    penalty_spot_distance: required,
    restart_distance: required,
    goal_kick_spot_x: required,
    tackle_reach: required,
    loose_ball_reach: required,
    pass_min_distance: required,
    pace_sprint_gap: required,
    pace_reposition_gap: required,
    pos_follow_x: required,
    pos_follow_y: required,
    pos_attack_shift: required,
    pos_defence_shift: required,
    pos_width_attack: required,
    pos_width_defence: required,
    pos_verticality_push: required,
    pos_security_drop: required,
    pos_late_push: required,
    pos_late_minute: required,
    pos_min_x: required,
    pos_last_line_margin: required,
    press_count: required,
    press_radius: required,
    press_goal_side: required,
    mark_radius: required,
    mark_weight: required,
    mark_goal_side: required,
    support_distance: required,
    support_count: required,
    support_angle: required,
    gk_depth: required,
    gk_depth_per_ball_metre: required,
    gk_max_depth: required,
    cross_min_x: required,
    cross_min_wide: required,
    cross_landing_depth: required,
    cross_landing_offset: required,
    header_max_distance: required,
    shot_max_distance: required,
    shot_post_inset: required,
    dribble_trigger_distance: required,
    dribble_beyond: required,
    /// A defender taken on contests the carrier from up to this many tackle reaches away.
    take_on_reach_factor: in_code,
    /// A player who moved less than this (m) in a round stood still.
    still_threshold: in_code,
    /// Rounds standing still after which a player's body is neutral (no facing).
    neutral_after_still_rounds: in_code,
    /// A player this close (m) to his destination is there.
    arrival_tolerance: in_code,
    /// An urgent player sprints while farther than this share of his running range.
    urgent_sprint_share: in_code,
    /// A pass arriving farther than this many loose-ball reaches from its receiver is loose.
    receive_reach_factor: in_code,
    /// Carries shorter than this (m) are not offered.
    carry_min_range: in_code,
    /// Half-angle (°) of the cone ahead in which an opponent can be taken on.
    dribble_cone: in_code,
    /// Cross runners spread over this many lanes around the landing point …
    cross_runner_lanes: in_code,
    /// … this far apart along the pitch (m) …
    cross_runner_step_x: in_code,
    /// … and across it (m).
    cross_runner_step_y: in_code,
    /// A headed clearance leaves within ± this angle (°) of the line away from goal.
    clearance_spread: in_code,
    /// A parried shot rebounds within ± this angle (°) of the line back to the shooter.
    parry_spread: in_code,
    /// At a penalty, everyone but the taker and the keeper stands this far (m) outside the box.
    penalty_box_clearance: in_code,
    /// Supporting runs stay this far (m) inside the touchlines.
    touchline_margin: in_code,
    /// The share of a ball's path at either end that belongs to the passer and the receiver:
    /// nobody closer to an end than this intercepts it (0.6; engine 0.5.2 kept 0.02 in code).
    intercept_line_end: in_code,
    /// At kick-off every player stands at least this far (m) inside his own half.
    kickoff_line_gap: in_code,
    /// A defender a carrier took on and beat stays beaten for this many rounds after that round:
    /// he does not challenge the carrier, does not block his carries, and is covered (engine 0.5.12;
    /// 0.5.11 kept 1 in code).
    beaten_rounds: in_code,
}

impl Params {
    /// Where a keeper stands for a ball at `ball`, in front of his goal `goal` (any frame):
    /// on the ball–goal line, deeper the farther the ball (document §29).
    pub fn keeper_spot(&self, goal: V2, ball: V2) -> V2 {
        let depth = (self.gk_depth + self.gk_depth_per_ball_metre * ball.dist(goal)).min(self.gk_max_depth);
        goal + (ball - goal).unit() * depth
    }
}
