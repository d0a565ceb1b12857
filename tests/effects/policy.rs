//! Seed 002's effect-resolution policy, resolved through the library: the worked example,
//! critical tiers, armor K, block and its settlement, the order, selectors, every override form
//! and its conflicts, and the matrix of every card and ability under the policy.

use microfut::catalog::{Catalog, ContentTree};
use microfut::dice::Dice;
use microfut::effects::{
    self, Actor, AdaptError, Adapted, AmountOp, Effect, EffectKind, Override, Policy, Selector, TargetKind, World,
};
use std::collections::BTreeMap;

fn world() -> World {
    let catalog = Catalog::load(&ContentTree::embedded());
    let rev = catalog.revision("effects", Some("1.0.0")).expect("effects 1.0.0 loads");
    effects::compile(rev).expect("effects 1.0.0 compiles")
}

fn policy(w: &World) -> &Policy {
    w.policy("w1_global_effect_rules").expect("World 1's policy")
}

fn damage(amount: f64, tags: &[&str], resource: &str) -> Effect {
    Effect {
        id: "hit".into(),
        kind: EffectKind::Amount,
        target: TargetKind::Enemy,
        channel: "effect_amount".into(),
        tags: tags.iter().map(|t| t.to_string()).collect(),
        amount,
        resource: Some(resource.into()),
        op: AmountOp::Subtract,
        impacts: 1,
        status: None,
        duration: 0,
        attribute: None,
        overrides: Vec::new(),
        source: "test".into(),
    }
}

fn values(pairs: &[(&str, f64)]) -> BTreeMap<String, f64> {
    pairs.iter().map(|(k, v)| (k.to_string(), *v)).collect()
}

/// (amount, probability) of each outcome.
fn outcomes(
    w: &World,
    effect: &Effect,
    components: &[Override],
    source: &[(&str, f64)],
    target: &[(&str, f64)],
) -> Vec<(f64, f64)> {
    let p = policy(w);
    let (s, t) = (values(source), values(target));
    let sa = Actor { id: "source", values: &s, providers: &[], source: "test" };
    let ta = Actor { id: "target", values: &t, providers: &[], source: "test" };
    let a = p.adapt(effect, components).expect("adapts");
    let d = p.distribution(&w.rs, &a, &sa, &ta).expect("resolves");
    let total: f64 = d.outcomes.iter().map(|o| o.probability).sum();
    assert!((total - 1.0).abs() < 1e-12, "probabilities sum to 1");
    d.outcomes.iter().map(|o| (o.amount, o.probability)).collect()
}

#[test]
fn the_worked_example_gives_15_or_20_before_block_and_10_or_15_after() {
    let w = world();
    let hit = damage(10.0, &["effect.damage"], "health");
    let src = [("crit_chance", 250.0), ("crit_bonus", 100.0)];
    assert_eq!(outcomes(&w, &hit, &[], &src, &[("armor", 100.0)]), vec![(15.0, 0.5), (20.0, 0.5)]);
    assert_eq!(outcomes(&w, &hit, &[], &src, &[("armor", 100.0), ("block", 5.0)]), vec![(10.0, 0.5), (15.0, 0.5)]);
    // The numbers do not depend on the name of the target's resource.
    let drain = damage(10.0, &["effect.damage"], "mana");
    assert_eq!(outcomes(&w, &drain, &[], &src, &[("armor", 100.0), ("block", 5.0)]), vec![(10.0, 0.5), (15.0, 0.5)]);
}

#[test]
fn tiers_are_guaranteed_by_the_hundred_and_rolled_for_the_rest() {
    let w = world();
    let p = policy(&w);
    let tiers = |chance: f64| {
        let v = values(&[("crit_chance", chance)]);
        let a = Actor { id: "a", values: &v, providers: &[], source: "test" };
        let t = p.tiers(&w.rs, &a).unwrap().unwrap();
        (t.guaranteed, t.next_chance)
    };
    assert_eq!(tiers(0.0), (0, 0.0));
    assert_eq!(tiers(40.0), (0, 0.4));
    assert_eq!(tiers(100.0), (1, 0.0));
    assert_eq!(tiers(250.0), (2, 0.5));
    assert_eq!(tiers(300.0), (3, 0.0));
    assert_eq!(tiers(-20.0), (0, 0.0), "a negative chance is no chance");
    // Bonus 100 % per tier: tiers 1/2/3 give ×2/×3/×4 (no armor, no block).
    let hit = damage(10.0, &["effect.damage"], "health");
    for (chance, amount) in [(100.0, 20.0), (200.0, 30.0), (300.0, 40.0)] {
        assert_eq!(outcomes(&w, &hit, &[], &[("crit_chance", chance)], &[]), vec![(amount, 1.0)], "{chance} %");
    }
    // The default bonus is the binding's 100, at scale 0.01; the actor's own value wins.
    assert_eq!(outcomes(&w, &hit, &[], &[("crit_chance", 100.0)], &[]), vec![(20.0, 1.0)]);
    assert_eq!(outcomes(&w, &hit, &[], &[("crit_chance", 200.0), ("crit_bonus", 50.0)], &[]), vec![(20.0, 1.0)]);
    // Missing chance reads the declared zero: no critical at all.
    assert_eq!(outcomes(&w, &hit, &[], &[], &[]), vec![(10.0, 1.0)]);
}

/// Each impact rolls on its own; a certain tier (no fraction) never touches the dice.
#[test]
fn a_zero_chance_does_not_advance_the_dice_and_each_impact_rolls() {
    let w = world();
    let p = policy(&w);
    let hit = damage(10.0, &["effect.damage"], "health");
    let a = p.adapt(&hit, &[]).unwrap();
    let none = BTreeMap::new();
    let target = Actor { id: "t", values: &none, providers: &[], source: "test" };
    for (chance, moves) in [(0.0, false), (200.0, false), (250.0, true), (40.0, true)] {
        let v = values(&[("crit_chance", chance)]);
        let source = Actor { id: "s", values: &v, providers: &[], source: "test" };
        let mut dice = Dice::new(9);
        let before = dice.draws();
        p.impact(&w.rs, &a, &source, &target, &mut dice).unwrap();
        assert_eq!(dice.draws() != before, moves, "chance {chance}");
    }
    let v = values(&[("crit_chance", 150.0)]);
    let source = Actor { id: "s", values: &v, providers: &[], source: "test" };
    let mut dice = Dice::new(2026);
    let rolls: Vec<u32> =
        (0..4000).map(|_| p.impact(&w.rs, &a, &source, &target, &mut dice).unwrap().tier.unwrap()).collect();
    assert!(rolls.iter().all(|&t| t == 1 || t == 2));
    let share = rolls.iter().filter(|&&t| t == 2).count() as f64 / rolls.len() as f64;
    assert!((share - 0.5).abs() < 0.03, "the extra tier comes half the time: {share}");
}

#[test]
fn block_comes_after_armor_is_consumed_by_settlement_and_piercing_skips_it() {
    let w = world();
    let p = policy(&w);
    let hit = damage(10.0, &["effect.damage"], "health");
    // 10 halved by armor 100 is 5, all of it absorbed by block 8 (not 10 − 8 = 2, halved to 1).
    assert_eq!(outcomes(&w, &hit, &[], &[], &[("armor", 100.0), ("block", 8.0)]), vec![(0.0, 1.0)]);
    let t = values(&[("armor", 100.0), ("block", 8.0)]);
    let none = BTreeMap::new();
    let (sa, ta) = (
        Actor { id: "s", values: &none, providers: &[], source: "test" },
        Actor { id: "t", values: &t, providers: &[], source: "test" },
    );
    let d = p.distribution(&w.rs, &p.adapt(&hit, &[]).unwrap(), &sa, &ta).unwrap();
    let block = p.bindings.iter().position(|b| b.attribute == "block").unwrap();
    assert_eq!(d.branches[0].settled, vec![(block, 5.0)], "block consumes what it absorbed, no more");
    let pierce = damage(10.0, &["effect.damage", "piercing"], "health");
    let d = p.distribution(&w.rs, &p.adapt(&pierce, &[]).unwrap(), &sa, &ta).unwrap();
    assert_eq!(d.outcomes[0].amount, 5.0);
    assert!(d.branches[0].settled.is_empty(), "piercing consumes no block");
    assert_eq!(d.diagnostic.bypass_tags, vec!["piercing".to_string()]);
    let sunder = damage(10.0, &["effect.damage", "ignore_armor"], "health");
    assert_eq!(outcomes(&w, &sunder, &[], &[], &[("armor", 100.0), ("block", 8.0)]), vec![(2.0, 1.0)]);
}

fn component(origin: &str, critical: Option<bool>, armor: Option<bool>, block: Option<bool>) -> Override {
    Override {
        selector: Selector { required_tags: vec!["effect.damage".into()], ..Selector::default() },
        effect_id: None,
        critical,
        armor,
        block,
        origin: origin.into(),
        source: format!("test#{origin}"),
    }
}

#[test]
fn every_override_form_and_prohibitions_beat_permissions() {
    let w = world();
    let p = policy(&w);
    let hit = damage(10.0, &["effect.damage"], "health");
    let crit = [("crit_chance", 100.0)];
    let armored = [("armor", 100.0)];
    // A card component forbidding criticals selects the rule's non-critical pipeline.
    let no_crit = component("rule.no-critical", Some(false), None, None);
    let a = p.adapt(&hit, std::slice::from_ref(&no_crit)).unwrap();
    assert!(!a.critical);
    assert_eq!(w.rs.pipelines[a.pipeline.unwrap()].id, "w1_direct_damage_no_crit");
    assert_eq!(outcomes(&w, &hit, std::slice::from_ref(&no_crit), &crit, &[]), vec![(10.0, 1.0)]);
    // A permission alone changes nothing the rule allows; against a prohibition it loses.
    let allow = component("rule.allow-critical", Some(true), None, None);
    assert_eq!(outcomes(&w, &hit, std::slice::from_ref(&allow), &crit, &[]), vec![(20.0, 1.0)]);
    let both = p.adapt(&hit, &[allow.clone(), no_crit.clone()]).unwrap();
    assert!(!both.critical);
    let decided: Vec<(String, bool)> = both.applied.iter().map(|o| (o.origin.clone(), o.decided)).collect();
    assert_eq!(decided, vec![("rule.allow-critical".into(), false), ("rule.no-critical".into(), true)]);
    // armor: false adds the rule's armorBypassTag to the adapted copy, not to the content.
    let ignore = component("rule.ignore-armor", None, Some(false), None);
    let a = p.adapt(&hit, std::slice::from_ref(&ignore)).unwrap();
    assert!(a.effect.tags.contains(&"ignore_armor".to_string()));
    assert!(!hit.tags.contains(&"ignore_armor".to_string()));
    assert_eq!(outcomes(&w, &hit, std::slice::from_ref(&ignore), &[], &armored), vec![(10.0, 1.0)]);
    // The effect's own ruleOverrides; block: false goes through blockBypassTag.
    let mut own = hit.clone();
    own.overrides.push(Override {
        origin: "ruleOverrides".into(),
        selector: Selector::default(),
        ..component("x", None, None, Some(false))
    });
    assert_eq!(outcomes(&w, &own, &[], &[], &[("block", 6.0)]), vec![(10.0, 1.0)]);
    // effectId restricts a component to one effect of the card.
    let mut only_b = ignore.clone();
    only_b.effect_id = Some("fang_b".into());
    assert_eq!(outcomes(&w, &hit, std::slice::from_ref(&only_b), &[], &armored), vec![(5.0, 1.0)]);
    let mut fang_b = hit.clone();
    fang_b.id = "fang_b".into();
    assert_eq!(outcomes(&w, &fang_b, std::slice::from_ref(&only_b), &[], &armored), vec![(10.0, 1.0)]);
}

#[test]
fn an_override_without_its_mapping_fails_and_so_does_a_permission_the_rule_lacks() {
    let w = world();
    let p = policy(&w);
    let dot = Effect { channel: "w1_dot".into(), ..damage(4.0, &["effect.damage", "effect.dot"], "health") };
    let block_off = component("rule.through-guard", None, None, Some(false));
    match p.adapt(&dot, std::slice::from_ref(&block_off)) {
        Err(AdaptError::NoBlockBypass { rule, origin, .. }) => {
            assert_eq!((rule.as_str(), origin.as_str()), ("w1_damage_over_time", "rule.through-guard"));
        }
        other => panic!("{other:?}"),
    }
    let allow = component("rule.allow-critical", Some(true), None, None);
    assert!(matches!(p.adapt(&dot, &[allow]), Err(AdaptError::NoCritical { .. })));
    // Without the mapping on the rule itself, armor: false fails too.
    let mut bare = p.clone();
    bare.rules[0].armor_bypass_tag = None;
    let hit = damage(10.0, &["effect.damage"], "health");
    let ignore = component("rule.ignore-armor", None, Some(false), None);
    assert!(matches!(bare.adapt(&hit, &[ignore]), Err(AdaptError::NoArmorBypass { .. })));
}

#[test]
fn two_rules_matching_one_effect_is_refused_and_unruled_effects_keep_their_amount() {
    let w = world();
    let mut p = policy(&w).clone();
    let hit = damage(10.0, &["effect.damage"], "health");
    // A cost that subtracts life is not damage; a heal and a condense never inherit criticals.
    for (tags, channel) in [(&["effect.cost"][..], "cost"), (&["effect.condense"], "effect_amount")] {
        let e = Effect { channel: channel.into(), ..damage(7.0, tags, "health") };
        let a: Adapted = p.adapt(&e, &[]).unwrap();
        assert_eq!((a.rule, a.critical), (None, false), "{tags:?}");
        assert_eq!(outcomes(&w, &e, &[], &[("crit_chance", 300.0)], &[("armor", 100.0)]), vec![(7.0, 1.0)]);
    }
    let heal = Effect { op: AmountOp::Add, ..damage(7.0, &["effect.heal"], "health") };
    let a = p.adapt(&heal, &[]).unwrap();
    assert_eq!((p.rules[a.rule.unwrap()].id.as_str(), a.critical), ("w1_heal", false));
    let mut twin = p.rules[0].clone();
    twin.id = "twin".into();
    p.rules.push(twin);
    match p.select(&hit) {
        Err(AdaptError::Ambiguous { rules, .. }) => assert_eq!(rules, vec!["'w1_direct_damage'", "'twin'"]),
        other => panic!("{other:?}"),
    }
}

/// Every card (with each of its upgrades, and all of them) and every enemy ability: the rule,
/// pipeline, critical, bypass tags and overrides each effect resolves with.
#[test]
fn the_matrix_of_cards_and_abilities_under_the_policy() {
    let w = world();
    let p = policy(&w);
    let mut rows = Vec::new();
    let mut row = |who: String, e: &Effect, comps: &[Override]| {
        if e.kind != EffectKind::Amount {
            rows.push(format!(
                "{who:<40} {:<12} {:<6} {}",
                e.id,
                format!("{:?}", e.kind).to_lowercase(),
                e.status.clone().or(e.attribute.clone()).unwrap_or_default()
            ));
            return;
        }
        let a = p.adapt(e, comps).expect("every content effect adapts");
        let d = p.diagnostic(&w.rs, &a);
        let overrides: Vec<String> = d
            .overrides
            .iter()
            .map(|o| format!("{}:{}={}{}", o.origin, o.field, o.value, if o.decided { "" } else { " (overruled)" }))
            .collect();
        rows.push(format!(
            "{who:<40} {:<12} {:<13} {:<20} {:<26} crit={:<5} bypass=[{}] {}",
            e.id,
            e.channel,
            d.rule.unwrap_or_else(|| "-".into()),
            d.pipeline.unwrap_or_else(|| "-".into()),
            d.critical,
            d.bypass_tags.join(","),
            overrides.join(" ")
        ));
    };
    for c in w.cards.values() {
        let mut variants: Vec<Vec<String>> = vec![Vec::new()];
        variants.extend(c.upgrades.keys().map(|u| vec![u.clone()]));
        if c.upgrades.len() > 1 {
            variants.push(c.upgrades.keys().cloned().collect());
        }
        for v in variants {
            let played = c.compose(&v).unwrap();
            let who = if v.is_empty() { c.id.clone() } else { format!("{}+{}", c.id, v.join("+")) };
            for e in &played.effects {
                row(who.clone(), e, &played.components);
            }
        }
    }
    for e in w.enemies.values() {
        for a in &e.script {
            for eff in &a.effects {
                row(format!("{}/{}", e.id, a.id), eff, &a.components);
            }
        }
    }
    for s in w.statuses.values() {
        if let Some(t) = &s.tick {
            row(format!("status {}", s.id), t, &[]);
        }
    }
    insta::assert_snapshot!(rows.join("\n"));
}
