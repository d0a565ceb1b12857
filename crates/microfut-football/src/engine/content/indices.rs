//! The pipelines the match engine runs, as indices, and the variables it sets, as slots:
//! resolved by name once, so the engine never looks a name up while playing.

use super::names::Names;
use super::{ContentError, NpcDoc};
use microfut_core::ruleset::{PipelineKind, Ruleset, split_source};

/// Pipeline indices.
#[derive(Debug, Clone, Copy)]
pub struct Pipes {
    pub control: usize,
    pub pass: usize,
    pub cross: usize,
    pub finishing: usize,
    pub header: usize,
    pub aerial_duel: usize,
    pub dribble: usize,
    pub tackle: usize,
    pub protection: usize,
    pub interception: usize,
    /// A defender's test to block a shot: the revision's `block` pipeline (engine 0.5.5), or the
    /// interception test when it has none (older revisions play as they did).
    pub block: usize,
    pub save: usize,
    pub claim: usize,
    pub positioning: usize,
    pub movement_range: usize,
    pub stamina_cost: usize,
    pub stamina_recovery: usize,
    pub opportunity: usize,
    pub danger: usize,
    pub adapt_risk_tolerance: Option<usize>,
    pub adapt_security: Option<usize>,
    pub adapt_verticality: Option<usize>,
}

/// Vocabulary slots the engine writes (context) or reads (derived values).
#[derive(Debug, Clone, Copy)]
pub struct Slots {
    pub distance: usize,
    pub angle: usize,
    pub orientation: usize,
    pub neutral_orientation: usize,
    pub nearest_opponent: usize,
    pub opponents_within_3m: usize,
    pub stamina: usize,
    pub q_rec: usize,
    pub q_int: usize,
    pub gk_position_error: usize,
    pub shot_distance: usize,
    pub shot_margin: usize,
    pub shot_speed: usize,
    pub pace: usize,
    pub with_ball: usize,
    pub direction_change: usize,
    pub physical_duel: usize,
    pub spot_x: usize,
    pub spot_y: usize,
    pub goal_diff: usize,
    pub minute: usize,
    pub range: usize,
    pub cross_range: usize,
    pub ball_speed: usize,
    pub interception_radius: usize,
    pub r_normal: usize,
    pub r_sprint: usize,
    /// 1 for the away side's players, 0 for the home side's (0.6: the home crowd's pressure
    /// reads it); absent in revisions that do not declare it.
    pub away_side: Option<usize>,
    /// The rounds the player's side has held the ball so far, and the rounds either side has
    /// (engine 0.5.10): set before each of his tests, so content can read how the match is going
    /// — 0.6.17's box defended by more bodies against a side that has the ball. Absent in
    /// revisions that do not declare them.
    pub ball_rounds: Option<usize>,
    pub match_rounds: Option<usize>,
}

impl Pipes {
    pub(super) fn load(names: &Names, ndoc: &NpcDoc) -> Pipes {
        let p = |id: &str| names.pipeline(id);
        let optional = |pointer: &str, id: &Option<String>| id.as_ref().map(|id| names.npc_pipeline(pointer, id));
        Pipes {
            control: p("control"),
            pass: p("pass"),
            cross: p("cross"),
            finishing: p("finishing"),
            header: p("header"),
            aerial_duel: p("aerial_duel"),
            dribble: p("dribble"),
            tackle: p("tackle"),
            protection: p("protection"),
            interception: p("interception"),
            // A defender's block is the interception test in revisions without a `block` pipeline.
            block: names.pipeline_or("block", "interception"),
            save: p("save"),
            claim: p("claim"),
            positioning: p("positioning"),
            movement_range: p("movement_range"),
            stamina_cost: p("stamina_cost"),
            stamina_recovery: p("stamina_recovery"),
            opportunity: names.npc_pipeline("/maps/opportunity", &ndoc.maps.opportunity),
            danger: names.npc_pipeline("/maps/danger", &ndoc.maps.danger),
            adapt_risk_tolerance: optional("/adaptation/risk_tolerance", &ndoc.adaptation.risk_tolerance),
            adapt_security: optional("/adaptation/security", &ndoc.adaptation.security),
            adapt_verticality: optional("/adaptation/verticality", &ndoc.adaptation.verticality),
        }
    }

    /// The tests the engine rolls must be action pipelines (rolled against the dice).
    pub(super) fn check_actions(&self, r: &Ruleset) -> Result<(), ContentError> {
        for (name, idx) in [
            ("control", self.control),
            ("pass", self.pass),
            ("cross", self.cross),
            ("finishing", self.finishing),
            ("header", self.header),
            ("aerial_duel", self.aerial_duel),
            ("dribble", self.dribble),
            ("tackle", self.tackle),
            ("protection", self.protection),
            ("interception", self.interception),
            ("block", self.block),
            ("save", self.save),
            ("claim", self.claim),
            ("positioning", self.positioning),
        ] {
            if r.pipelines[idx].kind != PipelineKind::Action {
                let (file, pointer) = split_source(&r.pipelines[idx].source);
                return Err(ContentError::at(
                    file,
                    pointer,
                    format!("pipeline '{name}' must be an action pipeline (rolled against the dice)"),
                ));
            }
        }
        Ok(())
    }
}

impl Slots {
    pub(super) fn load(names: &Names, r: &Ruleset) -> Slots {
        let v = |id: &str| names.var(id);
        Slots {
            distance: v("distance"),
            angle: v("angle"),
            orientation: v("orientation"),
            neutral_orientation: v("neutral_orientation"),
            nearest_opponent: v("nearest_opponent"),
            opponents_within_3m: v("opponents_within_3m"),
            stamina: v("stamina"),
            q_rec: v("q_rec"),
            q_int: v("q_int"),
            gk_position_error: v("gk_position_error"),
            shot_distance: v("shot_distance"),
            shot_margin: v("shot_margin"),
            shot_speed: v("shot_speed"),
            pace: v("pace"),
            with_ball: v("with_ball"),
            direction_change: v("direction_change"),
            physical_duel: v("physical_duel"),
            spot_x: v("spot_x"),
            spot_y: v("spot_y"),
            goal_diff: v("goal_diff"),
            minute: v("minute"),
            range: v("range"),
            cross_range: v("cross_range"),
            ball_speed: v("ball_speed"),
            interception_radius: v("interception_radius"),
            r_normal: v("r_normal"),
            r_sprint: v("r_sprint"),
            away_side: r.var("away_side"),
            ball_rounds: r.var("ball_rounds"),
            match_rounds: r.var("match_rounds"),
        }
    }

    /// The variables the engine writes during a match (sheet values never change): a pipeline
    /// that reads few of them repeats its results.
    pub(super) fn written(&self) -> [usize; 21] {
        [
            self.distance,
            self.angle,
            self.orientation,
            self.neutral_orientation,
            self.nearest_opponent,
            self.opponents_within_3m,
            self.stamina,
            self.q_rec,
            self.q_int,
            self.gk_position_error,
            self.shot_distance,
            self.shot_margin,
            self.shot_speed,
            self.pace,
            self.with_ball,
            self.direction_change,
            self.physical_duel,
            self.spot_x,
            self.spot_y,
            self.goal_diff,
            self.minute,
        ]
    }
}
