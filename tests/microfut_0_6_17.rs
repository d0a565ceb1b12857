//! Microfut 0.6.17 (issue 11), a draft from 0.6.16 for engine 0.5.10: a side that has been
//! outplayed for the ball defends its box with more bodies, so the side that has the ball finds
//! its shots harder (`mod_outplayed` on the finishing and header tests, read from the share of the
//! ball so far); and the established and elite budget presets move to 235,000 and 360,000 XP
//! (docs/calibration-0.6.17.md). The tests read the repository's content folder (or
//! `MICROFUT_TEST_CONTENT`, so a sabotaged copy can show an assertion failing).

mod common;
use common::{budgets_moved, only_named_changes, resolve_json, stage};
use serde_json::Value;

fn ids(v: &Value, list: &str) -> Vec<String> {
    v[list].as_array().unwrap().iter().map(|x| x["id"].as_str().unwrap().to_string()).collect()
}

/// Only what the change note names moves: two variables, four parameters, one modifier in two
/// pipelines, two budgets and the golden match; every other document is 0.6.16's.
#[test]
fn only_the_packed_box_and_two_budgets_change() {
    let added = |old: &Value, new: &Value, list: &str| -> Vec<String> {
        let was = ids(old, list);
        ids(new, list).into_iter().filter(|id| !was.contains(id)).collect()
    };
    let drop = |v: &mut Value, list: &str, gone: &[&str]| {
        v[list].as_array_mut().unwrap().retain(|x| !gone.contains(&x["id"].as_str().unwrap()));
    };
    only_named_changes("0.6.16", "0.6.17", ">=0.5.10, <0.6.0", |file, old, new| match file {
        "vocabulary.json" => {
            assert_eq!(added(old, new, "variables"), ["ball_rounds", "match_rounds"]);
            drop(new, "variables", &["ball_rounds", "match_rounds"]);
        }
        "params.json" => {
            let named = ["ball_share_prior", "outplayed_from", "outplayed_k", "outplayed_cap"];
            assert_eq!(added(old, new, "params"), named);
            drop(new, "params", &named);
        }
        "modifiers.json" => {
            assert_eq!(added(old, new, "modifiers"), ["mod_outplayed"]);
            drop(new, "modifiers", &["mod_outplayed"]);
        }
        "pipelines.json" => {
            let mut with = vec![];
            for p in new["pipelines"].as_array_mut().unwrap() {
                let id = p["id"].as_str().unwrap().to_string();
                let mods = p["modifiers"].as_array_mut().unwrap();
                if mods.iter().any(|m| m == "mod_outplayed") {
                    with.push(id);
                    mods.retain(|m| m != "mod_outplayed");
                }
            }
            assert_eq!(with, ["finishing", "header"]);
        }
        "club_rules.json" => budgets_moved(
            old,
            new,
            [("modest", 180_000), ("established", 215_000), ("elite", 340_000)],
            [("modest", 180_000), ("established", 235_000), ("elite", 360_000)],
        ),
        _ => {}
    });
}

/// The packed box as the resolver shows it: nothing until the shooter's side has had more than
/// 58 % of the ball (with 50 rounds at 50 % added to each side), then a quarter of a point a point,
/// at most 1.25.
#[test]
fn the_box_packs_when_a_side_has_had_the_ball() {
    let shot = |ball: u32, all: u32| {
        let sets = common::typical_shot(15, &[format!("ball_rounds={ball}"), format!("match_rounds={all}")]);
        stage(&resolve_json("finishing", &sets, "0.6.17"), "mod_outplayed")
    };
    assert_eq!(shot(0, 0), 0.0, "kick-off: 50 %");
    assert_eq!(shot(580, 1000), 0.0, "57.3 % with the prior: under the threshold");
    let share = |ball: f64, all: f64| 100.0 * (ball + 50.0) / (all + 100.0);
    assert!((shot(630, 1000) + 0.25 * (share(630.0, 1000.0) - 58.0)).abs() < 1e-9, "61.8 %: under the cap");
    for (ball, all) in [(700u32, 1000u32), (1500, 2000), (400, 1000), (2000, 2600), (630, 1000)] {
        let want = -(0.25 * (share(ball as f64, all as f64) - 58.0).max(0.0)).min(1.25);
        assert!((shot(ball, all) - want).abs() < 1e-9, "{ball} of {all}: {} want {want}", shot(ball, all));
    }
}
