//! `microfut match` and `microfut replay` from the command line.

use crate::common;
use common::*;
use std::fs;

fn club_path(name: &str) -> String {
    format!("{}/tests/fixtures/clubs/{name}.json", env!("CARGO_MANIFEST_DIR"))
}

fn match_args(seed: &str) -> Vec<String> {
    [
        "match",
        "--home",
        &club_path("test_home"),
        "--away",
        &club_path("test_away"),
        "--seed",
        seed,
        "--revision",
        ENGINE_REVISION,
    ]
    .iter()
    .map(|s| s.to_string())
    .collect()
}

fn run_s(args: &[String]) -> std::process::Output {
    let refs: Vec<&str> = args.iter().map(String::as_str).collect();
    run(&refs)
}

#[test]
fn match_prints_score_and_statistics() {
    let o = run_s(&match_args("1"));
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    for row in [
        "goals",
        "shots",
        "on target",
        "sum of shot probabilities",
        "passes completed / attempted",
        "crosses completed / attempted",
        "dribbles won / attempted",
        "duels on the ball won / lost",
        "tackles",
        "interceptions",
        "blocks",
        "saves",
        "fouls",
        "corners",
        "free kicks",
        "penalties scored / awarded",
        "substitutions",
        "possession %",
        "distance covered (km)",
        "mean stamina at full time",
    ] {
        assert!(out.contains(row), "missing row {row}:\n{out}");
    }
    let mut args = match_args("1");
    args.push("--json".into());
    let v: serde_json::Value = serde_json::from_slice(&run_s(&args).stdout).unwrap();
    assert_eq!(v["score"].as_array().unwrap().len(), 2);
    for side in ["home", "away"] {
        for key in [
            "goals",
            "shots",
            "on_target",
            "shot_probability_sum",
            "passes",
            "passes_completed",
            "crosses",
            "dribbles_won",
            "dribbles_lost",
            "tackles",
            "interceptions",
            "blocks",
            "saves",
            "fouls",
            "possession",
            "distance_km",
            "mean_stamina",
        ] {
            assert!(v["stats"][side].get(key).is_some(), "stats.{side}.{key}");
        }
    }
    assert_eq!(v["score"][0], v["stats"]["home"]["goals"]);
    // Each "won / attempted" row prints the counters it names: the dribble is the `take_ons`
    // counter, the duels on the ball are `dribbles_won/lost` (one name per thing on screen).
    let row = |label: &str| -> Vec<String> {
        let line = out.lines().find(|l| l.trim_start().starts_with(label)).unwrap_or_else(|| panic!("{label}"));
        line.trim_start()[label.len()..].split_whitespace().map(str::to_string).collect()
    };
    let (h, a) = (&v["stats"]["home"], &v["stats"]["away"]);
    let pair = |s: &serde_json::Value, x: &str, y: &str| format!("{}/{}", s[x], s[y]);
    for (label, x, y) in [
        ("dribbles won / attempted", "take_ons_won", "take_ons"),
        ("duels on the ball won / lost", "dribbles_won", "dribbles_lost"),
        ("crosses completed / attempted", "crosses_completed", "crosses"),
        ("penalties scored / awarded", "penalty_goals", "penalties"),
    ] {
        assert_eq!(row(label), vec![pair(h, x, y), pair(a, x, y)], "{label}");
    }
    assert_eq!(row("corners"), vec![h["corners"].to_string(), a["corners"].to_string()]);
    let outside = |s: &serde_json::Value| s["shots_outside_box"].to_string();
    assert_eq!(row("shots from outside the box"), vec![outside(h), outside(a)]);
}

#[test]
fn a_run_replays_identically_and_a_tampered_one_does_not() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("run.json");
    let mut args = match_args("7");
    args.extend(["--out".into(), out.to_str().unwrap().into()]);
    assert!(run_s(&args).status.success());
    let r = run(&["replay", out.to_str().unwrap()]);
    assert!(r.status.success(), "{}", stderr(&r));
    assert!(stdout(&r).starts_with("identical"));
    let mut v: serde_json::Value = serde_json::from_slice(&fs::read(&out).unwrap()).unwrap();
    for key in [
        "ruleset",
        "revision",
        "fingerprint",
        "engine_version",
        "seed",
        "home",
        "away",
        "intents",
        "events",
        "round_hashes",
    ] {
        assert!(v.get(key).is_some(), "run record lacks {key}");
    }
    v["round_hashes"][42] = serde_json::json!("00000000deadbeef");
    let bad = tmp.path().join("bad.json");
    fs::write(&bad, serde_json::to_vec(&v).unwrap()).unwrap();
    let r = run(&["replay", bad.to_str().unwrap()]);
    assert_eq!(r.status.code(), Some(1));
    // Every other round agrees, so the replay is identical and the record's hash was edited.
    let err = stderr(&r);
    assert!(err.contains("bad.json#/round_hashes") && err.contains("first at round 42"), "{err}");

    // An edited account of the match (here the score) is caught even though every hash agrees.
    v = serde_json::from_slice(&fs::read(&out).unwrap()).unwrap();
    v["score"][1] = serde_json::json!(9);
    fs::write(&bad, serde_json::to_vec(&v).unwrap()).unwrap();
    let r = run(&["replay", bad.to_str().unwrap()]);
    assert_eq!(r.status.code(), Some(1));
    assert!(stderr(&r).contains("what it says about score differs"), "{}", stderr(&r));
}

#[test]
fn replay_refuses_a_run_whose_revision_is_missing_changed_or_for_another_engine() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("run.json");
    let mut args = match_args("3");
    args.extend(["--out".into(), out.to_str().unwrap().into()]);
    assert!(run_s(&args).status.success());
    let original: serde_json::Value = serde_json::from_slice(&fs::read(&out).unwrap()).unwrap();
    let write = |f: &dyn Fn(&mut serde_json::Value)| {
        let mut v = original.clone();
        f(&mut v);
        let p = tmp.path().join("edited.json");
        fs::write(&p, serde_json::to_vec(&v).unwrap()).unwrap();
        run(&["replay", p.to_str().unwrap()])
    };
    let missing = write(&|v| v["revision"] = serde_json::json!("0.9.9"));
    assert_eq!(missing.status.code(), Some(2));
    assert!(stderr(&missing).contains("no revision 0.9.9"), "{}", stderr(&missing));
    let changed = write(&|v| v["fingerprint"] = serde_json::json!("sha256:0000"));
    assert_eq!(changed.status.code(), Some(2));
    // The published revision still matches catalog.json, so the record is what changed.
    let err = stderr(&changed);
    assert!(err.contains("edited.json#/fingerprint") && err.contains("the record was edited"), "{err}");
    // A record pinned to a revision that requires another engine (a draft copy for engine 9).
    let (_t, content) = content_copy();
    let draft = draft_copy(&content, ENGINE_REVISION, "0.9.0");
    edit_json(&draft.join("manifest.json"), |m| {
        m["engine"] = serde_json::json!(">=9.0.0");
    });
    let catalog = microfut::catalog::Catalog::load(&microfut::catalog::ContentTree::from_dir(&content).unwrap());
    let fingerprint = catalog.rulesets["microfut"].revisions[&semver::Version::new(0, 9, 0)].fingerprint.clone();
    let mut v = original.clone();
    v["revision"] = serde_json::json!("0.9.0");
    v["fingerprint"] = serde_json::json!(fingerprint);
    let future = tmp.path().join("future.json");
    fs::write(&future, serde_json::to_vec(&v).unwrap()).unwrap();
    let r = run(&["replay", future.to_str().unwrap(), "--content", content.to_str().unwrap()]);
    assert_eq!(r.status.code(), Some(2));
    let err = stderr(&r);
    assert!(err.contains("requires engine >=9.0.0") && err.contains("this is engine"), "{err}");
    assert!(run(&["replay", "/nonexistent/run.json"]).status.code() == Some(2));
}

#[test]
fn human_intents_from_a_file() {
    let tmp = tempfile::tempdir().unwrap();
    let intents = tmp.path().join("intents.json");
    fs::write(&intents, r#"[{"kind": "pass", "target": 6}, {"kind": "shoot"}]"#).unwrap();
    let out = tmp.path().join("run.json");
    let mut args = match_args("4");
    args.extend([
        "--human".into(),
        "home".into(),
        "--intents".into(),
        intents.to_str().unwrap().into(),
        "--out".into(),
        out.to_str().unwrap().into(),
    ]);
    let o = run_s(&args);
    // The first intent must be among the candidates of the first decision, or it is refused.
    if o.status.success() {
        let r = run(&["replay", out.to_str().unwrap()]);
        assert!(stdout(&r).starts_with("identical"), "{}", stderr(&r));
    } else {
        assert_eq!(o.status.code(), Some(2));
        assert!(stderr(&o).contains("is not among the candidates"), "{}", stderr(&o));
        assert!(!out.exists(), "nothing is written when an intent is refused");
    }
    fs::write(&intents, r#"[{"kind": "pass", "target": 99}]"#).unwrap();
    let o = run_s(&args);
    assert_eq!(o.status.code(), Some(2));
    let err = stderr(&o);
    assert!(err.contains("intents.json#/0: intent 'pass #99' refused at round"), "{err}");
    fs::write(&intents, "not json").unwrap();
    assert_eq!(run_s(&args).status.code(), Some(2));
}

#[test]
fn bad_input_is_refused_with_a_clear_line() {
    let refused = |args: Vec<String>, needle: &str| {
        let o = run_s(&args);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        assert!(stderr(&o).contains(needle), "{args:?}: {}", stderr(&o));
        assert!(stdout(&o).is_empty());
    };
    let mut a = match_args("1");
    a[2] = "/nonexistent/club.json".into();
    refused(a, "neither a file nor a sample club");
    let tmp = tempfile::tempdir().unwrap();
    let small = tmp.path().join("small.json");
    let mut club: serde_json::Value = serde_json::from_slice(&fs::read(club_path("test_home")).unwrap()).unwrap();
    club["squad"].as_array_mut().unwrap().truncate(9);
    fs::write(&small, serde_json::to_vec(&club).unwrap()).unwrap();
    let mut a = match_args("1");
    a[4] = small.to_str().unwrap().into();
    // Checked as `club validate` checks it, before the match.
    refused(a, "small.json#/squad: 9 players; a squad has 25");
    let mut a = match_args("1");
    a[8] = "0.9.9".into();
    refused(a, "no revision 0.9.9");
    let mut a = match_args("1");
    a[8] = "0.5.0".into();
    refused(a, "which the match engine needs");
    let mut a = match_args("1");
    a.extend(["--human".into(), "visitors".into(), "--intents".into(), "x.json".into()]);
    refused(a, "expected home or away");
    // Intents without a human side would be silently ignored: a usage error instead.
    let mut a = match_args("1");
    a.extend(["--intents".into(), "x.json".into()]);
    refused(a, "--human");
    // One output that cannot be written: none is written.
    let decisions = tmp.path().join("decisions.json");
    let mut a = match_args("1");
    a.extend([
        "--decisions".into(),
        decisions.to_str().unwrap().into(),
        "--out".into(),
        tmp.path().join("missing/run.json").to_str().unwrap().into(),
    ]);
    refused(a, "cannot write");
    let left: Vec<_> = fs::read_dir(tmp.path()).unwrap().map(|e| e.unwrap().file_name()).collect();
    assert_eq!(left, ["small.json"], "nothing but the test's own file");
}

/// The README's human-intents example, verbatim: its intents are candidates at their rounds.
#[test]
fn the_readme_intents_example_plays() {
    let readme = fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/README.md")).unwrap();
    let echo = readme.lines().find(|l| l.starts_with("echo '[") && l.ends_with("> intents.json")).expect("example");
    let json = echo.trim_start_matches("echo '").trim_end_matches("' > intents.json");
    let command = readme.lines().find(|l| l.contains("--human home --intents intents.json")).expect("command");
    let tmp = tempfile::tempdir().unwrap();
    let intents = tmp.path().join("intents.json");
    fs::write(&intents, json).unwrap();
    let mut args: Vec<String> = command.split_whitespace().skip(1).map(String::from).collect();
    let last = args.len() - 1;
    args[last] = intents.to_str().unwrap().into();
    let out = tmp.path().join("run.json");
    args.extend(["--out".into(), out.to_str().unwrap().into()]);
    let o = run_s(&args);
    assert!(o.status.success(), "{command}: {}", stderr(&o));
    let run: serde_json::Value = serde_json::from_slice(&fs::read(&out).unwrap()).unwrap();
    let declared = serde_json::from_str::<serde_json::Value>(json).unwrap().as_array().unwrap().len();
    assert_eq!(run["intents"].as_array().unwrap().len(), declared, "every intent of the example was taken");
}
