//! Reads (CaptureOnly): an actor's attributes and critical rules as seed 002's REST projection
//! shows them. Every function here takes the run by shared reference and calls the same
//! providers, profile pipelines and formulas as execution — so a read cannot draw a die,
//! settle a capacity, change a resource or commit a command, and it shows exactly what a
//! resolution would use. Nothing is simulated to open a panel. A mode without a policy has no
//! attributes to show: the collection is empty, no other game's defaults are invented.
//!
//! Base is the actor's own binding (its value, or the binding's declared default); effective
//! adds its statuses, relics, combat modifiers, mode and encounter — never one card's
//! conditional bonus (that belongs to the card's own inspection; `contextTags` say so).
//!
//! These types are the HTTP contract of `microfut serve`'s reads (seed 002's REST shape), so
//! they carry their OpenAPI schemas (named `Effect…` there, beside Microfut's own).

use super::combat::{ActorState, Run};
use super::model::{AttributeProfile, Policy};
use super::resolve::{Actor, ProviderKind};
use microfut_core::catalog::Labels;
use microfut_core::pipeline::Part;
use serde::Serialize;

/// At most this many contributions per attribute; the rest are counted as truncated.
pub const MAX_CONTRIBUTIONS: usize = 64;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "snake_case")]
#[cfg_attr(feature = "openapi", schema(as = EffectAuthority))]
pub enum Authority {
    /// The hero as the active encounter has it.
    EncounterActor,
    /// The hero between encounters.
    PersistentCharacter,
    /// An actor of the combat's current version.
    CombatActor,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[cfg_attr(feature = "openapi", schema(as = EffectContentRevision))]
pub struct ContentRevision {
    pub ruleset: String,
    pub version: String,
    pub fingerprint: String,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[cfg_attr(feature = "openapi", schema(as = EffectPolicyRef))]
pub struct PolicyRef {
    pub id: String,
    pub fingerprint: String,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "lowercase")]
#[cfg_attr(feature = "openapi", schema(as = EffectChange))]
pub enum Change {
    Base,
    Reduced,
    Increased,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "openapi", schema(as = EffectProviderRef))]
pub struct ProviderRef {
    pub kind: ProviderKind,
    pub id: String,
    /// The attribute it modifies (an attribute read through another shows the other's units).
    pub attribute: String,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "openapi", schema(as = EffectContribution))]
pub struct Contribution {
    pub stage: String,
    /// `base`, `modifier` (a stage of the pipeline), `clamp`, or `provider` (one source feeding
    /// the stage above it).
    pub kind: String,
    pub label: Labels,
    pub op: String,
    /// In display units for base and added amounts; a factor for `mul`; providers in the units
    /// of the attribute they modify.
    pub amount: f64,
    /// The value after it, in display units (absent for providers).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub running: Option<f64>,
    pub source: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub provider: Option<ProviderRef>,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "openapi", schema(as = EffectAttributeView))]
pub struct AttributeView {
    pub attribute_id: String,
    pub display_name: Labels,
    pub unit: String,
    pub flat_value: bool,
    pub base_value: f64,
    pub effective_value: f64,
    pub change: Change,
    pub pipeline_id: String,
    pub pipeline_fingerprint: String,
    pub context_tags: Vec<String>,
    pub contributions: Vec<Contribution>,
    pub contributions_truncated: bool,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "openapi", schema(as = EffectCriticalRules))]
pub struct CriticalRules {
    pub chance_percent: f64,
    pub guaranteed_tiers: u32,
    pub next_tier_chance_percent: f64,
    pub bonus_per_tier_percent: f64,
    pub formula: String,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "openapi", schema(as = EffectAttributeRead))]
pub struct AttributeRead {
    pub run_id: String,
    pub combat_id: Option<String>,
    pub run_sequence: u64,
    pub combat_step: Option<u64>,
    pub content_revision: ContentRevision,
    pub mode: String,
    pub policy: Option<PolicyRef>,
    pub actor_id: String,
    pub authority: Authority,
    pub attributes: Vec<AttributeView>,
    pub critical_rules: Option<CriticalRules>,
}

#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum ReadError {
    #[error("combat '{combat}' is not the active combat of run '{run}' ({active})")]
    NotActive { combat: String, run: String, active: String },
    #[error("combat '{combat}' has no actor '{actor}' (actors: {known})")]
    UnknownActor { combat: String, actor: String, known: String },
}

/// `GET /api/v1/runs/{runId}/character-attributes`: the hero of the active encounter when
/// there is one, the persistent character outside it.
pub fn character_attributes(run: &Run) -> AttributeRead {
    match run.combat() {
        Some(c) => read(run, &c.hero, Authority::EncounterActor),
        None => read(run, &run.persistent_hero(), Authority::PersistentCharacter),
    }
}

/// `GET /api/v1/combats/{combatId}/actors/{actorId}/attributes`: an actor of the run's active
/// combat, as its current version has it.
pub fn combat_actor_attributes(run: &Run, combat: &str, actor: &str) -> Result<AttributeRead, ReadError> {
    let c = run.combat().filter(|c| c.id == combat).ok_or_else(|| ReadError::NotActive {
        combat: combat.into(),
        run: run.id().into(),
        active: run.combat().map_or("no combat is active".into(), |c| format!("the active one is '{}'", c.id)),
    })?;
    let a = c.actor(actor).ok_or_else(|| ReadError::UnknownActor {
        combat: combat.into(),
        actor: actor.into(),
        known: std::iter::once(&c.hero).chain(&c.enemies).map(|a| a.id.as_str()).collect::<Vec<_>>().join(", "),
    })?;
    Ok(read(run, a, Authority::CombatActor))
}

fn read(run: &Run, actor: &ActorState, authority: Authority) -> AttributeRead {
    let world = run.world();
    let rs = &world.rs;
    let policy = run.policy();
    let (attributes, critical_rules) = match policy {
        Some(p) => {
            let providers = run.providers_of(actor);
            let view = Actor { id: &actor.id, values: &actor.values, providers: &providers, source: &actor.source };
            let attributes = p.attributes.iter().filter_map(|prof| attribute(run, p, prof, &view)).collect();
            let critical = p.tiers(rs, &view).ok().flatten().map(|t| CriticalRules {
                chance_percent: t.chance,
                guaranteed_tiers: t.guaranteed,
                next_tier_chance_percent: t.next_chance * 100.0,
                bonus_per_tier_percent: t.bonus,
                formula: p.critical.as_ref().map(|c| c.formula.clone()).unwrap_or_default(),
            });
            (attributes, critical)
        }
        None => (Vec::new(), None),
    };
    let combat = run.combat();
    AttributeRead {
        run_id: run.id().into(),
        combat_id: combat.map(|c| c.id.clone()),
        run_sequence: run.sequence(),
        combat_step: combat.map(|c| c.commands),
        content_revision: ContentRevision {
            ruleset: rs.id.clone(),
            version: rs.version.to_string(),
            fingerprint: rs.fingerprint.clone(),
        },
        mode: run.mode().id.clone(),
        policy: policy.map(|p| PolicyRef { id: p.id.clone(), fingerprint: p.fingerprint.clone() }),
        actor_id: actor.id.clone(),
        authority,
        attributes,
        critical_rules,
    }
}

fn attribute(run: &Run, policy: &Policy, prof: &AttributeProfile, actor: &Actor) -> Option<AttributeView> {
    let rs = &run.world().rs;
    let v = policy.attribute_value(rs, prof, actor)?;
    let pipeline = &rs.pipelines[prof.pipeline];
    let explained = super::resolve::explain(rs, prof.pipeline, &v.trace);
    let t = prof.transform;
    let slots = policy.providers;
    let slot_kind = |slot: usize| match slot {
        s if s == slots.statuses => Some(ProviderKind::Status),
        s if s == slots.relics => Some(ProviderKind::Relic),
        s if s == slots.modifiers => Some(ProviderKind::Modifier),
        s if s == slots.mode => Some(ProviderKind::Mode),
        s if s == slots.encounter => Some(ProviderKind::Encounter),
        _ => None,
    };
    let mut rows = Vec::new();
    for (k, c) in explained.contributions.iter().enumerate() {
        let entry = v.trace.iter().filter(|e| matches!(e.part, Part::Base | Part::Modifier(_) | Part::Clamp)).nth(k);
        let amount = match c.op {
            "mul" => c.amount,
            "set" => prof.display(c.amount),
            _ if c.kind == "base" => prof.display(c.amount),
            _ => c.amount * t.display_scale,
        };
        let mut row = Contribution {
            stage: c.stage.clone(),
            kind: c.kind.to_string(),
            label: c.label.clone(),
            op: c.op.to_string(),
            amount,
            running: Some(prof.display(c.running)),
            source: if c.kind == "base" { v.base_source.clone() } else { c.source.clone() },
            provider: None,
        };
        if c.kind == "base" {
            row.source = format!("{} ← {}", v.base_source, c.source);
        }
        // Skip stages of kinds with no provider: a zero that explains nothing.
        let stage = match entry.map(|e| e.part) {
            Some(Part::Modifier(i)) => Some(&pipeline.modifiers[i as usize]),
            _ => None,
        };
        let kinds: Vec<ProviderKind> =
            stage.map(|s| s.reads.iter().filter_map(|&r| slot_kind(r)).collect()).unwrap_or_default();
        let feeding: Vec<_> = v.providers.iter().filter(|p| kinds.contains(&p.kind)).collect();
        if stage.is_some() && !kinds.is_empty() && feeding.is_empty() && c.amount == 0.0 {
            continue;
        }
        rows.push(row);
        for p in feeding {
            rows.push(Contribution {
                stage: c.stage.clone(),
                kind: "provider".into(),
                label: p.label.clone(),
                op: "add".into(),
                amount: p.amount,
                running: None,
                source: p.source.clone(),
                provider: Some(ProviderRef { kind: p.kind, id: p.id.clone(), attribute: p.attribute.clone() }),
            });
        }
    }
    let truncated = rows.len() > MAX_CONTRIBUTIONS;
    rows.truncate(MAX_CONTRIBUTIONS);
    let (base, effective) = (prof.display(v.base), prof.display(v.effective));
    let change = if effective > base {
        Change::Increased
    } else if effective < base {
        Change::Reduced
    } else {
        Change::Base
    };
    Some(AttributeView {
        attribute_id: prof.attribute_id.clone(),
        display_name: prof.display_name.clone(),
        unit: prof.unit.clone(),
        flat_value: t.flat_value,
        base_value: base,
        effective_value: effective,
        change,
        pipeline_id: prof.pipeline_id.clone(),
        pipeline_fingerprint: prof.pipeline_fingerprint.clone(),
        context_tags: prof.context_tags.clone(),
        contributions: rows,
        contributions_truncated: truncated,
    })
}

fn num(x: f64) -> String {
    if x.fract() == 0.0 {
        format!("{}", x as i64)
    } else {
        let s = format!("{x:.2}");
        s.trim_end_matches('0').trim_end_matches('.').to_string()
    }
}

/// A read as text: one line per attribute, base → effective, then its sources.
pub fn render(read: &AttributeRead, pt: bool) -> String {
    let lab = |l: &Labels| if pt { l.pt_br.clone() } else { l.en.clone() };
    let mut out = format!(
        "{} {} · {} {} · {} {}{}\n",
        if pt { "ator" } else { "actor" },
        read.actor_id,
        if pt { "autoridade" } else { "authority" },
        serde_json::to_value(read.authority).expect("serialises").as_str().unwrap_or_default(),
        if pt { "sequência" } else { "sequence" },
        read.run_sequence,
        read.combat_id
            .as_ref()
            .map(|c| format!(" · combat {c} step {}", read.combat_step.unwrap_or(0)))
            .unwrap_or_default()
    );
    if read.policy.is_none() {
        out.push_str(if pt {
            "  o modo não seleciona política: nenhum atributo\n"
        } else {
            "  the mode selects no policy: no attributes\n"
        });
        return out;
    }
    for a in &read.attributes {
        out.push_str(&format!(
            "  {:<26} {:>7} → {:>7} {:<3}  {}\n",
            lab(&a.display_name),
            num(a.base_value),
            num(a.effective_value),
            a.unit,
            a.context_tags.join(", ")
        ));
        for c in a.contributions.iter().filter(|c| c.kind == "provider") {
            out.push_str(&format!("      {:+} {}  ({})\n", c.amount, lab(&c.label), c.source));
        }
    }
    if let Some(c) = &read.critical_rules {
        out.push_str(&if pt {
            format!(
                "  crítico: {} % → {} tier(s) garantido(s), {} % de mais um, {} % por tier\n",
                num(c.chance_percent),
                c.guaranteed_tiers,
                num(c.next_tier_chance_percent),
                num(c.bonus_per_tier_percent)
            )
        } else {
            format!(
                "  critical: {} % → {} guaranteed tier(s), {} % for one more, {} % per tier\n",
                num(c.chance_percent),
                c.guaranteed_tiers,
                num(c.next_tier_chance_percent),
                num(c.bonus_per_tier_percent)
            )
        });
    }
    out
}
