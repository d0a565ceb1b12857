//! `lab calibrate --short`: what CI runs (issue 52 §1, issue 51 item 5). A few matches a fixture
//! and order, each figure judged by its 95 % interval: the default revision passes, and a draft
//! whose finishing is moved far fails, naming the checks that moved.

use crate::common;
use common::{content_copy, draft_copy, edit_json, run, stderr};
use serde_json::Value;

fn json(o: &std::process::Output) -> Value {
    serde_json::from_slice(&o.stdout).unwrap_or_else(|e| panic!("{e}: {}", stderr(o)))
}

/// Whether a check's interval (its estimate, without one) meets its range; an open end is a
/// direction, whose finite end is excluded.
fn overlaps(c: &Value) -> Option<bool> {
    let v = c["value"].as_f64()?;
    let r = c["range"].as_array()?;
    let lo = r[0].as_f64().unwrap_or(f64::NEG_INFINITY);
    let hi = r[1].as_f64().unwrap_or(f64::INFINITY);
    let (a, b) = match c["ci95"].as_array() {
        Some(ci) => (ci[0].as_f64().unwrap(), ci[1].as_f64().unwrap()),
        None => (v, v),
    };
    Some(if lo.is_infinite() || hi.is_infinite() { b > lo && a < hi } else { b >= lo && a <= hi })
}

/// The default revision passes its short calibration, judged by interval, and says so.
#[test]
fn the_default_revision_passes_the_short_calibration() {
    let o = run(&["lab", "calibrate", "--short", "--json"]);
    let v = json(&o);
    let failed: Vec<&Value> = v["checks"].as_array().unwrap().iter().filter(|c| c["pass"] != true).collect();
    assert!(failed.is_empty(), "failing checks: {failed:#?}");
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!((v["judging"].as_str(), v["short"].as_bool()), (Some("interval"), Some(true)));
    assert_eq!(v["matches"], 100, "a revision without `short` plays 100 matches a fixture and order");
    let checks = v["checks"].as_array().unwrap();
    let judged: Vec<bool> = checks.iter().filter_map(overlaps).collect();
    assert!(judged.len() > 100, "every figure with a number carries its range: {}", judged.len());
    assert!(judged.iter().all(|&p| p));
}

/// Finishing moved far up (`finishing_constant` −3.6 → 6) makes a draft score far more: its
/// short calibration fails, and the checks about goals and shots on target fail, by name.
#[test]
fn a_draft_with_finishing_moved_far_fails_named_checks() {
    let (_tmp, content) = content_copy();
    let draft = draft_copy(&content, "0.6.21", "0.6.98");
    edit_json(&draft.join("params.json"), |d| {
        let p = d["params"].as_array_mut().unwrap().iter_mut().find(|p| p["id"] == "finishing_constant").unwrap();
        p["value"] = serde_json::json!(6.0);
    });
    let dir = content.to_str().unwrap();
    let args = ["lab", "calibrate", "--content", dir, "--revision", "0.6.98", "--short", "--no-facts"];
    let o = run(&[&args[..], &["--fixture", "elite", "--json"]].concat());
    let v = json(&o);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert_eq!(v["judging"], "interval");
    let failed: Vec<(&str, &str)> = v["checks"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|c| c["pass"] == false)
        .map(|c| (c["group"].as_str().unwrap(), c["id"].as_str().unwrap()))
        .collect();
    for id in ["goals_per_match", "shots_on_target_share"] {
        assert!(failed.contains(&("elite", id)), "{id} should fail: {failed:?}");
    }
    // The same draft with its finishing as 0.6.21 has it fails fewer checks on the same run, and
    // its shots on target pass (its drawn elite pairs score above the range even so: the
    // population finding CALIBRATION.md reports).
    edit_json(&draft.join("params.json"), |d| {
        let p = d["params"].as_array_mut().unwrap().iter_mut().find(|p| p["id"] == "finishing_constant").unwrap();
        p["value"] = serde_json::json!(-3.6);
    });
    let o = run(&[&args[..], &["--fixture", "elite", "--json"]].concat());
    let sound = json(&o);
    assert!(sound["failed"].as_u64() < v["failed"].as_u64(), "{} v {}", sound["failed"], v["failed"]);
    for c in sound["checks"].as_array().unwrap().iter().filter(|c| c["id"] == "shots_on_target_share") {
        assert_eq!(c["pass"], true, "{c}");
    }
}
