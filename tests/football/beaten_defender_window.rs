//! Engine 0.5.12: how long a defender a carrier has just taken on stays beaten is content
//! (`params.beaten_rounds`). For that many rounds after the round of the take-on he does not
//! challenge the carrier after a carry, does not stand in the way of the carrier's carries, and
//! his nearest team-mate steps across to cover. Engine 0.5.11 kept the window, one round, in code
//! in three places; a revision older than 0.6.21 (the first to carry the parameter) is played
//! with that one round from the engine's legacy table, so every published match replays as it
//! did (the replay corpus). The tests read the repository's content folder (or
//! `MICROFUT_TEST_CONTENT`).

use crate::common;
use common::{revision_rules, sample_club as club, test_catalog};
use microfut::club::Club;
use microfut::engine::{Match, Options, Rules};
use std::sync::Arc;

const REFERENCE: &str = "sociedade_esportiva_serra_azul";
const CHALLENGER: &str = "esporte_clube_mandacaru";
const DRAFT: &str = "0.6.21";

/// 0.6.21 compiled with its `params.json` edited.
fn with_params(edit: impl FnOnce(&mut Vec<serde_json::Value>)) -> Result<Rules, String> {
    let catalog = test_catalog();
    let mut rev = catalog.revision("microfut", Some(DRAFT)).unwrap().clone();
    edit(rev.documents.get_mut("params.json").unwrap()["params"].as_array_mut().unwrap());
    let rs = microfut::ruleset::compile(&rev).map_err(|d| format!("{d:?}"))?;
    Rules::new(Arc::new(rs)).map_err(|e| e.to_string())
}

fn window(rounds: f64) -> Arc<Rules> {
    Arc::new(
        with_params(|ps| {
            let p = ps.iter_mut().find(|p| p["id"] == "beaten_rounds").expect("0.6.21 declares beaten_rounds");
            p["value"] = serde_json::json!(rounds);
        })
        .unwrap(),
    )
}

fn play(rules: &Arc<Rules>, home: &Club, away: &Club, seed: u64) -> Match {
    let mut m = Match::new(rules.clone(), home, away, seed, Options::default()).unwrap();
    while !m.finished() {
        m.step();
    }
    m
}

/// 0.6.21 declares the one round engine 0.5.11 kept in code, and plays 0.6.20's matches bit for
/// bit — 0.6.20 itself (no such parameter) reads the one round from the legacy table.
#[test]
fn the_window_of_one_round_plays_the_matches_it_played_in_code() {
    let catalog = test_catalog();
    let (old, new) = (revision_rules(&catalog, "0.6.20"), revision_rules(&catalog, DRAFT));
    let (home, away) = (club(CHALLENGER), club(REFERENCE));
    for seed in [1, 7] {
        let (a, b) = (play(&old, &home, &away, seed), play(&new, &home, &away, seed));
        assert!(a.round_hashes().len() > 2000, "seed {seed}");
        assert_eq!(a.round_hashes(), b.round_hashes(), "seed {seed}: 0.6.21 must play 0.6.20's match");
    }
}

/// The engine reads the window: a defender beaten only for the round of the take-on (0) and one
/// beaten for four rounds play other matches than the one round, on every seed. (Which way the
/// football moves is the lab's to measure: over these six matches the tackles were 204, 183 and
/// 216 — a longer window also offers the carrier more carries, into other defenders.)
#[test]
fn the_window_is_read() {
    let (home, away) = (club(CHALLENGER), club(REFERENCE));
    let (none, one, four) = (window(0.0), window(1.0), window(4.0));
    for seed in 1..=6 {
        let ms = [play(&none, &home, &away, seed), play(&one, &home, &away, seed), play(&four, &home, &away, seed)];
        assert_ne!(ms[0].round_hashes(), ms[1].round_hashes(), "seed {seed}: a window of 0 changed nothing");
        assert_ne!(ms[2].round_hashes(), ms[1].round_hashes(), "seed {seed}: a window of 4 changed nothing");
    }
}

/// A revision from 0.6.21 on must carry the parameter: without it the revision is refused, naming
/// it, rather than played with a value the engine would have to invent.
#[test]
fn a_revision_that_should_carry_the_window_is_refused_without_it() {
    let err = with_params(|ps| ps.retain(|p| p["id"] != "beaten_rounds")).err().expect("refused");
    assert!(err.contains("beaten_rounds"), "{err}");
}
