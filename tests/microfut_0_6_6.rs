//! Microfut 0.6.6 (issue 11) and engine 0.5.5: where the goals come from. Under 0.6.5 the
//! reference club scored four goals in five with its head — a free kick delivered from the edge
//! of the box, past a wall that had taken five defenders out of it, was headed in three times in
//! ten — while half of all shots from the foot were blocked, because a shot's block was the
//! interception test of a pass. Engine 0.5.5 gives content two say-sos: a `block` pipeline for a
//! defender in a shot's path (absent, the interception test, as before), and `deliver_past_wall`
//! (absent, yes, as before). 0.6.6 uses both and retunes the shot: pinned here, each mechanism on
//! constructed content and what it is for on the revision. The tests read the repository's
//! content folder (or `MICROFUT_TEST_CONTENT`, so a sabotaged copy can show an assertion failing).

mod common;
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

/// 0.6.6 declares `deliver_past_wall: false`: from where a wall stands the taker shoots or plays
/// it short; from wide and deep spots he still delivers. 0.6.5 (no such say) delivered from both.
#[test]
fn no_delivery_is_played_past_a_wall() {
    let catalog = catalog();
    let (walled, past_wall, elsewhere) = free_kick_deliveries(&rules(&catalog, "0.6.6"));
    assert!(walled >= 3, "only {walled} free kicks from walled spots in 16 matches");
    assert_eq!(past_wall, 0, "{past_wall} of {walled} walled free kicks offered a delivery");
    assert!(elsewhere > 0, "no delivery from any other free kick");
    let (walled, past_wall, _) = free_kick_deliveries(&rules(&catalog, "0.6.5"));
    assert!(walled >= 3 && past_wall * 2 >= walled, "0.6.5: {past_wall} of {walled}");
}

/// A defender in a shot's path takes the revision's `block` test: on a copy of 0.6.6 whose block
/// can never succeed no shot is blocked, while passes are still intercepted. A revision without a
/// `block` pipeline blocks with the interception test, as engines before 0.5.5 did.
#[test]
fn a_shot_is_blocked_by_the_block_test() {
    let (_tmp, content) = content_copy();
    let draft = draft_copy(&content, "0.6.6", "0.6.9");
    edit_json(&draft.join("params.json"), |p| {
        let list = p["params"].as_array_mut().unwrap();
        let c = list.iter_mut().find(|p| p["id"] == "block_constant").expect("0.6.6 has a block constant");
        c["value"] = serde_json::json!(-10);
    });
    edit_json(&draft.join("pipelines.json"), |p| {
        // Beyond what the dice can reach whatever the sheet: the base itself is pushed down.
        let list = p["pipelines"].as_array_mut().unwrap();
        let b = list.iter_mut().find(|p| p["id"] == "block").unwrap();
        b["base"]["expr"] = serde_json::json!("-20");
    });
    let catalog = Catalog::load(&ContentTree::from_dir(&content).unwrap());
    let r = rules(&catalog, "0.6.9");
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

/// What a match's shots were, summed over `matches`: (shots from the foot outside penalties,
/// those blocked, headers from free kicks that went in, all goals).
fn shot_mix(matches: &[Match]) -> (u32, u32, u32, u32) {
    let (mut foot, mut blocked, mut free_kick_headers, mut goals) = (0, 0, 0, 0);
    for m in matches {
        for e in m.events() {
            if let EventKind::Shot { header, outcome, set_piece, .. } = &e.kind {
                let sp = set_piece.as_deref().unwrap_or("open_play");
                goals += u32::from(outcome == "goal");
                if *header {
                    free_kick_headers += u32::from(outcome == "goal" && sp.ends_with("free_kick"));
                } else if sp != "penalty" {
                    foot += 1;
                    blocked += u32::from(outcome == "blocked");
                }
            }
        }
    }
    (foot, blocked, free_kick_headers, goals)
}

/// What the two say-sos are for, on the same seeds as 0.6.5 (the reference club against union
/// Pedra Branca): fewer shots from the foot are blocked (0.6.5 blocked about half), and a free
/// kick's header — the deadliest ball in 0.6.5 — scores at most half as often.
#[test]
fn fewer_shots_are_blocked_and_free_kick_headers_score_less() {
    let catalog = catalog();
    let mix = |revision: &str| shot_mix(&play(&rules(&catalog, revision), 1..=30, None));
    let (foot0, blocked0, fkh0, goals0) = mix("0.6.5");
    let (foot, blocked, fkh, goals) = mix("0.6.6");
    let (share0, share) = (f64::from(blocked0) / f64::from(foot0), f64::from(blocked) / f64::from(foot));
    assert!(share <= share0 - 0.06 && share <= 0.45, "blocked {share:.3} of foot shots (0.6.5: {share0:.3})");
    assert!(fkh * 2 <= fkh0, "free-kick headers scored {fkh} in 30 matches (0.6.5: {fkh0})");
    assert!(goals > 0 && goals0 > 0);
}

fn generated(catalog: &Catalog, preset: &str, seed: u64) -> Club {
    common::generated_club(catalog, "0.6.6", preset, seed)
}

/// The calibration set's modest pair (seeds 101 and 102, an academy club and an aerial one),
/// which 0.6.5 had score 3.8–4.3 goals a match at 1,000 matches (3.36 and 3.56 under 0.6.6): on
/// the same 60 seeds, at least a quarter of a goal fewer (3.83 → 3.50 when this was written).
#[test]
fn the_modest_pair_scores_less() {
    let catalog = catalog();
    let (a, b) = (generated(&catalog, "modest", 101), generated(&catalog, "modest", 102));
    let goals = |revision: &str| {
        let ms = play_clubs(&rules(&catalog, revision), (&a, &b), 1..=60, None);
        f64::from(ms.iter().map(|m| m.score()[0] + m.score()[1]).sum::<u32>()) / ms.len() as f64
    };
    let (before, now) = (goals("0.6.5"), goals("0.6.6"));
    assert!(now <= before - 0.25, "goals a match {now:.2} (0.6.5: {before:.2})");
}
