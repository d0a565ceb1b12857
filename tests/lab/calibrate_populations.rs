//! `lab calibrate` on populations (Microfut 0.6.21, issue 52 §1): fixtures whose clubs are drawn
//! afresh from presets for each run, and leagues of drawn clubs judged on their tables. The
//! tests shrink the draft's league in a copy so that a league plays in seconds.

use crate::common;
use common::{content_copy, draft_copy, edit_json, run, stderr};
use serde_json::Value;

fn calibrate(dir: &str, version: &str, seed: &str) -> (std::process::Output, Value) {
    let o = run(&[
        "lab",
        "calibrate",
        "--content",
        dir,
        "--revision",
        version,
        "--no-facts",
        "--matches",
        "16",
        "--seed",
        seed,
        "--fixture",
        "league,elite_v_modest",
        "--json",
    ]);
    let v = serde_json::from_slice(&o.stdout).unwrap_or_else(|e| panic!("{e}: {}", stderr(&o)));
    (o, v)
}

fn figure<'a>(v: &'a Value, group: &str, id: &str) -> &'a Value {
    v["checks"].as_array().unwrap().iter().find(|c| c["group"] == group && c["id"] == id).unwrap_or_else(|| {
        panic!("no {group}/{id} in {v:#}");
    })
}

/// Two leagues of four drawn clubs: every table check is a mean over the leagues with each
/// league's figure and Student's interval; the drawn fixture plays its pairs in both orders; a
/// different seed draws other clubs.
#[test]
fn leagues_and_drawn_fixtures_are_judged_over_their_draws() {
    let (_tmp, content) = content_copy();
    let draft = draft_copy(&content, "0.6.21", "0.6.97");
    edit_json(&draft.join("calibration.json"), |d| {
        d["leagues"][0]["leagues"] = serde_json::json!(2);
        d["leagues"][0]["mix"] = serde_json::json!({"elite": 2, "modest": 2});
    });
    let dir = content.to_str().unwrap();
    let (o, v) = calibrate(dir, "0.6.97", "1");
    assert!(matches!(o.status.code(), Some(0 | 1)), "{}", stderr(&o));
    let champion = figure(&v, "league", "champion_points");
    assert_eq!(champion["order"], "2 leagues of 4 clubs, 12 matches each");
    let each: Vec<f64> = champion["orders"].as_array().unwrap().iter().map(|o| o["value"].as_f64().unwrap()).collect();
    assert_eq!(each.len(), 2);
    assert!((champion["value"].as_f64().unwrap() - (each[0] + each[1]) / 2.0).abs() < 1e-9);
    assert!(champion["ci95"].is_array(), "two leagues give an interval: {champion}");
    assert_eq!(champion["range"], serde_json::json!([70.0, 100.0]));
    let last = figure(&v, "league", "last_points");
    assert!(last["value"].as_f64() <= champion["value"].as_f64());
    for id in ["header_goal_share", "set_piece_goal_share", "shots_outside_box_share", "goals_dispersion"] {
        assert!(figure(&v, "league", id)["value"].is_number(), "{id}");
    }
    let wins = v["checks"].as_array().unwrap().iter().filter(|c| c["id"] == "stronger_win_share").count();
    assert_eq!(wins, 2, "one per order");
    let order = figure(&v, "elite_v_modest", "draw_share")["order"].as_str().unwrap();
    assert_eq!(order, "elite v modest, 8 drawn pairs × 2 matches");
    let (_, other) = calibrate(dir, "0.6.97", "2");
    let goals = |v: &Value| figure(v, "league", "goals_per_match")["orders"].clone();
    assert_ne!(goals(&v), goals(&other), "another seed, other clubs and dice");
}

/// A drawn fixture of fewer than 8 pairs is refused, naming where, and nothing is played.
#[test]
fn a_draw_of_too_few_pairs_is_refused() {
    let (_tmp, content) = content_copy();
    let draft = draft_copy(&content, "0.6.21", "0.6.96");
    edit_json(&draft.join("calibration.json"), |d| d["fixtures"][0]["draw"]["pairs"] = serde_json::json!(7));
    let o = run(&["lab", "calibrate", "--content", content.to_str().unwrap(), "--revision", "0.6.96", "--no-facts"]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    let e = stderr(&o);
    assert!(e.contains("calibration.json") && e.contains("/fixtures/0/draw/pairs"), "{e}");
}
