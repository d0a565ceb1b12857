//! Engine 0.5.10 (issue 11): content can read how the match is going. A revision may declare two
//! context variables, `ball_rounds` (the rounds the player's side has held the ball so far) and
//! `match_rounds` (the rounds either side has); the engine sets them on a player before each of his
//! tests and the NPC's estimates, from the same counts the share-of-the-ball statistic is made of.
//! 0.6.17 reads them in its packed-box modifier (`mod_outplayed`): an opponent that has been
//! outplayed for the ball defends its box with more bodies (CALIBRATION.md, History).
//! Absent, play is as before, bit for bit (the replay corpus and every earlier golden match).
//! The tests read the repository's content folder (or `MICROFUT_TEST_CONTENT`).

use crate::common;
use common::{generated_club, revision_rules, test_catalog};
use microfut::engine::{Kind, Match, Options, Rules, Step};
use std::sync::Arc;

const REVISION: &str = "0.6.20";

fn param(catalog: &microfut::catalog::Catalog, id: &str) -> f64 {
    let rev = catalog.revision("microfut", Some(REVISION)).unwrap();
    let params = rev.documents["params.json"]["params"].as_array().unwrap();
    params.iter().find(|p| p["id"] == id).unwrap()["value"].as_f64().unwrap()
}

/// The packed box as 0.6.17 writes it, from the two counts.
fn packed_box([k, from, prior, cap]: [f64; 4], own: u32, all: u32) -> f64 {
    let share = 100.0 * (own as f64 + prior) / (all as f64 + 2.0 * prior);
    -(k * (share - 50.0 - from).max(0.0)).min(cap)
}

/// Every shot the elite side is offered, over a match it plays against a modest one, is explained
/// with the packed box its share of the ball *at that moment* calls for — and the penalty is not
/// always nothing (the elite side does take the ball).
#[test]
fn a_shot_is_priced_with_the_share_of_the_ball_so_far() {
    let catalog = test_catalog();
    let box_params =
        ["outplayed_k", "outplayed_from", "ball_share_prior", "outplayed_cap"].map(|id| param(&catalog, id));
    let rules = revision_rules(&catalog, REVISION);
    let elite = generated_club(&catalog, REVISION, "elite", 301);
    let modest = generated_club(&catalog, REVISION, "modest", 101);
    let (mut seen, mut biting) = (0, 0);
    for seed in 1..=3u64 {
        let opts = Options { human: Some(0), ..Default::default() };
        let mut m = Match::new(rules.clone(), &elite, &modest, seed, opts).unwrap();
        loop {
            match m.step() {
                Step::Decision => {
                    let shots: Vec<usize> = m
                        .candidates()
                        .unwrap()
                        .iter()
                        .enumerate()
                        .filter(|(_, c)| c.kind == Kind::Shoot)
                        .map(|(i, _)| i)
                        .collect();
                    for i in shots {
                        let rounds = m.state().possession_rounds;
                        let e = m.explain_pending(i).unwrap();
                        if e.pipeline != "finishing" {
                            // A free kick or a penalty: the box is set by the wall, or empty.
                            assert!(e.contributions.iter().all(|c| c.stage != "mod_outplayed"), "{}", e.pipeline);
                            continue;
                        }
                        let part = e.contributions.iter().find(|c| c.stage == "mod_outplayed");
                        let amount = part.unwrap_or_else(|| panic!("no packed box in {e:?}")).amount;
                        let want = packed_box(box_params, rounds[0], rounds[0] + rounds[1]);
                        assert!((amount - want).abs() < 1e-9, "seed {seed}: {amount} for {rounds:?}, want {want}");
                        seen += 1;
                        biting += usize::from(want < 0.0);
                    }
                    m.decide_npc().unwrap();
                }
                Step::Round => {}
                Step::Finished => break,
                Step::Faulted => panic!("{:?}", m.fault()),
            }
        }
    }
    assert!(seen > 30, "{seen} shots explained");
    assert!(biting > 0 && biting < seen, "the box was packed for {biting} of {seen} shots");
}

/// The variables only matter through content that reads them: the revision with the packed box at
/// 0 plays as if it had no packed box, and its matches are those of the same content with
/// the modifier taken out of the pipelines, round hash for round hash; with the box at its value
/// the matches differ (so the engine does set the counts the modifier reads).
#[test]
fn the_counts_change_play_only_through_the_content_that_reads_them() {
    let catalog = test_catalog();
    let compile = |k: f64, keep_modifier: bool| -> Arc<Rules> {
        let mut rev = catalog.revision("microfut", Some(REVISION)).unwrap().clone();
        let params = rev.documents.get_mut("params.json").unwrap()["params"].as_array_mut().unwrap();
        params.iter_mut().find(|p| p["id"] == "outplayed_k").unwrap()["value"] = k.into();
        if !keep_modifier {
            for p in rev.documents.get_mut("pipelines.json").unwrap()["pipelines"].as_array_mut().unwrap() {
                p["modifiers"].as_array_mut().unwrap().retain(|m| m != "mod_outplayed");
            }
        }
        let rs = microfut::ruleset::compile(&rev).unwrap_or_else(|d| panic!("{REVISION}: {d:?}"));
        Arc::new(Rules::new(Arc::new(rs)).unwrap())
    };
    let elite = generated_club(&catalog, REVISION, "elite", 301);
    let modest = generated_club(&catalog, REVISION, "modest", 101);
    let hashes = |rules: &Arc<Rules>| -> Vec<Vec<u64>> {
        (1..=4u64)
            .map(|seed| {
                let mut m = Match::new(rules.clone(), &elite, &modest, seed, Options::default()).unwrap();
                m.run().unwrap();
                m.round_hashes().to_vec()
            })
            .collect()
    };
    let (off, without, on) = (hashes(&compile(0.0, true)), hashes(&compile(0.0, false)), hashes(&compile(0.25, true)));
    assert_eq!(off, without, "a packed box of 0 is no packed box");
    assert_ne!(off, on, "the packed box changes the matches");
}
