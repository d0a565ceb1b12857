//! Where the goals come from (engine 0.5.5, Microfut 0.6.6, published in 0.6.20): two say-sos in
//! content. A `block` pipeline for a defender in a shot's path (absent, the interception test of a
//! pass, as before — which had blocked half of all shots from the foot), and `deliver_past_wall`
//! (absent, yes, as before — a free kick delivered past a wall that had taken five defenders out
//! of the box was the deadliest ball). Each mechanism is pinned on the default revision and
//! against 0.6.5, which declares neither. The tests read the repository's content folder (or
//! `MICROFUT_TEST_CONTENT`, so a sabotaged copy can show an assertion failing).

use crate::common;
use common::{content_copy, draft_copy, edit_json, revision_rules as rules, sample_club, test_catalog as catalog};
use microfut::catalog::{Catalog, ContentTree};
use microfut::club::Club;
use microfut::engine::{EventKind, Match, Options, Rules};
use std::sync::Arc;

const REFERENCE: &str = "sociedade_esportiva_serra_azul";
const OTHER: &str = "uniao_pedra_branca";

fn play_clubs(
    rules: &Arc<Rules>,
    (home, away): (&Club, &Club),
    seeds: std::ops::RangeInclusive<u64>,
    retention: Option<usize>,
) -> Vec<Match> {
    seeds
        .map(|seed| {
            let mut m =
                Match::new(rules.clone(), home, away, seed, Options { retention, ..Default::default() }).unwrap();
            m.run().unwrap();
            m
        })
        .collect()
}

fn play(rules: &Arc<Rules>, seeds: std::ops::RangeInclusive<u64>, retention: Option<usize>) -> Vec<Match> {
    play_clubs(rules, (&sample_club(REFERENCE), &sample_club(OTHER)), seeds, retention)
}

/// A free kick from in front of goal, well inside the zone where a wall forms (25 m out at most,
/// within 8 m of the goal's centre line): the nearer goal is the attacked one.
fn walled_spot(ball: [f64; 2]) -> bool {
    let [x, y] = ball;
    let d = x.min(105.0 - x);
    d <= 25.0 && (y - 34.0).abs() <= 8.0
}

/// At free kicks the NPC decided: (walled spots, walled spots offering a delivery, other spots
/// offering one).
fn free_kick_deliveries(rules: &Arc<Rules>) -> (usize, usize, usize) {
    let (mut walled, mut walled_delivery, mut open_delivery) = (0, 0, 0);
    for m in play(rules, 1..=16, Some(5000)) {
        for d in m.decisions().decisions() {
            if d.match_state_summary.phase != "free_kick" {
                continue;
            }
            let delivers = d.candidate_actions.iter().any(|c| c.kind == "cross");
            if walled_spot(d.match_state_summary.ball) {
                walled += 1;
                walled_delivery += usize::from(delivers);
            } else {
                open_delivery += usize::from(delivers);
            }
        }
    }
    (walled, walled_delivery, open_delivery)
}

/// A revision that declares `deliver_past_wall: false`: from where a wall stands the taker shoots
/// or plays it short; from wide and deep spots he still delivers. 0.6.5 (no such say) delivered
/// from both.
#[test]
fn no_delivery_is_played_past_a_wall() {
    let catalog = catalog();
    let (walled, past_wall, elsewhere) = free_kick_deliveries(&rules(&catalog, "0.6.20"));
    assert!(walled >= 3, "only {walled} free kicks from walled spots in 16 matches");
    assert_eq!(past_wall, 0, "{past_wall} of {walled} walled free kicks offered a delivery");
    assert!(elsewhere > 0, "no delivery from any other free kick");
    let (walled, past_wall, _) = free_kick_deliveries(&rules(&catalog, "0.6.5"));
    assert!(walled >= 3 && past_wall * 2 >= walled, "0.6.5: {past_wall} of {walled}");
}

/// A defender in a shot's path takes the revision's `block` test: on a copy of the default revision whose block
/// can never succeed no shot is blocked, while passes are still intercepted. A revision without a
/// `block` pipeline blocks with the interception test, as engines before 0.5.5 did.
#[test]
fn a_shot_is_blocked_by_the_block_test() {
    let (_tmp, content) = content_copy();
    let draft = draft_copy(&content, "0.6.20", "0.6.99");
    // A draft's parent must be in the tree; 0.6.20's own (0.6.19) has left it.
    edit_json(&draft.join("manifest.json"), |m| m["parent"] = serde_json::json!("0.6.20"));
    edit_json(&draft.join("params.json"), |p| {
        let list = p["params"].as_array_mut().unwrap();
        let c = list.iter_mut().find(|p| p["id"] == "block_constant").expect("the revision has a block constant");
        c["value"] = serde_json::json!(-10);
    });
    edit_json(&draft.join("pipelines.json"), |p| {
        // Beyond what the dice can reach whatever the sheet: the base itself is pushed down.
        let list = p["pipelines"].as_array_mut().unwrap();
        let b = list.iter_mut().find(|p| p["id"] == "block").unwrap();
        b["base"]["expr"] = serde_json::json!("-20");
    });
    let catalog = Catalog::load(&ContentTree::from_dir(&content).unwrap());
    let r = rules(&catalog, "0.6.99");
    assert_ne!(r.pipes.block, r.pipes.interception);
    let (mut blocks, mut shots, mut interceptions) = (0, 0, 0);
    for m in play(&r, 1..=6, None) {
        for e in m.events() {
            match &e.kind {
                EventKind::Block { .. } => blocks += 1,
                EventKind::Shot { .. } => shots += 1,
                EventKind::Interception { .. } => interceptions += 1,
                _ => {}
            }
        }
    }
    assert!(shots > 60 && interceptions > 100, "shots {shots}, interceptions {interceptions}");
    assert_eq!(blocks, 0, "{blocks} of {shots} shots blocked by a test that cannot succeed");
    let older = rules(&catalog, "0.6.5");
    assert_eq!(older.pipes.block, older.pipes.interception, "0.6.5 has no block pipeline");
}
