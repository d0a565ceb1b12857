//! The compiled world: policies with their rules, bindings and profiles; effects, cards,
//! statuses, relics, enemies, encounters, journeys and modes — every name resolved, every
//! reference checked (see `compile.rs`). Immutable: a combat adapts copies, never these.

use super::doc::{
    AmountOp, AttributeKind, AutopilotDoc, EffectKind, OverrideRuleDoc, Party, Scope, SelectorDoc, Side, TargetKind,
    TransformDoc, TurnStart,
};
use microfut_core::catalog::Labels;
use microfut_core::ruleset::Ruleset;
use serde::Serialize;
use std::collections::BTreeMap;
use std::sync::Arc;

/// Which effects a rule or an override applies to.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Selector {
    pub required_tags: Vec<String>,
    pub excluded_tags: Vec<String>,
    /// Empty: any channel.
    pub channels: Vec<String>,
    pub excluded_channels: Vec<String>,
}

impl Selector {
    pub fn from_doc(d: &SelectorDoc) -> Selector {
        Selector {
            required_tags: d.required_tags.clone(),
            excluded_tags: d.excluded_tags.clone(),
            channels: d.channels.clone(),
            excluded_channels: d.excluded_channels.clone(),
        }
    }

    pub fn matches(&self, tags: &[String], channel: &str) -> bool {
        self.required_tags.iter().all(|t| tags.contains(t))
            && !self.excluded_tags.iter().any(|t| tags.contains(t))
            && (self.channels.is_empty() || self.channels.iter().any(|c| c == channel))
            && !self.excluded_channels.iter().any(|c| c == channel)
    }

    /// Whether some effect (some tags, some channel) would match both selectors. Tags and
    /// channels are open sets, so two selectors overlap unless one requires what the other
    /// excludes, or their channels cannot meet.
    pub fn overlaps(&self, other: &Selector) -> bool {
        let required: Vec<&String> = self.required_tags.iter().chain(&other.required_tags).collect();
        let excluded: Vec<&String> = self.excluded_tags.iter().chain(&other.excluded_tags).collect();
        if required.iter().any(|t| excluded.contains(t)) {
            return false;
        }
        let allowed = |c: &String| !self.excluded_channels.contains(c) && !other.excluded_channels.contains(c);
        match (self.channels.is_empty(), other.channels.is_empty()) {
            (true, true) => true,
            (false, true) => self.channels.iter().any(allowed),
            (true, false) => other.channels.iter().any(allowed),
            (false, false) => self.channels.iter().any(|c| other.channels.contains(c) && allowed(c)),
        }
    }

    /// Shown in messages: `[effect.damage] on effect_amount`.
    pub fn describe(&self) -> String {
        let mut s = format!("[{}]", self.required_tags.join(", "));
        if !self.excluded_tags.is_empty() {
            s.push_str(&format!(" without [{}]", self.excluded_tags.join(", ")));
        }
        if !self.channels.is_empty() {
            s.push_str(&format!(" on {}", self.channels.join("|")));
        }
        if !self.excluded_channels.is_empty() {
            s.push_str(&format!(" not on {}", self.excluded_channels.join("|")));
        }
        s
    }
}

/// An exception to a rule: a card's `effect_rule_override` component, or one of an effect's
/// own `ruleOverrides`. `false` forbids, `true` permits; a prohibition beats a permission.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Override {
    pub selector: Selector,
    pub effect_id: Option<String>,
    pub critical: Option<bool>,
    pub armor: Option<bool>,
    pub block: Option<bool>,
    /// The component id, or `ruleOverrides` for an effect's own.
    pub origin: String,
    /// `file#pointer` of the override's `rule`.
    pub source: String,
}

impl Override {
    pub fn from_doc(
        rule: &OverrideRuleDoc,
        effect_id: Option<String>,
        origin: impl Into<String>,
        source: String,
    ) -> Override {
        Override {
            selector: Selector::from_doc(&rule.selector),
            effect_id,
            critical: rule.critical,
            armor: rule.armor,
            block: rule.block,
            origin: origin.into(),
            source,
        }
    }

    pub fn applies_to(&self, effect: &Effect) -> bool {
        self.effect_id.as_ref().is_none_or(|e| *e == effect.id) && self.selector.matches(&effect.tags, &effect.channel)
    }
}

/// One effect as content declares it. Immutable: the executor adapts a copy.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Effect {
    pub id: String,
    pub kind: EffectKind,
    pub target: TargetKind,
    /// Empty for statuses and modifiers.
    pub channel: String,
    pub tags: Vec<String>,
    pub amount: f64,
    pub resource: Option<String>,
    pub op: AmountOp,
    pub impacts: u32,
    pub status: Option<String>,
    pub duration: u32,
    pub attribute: Option<String>,
    pub overrides: Vec<Override>,
    pub source: String,
}

#[derive(Debug, Clone)]
pub struct Upgrade {
    pub id: String,
    pub label: Labels,
    pub components: Vec<Override>,
    pub amounts: BTreeMap<String, f64>,
    pub cost: i32,
}

#[derive(Debug, Clone)]
pub struct Card {
    pub id: String,
    pub label: Labels,
    pub cost: u32,
    pub effects: Vec<Effect>,
    pub components: Vec<Override>,
    pub upgrades: BTreeMap<String, Upgrade>,
    pub source: String,
}

/// A card with its upgrades composed in (or an enemy's ability): what is played.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Playable {
    pub id: String,
    pub upgrades: Vec<String>,
    pub label: Labels,
    pub cost: u32,
    pub effects: Vec<Effect>,
    pub components: Vec<Override>,
}

impl Card {
    /// The card with these upgrades, in order, through the container path: each upgrade adds
    /// its components after the card's and changes the amounts it names.
    pub fn compose(&self, upgrades: &[String]) -> Result<Playable, String> {
        let mut p = Playable {
            id: self.id.clone(),
            upgrades: upgrades.to_vec(),
            label: self.label.clone(),
            cost: self.cost,
            effects: self.effects.clone(),
            components: self.components.clone(),
        };
        let mut cost = i64::from(self.cost);
        for u in upgrades {
            let up = self.upgrades.get(u).ok_or_else(|| format!("card '{}' has no upgrade '{u}'", self.id))?;
            p.components.extend(up.components.iter().cloned());
            for e in &mut p.effects {
                if let Some(d) = up.amounts.get(&e.id) {
                    e.amount = (e.amount + d).max(0.0);
                }
            }
            cost += i64::from(up.cost);
        }
        p.cost = cost.max(0) as u32;
        Ok(p)
    }
}

#[derive(Debug, Clone)]
pub struct Bucket {
    pub id: String,
    pub label: Labels,
    pub scope: Scope,
    pub stages: Vec<String>,
}

#[derive(Debug, Clone)]
pub struct Binding {
    pub id: String,
    pub attribute: String,
    pub side: Side,
    /// The vocabulary slot it fills.
    pub input: Option<usize>,
    pub default: f64,
    pub scale: f64,
    pub source: String,
}

#[derive(Debug, Clone)]
pub struct Bypass {
    pub tag: String,
    pub binding: usize,
    pub value: f64,
}

#[derive(Debug, Clone)]
pub struct Settlement {
    pub stage: String,
    pub binding: usize,
}

#[derive(Debug, Clone)]
pub struct Critical {
    pub chance: usize,
    pub bonus: usize,
    pub formula: String,
}

/// Vocabulary slots of the attribute pipelines' inputs.
#[derive(Debug, Clone, Copy)]
pub struct ProviderSlots {
    pub base: usize,
    pub statuses: usize,
    pub relics: usize,
    pub modifiers: usize,
    pub mode: usize,
    pub encounter: usize,
}

#[derive(Debug, Clone)]
pub struct Rule {
    pub id: String,
    pub label: Labels,
    pub selector: Selector,
    pub amount_pipeline: usize,
    pub non_critical_pipeline: Option<usize>,
    pub critical_stage: Option<String>,
    pub critical_input: Option<usize>,
    pub armor_bypass_tag: Option<String>,
    pub block_bypass_tag: Option<String>,
    pub source: String,
}

impl Rule {
    pub fn has_critical(&self) -> bool {
        self.critical_input.is_some()
    }
}

#[derive(Debug, Clone)]
pub struct AttributeProfile {
    pub attribute_id: String,
    pub display_name: Labels,
    pub unit: String,
    pub reads: String,
    pub pipeline: usize,
    pub pipeline_id: String,
    pub pipeline_fingerprint: String,
    pub context_tags: Vec<String>,
    pub transform: TransformDoc,
    pub source: String,
}

impl AttributeProfile {
    pub fn display(&self, v: f64) -> f64 {
        v * self.transform.display_scale + self.transform.display_offset
    }
}

#[derive(Debug, Clone)]
pub struct Policy {
    pub id: String,
    pub label: Labels,
    /// SHA-256 of the policy and every pipeline and formula it uses, canonical JSON.
    pub fingerprint: String,
    pub source: String,
    pub amount_input: usize,
    pub critical: Option<Critical>,
    pub buckets: Vec<Bucket>,
    pub bindings: Vec<Binding>,
    pub bypasses: Vec<Bypass>,
    pub settlements: Vec<Settlement>,
    pub providers: ProviderSlots,
    pub rules: Vec<Rule>,
    pub attributes: Vec<AttributeProfile>,
}

#[derive(Debug, Clone)]
pub struct AttributeDecl {
    pub id: String,
    pub label: Labels,
    pub kind: AttributeKind,
    pub maximum: Option<String>,
    pub at_turn_start: TurnStart,
}

/// An attribute modifier from a status, relic, mode, encounter or combat effect.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Modifier {
    pub attribute: String,
    pub amount: f64,
    pub source: String,
}

#[derive(Debug, Clone)]
pub struct Status {
    pub id: String,
    pub label: Labels,
    pub modifiers: Vec<Modifier>,
    /// The effect it applies to its bearer at each turn start, with the carried amount.
    pub tick: Option<Effect>,
}

#[derive(Debug, Clone)]
pub struct Relic {
    pub id: String,
    pub label: Labels,
    pub modifiers: Vec<Modifier>,
}

#[derive(Debug, Clone)]
pub struct Enemy {
    pub id: String,
    pub label: Labels,
    pub attributes: BTreeMap<String, f64>,
    pub script: Vec<Playable>,
    pub source: String,
}

#[derive(Debug, Clone)]
pub struct SidedModifier {
    pub side: Party,
    pub label: Labels,
    pub modifier: Modifier,
}

#[derive(Debug, Clone)]
pub struct Encounter {
    pub id: String,
    pub label: Labels,
    pub enemies: Vec<String>,
    pub modifiers: Vec<SidedModifier>,
}

#[derive(Debug, Clone)]
pub enum Reward {
    Upgrade { card: String, upgrade: String },
    Relic(String),
    Card(String),
    Heal(f64),
}

#[derive(Debug, Clone)]
pub struct JourneyStep {
    pub encounter: String,
    pub rewards: Vec<Reward>,
}

#[derive(Debug, Clone)]
pub struct Journey {
    pub id: String,
    pub label: Labels,
    pub turn_limit: u32,
    pub steps: Vec<JourneyStep>,
}

#[derive(Debug, Clone)]
pub struct Hero {
    pub label: Labels,
    pub attributes: BTreeMap<String, f64>,
    pub deck: Vec<String>,
    pub relics: Vec<String>,
    pub hand_size: u32,
    pub source: String,
}

#[derive(Debug, Clone)]
pub struct Mode {
    pub id: String,
    pub label: Labels,
    /// Index into `World::policies`; `None`: effects apply their authored amounts.
    pub policy: Option<usize>,
    pub journey: String,
    pub modifiers: Vec<SidedModifier>,
}

/// A compiled effects revision.
pub struct World {
    pub rs: Arc<Ruleset>,
    /// Every tag and every channel the revision writes anywhere (selectors, bypasses, effects,
    /// overrides): what a command line may name.
    pub tags: std::collections::BTreeSet<String>,
    pub channels: std::collections::BTreeSet<String>,
    pub label: Labels,
    pub life: String,
    /// The resource card costs are paid from.
    pub cost: String,
    pub attributes: BTreeMap<String, AttributeDecl>,
    pub hero: Hero,
    pub statuses: BTreeMap<String, Status>,
    pub relics: BTreeMap<String, Relic>,
    pub enemies: BTreeMap<String, Enemy>,
    pub encounters: BTreeMap<String, Encounter>,
    pub journeys: BTreeMap<String, Journey>,
    pub cards: BTreeMap<String, Card>,
    pub policies: Vec<Policy>,
    pub modes: BTreeMap<String, Mode>,
    pub autopilot: AutopilotDoc,
}

impl World {
    pub fn policy(&self, id: &str) -> Option<&Policy> {
        self.policies.iter().find(|p| p.id == id)
    }
    pub fn revision_label(&self) -> String {
        self.rs.label()
    }
    pub fn fingerprint(&self) -> &str {
        &self.rs.fingerprint
    }
    pub fn mode_policy(&self, mode: &Mode) -> Option<&Policy> {
        mode.policy.map(|i| &self.policies[i])
    }
}
