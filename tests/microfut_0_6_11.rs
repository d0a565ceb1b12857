//! Microfut 0.6.11 (issue 11), a draft from 0.6.10 for engine 0.5.8: the NPC plans without the
//! crowd (`npc.plan_context`), the crowd presses less (0.9 → 0.6) and the NPC weighs an action's
//! own chance a little less (1.0 → 0.9). Under 0.6.10 a weak away side's NPC, reading the crowd in
//! its odds, shielded it, so the crowd cost strong away sides far more than weak ones
//! (docs/calibration-0.6.10.md, docs/calibration-0.6.11.md). The tests read the repository's
//! content folder (or `MICROFUT_TEST_CONTENT`, so a sabotaged copy can show an assertion failing).

mod common;
use common::{sample_club as club, test_catalog};
use microfut::engine::{Match, Options, Rules};
use std::sync::Arc;

const REFERENCE: &str = "sociedade_esportiva_serra_azul";
const OTHER: &str = "esporte_clube_mandacaru";

/// `revision` compiled, with the crowd switched off when `quiet` (what its `no_crowd` sets).
fn rules(revision: &str, quiet: bool) -> Arc<Rules> {
    let mut rev = test_catalog().revision("microfut", Some(revision)).unwrap().clone();
    if quiet {
        for p in rev.documents.get_mut("params.json").unwrap()["params"].as_array_mut().unwrap() {
            if p["id"] == "crowd_pressure" || p["id"] == "crowd_interception_pressure" {
                p["value"] = serde_json::json!(0.0);
            }
        }
    }
    let rs = microfut::ruleset::compile(&rev).unwrap_or_else(|d| panic!("{revision}: {d:?}"));
    Arc::new(Rules::new(Arc::new(rs)).unwrap())
}

/// The away player in formation slot `slot` with the ball at kick-off positions: his candidates'
/// odds as the NPC weighs them.
fn away_odds(rules: &Arc<Rules>, slot: usize) -> Vec<(String, f64, f64)> {
    let mut m = Match::new(rules.clone(), &club(REFERENCE), &club(OTHER), 1, Options::default()).unwrap();
    let p = m.player_in_slot(1, slot).unwrap();
    m.give_ball(p);
    let mut c: Vec<_> =
        m.scored_candidates().into_iter().map(|c| (c.intent().to_string(), c.probability, c.success)).collect();
    c.sort_by(|a, b| a.0.cmp(&b.0));
    c
}

/// The away NPC weighs its options as if the crowd were not there; under 0.6.10 it saw the crowd
/// in them.
#[test]
fn the_away_npc_plans_as_if_the_crowd_were_not_there() {
    for slot in [4, 6, 8, 10] {
        assert_eq!(away_odds(&rules("0.6.11", false), slot), away_odds(&rules("0.6.11", true), slot), "slot {slot}");
    }
    assert!(
        [4, 6, 8, 10].iter().any(|&s| away_odds(&rules("0.6.10", false), s) != away_odds(&rules("0.6.10", true), s)),
        "0.6.10's away NPC already planned without the crowd"
    );
}

/// The crowd still presses the execution: over the same 150 seeds the reference club at home to
/// itself outscores its guest by more with the crowd than without it.
#[test]
fn the_home_side_still_gains() {
    let margin = |rules: Arc<Rules>| {
        let c = club(REFERENCE);
        let mut diff = 0i64;
        for seed in 1..=150 {
            let mut m = Match::new(rules.clone(), &c, &c, seed, Options::default()).unwrap();
            m.run().unwrap();
            let [h, a] = m.score();
            diff += i64::from(h) - i64::from(a);
        }
        diff as f64 / 150.0
    };
    let (crowd, quiet) = (margin(rules("0.6.11", false)), margin(rules("0.6.11", true)));
    eprintln!("home goal difference a match: {crowd:.3} with the crowd, {quiet:.3} without");
    assert!(crowd >= quiet + 0.15, "with the crowd {crowd:.3}, without {quiet:.3}");
}
