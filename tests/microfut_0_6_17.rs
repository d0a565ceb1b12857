//! Microfut 0.6.17 (issue 11), a draft from 0.6.16 for engine 0.5.10: a side that has been
//! outplayed for the ball defends its box with more bodies, so the side that has the ball finds
//! its shots harder (`mod_outplayed` on the finishing and header tests, read from the share of the
//! ball so far); and the established and elite budget presets move to 235,000 and 360,000 XP
//! (docs/calibration-0.6.17.md). The tests read the repository's content folder (or
//! `MICROFUT_TEST_CONTENT`, so a sabotaged copy can show an assertion failing).

mod common;
use common::{resolve_json, stage, test_content_dir};
use serde_json::Value;

fn read(rev: &str, file: &str) -> Value {
    let p = test_content_dir().join("microfut").join(rev).join(file);
    serde_json::from_str(&std::fs::read_to_string(&p).unwrap()).unwrap_or_else(|e| panic!("{p:?}: {e}"))
}

fn ids(v: &Value, list: &str) -> Vec<String> {
    v[list].as_array().unwrap().iter().map(|x| x["id"].as_str().unwrap().to_string()).collect()
}

/// Only what the change note names moves: two variables, four parameters, one modifier in two
/// pipelines, two budgets and the golden match; every other document is 0.6.16's.
#[test]
fn only_the_packed_box_and_two_budgets_change() {
    let manifest = read("0.6.17", "manifest.json");
    assert_eq!(manifest["parent"], "0.6.16");
    assert_eq!(manifest["engine"], ">=0.5.10, <0.6.0");
    for file in manifest["documents"].as_array().unwrap() {
        let file = file.as_str().unwrap();
        let (mut old, mut new) = (read("0.6.16", file), read("0.6.17", file));
        let added = |old: &Value, new: &Value, list: &str| -> Vec<String> {
            let was = ids(old, list);
            ids(new, list).into_iter().filter(|id| !was.contains(id)).collect()
        };
        let drop = |v: &mut Value, list: &str, gone: &[&str]| {
            v[list].as_array_mut().unwrap().retain(|x| !gone.contains(&x["id"].as_str().unwrap()));
        };
        match file {
            "vocabulary.json" => {
                assert_eq!(added(&old, &new, "variables"), ["ball_rounds", "match_rounds"]);
                drop(&mut new, "variables", &["ball_rounds", "match_rounds"]);
            }
            "params.json" => {
                assert_eq!(
                    added(&old, &new, "params"),
                    ["ball_share_prior", "outplayed_from", "outplayed_k", "outplayed_cap"]
                );
                drop(&mut new, "params", &["ball_share_prior", "outplayed_from", "outplayed_k", "outplayed_cap"]);
            }
            "modifiers.json" => {
                assert_eq!(added(&old, &new, "modifiers"), ["mod_outplayed"]);
                drop(&mut new, "modifiers", &["mod_outplayed"]);
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
            "club_rules.json" => {
                let xp = |v: &Value| -> Vec<(String, i64)> {
                    let b = v["budgets"].as_array().unwrap();
                    b.iter().map(|b| (b["id"].as_str().unwrap().into(), b["xp"].as_i64().unwrap())).collect()
                };
                assert_eq!(
                    xp(&old),
                    [("modest".into(), 180_000), ("established".into(), 215_000), ("elite".into(), 340_000)]
                );
                assert_eq!(
                    xp(&new),
                    [("modest".into(), 180_000), ("established".into(), 235_000), ("elite".into(), 360_000)]
                );
                old["budgets"] = Value::Null;
                new["budgets"] = Value::Null;
            }
            "calibration.json" => {
                assert_ne!(old["same_seed"], new["same_seed"], "a new golden match for new rules");
                old.as_object_mut().unwrap().remove("same_seed");
                new.as_object_mut().unwrap().remove("same_seed");
            }
            "manifest.json" => continue,
            _ => {}
        }
        assert_eq!(old, new, "{file}: nothing else differs from 0.6.16");
    }
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
