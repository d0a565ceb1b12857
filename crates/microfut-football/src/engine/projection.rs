//! Read-only views of a match for front ends: the dice of the current round, and a player's
//! values projected into the match context (the pattern of seed 002's attribute reads).
//!
//! Problem: a person playing wants to see why a number is what it is — the player's sheet
//! (base) against what the match makes of it (stamina, pressure, body orientation) — and what
//! the dice said, without the front end computing any rule and without a read changing the match.
//!
//! Decision: the projection evaluates the revision's own pipelines, traced, on the player's
//! inputs in a stated context: where he stands now, his stamina, the pressure on him, his body
//! measured against the opponents' goal, distance-reading stages reading the distance to that
//! goal (the context of a strike from where he stands, set by the same code a shot uses). Other
//! context values are the vocabulary's defaults. Every player input the engine's setters touch is
//! saved first and put back after, bit for bit, and no die is drawn (the draw count proves it), so
//! reading is invisible to the match and to its replay. The roll journal is filled by the engine's
//! one place that rolls a test (`Match::test`, and the shot's own roll) and cleared when a round
//! begins.
//!
//! Limits: the projection is not a candidate's odds — a pass to a given team-mate has its own
//! distance and orientation, which the candidate's explanation shows; the context tags say which
//! values were set. Attributes and skills have no pipeline of their own: their effective value is
//! the sheet's, and their match effect shows in the tests that read them.

use super::Match;
use super::content::Slots;
use super::geometry::V2;
use microfut_core::catalog::Labels;
use microfut_core::pipeline::{ContributionView, Part, Resolution, Roll};
use microfut_core::ruleset::{Inputs, Pipeline, PipelineKind, Ruleset, VarKind};
use serde::Serialize;
use std::collections::BTreeMap;

/// What a rolled test was for: the branch of play that rolled it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RollRole {
    /// The carrier's action: a pass, a throw, a cross, a shot, a penalty (the declared or
    /// chosen candidate's own test).
    Action,
    /// The carrier's test in a duel on the ball, after a carry or a dribble (or a shield while
    /// standing).
    Duel,
    /// The defender's tackle (a keeper's smother) in that duel.
    Tackle,
    /// An opponent on a pass's line.
    Interception,
    /// An opponent on a shot's line.
    Block,
    /// The receiver's control of a pass.
    Control,
    /// A contestant for a cross in the air.
    Aerial,
    /// A header at goal after a won cross.
    Header,
    /// The keeper against a shot on target.
    Save,
    /// A player gathering a loose ball.
    Gather,
    /// An off-ball player reading where to stand when possession changes.
    Positioning,
}

impl RollRole {
    pub fn name(self) -> &'static str {
        match self {
            RollRole::Action => "action",
            RollRole::Duel => "duel",
            RollRole::Tackle => "tackle",
            RollRole::Interception => "interception",
            RollRole::Block => "block",
            RollRole::Control => "control",
            RollRole::Aerial => "aerial",
            RollRole::Header => "header",
            RollRole::Save => "save",
            RollRole::Gather => "gather",
            RollRole::Positioning => "positioning",
        }
    }

    /// The role of a name written by [`RollRole::name`].
    pub fn from_name(name: &str) -> Option<RollRole> {
        [
            RollRole::Action,
            RollRole::Duel,
            RollRole::Tackle,
            RollRole::Interception,
            RollRole::Block,
            RollRole::Control,
            RollRole::Aerial,
            RollRole::Header,
            RollRole::Save,
            RollRole::Gather,
            RollRole::Positioning,
        ]
        .into_iter()
        .find(|r| r.name() == name)
    }
}

/// One test rolled this round.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct RollRecord {
    /// Player index.
    pub player: usize,
    /// Pipeline index in the ruleset.
    pub pipeline: usize,
    /// The difficulty the dice were compared against.
    pub difficulty: i32,
    pub total: u32,
    pub margin: i32,
    pub success: bool,
    /// Exact chance the test had.
    pub probability: f64,
    /// What it was rolled for (which branch of play happened).
    pub role: RollRole,
}

/// A player's value, base against effective, with where the difference comes from.
#[derive(Debug, Clone, Serialize)]
pub struct ProjectedValue {
    pub id: String,
    /// `attribute`, `skill`, `characteristic`, `derived` or `test`.
    pub kind: &'static str,
    pub label: Labels,
    pub unit: Option<String>,
    /// The sheet's value (for a pipeline: its base stage, which reads only the sheet).
    pub base: f64,
    /// In the match context (for a pipeline: after every modifier and the clamp).
    pub effective: f64,
    pub pipeline: Option<String>,
    /// SHA-256 of the canonical JSON of the pipeline's entry and of every shared stage it names.
    pub pipeline_fingerprint: Option<String>,
    /// For tests: the difficulty and the exact chance of success in this context.
    pub difficulty: Option<i32>,
    pub probability: Option<f64>,
    /// Which parts of the context the value depends on.
    pub context_tags: Vec<String>,
    pub contributions: Vec<ContributionView>,
}

/// The context a projection was evaluated in.
#[derive(Debug, Clone, Serialize)]
pub struct ProjectionContext {
    pub stamina: f64,
    pub nearest_opponent: f64,
    pub opponents_within_3m: f64,
    /// Degrees between the body and the opponents' goal; `None` when the body is neutral.
    pub orientation: Option<f64>,
    pub distance_to_goal: f64,
    pub angle_to_goal: f64,
}

#[derive(Debug, Clone, Serialize)]
pub struct Projection {
    pub round: u32,
    pub player: usize,
    pub context: ProjectionContext,
    pub values: Vec<ProjectedValue>,
}

impl Match {
    /// Raw words the run's dice have drawn: a read must leave it unchanged.
    pub fn dice_draws(&self) -> u64 {
        self.play.dice.draws()
    }

    /// The tests rolled since the current round began (after `decide`, the whole round).
    pub fn round_rolls(&self) -> &[RollRecord] {
        &self.chronicle.rolls
    }

    pub(super) fn journal(&mut self, p: usize, pipe: usize, r: &Resolution, roll: Roll, role: RollRole) {
        self.chronicle.rolls.push(RollRecord {
            player: p,
            pipeline: pipe,
            // The difficulty the dice faced: with a fractional difficulty the roll is against the
            // next one up when the fraction's draw says so (`Resolution::roll`), and a reader
            // must see margin = total − difficulty either way.
            difficulty: roll.total as i32 - roll.margin,
            total: roll.total,
            margin: roll.margin,
            success: roll.success,
            probability: r.chance(),
            role,
        });
    }

    /// A pending candidate's explanation: its test as it will be rolled if declared now (see
    /// [`Match::explain_candidate`]), leaving the match as it was.
    pub fn explain_pending(&mut self, i: usize) -> Option<microfut_core::pipeline::Explanation> {
        self.play.pending.as_ref()?;
        self.explain_candidate(i)
    }

    /// Player `p`'s values in the match context. Read-only: no die, no lasting change.
    pub fn project(&mut self, p: usize) -> Option<Projection> {
        if p >= self.play.state.players.len() {
            return None;
        }
        let saved = self.play.state.players[p].inputs.clone();
        let exact = self.scratch.exact_angles;
        self.scratch.exact_angles = true;
        let inputs = self.strike_context(p);
        self.play.state.players[p].inputs = saved;
        self.scratch.exact_angles = exact;
        let rules = &self.rules;
        let pl = &self.play.state.players[p];
        let sheet = &self.play.teams[pl.team].club.squad[pl.sheet];
        let mut values = sheet_values(&rules.rs, &inputs, &sheet.name);
        values.extend(pipeline_values(&rules.rs, &rules.slots, &inputs));
        let context = projection_context(&rules.slots, &inputs, pl.dir);
        Some(Projection { round: self.play.state.round, player: p, context, values })
    }

    /// Player `p`'s inputs in the context of a strike from where he stands: context values from
    /// the vocabulary's defaults, then the strike's setters. The caller puts his inputs back.
    fn strike_context(&mut self, p: usize) -> Inputs {
        let rules = self.rules.clone();
        let rs = &rules.rs;
        let defaults = rs.inputs();
        for (slot, v) in rs.vars.iter().enumerate() {
            if v.kind == VarKind::Context {
                self.play.state.players[p].inputs.set(slot, defaults.get(slot));
            }
        }
        self.prepare_strike(p, rules.pipes.finishing);
        self.play.state.players[p].inputs.clone()
    }
}

/// The context a projection's `inputs` state (`dir`: the player's body).
fn projection_context(s: &Slots, inputs: &Inputs, dir: V2) -> ProjectionContext {
    let neutral = inputs.get(s.neutral_orientation) > 0.0 || dir == V2::ZERO;
    ProjectionContext {
        stamina: inputs.get(s.stamina),
        nearest_opponent: inputs.get(s.nearest_opponent),
        opponents_within_3m: inputs.get(s.opponents_within_3m),
        orientation: (!neutral).then(|| inputs.get(s.orientation)),
        distance_to_goal: inputs.get(s.distance),
        angle_to_goal: inputs.get(s.angle),
    }
}

/// Attributes and skills: the sheet's value, effective as it is.
fn sheet_values(rs: &Ruleset, inputs: &Inputs, name: &str) -> Vec<ProjectedValue> {
    let mut values = Vec::new();
    for (slot, v) in rs.vars.iter().enumerate() {
        let kind = match v.kind {
            VarKind::Attribute => "attribute",
            VarKind::Skill => "skill",
            _ => continue,
        };
        let value = inputs.get(slot);
        let pointer = if kind == "attribute" { "attributes" } else { "skills" };
        values.push(ProjectedValue {
            id: v.id.clone(),
            kind,
            label: v.label.clone(),
            unit: v.unit.clone(),
            base: value,
            effective: value,
            pipeline: None,
            pipeline_fingerprint: None,
            difficulty: None,
            probability: None,
            context_tags: vec!["sheet".into()],
            contributions: vec![ContributionView {
                stage: "sheet".into(),
                kind: "sheet",
                label: Labels { pt_br: format!("Ficha de {name}"), en: format!("{name}'s sheet") },
                op: "set",
                amount: value,
                input: None,
                running: value,
                source: format!("sheet#/{pointer}/{}", v.id),
            }],
        });
    }
    values
}

/// Every test, characteristic and derived value, evaluated traced on `inputs`.
fn pipeline_values(rs: &Ruleset, s: &Slots, inputs: &Inputs) -> Vec<ProjectedValue> {
    let mut values = Vec::new();
    let mut trace = Vec::new();
    for pipe in &rs.pipelines {
        let kind = match (pipe.kind, pipe.output) {
            (PipelineKind::Action, _) => "test",
            (PipelineKind::Derived, Some(out)) => match rs.vars[out].kind {
                VarKind::Characteristic => "characteristic",
                VarKind::Context => continue,
                _ => "derived",
            },
            (PipelineKind::Derived, None) => continue,
        };
        trace.clear();
        let r = pipe.resolve_traced(inputs, &mut trace);
        let base = trace.iter().find(|e| e.part == Part::Base).map_or(r.value, |e| e.after);
        let explanation = pipe.explain(&trace, &r);
        let (id, label, unit) = match pipe.output {
            Some(out) if kind != "test" => {
                (rs.vars[out].id.clone(), rs.vars[out].label.clone(), rs.vars[out].unit.clone())
            }
            // A test shares its name with a skill (`control`, `finishing`): ids stay unique.
            _ => (format!("test:{}", pipe.id), pipe.label.clone(), None),
        };
        let mut contributions = explanation.working;
        contributions.extend(explanation.requires);
        contributions.extend(explanation.contributions);
        values.push(ProjectedValue {
            id,
            kind,
            label,
            unit,
            base,
            effective: r.value,
            pipeline: Some(pipe.id.clone()),
            pipeline_fingerprint: Some(pipeline_fingerprint(rs, pipe)),
            difficulty: if kind == "test" && r.possible { r.difficulty } else { None },
            probability: (kind == "test").then(|| r.chance()),
            context_tags: context_tags(s, pipe),
            contributions,
        });
    }
    values
}

/// Which parts of the context a pipeline reads ("sheet" when none).
fn context_tags(s: &Slots, pipe: &Pipeline) -> Vec<String> {
    let mut tags = Vec::new();
    for (tag, slot) in [
        ("stamina", s.stamina),
        ("pressure", s.nearest_opponent),
        ("orientation", s.orientation),
        ("distance:goal", s.distance),
        ("angle:goal", s.angle),
    ] {
        if pipe.inputs.contains(&slot) {
            tags.push(tag.to_string());
        }
    }
    if tags.is_empty() {
        tags.push("sheet".into());
    }
    tags
}

/// `sha256:…` of the pipeline's own entry and every stage entry it names elsewhere (shared
/// modifiers), by content path.
pub fn pipeline_fingerprint(rs: &microfut_core::ruleset::Ruleset, pipe: &microfut_core::ruleset::Pipeline) -> String {
    let mut parts: BTreeMap<String, serde_json::Value> = BTreeMap::new();
    let sources = std::iter::once(pipe.source.as_str())
        .chain(pipe.lets.iter().map(|s| s.source.as_str()))
        .chain(std::iter::once(pipe.base.source.as_str()))
        .chain(pipe.modifiers.iter().map(|s| s.source.as_str()));
    for src in sources {
        let (file, pointer) = src.split_once('#').unwrap_or((src, ""));
        if let Some(v) = rs.revision.document(file).and_then(|d| d.pointer(pointer)) {
            parts.entry(src.to_string()).or_insert_with(|| v.clone());
        }
    }
    microfut_core::catalog::fingerprint(&parts)
}
