//! World 1: a card-combat world on the same catalog, pipelines, dice and runs as Microfut.
//!
//! **Problem.** Seed 002 specifies how a card game resolves every effect through one revisioned
//! policy instead of a calculator per card: critical tiers from a percent chance, armor as
//! `K / (A + K)` with K a formula parameter, block as a capacity that settlement consumes,
//! bypass tags, selectors that refuse ambiguity, overrides where prohibitions beat permissions,
//! a diagnostic on every resolution, and reads that never roll, settle or commit.
//!
//! **Decision.** The policy is content of a ruleset of its own (`content/effects/<version>/`),
//! published and fingerprinted like any revision. Its amounts are ordinary pipelines of the
//! same compiler (derived values: base → modifiers, each stage explained), extended only where
//! a card game needed something general: formulas with constrained parameters, the `set`
//! operation and the `running` value. The policy names pipelines, stages and inputs; the
//! executor here adapts an immutable copy of each effect, selects its rule, reads bindings,
//! rolls one uniform per impact only when a tier is uncertain, and settles capacities. Reads
//! (`project`) call the same functions on `&` state. The dice are the run's ChaCha8 stream;
//! runs record the mode, the policy and its fingerprint, the revision and every command, and
//! replay compares a state hash after each.
//!
//! **Limits.** One critical model per policy (tiers from one chance); bindings read effective
//! attribute values, providers add flat amounts (statuses, relics, combat modifiers, mode,
//! encounter); the automatic player values cards by exact expected amounts, not by search.
//! Balance is not claimed: the automatic journey proves that content executes and replays.

pub mod autopilot;
mod combat;
mod compile;
mod doc;
mod entry;
mod model;
pub mod project;
pub mod record;
pub mod resolve;
mod simulator;

pub use combat::{
    ActorState, CardInstance, Combat, CombatModifier, Command, CommandError, Event, HeroState, Phase, Run, RunError,
    Settled, StatusInstance, What, providers,
};
pub use compile::compile;
pub use doc::{AmountOp, AttributeKind, EffectKind, Party, Scope, Side, TargetKind, TransformDoc};
pub use entry::Effects;
pub use model::*;
pub use resolve::{
    Actor, AdaptError, Adapted, AppliedOverride, AttributeValue, Branch, Distribution, Impact, Outcome, Provider,
    ProviderKind, ResolutionPolicy, ResolveError, Tiers,
};
pub use simulator::JourneySimulator;
