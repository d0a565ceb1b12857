//! Microfut 0.6.15 (issue 11), a draft from 0.6.14: the same rules, and each unequal fixture
//! played by three pairs of clubs of its presets instead of one. A target about presets ("elite
//! v modest") was judged on the one squad each seed drew, while clubs of one preset spread over
//! about 20 points of win share against the same opponent (docs/calibration-draws.md).
//! The tests read the repository's content folder (or `MICROFUT_TEST_CONTENT`, so a sabotaged copy
//! can show an assertion failing).

mod common;
use common::{calibration_only_change, content_copy, edit_json, run, stderr};
use serde_json::Value;

const UNEQUAL: [&str; 3] = ["elite_v_modest", "established_v_modest", "elite_v_established"];

/// Only the calibration document changes, so every match of 0.6.15 is a match of 0.6.14; each
/// unequal fixture gains two further pairs of the same two presets, from seeds of their own.
#[test]
fn the_rules_are_those_of_0_6_14_and_every_unequal_fixture_has_three_draws() {
    let (old, new) = calibration_only_change("0.6.14", "0.6.15");
    let clubs = &new["clubs"];
    for (name, spec) in old["clubs"].as_object().unwrap() {
        assert_eq!(&clubs[name], spec, "{name}: the first pairs are 0.6.14's clubs");
    }
    let preset = |c: &Value| clubs[c.as_str().unwrap()]["preset"].as_str().unwrap().to_string();
    let seed = |c: &Value| clubs[c.as_str().unwrap()]["seed"].as_u64().unwrap();
    for f in new["fixtures"].as_array().unwrap() {
        let id = f["id"].as_str().unwrap();
        if !UNEQUAL.contains(&id) {
            assert!(f.get("draws").is_none(), "{id}: only unequal fixtures have draws");
            continue;
        }
        let first = [f["stronger"].clone(), f["weaker"].clone()];
        let draws = f["draws"].as_array().unwrap_or_else(|| panic!("{id} has no draws"));
        assert_eq!(draws.len(), 2, "{id}");
        let mut seeds = vec![seed(&first[0]), seed(&first[1])];
        for d in draws {
            assert_eq!([preset(&d[0]), preset(&d[1])], [preset(&first[0]), preset(&first[1])], "{id}: {d}");
            seeds.extend([seed(&d[0]), seed(&d[1])]);
        }
        let n = seeds.len();
        seeds.sort_unstable();
        seeds.dedup();
        assert_eq!(seeds.len(), n, "{id}: every club of the fixture is its own draw");
    }
}

/// `lab calibrate` plays every pair and judges each order on the mean of its pairs, naming each
/// pair's own figure; the pooled volume figures are the mean over both orders and every pair.
#[test]
fn calibrate_judges_each_order_on_the_mean_of_its_draws() {
    let o = run(&[
        "lab",
        "calibrate",
        "--revision",
        "0.6.15",
        "--matches",
        "12",
        "--fixture",
        "elite_v_established",
        "--json",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let v: Value = serde_json::from_slice(&o.stdout).expect("JSON");
    let checks = v["checks"].as_array().unwrap();
    let home = ["elite_a v established_a", "elite_b v established_b", "elite_c v established_c"];
    let away = ["established_a v elite_a", "established_b v elite_b", "established_c v elite_c"];
    let parts = |c: &Value| -> (Vec<String>, f64) {
        let orders = c["orders"].as_array().unwrap_or_else(|| panic!("no pairs in {c}"));
        let names = orders.iter().map(|o| o["order"].as_str().unwrap().to_string()).collect();
        let mean = orders.iter().map(|o| o["value"].as_f64().unwrap()).sum::<f64>() / orders.len() as f64;
        (names, mean)
    };
    let wins: Vec<&Value> = checks.iter().filter(|c| c["id"] == "stronger_win_share").collect();
    assert_eq!(wins.len(), 2, "the win share stays per order: {wins:?}");
    for (c, pairs) in wins.iter().zip([home, away]) {
        assert_eq!(c["order"], pairs.join(" · "));
        let (names, mean) = parts(c);
        assert_eq!(names, pairs);
        assert!((mean - c["value"].as_f64().unwrap()).abs() < 1e-9, "{c}");
        for p in pairs {
            assert!(c["figure"].as_str().unwrap().contains(&format!("{p} ")), "{c}");
        }
    }
    for id in ["stronger_possession", "stronger_shots_ratio"] {
        let mine: Vec<&Value> = checks.iter().filter(|c| c["id"] == id).collect();
        assert_eq!(mine.len(), 1, "{id}: {mine:?}");
        assert_eq!(mine[0]["order"], "both orders");
        let (names, mean) = parts(mine[0]);
        assert_eq!(names, [home, away].concat());
        assert!((mean - mine[0]["value"].as_f64().unwrap()).abs() < 1e-9, "{}", mine[0]);
    }
    // 0.6.14 still plays one pair an order.
    let o = run(&[
        "lab",
        "calibrate",
        "--revision",
        "0.6.14",
        "--matches",
        "12",
        "--fixture",
        "elite_v_established",
        "--json",
    ]);
    let v: Value = serde_json::from_slice(&o.stdout).expect("JSON");
    let wins: Vec<&Value> =
        v["checks"].as_array().unwrap().iter().filter(|c| c["id"] == "stronger_win_share").collect();
    assert_eq!(wins.len(), 2);
    assert_eq!(wins[0]["order"], "elite_a v established_a");
    assert!(wins[0].get("orders").is_none(), "{}", wins[0]);
}

/// What the error must say, and the edit that breaks the document.
type Case = ([&'static str; 2], fn(&mut Value));

/// Draws name declared clubs, and only a fixture of a stronger and a weaker club has them: an
/// error names the pointer, exits 2 and runs nothing.
#[test]
fn a_bad_draw_is_refused_with_its_pointer() {
    let cases: [Case; 2] = [
        (["/fixtures/4/draws/1 names club 'elite_z'", "does not declare"], |c| {
            c["fixtures"][4]["draws"][1][0] = "elite_z".into();
        }),
        (["/fixtures/1/draws", "only a fixture of a stronger and a weaker club"], |c| {
            c["fixtures"][1]["draws"] = serde_json::json!([["modest_a", "modest_b"]]);
        }),
    ];
    for (want, edit) in cases {
        let (_tmp, content) = content_copy();
        edit_json(&content.join("microfut/0.6.15/calibration.json"), edit);
        let c = content.to_str().unwrap();
        let o = run(&["lab", "calibrate", "--revision", "0.6.15", "--content", c, "--matches", "2", "--no-facts"]);
        assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
        let e = stderr(&o);
        assert!(e.contains("0.6.15/calibration.json") && want.iter().all(|w| e.contains(w)), "{e}");
        assert!(o.stdout.is_empty(), "nothing was played: {}", common::stdout(&o));
    }
}
