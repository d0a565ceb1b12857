//! `lab calibrate` plays each unequal fixture with several pairs of clubs of its presets (`draws`,
//! since Microfut 0.6.15): a target about presets ("elite v modest") had been judged on the one
//! squad each seed drew, while clubs of one preset spread over about 20 points of win share
//! against the same opponent (CALIBRATION.md, History). Each order is judged on the mean of its
//! pairs; 0.6.5, which declares no draws, plays one pair an order. The tests read the
//! repository's content folder (or `MICROFUT_TEST_CONTENT`).

use crate::common;
use common::{content_copy, edit_json, run, stderr};
use serde_json::Value;

/// `lab calibrate` plays every pair and judges each order on the mean of its pairs, naming each
/// pair's own figure; the pooled volume figures are the mean over both orders and every pair.
#[test]
fn calibrate_judges_each_order_on_the_mean_of_its_draws() {
    let o = run(&[
        "lab",
        "calibrate",
        "--revision",
        "0.6.20",
        "--matches",
        "12",
        "--fixture",
        "elite_v_established",
        "--json",
    ]);
    let v: Value = serde_json::from_slice(&o.stdout).unwrap_or_else(|e| panic!("{e}: {}", stderr(&o)));
    // A dozen matches judge no figure: only the shape of the answer is checked here.
    assert_eq!(o.status.code(), Some(if v["failed"] == 0 { 0 } else { 1 }), "{}", stderr(&o));
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
    // A revision without draws plays one pair an order.
    let o = run(&[
        "lab",
        "calibrate",
        "--revision",
        "0.6.5",
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
        // 0.6.20's shape of the document (named clubs and draws), in a draft of its own: 0.6.21
        // draws its clubs from presets.
        let (_tmp, content) = content_copy();
        let draft = common::draft_copy(&content, "0.6.20", "0.6.95");
        edit_json(&draft.join("manifest.json"), |m| m["parent"] = "0.6.20".into());
        edit_json(&draft.join("calibration.json"), edit);
        let c = content.to_str().unwrap();
        let o = run(&["lab", "calibrate", "--revision", "0.6.95", "--content", c, "--matches", "2", "--no-facts"]);
        assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
        let e = stderr(&o);
        assert!(e.contains("0.6.95/calibration.json") && want.iter().all(|w| e.contains(w)), "{e}");
        assert!(o.stdout.is_empty(), "nothing was played: {}", common::stdout(&o));
    }
}
