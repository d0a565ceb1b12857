//! Everything the match engine reads from a revision, resolved by name once per match setup.
//!
//! The engine never looks a name up while playing: pipelines become indices, variables slots,
//! tables shared handles, parameters numbers. A revision lacking something the engine needs is
//! refused here with a message naming the revision and the missing piece.

use super::geometry::{AnglePlan, Pitch};
use crate::sheet::Roles;
use microfut_core::catalog::{Diagnostic, declared_schema, escape_token};
use microfut_core::ruleset::{Missing, RangeTable, Ruleset};
use serde::Deserialize;
use std::sync::Arc;

mod documents;
pub(crate) mod lookup;
pub(crate) mod outcomes;
mod params;
mod plans;

pub use documents::*;
pub use lookup::ContentError;
pub(crate) use lookup::{doc, named_pipeline};
pub use outcomes::*;
pub use params::Params;
pub use plans::*;

pub(super) const BY: &str = "match engine";

/// A problem with a parameter's value, at `params.json#/params/N/value`.
fn param_error(rs: &Ruleset, id: &str, message: String) -> ContentError {
    match rs.params.iter().find(|p| p.id == id) {
        Some(p) => {
            let (file, pointer) = microfut_core::ruleset::split_source(&p.source);
            ContentError::at(file, format!("{pointer}/value"), message)
        }
        None => match rs.revision.upgrade.as_ref().filter(|u| u.params.contains_key(id)) {
            // A value the revision's entry in upgrades.json declares.
            Some(u) => ContentError::at(&u.file, format!("{}/params/{}", u.pointer, escape_token(id)), message),
            None => ContentError::at(rs.revision.file("manifest.json"), "", message),
        },
    }
}

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

/// A range table whose bins carry tags the engine acts on, mapped once to an engine enum.
#[derive(Debug, Clone)]
pub struct Tagged<T: Copy> {
    pub table: Arc<RangeTable>,
    by_bin: Vec<T>,
}

impl<T: Copy> Tagged<T> {
    fn new(rs: &Ruleset, id: &str, map: &[(&str, T)]) -> Result<Self, ContentError> {
        let table = rs.need_range_table(id, BY).map_err(|m| ContentError::Missing(vec![m]))?;
        let mut by_bin = Vec::new();
        for (i, b) in table.bins.iter().enumerate() {
            let tag = b.tag.as_deref().unwrap_or("");
            match map.iter().find(|(t, _)| *t == tag) {
                Some((_, v)) => by_bin.push(*v),
                None => {
                    let known: Vec<&str> = map.iter().map(|(t, _)| *t).collect();
                    let source = rs.table(id).map(|t| t.source.clone()).unwrap_or_default();
                    let (file, pointer) = microfut_core::ruleset::split_source(&source);
                    return Err(ContentError::at(
                        file,
                        format!("{pointer}/bins/{i}/tag"),
                        format!("table '{id}' has a bin tagged '{tag}'; the match engine knows {}", known.join(", ")),
                    ));
                }
            }
        }
        Ok(Tagged { table, by_bin })
    }

    #[inline]
    pub fn of(&self, x: f64) -> T {
        self.by_bin[self.table.bin_index(x)]
    }

    #[inline]
    pub fn value(&self, x: f64) -> f64 {
        self.table.value(x)
    }
}

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

/// A revision, compiled and resolved for the match engine.
pub struct Rules {
    pub rs: Arc<Ruleset>,
    pub pipes: Pipes,
    pub slots: Slots,
    pub pass_quality: Tagged<PassOutcome>,
    pub pass_q_int: Arc<RangeTable>,
    pub control_outcome: Tagged<ControlOutcome>,
    pub shot_outcome: Tagged<ShotOutcome>,
    pub save_outcome: Tagged<SaveOutcome>,
    pub tackle_outcome: Tagged<DuelOutcome>,
    pub foul_check: Tagged<FoulCall>,
    pub gk_placement: Arc<RangeTable>,
    pub clock: Clock,
    pub params: Params,
    pub pitch: Pitch,
    pub formations: Vec<Formation>,
    pub default_formation: usize,
    pub bench: Bench,
    /// 0.6; `None`: nobody comes off (and setup names no bench).
    pub substitutions: Option<Substitutions>,
    pub roles: Roles,
    pub npc: Npc,
    /// The `pace` values for reposition, run and sprint (from the vocabulary's named values).
    pub paces: [f64; 3],
    /// Exact duel odds by (carrier difficulty, defender difficulty), computed once.
    pub duels: DuelOdds,
    /// What each margin means for passes and shots, and each difficulty for a reception,
    /// tabulated once: the NPC's exact estimates sum over margins many times a match.
    pub margins: Margins,
    /// The context values stamina recovery reads (at most [`MEMO_KEY`]), when that is all it
    /// reads besides a player's sheet: its result can then be kept per player and context.
    pub recovery_memo: Option<Vec<usize>>,
    /// The context values movement range reads (at most [`RANGE_KEY`]), each with the sorted
    /// ends of the range tables it is read through when nothing else reads it: a player's range
    /// can then be kept per context, keyed by those bins (see `Match::movement_range`).
    pub range_memo: Option<Vec<(usize, Option<Vec<f64>>)>>,
    /// What a pass of each difficulty can do, for the NPC's exact pass estimates.
    pub pass_plans: PassPlans,
    /// Body orientation and direction change, when the revision reads them only through range
    /// tables: their bins come from cosines (see [`AnglePlan`]).
    pub orientation_plan: Option<AnglePlan>,
    pub direction_change_plan: Option<AnglePlan>,
    /// The set pieces (0.6), or `None`: 0.5's restarts.
    pub set_pieces: Option<super::set_pieces::SetPieces>,
    /// Without set pieces, the penalty taker is the outfield player with the best value of this
    /// variable (the revision's upgrade entry names it), resolved once; revisions with set
    /// pieces name their own rule.
    pub penalty_skill_without_set_pieces: Option<usize>,
    /// Behaviours a revision switches on by declaring their parameters.
    pub behaviours: Behaviours,
    /// The club personality scale (club rules), which the NPC's weights and the team shape
    /// multiply: a club outside it is refused before kick-off.
    pub club_personality: Option<[i32; 2]>,
    /// Issue 15's speed levers; each absent one keeps the engine's play bit for bit.
    pub levers: Levers,
}

/// The NPC may weigh less, as long as it plays as well (issue 15): content parameters that
/// trade a little precision in the NPC's estimates and off-ball positioning for speed. Each is
/// optional; absent, the engine plays exactly as before (older revisions replay unchanged).
#[derive(Debug, Clone, Default)]
pub struct Levers {
    /// `npc_pass_reach` (m): team-mates farther than this are not offered a pass, whatever the
    /// passer's range.
    pub pass_reach: Option<f64>,
    /// `positioning_cadence` (rounds, ≥ 2) with `positioning_near_radius` (m, default 0): an
    /// off-ball player farther than the radius from the ball, whose destination comes from the
    /// team shape, works it out again only every `cadence` rounds (staggered by player) and
    /// otherwise keeps walking to the last one.
    pub positioning: Option<(u32, f64)>,
    /// `npc_map_grid` (m): the opportunity and danger maps read from a table of their values
    /// on a grid of this spacing, interpolated bilinearly, instead of evaluated at each spot.
    pub map_grid: Option<MapGrid>,
}

/// Behaviours a revision switches on by declaring their parameters; each absent one leaves the
/// plainer play (and dice) of the revisions that do not declare it.
#[derive(Debug, Clone, Copy, Default)]
pub struct Behaviours {
    /// A defender in his own box commits a foul only with a margin this much worse.
    pub foul_box_offset: Option<f64>,
    /// Share of parried saves that go behind for a corner.
    pub parry_behind_share: Option<f64>,
    /// Share of headed clearances from crosses that go behind for a corner.
    pub clearance_behind_share: Option<f64>,
    /// How far goal-side of a carrier who has just beaten a defender the beaten man's nearest
    /// team-mate steps across to cover (m).
    pub cover_distance: Option<f64>,
    /// The foul check reads how badly the defender lost the duel (his margin minus the
    /// carrier's) instead of his own margin (0.5), when this is 1.
    pub foul_on_difference: bool,
    /// The share of the contacts the foul check calls that the referee gives (the rest play on).
    pub foul_share: Option<f64>,
    /// The share of the duels a defender wins outside his own box that the referee calls as a
    /// foul (he went through the man): a free kick for the carrier's side, not a tackle.
    pub tackle_foul_share: Option<f64>,
    /// Engine 0.5.9: how far the defending keeper moves towards his spot for the header while
    /// the cross is in the air, per metre the ball travels (m/m); absent, he meets the header
    /// where he stood for the cross.
    pub keeper_cross_reset: Option<f64>,
}

/// The key of `upgrades.json`'s `values` that says which skill picks the penalty taker of a
/// revision without set pieces.
pub const PENALTY_TAKER_SKILL: &str = "penalty_taker_skill";

/// The key of `upgrades.json`'s `values` that says where a revision whose `calibration.json`
/// has no `stage` staged its constructed situations.
pub const CALIBRATION_STAGE: &str = "calibration_stage";

/// The most players positioning sends to press the carrier, or to support him.
pub const MAX_HELPERS: usize = 4;

/// The most rounds a match may last: what the engine keeps per round (a state hash, events) is
/// held in memory. A capacity, not a rule: the clock's parameters' domains keep content far
/// below it (0.5.5: at most 4 halves of 60 min in rounds of 0.5 s, 28,800 rounds).
pub const MAX_ROUNDS: u32 = 100_000;

/// The most context values a memoised pipeline may read.
pub const MEMO_KEY: usize = 3;

/// The most context values movement range may read to be memoised (pace, with or without the
/// ball, direction change and stamina in every revision so far).
pub const RANGE_KEY: usize = 4;

/// Records a missing name and goes on with a stand-in, so that every missing name is found in
/// one pass (the stand-ins are never used: `Rules::new` stops before it reads them).
fn noted<T>(missing: &std::cell::RefCell<Vec<Missing>>, found: Result<T, Missing>, stand_in: T) -> T {
    found.unwrap_or_else(|m| {
        missing.borrow_mut().push(m);
        stand_in
    })
}

/// `npc.shot.expected_keeper` (`context` false: each name a value of a player's sheet),
/// `npc.shot.expected_context` or `npc.plan_context` (`context` true: each name a context value),
/// at JSON pointer `at` (its last segment names the field), each value inside its variable's
/// scale; what is wrong goes to `problems`, reported with the document's others.
fn expected_values(
    r: &Ruleset,
    file: &str,
    at: &str,
    values: Option<&std::collections::BTreeMap<String, f64>>,
    context: bool,
    problems: &mut Vec<Diagnostic>,
) -> Vec<(usize, f64)> {
    use microfut_core::ruleset::doc::VarKind;
    let field = at.rsplit('/').next().unwrap_or(at);
    let mut out = Vec::new();
    for (name, &v) in values.into_iter().flatten() {
        let pointer = format!("{at}/{name}");
        let Some(slot) = r.var(name) else {
            problems.push(Diagnostic::new(file, &pointer, format!("{field} names unknown variable '{name}'")));
            continue;
        };
        let var = &r.vars[slot];
        let kind_fits = match var.kind {
            VarKind::Context => context,
            VarKind::Identity => false,
            _ => !context,
        };
        if !kind_fits {
            let what = if context { "a context value" } else { "a value of a player's sheet" };
            problems.push(Diagnostic::new(file, &pointer, format!("{field} names '{name}', which is not {what}")));
        } else if !(v.is_finite() && v >= var.min && v <= var.max) {
            problems.push(Diagnostic::new(
                file,
                &pointer,
                format!("{field}.{name} must lie in its scale [{}, {}] (is {v})", var.min, var.max),
            ));
        } else {
            out.push((slot, v));
        }
    }
    out
}

/// Issue 15's levers, each read only when the revision declares it (see [`Levers`]).
fn levers(r: &Ruleset, pipes: &Pipes, slots: &Slots, pitch: &Pitch) -> Result<Levers, ContentError> {
    let positive = |id: &str| -> Result<Option<f64>, ContentError> {
        match r.param(id) {
            Some(v) if !(v > 0.0 && v.is_finite()) => {
                Err(param_error(r, id, format!("parameter '{id}' must be a positive number of metres (is {v})")))
            }
            v => Ok(v),
        }
    };
    let positioning = match r.param("positioning_cadence") {
        None => None,
        // Its range is the parameter's domain, in content; the engine needs only a whole count.
        Some(k) if k.fract() != 0.0 || k < 1.0 => {
            return Err(param_error(
                r,
                "positioning_cadence",
                format!("parameter 'positioning_cadence' is a whole number of rounds, 1 or more (is {k})"),
            ));
        }
        Some(k) => {
            let radius = match r.param("positioning_near_radius") {
                Some(v) if !(v >= 0.0 && v.is_finite()) => {
                    return Err(param_error(
                        r,
                        "positioning_near_radius",
                        format!("parameter 'positioning_near_radius' must be 0 or more metres (is {v})"),
                    ));
                }
                v => v.unwrap_or(0.0),
            };
            // A cadence of 1 is every round: the lever off.
            (k >= 2.0).then_some((k as u32, radius))
        }
    };
    let map_grid = match positive("npc_map_grid")? {
        None => None,
        Some(step) => Some(
            MapGrid::new(r, [pipes.opportunity, pipes.danger], [slots.spot_x, slots.spot_y], pitch, step)
                .map_err(|m| param_error(r, "npc_map_grid", m))?,
        ),
    };
    Ok(Levers { pass_reach: positive("npc_pass_reach")?, positioning, map_grid })
}

/// Range tables the engine reads by name.
const RANGE_TABLES: &[&str] = &[
    "tackle_outcome",
    "pass_quality",
    "pass_q_int",
    "control_outcome",
    "shot_outcome",
    "save_outcome",
    "foul_check",
    "gk_placement",
];

impl Rules {
    pub fn new(rs: Arc<Ruleset>) -> Result<Rules, ContentError> {
        let r = &*rs;
        let missing = std::cell::RefCell::new(Vec::new());
        let p = |id: &str| -> Result<usize, ContentError> { Ok(noted(&missing, r.need_pipeline(id, BY), 0)) };
        let v = |id: &str| -> Result<usize, ContentError> { Ok(noted(&missing, r.need_var(id, BY), 0)) };
        let n = |id: &str| -> Result<f64, ContentError> { Ok(noted(&missing, r.need_param(id, BY), f64::NAN)) };
        // A published revision that predates a parameter was played with the value its entry in
        // the ruleset's upgrades.json declares (content, keyed by fingerprint).
        let upgrade = r.revision.upgrade.as_ref();
        let n_or_upgrade = |id: &str| -> Result<f64, ContentError> {
            match r.param(id).or_else(|| upgrade.and_then(|u| u.params.get(id).copied())) {
                Some(v) => Ok(v),
                None => n(id),
            }
        };

        let (formations_file, fdoc) = doc::<FormationsDoc>(r, "formations.schema.json", "formations")?;
        let (npc_file, ndoc) = doc::<NpcDoc>(r, "npc.schema.json", "NPC utility")?;
        let roles =
            crate::sheet::Roles::from_revision(&r.revision).map_err(ContentError::Invalid)?.ok_or_else(|| {
                ContentError::NoDocument { revision: r.label(), what: "playing roles", schema: "roles.schema.json" }
            })?;
        // Names written in the NPC document: a wrong one is that document's problem, at its key.
        let misnamed = std::cell::RefCell::new(Vec::new());
        let named = |pointer: &str, id: &str| -> usize {
            named_pipeline(r, &npc_file, pointer, id).unwrap_or_else(|d| {
                misnamed.borrow_mut().push(d);
                0
            })
        };
        let optional = |pointer: &str, id: &Option<String>| id.as_ref().map(|id| named(pointer, id));
        let pipes = Pipes {
            control: p("control")?,
            pass: p("pass")?,
            cross: p("cross")?,
            finishing: p("finishing")?,
            header: p("header")?,
            aerial_duel: p("aerial_duel")?,
            dribble: p("dribble")?,
            tackle: p("tackle")?,
            protection: p("protection")?,
            interception: p("interception")?,
            block: match r.pipeline_index("block") {
                Some(i) => i,
                None => p("interception")?,
            },
            save: p("save")?,
            claim: p("claim")?,
            positioning: p("positioning")?,
            movement_range: p("movement_range")?,
            stamina_cost: p("stamina_cost")?,
            stamina_recovery: p("stamina_recovery")?,
            opportunity: named("/maps/opportunity", &ndoc.maps.opportunity),
            danger: named("/maps/danger", &ndoc.maps.danger),
            adapt_risk_tolerance: optional("/adaptation/risk_tolerance", &ndoc.adaptation.risk_tolerance),
            adapt_security: optional("/adaptation/security", &ndoc.adaptation.security),
            adapt_verticality: optional("/adaptation/verticality", &ndoc.adaptation.verticality),
        };
        let slots = Slots {
            distance: v("distance")?,
            angle: v("angle")?,
            orientation: v("orientation")?,
            neutral_orientation: v("neutral_orientation")?,
            nearest_opponent: v("nearest_opponent")?,
            opponents_within_3m: v("opponents_within_3m")?,
            stamina: v("stamina")?,
            q_rec: v("q_rec")?,
            q_int: v("q_int")?,
            gk_position_error: v("gk_position_error")?,
            shot_distance: v("shot_distance")?,
            shot_margin: v("shot_margin")?,
            shot_speed: v("shot_speed")?,
            pace: v("pace")?,
            with_ball: v("with_ball")?,
            direction_change: v("direction_change")?,
            physical_duel: v("physical_duel")?,
            spot_x: v("spot_x")?,
            spot_y: v("spot_y")?,
            goal_diff: v("goal_diff")?,
            minute: v("minute")?,
            range: v("range")?,
            cross_range: v("cross_range")?,
            ball_speed: v("ball_speed")?,
            interception_radius: v("interception_radius")?,
            r_normal: v("r_normal")?,
            r_sprint: v("r_sprint")?,
            away_side: r.var("away_side"),
            ball_rounds: r.var("ball_rounds"),
            match_rounds: r.var("match_rounds"),
        };
        let clock = Clock {
            round_seconds: n("round_seconds")?,
            half_seconds: n("half_minutes")? * 60.0,
            halves: n("halves")? as u32,
            throw_in: n("restart_throw_in")?,
            goal_kick: n("restart_goal_kick")?,
            corner: n("restart_corner")?,
            free_kick: n("restart_free_kick")?,
            kickoff_after_goal: n("restart_kickoff_after_goal")?,
        };
        let params = Params::load(n_or_upgrade)?;
        let pitch = Pitch {
            length: n("pitch_length")?,
            width: n("pitch_width")?,
            goal_y: n("goal_center_y")?,
            post_low: n("post_low_y")?,
            post_high: n("post_high_y")?,
            box_depth: n("box_depth")?,
            box_half_width: n("box_half_width")?,
        };
        for id in RANGE_TABLES {
            noted(&missing, r.need_range_table(id, BY).map(|_| ()), ());
        }
        // Every name looked up: report all the missing ones together, each name the NPC
        // document gives where it is written and each the engine itself needs where it belongs.
        // The set pieces' names are checked here too, so a revision with several wrong names
        // hears of all of them at once.
        let missing = missing.into_inner();
        let mut misnamed = misnamed.into_inner();
        let set_pieces = super::set_pieces::resolve(r);
        if !misnamed.is_empty() || (!missing.is_empty() && set_pieces.is_err()) {
            if let Err(e) = set_pieces {
                misnamed.extend(located(r, e));
            }
            misnamed.extend(missing.iter().map(|m| r.locate(m)));
            return Err(ContentError::Invalid(misnamed));
        }
        if !missing.is_empty() {
            return Err(ContentError::Missing(missing));
        }
        let set_pieces = set_pieces?;
        let pace_var = &r.vars[slots.pace];
        let pace = |name: &str| {
            pace_var.values.get(name).copied().ok_or_else(|| {
                let (file, pointer) = microfut_core::ruleset::split_source(&pace_var.source);
                ContentError::at(
                    file,
                    format!("{pointer}/values"),
                    format!("variable 'pace' has no named value '{name}'"),
                )
            })
        };
        let paces = [pace("reposition")?, pace("run")?, pace("sprint")?];

        // The clock must run and end: positive lengths, at least one half, and no more rounds
        // than the engine keeps (`MAX_ROUNDS`, a capacity — domains keep content well below it).
        for (id, v) in [("round_seconds", clock.round_seconds), ("half_minutes", clock.half_seconds)] {
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
        let rounds = (clock.half_seconds / clock.round_seconds).ceil() * halves;
        if rounds > MAX_ROUNDS as f64 {
            return Err(param_error(
                r,
                "half_minutes",
                format!(
                    "{halves} halves of {} min in rounds of {} s make {rounds} rounds; the match engine plays at most {MAX_ROUNDS}",
                    clock.half_seconds / 60.0,
                    clock.round_seconds
                ),
            ));
        }
        // Positioning keeps its pressers and supporters in fixed arrays.
        for (id, v) in [("press_count", params.press_count), ("support_count", params.support_count)] {
            if !(0.0..=MAX_HELPERS as f64).contains(&v) {
                return Err(param_error(r, id, format!("'{id}' is {v}; the match engine supports 0 to {MAX_HELPERS}")));
            }
        }
        if params.cross_runner_lanes.is_nan() || params.cross_runner_lanes < 1.0 {
            return Err(param_error(
                r,
                "cross_runner_lanes",
                format!("'cross_runner_lanes' is {}; at least 1 lane is needed", params.cross_runner_lanes),
            ));
        }
        // Stamina is kept within [0, max].
        if params.stamina_max.is_nan() || params.stamina_max < 0.0 {
            return Err(param_error(
                r,
                "stamina_max",
                format!("'stamina_max' is {}; stamina runs from 0 up", params.stamina_max),
            ));
        }
        for (name, idx) in [
            ("control", pipes.control),
            ("pass", pipes.pass),
            ("cross", pipes.cross),
            ("finishing", pipes.finishing),
            ("header", pipes.header),
            ("aerial_duel", pipes.aerial_duel),
            ("dribble", pipes.dribble),
            ("tackle", pipes.tackle),
            ("protection", pipes.protection),
            ("interception", pipes.interception),
            ("block", pipes.block),
            ("save", pipes.save),
            ("claim", pipes.claim),
            ("positioning", pipes.positioning),
        ] {
            if r.pipelines[idx].kind != microfut_core::ruleset::PipelineKind::Action {
                let (file, pointer) = microfut_core::ruleset::split_source(&r.pipelines[idx].source);
                return Err(ContentError::at(
                    file,
                    pointer,
                    format!("pipeline '{name}' must be an action pipeline (rolled against the dice)"),
                ));
            }
        }

        // The engine plays four lines; a role in another one would have no place in its play.
        if let Some(role) = roles.roles.iter().find(|x| super::state::Line::from_id(&x.line).is_none()) {
            let (roles_file, at) =
                match r.revision.documents.iter().find(|(_, d)| declared_schema(d) == Some("roles.schema.json")) {
                    Some((name, _)) => (
                        r.revision.file(name),
                        format!("/roles/{}/line", roles.roles.iter().position(|x| x.id == role.id).unwrap_or(0)),
                    ),
                    None => (r.revision.file("manifest.json"), String::new()),
                };
            return Err(ContentError::at(
                roles_file,
                at,
                format!(
                    "role '{}' is in line '{}', which the match engine does not know (it plays {})",
                    role.id,
                    role.line,
                    ["goalkeeper", "defence", "midfield", "attack"].join(", ")
                ),
            ));
        }
        for (id, v) in [("pitch_length", pitch.length), ("pitch_width", pitch.width)] {
            if v.is_nan() || v <= 0.0 {
                return Err(param_error(r, id, format!("the pitch needs a positive '{id}', not {v}")));
            }
        }

        let default_formation = fdoc.formations.iter().position(|f| f.id == fdoc.default).ok_or_else(|| {
            ContentError::at(
                &formations_file,
                "/default",
                format!("default formation '{}' is not defined", fdoc.default),
            )
        })?;
        let mut problems = Vec::new();
        for (i, f) in fdoc.formations.iter().enumerate() {
            let at = format!("/formations/{i}");
            if f.slots.iter().filter(|s| roles.line_of(&s.role) == Some("goalkeeper")).count() != 1 {
                problems.push(Diagnostic::new(
                    &formations_file,
                    format!("{at}/slots"),
                    format!("formation '{}' needs exactly one goalkeeper slot", f.id),
                ));
            }
            for (j, s) in f.slots.iter().enumerate() {
                if roles.role(&s.role).is_none() {
                    problems.push(Diagnostic::new(
                        &formations_file,
                        format!("{at}/slots/{j}/role"),
                        format!("formation '{}' names unknown role '{}'", f.id, s.role),
                    ));
                }
                // Slots are places on the pitch (the home side's half-turned frame reuses them).
                for (key, v, end) in [("x", s.x, pitch.length), ("y", s.y, pitch.width)] {
                    if !(0.0..=end).contains(&v) {
                        problems.push(Diagnostic::new(
                            &formations_file,
                            format!("{at}/slots/{j}/{key}"),
                            format!("slot {key} = {v} is off the pitch (0 to {end})"),
                        ));
                    }
                }
            }
        }
        if ndoc.carry.directions.is_empty() {
            problems.push(Diagnostic::new(&npc_file, "/carry/directions", "carry needs at least one direction"));
        }
        let mut lines = Vec::new();
        for (k, l) in ndoc.carry.lines.iter().enumerate() {
            if !roles.lines.iter().any(|x| &x.id == l) || super::state::Line::from_id(l).is_none() {
                problems.push(Diagnostic::new(
                    &npc_file,
                    format!("/carry/lines/{k}"),
                    format!("carry names unknown line '{l}'"),
                ));
            }
            // Unknown lines are reported above; the stand-in is never played.
            lines.push(super::state::Line::from_id(l).unwrap_or(super::state::Line::Midfield));
        }
        let mut values = |at: &str, v, context| expected_values(r, &npc_file, at, v, context, &mut problems);
        let expected_keeper = values("/shot/expected_keeper", ndoc.shot.expected_keeper.as_ref(), false);
        let expected_context = values("/shot/expected_context", ndoc.shot.expected_context.as_ref(), true);
        let expected_shooter = values("/shot/expected_shooter", ndoc.shot.expected_shooter.as_ref(), false);
        let plan_context = values("/plan_context", ndoc.plan_context.as_ref(), true);
        if !problems.is_empty() {
            return Err(ContentError::Invalid(problems));
        }
        let lines_of = |ids: &[String], at: &str| -> Result<Vec<super::state::Line>, ContentError> {
            ids.iter()
                .enumerate()
                .map(|(k, l)| {
                    super::state::Line::from_id(l).filter(|_| roles.lines.iter().any(|x| &x.id == l)).ok_or_else(|| {
                        ContentError::at(
                            &npc_file,
                            format!("/{}/{k}", at.replace('.', "/")),
                            format!("{at} names unknown line '{l}'"),
                        )
                    })
                })
                .collect()
        };
        let npc = Npc {
            weights: ndoc.weights,
            personality: ndoc.personality,
            shot: ShotNpc { goal_value: ndoc.shot.goal_value },
            expected_keeper,
            expected_context,
            expected_shooter,
            plan_context,
            noise: ndoc.noise,
            carry: CarryNpc {
                turns: ndoc.carry.directions.iter().map(|&d| super::geometry::Turn::of(d)).collect(),
                directions: ndoc.carry.directions,
                with_ball_pace: ndoc.carry.with_ball_pace,
                lines,
            },
            defending: ndoc.defending,
            retention: ndoc.retention,
            cross: match ndoc.cross {
                None => None,
                Some(c) => Some(CrossNpc {
                    probability: c.probability,
                    runners: lines_of(&c.runners, "cross.runners")?,
                    markers: lines_of(&c.markers, "cross.markers")?,
                    box_runs: c.box_runs,
                    box_runs_from_x: c.box_runs_from_x,
                }),
            },
            phases: ndoc.phases,
            bias: ndoc.bias,
            possession_value: match ndoc.possession_value {
                Some(v) if !(v.weight >= 0.0 && v.weight.is_finite()) => {
                    return Err(ContentError::at(
                        &npc_file,
                        "/possession_value/weight",
                        format!("possession_value.weight must be a number ≥ 0 (is {})", v.weight),
                    ));
                }
                None => None,
                Some(v) => Some(PossessionValueNpc {
                    weight: v.weight,
                    lead: match v.lead {
                        None => None,
                        Some(l) if !l.per_point.is_finite() => {
                            return Err(ContentError::at(
                                &npc_file,
                                "/possession_value/lead/per_point",
                                format!("possession_value.lead.per_point must be a finite number (is {})", l.per_point),
                            ));
                        }
                        Some(l) => Some((
                            r.var(&l.skill).ok_or_else(|| {
                                ContentError::at(
                                    &npc_file,
                                    "/possession_value/lead/skill",
                                    format!("possession_value.lead names unknown variable '{}'", l.skill),
                                )
                            })?,
                            l.per_point,
                        )),
                    },
                }),
            },
        };
        if npc.phases.windows(2).any(|w| w[0].until_x >= w[1].until_x) {
            return Err(ContentError::at(&npc_file, "/phases", "phases must be listed by increasing until_x"));
        }
        let tackle_outcome = Tagged::new(
            r,
            "tackle_outcome",
            &[
                ("carrier_keeps", DuelOutcome::CarrierKeeps),
                ("loose", DuelOutcome::Loose),
                ("steal", DuelOutcome::Steal),
            ],
        )?;
        let duels = DuelOdds::new(&r.odds, &tackle_outcome);
        let pass_quality = Tagged::new(
            r,
            "pass_quality",
            &[
                ("exceptional", PassOutcome::OnTarget),
                ("good", PassOutcome::OnTarget),
                ("adequate", PassOutcome::OnTarget),
                ("imprecise", PassOutcome::Imprecise),
                ("misplaced", PassOutcome::Misplaced),
            ],
        )?;
        let pass_q_int = r.need_range_table("pass_q_int", BY).map_err(|m| ContentError::Missing(vec![m]))?;
        let control_outcome = Tagged::new(
            r,
            "control_outcome",
            &[
                ("clean", ControlOutcome::Clean),
                ("heavy_touch", ControlOutcome::HeavyTouch),
                ("loose", ControlOutcome::Loose),
            ],
        )?;
        let shot_outcome = Tagged::new(
            r,
            "shot_outcome",
            &[
                ("on_target", ShotOutcome::OnTarget),
                ("weak", ShotOutcome::Weak),
                ("off_target", ShotOutcome::OffTarget),
            ],
        )?;
        let margins = Margins::new(&r.odds, &pass_quality, &pass_q_int, &shot_outcome, &control_outcome);
        let fractional = rs.pipelines[pipes.pass].fractional;
        let pass_plans = PassPlans::new(&r.odds, &margins, &params, fractional);
        // Sheet values never change during a match; everything the engine writes is a context
        // variable. A pipeline that reads few context values repeats its results.
        let written = [
            slots.distance,
            slots.angle,
            slots.orientation,
            slots.neutral_orientation,
            slots.nearest_opponent,
            slots.opponents_within_3m,
            slots.stamina,
            slots.q_rec,
            slots.q_int,
            slots.gk_position_error,
            slots.shot_distance,
            slots.shot_margin,
            slots.shot_speed,
            slots.pace,
            slots.with_ball,
            slots.direction_change,
            slots.physical_duel,
            slots.spot_x,
            slots.spot_y,
            slots.goal_diff,
            slots.minute,
        ];
        let recovery_memo = {
            let key: Vec<usize> = rs.pipelines[pipes.stamina_recovery]
                .inputs
                .iter()
                .copied()
                .filter(|&v| rs.vars[v].kind == microfut_core::ruleset::VarKind::Context || written.contains(&v))
                .collect();
            (key.len() <= MEMO_KEY).then_some(key)
        };
        // Movement range: the same memo, keyed by a table bin where only range tables read a
        // value (stamina through its fatigue table changes every round, its bin seldom).
        let range_memo = {
            let key: Vec<(usize, Option<Vec<f64>>)> = rs.pipelines[pipes.movement_range]
                .inputs
                .iter()
                .copied()
                .filter(|&v| rs.vars[v].kind == microfut_core::ruleset::VarKind::Context || written.contains(&v))
                .map(|v| (v, rs.table_bounds[v].clone()))
                .collect();
            (key.len() <= RANGE_KEY).then_some(key)
        };
        let plan = |slot: usize| rs.table_bounds[slot].as_deref().and_then(AnglePlan::new);
        let (orientation_plan, direction_change_plan) = (plan(slots.orientation), plan(slots.direction_change));
        // Without set pieces, the penalty taker is the outfield player best at the skill the
        // revision's upgrade entry names (the revisions before set pieces were played so).
        let penalty_skill_without_set_pieces = match set_pieces {
            Some(_) => None,
            None => {
                let skill = upgrade.and_then(|u| u.values.get(PENALTY_TAKER_SKILL)?.as_str()).ok_or_else(|| {
                    ContentError::NoDocument {
                        revision: r.label(),
                        what: "set pieces",
                        schema: "set_pieces.schema.json",
                    }
                })?;
                Some(r.need_var(skill, BY).map_err(|m| ContentError::Missing(vec![m]))?)
            }
        };
        let share = |id: &str| -> Result<Option<f64>, ContentError> {
            match r.param(id) {
                Some(v) if !(0.0..=1.0).contains(&v) => {
                    Err(param_error(r, id, format!("parameter '{id}' is a share between 0 and 1 (is {v})")))
                }
                v => Ok(v),
            }
        };
        let behaviours = Behaviours {
            foul_box_offset: r.param("foul_box_offset"),
            parry_behind_share: share("parry_behind_share")?,
            clearance_behind_share: share("clearance_behind_share")?,
            cover_distance: r.param("cover_distance"),
            foul_on_difference: r.param("foul_on_difference").is_some_and(|v| v != 0.0),
            foul_share: share("foul_share")?,
            tackle_foul_share: share("tackle_foul_share")?,
            keeper_cross_reset: match r.param("keeper_cross_reset") {
                Some(v) if v < 0.0 => {
                    return Err(param_error(
                        r,
                        "keeper_cross_reset",
                        format!("parameter 'keeper_cross_reset' is a distance per metre, not negative (is {v})"),
                    ));
                }
                v => v,
            },
        };
        let club_personality =
            crate::club::ClubRules::from_revision(&r.revision).ok().flatten().map(|c| c.personality.scale);
        let levers = levers(r, &pipes, &slots, &pitch)?;
        Ok(Rules {
            levers,
            club_personality,
            set_pieces,
            penalty_skill_without_set_pieces,
            behaviours,
            orientation_plan,
            direction_change_plan,
            duels,
            margins,
            pass_quality,
            pass_q_int,
            control_outcome,
            shot_outcome,
            pipes,
            slots,
            save_outcome: Tagged::new(
                r,
                "save_outcome",
                &[("hold", SaveOutcome::Hold), ("parry", SaveOutcome::Parry), ("beaten", SaveOutcome::Beaten)],
            )?,
            tackle_outcome,
            foul_check: Tagged::new(
                r,
                "foul_check",
                &[("foul", FoulCall::Direct), ("indirect", FoulCall::Indirect), ("clean", FoulCall::Clean)],
            )?,
            gk_placement: r.need_range_table("gk_placement", BY).map_err(|m| ContentError::Missing(vec![m]))?,
            clock,
            params,
            pitch,
            formations: fdoc.formations,
            default_formation,
            bench: fdoc.bench,
            substitutions: fdoc.substitutions,
            roles,
            npc,
            paces,
            recovery_memo,
            range_memo,
            pass_plans,
            rs,
        })
    }

    pub fn formation(&self, id: Option<&str>) -> Option<&Formation> {
        match id {
            Some(id) => self.formations.iter().find(|f| f.id == id),
            None => self.formations.get(self.default_formation),
        }
    }
}

/// The engine's meaning check for `validate`: a revision that carries match content must resolve.
pub fn check(rs: Arc<Ruleset>) -> Vec<Diagnostic> {
    let has_engine_content = rs
        .revision
        .documents
        .values()
        .any(|d| matches!(declared_schema(d), Some("formations.schema.json" | "npc.schema.json")));
    if !has_engine_content {
        return Vec::new();
    }
    match Rules::new(rs.clone()) {
        Ok(_) => Vec::new(),
        Err(e) => located(&rs, e),
    }
}

/// A refusal as content diagnostics: each problem at its document and JSON pointer, each
/// missing name at the list of the document it belongs in.
pub fn located(rs: &Ruleset, e: ContentError) -> Vec<Diagnostic> {
    match e {
        ContentError::Invalid(d) => d,
        ContentError::Missing(names) => names.iter().map(|m| rs.locate(m)).collect(),
        e @ ContentError::NoDocument { .. } => {
            vec![Diagnostic::new(rs.revision.file("manifest.json"), "/documents", e.to_string())]
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use microfut_core::catalog::{Catalog, ContentTree};
    use microfut_core::dice::{DiceSpec, Odds};

    /// The table as first written: every pair of difficulties summed over every pair of totals.
    fn quartic(odds: &Odds, tackle: &Tagged<DuelOutcome>) -> (Vec<f64>, Vec<f64>) {
        let spec = odds.spec();
        let lo = spec.min_total() as i32 - 2;
        let n = (spec.max_total() as i32 + 2 - lo + 1) as usize;
        let totals: Vec<(i32, u64)> = odds.totals().map(|(t, p)| (t as i32, p.favourable)).collect();
        let (mut keep, mut win) = (vec![0.0; n * n], vec![0.0; n * n]);
        for a in 0..n {
            for b in 0..n {
                let (da, db) = (lo + a as i32, lo + b as i32);
                let (mut k, mut w, mut tie, mut all) = (0u64, 0u64, 0u64, 0u64);
                for &(ta, pa) in &totals {
                    for &(tb, pb) in &totals {
                        let x = pa * pb;
                        all += x;
                        let (ma, mb) = (ta - da, tb - db);
                        if tackle.of((mb - ma) as f64) == DuelOutcome::CarrierKeeps {
                            k += x;
                        }
                        match ma.cmp(&mb) {
                            std::cmp::Ordering::Greater => w += x,
                            std::cmp::Ordering::Equal => tie += x,
                            std::cmp::Ordering::Less => {}
                        }
                    }
                }
                keep[a * n + b] = k as f64 / all as f64;
                win[a * n + b] = if all == tie { 0.5 } else { w as f64 / (all - tie) as f64 };
            }
        }
        (keep, win)
    }

    #[test]
    fn duel_odds_by_difference_are_the_full_sums_bit_for_bit() {
        let catalog = Catalog::load(&ContentTree::embedded());
        let rs = microfut_core::ruleset::compile(catalog.revision("microfut", Some("0.5.4")).unwrap()).unwrap();
        let tackle = Tagged::new(
            &rs,
            "tackle_outcome",
            &[
                ("carrier_keeps", DuelOutcome::CarrierKeeps),
                ("loose", DuelOutcome::Loose),
                ("steal", DuelOutcome::Steal),
            ],
        )
        .unwrap();
        for spec in [DiceSpec::D3D6, DiceSpec { count: 2, sides: 10 }, DiceSpec { count: 1, sides: 20 }] {
            let odds = Odds::new(spec);
            let fast = DuelOdds::new(&odds, &tackle);
            let (keep, win) = quartic(&odds, &tackle);
            let bits = |v: &[f64]| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
            assert_eq!(bits(&fast.keep), bits(&keep), "{spec:?}");
            assert_eq!(bits(&fast.win), bits(&win), "{spec:?}");
        }
    }
}
