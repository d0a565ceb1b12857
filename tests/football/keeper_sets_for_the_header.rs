//! Engine 0.5.9 (issue 11): the keeper sets himself for the header. Until now the defending
//! keeper met a header where he had stood for the cross — on the line from the crosser to his
//! goal, near his post — so a header from the middle of the box found him about 4 m from his spot
//! (the position table's −2), and under 0.6.11 headers were scored three to four times as often as
//! foot shots (CALIBRATION.md, History). Content may now name `keeper_cross_reset`: how far he
//! moves towards his spot for the header per metre the cross travels (a keeper who came for the
//! ball and lost it stays where the duel left him). The NPC's price of a cross reads the same
//! rule. Absent, play is as before, bit for bit (the replay corpus and the golden matches of every
//! earlier revision). The tests read the repository's content folder (or `MICROFUT_TEST_CONTENT`).

use crate::common;
use common::{sample_club as club, test_catalog};
use microfut::engine::geometry::V2;
use microfut::engine::{EventKind, Kind, Match, Options, Rules};
use std::sync::Arc;

const REFERENCE: &str = "sociedade_esportiva_serra_azul";
/// A revision without the rule.
const REVISION: &str = "0.6.20";
const SEEDS: u64 = 30;

fn compiled(reset: Option<serde_json::Value>) -> Result<Rules, String> {
    let catalog = test_catalog();
    let mut rev = catalog.revision("microfut", Some(REVISION)).unwrap().clone();
    if let Some(v) = reset {
        let params = rev.documents.get_mut("params.json").unwrap()["params"].as_array_mut().unwrap();
        params.push(serde_json::json!({
            "id": "keeper_cross_reset",
            "value": v,
            "domain": {"min": -1, "max": 2},
            "label": {"pt-BR": "Goleiro se recoloca", "en": "Keeper resets"},
            "unit": "m/m"
        }));
    }
    let rs = microfut::ruleset::compile(&rev).unwrap_or_else(|d| panic!("{REVISION}: {d:?}"));
    Rules::new(Arc::new(rs)).map_err(|e| e.to_string())
}

/// Over the same seeds: the keeper's distance from his spot at every header on target, every
/// foot shot on target, and each match's round hashes.
fn play(rules: Rules) -> (Vec<f64>, Vec<f64>, Vec<Vec<u64>>) {
    let (rules, c) = (Arc::new(rules), club(REFERENCE));
    let (mut headers, mut feet, mut hashes) = (vec![], vec![], vec![]);
    for seed in 1..=SEEDS {
        let mut m = Match::new(rules.clone(), &c, &c, seed, Options::default()).unwrap();
        m.run().unwrap();
        for e in m.events() {
            if let EventKind::Shot { header, keeper: Some(k), .. } = &e.kind {
                if *header { &mut headers } else { &mut feet }.push(k.position_error);
            }
        }
        hashes.push(m.round_hashes().to_vec());
    }
    (headers, feet, hashes)
}

fn mean(v: &[f64]) -> f64 {
    v.iter().sum::<f64>() / v.len().max(1) as f64
}

/// With the rule, the keeper meets headers much nearer his spot (a reset far longer than any
/// cross puts him on it, unless he came for the ball); foot shots find him as before; without
/// it, a revision plays exactly as it did.
#[test]
fn the_keeper_sets_himself_for_the_header() {
    let (before, before_feet, before_hashes) = play(compiled(None).unwrap());
    let (full, full_feet, _) = play(compiled(Some(serde_json::json!(2.0))).unwrap());
    let (some, _, _) = play(compiled(Some(serde_json::json!(0.05))).unwrap());
    eprintln!(
        "headers: {} before, mean error {:.2}; {} with 0.05 m/m, {:.2}; {} with 2 m/m, {:.2}",
        before.len(),
        mean(&before),
        some.len(),
        mean(&some),
        full.len(),
        mean(&full)
    );
    assert!(before.len() > 40 && full.len() > 40, "too few headers on target: {} {}", before.len(), full.len());
    assert!(mean(&before) > 2.5, "without the rule the keeper stood {:.2} m off for headers", mean(&before));
    // The rest came for the ball and lost it.
    let on_spot = full.iter().filter(|&&e| e == 0.0).count() as f64 / full.len() as f64;
    eprintln!("with a full reset {on_spot:.2} of headers found the keeper on his spot");
    assert!(on_spot > 0.5, "with a full reset only {on_spot:.2} of headers found the keeper on his spot");
    assert!(mean(&full) < mean(&before) / 2.0);
    assert!(mean(&some) < mean(&before) && mean(&some) > mean(&full), "a partial reset is partial");
    assert!(
        (mean(&full_feet) - mean(&before_feet)).abs() < 0.5,
        "foot shots: {:.2} v {:.2}",
        mean(&full_feet),
        mean(&before_feet)
    );
    let (_, _, again) = play(compiled(None).unwrap());
    assert_eq!(before_hashes, again);
}

/// The NPC prices a cross with the keeper where he will be. A winger wide on the right with the
/// ball, a striker near the landing point, the away keeper by his near post and everyone else in
/// their own half: the cross candidate's chance of a headed goal falls with a full reset, and a
/// reset of zero prices it as the revision without the rule.
#[test]
fn the_npc_prices_the_reset() {
    let goal_chance = |rules: Rules| {
        let c = club(REFERENCE);
        let mut m = Match::new(Arc::new(rules), &c, &c, 1, Options::default()).unwrap();
        let (winger, striker, keeper) =
            (m.player_in_slot(0, 10).unwrap(), m.player_in_slot(0, 9).unwrap(), m.player_in_slot(1, 0).unwrap());
        m.place(winger, V2::new(95.0, 6.0), V2::new(0.0, 1.0));
        m.place(striker, V2::new(93.0, 36.0), V2::new(1.0, 0.0));
        m.place(keeper, V2::new(104.0, 31.0), V2::new(-1.0, 0.0));
        m.give_ball(winger);
        let cands = m.scored_candidates();
        let cross = cands.iter().find(|c| c.kind == Kind::Cross).expect("a cross candidate");
        cross.goal_chance
    };
    let before = goal_chance(compiled(None).unwrap());
    let full = goal_chance(compiled(Some(serde_json::json!(2.0))).unwrap());
    let none = goal_chance(compiled(Some(serde_json::json!(0.0))).unwrap());
    eprintln!("headed goal from the cross: {before:.4} before, {full:.4} with a full reset");
    assert!(before > 0.0, "no header priced");
    assert!(full < before * 0.8, "{full} with a full reset, {before} without");
    assert_eq!(none, before);
}

/// A negative reset is refused when the revision loads, naming the parameter.
#[test]
fn a_negative_reset_is_refused() {
    let err = compiled(Some(serde_json::json!(-0.5))).err().expect("refused");
    assert!(err.contains("keeper_cross_reset"), "{err}");
}
