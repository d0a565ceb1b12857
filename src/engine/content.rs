//! Everything the match engine reads from a revision, resolved by name once per match setup.
//!
//! The engine never looks a name up while playing: pipelines become indices, variables slots,
//! tables shared handles, parameters numbers. A revision lacking something the engine needs is
//! refused here with a message naming the revision and the missing piece.

use super::geometry::{AnglePlan, Pitch};
use crate::catalog::{Diagnostic, declared_schema};
use crate::ruleset::{Missing, RangeTable, Ruleset};
use crate::sheet::Roles;
use serde::Deserialize;
use std::sync::Arc;

pub(super) const BY: &str = "match engine";

#[derive(Debug, thiserror::Error)]
pub enum ContentError {
    /// Every name the engine needs that the revision lacks, all at once.
    #[error("{}", .0.iter().map(|m| m.to_string()).collect::<Vec<_>>().join("; "))]
    Missing(Vec<Missing>),
    #[error(
        "revision {revision} has no {what} (a {schema} document), which the match engine needs; it can resolve single tests (`microfut resolve`) but not play matches — use a revision that carries the match documents, or compare variants of one with its scenarios"
    )]
    NoDocument { revision: String, what: &'static str, schema: &'static str },
    /// Problems at places in content, each with its document and JSON pointer.
    #[error("{}", .0.iter().map(|d| d.to_string()).collect::<Vec<_>>().join("; "))]
    Invalid(Vec<Diagnostic>),
}

impl ContentError {
    fn at(file: impl Into<String>, pointer: impl Into<String>, message: impl Into<String>) -> ContentError {
        ContentError::Invalid(vec![Diagnostic::new(file, pointer, message)])
    }
}

/// A problem with a parameter's value, at `params.json#/params/N/value`.
fn param_error(rs: &Ruleset, id: &str, message: String) -> ContentError {
    match rs.params.iter().find(|p| p.id == id) {
        Some(p) => {
            let (file, pointer) = crate::ruleset::split_source(&p.source);
            ContentError::at(file, format!("{pointer}/value"), message)
        }
        // A value engine 0.5.1 kept in code (`legacy`): nowhere in content to point at.
        None => ContentError::at(rs.revision.file("manifest.json"), "", message),
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
}

/// What a pass's margin means (baseline §8), from the tags of `pass_quality`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PassOutcome {
    OnTarget,
    Imprecise,
    Misplaced,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ControlOutcome {
    Clean,
    HeavyTouch,
    Loose,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ShotOutcome {
    OnTarget,
    Weak,
    OffTarget,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SaveOutcome {
    Hold,
    Parry,
    Beaten,
}

/// What a lost duel's margin says about the defender's contact (`foul_check` tags): a foul
/// (a direct free kick, a penalty in his box), impeding (an indirect free kick, 0.6) or nothing.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FoulCall {
    Clean,
    Direct,
    Indirect,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DuelOutcome {
    CarrierKeeps,
    Loose,
    Steal,
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
                    let (file, pointer) = crate::ruleset::split_source(&source);
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

/// Numbers the engine's geometry and orchestration use.
#[derive(Debug, Clone, Copy)]
pub struct Params {
    pub pressure_extra_radius: f64,
    pub shot_dx_floor: f64,
    pub stamina_start: f64,
    pub stamina_max: f64,
    pub half_time_recovery: f64,
    pub pass_imprecise_per_margin: f64,
    pub pass_misplaced_min: f64,
    pub pass_misplaced_max: f64,
    pub loose_min: f64,
    pub loose_max: f64,
    pub rebound_min: f64,
    pub rebound_max: f64,
    pub deflection_min: f64,
    pub deflection_max: f64,
    pub clearance_min: f64,
    pub clearance_max: f64,
    pub aerial_radius: f64,
    pub keeper_claim_radius: f64,
    pub positioning_error_per_margin: f64,
    pub save_rule: f64,
    pub interception_rule: f64,
    pub block_rule: f64,
    pub penalty_spot: f64,
    pub restart_distance: f64,
    pub goal_kick_spot_x: f64,
    pub tackle_reach: f64,
    pub loose_reach: f64,
    pub pass_min_distance: f64,
    pub pace_sprint_gap: f64,
    pub pace_reposition_gap: f64,
    pub follow_x: f64,
    pub follow_y: f64,
    pub attack_shift: f64,
    pub defence_shift: f64,
    pub width_attack: f64,
    pub width_defence: f64,
    pub verticality_push: f64,
    pub security_drop: f64,
    pub late_push: f64,
    pub late_minute: f64,
    pub min_x: f64,
    pub last_line_margin: f64,
    pub press_count: f64,
    pub press_radius: f64,
    pub press_goal_side: f64,
    pub mark_radius: f64,
    pub mark_weight: f64,
    pub mark_goal_side: f64,
    pub support_distance: f64,
    pub support_count: f64,
    pub support_angle: f64,
    pub gk_depth: f64,
    pub gk_depth_per_metre: f64,
    pub gk_max_depth: f64,
    pub cross_min_x: f64,
    pub cross_min_wide: f64,
    pub cross_landing_depth: f64,
    pub cross_landing_offset: f64,
    pub header_max_distance: f64,
    pub shot_max_distance: f64,
    pub shot_post_inset: f64,
    pub dribble_trigger: f64,
    pub dribble_beyond: f64,
    /// A defender taken on contests the carrier from up to this many tackle reaches away.
    pub take_on_reach_factor: f64,
    /// A player who moved less than this (m) in a round stood still.
    pub still_threshold: f64,
    /// Rounds standing still after which a player's body is neutral (no facing).
    pub neutral_after_still_rounds: f64,
    /// A player this close (m) to his destination is there.
    pub arrival_tolerance: f64,
    /// An urgent player sprints while farther than this share of his running range.
    pub urgent_sprint_share: f64,
    /// A pass arriving farther than this many loose-ball reaches from its receiver is loose.
    pub receive_reach_factor: f64,
    /// Carries shorter than this (m) are not offered.
    pub carry_min_range: f64,
    /// Half-angle (°) of the cone ahead in which an opponent can be taken on.
    pub dribble_cone: f64,
    /// Cross runners spread over this many lanes around the landing point …
    pub cross_runner_lanes: f64,
    /// … this far apart along the pitch (m) …
    pub cross_runner_step_x: f64,
    /// … and across it (m).
    pub cross_runner_step_y: f64,
    /// A headed clearance leaves within ± this angle (°) of the line away from goal.
    pub clearance_spread: f64,
    /// A parried shot rebounds within ± this angle (°) of the line back to the shooter.
    pub parry_spread: f64,
    /// At a penalty, everyone but the taker and the keeper stands this far (m) outside the box.
    pub penalty_box_clearance: f64,
    /// Supporting runs stay this far (m) inside the touchlines.
    pub touchline_margin: f64,
    /// The share of a ball's path at either end that belongs to the passer and the receiver:
    /// nobody closer to an end than this intercepts it (0.6; engine 0.5.2 kept 0.02 in code).
    pub intercept_line_end: f64,
    /// At kick-off every player stands at least this far (m) inside his own half.
    pub kickoff_line_gap: f64,
}

#[derive(Debug, Clone, Deserialize)]
pub struct Slot {
    pub role: String,
    pub x: f64,
    pub y: f64,
}

#[derive(Debug, Clone, Deserialize)]
pub struct Formation {
    pub id: String,
    pub slots: Vec<Slot>,
}

#[derive(Debug, Clone, Deserialize)]
pub struct Bench {
    pub size: usize,
    pub goalkeepers: usize,
}

#[derive(Debug, Clone, Deserialize)]
struct FormationsDoc {
    default: String,
    formations: Vec<Formation>,
    bench: Bench,
    #[serde(default)]
    substitutions: Option<Substitutions>,
}

/// When the bench comes on (0.6): at a stoppage from `from_minute`, up to `per_stoppage` of a
/// side's outfield players below `stamina_below` are replaced by the best bench player of their
/// line, `max` in all.
#[derive(Debug, Clone, Copy, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Substitutions {
    pub max: u32,
    pub from_minute: f64,
    pub stamina_below: f64,
    pub per_stoppage: u32,
}

#[derive(Debug, Clone, Copy, Deserialize)]
pub struct Weights {
    pub opportunity: f64,
    pub probability: f64,
    pub progress: f64,
    pub risk: f64,
}

#[derive(Debug, Clone, Copy, Deserialize)]
pub struct PersonalityScale {
    pub verticality_progress: f64,
    pub security_risk: f64,
    pub risk_tolerance_probability: f64,
    pub risk_tolerance_opportunity: f64,
}

#[derive(Debug, Clone, Deserialize)]
struct Adaptation {
    risk_tolerance: Option<String>,
    security: Option<String>,
    verticality: Option<String>,
}

#[derive(Debug, Clone, Deserialize)]
struct Maps {
    opportunity: String,
    danger: String,
}

#[derive(Debug, Clone, Copy, Deserialize)]
pub struct ShotNpc {
    pub goal_value: f64,
}

/// When a defender in reach tackles rather than contains.
#[derive(Debug, Clone, Copy, Deserialize)]
pub struct Defending {
    /// Tackle when the chance of winning the ball (steal or loose) is at least this.
    pub tackle_min_chance: f64,
    /// Tackle anyway when the carrier's spot is worth at least this much threat.
    pub tackle_threat: f64,
    /// 0.6: where the defender who can reach a carrier would rather contain him, the carrier
    /// reckons with his duel only this share of the time (0.5: always, as if he tackled).
    #[serde(default)]
    pub contain_risk: Option<f64>,
    /// 0.6: how much a defender's threshold varies from one decision to the next (a share, the
    /// threshold moving within ± half of it), so that daring is spread, not a cliff.
    #[serde(default)]
    pub tackle_spread: Option<f64>,
}

#[derive(Debug, Clone, Deserialize)]
struct CarryDoc {
    directions: Vec<f64>,
    with_ball_pace: u32,
    lines: Vec<String>,
}

#[derive(Debug, Clone)]
pub struct CarryNpc {
    pub directions: Vec<f64>,
    /// The rotation of each direction, computed once.
    pub turns: Vec<super::geometry::Turn>,
    pub with_ball_pace: u32,
    /// Lines whose players consider carrying the ball (keepers distribute it).
    pub lines: Vec<super::state::Line>,
}

#[derive(Debug, Clone, Deserialize)]
struct NpcDoc {
    weights: Weights,
    personality: PersonalityScale,
    adaptation: Adaptation,
    maps: Maps,
    shot: ShotNpc,
    noise: f64,
    carry: CarryDoc,
    defending: Defending,
    retention: usize,
    #[serde(default)]
    cross: Option<CrossDoc>,
    #[serde(default)]
    phases: Vec<Phase>,
    #[serde(default)]
    bias: KindBias,
}

/// A constant added to the score of every candidate of a kind (0.6; 0 when absent).
#[derive(Debug, Clone, Copy, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct KindBias {
    #[serde(default)]
    pub carry: f64,
    #[serde(default)]
    pub pass: f64,
    #[serde(default)]
    pub cross: f64,
    #[serde(default)]
    pub shoot: f64,
    #[serde(default)]
    pub dribble: f64,
    #[serde(default)]
    pub throw: f64,
}

impl KindBias {
    pub fn of(&self, k: super::candidate::Kind) -> f64 {
        use super::candidate::Kind;
        match k {
            Kind::Carry => self.carry,
            Kind::Pass => self.pass,
            Kind::Cross => self.cross,
            Kind::Shoot => self.shoot,
            Kind::Dribble => self.dribble,
            Kind::Throw => self.throw,
        }
    }
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
struct CrossDoc {
    probability: CrossProbability,
    runners: Vec<String>,
    markers: Vec<String>,
    box_runs: bool,
    #[serde(default)]
    box_runs_from_x: Option<f64>,
}

/// What a cross's probability term weighs (0.6): the cross test's own chance, as for a shot,
/// or (0.5) the chance the attacking side keeps the ball through the aerial duel.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CrossProbability {
    Test,
    Keep,
}

/// How the NPC reads crosses (0.6; revisions without it play 0.5's rules: attackers and
/// midfielders run onto a cross once it is chosen, the estimate leaves keepers out).
#[derive(Debug, Clone)]
pub struct CrossNpc {
    pub probability: CrossProbability,
    /// Lines whose players attack the landing zone.
    pub runners: Vec<super::state::Line>,
    /// Lines whose players track them goal-side.
    pub markers: Vec<super::state::Line>,
    /// Runners attack the box whenever their carrier stands in a crossing position, not only
    /// once the cross is chosen (so a cross finds someone to reach it) …
    pub box_runs: bool,
    /// … from this depth on (x, m; the crossing position's own depth when absent).
    pub box_runs_from_x: Option<f64>,
}

/// A named phase of play for the decision log: the carrier's ball position in his attacking
/// frame up to `until_x` metres.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Phase {
    pub id: String,
    pub until_x: f64,
}

/// The NPC's content (document §33, baseline §16).
#[derive(Debug, Clone)]
pub struct Npc {
    pub weights: Weights,
    pub personality: PersonalityScale,
    pub shot: ShotNpc,
    pub noise: f64,
    pub carry: CarryNpc,
    pub defending: Defending,
    pub retention: usize,
    pub cross: Option<CrossNpc>,
    /// Phases of open play by the ball's depth, in order (empty: "open_play").
    pub phases: Vec<Phase>,
    pub bias: KindBias,
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
    /// What a pass of each difficulty can do, for the NPC's exact pass estimates.
    pub pass_plans: PassPlans,
    /// Body orientation and direction change, when the revision reads them only through range
    /// tables: their bins come from cosines (see [`AnglePlan`]).
    pub orientation_plan: Option<AnglePlan>,
    pub direction_change_plan: Option<AnglePlan>,
    /// The set pieces (0.6), or `None`: 0.5's restarts.
    pub set_pieces: Option<super::set_pieces::SetPieces>,
    /// 0.5's penalty taker: the outfield player with the best value of this variable
    /// (`finishing`), resolved once (revisions with set pieces name their own rule).
    pub legacy_penalty_skill: Option<usize>,
    /// Numbers only 0.6 revisions declare; absent, the engine plays as 0.5 did.
    pub since_0_6: Since06,
    /// The club personality scale (club rules), which the NPC's weights and the team shape
    /// multiply: a club outside it is refused before kick-off.
    pub club_personality: Option<[i32; 2]>,
}

/// Parameters a 0.6 revision may declare; each absent one leaves 0.5's behaviour (and dice).
#[derive(Debug, Clone, Copy, Default)]
pub struct Since06 {
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
}

/// The most players positioning sends to press the carrier, or to support him.
pub const MAX_HELPERS: usize = 4;

/// The most rounds a match may last: what the engine keeps per round (a state hash, events) is
/// held in memory. A capacity, not a rule: the clock's parameters' domains keep content far
/// below it (0.5.5: at most 4 halves of 60 min in rounds of 0.5 s, 28,800 rounds).
pub const MAX_ROUNDS: u32 = 100_000;

/// The most context values a memoised pipeline may read.
pub const MEMO_KEY: usize = 3;

/// Content tables read by margin (or difficulty), tabulated over every value the dice can give.
#[derive(Debug, Clone)]
pub struct Margins {
    lo: i32,
    pass: Vec<(PassOutcome, f64, f64)>,
    shot: Vec<ShotOutcome>,
    /// P(a reception keeps the ball) by the control test's difficulty.
    control_keep: Vec<f64>,
}

impl Margins {
    fn new(
        odds: &crate::dice::Odds,
        pass: &Tagged<PassOutcome>,
        q_int: &RangeTable,
        shot: &Tagged<ShotOutcome>,
        control: &Tagged<ControlOutcome>,
    ) -> Margins {
        let spec = odds.spec();
        let (tmin, tmax) = (spec.min_total() as i32, spec.max_total() as i32);
        // Margins run from (min total − max difficulty) to (max total − min difficulty); cover
        // difficulties well beyond any clamp (values beyond read as the ends).
        let lo = tmin - tmax - 10;
        let hi = tmax - tmin + 10;
        let mut p = Vec::new();
        let mut sh = Vec::new();
        for m in lo..=hi {
            let x = m as f64;
            p.push((pass.of(x), pass.value(x), q_int.value(x)));
            sh.push(shot.of(x));
        }
        let control_keep = (lo..=hi)
            .map(|d| {
                odds.totals()
                    .filter(|(t, _)| control.of((*t as i32 - d) as f64) != ControlOutcome::Loose)
                    .map(|(_, pr)| pr.as_f64())
                    .sum()
            })
            .collect();
        Margins { lo, pass: p, shot: sh, control_keep }
    }

    fn at(&self, v: i32) -> usize {
        (v - self.lo).clamp(0, self.pass.len() as i32 - 1) as usize
    }

    /// (outcome, Q_REC, Q_INT) of a pass or cross with this margin.
    pub fn pass(&self, margin: i32) -> (PassOutcome, f64, f64) {
        self.pass[self.at(margin)]
    }

    pub fn shot(&self, margin: i32) -> ShotOutcome {
        self.shot[self.at(margin)]
    }

    /// Chance a reception with this difficulty keeps the ball (clean or a heavy touch).
    pub fn control_keep(&self, difficulty: i32) -> f64 {
        self.control_keep[self.at(difficulty)]
    }

    /// [`Margins::control_keep`] for a difficulty that may be fractional (0.6).
    pub fn control_keep_of(&self, d: crate::dice::Difficulty) -> f64 {
        if d.f == 0.0 {
            self.control_keep(d.d)
        } else {
            (1.0 - d.f) * self.control_keep(d.d) + d.f * self.control_keep(d.d + 1)
        }
    }
}

/// What a pass of one difficulty can do, for the NPC's estimate: the margins that leave the
/// ball within the receiver's reach, with their chances, and the distinct (Q_INT, Q_REC) pairs
/// they give, in order of first appearance (interceptor and receiver difficulties depend on the
/// margin only through these).
#[derive(Debug, Clone, Default)]
pub struct PassPlan {
    pub q_ints: Vec<f64>,
    pub q_recs: Vec<f64>,
    /// (margin, its chance, index of its pair).
    pub reachable: Vec<(i32, f64, usize)>,
}

impl PassPlan {
    pub fn build(difficulty: i32, odds: &crate::dice::Odds, margins: &Margins, params: &Params) -> PassPlan {
        let mut plan = PassPlan::default();
        for (total, p) in odds.totals() {
            let margin = total as i32 - difficulty;
            let (outcome, q_rec, q_int) = margins.pass(margin);
            let within = match outcome {
                PassOutcome::OnTarget => true,
                PassOutcome::Imprecise => {
                    params.pass_imprecise_per_margin * margin.unsigned_abs() as f64
                        <= params.receive_reach_factor * params.loose_reach
                }
                PassOutcome::Misplaced => false,
            };
            if !within {
                continue;
            }
            let entry = match plan.q_ints.iter().zip(&plan.q_recs).position(|(&qi, &qr)| qi == q_int && qr == q_rec) {
                Some(i) => i,
                None => {
                    plan.q_ints.push(q_int);
                    plan.q_recs.push(q_rec);
                    plan.q_ints.len() - 1
                }
            };
            plan.reachable.push((margin, p.as_f64(), entry));
        }
        plan
    }
}

/// The plans of a pass whose difficulty lies between `d` and `d + 1` (0.6): both plans' margins
/// over one list of (Q_INT, Q_REC) pairs, so interceptors and the receiver are weighed once.
#[derive(Debug, Clone, Default)]
pub struct MixedPlan {
    pub q_ints: Vec<f64>,
    pub q_recs: Vec<f64>,
    /// (margin, its chance at `d`, pair) and the same at `d + 1`.
    pub lo: Vec<(i32, f64, usize)>,
    pub hi: Vec<(i32, f64, usize)>,
}

impl MixedPlan {
    pub fn build(d: i32, odds: &crate::dice::Odds, margins: &Margins, params: &Params) -> MixedPlan {
        let (a, b) = (PassPlan::build(d, odds, margins, params), PassPlan::build(d + 1, odds, margins, params));
        let mut m = MixedPlan::default();
        let entry = |qi: f64, qr: f64, m: &mut MixedPlan| match m
            .q_ints
            .iter()
            .zip(&m.q_recs)
            .position(|(&x, &y)| x == qi && y == qr)
        {
            Some(i) => i,
            None => {
                m.q_ints.push(qi);
                m.q_recs.push(qr);
                m.q_ints.len() - 1
            }
        };
        for &(margin, p, e) in &a.reachable {
            let k = entry(a.q_ints[e], a.q_recs[e], &mut m);
            m.lo.push((margin, p, k));
        }
        for &(margin, p, e) in &b.reachable {
            let k = entry(b.q_ints[e], b.q_recs[e], &mut m);
            m.hi.push((margin, p, k));
        }
        m
    }
}

/// [`PassPlan`]s for every difficulty a pass is likely to have, built once per revision.
#[derive(Debug, Clone)]
pub struct PassPlans {
    lo: i32,
    plans: Vec<PassPlan>,
    /// Built only for revisions with fractional values.
    mixed: Vec<MixedPlan>,
}

impl PassPlans {
    fn new(odds: &crate::dice::Odds, margins: &Margins, params: &Params, fractional: bool) -> PassPlans {
        let spec = odds.spec();
        // Difficulties well beyond the dice's totals behave like the ends; cover a wide band.
        let lo = spec.min_total() as i32 - 20;
        let hi = spec.max_total() as i32 + 20;
        let mixed = if fractional {
            (lo..=hi).map(|d| MixedPlan::build(d, odds, margins, params)).collect()
        } else {
            Vec::new()
        };
        PassPlans { lo, plans: (lo..=hi).map(|d| PassPlan::build(d, odds, margins, params)).collect(), mixed }
    }

    /// The plan of a pass with this difficulty, when tabulated.
    pub fn get(&self, difficulty: i32) -> Option<&PassPlan> {
        usize::try_from(difficulty - self.lo).ok().and_then(|i| self.plans.get(i))
    }

    /// The mixed plan of a pass between `difficulty` and the next, when tabulated.
    pub fn mixed(&self, difficulty: i32) -> Option<&MixedPlan> {
        usize::try_from(difficulty - self.lo).ok().and_then(|i| self.mixed.get(i))
    }
}

/// Exact probabilities of opposed tests, tabulated by both difficulties (they are small integers).
#[derive(Debug, Clone)]
pub struct DuelOdds {
    lo: i32,
    n: usize,
    /// P(carrier keeps) under the content's duel table.
    keep: Vec<f64>,
    /// P(first wins) with ties contested again.
    win: Vec<f64>,
}

impl DuelOdds {
    /// Both tests' margins enter only through their difference, and that difference through
    /// the difference of the difficulties: the distribution of (carrier total − defender total)
    /// is computed once and each pair of difficulties reads it, so the table costs the square
    /// of the totals, not their fourth power. Counts are exact integers (`u128`: up to the
    /// square of the outcomes), divided once per entry as before.
    fn new(odds: &crate::dice::Odds, tackle: &Tagged<DuelOutcome>) -> DuelOdds {
        let spec = odds.spec();
        // Difficulties of actions lie between 21 − max and 21 − min of any clamp; cover the dice.
        let lo = spec.min_total() as i32 - 2;
        let hi = spec.max_total() as i32 + 2;
        let n = (hi - lo + 1) as usize;
        let totals: Vec<(i32, u128)> = odds.totals().map(|(t, p)| (t as i32, u128::from(p.favourable))).collect();
        // ways[d − d_lo] = outcome pairs with carrier total − defender total = d.
        let (tmin, tmax) = (spec.min_total() as i32, spec.max_total() as i32);
        let d_lo = tmin - tmax;
        let mut ways = vec![0u128; (2 * (tmax - tmin) + 1) as usize];
        for &(ta, pa) in &totals {
            for &(tb, pb) in &totals {
                ways[(ta - tb - d_lo) as usize] += pa * pb;
            }
        }
        let all: u128 = ways.iter().sum();
        // Per difference of difficulties e = da − db: the margins' difference is (ta − tb) − e.
        let span = n as i32 - 1;
        let mut keep_by = Vec::with_capacity(2 * n - 1);
        let mut win_by = Vec::with_capacity(2 * n - 1);
        for e in -span..=span {
            let (mut k, mut w, mut tie) = (0u128, 0u128, 0u128);
            for (i, &x) in ways.iter().enumerate() {
                let d = d_lo + i as i32;
                // The defender's margin minus the carrier's: (tb − db) − (ta − da) = e − d.
                if tackle.of((e - d) as f64) == DuelOutcome::CarrierKeeps {
                    k += x;
                }
                match d.cmp(&e) {
                    std::cmp::Ordering::Greater => w += x,
                    std::cmp::Ordering::Equal => tie += x,
                    std::cmp::Ordering::Less => {}
                }
            }
            keep_by.push(k as f64 / all as f64);
            win_by.push(if all == tie { 0.5 } else { w as f64 / (all - tie) as f64 });
        }
        let mut keep = vec![0.0; n * n];
        let mut win = vec![0.0; n * n];
        for a in 0..n {
            for b in 0..n {
                let e = (a as i32 - b as i32 + span) as usize;
                keep[a * n + b] = keep_by[e];
                win[a * n + b] = win_by[e];
            }
        }
        DuelOdds { lo, n, keep, win }
    }

    fn index(&self, a: i32, b: i32) -> usize {
        let clamp = |d: i32| (d - self.lo).clamp(0, self.n as i32 - 1) as usize;
        clamp(a) * self.n + clamp(b)
    }

    /// Chance the carrier keeps the ball in a duel, by the two tests' difficulties.
    pub fn keep(&self, carrier: i32, defender: i32) -> f64 {
        self.keep[self.index(carrier, defender)]
    }

    /// [`DuelOdds::keep`] for difficulties that may be fractional (0.6): each side is rolled
    /// against its two whole neighbours in proportion, independently.
    pub fn keep_of(&self, carrier: crate::dice::Difficulty, defender: crate::dice::Difficulty) -> f64 {
        Self::mixed(carrier, defender, |a, b| self.keep(a, b))
    }

    /// [`DuelOdds::win`] for difficulties that may be fractional.
    pub fn win_of(&self, first: crate::dice::Difficulty, second: crate::dice::Difficulty) -> f64 {
        Self::mixed(first, second, |a, b| self.win(a, b))
    }

    fn mixed(a: crate::dice::Difficulty, b: crate::dice::Difficulty, at: impl Fn(i32, i32) -> f64) -> f64 {
        if a.f == 0.0 && b.f == 0.0 {
            return at(a.d, b.d);
        }
        let (fa, fb) = (a.f, b.f);
        (1.0 - fa) * ((1.0 - fb) * at(a.d, b.d) + fb * at(a.d, b.d + 1))
            + fa * ((1.0 - fb) * at(a.d + 1, b.d) + fb * at(a.d + 1, b.d + 1))
    }

    /// Chance the first of two contested tests wins (ties contested again).
    pub fn win(&self, first: i32, second: i32) -> f64 {
        self.win[self.index(first, second)]
    }
}

fn doc<T: for<'de> Deserialize<'de>>(
    rs: &Ruleset,
    schema: &'static str,
    what: &'static str,
) -> Result<(String, T), ContentError> {
    let rev = &rs.revision;
    let (name, value) = rev
        .documents
        .iter()
        .find(|(_, d)| declared_schema(d) == Some(schema))
        .ok_or_else(|| ContentError::NoDocument { revision: rs.label(), what, schema })?;
    let parsed =
        serde_json::from_value(value.clone()).map_err(|e| ContentError::at(rev.file(name), "", e.to_string()))?;
    Ok((rev.file(name), parsed))
}

/// Records a missing name and goes on with a stand-in, so that every missing name is found in
/// one pass (the stand-ins are never used: `Rules::new` stops before it reads them).
fn noted<T>(missing: &std::cell::RefCell<Vec<Missing>>, found: Result<T, Missing>, stand_in: T) -> T {
    found.unwrap_or_else(|m| {
        missing.borrow_mut().push(m);
        stand_in
    })
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
        // Parameters engine 0.5.1 kept in code: revisions older than their carrier play with those values.
        let n_or_in_code = |id: &str| -> Result<f64, ContentError> {
            match r.param(id).or_else(|| super::legacy::value(&r.id, &r.version, id)) {
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
        let optional =
            |id: &Option<String>| -> Result<Option<usize>, ContentError> { id.as_ref().map(|id| p(id)).transpose() };
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
            save: p("save")?,
            claim: p("claim")?,
            positioning: p("positioning")?,
            movement_range: p("movement_range")?,
            stamina_cost: p("stamina_cost")?,
            stamina_recovery: p("stamina_recovery")?,
            opportunity: p(&ndoc.maps.opportunity)?,
            danger: p(&ndoc.maps.danger)?,
            adapt_risk_tolerance: optional(&ndoc.adaptation.risk_tolerance)?,
            adapt_security: optional(&ndoc.adaptation.security)?,
            adapt_verticality: optional(&ndoc.adaptation.verticality)?,
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
        let params = Params {
            pressure_extra_radius: n("pressure_extra_radius")?,
            shot_dx_floor: n("shot_dx_floor")?,
            stamina_start: n("stamina_start")?,
            stamina_max: n("stamina_max")?,
            half_time_recovery: n("half_time_recovery")?,
            pass_imprecise_per_margin: n("pass_imprecise_offset_per_margin")?,
            pass_misplaced_min: n("pass_misplaced_offset_min")?,
            pass_misplaced_max: n("pass_misplaced_offset_max")?,
            loose_min: n("loose_ball_min")?,
            loose_max: n("loose_ball_max")?,
            rebound_min: n("rebound_min")?,
            rebound_max: n("rebound_max")?,
            deflection_min: n("deflection_min")?,
            deflection_max: n("deflection_max")?,
            clearance_min: n("clearance_min")?,
            clearance_max: n("clearance_max")?,
            aerial_radius: n("aerial_contest_radius")?,
            keeper_claim_radius: n("keeper_claim_radius")?,
            positioning_error_per_margin: n("positioning_error_per_margin")?,
            save_rule: n("save_rule")?,
            interception_rule: n("interception_rule")?,
            block_rule: n("block_rule")?,
            penalty_spot: n("penalty_spot_distance")?,
            restart_distance: n("restart_distance")?,
            goal_kick_spot_x: n("goal_kick_spot_x")?,
            tackle_reach: n("tackle_reach")?,
            loose_reach: n("loose_ball_reach")?,
            pass_min_distance: n("pass_min_distance")?,
            pace_sprint_gap: n("pace_sprint_gap")?,
            pace_reposition_gap: n("pace_reposition_gap")?,
            follow_x: n("pos_follow_x")?,
            follow_y: n("pos_follow_y")?,
            attack_shift: n("pos_attack_shift")?,
            defence_shift: n("pos_defence_shift")?,
            width_attack: n("pos_width_attack")?,
            width_defence: n("pos_width_defence")?,
            verticality_push: n("pos_verticality_push")?,
            security_drop: n("pos_security_drop")?,
            late_push: n("pos_late_push")?,
            late_minute: n("pos_late_minute")?,
            min_x: n("pos_min_x")?,
            last_line_margin: n("pos_last_line_margin")?,
            press_count: n("press_count")?,
            press_radius: n("press_radius")?,
            press_goal_side: n("press_goal_side")?,
            mark_radius: n("mark_radius")?,
            mark_weight: n("mark_weight")?,
            mark_goal_side: n("mark_goal_side")?,
            support_distance: n("support_distance")?,
            support_count: n("support_count")?,
            support_angle: n("support_angle")?,
            gk_depth: n("gk_depth")?,
            gk_depth_per_metre: n("gk_depth_per_ball_metre")?,
            gk_max_depth: n("gk_max_depth")?,
            cross_min_x: n("cross_min_x")?,
            cross_min_wide: n("cross_min_wide")?,
            cross_landing_depth: n("cross_landing_depth")?,
            cross_landing_offset: n("cross_landing_offset")?,
            header_max_distance: n("header_max_distance")?,
            shot_max_distance: n("shot_max_distance")?,
            shot_post_inset: n("shot_post_inset")?,
            dribble_trigger: n("dribble_trigger_distance")?,
            dribble_beyond: n("dribble_beyond")?,
            take_on_reach_factor: n_or_in_code("take_on_reach_factor")?,
            still_threshold: n_or_in_code("still_threshold")?,
            neutral_after_still_rounds: n_or_in_code("neutral_after_still_rounds")?,
            arrival_tolerance: n_or_in_code("arrival_tolerance")?,
            urgent_sprint_share: n_or_in_code("urgent_sprint_share")?,
            receive_reach_factor: n_or_in_code("receive_reach_factor")?,
            carry_min_range: n_or_in_code("carry_min_range")?,
            dribble_cone: n_or_in_code("dribble_cone")?,
            cross_runner_lanes: n_or_in_code("cross_runner_lanes")?,
            cross_runner_step_x: n_or_in_code("cross_runner_step_x")?,
            cross_runner_step_y: n_or_in_code("cross_runner_step_y")?,
            clearance_spread: n_or_in_code("clearance_spread")?,
            parry_spread: n_or_in_code("parry_spread")?,
            penalty_box_clearance: n_or_in_code("penalty_box_clearance")?,
            touchline_margin: n_or_in_code("touchline_margin")?,
            intercept_line_end: n_or_in_code("intercept_line_end")?,
            kickoff_line_gap: n_or_in_code("kickoff_line_gap")?,
        };
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
        // Every name looked up: report all the missing ones together.
        let missing = missing.into_inner();
        if !missing.is_empty() {
            return Err(ContentError::Missing(missing));
        }
        let pace_var = &r.vars[slots.pace];
        let pace = |name: &str| {
            pace_var.values.get(name).copied().ok_or_else(|| {
                let (file, pointer) = crate::ruleset::split_source(&pace_var.source);
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
            ("save", pipes.save),
            ("claim", pipes.claim),
            ("positioning", pipes.positioning),
        ] {
            if r.pipelines[idx].kind != crate::ruleset::PipelineKind::Action {
                let (file, pointer) = crate::ruleset::split_source(&r.pipelines[idx].source);
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
            shot: ndoc.shot,
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
                .filter(|&v| rs.vars[v].kind == crate::ruleset::VarKind::Context || written.contains(&v))
                .collect();
            (key.len() <= MEMO_KEY).then_some(key)
        };
        let plan = |slot: usize| rs.table_bounds[slot].as_deref().and_then(AnglePlan::new);
        let (orientation_plan, direction_change_plan) = (plan(slots.orientation), plan(slots.direction_change));
        let set_pieces = super::set_pieces::resolve(r)?;
        let legacy_penalty_skill = match set_pieces {
            Some(_) => None,
            None => Some(
                r.need_var(super::legacy::PENALTY_SKILL_BEFORE_0_6, BY).map_err(|m| ContentError::Missing(vec![m]))?,
            ),
        };
        let share = |id: &str| -> Result<Option<f64>, ContentError> {
            match r.param(id) {
                Some(v) if !(0.0..=1.0).contains(&v) => {
                    Err(param_error(r, id, format!("parameter '{id}' is a share between 0 and 1 (is {v})")))
                }
                v => Ok(v),
            }
        };
        let since_0_6 = Since06 {
            foul_box_offset: r.param("foul_box_offset"),
            parry_behind_share: share("parry_behind_share")?,
            clearance_behind_share: share("clearance_behind_share")?,
            cover_distance: r.param("cover_distance"),
            foul_on_difference: r.param("foul_on_difference").is_some_and(|v| v != 0.0),
            foul_share: share("foul_share")?,
        };
        let club_personality =
            crate::club::ClubRules::from_revision(&r.revision).ok().flatten().map(|c| c.personality.scale);
        Ok(Rules {
            club_personality,
            set_pieces,
            legacy_penalty_skill,
            since_0_6,
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
        ContentError::Missing(names) => names
            .iter()
            .map(|m| {
                let (schema, pointer) = match m.what {
                    "parameter" => ("params.schema.json", "/params"),
                    "table" | "range table" => ("tables.schema.json", "/tables"),
                    "pipeline" => ("pipelines.schema.json", "/pipelines"),
                    "variable" => ("vocabulary.schema.json", "/variables"),
                    _ => ("manifest.schema.json", ""),
                };
                // Several documents may share a schema (derived pipelines are pipelines): the
                // one named for the schema first.
                let docs = || rs.revision.documents.iter().filter(|(_, d)| declared_schema(d) == Some(schema));
                let named = schema.replace(".schema", "");
                match docs().find(|(n, _)| **n == named).or_else(|| docs().next()) {
                    Some((name, _)) => Diagnostic::new(rs.revision.file(name), pointer, m.to_string()),
                    None => Diagnostic::new(rs.revision.file("manifest.json"), "/documents", m.to_string()),
                }
            })
            .collect(),
        e @ ContentError::NoDocument { .. } => {
            vec![Diagnostic::new(rs.revision.file("manifest.json"), "/documents", e.to_string())]
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::catalog::{Catalog, ContentTree};
    use crate::dice::{DiceSpec, Odds};

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
        let rs = crate::ruleset::compile(catalog.revision("microfut", Some("0.5.4")).unwrap()).unwrap();
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
