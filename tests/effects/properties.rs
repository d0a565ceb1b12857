//! Properties of seed 002's policy over the whole range of actors: the distribution is a
//! distribution, amounts are never negative, more armor or block never hurts more, more base or
//! crit chance never hurts less, and a rolled impact is always one of the exact outcomes.

use crate::common;
use microfut::catalog::{Catalog, ContentTree};
use microfut::dice::Dice;
use microfut::effects::{self, Actor, AmountOp, Effect, EffectKind, TargetKind, World};
use proptest::prelude::*;
use std::collections::BTreeMap;

fn world() -> &'static World {
    static W: std::sync::OnceLock<World> = std::sync::OnceLock::new();
    W.get_or_init(|| {
        let catalog = Catalog::load(&ContentTree::embedded());
        effects::compile(catalog.revision("effects", Some("1.0.0")).unwrap()).unwrap()
    })
}

fn hit(amount: f64, tags: &[&str]) -> Effect {
    Effect {
        id: "hit".into(),
        kind: EffectKind::Amount,
        target: TargetKind::Enemy,
        channel: "effect_amount".into(),
        tags: tags.iter().map(|t| t.to_string()).collect(),
        amount,
        resource: Some("health".into()),
        op: AmountOp::Subtract,
        impacts: 1,
        status: None,
        duration: 0,
        attribute: None,
        overrides: Vec::new(),
        source: "test".into(),
    }
}

#[derive(Debug, Clone, Copy)]
struct Case {
    base: f64,
    chance: f64,
    bonus: f64,
    vulnerability: f64,
    armor: f64,
    block: f64,
}

fn case() -> impl Strategy<Value = Case> {
    (0u32..60, 0u32..420, 0u32..200, 0u32..100, -50i32..400, 0u32..40).prop_map(|(b, c, bo, v, a, bl)| Case {
        base: b as f64,
        chance: c as f64,
        bonus: bo as f64,
        vulnerability: v as f64,
        armor: a as f64,
        block: bl as f64,
    })
}

fn tags() -> impl Strategy<Value = Vec<&'static str>> {
    prop_oneof![
        Just(vec!["effect.damage"]),
        Just(vec!["effect.damage", "piercing"]),
        Just(vec!["effect.damage", "ignore_armor"]),
    ]
}

fn sides(c: &Case) -> (BTreeMap<String, f64>, BTreeMap<String, f64>) {
    let s = [("crit_chance", c.chance), ("crit_bonus", c.bonus)];
    let t = [("vulnerability", c.vulnerability), ("armor", c.armor), ("block", c.block)];
    (s.iter().map(|(k, v)| (k.to_string(), *v)).collect(), t.iter().map(|(k, v)| (k.to_string(), *v)).collect())
}

/// (outcomes, expected amount)
fn resolve(c: &Case, tags: &[&str]) -> (Vec<(f64, f64)>, f64) {
    let w = world();
    let p = w.policy("w1_global_effect_rules").unwrap();
    let (s, t) = sides(c);
    let sa = Actor { id: "s", values: &s, providers: &[], source: "test" };
    let ta = Actor { id: "t", values: &t, providers: &[], source: "test" };
    let d = p.distribution(&w.rs, &p.adapt(&hit(c.base, tags), &[]).unwrap(), &sa, &ta).unwrap();
    (d.outcomes.iter().map(|o| (o.amount, o.probability)).collect(), d.expected())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(common::cases(256)))]

    #[test]
    fn a_distribution_of_non_negative_amounts(c in case(), t in tags()) {
        let (outcomes, expected) = resolve(&c, &t);
        let total: f64 = outcomes.iter().map(|o| o.1).sum();
        prop_assert!((total - 1.0).abs() < 1e-12, "{outcomes:?}");
        prop_assert!(outcomes.iter().all(|o| o.0 >= 0.0 && o.1 > 0.0 && o.1 <= 1.0), "{outcomes:?}");
        prop_assert!(outcomes.len() <= 2, "at most the guaranteed tier and one more: {outcomes:?}");
        prop_assert_eq!(resolve(&c, &t), (outcomes, expected), "reads are deterministic");
    }

    #[test]
    fn defences_never_hurt_more_and_offence_never_hurts_less(c in case(), t in tags(), more in 1u32..200) {
        let m = more as f64;
        let e = |c: Case| resolve(&c, &t).1;
        let base = e(c);
        prop_assert!(e(Case { armor: c.armor + m, ..c }) <= base + 1e-9, "armor");
        prop_assert!(e(Case { block: c.block + m, ..c }) <= base + 1e-9, "block");
        prop_assert!(e(Case { base: c.base + m, ..c }) >= base - 1e-9, "base");
        prop_assert!(e(Case { chance: c.chance + m, ..c }) >= base - 1e-9, "crit chance");
        prop_assert!(e(Case { bonus: c.bonus + m, ..c }) >= base - 1e-9, "crit bonus");
        prop_assert!(e(Case { vulnerability: c.vulnerability + m, ..c }) >= base - 1e-9, "vulnerability");
    }

    #[test]
    fn a_rolled_impact_is_one_of_the_exact_outcomes(c in case(), t in tags(), seed in any::<u64>()) {
        let w = world();
        let p = w.policy("w1_global_effect_rules").unwrap();
        let (s, tv) = sides(&c);
        let sa = Actor { id: "s", values: &s, providers: &[], source: "test" };
        let ta = Actor { id: "t", values: &tv, providers: &[], source: "test" };
        let a = p.adapt(&hit(c.base, &t), &[]).unwrap();
        let (outcomes, _) = resolve(&c, &t);
        let mut dice = Dice::new(seed);
        let i = p.impact(&w.rs, &a, &sa, &ta, &mut dice).unwrap();
        prop_assert!(outcomes.iter().any(|o| o.0 == i.amount), "{} not in {outcomes:?}", i.amount);
        // Only an uncertain tier draws (one uniform: the raw words it takes are the dice's business).
        let uncertain = c.chance.max(0.0) % 100.0 != 0.0;
        prop_assert_eq!(dice.draws() > 0, uncertain);
    }
}
