//! `lab sensitivity` (issue 52 §2): which calibration figure each parameter moves, and by how
//! much. On one fixture and a few matches a lever that obviously moves goals shows a positive
//! slope whose interval excludes 0, a parameter the fixture never reads moves nothing, the JSON
//! has the documented shape, and bad options are refused naming the option.

use crate::common;
use common::{run, stderr, stdout};
use serde_json::Value;

fn json(o: &std::process::Output) -> Value {
    assert_eq!(o.status.code(), Some(0), "{}", stderr(o));
    serde_json::from_slice(&o.stdout).unwrap_or_else(|e| panic!("{e}: {}", stderr(o)))
}

/// `lab sensitivity` on the repository's content (0.6.21 is a draft there).
fn sensitivity_on(args: &[&str]) -> std::process::Output {
    let dir = common::test_content_dir();
    run(&[&["lab", "sensitivity", "--content", dir.to_str().unwrap(), "--revision", "0.6.21"][..], args].concat())
}

fn sensitivity(params: &str, extra: &[&str]) -> std::process::Output {
    sensitivity_on(&[&["--params", params, "--fixture", "modest", "--quiet"][..], extra].concat())
}

/// The index of a metric (`fixture · order · id`) whose id ends with `id`.
fn rows(v: &Value, id: &str) -> Vec<usize> {
    let metrics = v["metrics"].as_array().unwrap();
    (0..metrics.len()).filter(|&i| metrics[i].as_str().unwrap().ends_with(&format!(" · {id}"))).collect()
}

fn interval(x: &Value) -> (f64, f64) {
    (x[0].as_f64().unwrap(), x[1].as_f64().unwrap())
}

/// Finishing made easier scores more goals in both orders: the slope of goals a match in
/// `finishing_constant` is positive and its 95 % interval lies above 0.
#[test]
fn a_lever_on_goals_has_a_positive_slope_whose_interval_excludes_zero() {
    let o = sensitivity("finishing_constant", &["--matches", "16", "--replicates", "4", "--step", "0.5", "--json"]);
    let v = json(&o);
    let goals = rows(&v, "goals_per_match");
    assert_eq!(goals.len(), 2, "one figure per order: {:?}", v["metrics"]);
    for i in goals {
        let (lo, hi) = interval(&v["method"]["slope_ci95"][i][0]);
        let slope = v["method"]["slope"][i][0].as_f64().unwrap();
        assert!(lo > 0.0 && slope > lo && slope < hi, "{}: slope {slope} [{lo}, {hi}]", v["metrics"][i]);
        // finishing_constant is negative and goals positive: its elasticity is negative.
        assert_eq!(v["method"]["kind"][i][0], "elasticity");
        let (elo, ehi) = interval(&v["ci95"][i][0]);
        assert!(ehi < 0.0 && v["elasticity"][i][0].as_f64().unwrap() < 0.0, "[{elo}, {ehi}]");
    }
}

/// The shape `--json` promises: parameters, metrics, and metrics × parameters matrices of
/// elasticities and intervals, with the method. A resistance penalty that starts at 36–44 years
/// cannot touch clubs whose oldest player is 36: every slope is exactly 0, every interval
/// holds 0. `save_rule` (0, a whole number in [0, 1]) is stepped one-sided, and says so.
#[test]
fn the_json_shape_and_a_parameter_the_fixture_never_reads() {
    let o = sensitivity("res_penalty_last_age,save_rule", &["--matches", "4", "--replicates", "3", "--json"]);
    let v = json(&o);
    let keys: Vec<&str> = v.as_object().unwrap().keys().map(String::as_str).collect();
    assert_eq!(keys, ["parameters", "metrics", "elasticity", "ci95", "method"]);
    assert_eq!(v["parameters"], serde_json::json!(["res_penalty_last_age", "save_rule"]));
    let metrics = v["metrics"].as_array().unwrap();
    assert!(metrics.len() > 20, "every figure of the fixture with a number: {}", metrics.len());
    for key in ["elasticity", "ci95"] {
        let m = v[key].as_array().unwrap();
        assert_eq!(m.len(), metrics.len(), "{key}: one row per metric");
        assert!(m.iter().all(|r| r.as_array().unwrap().len() == 2), "{key}: one column per parameter");
    }
    assert!(v["method"]["description"].as_str().unwrap().contains("Student t over the replicates"));
    let steps = v["method"]["steps"].as_array().unwrap();
    assert_eq!((steps[0]["low"].as_f64(), steps[0]["high"].as_f64()), (Some(36.0), Some(44.0)));
    assert_eq!(steps[0]["scheme"], "central");
    assert_eq!((steps[1]["low"].as_f64(), steps[1]["high"].as_f64()), (Some(0.0), Some(1.0)));
    assert_eq!(steps[1]["scheme"], "forward");
    let mut defined = 0;
    for i in 0..metrics.len() {
        if v["method"]["slope"][i][0].is_null() {
            continue;
        }
        defined += 1;
        assert_eq!(v["method"]["slope"][i][0].as_f64(), Some(0.0), "{}", metrics[i]);
        let (lo, hi) = interval(&v["ci95"][i][0]);
        assert!(lo <= 0.0 && hi >= 0.0, "{}: [{lo}, {hi}]", metrics[i]);
    }
    assert!(defined > 20);
}

/// The table ranks the levers of each figure, strongest first, and names the one-sided step.
#[test]
fn the_table_names_each_step_and_the_method() {
    let o = sensitivity("res_penalty_last_age,save_rule", &["--matches", "1", "--replicates", "2"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(out.contains("res_penalty_last_age = 40: played at 36 and 44 (central)"), "{out}");
    assert!(out.contains("save_rule = 0: played at 0 and 1 (forward: the value is at an edge of its domain)"), "{out}");
    assert!(out.contains("modest · modest a v modest b · goals_per_match (at v: "), "{out}");
    assert!(out.contains("Method: central differences"), "{out}");
}

/// Bad options are refused with exit 2 before anything is played, naming the option.
#[test]
fn bad_options_are_refused_naming_the_option() {
    let cases: [(&[&str], &str); 8] = [
        (
            &["--params", "finishing_constan"],
            "--params finishing_constan: 'finishing_constan' is not a parameter of microfut 0.6.21 (did you mean 'finishing_constant'",
        ),
        (&["--params", "finishing_constant,,save_rule"], "--params: an empty name"),
        (&["--params", "finishing_constant,finishing_constant"], "named twice"),
        (
            &["--params", "finishing_constant", "--step", "20"],
            "--step 20: a step of 72 around finishing_constant = -3.6 leaves its domain [-10, 10] on both sides",
        ),
        (&["--params", "finishing_constant", "--step", "0"], "--step 0: the relative step must be a number above 0"),
        (&["--params", "stamina_max"], "--params stamina_max: stamina_max = 90 makes microfut 0.6.21 invalid"),
        (
            &["--params", "finishing_constant", "--fixture", "nowhere"],
            "--fixture nowhere: microfut 0.6.21 has no such fixture",
        ),
        (&["--params", "finishing_constant", "--replicates", "1"], "at least 2 replicates"),
    ];
    for (args, message) in cases {
        let o = sensitivity_on(&[&["--matches", "1"][..], args].concat());
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stderr(&o));
        assert!(stderr(&o).contains(message), "{args:?}: {}", stderr(&o));
        assert!(o.stdout.is_empty(), "{args:?}");
    }
    let o = sensitivity_on(&[]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("--params"), "{}", stderr(&o));
}

/// `--html` writes a heat map of the same matrix, one cell per metric and parameter.
#[test]
fn the_html_report_is_a_heat_map() {
    let dir = tempfile::tempdir().unwrap();
    let page = dir.path().join("levers.html");
    let o = sensitivity(
        "res_penalty_last_age,save_rule",
        &["--matches", "1", "--replicates", "2", "--html", page.to_str().unwrap()],
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let html = std::fs::read_to_string(&page).unwrap();
    assert!(html.starts_with("<!DOCTYPE html>") && html.contains("<table class=\"heat\">"));
    assert!(html.contains("<th title=\"save_rule = 0, played at 0 and 1 (forward)\">save_rule</th>"), "{html}");
    assert!(html.contains("microfut lab sensitivity --revision 0.6.21 --params res_penalty_last_age,save_rule"));
    let rows = html.matches("<tr><th>modest · ").count();
    assert!(rows > 20, "{rows}");
}
