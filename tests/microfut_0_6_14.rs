//! Microfut 0.6.14 (issue 11), a draft from 0.6.13: the same rules, read differently by the
//! calibration. The unequal fixtures' share of the ball and shot ratio are judged on the two
//! orders together, each order's own figure printed beside the pooled one — per order, the six
//! shot checks need a home factor of at most 1.04 (docs/calibration-0.6.14.md).
//! The tests read the repository's content folder (or `MICROFUT_TEST_CONTENT`, so a sabotaged copy
//! can show an assertion failing).

mod common;
use common::{calibration_only_change, run};
use serde_json::Value;

const UNEQUAL: [&str; 3] = ["elite_v_modest", "established_v_modest", "elite_v_established"];

/// `lab calibrate --fixture elite_v_established --json` on a revision, 20 matches an order.
fn calibrate_json(revision: &str) -> Value {
    let o = run(&[
        "lab",
        "calibrate",
        "--revision",
        revision,
        "--matches",
        "20",
        "--fixture",
        "elite_v_established",
        "--json",
    ]);
    serde_json::from_slice(&o.stdout).expect("JSON")
}

/// Only the calibration document changes, so every match of 0.6.14 is a match of 0.6.13.
#[test]
fn the_rules_are_those_of_0_6_13() {
    let (_, new) = calibration_only_change("0.6.13", "0.6.14");
    for f in new["fixtures"].as_array().unwrap() {
        let pooled: Vec<&str> =
            f["pooled"].as_array().map(|p| p.iter().map(|m| m.as_str().unwrap()).collect()).unwrap_or_default();
        if UNEQUAL.contains(&f["id"].as_str().unwrap()) {
            assert_eq!(pooled, ["stronger_possession", "stronger_shots_ratio"], "{}", f["id"]);
        }
    }
}

/// `lab calibrate` judges the stronger side's ball and shots once over both orders, names both
/// orders' own figures in it, and still judges the win share in each order.
#[test]
fn calibrate_pools_the_volume_and_shows_each_order() {
    let v = calibrate_json("0.6.14");
    let checks = v["checks"].as_array().unwrap();
    for id in ["stronger_possession", "stronger_shots_ratio"] {
        let mine: Vec<&Value> = checks.iter().filter(|c| c["id"] == id).collect();
        assert_eq!(mine.len(), 1, "{id}: {mine:?}");
        assert_eq!(mine[0]["order"], "both orders");
        let f = mine[0]["figure"].as_str().unwrap();
        assert!(f.contains("elite_a v established_a ") && f.contains("established_a v elite_a "), "{f}");
        // …and as data: each order's estimate, whose mean is the pooled one.
        let orders = mine[0]["orders"].as_array().unwrap_or_else(|| panic!("{}", mine[0]));
        let names: Vec<&str> = orders.iter().map(|o| o["order"].as_str().unwrap()).collect();
        assert_eq!(names, ["elite_a v established_a", "established_a v elite_a"]);
        let mean = orders.iter().map(|o| o["value"].as_f64().unwrap()).sum::<f64>() / 2.0;
        assert!((mean - mine[0]["value"].as_f64().unwrap()).abs() < 1e-9, "{}", mine[0]);
    }
    let wins: Vec<&Value> = checks.iter().filter(|c| c["id"] == "stronger_win_share").collect();
    assert_eq!(wins.len(), 2, "the win share stays per order: {wins:?}");
    // 0.6.13 still judges the volume in each order.
    let v = calibrate_json("0.6.13");
    let ratio = v["checks"].as_array().unwrap().iter().filter(|c| c["id"] == "stronger_shots_ratio").count();
    assert_eq!(ratio, 2);
}
