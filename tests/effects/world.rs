//! World 1 as a whole: bad content reported all at once with file and JSON pointer, K as a
//! revision's parameter, the nine-encounter journey recorded and replayed bit for bit, and
//! reads (CaptureOnly) that never draw, settle, change a resource or commit.

use microfut::catalog::{Catalog, ContentTree, Revision};
use microfut::effects::record::{self, JourneyRecord, Replay};
use microfut::effects::{
    self, Actor, AmountOp, Command, Effect, EffectKind, Run, TargetKind, World, autopilot, project,
};
use serde_json::{Value, json};
use std::collections::BTreeMap;
use std::sync::Arc;

fn revision() -> Revision {
    static REV: std::sync::OnceLock<Revision> = std::sync::OnceLock::new();
    REV.get_or_init(|| {
        Catalog::load(&ContentTree::embedded()).revision("effects", Some("1.0.0")).expect("effects 1.0.0").clone()
    })
    .clone()
}

fn world() -> Arc<World> {
    static W: std::sync::OnceLock<Arc<World>> = std::sync::OnceLock::new();
    W.get_or_init(|| Arc::new(effects::compile(&revision()).expect("effects 1.0.0 compiles"))).clone()
}

/// Effects 1.0.0 with documents edited in memory, compiled; the problems as text.
fn problems(edit: impl FnOnce(&mut BTreeMap<String, Value>)) -> Vec<String> {
    let mut rev = revision();
    let mut docs: BTreeMap<String, Value> = rev.documents.clone().into_iter().collect();
    edit(&mut docs);
    for (k, v) in docs {
        *rev.documents.get_mut(&k).expect("document") = v;
    }
    match effects::compile(&rev) {
        Ok(_) => panic!("expected problems"),
        Err(d) => d.iter().map(ToString::to_string).collect(),
    }
}

fn edited(edit: impl FnOnce(&mut BTreeMap<String, Value>)) -> World {
    let mut rev = revision();
    let mut docs: BTreeMap<String, Value> = rev.documents.clone().into_iter().collect();
    edit(&mut docs);
    for (k, v) in docs {
        *rev.documents.get_mut(&k).expect("document") = v;
    }
    effects::compile(&rev).expect("the edited revision compiles")
}

fn hit(amount: f64) -> Effect {
    Effect {
        id: "hit".into(),
        kind: EffectKind::Amount,
        target: TargetKind::Enemy,
        channel: "effect_amount".into(),
        tags: vec!["effect.damage".into()],
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

fn against_armor(w: &World, armor: f64) -> Vec<(f64, f64)> {
    let p = w.policy("w1_global_effect_rules").unwrap();
    let none = BTreeMap::new();
    let t: BTreeMap<String, f64> = [("armor".to_string(), armor)].into();
    let s = Actor { id: "s", values: &none, providers: &[], source: "test" };
    let ta = Actor { id: "t", values: &t, providers: &[], source: "test" };
    let d = p.distribution(&w.rs, &p.adapt(&hit(12.0), &[]).unwrap(), &s, &ta).unwrap();
    d.outcomes.iter().map(|o| (o.amount, o.probability)).collect()
}

#[test]
fn bad_content_is_reported_all_at_once_with_file_and_pointer() {
    let p = problems(|d| {
        let pol = d.get_mut("policies.json").unwrap();
        pol["policies"][0]["rules"][2]["amountPipelineId"] = json!("w1_heel");
        // steady_strike's armor_breaker and twin_fang switch armor off: the rule must map it.
        pol["policies"][0]["rules"][0].as_object_mut().unwrap().remove("armorBypassTag");
        d.get_mut("formulas.json").unwrap()["formulas"][0]["parameters"]["K"]["value"] = json!(0);
    });
    assert_eq!(
        p,
        [
            "effects/1.0.0/cards.json#/cards/steady_strike/upgrades/armor_breaker/components/0/rule: under policy w1_global_effect_rules: rule.ignore-armor (effects/1.0.0/cards.json#/cards/steady_strike/upgrades/armor_breaker/components/0/rule) sets armor: false on effect 'hit', but rule 'w1_direct_damage' declares no armorBypassTag",
            "effects/1.0.0/cards.json#/cards/twin_fang/components/0/rule: under policy w1_global_effect_rules: rule.fang-bites-through (effects/1.0.0/cards.json#/cards/twin_fang/components/0/rule) sets armor: false on effect 'fang_b', but rule 'w1_direct_damage' declares no armorBypassTag",
            "effects/1.0.0/formulas.json#/formulas/0/parameters/K/value: K of formula W1_ARMOR_REMAINING_AMOUNT is 0, but must be greater than 0 (minimumExclusive: 0)",
            "effects/1.0.0/policies.json#/policies/0/rules/2/amountPipelineId: unknown pipeline 'w1_heel' (did you mean 'w1_heal'?)",
        ],
        "every problem at once, each where it is written"
    );
}

#[test]
fn k_is_the_revisions_parameter_and_must_be_positive() {
    // K 100: armor 100 halves 12.
    assert_eq!(against_armor(&world(), 100.0), vec![(6.0, 1.0)]);
    // Armor never adds: a negative armor reads as 0.
    assert_eq!(against_armor(&world(), -40.0), vec![(12.0, 1.0)]);
    // K 200: armor 100 leaves 2/3 of 12.
    let w = edited(|d| d.get_mut("formulas.json").unwrap()["formulas"][0]["parameters"]["K"]["value"] = json!(200));
    assert_eq!(against_armor(&w, 100.0), vec![(8.0, 1.0)]);
    for bad in [0, -100] {
        let p =
            problems(|d| d.get_mut("formulas.json").unwrap()["formulas"][0]["parameters"]["K"]["value"] = json!(bad));
        assert!(p.iter().any(|m| m.contains("formulas.json#/formulas/0/parameters/K")), "K = {bad}: {p:?}");
    }
}

fn journey(seed: u64) -> Run {
    let mut run = Run::new(world(), "w1_journey", seed, format!("r{seed}")).unwrap();
    autopilot::play_out(&mut run).unwrap();
    run
}

#[test]
fn the_nine_encounter_journey_is_recorded_pinned_and_replayed_bit_for_bit() {
    let run = journey(7);
    assert!(run.is_finished());
    assert_eq!(run.journey().steps.len(), 9);
    let rec = JourneyRecord::of(&run);
    assert_eq!((rec.mode.as_str(), rec.revision.as_str()), ("w1_journey", "1.0.0"));
    let pin = rec.policy.clone().expect("the mode's policy is pinned");
    assert_eq!(pin.id, "w1_global_effect_rules");
    assert_eq!(rec.fingerprint, world().rs.fingerprint);
    // Every resolution carries its diagnostic.
    let bytes = serde_json::to_vec(&rec).unwrap();
    let text = String::from_utf8(bytes.clone()).unwrap();
    assert!(text.contains("\"resolutionPolicy\""), "resolutions record their policy");
    // Through the file format and the catalog's pinned revision, bit for bit.
    let parsed = JourneyRecord::parse(&bytes).unwrap();
    let catalog = Catalog::load(&ContentTree::embedded());
    let w = record::pinned_world(&catalog, &parsed).unwrap();
    assert_eq!(record::replay(w.clone(), &parsed).unwrap(), Replay::Identical { commands: run.commands().len() });
    // The same seed plays the same journey; another seed another.
    assert_eq!(journey(7).hashes(), run.hashes());
    assert_ne!(journey(8).hashes(), run.hashes());
    // An edited command is found at its sequence number.
    let mut tampered = parsed.clone();
    let at = tampered.commands.iter().position(|c| matches!(c, Command::EndTurn)).unwrap();
    tampered.commands.insert(at, Command::EndTurn);
    match record::replay(w, &tampered).unwrap() {
        Replay::Identical { .. } => panic!("an edited record replays as identical"),
        Replay::Differs { sequence, .. } | Replay::CommandRefused { sequence, .. } => assert!(sequence > at),
        Replay::RecordEdited { .. } => {}
    }
    // Another fingerprint under the same version is refused, nothing migrates silently.
    let mut moved = parsed;
    moved.fingerprint = "sha256:0000".into();
    assert!(record::pinned_world(&catalog, &moved).is_err());
}

/// What a read could change: the state hash covers resources, capacities, statuses and piles.
fn footprint(run: &Run) -> (u64, u64, u64, usize) {
    (run.state_hash(), run.dice_draws(), run.sequence(), run.events().len())
}

#[test]
fn reads_never_draw_settle_change_or_commit() {
    let mut run = Run::new(world(), "w1_journey", 11, "reads").unwrap();
    let mut reads = 0;
    loop {
        let before = footprint(&run);
        let json_before = serde_json::to_string(&project::character_attributes(&run)).unwrap();
        let character = project::character_attributes(&run);
        assert!(!character.attributes.is_empty());
        assert!(character.critical_rules.is_some());
        if let Some(c) = run.combat() {
            let (cid, ids): (String, Vec<String>) =
                (c.id.clone(), std::iter::once(&c.hero).chain(&c.enemies).map(|a| a.id.clone()).collect());
            for id in ids {
                let r = project::combat_actor_attributes(&run, &cid, &id).unwrap();
                assert_eq!(r.combat_id.as_deref(), Some(cid.as_str()));
                for a in &r.attributes {
                    assert!(a.contributions.len() <= project::MAX_CONTRIBUTIONS);
                }
                reads += 1;
            }
            assert!(project::combat_actor_attributes(&run, &cid, "nobody").is_err());
            assert!(project::combat_actor_attributes(&run, "elsewhere", "hero").is_err());
        }
        assert_eq!(footprint(&run), before, "a read changed the run at command {}", run.sequence());
        // Reading twice reads the same.
        assert_eq!(serde_json::to_string(&project::character_attributes(&run)).unwrap(), json_before);
        match autopilot::choose(&run) {
            Some(c) => run.apply(&c).unwrap(),
            None => break,
        }
    }
    assert!(reads > 100, "reads across the whole journey ({reads})");
    // Reading at every step did not change how the journey went.
    assert_eq!(run.hashes(), journey_with_id(11, "reads").hashes());
}

fn journey_with_id(seed: u64, id: &str) -> Run {
    let mut run = Run::new(world(), "w1_journey", seed, id).unwrap();
    autopilot::play_out(&mut run).unwrap();
    run
}

#[test]
fn a_mode_without_a_policy_reads_an_empty_collection() {
    let run = Run::new(world(), "showcase", 1, "show").unwrap();
    assert!(run.policy().is_none());
    let r = project::character_attributes(&run);
    assert!(r.attributes.is_empty());
    assert!(r.critical_rules.is_none());
    assert!(r.policy.is_none());
    assert_eq!(JourneyRecord::of(&run).policy, None);
}

#[test]
fn the_hero_reads_the_mode_blessing_in_effective_not_base() {
    let run = Run::new(world(), "w1_journey", 3, "bless").unwrap();
    let r = project::character_attributes(&run);
    let crit = r.attributes.iter().find(|a| a.attribute_id == "crit_chance").expect("crit chance is shown");
    assert_eq!(crit.effective_value - crit.base_value, 5.0, "the World 1 blessing adds 5: {crit:?}");
    assert!(
        crit.contributions.iter().any(|c| c.source.contains("w1_journey") || c.label.en.contains("blessing")),
        "{crit:?}"
    );
    let rules = r.critical_rules.unwrap();
    assert_eq!(rules.chance_percent, crit.effective_value);
    assert_eq!(rules.guaranteed_tiers, (crit.effective_value / 100.0).floor() as u32);
}
