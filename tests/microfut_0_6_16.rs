//! Microfut 0.6.16 (issue 11), a draft from 0.6.15 for the same engine: a side that is behind
//! pushes from the minute it falls behind, not only from the 75th — it takes two points more risk
//! and three more of verticality a goal (verticality at most 6), where 0.6.15 let a side two goals
//! down at half time play as if level; and a level of finishing or goalkeeping is worth less
//! against the dice (0.5 → 0.4 and 0.45 → 0.35 of a level from the anchor), so conversion
//! depends less on which club shoots (docs/calibration-0.6.16.md).
//! The tests read the repository's content folder (or `MICROFUT_TEST_CONTENT`, so a sabotaged copy
//! can show an assertion failing).

mod common;
use common::{resolve_json, revision_rules, sample_club as club, test_catalog, test_content_dir};
use microfut::engine::{Match, Options};
use serde_json::Value;

const REFERENCE: &str = "sociedade_esportiva_serra_azul";

/// The skill weights 0.6.16 moves, as (parameter, 0.6.15's value, 0.6.16's).
const WEIGHTS: [(&str, f64, f64); 2] = [("skill_weight_finishing", 0.5, 0.4), ("skill_weight_save", 0.45, 0.35)];

fn read(rev: &str, file: &str) -> Value {
    let p = test_content_dir().join("microfut").join(rev).join(file);
    serde_json::from_str(&std::fs::read_to_string(&p).unwrap()).unwrap_or_else(|e| panic!("{p:?}: {e}"))
}

/// The match-state adaptation 0.6.16 writes, as (risk tolerance, security, verticality).
fn expected(goal_diff: i64, minute: f64) -> (f64, f64, f64) {
    let late = if minute >= 85.0 {
        2.0
    } else if minute >= 75.0 {
        1.0
    } else {
        0.0
    };
    if goal_diff < 0 {
        let down = -goal_diff as f64;
        ((2.0 * down).max(late), 0.0, (3.0 * down).min(6.0))
    } else if goal_diff > 0 {
        (0.0, if minute >= 75.0 { 1.0 } else { 0.0 }, 0.0)
    } else {
        (0.0, 0.0, 0.0)
    }
}

/// Only the adaptation and the two skill weights move: every other document is 0.6.15's, and the
/// calibration keeps its targets, fixtures and clubs — only its golden match is new.
#[test]
fn only_the_adaptation_and_two_skill_weights_change() {
    let manifest = read("0.6.16", "manifest.json");
    assert_eq!(manifest["parent"], "0.6.15");
    for file in manifest["documents"].as_array().unwrap() {
        let file = file.as_str().unwrap();
        let (mut old, mut new) = (read("0.6.15", file), read("0.6.16", file));
        match file {
            "derived.json" | "npc.json" => {
                let strip = |v: &mut Value| {
                    for list in v.as_object_mut().unwrap().values_mut() {
                        if let Some(items) = list.as_array_mut() {
                            items.retain(|p| !p["id"].as_str().is_some_and(|id| id.starts_with("adapt_")));
                        }
                    }
                    if let Some(o) = v.as_object_mut() {
                        o.remove("adaptation");
                    }
                };
                assert_eq!(old["adaptation"]["security"], new["adaptation"]["security"]);
                strip(&mut old);
                strip(&mut new);
                assert_eq!(old, new, "{file}: only the adaptation differs");
            }
            "params.json" => {
                let values = |v: &Value| -> Vec<(String, Value)> {
                    let list = v["params"].as_array().unwrap();
                    list.iter().map(|p| (p["id"].as_str().unwrap().to_string(), p["value"].clone())).collect()
                };
                let (was, now) = (values(&old), values(&new));
                assert_eq!(was.len(), now.len(), "the same parameters");
                let moved: Vec<_> = was
                    .iter()
                    .zip(&now)
                    .filter(|(a, b)| a != b)
                    .map(|(a, b)| (a.0.as_str(), a.1.as_f64().unwrap(), b.1.as_f64().unwrap()))
                    .collect();
                assert_eq!(moved, WEIGHTS, "params.json: only the two skill weights move");
                for p in new["params"].as_array_mut().unwrap() {
                    if let Some((_, was, _)) = WEIGHTS.iter().find(|w| p["id"] == w.0) {
                        p["value"] = (*was).into();
                    }
                }
                assert_eq!(old, new, "params.json: nothing else of a parameter changes");
            }
            "calibration.json" => {
                assert_ne!(old["same_seed"], new["same_seed"], "a new golden match for new rules");
                old.as_object_mut().unwrap().remove("same_seed");
                new.as_object_mut().unwrap().remove("same_seed");
                assert_eq!(old, new, "calibration.json: the same targets, fixtures and clubs");
            }
            _ => assert_eq!(old, new, "{file} differs from 0.6.15"),
        }
    }
    assert_eq!(read("0.6.16", "npc.json")["adaptation"]["verticality"], "adapt_verticality");
    assert!(read("0.6.15", "npc.json")["adaptation"].get("verticality").is_none());
}

/// The adaptation as the resolver shows it, at the points the change note names.
#[test]
fn a_side_behind_pushes_from_the_first_minute() {
    for (goal_diff, minute) in
        [(-1, 10.0), (-2, 10.0), (-3, 50.0), (-1, 80.0), (-1, 86.0), (0, 88.0), (1, 80.0), (2, 10.0)]
    {
        let (risk, security, vertical) = expected(goal_diff, minute);
        let gd = format!("goal_diff={goal_diff}");
        let min = format!("minute={minute}");
        let r = resolve_json("adapt_risk_tolerance", &[&gd, &min], "0.6.16");
        assert_eq!(r["value"].as_f64().unwrap(), risk, "risk at {goal_diff}, {minute}'");
        let s = resolve_json("adapt_security", &[&gd, &min], "0.6.16");
        assert_eq!(s["value"].as_f64().unwrap(), security, "security at {goal_diff}, {minute}'");
        let v = resolve_json("adapt_verticality", &[&gd], "0.6.16");
        assert_eq!(v["value"].as_f64().unwrap(), vertical, "verticality at {goal_diff}");
    }
    // 0.6.15: one goal down at the 10th minute is played as level.
    let r = resolve_json("adapt_risk_tolerance", &["goal_diff=-1", "minute=10"], "0.6.15");
    assert_eq!(r["value"].as_f64().unwrap(), 0.0);
}

/// Every NPC decision of a played match logs the adaptation its own score and minute call for,
/// and a side behind early plays forward in 0.6.16 — while 0.6.15 never moves verticality.
#[test]
fn the_decision_log_shows_the_side_behind_pushing() {
    let catalog = test_catalog();
    let c = club(REFERENCE);
    let mut pushed_early = 0;
    for (revision, seeds) in [("0.6.16", 1..=6u64), ("0.6.15", 1..=3u64)] {
        let rules = revision_rules(&catalog, revision);
        for seed in seeds {
            let opts = Options { retention: Some(usize::MAX), ..Default::default() };
            let mut m = Match::new(rules.clone(), &c, &c, seed, opts).unwrap();
            m.run().unwrap();
            for d in m.decisions().decisions() {
                let d = serde_json::to_value(d).unwrap();
                let s = &d["match_state_summary"];
                let (gd, minute) = (s["goal_diff"].as_i64().unwrap(), s["minute"].as_f64().unwrap());
                let a = &d["adaptation"];
                let got = (
                    a["risk_tolerance"].as_f64().unwrap(),
                    a["security"].as_f64().unwrap(),
                    a["verticality"].as_f64().unwrap(),
                );
                if revision == "0.6.16" {
                    assert_eq!(got, expected(gd, minute), "seed {seed}, round {}", d["round"]);
                    pushed_early += usize::from(gd < 0 && minute < 75.0 && got.2 > 0.0);
                } else {
                    assert_eq!(got.2, 0.0, "0.6.15 has no verticality adaptation");
                    if gd < 0 && minute < 75.0 {
                        assert_eq!(got.0, 0.0, "0.6.15 waits for the 75th minute");
                    }
                }
            }
        }
    }
    assert!(pushed_early > 50, "a side behind before the 75th minute pushed in {pushed_early} decisions");
}

/// A level of finishing or goalkeeping is worth less against the dice than in 0.6.15: the same
/// sheets are closer together at the base of the shot and of the save.
#[test]
fn a_level_of_finishing_or_goalkeeping_counts_for_less() {
    let shot = |revision: &str, finishing: i64| {
        let sets = common::typical_shot(finishing, &[]);
        common::stage(&resolve_json("finishing", &sets, revision), "base")
    };
    let gap = |revision: &str| shot(revision, 18) - shot(revision, 8);
    assert!((gap("0.6.15") - 0.5 * 5.0).abs() < 1e-9, "{}", gap("0.6.15"));
    assert!((gap("0.6.16") - 0.4 * 5.0).abs() < 1e-9, "{}", gap("0.6.16"));
    assert_eq!(shot("0.6.16", 13), 13.5, "the anchor itself does not move");
}
