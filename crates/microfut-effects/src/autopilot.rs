//! The automatic player: a simple, deterministic policy that plays the hero's journey. Each
//! playable card (on each living enemy, when it needs one) is worth the sum of its effects,
//! each by a weight of the world's `autopilot` content: damage at its exact expected amount
//! under the mode's policy (capped by what the target has left, and a bonus when it is enough
//! to defeat it), block against the damage the enemies' next abilities are expected to deal,
//! healing below a share of life, statuses and modifiers at flat weights, costs against. It
//! plays the best value per point of cost while one is worth more than nothing, then ends the
//! turn. Every estimate is a read: no die is drawn to decide.

use super::combat::{ActorState, Combat, Command, Run};
use super::doc::{AmountOp, EffectKind, TargetKind};
use super::model::{Effect, Override, Playable};
use super::resolve::Actor;

/// The next command the automatic player gives; `None` when the journey is over.
pub fn choose(run: &Run) -> Option<Command> {
    use super::combat::Phase;
    match run.phase() {
        Phase::Finished { .. } => None,
        Phase::Between { .. } => Some(Command::Advance),
        Phase::Combat(c) => Some(best_play(run, c).unwrap_or(Command::EndTurn)),
    }
}

/// Plays the journey to its end with the automatic player.
pub fn play_out(run: &mut Run) -> Result<(), super::combat::CommandError> {
    while let Some(command) = choose(run) {
        run.apply(&command)?;
    }
    Ok(())
}

/// The exact expected amount of one impact of `effect` from `source` on `target`.
pub fn expected(run: &Run, effect: &Effect, components: &[Override], source: &ActorState, target: &ActorState) -> f64 {
    let Some(policy) = run.policy() else { return effect.amount };
    let (sp, tp) = (run.providers_of(source), run.providers_of(target));
    let s = Actor { id: &source.id, values: &source.values, providers: &sp, source: &source.source };
    let t = Actor { id: &target.id, values: &target.values, providers: &tp, source: &target.source };
    let rs = &run.world().rs;
    match policy.adapt(effect, components).map_err(Into::into).and_then(|a| policy.distribution(rs, &a, &s, &t)) {
        Ok(d) => d.expected(),
        Err(_) => 0.0,
    }
}

/// Damage to the hero's life the living enemies' next abilities are expected to deal.
pub fn incoming(run: &Run, c: &Combat) -> f64 {
    let world = run.world();
    let mut total = 0.0;
    for e in c.living() {
        let def = &world.enemies[e.template.as_ref().expect("an enemy")];
        let ability = &def.script[e.next_ability % def.script.len()];
        for effect in &ability.effects {
            let hits_hero = matches!(effect.target, TargetKind::Enemy | TargetKind::AllEnemies | TargetKind::Hero);
            if effect.kind == EffectKind::Amount
                && effect.op == AmountOp::Subtract
                && hits_hero
                && effect.resource.as_deref() == Some(world.life.as_str())
            {
                total += f64::from(effect.impacts) * expected(run, effect, &ability.components, e, &c.hero);
            }
        }
    }
    total
}

fn value(run: &Run, c: &Combat, p: &Playable, target: Option<&ActorState>, incoming: f64) -> f64 {
    let world = run.world();
    let w = &world.autopilot;
    let hero = &c.hero;
    let get = |a: &ActorState, k: &str| a.values.get(k).copied().unwrap_or(0.0);
    let capacity = |resource: &str| {
        run.policy().is_some_and(|pol| pol.settlements.iter().any(|s| pol.bindings[s.binding].attribute == resource))
    };
    let mut v = 0.0;
    for e in &p.effects {
        let on_opponents: Vec<&ActorState> = match e.target {
            TargetKind::Enemy => target.into_iter().collect(),
            TargetKind::AllEnemies => c.living().collect(),
            TargetKind::SelfActor | TargetKind::Hero => Vec::new(),
        };
        match e.kind {
            EffectKind::Amount => {
                let resource = e.resource.as_deref().unwrap_or_default();
                match (e.op, on_opponents.is_empty()) {
                    (AmountOp::Subtract, false) => {
                        for t in on_opponents {
                            let amount = f64::from(e.impacts) * expected(run, e, &p.components, hero, t);
                            let left = get(t, resource);
                            if resource == world.life {
                                v += amount.min(left) * w.damage;
                                if amount >= left {
                                    v += w.kill;
                                }
                            } else {
                                v += amount.min(left) * w.resource_drain;
                            }
                        }
                    }
                    (AmountOp::Subtract, true) => v -= e.amount * w.self_cost,
                    (AmountOp::Add, _) => {
                        let amount = f64::from(e.impacts) * expected(run, e, &p.components, hero, hero);
                        let cur = get(hero, resource);
                        let max = world.attributes[resource].maximum.as_ref().map(|m| get(hero, m));
                        if resource == world.life {
                            let max = max.unwrap_or(cur);
                            if max > 0.0 && cur / max < w.heal_below {
                                v += amount.min(max - cur) * w.heal;
                            }
                        } else if capacity(resource) {
                            v += amount.min((incoming - cur).max(0.0)) * w.block;
                        } else {
                            v += amount * w.resource_gain;
                        }
                    }
                }
            }
            EffectKind::Status => v += w.status,
            EffectKind::Modifier => v += w.modifier,
        }
    }
    v / f64::from(p.cost.max(1))
}

fn best_play(run: &Run, c: &Combat) -> Option<Command> {
    let incoming = incoming(run, c);
    let mana = c.hero.values.get(&run.world().cost).copied().unwrap_or(0.0);
    let mut best: Option<(f64, Command)> = None;
    for (i, inst) in c.hand.iter().enumerate() {
        let p = run.playable(inst);
        if f64::from(p.cost) > mana {
            continue;
        }
        let needs = p.effects.iter().any(|e| e.target == TargetKind::Enemy);
        let targets: Vec<Option<&ActorState>> = if needs { c.living().map(Some).collect() } else { vec![None] };
        for t in targets {
            let v = value(run, c, &p, t, incoming);
            if v > 0.0 && best.as_ref().is_none_or(|(b, _)| v > *b) {
                best = Some((v, Command::Play { card: i, target: t.map(|a| a.id.clone()) }));
            }
        }
    }
    best.map(|(_, c)| c)
}
