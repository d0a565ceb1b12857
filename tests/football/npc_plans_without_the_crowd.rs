//! Engine 0.5.8 (issue 11): the NPC plans without the crowd. Under 0.6.10 the crowd lowered the
//! away side's pass odds and the away NPC, seeing that, played otherwise — and what it played
//! instead paid, so a crowd strong enough to give the home split bent the away side's football
//! (CALIBRATION.md, History, "The crowd in odds, not in value"). Content may now name, in
//! `npc.plan_context`, context values every player is read with while the NPC weighs the
//! candidates of a side it plays: the intention reckons with an ordinary day, the execution meets
//! the real one. A person's candidates are weighed as the match is — the odds the page shows are
//! the real ones. Absent, play is as before, bit for bit (the replay corpus and the golden matches
//! of every earlier revision). The tests read the repository's content folder (or
//! `MICROFUT_TEST_CONTENT`).

use crate::common;
use common::{sample_club as club, test_catalog};
use microfut::engine::{Candidate, Match, Options, Rules};
use std::sync::Arc;

const REFERENCE: &str = "sociedade_esportiva_serra_azul";
const OTHER: &str = "esporte_clube_mandacaru";
/// A revision with a crowd on passes, interceptions and shots, and no `plan_context`.
const REVISION: &str = "0.6.20";

fn compiled(edit: impl FnOnce(&mut std::collections::BTreeMap<String, serde_json::Value>)) -> Result<Rules, String> {
    let catalog = test_catalog();
    let mut rev = catalog.revision("microfut", Some(REVISION)).unwrap().clone();
    edit(&mut rev.documents);
    let rs = microfut::ruleset::compile(&rev).unwrap_or_else(|d| panic!("{REVISION}: {d:?}"));
    Rules::new(Arc::new(rs)).map_err(|e| e.to_string())
}

/// The revision without `plan_context`: the NPC plans with the crowd in its odds.
fn plain() -> Arc<Rules> {
    Arc::new(
        compiled(|d| {
            d.get_mut("npc.json").unwrap().as_object_mut().unwrap().remove("plan_context");
        })
        .unwrap(),
    )
}

fn planned() -> Arc<Rules> {
    Arc::new(
        compiled(|d| d.get_mut("npc.json").unwrap()["plan_context"] = serde_json::json!({"away_side": 0})).unwrap(),
    )
}

/// The same revision with the crowd switched off (what the `no_crowd` scenario sets).
fn no_crowd() -> Arc<Rules> {
    Arc::new(
        compiled(|d| {
            for p in d.get_mut("params.json").unwrap()["params"].as_array_mut().unwrap() {
                if p["id"].as_str().unwrap().starts_with("crowd_") && p["id"] != "crowd_willpower_relief" {
                    p["value"] = serde_json::json!(0.0);
                }
            }
        })
        .unwrap(),
    )
}

/// At kick-off positions, the player of side `team` in formation slot `slot` with the ball: his
/// candidates as `scored_candidates` weighs them, by intent.
fn candidates(rules: &Arc<Rules>, human: Option<usize>, team: usize, slot: usize) -> Vec<(String, Candidate)> {
    let mut m =
        Match::new(rules.clone(), &club(REFERENCE), &club(OTHER), 1, Options { human, ..Options::default() }).unwrap();
    let p = m.player_in_slot(team, slot).unwrap();
    m.give_ball(p);
    let mut c: Vec<_> = m.scored_candidates().into_iter().map(|c| (c.intent().to_string(), c)).collect();
    c.sort_by(|a, b| a.0.cmp(&b.0));
    c
}

fn odds(c: &[(String, Candidate)]) -> Vec<(String, f64, f64)> {
    c.iter().map(|(i, c)| (i.clone(), c.probability, c.success)).collect()
}

/// Under `plan_context {away_side: 0}` the NPC weighs every candidate of either side as it would
/// with the crowd switched off — the away holder's own tests and the away defenders' interceptions
/// alike — while without it the away holder's candidates carry the crowd (at least one of them
/// less likely to succeed or to keep the ball).
#[test]
fn the_npc_weighs_its_candidates_as_if_the_crowd_were_not_there() {
    let (planned, plain, quiet) = (planned(), plain(), no_crowd());
    for (team, slot) in [(1, 6), (1, 8), (0, 6), (0, 8)] {
        let p = odds(&candidates(&planned, None, team, slot));
        assert!(p.len() > 3, "side {team}, slot {slot}: {p:?}");
        assert_eq!(p, odds(&candidates(&quiet, None, team, slot)), "side {team}, slot {slot}");
    }
    let (p, real) = (odds(&candidates(&planned, None, 1, 6)), odds(&candidates(&plain, None, 1, 6)));
    assert_eq!(p.len(), real.len());
    assert!(
        p.iter().zip(&real).any(|(a, b)| a.1 > b.1 + 1e-9 || a.2 > b.2 + 1e-9),
        "the crowd presses none of the away holder's tests: {real:?}"
    );
}

/// A person's candidates are weighed as the match is: with the away side human, its holder's
/// candidates under `plan_context` are exactly those of the revision without it, the crowd in
/// their odds. The home NPC's are still planned.
#[test]
fn a_person_is_shown_the_real_odds() {
    let (planned, plain, quiet) = (planned(), plain(), no_crowd());
    let shown = candidates(&planned, Some(1), 1, 6);
    assert_eq!(odds(&shown), odds(&candidates(&plain, Some(1), 1, 6)));
    assert_ne!(odds(&shown), odds(&candidates(&quiet, Some(1), 1, 6)));
    assert_eq!(odds(&candidates(&planned, Some(1), 0, 6)), odds(&candidates(&quiet, Some(1), 0, 6)));
}

/// The plan is only the NPC's: the crowd still presses the execution. A match under
/// `plan_context` plays neither as the revision without it (the NPC chooses otherwise) nor as
/// the match without the crowd (its choices are those, but the away side's tests are not), and
/// it replays exactly.
#[test]
fn the_crowd_still_presses_the_execution() {
    let play = |rules: &Arc<Rules>| {
        let mut m = Match::new(rules.clone(), &club(REFERENCE), &club(OTHER), 7, Options::default()).unwrap();
        m.run().unwrap();
        m.round_hashes().to_vec()
    };
    let planned = play(&planned());
    assert_ne!(planned, play(&plain()));
    assert_ne!(planned, play(&no_crowd()));
    assert_eq!(planned, play(&self::planned()));
}

/// Each name and value is checked when the revision loads, every problem named at once with its
/// JSON pointer: an unknown name, a sheet value where context is meant, a value outside its scale.
#[test]
fn plan_context_is_checked_all_at_once() {
    let err = compiled(|d| {
        d.get_mut("npc.json").unwrap()["plan_context"] = serde_json::json!({"nonsense": 1, "dx": 12, "away_side": 7});
    })
    .err()
    .expect("refused");
    for needle in [
        "/plan_context/nonsense",
        "unknown variable 'nonsense'",
        "/plan_context/dx",
        "not a context value",
        "/plan_context/away_side",
        "must lie in its scale",
    ] {
        assert!(err.contains(needle), "no '{needle}' in: {err}");
    }
}
