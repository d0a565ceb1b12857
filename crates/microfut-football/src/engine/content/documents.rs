//! The revision's documents the engine reads as they are written (formations, the NPC's
//! utility): serde types, checked against their schemas before they get here.

use super::*;

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
pub(super) struct FormationsDoc {
    pub(super) default: String,
    pub(super) formations: Vec<Formation>,
    pub(super) bench: Bench,
    #[serde(default)]
    pub(super) substitutions: Option<Substitutions>,
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
pub(super) struct Adaptation {
    pub(super) risk_tolerance: Option<String>,
    pub(super) security: Option<String>,
    pub(super) verticality: Option<String>,
}

#[derive(Debug, Clone, Deserialize)]
pub(super) struct Maps {
    pub(super) opportunity: String,
    pub(super) danger: String,
}

#[derive(Debug, Clone, Copy, Deserialize)]
pub struct ShotNpc {
    pub goal_value: f64,
}

/// `npc.json`'s `shot`: the goal value and (engine 0.5.6) the keeper a shot is priced against.
#[derive(Debug, Clone, Deserialize)]
pub(super) struct ShotDoc {
    pub(super) goal_value: f64,
    /// Sheet values the NPC assumes for the keeper in goal when it weighs a shot or a header
    /// (his position and the shot's geometry stay his own); absent, the keeper as he is.
    #[serde(default)]
    pub(super) expected_keeper: Option<std::collections::BTreeMap<String, f64>>,
    /// Context values the NPC assumes for the shooter, the blockers and the keeper when it
    /// weighs a shot (the crowd's `away_side`, say); absent, the match as it is.
    #[serde(default)]
    pub(super) expected_context: Option<std::collections::BTreeMap<String, f64>>,
    /// Engine 0.5.11: sheet values the NPC assumes for the striker himself when it weighs a
    /// shot or a header (where he stands and who is in the way stay his own); absent, the
    /// striker as he is.
    #[serde(default)]
    pub(super) expected_shooter: Option<std::collections::BTreeMap<String, f64>>,
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
pub(super) struct CarryDoc {
    pub(super) directions: Vec<f64>,
    pub(super) with_ball_pace: u32,
    pub(super) lines: Vec<String>,
}

#[derive(Debug, Clone)]
pub struct CarryNpc {
    pub directions: Vec<f64>,
    /// The rotation of each direction, computed once.
    pub turns: Vec<crate::engine::geometry::Turn>,
    pub with_ball_pace: u32,
    /// Lines whose players consider carrying the ball (keepers distribute it).
    pub lines: Vec<crate::engine::state::Line>,
}

#[derive(Debug, Clone, Deserialize)]
pub(super) struct NpcDoc {
    pub(super) weights: Weights,
    pub(super) personality: PersonalityScale,
    pub(super) adaptation: Adaptation,
    pub(super) maps: Maps,
    pub(super) shot: ShotDoc,
    pub(super) noise: f64,
    pub(super) carry: CarryDoc,
    pub(super) defending: Defending,
    pub(super) retention: usize,
    #[serde(default)]
    pub(super) cross: Option<CrossDoc>,
    #[serde(default)]
    pub(super) phases: Vec<Phase>,
    #[serde(default)]
    pub(super) bias: KindBias,
    #[serde(default)]
    pub(super) possession_value: Option<PossessionValue>,
    /// Engine 0.5.8: context values every player is read with while the NPC weighs its own
    /// side's candidates (`away_side` 0: it plans as if the crowd were not there); absent, the
    /// match as it is.
    #[serde(default)]
    pub(super) plan_context: Option<std::collections::BTreeMap<String, f64>>,
}

/// The value of having the ball (0.6.4, issue 11): what losing it costs the NPC besides the
/// danger where it is lost. Without it the risk term is the danger map alone, which is near zero
/// in the opponent's half — so a side there gave the ball away (a poor shot, a forced pass) at
/// no cost, and a stronger side turned the ball into shots instead of keeping it. The value is
/// `weight × K`, K the holder's best pass-test chance among the decision's passes: a side that
/// can keep the ball values it more. Absent: the engine weighs exactly what it did before.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PossessionValue {
    /// The value of possession for a holder sure to keep the ball with his next pass, in the
    /// units of the danger map (the risk term's).
    pub weight: f64,
    /// The value scaled by how far the holder's team leads the opponent in a skill (the
    /// alternative the design names when K alone does not separate strong and weak sides).
    #[serde(default)]
    pub lead: Option<LeadDoc>,
    #[serde(default)]
    pub label: Option<microfut_core::catalog::Labels>,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LeadDoc {
    /// The variable (a skill) whose mean over each side's outfield players on the pitch is compared.
    pub skill: String,
    /// The value is multiplied by max(0, 1 + per_point × (own mean − opponents' mean)).
    pub per_point: f64,
}

/// The value of possession as the engine reads it.
#[derive(Debug, Clone, Copy)]
pub struct PossessionValueNpc {
    pub weight: f64,
    /// (the skill's variable, per point of lead), when the value follows the team's lead.
    pub lead: Option<(usize, f64)>,
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
    pub fn of(&self, k: crate::engine::candidate::Kind) -> f64 {
        use crate::engine::candidate::Kind;
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
pub(super) struct CrossDoc {
    pub(super) probability: CrossProbability,
    pub(super) runners: Vec<String>,
    pub(super) markers: Vec<String>,
    pub(super) box_runs: bool,
    #[serde(default)]
    pub(super) box_runs_from_x: Option<f64>,
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
    pub runners: Vec<crate::engine::state::Line>,
    /// Lines whose players track them goal-side.
    pub markers: Vec<crate::engine::state::Line>,
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
    /// 0.6.4: the value of possession; `None`: the risk term is as before, bit for bit.
    pub possession_value: Option<PossessionValueNpc>,
    /// Engine 0.5.6: (slot, value) of the sheet the NPC prices shots against in place of the
    /// keeper's own — what a side expects of a keeper, so that a weaker one is scored past more
    /// often without being shot at more often. Empty: the keeper in goal, as before.
    pub expected_keeper: Vec<(usize, f64)>,
    /// Engine 0.5.6: (slot, value) of context the NPC prices shots under, on the shooter, the
    /// blockers and the keeper — the intention reckons with an ordinary day, the execution
    /// meets the real one. Empty: the context as it is.
    pub expected_context: Vec<(usize, f64)>,
    /// Engine 0.5.11: (slot, value) of the sheet the NPC prices a strike with in place of the
    /// striker's own — a side chooses to shoot from the chance the situation offers a typical
    /// striker, so a better finisher scores more of his shots without taking more of them.
    /// Empty: the striker as he is.
    pub expected_shooter: Vec<(usize, f64)>,
    /// Engine 0.5.8: (slot, value) of context on every player while the NPC weighs the candidates
    /// of a side it plays (never a person's: the odds a person is shown are the real ones). The
    /// crowd then changes the execution, not the intention — an away side that saw its passes
    /// priced lower chose other play, and that choice paid. Empty: the context as it is.
    pub plan_context: Vec<(usize, f64)>,
}
