//! The match engine in the lab: the per-scenario metrics, determinism across threads, A/B
//! between revisions, and the calibration report.

use crate::common;
use common::*;
use serde_json::Value;

fn lab(args: &[&str]) -> Value {
    let o = run(args);
    assert!(o.status.success(), "{args:?}: {}", stderr(&o));
    serde_json::from_slice(&o.stdout).expect("JSON")
}

const BASE: &[&str] =
    &["lab", "microfut", "--matches", "12", "--seed", "5", "--revision", ENGINE_REVISION, "--quiet", "--json"];

#[test]
fn reports_every_metric_with_its_interval_per_scenario() {
    let v = lab(&[BASE, &["--scenario", "base,high_press"]].concat());
    let scenarios = v["scenarios"].as_array().unwrap();
    assert_eq!(scenarios.len(), 2);
    for s in scenarios {
        for m in [
            "goals_per_match",
            "shots_per_match",
            "shots_on_target_share",
            "pass_completion",
            "shot_conversion",
            "home_win_share",
        ] {
            let entry = &s["metrics"][m];
            let mean = entry["mean"].as_f64().unwrap_or_else(|| panic!("{m} mean"));
            let ci = entry["ci95"].as_array().unwrap();
            assert!(ci[0].as_f64().unwrap() <= mean && mean <= ci[1].as_f64().unwrap(), "{m}: {entry}");
        }
        let shares: f64 = ["home_win_share", "draw_share", "away_win_share"]
            .iter()
            .map(|k| s["metrics"][k]["mean"].as_f64().unwrap())
            .sum();
        assert!((shares - 1.0).abs() < 1e-9);
    }
}

#[test]
fn same_command_same_numbers_whatever_the_threads() {
    let one = run(&[BASE, &["--scenario", "base", "--threads", "1"]].concat());
    let two = run(&[BASE, &["--scenario", "base", "--threads", "2"]].concat());
    assert!(one.status.success() && two.status.success(), "{}", stderr(&one));
    assert_eq!(one.stdout, two.stdout);
}

#[test]
fn a_b_runs_two_revisions_on_the_same_seeds() {
    let (_tmp, content) = content_copy();
    let c = content.to_str().unwrap();
    let draft = draft_copy(&content, ENGINE_REVISION, "0.5.9");
    // Keepers saving far more in the draft.
    edit_json(&draft.join("params.json"), |p| {
        for x in p["params"].as_array_mut().unwrap() {
            if x["id"] == "save_rule" {
                x["value"] = serde_json::json!(0);
            }
        }
    });
    edit_json(&draft.join("tables.json"), |t| {
        for x in t["tables"].as_array_mut().unwrap() {
            if x["id"] == "gk_reaction" {
                for b in x["bins"].as_array_mut().unwrap() {
                    b["value"] = serde_json::json!(2);
                }
            }
        }
    });
    let v = lab(&[
        "lab",
        "microfut",
        "--matches",
        "16",
        "--seed",
        "2",
        "--revision",
        ENGINE_REVISION,
        "--against",
        "0.5.9",
        "--scenario",
        "base",
        "--quiet",
        "--json",
        "--content",
        c,
    ]);
    let goals = &v["scenarios"][0]["metrics"]["goals_per_match"];
    // difference = revision − against: the draft's keepers, with more time, concede fewer.
    let d = goals["difference"].as_f64().unwrap();
    assert!(d > 0.0 && goals["against"].as_f64().unwrap() < goals["mean"].as_f64().unwrap(), "{goals}");
    assert!(goals["difference_ci95"].as_array().unwrap().len() == 2);
}

#[test]
fn calibrate_reports_each_fact_with_its_figure() {
    let o = run(&["lab", "calibrate", "--revision", ENGINE_REVISION, "--matches", "40", "--json"]);
    let v: Value = serde_json::from_slice(&o.stdout).expect("JSON");
    let checks = v["checks"].as_array().unwrap();
    let ids: Vec<&str> = checks.iter().map(|c| c["id"].as_str().unwrap()).collect();
    for id in [
        "pass_distance",
        "pass_free_short",
        "pass_interceptor",
        "finishing_close_vs_far",
        "open_goal",
        "sprint_with_ball",
        "exhaustion_order",
        "keeper_levels",
        "dribbling_levels",
        "tackling_levels",
        "same_seed",
        "share_of_18s",
    ] {
        assert!(ids.contains(&id), "missing {id}");
    }
    // A 0.5 revision's league averages: the reference club against itself, each a lab figure
    // with its 95 % interval.
    let league: Vec<&Value> = checks.iter().filter(|c| c["group"] == "league").collect();
    for id in ["goals_per_match", "shots_per_match", "pass_completion", "shot_conversion"] {
        let c = league.iter().find(|c| c["id"] == id).unwrap_or_else(|| panic!("no league {id}"));
        let ci = c["ci95"].as_array().unwrap_or_else(|| panic!("{c}"));
        assert!(ci[0].as_f64().unwrap() <= c["value"].as_f64().unwrap(), "{c}");
    }
    for c in checks {
        assert!(!c["figure"].as_str().unwrap().is_empty());
    }
    // The facts that do not depend on sample size hold on the shipped revision.
    for c in checks.iter().filter(|c| c["group"] != "league") {
        assert_eq!(c["pass"], true, "{c}");
    }
    assert_eq!(o.status.code(), Some(if v["failed"] == 0 { 0 } else { 1 }));
}

/// A figure judged on both orders together still shows each order's own figure, so a pooled
/// reading never hides how far apart home and away are.
#[test]
fn calibrate_pooled_figure_names_each_order() {
    let o = run(&["lab", "calibrate", "--revision", "0.6.20", "--matches", "20", "--fixture", "modest", "--json"]);
    let v: Value = serde_json::from_slice(&o.stdout).expect("JSON");
    let pooled: Vec<&Value> = v["checks"].as_array().unwrap().iter().filter(|c| c["order"] == "both orders").collect();
    assert_eq!(pooled.len(), 3, "home, draw and away shares are pooled: {pooled:?}");
    for c in pooled {
        let f = c["figure"].as_str().unwrap();
        assert!(f.contains("modest_a v modest_b ") && f.contains("modest_b v modest_a "), "{f}");
    }
}

/// The clubs are part of what a run is: shards of runs with different clubs do not merge, and
/// the report names them.
#[test]
fn shards_of_different_clubs_do_not_merge() {
    let tmp = tempfile::tempdir().unwrap();
    let shard = |away: &str, i: &str, name: &str| {
        let out = tmp.path().join(name);
        let args = [
            "lab",
            "microfut",
            "--matches",
            "4",
            "--seed",
            "3",
            "--scenario",
            "base",
            "--quiet",
            "--home",
            "uniao_pedra_branca",
            "--away",
            away,
            "--shard",
            i,
            "--out",
            out.to_str().unwrap(),
        ];
        let o = run(&args);
        assert!(o.status.success(), "{}", stderr(&o));
        out.to_str().unwrap().to_string()
    };
    let a = shard("esporte_clube_mandacaru", "0/2", "a.json");
    let b = shard("ferroviario_juazeiro", "1/2", "b.json");
    let same = shard("esporte_clube_mandacaru", "1/2", "c.json");
    let o = run(&["lab", "merge", &a, &b]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("/identity/setup"), "{}", stderr(&o));
    let o = run(&["lab", "merge", &a, &same]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        stdout(&o).lines().next().unwrap().contains("· uniao_pedra_branca v esporte_clube_mandacaru (clubs sha256:")
    );
}

/// `lab calibrate --export-clubs` writes the calibration set as the checks play it: each club a
/// valid club file, the generated ones the very squads `club generate` gives for their preset,
/// seed and the calibration's name (without the name the generator draws one from the seed, and
/// the squad after it differs). Nothing is simulated, and a missing folder writes nothing.
#[test]
fn calibrate_exports_the_clubs_it_plays() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path().to_str().unwrap();
    let v = lab(&["lab", "calibrate", "--revision", "0.6.20", "--export-clubs", d, "--json"]);
    let clubs = v["clubs"].as_object().unwrap();
    let names: Vec<&str> = clubs.keys().map(String::as_str).collect();
    assert_eq!(
        names,
        [
            "elite_a",
            "elite_b",
            "elite_c",
            "established_a",
            "established_b",
            "established_c",
            "modest_a",
            "modest_b",
            "modest_c",
            "reference"
        ]
    );
    for (name, c) in clubs {
        let file = c["file"].as_str().unwrap();
        assert!(file.ends_with(&format!("{name}.json")), "{file}");
        let o = run(&["club", "validate", file, "--revision", "0.6.20"]);
        assert!(o.status.success(), "{name}: {}", stderr(&o));
    }
    let regenerated = dir.path().join("regenerated.json");
    let o = run(&[
        "club",
        "generate",
        "--budget",
        "elite",
        "--seed",
        "301",
        "--name",
        "elite 301",
        "--revision",
        "0.6.20",
        "--out",
        regenerated.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let read = |p: &std::path::Path| -> Value { serde_json::from_slice(&std::fs::read(p).unwrap()).unwrap() };
    assert_eq!(read(&dir.path().join("elite_a.json")), read(&regenerated));

    let missing = dir.path().join("no_such_folder");
    let o = run(&["lab", "calibrate", "--revision", "0.6.20", "--export-clubs", missing.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("--export-clubs") && stderr(&o).contains("no such folder"), "{}", stderr(&o));
    assert!(!missing.exists());

    // A calibration document whose club name would leave the folder writes nothing anywhere.
    let (_tmp, content) = content_copy();
    let draft = common::draft_copy(&content, "0.6.20", "0.6.95");
    edit_json(&draft.join("manifest.json"), |m| m["parent"] = "0.6.20".into());
    edit_json(&draft.join("calibration.json"), |c| {
        let clubs = c["clubs"].as_object_mut().unwrap();
        let elite = clubs["elite_b"].clone();
        clubs.insert("../escaped".into(), elite);
    });
    let out = dir.path().join("inner");
    std::fs::create_dir(&out).unwrap();
    let c = content.to_str().unwrap();
    let o = run(&["lab", "calibrate", "--revision", "0.6.95", "--content", c, "--export-clubs", out.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("calibration.json#/clubs/../escaped"), "{}", stderr(&o));
    assert_eq!(std::fs::read_dir(&out).unwrap().count(), 0);
    assert!(!dir.path().join("escaped.json").exists());
}
