//! The documents of an effects revision as designers write them (see `schemas/effect_*.schema.json`
//! and `formulas.schema.json`); vocabulary and pipelines are the ruleset's own documents.

use microfut_core::catalog::Labels;
use serde::Deserialize;
use std::collections::BTreeMap;

pub const POLICIES_SCHEMA: &str = "effect_policies.schema.json";
pub const MODES_SCHEMA: &str = "effect_modes.schema.json";
pub const CARDS_SCHEMA: &str = "effect_cards.schema.json";
pub const WORLD_SCHEMA: &str = "effect_world.schema.json";

#[derive(Debug, Clone, Deserialize)]
pub struct PoliciesDoc {
    pub policies: Vec<PolicyDoc>,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PolicyDoc {
    pub id: String,
    pub label: Labels,
    pub amount_input: String,
    pub critical: Option<CriticalDoc>,
    pub buckets: Vec<BucketDoc>,
    pub bindings: Vec<BindingDoc>,
    pub bypasses: Vec<BypassDoc>,
    pub settlements: Vec<SettlementDoc>,
    pub providers: ProvidersDoc,
    pub rules: Vec<RuleDoc>,
    pub attributes: Vec<AttributeDoc>,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CriticalDoc {
    pub chance_binding: String,
    pub bonus_binding: String,
    pub tiers_formula: String,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Scope {
    Actor,
    Shared,
    Target,
}

#[derive(Debug, Clone, Deserialize)]
pub struct BucketDoc {
    pub id: String,
    pub label: Labels,
    pub scope: Scope,
    pub stages: Vec<String>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Side {
    Source,
    Target,
}

#[derive(Debug, Clone, Deserialize)]
pub struct BindingDoc {
    pub id: String,
    pub attribute: String,
    pub side: Side,
    pub input: Option<String>,
    pub default: f64,
    pub scale: f64,
}

#[derive(Debug, Clone, Deserialize)]
pub struct BypassDoc {
    pub tag: String,
    pub binding: String,
    pub value: f64,
}

#[derive(Debug, Clone, Deserialize)]
pub struct SettlementDoc {
    pub stage: String,
    pub binding: String,
}

#[derive(Debug, Clone, Deserialize)]
pub struct ProvidersDoc {
    pub base: String,
    pub statuses: String,
    pub relics: String,
    pub modifiers: String,
    pub mode: String,
    pub encounter: String,
}

/// What an effect must carry for a rule (or an override) to apply to it.
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub struct SelectorDoc {
    #[serde(default)]
    pub required_tags: Vec<String>,
    #[serde(default)]
    pub excluded_tags: Vec<String>,
    /// Empty: any channel.
    #[serde(default)]
    pub channels: Vec<String>,
    #[serde(default)]
    pub excluded_channels: Vec<String>,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct RuleDoc {
    pub id: String,
    pub label: Labels,
    #[serde(flatten)]
    pub selector: SelectorDoc,
    pub amount_pipeline_id: String,
    pub non_critical_pipeline_id: Option<String>,
    pub critical_stage_id: Option<String>,
    pub critical_input: Option<String>,
    pub armor_bypass_tag: Option<String>,
    pub block_bypass_tag: Option<String>,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct AttributeDoc {
    pub attribute_id: String,
    pub display_name: Labels,
    pub unit: String,
    pub reads: Option<String>,
    pub pipeline_id: String,
    pub context_tags: Vec<String>,
    pub transform: TransformDoc,
}

#[derive(Debug, Clone, Copy, Deserialize, serde::Serialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct TransformDoc {
    pub flat_value: bool,
    pub display_scale: f64,
    pub display_offset: f64,
}

#[derive(Debug, Clone, Deserialize)]
pub struct ModesDoc {
    pub modes: BTreeMap<String, ModeDoc>,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ModeDoc {
    pub label: Labels,
    pub effect_resolution_policy_id: Option<String>,
    pub journey_id: String,
    pub modifiers: Vec<SidedModifierDoc>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Party {
    Hero,
    Enemies,
}

#[derive(Debug, Clone, Deserialize)]
pub struct SidedModifierDoc {
    pub side: Party,
    pub attribute: String,
    pub amount: f64,
    pub label: Labels,
}

#[derive(Debug, Clone, Deserialize)]
pub struct CardsDoc {
    pub cards: BTreeMap<String, CardDoc>,
}

#[derive(Debug, Clone, Deserialize)]
pub struct CardDoc {
    pub label: Labels,
    pub cost: u32,
    pub effects: Vec<EffectDoc>,
    #[serde(default)]
    pub components: Vec<ComponentDoc>,
    #[serde(default)]
    pub upgrades: BTreeMap<String, UpgradeDoc>,
}

#[derive(Debug, Clone, Deserialize)]
pub struct UpgradeDoc {
    pub label: Labels,
    #[serde(default)]
    pub components: Vec<ComponentDoc>,
    #[serde(default)]
    pub amounts: BTreeMap<String, f64>,
    #[serde(default)]
    pub cost: i32,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum EffectKind {
    Amount,
    Status,
    Modifier,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum TargetKind {
    Enemy,
    AllEnemies,
    #[serde(rename = "self")]
    SelfActor,
    Hero,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum AmountOp {
    Subtract,
    Add,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct EffectDoc {
    pub id: String,
    pub kind: EffectKind,
    pub target: TargetKind,
    pub channel: Option<String>,
    #[serde(default)]
    pub tags: Vec<String>,
    pub amount: Option<f64>,
    pub resource: Option<String>,
    pub op: Option<AmountOp>,
    pub impacts: Option<u32>,
    pub status: Option<String>,
    pub duration: Option<u32>,
    pub attribute: Option<String>,
    #[serde(default)]
    pub rule_overrides: Vec<OverrideRuleDoc>,
}

#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub struct OverrideRuleDoc {
    #[serde(flatten)]
    pub selector: SelectorDoc,
    pub critical: Option<bool>,
    pub armor: Option<bool>,
    pub block: Option<bool>,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ComponentDoc {
    // "type" is always "effect_rule_override" (the schema's const): the one component kind.
    pub component_id: String,
    pub effect_id: Option<String>,
    pub rule: OverrideRuleDoc,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct WorldDoc {
    pub label: Labels,
    pub life_attribute: String,
    pub cost_attribute: String,
    pub attributes: BTreeMap<String, AttributeDeclDoc>,
    pub hero: HeroDoc,
    pub statuses: BTreeMap<String, StatusDoc>,
    pub relics: BTreeMap<String, RelicDoc>,
    pub enemies: BTreeMap<String, EnemyDoc>,
    pub encounters: BTreeMap<String, EncounterDoc>,
    pub journeys: BTreeMap<String, JourneyDoc>,
    pub autopilot: AutopilotDoc,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum AttributeKind {
    Resource,
    Stat,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Deserialize, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum TurnStart {
    #[default]
    Keep,
    Clear,
    Refill,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct AttributeDeclDoc {
    pub label: Labels,
    pub kind: AttributeKind,
    pub maximum: Option<String>,
    #[serde(default)]
    pub at_turn_start: TurnStart,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct HeroDoc {
    pub label: Labels,
    pub attributes: BTreeMap<String, f64>,
    pub deck: Vec<String>,
    pub relics: Vec<String>,
    pub hand_size: u32,
}

#[derive(Debug, Clone, Deserialize)]
pub struct ModifierDoc {
    pub attribute: String,
    pub amount: f64,
}

#[derive(Debug, Clone, Deserialize)]
pub struct StatusDoc {
    pub label: Labels,
    pub modifiers: Vec<ModifierDoc>,
    pub tick: Option<TickDoc>,
}

#[derive(Debug, Clone, Deserialize)]
pub struct TickDoc {
    pub channel: String,
    pub tags: Vec<String>,
    pub resource: String,
    pub op: AmountOp,
}

#[derive(Debug, Clone, Deserialize)]
pub struct RelicDoc {
    pub label: Labels,
    pub modifiers: Vec<ModifierDoc>,
}

#[derive(Debug, Clone, Deserialize)]
pub struct AbilityDoc {
    pub id: String,
    pub label: Labels,
    pub effects: Vec<EffectDoc>,
    #[serde(default)]
    pub components: Vec<ComponentDoc>,
}

#[derive(Debug, Clone, Deserialize)]
pub struct EnemyDoc {
    pub label: Labels,
    pub attributes: BTreeMap<String, f64>,
    pub script: Vec<AbilityDoc>,
}

#[derive(Debug, Clone, Deserialize)]
pub struct EncounterDoc {
    pub label: Labels,
    pub enemies: Vec<String>,
    pub modifiers: Vec<SidedModifierDoc>,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct JourneyDoc {
    pub label: Labels,
    pub turn_limit: u32,
    pub steps: Vec<StepDoc>,
}

#[derive(Debug, Clone, Deserialize)]
pub struct StepDoc {
    pub encounter: String,
    pub rewards: Vec<RewardDoc>,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct RewardDoc {
    pub upgrade: Option<UpgradeRefDoc>,
    pub relic: Option<String>,
    pub card: Option<String>,
    pub heal: Option<f64>,
}

#[derive(Debug, Clone, Deserialize)]
pub struct UpgradeRefDoc {
    pub card: String,
    pub upgrade: String,
}

#[derive(Debug, Clone, Copy, Deserialize, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub struct AutopilotDoc {
    pub damage: f64,
    pub kill: f64,
    pub block: f64,
    pub heal: f64,
    pub heal_below: f64,
    pub status: f64,
    pub modifier: f64,
    pub resource_gain: f64,
    pub resource_drain: f64,
    pub self_cost: f64,
}
