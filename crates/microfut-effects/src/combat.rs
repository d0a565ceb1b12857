//! A journey of encounters, played one command at a time: advance to the next encounter, play
//! a card from the hand (on a target), or end the turn (the enemies then act from their
//! scripts). Every amount goes through the mode's policy (`resolve.rs`); this module only
//! orchestrates — who acts, which resource changes, what a status does at a turn's start — and
//! keeps nothing a replay depends on in hash order. A command is checked before anything
//! changes; each one that commits is recorded with the state hash after it.

use super::doc::{AmountOp, AttributeKind, EffectKind, Party, TargetKind, TurnStart};
use super::model::*;
use super::resolve::{Actor, Adapted, Impact, Provider, ProviderKind, ResolutionPolicy, ResolveError};
use microfut_core::catalog::Labels;
use microfut_core::dice::Dice;
use microfut_core::state_hash::XorMulRot29;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::sync::Arc;

/// What a person (or the automatic player) tells a run to do.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
pub enum Command {
    /// Leave the rewards behind and start the next encounter.
    Advance,
    /// Play the card at this position of the hand, on an enemy when it needs one.
    Play {
        card: usize,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        target: Option<String>,
    },
    /// End the hero's turn: the enemies act, then the hero's next turn starts.
    EndTurn,
}

#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum CommandError {
    #[error("the journey is over")]
    Finished,
    #[error("no combat is active: advance to the next encounter first")]
    NoCombat,
    #[error("a combat is active: play a card or end the turn")]
    InCombat,
    #[error("no card at hand position {position} (the hand holds {held})")]
    NoCard { position: usize, held: usize },
    #[error("card '{card}' costs {cost} {resource}, and {available} is left")]
    TooExpensive { card: String, cost: u32, resource: String, available: f64 },
    #[error("card '{card}' needs a target: one of {living}")]
    NeedsTarget { card: String, living: String },
    #[error("'{target}' is not a living enemy (living: {living})")]
    BadTarget { target: String, living: String },
    #[error("card '{card}' takes no target")]
    NoTarget { card: String },
    #[error(transparent)]
    Resolve(#[from] ResolveError),
}

#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum RunError {
    #[error("unknown mode '{0}' (modes: {1})")]
    UnknownMode(String, String),
}

/// A card in the deck: its id and the upgrades it carries, in the order they were gained.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CardInstance {
    pub card: String,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub upgrades: Vec<String>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct StatusInstance {
    pub status: String,
    /// Turns of its bearer left, this one included.
    pub turns: u32,
    /// The amount its tick carries (damage over time).
    pub amount: f64,
}

/// A modifier an effect gave an actor until the combat ends.
#[derive(Debug, Clone, PartialEq)]
pub struct CombatModifier {
    pub id: String,
    pub label: Labels,
    pub modifier: Modifier,
}

#[derive(Debug, Clone)]
pub struct ActorState {
    pub id: String,
    /// The enemy it was made from; `None` for the hero.
    pub template: Option<String>,
    pub label: Labels,
    pub values: BTreeMap<String, f64>,
    pub source: String,
    pub statuses: Vec<StatusInstance>,
    pub modifiers: Vec<CombatModifier>,
    pub next_ability: usize,
    pub defeated: bool,
}

#[derive(Debug, Clone)]
pub struct Combat {
    /// `<run id>.c<n>`, n from 1.
    pub id: String,
    /// The journey step it plays.
    pub step: usize,
    pub encounter: String,
    /// Commands committed in this combat.
    pub commands: u64,
    /// The hero's turn, from 1.
    pub turn: u32,
    pub hero: ActorState,
    pub enemies: Vec<ActorState>,
    pub draw: Vec<CardInstance>,
    pub hand: Vec<CardInstance>,
    pub discard: Vec<CardInstance>,
}

impl Combat {
    pub fn actor(&self, id: &str) -> Option<&ActorState> {
        std::iter::once(&self.hero).chain(&self.enemies).find(|a| a.id == id)
    }
    pub fn living(&self) -> impl Iterator<Item = &ActorState> {
        self.enemies.iter().filter(|e| !e.defeated)
    }
    fn living_ids(&self) -> String {
        self.living().map(|e| e.id.as_str()).collect::<Vec<_>>().join(", ")
    }
    fn at(&self, i: usize) -> &ActorState {
        if i == 0 { &self.hero } else { &self.enemies[i - 1] }
    }
    fn at_mut(&mut self, i: usize) -> &mut ActorState {
        if i == 0 { &mut self.hero } else { &mut self.enemies[i - 1] }
    }
}

#[derive(Debug, Clone)]
pub enum Phase {
    /// Outside combat: the next journey step to play.
    Between {
        next: usize,
    },
    Combat(Box<Combat>),
    Finished {
        victory: bool,
    },
}

/// The hero between encounters: what persists.
#[derive(Debug, Clone)]
pub struct HeroState {
    pub values: BTreeMap<String, f64>,
    pub relics: Vec<String>,
    pub deck: Vec<CardInstance>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Settled {
    pub actor: String,
    pub attribute: String,
    pub amount: f64,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
// No deny_unknown_fields: serde does not support it beside `flatten` (an edited record is
// caught by replay, which compares every event).
#[serde(tag = "kind", rename_all = "snake_case", rename_all_fields = "camelCase")]
pub enum What {
    EncounterStarted {
        encounter: String,
        enemies: Vec<String>,
    },
    TurnStarted {
        turn: u32,
        actor: String,
    },
    CardPlayed {
        card: String,
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        upgrades: Vec<String>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        target: Option<String>,
    },
    AbilityUsed {
        actor: String,
        ability: String,
    },
    Effect {
        source: String,
        target: String,
        effect: String,
        resource: String,
        op: AmountOp,
        impact: u32,
        amount: f64,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        tier: Option<u32>,
        before: f64,
        after: f64,
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        settled: Vec<Settled>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        resolution_policy: Option<Box<ResolutionPolicy>>,
    },
    StatusApplied {
        target: String,
        status: String,
        turns: u32,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        amount: Option<f64>,
    },
    StatusExpired {
        target: String,
        status: String,
    },
    ModifierAdded {
        target: String,
        attribute: String,
        amount: f64,
    },
    Defeated {
        actor: String,
    },
    EncounterEnded {
        victory: bool,
        turns: u32,
        /// The hero's life when it ended.
        life: f64,
    },
    Rewarded {
        reward: String,
    },
    JourneyEnded {
        victory: bool,
        encounters_won: u32,
    },
}

/// Something that happened, after the command of sequence number `sequence` (1-based).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Event {
    pub sequence: u64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub combat: Option<String>,
    #[serde(flatten)]
    pub what: What,
}

/// One journey of a mode: the persistent hero, the current phase, the dice, and everything
/// committed so far.
#[derive(Clone)]
pub struct Run {
    pub(super) world: Arc<World>,
    pub(super) id: String,
    pub(super) mode: String,
    pub(super) seed: u64,
    pub(super) dice: Dice,
    pub(super) sequence: u64,
    pub(super) hero: HeroState,
    pub(super) phase: Phase,
    pub(super) events: Vec<Event>,
    pub(super) commands: Vec<Command>,
    pub(super) hashes: Vec<u64>,
    pub(super) encounters_won: u32,
}

/// The providers of an actor's attributes: its statuses and combat modifiers, the hero's
/// relics, the mode's and the encounter's modifiers for its side. Reads and execution both
/// call this, so a read shows what a resolution would use.
pub fn providers(
    world: &World,
    mode: &Mode,
    encounter: Option<&Encounter>,
    actor: &ActorState,
    relics: &[String],
) -> Vec<Provider> {
    let side = if actor.template.is_none() { Party::Hero } else { Party::Enemies };
    let mut out = Vec::new();
    for s in &actor.statuses {
        if let Some(def) = world.statuses.get(&s.status) {
            for m in &def.modifiers {
                out.push(Provider {
                    kind: ProviderKind::Status,
                    id: def.id.clone(),
                    label: def.label.clone(),
                    attribute: m.attribute.clone(),
                    amount: m.amount,
                    source: m.source.clone(),
                });
            }
        }
    }
    if side == Party::Hero {
        for r in relics.iter().filter_map(|r| world.relics.get(r)) {
            for m in &r.modifiers {
                out.push(Provider {
                    kind: ProviderKind::Relic,
                    id: r.id.clone(),
                    label: r.label.clone(),
                    attribute: m.attribute.clone(),
                    amount: m.amount,
                    source: m.source.clone(),
                });
            }
        }
    }
    for c in &actor.modifiers {
        out.push(Provider {
            kind: ProviderKind::Modifier,
            id: c.id.clone(),
            label: c.label.clone(),
            attribute: c.modifier.attribute.clone(),
            amount: c.modifier.amount,
            source: c.modifier.source.clone(),
        });
    }
    let sided = |kind: ProviderKind, id: &str, list: &[SidedModifier], out: &mut Vec<Provider>| {
        for m in list.iter().filter(|m| m.side == side) {
            out.push(Provider {
                kind,
                id: id.to_string(),
                label: m.label.clone(),
                attribute: m.modifier.attribute.clone(),
                amount: m.modifier.amount,
                source: m.modifier.source.clone(),
            });
        }
    };
    sided(ProviderKind::Mode, &mode.id, &mode.modifiers, &mut out);
    if let Some(e) = encounter {
        sided(ProviderKind::Encounter, &e.id, &e.modifiers, &mut out);
    }
    out
}

fn shuffle(cards: &mut [CardInstance], dice: &mut Dice) {
    for i in (1..cards.len()).rev() {
        let j = dice.below(i as u32 + 1) as usize;
        cards.swap(i, j);
    }
}

impl Run {
    /// A new journey of `mode`, its dice from `seed`; `id` names it in reads and combat ids.
    pub fn new(world: Arc<World>, mode: &str, seed: u64, id: impl Into<String>) -> Result<Run, RunError> {
        let mut run = Run::with_dice(world, mode, Dice::derived(seed, b"effects/journey"), id)?;
        run.seed = seed;
        Ok(run)
    }

    /// A journey on a given dice stream (the lab's per-simulation stream); its record's seed is
    /// then meaningless, so record only runs made by [`Run::new`].
    pub fn with_dice(world: Arc<World>, mode: &str, dice: Dice, id: impl Into<String>) -> Result<Run, RunError> {
        if !world.modes.contains_key(mode) {
            return Err(RunError::UnknownMode(mode.into(), world.modes.keys().cloned().collect::<Vec<_>>().join(", ")));
        }
        let hero = HeroState {
            values: world.hero.attributes.clone(),
            relics: world.hero.relics.clone(),
            deck: world.hero.deck.iter().map(|c| CardInstance { card: c.clone(), upgrades: Vec::new() }).collect(),
        };
        Ok(Run {
            world,
            id: id.into(),
            mode: mode.into(),
            seed: 0,
            dice,
            sequence: 0,
            hero,
            phase: Phase::Between { next: 0 },
            events: Vec::new(),
            commands: Vec::new(),
            hashes: Vec::new(),
            encounters_won: 0,
        })
    }

    pub fn world(&self) -> &Arc<World> {
        &self.world
    }
    pub fn id(&self) -> &str {
        &self.id
    }
    pub fn seed(&self) -> u64 {
        self.seed
    }
    pub fn mode(&self) -> &Mode {
        &self.world.modes[&self.mode]
    }
    pub fn policy(&self) -> Option<&Policy> {
        self.world.mode_policy(self.mode())
    }
    pub fn journey(&self) -> &Journey {
        &self.world.journeys[&self.mode().journey]
    }
    /// Commands committed so far.
    pub fn sequence(&self) -> u64 {
        self.sequence
    }
    pub fn phase(&self) -> &Phase {
        &self.phase
    }
    pub fn combat(&self) -> Option<&Combat> {
        match &self.phase {
            Phase::Combat(c) => Some(c),
            _ => None,
        }
    }
    pub fn hero(&self) -> &HeroState {
        &self.hero
    }
    pub fn events(&self) -> &[Event] {
        &self.events
    }
    pub fn commands(&self) -> &[Command] {
        &self.commands
    }
    pub fn hashes(&self) -> &[u64] {
        &self.hashes
    }
    pub fn encounters_won(&self) -> u32 {
        self.encounters_won
    }
    pub fn dice_draws(&self) -> u64 {
        self.dice.draws()
    }
    pub fn is_finished(&self) -> bool {
        matches!(self.phase, Phase::Finished { .. })
    }
    pub fn victory(&self) -> Option<bool> {
        match self.phase {
            Phase::Finished { victory } => Some(victory),
            _ => None,
        }
    }
    /// The encounter of the active combat.
    pub fn encounter(&self) -> Option<&Encounter> {
        self.combat().map(|c| &self.world.encounters[&c.encounter])
    }

    /// The hero outside combat, as an actor state (no statuses, no combat modifiers).
    pub fn persistent_hero(&self) -> ActorState {
        ActorState {
            id: "hero".into(),
            template: None,
            label: self.world.hero.label.clone(),
            values: self.hero.values.clone(),
            source: self.world.hero.source.clone(),
            statuses: Vec::new(),
            modifiers: Vec::new(),
            next_ability: 0,
            defeated: false,
        }
    }

    /// The providers of an actor of the active combat (or the persistent hero).
    pub fn providers_of(&self, actor: &ActorState) -> Vec<Provider> {
        providers(&self.world, self.mode(), self.encounter(), actor, &self.hero.relics)
    }

    /// The state hash: every value a command can change, and how far the dice moved.
    pub fn state_hash(&self) -> u64 {
        let mut h = XorMulRot29::new();
        h.u64(self.sequence);
        h.u64(self.dice.draws());
        h.u64(u64::from(self.encounters_won));
        hash_values(&mut h, &self.hero.values);
        h.u64(self.hero.relics.len() as u64);
        for r in &self.hero.relics {
            h.str(r);
        }
        hash_cards(&mut h, &self.hero.deck);
        match &self.phase {
            Phase::Between { next } => {
                h.u64(1);
                h.u64(*next as u64);
            }
            Phase::Finished { victory } => {
                h.u64(2);
                h.u64(u64::from(*victory));
            }
            Phase::Combat(c) => {
                h.u64(3);
                h.str(&c.id);
                h.u64(c.commands);
                h.u64(u64::from(c.turn));
                for a in std::iter::once(&c.hero).chain(&c.enemies) {
                    h.str(&a.id);
                    hash_values(&mut h, &a.values);
                    h.u64(a.statuses.len() as u64);
                    for s in &a.statuses {
                        h.str(&s.status);
                        h.u64(u64::from(s.turns));
                        h.f64(s.amount);
                    }
                    h.u64(a.modifiers.len() as u64);
                    for m in &a.modifiers {
                        h.str(&m.modifier.attribute);
                        h.f64(m.modifier.amount);
                    }
                    h.u64(a.next_ability as u64);
                    h.u64(u64::from(a.defeated));
                }
                for pile in [&c.draw, &c.hand, &c.discard] {
                    hash_cards(&mut h, pile);
                }
            }
        }
        h.finish()
    }

    /// Applies a command: checked first (a refused one changes nothing), then executed;
    /// the state hash after it is recorded.
    pub fn apply(&mut self, command: &Command) -> Result<(), CommandError> {
        self.check(command)?;
        // Execution can only fail on content the checks let through; keep the run untouched then.
        let mut next = self.clone();
        next.sequence += 1;
        next.execute(command)?;
        next.commands.push(command.clone());
        let hash = next.state_hash();
        next.hashes.push(hash);
        *self = next;
        Ok(())
    }

    /// Whether a command is legal now, without changing anything.
    pub fn check(&self, command: &Command) -> Result<(), CommandError> {
        match (&self.phase, command) {
            (Phase::Finished { .. }, _) => Err(CommandError::Finished),
            (Phase::Between { .. }, Command::Advance) => Ok(()),
            (Phase::Between { .. }, _) => Err(CommandError::NoCombat),
            (Phase::Combat(_), Command::Advance) => Err(CommandError::InCombat),
            (Phase::Combat(_), Command::EndTurn) => Ok(()),
            (Phase::Combat(c), Command::Play { card, target }) => {
                let inst = c.hand.get(*card).ok_or(CommandError::NoCard { position: *card, held: c.hand.len() })?;
                let playable = self.playable(inst);
                let available = c.hero.values.get(&self.world.cost).copied().unwrap_or(0.0);
                if f64::from(playable.cost) > available {
                    return Err(CommandError::TooExpensive {
                        card: inst.card.clone(),
                        cost: playable.cost,
                        resource: self.world.cost.clone(),
                        available,
                    });
                }
                let needs = playable.effects.iter().any(|e| e.target == TargetKind::Enemy);
                match (needs, target) {
                    (true, None) => Err(CommandError::NeedsTarget { card: inst.card.clone(), living: c.living_ids() }),
                    (true, Some(t)) if !c.living().any(|e| e.id == *t) => {
                        Err(CommandError::BadTarget { target: t.clone(), living: c.living_ids() })
                    }
                    (false, Some(_)) => Err(CommandError::NoTarget { card: inst.card.clone() }),
                    _ => Ok(()),
                }
            }
        }
    }

    /// A deck card as it is played: composed with its upgrades.
    pub fn playable(&self, inst: &CardInstance) -> Playable {
        self.world.cards[&inst.card].compose(&inst.upgrades).expect("upgrades are checked when gained")
    }

    fn event(&mut self, what: What) {
        let combat = self.combat().map(|c| c.id.clone());
        self.events.push(Event { sequence: self.sequence, combat, what });
    }

    fn execute(&mut self, command: &Command) -> Result<(), CommandError> {
        match command {
            Command::Advance => self.start_encounter(),
            Command::Play { card, target } => {
                let c = self.combat_mut();
                c.commands += 1;
                let inst = c.hand.remove(*card);
                let playable = self.playable(&inst);
                let cost = self.world.cost.clone();
                let hero = &mut self.combat_mut().hero;
                let left = hero.values.get(&cost).copied().unwrap_or(0.0) - f64::from(playable.cost);
                hero.values.insert(cost, left);
                self.event(What::CardPlayed {
                    card: inst.card.clone(),
                    upgrades: inst.upgrades.clone(),
                    target: target.clone(),
                });
                let target = target.as_ref().map(|t| {
                    1 + self.combat().expect("in combat").enemies.iter().position(|e| e.id == *t).expect("checked")
                });
                self.play(0, &playable, target)?;
                if let Phase::Combat(c) = &mut self.phase {
                    c.discard.push(inst);
                }
                self.settle_combat();
                Ok(())
            }
            Command::EndTurn => {
                self.combat_mut().commands += 1;
                self.end_turn()
            }
        }
    }

    fn combat_mut(&mut self) -> &mut Combat {
        match &mut self.phase {
            Phase::Combat(c) => c,
            _ => unreachable!("checked: a combat is active"),
        }
    }

    fn start_encounter(&mut self) -> Result<(), CommandError> {
        let Phase::Between { next } = self.phase else { unreachable!("checked") };
        let step = &self.journey().steps[next];
        let encounter = self.world.encounters[&step.encounter].clone();
        let mut counts: BTreeMap<&str, u32> = BTreeMap::new();
        let mut enemies = Vec::new();
        for e in &encounter.enemies {
            let n = counts.entry(e).or_default();
            *n += 1;
            let def = &self.world.enemies[e];
            enemies.push(ActorState {
                id: format!("{e}_{n}"),
                template: Some(e.clone()),
                label: def.label.clone(),
                values: def.attributes.clone(),
                source: def.source.clone(),
                statuses: Vec::new(),
                modifiers: Vec::new(),
                next_ability: 0,
                defeated: false,
            });
        }
        let mut draw = self.hero.deck.clone();
        shuffle(&mut draw, &mut self.dice);
        let mut hero = self.persistent_hero();
        hero.values = self.hero.values.clone();
        let combat = Combat {
            id: format!("{}.c{}", self.id, next + 1),
            step: next,
            encounter: encounter.id.clone(),
            commands: 1,
            turn: 1,
            hero,
            enemies,
            draw,
            hand: Vec::new(),
            discard: Vec::new(),
        };
        let ids = combat.enemies.iter().map(|e| e.id.clone()).collect();
        self.phase = Phase::Combat(Box::new(combat));
        self.event(What::EncounterStarted { encounter: encounter.id.clone(), enemies: ids });
        self.turn_start(0)?;
        self.draw_hand();
        self.settle_combat();
        Ok(())
    }

    fn draw_hand(&mut self) {
        let n = self.world.hero.hand_size as usize;
        let Phase::Combat(c) = &mut self.phase else { return };
        while c.hand.len() < n {
            if c.draw.is_empty() {
                if c.discard.is_empty() {
                    break;
                }
                c.draw = std::mem::take(&mut c.discard);
                shuffle(&mut c.draw, &mut self.dice);
            }
            c.hand.push(c.draw.remove(0));
        }
    }

    /// Turn start of actor `i` (0 the hero): resources that clear or refill, then its statuses'
    /// ticks.
    fn turn_start(&mut self, i: usize) -> Result<(), CommandError> {
        let world = self.world.clone();
        let c = self.combat_mut();
        let turn = c.turn;
        let actor = c.at_mut(i);
        for (id, decl) in &world.attributes {
            if decl.kind != AttributeKind::Resource || !actor.values.contains_key(id) {
                continue;
            }
            match decl.at_turn_start {
                TurnStart::Keep => {}
                TurnStart::Clear => {
                    actor.values.insert(id.clone(), 0.0);
                }
                TurnStart::Refill => {
                    if let Some(max) = decl.maximum.as_ref().and_then(|m| actor.values.get(m)).copied() {
                        actor.values.insert(id.clone(), max);
                    }
                }
            }
        }
        let id = actor.id.clone();
        self.event(What::TurnStarted { turn, actor: id });
        let ticks: Vec<(String, f64)> =
            self.combat_mut().at(i).statuses.iter().map(|s| (s.status.clone(), s.amount)).collect();
        for (status, amount) in ticks {
            let Some(mut effect) = world.statuses[&status].tick.clone() else { continue };
            if self.combat_mut().at(i).defeated {
                break;
            }
            effect.amount = amount;
            // A carried amount is resolved on its bearer alone: no origin is read again.
            let adapted = self.adapt(&effect, &[])?;
            self.amount_effect(i, i, &adapted)?;
        }
        Ok(())
    }

    /// End of actor `i`'s turn: its statuses count down.
    fn turn_end(&mut self, i: usize) {
        let c = self.combat_mut();
        let actor = c.at_mut(i);
        let mut expired = Vec::new();
        for s in &mut actor.statuses {
            s.turns = s.turns.saturating_sub(1);
            if s.turns == 0 {
                expired.push(s.status.clone());
            }
        }
        actor.statuses.retain(|s| s.turns > 0);
        let target = actor.id.clone();
        for status in expired {
            self.event(What::StatusExpired { target: target.clone(), status });
        }
    }

    fn end_turn(&mut self) -> Result<(), CommandError> {
        let c = self.combat_mut();
        let hand = std::mem::take(&mut c.hand);
        c.discard.extend(hand);
        self.turn_end(0);
        let n = self.combat().expect("in combat").enemies.len();
        for k in 1..=n {
            if self.combat().is_none_or(|c| c.at(k).defeated) {
                continue;
            }
            self.turn_start(k)?;
            self.settle_combat();
            if self.combat().is_none() {
                return Ok(());
            }
            if self.combat().is_some_and(|c| c.at(k).defeated) {
                continue;
            }
            let world = self.world.clone();
            let actor = self.combat().expect("in combat").at(k).clone();
            let def = &world.enemies[actor.template.as_ref().expect("an enemy")];
            let ability = def.script[actor.next_ability % def.script.len()].clone();
            self.combat_mut().at_mut(k).next_ability += 1;
            self.event(What::AbilityUsed { actor: actor.id.clone(), ability: ability.id.clone() });
            self.play(k, &ability, Some(0))?;
            self.settle_combat();
            if self.combat().is_none() {
                return Ok(());
            }
            self.turn_end(k);
        }
        let limit = self.journey().turn_limit;
        let world = self.world.clone();
        let c = self.combat_mut();
        c.turn += 1;
        if c.turn > limit {
            let turns = c.turn - 1;
            let life = c.hero.values.get(&world.life).copied().unwrap_or(0.0);
            self.event(What::EncounterEnded { victory: false, turns, life });
            self.finish(false);
            return Ok(());
        }
        self.turn_start(0)?;
        self.draw_hand();
        self.settle_combat();
        Ok(())
    }

    fn adapt(&self, effect: &Effect, components: &[Override]) -> Result<Adapted, CommandError> {
        match self.policy() {
            Some(p) => Ok(p.adapt(effect, components).map_err(ResolveError::from)?),
            None => {
                Ok(Adapted { effect: effect.clone(), rule: None, pipeline: None, critical: false, applied: Vec::new() })
            }
        }
    }

    /// Actor `by` plays a card or an ability; `chosen` is the target of its "enemy" effects.
    fn play(&mut self, by: usize, playable: &Playable, chosen: Option<usize>) -> Result<(), CommandError> {
        for effect in &playable.effects {
            let Some(c) = self.combat() else { return Ok(()) };
            let opponents: Vec<usize> =
                if by == 0 { (1..=c.enemies.len()).filter(|&k| !c.at(k).defeated).collect() } else { vec![0] };
            let targets: Vec<usize> = match effect.target {
                TargetKind::Enemy => chosen.filter(|&t| !c.at(t).defeated).into_iter().collect(),
                TargetKind::AllEnemies => opponents,
                TargetKind::SelfActor => vec![by],
                TargetKind::Hero => vec![0],
            };
            match effect.kind {
                EffectKind::Amount => {
                    let adapted = self.adapt(effect, &playable.components)?;
                    for t in targets {
                        for _ in 0..effect.impacts {
                            if self.combat().is_none_or(|c| c.at(t).defeated) {
                                break;
                            }
                            self.amount_effect(by, t, &adapted)?;
                        }
                    }
                }
                EffectKind::Status => {
                    let status = effect.status.clone().expect("checked");
                    for t in targets {
                        let c = self.combat_mut();
                        let a = c.at_mut(t);
                        a.statuses.push(StatusInstance {
                            status: status.clone(),
                            turns: effect.duration,
                            amount: effect.amount,
                        });
                        let target = a.id.clone();
                        let carried = self.world.statuses[&status].tick.is_some().then_some(effect.amount);
                        self.event(What::StatusApplied {
                            target,
                            status: status.clone(),
                            turns: effect.duration,
                            amount: carried,
                        });
                    }
                }
                EffectKind::Modifier => {
                    let attribute = effect.attribute.clone().expect("checked");
                    for t in targets {
                        let c = self.combat_mut();
                        let a = c.at_mut(t);
                        a.modifiers.push(CombatModifier {
                            id: playable.id.clone(),
                            label: playable.label.clone(),
                            modifier: Modifier {
                                attribute: attribute.clone(),
                                amount: effect.amount,
                                source: effect.source.clone(),
                            },
                        });
                        let target = a.id.clone();
                        self.event(What::ModifierAdded { target, attribute: attribute.clone(), amount: effect.amount });
                    }
                }
            }
        }
        Ok(())
    }

    /// One impact of an amount effect from actor `s` on actor `t`: resolved under the policy
    /// (or its authored amount without one), applied to the resource, capacities settled.
    fn amount_effect(&mut self, s: usize, t: usize, adapted: &Adapted) -> Result<(), CommandError> {
        let world = self.world.clone();
        let rs = &world.rs;
        let c = self.combat().expect("in combat");
        let (src, tgt) = (c.at(s).clone(), c.at(t).clone());
        let sp = self.providers_of(&src);
        let tp = self.providers_of(&tgt);
        let source = Actor { id: &src.id, values: &src.values, providers: &sp, source: &src.source };
        let target = Actor { id: &tgt.id, values: &tgt.values, providers: &tp, source: &tgt.source };
        let policy = world.mode_policy(&world.modes[&self.mode]);
        let (impact, diagnostic) = match policy {
            Some(p) => (p.impact(rs, adapted, &source, &target, &mut self.dice)?, Some(p.diagnostic(rs, adapted))),
            None => {
                (Impact { tier: None, amount: adapted.effect.amount, trace: Vec::new(), settled: Vec::new() }, None)
            }
        };
        let (source_id, target_id) = (src.id.clone(), tgt.id.clone());
        let impacts_so_far = self
            .events
            .iter()
            .rev()
            .take_while(|e| !matches!(e.what, What::CardPlayed { .. } | What::AbilityUsed { .. } | What::TurnStarted { .. }))
            .filter(|e| matches!(&e.what, What::Effect { effect, target, .. } if *effect == adapted.effect.id && *target == target_id))
            .count() as u32;
        let mut settled = Vec::new();
        if let Some(p) = policy {
            for (b, amount) in &impact.settled {
                let binding = &p.bindings[*b];
                let who = if binding.side == super::doc::Side::Source { s } else { t };
                let a = self.combat_mut().at_mut(who);
                let cur = a.values.get(&binding.attribute).copied().unwrap_or(0.0);
                a.values.insert(binding.attribute.clone(), (cur - amount).max(0.0));
                settled.push(Settled { actor: a.id.clone(), attribute: binding.attribute.clone(), amount: *amount });
            }
        }
        let resource = adapted.effect.resource.clone().expect("amount effects name a resource");
        let maximum = world.attributes.get(&resource).and_then(|d| d.maximum.clone());
        let a = self.combat_mut().at_mut(t);
        let before = a.values.get(&resource).copied().unwrap_or(0.0);
        let after = match adapted.effect.op {
            AmountOp::Subtract => (before - impact.amount).max(0.0),
            AmountOp::Add => {
                let v = before + impact.amount;
                match maximum.and_then(|m| a.values.get(&m).copied()) {
                    Some(max) => v.min(max.max(before)),
                    None => v,
                }
            }
        };
        a.values.insert(resource.clone(), after);
        self.event(What::Effect {
            source: source_id,
            target: target_id,
            effect: adapted.effect.id.clone(),
            resource,
            op: adapted.effect.op,
            impact: impacts_so_far + 1,
            amount: impact.amount,
            tier: impact.tier,
            before,
            after,
            settled,
            resolution_policy: diagnostic.map(Box::new),
        });
        Ok(())
    }

    /// Marks the defeated, and ends the combat (and maybe the journey) when a side is gone.
    fn settle_combat(&mut self) {
        let life = self.world.life.clone();
        let Some(c) = self.combat() else { return };
        let fallen: Vec<usize> = (0..=c.enemies.len())
            .filter(|&i| !c.at(i).defeated && c.at(i).values.get(&life).copied().unwrap_or(0.0) <= 0.0)
            .collect();
        for i in fallen {
            let a = self.combat_mut().at_mut(i);
            a.defeated = true;
            let actor = a.id.clone();
            self.event(What::Defeated { actor });
        }
        let c = self.combat().expect("in combat");
        let turns = c.turn;
        let life = c.hero.values.get(&self.world.life).copied().unwrap_or(0.0);
        if c.hero.defeated {
            self.event(What::EncounterEnded { victory: false, turns, life });
            self.finish(false);
        } else if c.living().next().is_none() {
            self.event(What::EncounterEnded { victory: true, turns, life });
            self.win_encounter();
        }
    }

    fn win_encounter(&mut self) {
        let c = self.combat().expect("in combat").clone();
        self.hero.values = c.hero.values.clone();
        self.encounters_won += 1;
        let world = self.world.clone();
        let step = &self.journey().steps[c.step].clone();
        for r in &step.rewards {
            let text = match r {
                Reward::Upgrade { card, upgrade } => {
                    for inst in self.hero.deck.iter_mut().filter(|i| i.card == *card) {
                        if !inst.upgrades.contains(upgrade) {
                            inst.upgrades.push(upgrade.clone());
                        }
                    }
                    format!("upgrade {card} +{upgrade}")
                }
                Reward::Relic(id) => {
                    if !self.hero.relics.contains(id) {
                        self.hero.relics.push(id.clone());
                    }
                    format!("relic {id}")
                }
                Reward::Card(id) => {
                    self.hero.deck.push(CardInstance { card: id.clone(), upgrades: Vec::new() });
                    format!("card {id}")
                }
                Reward::Heal(amount) => {
                    let life = &world.life;
                    let max = world.attributes[life]
                        .maximum
                        .as_ref()
                        .and_then(|m| self.hero.values.get(m).copied())
                        .unwrap_or(f64::INFINITY);
                    let cur = self.hero.values.get(life).copied().unwrap_or(0.0);
                    self.hero.values.insert(life.clone(), (cur + amount).min(max));
                    format!("heal {amount}")
                }
            };
            self.event(What::Rewarded { reward: text });
        }
        let next = c.step + 1;
        if next >= self.journey().steps.len() {
            self.finish(true);
        } else {
            self.phase = Phase::Between { next };
        }
    }

    fn finish(&mut self, victory: bool) {
        if let Some(c) = self.combat() {
            let values = c.hero.values.clone();
            self.hero.values = values;
        }
        let won = self.encounters_won;
        self.phase = Phase::Finished { victory };
        self.event(What::JourneyEnded { victory, encounters_won: won });
    }
}

fn hash_values(h: &mut XorMulRot29, values: &BTreeMap<String, f64>) {
    h.u64(values.len() as u64);
    for (k, v) in values {
        h.str(k);
        h.f64(*v);
    }
}

fn hash_cards(h: &mut XorMulRot29, cards: &[CardInstance]) {
    h.u64(cards.len() as u64);
    for c in cards {
        h.str(&c.card);
        h.u64(c.upgrades.len() as u64);
        for u in &c.upgrades {
            h.str(u);
        }
    }
}
