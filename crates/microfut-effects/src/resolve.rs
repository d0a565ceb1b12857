//! Resolving one effect under a policy: selecting its rule (two rules matching is an error,
//! never an arbitrary order), adapting an immutable copy of it (overrides, bypass tags, the
//! pipeline), reading the actors' attributes through their profiles' pipelines, and then either
//! the exact outcome distribution (reads: no dice) or one rolled impact (play).

use super::doc::{Scope, Side};
use super::model::{AttributeProfile, Binding, Effect, Override, Policy, Rule};
use microfut_core::catalog::Labels;
use microfut_core::dice::Dice;
use microfut_core::pipeline::{Entry, Explanation, Part};
use microfut_core::ruleset::{Inputs, Pipeline, Ruleset};
use serde::Serialize;
use std::collections::BTreeMap;

#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum AdaptError {
    #[error("effect '{effect}' matches rules {} of policy {policy}: rules must not overlap", .rules.join(" and "))]
    Ambiguous { policy: String, effect: String, rules: Vec<String> },
    #[error(
        "{origin} ({source_path}) sets armor: false on effect '{effect}', but rule '{rule}' declares no armorBypassTag"
    )]
    NoArmorBypass { effect: String, rule: String, origin: String, source_path: String },
    #[error(
        "{origin} ({source_path}) sets block: false on effect '{effect}', but rule '{rule}' declares no blockBypassTag"
    )]
    NoBlockBypass { effect: String, rule: String, origin: String, source_path: String },
    #[error(
        "{origin} ({source_path}) sets critical: true on effect '{effect}', but rule '{rule}' has no critical stage"
    )]
    NoCritical { effect: String, rule: String, origin: String, source_path: String },
}

/// One override that matched an effect, and whether it decided its field.
#[derive(Debug, Clone, PartialEq, Serialize, serde::Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct AppliedOverride {
    pub origin: String,
    pub field: String,
    pub value: bool,
    /// False when a prohibition of the same field overruled this permission.
    pub decided: bool,
    pub source: String,
}

/// An effect adapted for resolution: a copy with the bypass tags its overrides add, the rule
/// it falls under and the pipeline that computes it. The content's effect is never touched.
#[derive(Debug, Clone, PartialEq)]
pub struct Adapted {
    pub effect: Effect,
    pub rule: Option<usize>,
    pub pipeline: Option<usize>,
    pub critical: bool,
    pub applied: Vec<AppliedOverride>,
}

/// What every resolution records about the policy that decided it.
#[derive(Debug, Clone, PartialEq, Serialize, serde::Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ResolutionPolicy {
    pub policy_id: String,
    pub fingerprint: String,
    /// `None`: no rule selects the effect; it applies its authored amount.
    pub rule: Option<String>,
    pub pipeline: Option<String>,
    pub critical: bool,
    pub bypass_tags: Vec<String>,
    pub overrides: Vec<AppliedOverride>,
}

impl Policy {
    /// The one rule whose selector matches; none is fine (a cost, a block gain), two is an error.
    pub fn select(&self, effect: &Effect) -> Result<Option<usize>, AdaptError> {
        let matching: Vec<usize> =
            (0..self.rules.len()).filter(|&i| self.rules[i].selector.matches(&effect.tags, &effect.channel)).collect();
        match matching.as_slice() {
            [] => Ok(None),
            [one] => Ok(Some(*one)),
            many => Err(AdaptError::Ambiguous {
                policy: self.id.clone(),
                effect: effect.id.clone(),
                rules: many.iter().map(|&i| format!("'{}'", self.rules[i].id)).collect(),
            }),
        }
    }

    /// Adapts a copy of `effect` with the components of the card (or ability) that carries it.
    pub fn adapt(&self, effect: &Effect, components: &[Override]) -> Result<Adapted, AdaptError> {
        let mut copy = effect.clone();
        let Some(ri) = self.select(effect)? else {
            return Ok(Adapted { effect: copy, rule: None, pipeline: None, critical: false, applied: Vec::new() });
        };
        let rule = &self.rules[ri];
        let matching: Vec<&Override> =
            components.iter().chain(&effect.overrides).filter(|o| o.applies_to(effect)).collect();
        let mut applied = Vec::new();
        let mut decide = |field: &'static str, get: fn(&Override) -> Option<bool>| -> Option<(bool, &Override)> {
            let votes: Vec<(&Override, bool)> = matching.iter().filter_map(|o| get(o).map(|v| (*o, v))).collect();
            let forbidden = votes.iter().any(|(_, v)| !v);
            for (o, v) in &votes {
                applied.push(AppliedOverride {
                    origin: o.origin.clone(),
                    field: field.to_string(),
                    value: *v,
                    decided: *v != forbidden,
                    source: o.source.clone(),
                });
            }
            // Prohibitions beat permissions.
            votes.iter().find(|(_, v)| *v != forbidden).map(|(o, v)| (*v, *o))
        };
        let critical = decide("critical", |o| o.critical);
        let armor = decide("armor", |o| o.armor);
        let block = decide("block", |o| o.block);
        let fail = |o: &Override, make: fn(String, String, String, String) -> AdaptError| {
            make(effect.id.clone(), rule.id.clone(), o.origin.clone(), o.source.clone())
        };
        let critical = match critical {
            Some((true, o)) if !rule.has_critical() => {
                return Err(fail(o, |effect, rule, origin, source_path| AdaptError::NoCritical {
                    effect,
                    rule,
                    origin,
                    source_path,
                }));
            }
            Some((v, _)) => v && rule.has_critical(),
            None => rule.has_critical(),
        };
        for (decision, tag, make) in [
            (
                armor,
                &rule.armor_bypass_tag,
                (|effect, rule, origin, source_path| AdaptError::NoArmorBypass { effect, rule, origin, source_path })
                    as fn(String, String, String, String) -> AdaptError,
            ),
            (block, &rule.block_bypass_tag, |effect, rule, origin, source_path| AdaptError::NoBlockBypass {
                effect,
                rule,
                origin,
                source_path,
            }),
        ] {
            if let Some((false, o)) = decision {
                let Some(tag) = tag else { return Err(fail(o, make)) };
                if !copy.tags.contains(tag) {
                    copy.tags.push(tag.clone());
                }
            }
        }
        let pipeline = match (critical, rule.non_critical_pipeline) {
            (false, Some(nc)) => nc,
            _ => rule.amount_pipeline,
        };
        Ok(Adapted { effect: copy, rule: Some(ri), pipeline: Some(pipeline), critical, applied })
    }

    pub fn rule_of(&self, adapted: &Adapted) -> Option<&Rule> {
        adapted.rule.map(|i| &self.rules[i])
    }

    /// The diagnostic a resolution records.
    pub fn diagnostic(&self, rs: &Ruleset, adapted: &Adapted) -> ResolutionPolicy {
        let bypass_tags = self
            .bypasses
            .iter()
            .filter(|b| adapted.rule.is_some() && adapted.effect.tags.contains(&b.tag))
            .map(|b| b.tag.clone())
            .collect();
        ResolutionPolicy {
            policy_id: self.id.clone(),
            fingerprint: self.fingerprint.clone(),
            rule: self.rule_of(adapted).map(|r| r.id.clone()),
            pipeline: adapted.pipeline.map(|p| rs.pipelines[p].id.clone()),
            critical: adapted.critical,
            bypass_tags,
            overrides: adapted.applied.clone(),
        }
    }
}

/// Where an attribute modifier comes from; each kind feeds its own stage of the attribute
/// pipelines.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "lowercase")]
pub enum ProviderKind {
    Status,
    Relic,
    Modifier,
    Mode,
    Encounter,
}

/// One active modifier of an actor's attribute.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Provider {
    pub kind: ProviderKind,
    pub id: String,
    pub label: Labels,
    pub attribute: String,
    pub amount: f64,
    pub source: String,
}

/// An actor as resolution and reads see it: its own values and its active providers.
#[derive(Debug, Clone, Copy)]
pub struct Actor<'a> {
    pub id: &'a str,
    pub values: &'a BTreeMap<String, f64>,
    pub providers: &'a [Provider],
    /// `file#pointer` of the actor's attribute values in content (or where they came from).
    pub source: &'a str,
}

/// An attribute's base (the actor's binding only) and effective value, with the trace.
#[derive(Debug, Clone)]
pub struct AttributeValue {
    pub base: f64,
    pub base_source: String,
    pub effective: f64,
    pub trace: Vec<Entry>,
    /// The providers that fed it, in kind order.
    pub providers: Vec<Provider>,
}

/// Critical tiers for one impact, from the source's chance: guaranteed tiers and the chance of
/// one more, rolled per impact.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Tiers {
    pub chance: f64,
    pub guaranteed: u32,
    pub next_chance: f64,
    /// The bonus per tier as the actor carries it (percent), and as the pipeline reads it.
    pub bonus: f64,
    pub bonus_input: f64,
}

#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum ResolveError {
    #[error(transparent)]
    Adapt(#[from] AdaptError),
    #[error("formula {formula} gives {} tiers for a chance of {}: tiers must be a finite number ≥ 0", shown(*.tiers), shown(*.chance))]
    BadTiers { formula: String, chance: f64, tiers: f64 },
    /// More tiers than the critical input's scale (or the engine's count) allows.
    #[error("formula {formula} gives {} tiers for a chance of {}, more than {max}: {why}", shown(*.tiers), shown(*.chance))]
    TooManyTiers { formula: String, chance: f64, tiers: f64, max: f64, why: String },
    /// A value the policy reads, outside the domain its content declares for it.
    #[error("{what} = {} is outside the policy's domain, {scale} ({source_at}): {how}", shown(*.value))]
    OutOfDomain { what: String, value: f64, scale: String, source_at: String, how: String },
    /// A part of the pipeline gave NaN or an infinity.
    #[error(
        "pipeline '{pipeline}': {part} ({source_at}) is not a finite number at {}{}",
        .inputs.join(", "),
        if .formulas.is_empty() { String::new() } else { format!("; it calls {}", .formulas.join("; ")) }
    )]
    NonFinite { pipeline: String, part: String, source_at: String, inputs: Vec<String>, formulas: Vec<String> },
    /// An amount below zero: the effect's op (subtract or add) carries the sign, so a negative
    /// amount would turn damage into healing.
    #[error(
        "pipeline '{pipeline}' gives {} at {}: an effect's amount is at least 0 (its op, subtract or add, says which way it goes)",
        shown(*.amount),
        .inputs.join(", ")
    )]
    NegativeAmount { pipeline: String, amount: f64, inputs: Vec<String> },
}

/// The most tiers one impact counts: an engine capacity (a tier is a `u32`), not a rule —
/// content bounds them far below through the critical input's scale.
const MAX_TIERS: f64 = (u32::MAX - 1) as f64;

/// A number as a message shows it: `1e308`, not three hundred digits.
pub fn shown(x: f64) -> String {
    if x != 0.0 && (x.abs() >= 1e9 || x.abs() < 1e-6) { format!("{x:e}") } else { format!("{x}") }
}

/// A vocabulary variable's scale in words, and the `file#pointer` that declares it.
fn scale_of(rs: &Ruleset, slot: usize) -> (String, String) {
    let v = &rs.vars[slot];
    let words = match (v.min.is_finite(), v.max.is_finite()) {
        (true, true) => format!("{} to {}", v.min, v.max),
        (true, false) => format!("at least {}", v.min),
        (false, true) => format!("at most {}", v.max),
        (false, false) => "any finite number".to_string(),
    };
    (words, format!("{}/scale", v.source))
}

/// Whether `x` lies in a variable's declared scale (and is whole when the variable is).
fn within(rs: &Ruleset, slot: usize, x: f64) -> bool {
    let v = &rs.vars[slot];
    x.is_finite() && x >= v.min && x <= v.max && (!v.integer || x.fract() == 0.0)
}

/// Every input a pipeline reads, with its value: what a message about the pipeline shows.
fn shown_inputs(rs: &Ruleset, pipeline: &Pipeline, inputs: &Inputs) -> Vec<String> {
    pipeline.inputs.iter().map(|&s| format!("{} = {}", rs.vars[s].id, shown(inputs.get(s)))).collect()
}

/// One branch of an impact's distribution: a critical tier and its exact amount.
#[derive(Debug, Clone)]
pub struct Branch {
    pub tier: u32,
    pub probability: f64,
    pub amount: f64,
    pub trace: Vec<Entry>,
    /// What each settlement consumes in this branch: (binding index, amount).
    pub settled: Vec<(usize, f64)>,
}

/// Every amount one impact can have, with its exact probability (equal amounts merged).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Outcome {
    pub amount: f64,
    pub probability: f64,
}

#[derive(Debug, Clone)]
pub struct Distribution {
    pub tiers: Option<Tiers>,
    pub branches: Vec<Branch>,
    pub outcomes: Vec<Outcome>,
    pub diagnostic: ResolutionPolicy,
}

impl Distribution {
    pub fn expected(&self) -> f64 {
        self.outcomes.iter().map(|o| o.amount * o.probability).sum()
    }
}

/// One rolled impact.
#[derive(Debug, Clone)]
pub struct Impact {
    pub tier: Option<u32>,
    pub amount: f64,
    pub trace: Vec<Entry>,
    pub settled: Vec<(usize, f64)>,
}

impl Policy {
    fn profile(&self, attribute: &str) -> Option<&AttributeProfile> {
        self.attributes.iter().find(|p| p.attribute_id == attribute && p.reads == attribute)
    }

    /// The actor's own value of an attribute, or the default a binding declares for it; `None`
    /// when it has neither (reads then leave it out rather than invent one).
    pub fn base_value(&self, actor: &Actor, attribute: &str) -> Option<(f64, String)> {
        if let Some(&v) = actor.values.get(attribute) {
            return Some((v, format!("{}/{attribute}", actor.source)));
        }
        self.bindings.iter().find(|b| b.attribute == attribute).map(|b| (b.default, format!("{}/default", b.source)))
    }

    /// An attribute through a profile's pipeline: the actor's value, then each kind of provider.
    pub fn attribute_value(&self, rs: &Ruleset, profile: &AttributeProfile, actor: &Actor) -> Option<AttributeValue> {
        let (base, base_source) = self.base_value(actor, &profile.reads)?;
        let mut inputs = rs.inputs();
        let s = self.providers;
        inputs.set(s.base, base);
        let mut providers: Vec<Provider> =
            actor.providers.iter().filter(|p| p.attribute == profile.reads).cloned().collect();
        providers.sort_by_key(|p| p.kind);
        for p in &providers {
            let slot = match p.kind {
                ProviderKind::Status => s.statuses,
                ProviderKind::Relic => s.relics,
                ProviderKind::Modifier => s.modifiers,
                ProviderKind::Mode => s.mode,
                ProviderKind::Encounter => s.encounter,
            };
            inputs.set(slot, inputs.get(slot) + p.amount);
        }
        let pipeline = &rs.pipelines[profile.pipeline];
        let mut trace = Vec::new();
        let effective = pipeline.resolve_traced(&inputs, &mut trace).value;
        let base = trace.iter().find(|e| e.part == Part::Base).map_or(effective, |e| e.amount);
        Some(AttributeValue { base, base_source, effective, trace, providers })
    }

    /// What a binding reads from an actor for an effect with these tags: the bypass value when
    /// a tag bypasses it, else the attribute's effective value (the actor's own, or the
    /// binding's default, plus providers) times the binding's scale.
    pub fn binding_value(&self, rs: &Ruleset, binding: usize, actor: &Actor, tags: &[String]) -> f64 {
        if let Some(b) = self.bypasses.iter().find(|b| b.binding == binding && tags.contains(&b.tag)) {
            return b.value;
        }
        let b: &Binding = &self.bindings[binding];
        let effective = match self.profile(&b.attribute).and_then(|p| self.attribute_value(rs, p, actor)) {
            Some(v) => v.effective,
            None => actor.values.get(&b.attribute).copied().unwrap_or(b.default),
        };
        effective * b.scale
    }

    /// [`Policy::binding_value`], refused when it leaves the domain content declares for it:
    /// the scale of the variable the binding fills (a binding that fills none is refused only
    /// when it is not a finite number).
    pub fn checked_binding(
        &self,
        rs: &Ruleset,
        binding: usize,
        actor: &Actor,
        tags: &[String],
    ) -> Result<f64, ResolveError> {
        let v = self.binding_value(rs, binding, actor, tags);
        let b = &self.bindings[binding];
        let how = format!(
            "binding {} reads it from the {} of '{}' (×{}, {})",
            b.id, b.attribute, actor.id, b.scale, b.source
        );
        match b.input {
            Some(slot) if !within(rs, slot, v) => {
                let (scale, source_at) = scale_of(rs, slot);
                Err(ResolveError::OutOfDomain { what: rs.vars[slot].id.clone(), value: v, scale, source_at, how })
            }
            None if !v.is_finite() => Err(ResolveError::OutOfDomain {
                what: b.attribute.clone(),
                value: v,
                scale: "any finite number".into(),
                source_at: b.source.clone(),
                how,
            }),
            _ => Ok(v),
        }
    }

    /// The source's critical tiers, computed without a roll; `None` when the policy has no
    /// critical model. Refused when the chance leaves its domain, or the tiers leave the
    /// critical input's scale of the rule that would read them (`tier_input`).
    pub fn tiers(&self, rs: &Ruleset, source: &Actor) -> Result<Option<Tiers>, ResolveError> {
        self.tiers_for(rs, source, None)
    }

    fn tiers_for(
        &self,
        rs: &Ruleset,
        source: &Actor,
        tier_input: Option<usize>,
    ) -> Result<Option<Tiers>, ResolveError> {
        let Some(c) = &self.critical else { return Ok(None) };
        let chance = self.checked_binding(rs, c.chance, source, &[])?;
        let bonus_input = self.checked_binding(rs, c.bonus, source, &[])?;
        let scale = self.bindings[c.bonus].scale;
        let formula = rs.formula(&c.formula).expect("checked when the policy compiled");
        let t = formula.call(&[chance]);
        if !t.is_finite() || t < 0.0 {
            return Err(ResolveError::BadTiers { formula: c.formula.clone(), chance, tiers: t });
        }
        let guaranteed = microfut_core::expr::floor(t);
        let next_chance = (t - guaranteed).clamp(0.0, 1.0);
        // A fraction within rounding noise of zero is zero: no roll is made for it.
        let next_chance = if next_chance < microfut_core::expr::DECIMAL_TOLERANCE { 0.0 } else { next_chance };
        // The most tiers an impact can roll must be a value the rule's critical input takes.
        let most = guaranteed + if next_chance > 0.0 { 1.0 } else { 0.0 };
        let declared = tier_input.map(|slot| (slot, rs.vars[slot].max)).filter(|(_, max)| *max < MAX_TIERS);
        let too_many = |max: f64, why: String| ResolveError::TooManyTiers {
            formula: c.formula.clone(),
            chance,
            tiers: most,
            max,
            why,
        };
        if let Some((slot, max)) = declared
            && most > max
        {
            let (words, at) = scale_of(rs, slot);
            return Err(too_many(max, format!("the critical input {}'s scale is {words} ({at})", rs.vars[slot].id)));
        }
        if most > MAX_TIERS {
            return Err(too_many(MAX_TIERS, "the most tiers the engine counts in one impact".into()));
        }
        Ok(Some(Tiers {
            chance,
            guaranteed: guaranteed as u32,
            next_chance,
            bonus: if scale != 0.0 { bonus_input / scale } else { bonus_input },
            bonus_input,
        }))
    }

    /// The pipeline inputs of one impact, every binding read from its side; refused when the
    /// effect's amount or a binding's value leaves the scale its variable declares.
    fn impact_inputs(
        &self,
        rs: &Ruleset,
        adapted: &Adapted,
        source: &Actor,
        target: &Actor,
    ) -> Result<Inputs, ResolveError> {
        let mut inputs = rs.inputs();
        let amount = adapted.effect.amount;
        if !within(rs, self.amount_input, amount) {
            let (scale, source_at) = scale_of(rs, self.amount_input);
            return Err(ResolveError::OutOfDomain {
                what: rs.vars[self.amount_input].id.clone(),
                value: amount,
                scale,
                source_at,
                how: format!("the amount of effect '{}' ({})", adapted.effect.id, adapted.effect.source),
            });
        }
        inputs.set(self.amount_input, amount);
        for (i, b) in self.bindings.iter().enumerate() {
            if let Some(slot) = b.input {
                let actor = if b.side == Side::Source { source } else { target };
                inputs.set(slot, self.checked_binding(rs, i, actor, &adapted.effect.tags)?);
            }
        }
        Ok(inputs)
    }

    /// One evaluation of the adapted pipeline, refused when a part of it is not a finite number
    /// or the amount is negative.
    fn evaluate(&self, rs: &Ruleset, pipeline: &Pipeline, inputs: &Inputs) -> Result<(f64, Vec<Entry>), ResolveError> {
        let mut trace = Vec::new();
        let r = pipeline.resolve_traced(inputs, &mut trace);
        if let Some(f) = pipeline.fault(&r) {
            return Err(ResolveError::NonFinite {
                pipeline: f.pipeline,
                part: f.part,
                inputs: shown_inputs(rs, pipeline, inputs),
                formulas: rs.formulas_at(&f.source_at).iter().map(|f| f.describe()).collect(),
                source_at: f.source_at,
            });
        }
        if r.value < 0.0 {
            return Err(ResolveError::NegativeAmount {
                pipeline: pipeline.id.clone(),
                amount: r.value,
                inputs: shown_inputs(rs, pipeline, inputs),
            });
        }
        Ok((r.value, trace))
    }

    /// What each settlement consumes, from a trace: the reduction its stage made.
    fn settled(&self, pipeline: &Pipeline, trace: &[Entry]) -> Vec<(usize, f64)> {
        let mut out = Vec::new();
        for s in &self.settlements {
            let mut before = 0.0;
            for e in trace {
                if let Part::Modifier(i) = e.part
                    && pipeline.modifiers[i as usize].id == s.stage
                {
                    let absorbed = before - e.after;
                    if absorbed > 0.0 {
                        out.push((s.binding, absorbed));
                    }
                }
                if matches!(e.part, Part::Base | Part::Modifier(_) | Part::Clamp) {
                    before = e.after;
                }
            }
        }
        out
    }

    /// The exact distribution of one impact: every critical tier it can roll, each evaluated
    /// through the adapted pipeline. Reads no dice.
    pub fn distribution(
        &self,
        rs: &Ruleset,
        adapted: &Adapted,
        source: &Actor,
        target: &Actor,
    ) -> Result<Distribution, ResolveError> {
        let diagnostic = self.diagnostic(rs, adapted);
        let (Some(rule), Some(p)) = (self.rule_of(adapted), adapted.pipeline) else {
            let amount = adapted.effect.amount;
            return Ok(Distribution {
                tiers: None,
                branches: vec![Branch { tier: 0, probability: 1.0, amount, trace: Vec::new(), settled: Vec::new() }],
                outcomes: vec![Outcome { amount, probability: 1.0 }],
                diagnostic,
            });
        };
        let pipeline = &rs.pipelines[p];
        let mut inputs = self.impact_inputs(rs, adapted, source, target)?;
        let tiers = if adapted.critical { self.tiers_for(rs, source, rule.critical_input)? } else { None };
        let mut levels: Vec<(u32, f64)> = match tiers {
            Some(t) if t.next_chance > 0.0 => {
                vec![(t.guaranteed, 1.0 - t.next_chance), (t.guaranteed + 1, t.next_chance)]
            }
            Some(t) => vec![(t.guaranteed, 1.0)],
            None => vec![(0, 1.0)],
        };
        levels.retain(|(_, p)| *p > 0.0);
        let mut branches = Vec::new();
        for (tier, probability) in levels {
            if let (Some(slot), true) = (rule.critical_input, adapted.critical) {
                inputs.set(slot, f64::from(tier));
            }
            let (amount, trace) = self.evaluate(rs, pipeline, &inputs)?;
            let settled = self.settled(pipeline, &trace);
            branches.push(Branch { tier, probability, amount, trace, settled });
        }
        let mut outcomes: Vec<Outcome> = Vec::new();
        for b in &branches {
            match outcomes.iter_mut().find(|o| o.amount == b.amount) {
                Some(o) => o.probability += b.probability,
                None => outcomes.push(Outcome { amount: b.amount, probability: b.probability }),
            }
        }
        outcomes.sort_by(|a, b| a.amount.total_cmp(&b.amount));
        Ok(Distribution { tiers, branches, outcomes, diagnostic })
    }

    /// One impact, rolled: the tier's extra chance draws from the dice only when it is above
    /// zero, so an impact that cannot crit (or always does) never moves the stream.
    pub fn impact(
        &self,
        rs: &Ruleset,
        adapted: &Adapted,
        source: &Actor,
        target: &Actor,
        dice: &mut Dice,
    ) -> Result<Impact, ResolveError> {
        let (Some(rule), Some(p)) = (self.rule_of(adapted), adapted.pipeline) else {
            return Ok(Impact { tier: None, amount: adapted.effect.amount, trace: Vec::new(), settled: Vec::new() });
        };
        let pipeline = &rs.pipelines[p];
        let mut inputs = self.impact_inputs(rs, adapted, source, target)?;
        let mut tier = None;
        if let (Some(slot), true) = (rule.critical_input, adapted.critical)
            && let Some(t) = self.tiers_for(rs, source, Some(slot))?
        {
            let extra = t.next_chance > 0.0 && dice.unit() < t.next_chance;
            let rolled = t.guaranteed + u32::from(extra);
            inputs.set(slot, f64::from(rolled));
            tier = Some(rolled);
        }
        let (amount, trace) = self.evaluate(rs, pipeline, &inputs)?;
        let settled = self.settled(pipeline, &trace);
        Ok(Impact { tier, amount, trace, settled })
    }

    /// The bucket a stage belongs to.
    pub fn bucket_of(&self, stage: &str) -> Option<(usize, Scope)> {
        self.buckets.iter().position(|b| b.stages.iter().any(|s| s == stage)).map(|i| (i, self.buckets[i].scope))
    }
}

/// A traced pipeline's rows (labels, amounts, running values, content sources) — the one place
/// an effects trace is explained (the CLI's tables, reports and the projections all call it).
/// Effect amounts are derived values with no roll, so `Pipeline::explain` gets a neutral
/// resolution (it reads only the trace).
pub fn explain(rs: &Ruleset, pipeline: usize, trace: &[Entry]) -> Explanation {
    let unused = microfut_core::pipeline::Resolution {
        value: 0.0,
        raw: 0.0,
        difficulty: None,
        fraction: 0.0,
        probability: None,
        probability_above: None,
        possible: true,
        blocked_by: None,
        nonfinite: None,
    };
    rs.pipelines[pipeline].explain(trace, &unused)
}
