//! Properties of sheets, progression and the squad generator.

use crate::common;
use common::*;
use microfut::club::generate::generate;
use microfut::club::{ClubRules, Request};
use microfut::ruleset::Ruleset;
use microfut::sheet::{Foot, Progression, Sheet, Trainer, Trait, TraitKind, Xp, XpRules};
use proptest::prelude::*;
use std::collections::BTreeMap;
use std::sync::OnceLock;

const DRAFT: &str = "0.5.1";

/// Compiling a revision takes a moment: once per test binary.
fn rs() -> &'static Ruleset {
    static RS: OnceLock<Ruleset> = OnceLock::new();
    RS.get_or_init(|| ruleset(DRAFT))
}

fn arb_sheet() -> impl Strategy<Value = Sheet> {
    (15u32..=60, prop::collection::vec(3i32..=18, 14), prop::collection::vec(-3i32..=3, 6)).prop_map(
        |(age, levels, training)| {
            let mut s = Sheet {
                schema: None,
                name: "P".into(),
                club: None,
                age,
                shirt: 9,
                role: "striker".into(),
                foot: Foot::Right,
                archetype: "test".into(),
                attributes: BTreeMap::new(),
                training: BTreeMap::new(),
                skills: BTreeMap::new(),
                personality: Default::default(),
                progression: serde_json::Value::Null,
            };
            let traits = Trait::all();
            let (mut l, mut t) = (levels.into_iter(), training.into_iter());
            for tr in traits {
                let v = if tr.kind == TraitKind::Training { t.next() } else { l.next() };
                tr.set_level(&mut s, v.unwrap());
            }
            s
        },
    )
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(common::cases(256)))]

    /// Net cost rises with every level of every trait; positive XP never falls.
    #[test]
    fn net_cost_is_monotone_in_every_level(sheet in arb_sheet()) {
        let xp = XpRules::from_ruleset(rs()).unwrap();
        let before = xp.totals(&sheet);
        prop_assert_eq!(before.net, xp.ledger(rs(), &sheet).net);
        for t in Trait::all() {
            let level = t.level(&sheet).unwrap();
            if level >= xp.scale(t.kind).1 {
                continue;
            }
            let mut up = sheet.clone();
            t.set_level(&mut up, level + 1);
            let after = xp.totals(&up);
            prop_assert!(after.net > before.net, "{} {} → {}: net {} → {}", t.id, level, level + 1, before.net, after.net);
            prop_assert!(after.positive >= before.positive);
        }
    }

    /// RES practical = clamp(3, 18, RES base + the age penalty) at every age, never below 3.
    #[test]
    fn res_practical_never_below_3(res in 3i32..=18, age in 15u32..=60) {
        let mut s = Sheet::load(std::path::Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/sheets/veteran.json"))).unwrap().0;
        s.attributes.insert("res".into(), res);
        s.age = age;
        let v = s.view(rs()).unwrap();
        prop_assert!(v.res_practical.value >= 3);
        prop_assert_eq!(v.res_practical.value as f64, (res as f64 + v.res_practical.age_penalty).clamp(3.0, 18.0));
        if age > 40 {
            prop_assert_eq!(v.res_practical.age_penalty, -14.0 - 2.0 * (age - 40) as f64);
        }
    }

    /// One award or the same XP in pieces: the channel ends at the same level with exactly the
    /// same XP, since a trait's multiplier is that of its own current level. An attribute or a
    /// characteristic sends no support, so the whole sheet is the same. (Support to a
    /// characteristic whose value follows an attribute rising in the same award may differ by
    /// order: its multiplier is read when its XP arrives.)
    #[test]
    fn splitting_an_award_changes_nothing(
        channel in prop::sample::select(Trainer::channels()),
        parts in prop::collection::vec(1u32..=2500, 1..12),
    ) {
        let trainer = Trainer::new(rs()).unwrap();
        let youth = Sheet::load(std::path::Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/sheets/youth.json"))).unwrap().0;
        // Parts in tenths of XP.
        let pieces: Vec<Xp> = parts.iter().map(|p| Xp::new(*p as i128, 10).unwrap()).collect();
        let total = pieces.iter().fold(Xp::ZERO, |a, b| a.checked_add(*b).unwrap());
        let mut split = trainer.session(&youth).unwrap();
        for p in &pieces {
            split.award(&[(channel.clone(), *p)]).unwrap();
        }
        let split = split.finish();
        let mut whole = youth.clone();
        trainer.award(&mut whole, &[(channel.clone(), total)]).unwrap();
        let t = Trait::named(&channel).unwrap();
        prop_assert_eq!(t.level(&split), t.level(&whole));
        let (ps, pw) = (Progression::of(&split).unwrap(), Progression::of(&whole).unwrap());
        prop_assert_eq!(&ps.channels[&channel], &pw.channels[&channel]);
        prop_assert_eq!(ps.channels[&channel].raw, total);
        if t.kind != TraitKind::Skill {
            prop_assert_eq!(&split.attributes, &whole.attributes);
            prop_assert_eq!(&split.training, &whole.training);
            prop_assert_eq!(ps.channels, pw.channels);
        }
        prop_assert!(split.problems(rs()).unwrap().is_empty(), "training keeps a sheet valid");
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(common::cases(300)))]

    /// Whatever the seed, the generator's squads pass `club validate` at every preset budget.
    #[test]
    fn generated_clubs_validate(seed in any::<u64>()) {
        let rules = ClubRules::need(rs(), "test").unwrap();
        for preset in ["modest", "established", "elite"] {
            let budget = rules.preset(preset).unwrap().xp;
            let club = generate(rs(), &Request { budget, identity: None, personality: None, seed, name: None, id: None }).unwrap();
            let report = club.validate(rs(), Vec::new()).unwrap();
            prop_assert!(report.is_valid(), "seed {seed}, {preset}: {:?}", report.problems);
            prop_assert!(report.total_net <= budget as f64);
            prop_assert_eq!(club.squad.len(), rules.squad.size);
        }
    }
}
