//! Issue 17, input and output: bad input is refused with one line naming the file and JSON
//! pointer, exit code 2, and nothing written; no command loses data or leaves files behind.

use crate::common;
use common::*;
use serde_json::{Value, json};
use std::fs;
use std::path::{Path, PathBuf};

fn refused(args: &[&str], needles: &[&str]) -> String {
    let o = run(args);
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(2), "{args:?}: {}{err}", stdout(&o));
    for n in needles {
        assert!(err.contains(n), "{args:?}: missing {n:?} in:\n{err}");
    }
    assert!(!err.contains("panicked"), "{err}");
    // (Test folders are named /tmp/.tmpXXXX: the command's own temporaries end in these.)
    assert!(!err.contains("microfut-tmp") && !err.contains("json.tmp"), "names a temporary file: {err}");
    err
}

fn found(args: &[&str], needles: &[&str]) -> String {
    let o = run(args);
    let (out, err) = (stdout(&o), stderr(&o));
    assert_eq!(o.status.code(), Some(1), "{args:?}: {out}{err}");
    for n in needles {
        assert!(out.contains(n) || err.contains(n), "{args:?}: missing {n:?} in:\n{out}{err}");
    }
    out + &err
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

fn names_in(dir: &Path) -> Vec<String> {
    let mut v: Vec<String> =
        fs::read_dir(dir).unwrap().map(|e| e.unwrap().file_name().into_string().unwrap()).collect();
    v.sort();
    v
}

fn sample_club(id: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("content/microfut/clubs").join(format!("{id}.json"))
}

fn club_copy(dir: &Path, name: &str, edit: impl FnOnce(&mut Value)) -> PathBuf {
    let path = dir.join(format!("{name}.json"));
    fs::copy(sample_club("esporte_clube_mandacaru"), &path).unwrap();
    edit_json(&path, edit);
    path
}

/// A named way to break a file's text.
type Breakage = (&'static str, fn(&str) -> String);
/// A named edit of a JSON document.
type Edit = (&'static str, fn(&mut Value));

// ---- 1. publish and catalog.json ----

#[test]
fn publish_refuses_an_unreadable_catalog_and_writes_nothing() {
    let breakages: [Breakage; 4] = [
        ("a merge-conflict marker", |t| format!("<<<<<<< HEAD\n{t}")),
        ("a duplicate key", |t| {
            t.replacen("\"ruleset\": \"microfut\",", "\"ruleset\": \"microfut\", \"ruleset\": \"microfut\",", 1)
        }),
        ("a truncated file", |t| t[..t.len() / 2].to_string()),
        ("a malformed fingerprint", |t| t.replacen("sha256:", "sha256:zz", 1)),
    ];
    for (what, breakage) in breakages {
        let (_tmp, content) = content_copy();
        let c = s(&content);
        let cat = content.join("microfut/catalog.json");
        let text = fs::read_to_string(&cat).unwrap();
        fs::write(&cat, breakage(&text)).unwrap();
        draft_copy(&content, "0.5.5", "0.5.9");
        edit_json(&content.join("microfut/0.5.9/manifest.json"), |m| m["parent"] = json!("0.5.5"));
        let before = tree_state(&content);
        let err = refused(
            &["publish", "microfut", "0.5.9", "--content", c],
            &["microfut/catalog.json", "nothing was written"],
        );
        assert_eq!(err.lines().count(), 1, "{what}: one line: {err}");
        assert_eq!(tree_state(&content), before, "{what}: publish wrote something");
        // Commands that use a revision refuse too, naming the catalog, with no advice to publish.
        let err = refused(&["resolve", "range", "--set", "power=10", "--content", c], &["microfut/catalog.json"]);
        assert!(!err.contains("publish with"), "{what}: wrong advice: {err}");
        let err = refused(
            &[
                "match",
                "--home",
                "esporte_clube_mandacaru",
                "--away",
                "uniao_pedra_branca",
                "--seed",
                "1",
                "--content",
                c,
            ],
            &["microfut/catalog.json"],
        );
        assert!(!err.contains("publish with"), "{what}: wrong advice: {err}");
    }
}

#[test]
fn a_catalog_naming_a_missing_revision_folder_is_refused_not_skipped() {
    let (_tmp, content) = content_copy();
    let c = s(&content);
    fs::remove_dir_all(content.join("microfut/0.5.4")).unwrap();
    let err =
        refused(&["resolve", "range", "--set", "power=10", "--content", c], &["catalog.json#/published/4", "0.5.4"]);
    assert!(!err.contains("0.5.3"), "fell back to the previous revision: {err}");
    found(&["validate", "--content", c], &["microfut/catalog.json#/published/4", "no folder microfut/0.5.4/"]);
}

// ---- 9. a draft for another engine ----

#[test]
fn a_draft_for_another_engine_fails_validate_and_is_not_published() {
    let (_tmp, content) = content_copy();
    let c = s(&content);
    let draft = draft_copy(&content, "0.5.5", "0.5.9");
    edit_json(&draft.join("manifest.json"), |m| {
        m["parent"] = json!("0.5.5");
        m["engine"] = json!(">=9.0.0");
    });
    found(&["validate", "--content", c], &["microfut/0.5.9/manifest.json#/engine", "requires engine >=9.0.0"]);
    let before = tree_state(&content);
    refused(&["publish", "microfut", "0.5.9", "--content", c], &["microfut 0.5.9", ">=9.0.0", "nothing was written"]);
    assert_eq!(tree_state(&content), before);
}

// ---- 2. outputs of match, train ----

fn match_args<'a>(extra: &[&'a str]) -> Vec<&'a str> {
    let mut v = vec!["match", "--home", "esporte_clube_mandacaru", "--away", "uniao_pedra_branca", "--seed", "2"];
    v.extend_from_slice(extra);
    v
}

#[test]
fn match_outputs_are_checked_up_front_and_leave_nothing_behind() {
    let d = tempfile::tempdir().unwrap();
    let dir = d.path().join("a folder");
    fs::create_dir(&dir).unwrap();
    let run_json = d.path().join("run.json");
    refused(&match_args(&["--out", s(&dir)]), &["cannot write", "a folder", "it is a folder"]);
    refused(&match_args(&["--decisions", s(&dir), "--out", s(&run_json)]), &["it is a folder"]);
    assert_eq!(names_in(d.path()), ["a folder"], "files left behind");
    assert!(names_in(&dir).is_empty());
    // The same file for two outputs, even spelt differently, is refused before playing.
    let dotted = d.path().join(".").join("run.json");
    refused(&match_args(&["--out", s(&run_json), "--decisions", s(&dotted)]), &["same file"]);
    assert_eq!(names_in(d.path()), ["a folder"]);
    // An output over an input (the club played) is refused; the club is intact.
    let club = d.path().join("club.json");
    fs::copy(sample_club("esporte_clube_mandacaru"), &club).unwrap();
    let before = fs::read(&club).unwrap();
    refused(
        &["match", "--home", s(&club), "--away", "uniao_pedra_branca", "--seed", "2", "--out", s(&club)],
        &["--out", "--home", "destroy an input"],
    );
    assert_eq!(fs::read(&club).unwrap(), before);
    // A missing folder is named; nothing is written.
    let nowhere = d.path().join("nowhere/run.json");
    refused(&match_args(&["--out", s(&nowhere)]), &["does not exist"]);
    // Both outputs are written when all is well.
    let log = d.path().join("log.json");
    let o = run(&match_args(&["--out", s(&run_json), "--decisions", s(&log)]));
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(names_in(d.path()), ["a folder", "club.json", "log.json", "run.json"]);
}

#[test]
fn train_writes_through_a_symbolic_link_and_keeps_the_mode() {
    use std::os::unix::fs::PermissionsExt;
    let d = tempfile::tempdir().unwrap();
    let real = d.path().join("real.json");
    fs::copy(Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/sheets/youth.json"), &real).unwrap();
    fs::set_permissions(&real, fs::Permissions::from_mode(0o600)).unwrap();
    let link = d.path().join("link.json");
    std::os::unix::fs::symlink("real.json", &link).unwrap();
    let o = run(&["train", s(&link), "--xp", "passing=400", "--revision", "0.5.1"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(fs::symlink_metadata(&link).unwrap().file_type().is_symlink(), "the link was replaced");
    let trained: Value = serde_json::from_slice(&fs::read(&real).unwrap()).unwrap();
    assert!(trained["progression"]["channels"]["passing"].is_object(), "the linked file was not trained");
    assert_eq!(fs::metadata(&real).unwrap().permissions().mode() & 0o777, 0o600);
    assert_eq!(names_in(d.path()), ["link.json", "real.json"]);
    // A failed write names the file asked for, never a temporary one.
    let err = refused(
        &["train", s(&real), "--xp", "passing=400", "--revision", "0.5.1", "--out", s(&d.path().join("no/x.json"))],
        &["cannot write", "no/x.json", "does not exist"],
    );
    assert!(!err.contains("microfut-tmp") && !err.contains("json.tmp"), "{err}");
}

// ---- 3. every command that reads a club checks it as `club validate` does ----

#[test]
fn every_command_that_plays_a_club_checks_it_first() {
    let d = tempfile::tempdir().unwrap();
    let cases: Vec<(PathBuf, &str)> = vec![
        // security −100 panicked the engine (an empty candidate list).
        (
            club_copy(d.path(), "security", |c| c["personality"]["security"] = json!(-100)),
            "#/personality/security: -100 is outside -3..3",
        ),
        (
            club_copy(d.path(), "verticality", |c| c["personality"]["verticality"] = json!(99)),
            "#/personality/verticality: 99 is outside",
        ),
        (
            club_copy(d.path(), "confidence", |c| c["squad"][0]["personality"]["confidence"] = json!(1000)),
            "#/squad/0/personality/confidence",
        ),
        (
            club_copy(d.path(), "identity", |c| c["identity"] = json!("tiki_taka")),
            "#/identity: unknown identity 'tiki_taka'",
        ),
        (club_copy(d.path(), "blank", |c| c["name"] = json!("   ")), "#/name: a club needs a name"),
        (club_copy(d.path(), "stranger", |c| c["squad"][3]["club"] = json!("Outro Clube")), "#/squad/3/club"),
    ];
    for (path, needle) in &cases {
        let f = s(path);
        let located = format!("{f}{needle}");
        found(&["club", "validate", f], &[needle]);
        let err = refused(&["match", "--home", f, "--away", "uniao_pedra_branca", "--seed", "2"], &[&located]);
        assert_eq!(err.lines().count(), 1, "{err}");
        refused(&["match", "--home", "uniao_pedra_branca", "--away", f, "--seed", "2"], &[&located]);
        refused(&["lab", "microfut", "--matches", "2", "--seed", "1", "--quiet", "--home", f], &[&located]);
        refused(
            &["lab", "microfut", "--matches", "2", "--seed", "1", "--quiet", "--away", f, "--against", "0.5.3"],
            &[&located],
        );
        refused(&["lab", "calibrate", "--matches", "2", "--club", f], &[&located]);
    }
}

// ---- 8. lab merge trusts no number it cannot have produced ----

#[test]
fn lab_merge_checks_counts_and_sums() {
    let d = tempfile::tempdir().unwrap();
    let shard = |i: usize| d.path().join(format!("s{i}.json"));
    for i in 0..2 {
        let o = run(&[
            "lab",
            "trilha",
            "--games",
            "1000",
            "--seed",
            "1",
            "--quiet",
            "--shard",
            &format!("{i}/2"),
            "--out",
            s(&shard(i)),
        ]);
        assert!(o.status.success(), "{}", stderr(&o));
    }
    assert!(run(&["lab", "merge", s(&shard(0)), s(&shard(1))]).status.success());
    let original = fs::read(shard(0)).unwrap();
    let edits: [Edit; 4] = [
        ("/accumulators/0/n", |v| v["accumulators"][0]["n"] = json!(499)),
        ("/accumulators/0/values/0", |v| v["accumulators"][0]["values"][0] = json!("-555555527")),
        ("/accumulators/1/values/0", |v| v["accumulators"][1]["values"][0] = json!("999999999")),
        ("/accumulators/0/values/1", |v| v["accumulators"][0]["values"][1] = json!("1")),
    ];
    for (pointer, edit) in edits {
        fs::write(shard(0), &original).unwrap();
        edit_json(&shard(0), edit);
        let err =
            refused(&["lab", "merge", s(&shard(0)), s(&shard(1))], &[&format!("{}#{pointer}", shard(0).display())]);
        assert_eq!(err.lines().count(), 1, "{err}");
    }
    // An output over one of the shards is refused before anything is read or written.
    fs::write(shard(0), &original).unwrap();
    refused(&["lab", "merge", s(&shard(0)), s(&shard(1)), "--csv", s(&shard(1))], &["destroy an input"]);
    assert_eq!(fs::read(shard(0)).unwrap(), original);
}

// ---- 11. replay checks every field of the record ----

fn corpus_run() -> Value {
    let p = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/runs/ferroviario-vale_do_sol-3-human.run.json");
    serde_json::from_slice(&fs::read(p).unwrap()).unwrap()
}

fn edited_run(dir: &Path, name: &str, edit: impl FnOnce(&mut Value)) -> PathBuf {
    let mut v = corpus_run();
    edit(&mut v);
    let p = dir.join(name);
    fs::write(&p, serde_json::to_string(&v).unwrap()).unwrap();
    p
}

#[test]
fn replay_blames_the_record_for_every_edited_field() {
    let d = tempfile::tempdir().unwrap();
    let r = edited_run(d.path(), "same.json", |_| {});
    assert!(run(&["replay", s(&r)]).status.success());

    let r = edited_run(d.path(), "late.json", |v| {
        v["intents"].as_array_mut().unwrap().push(json!({"round": 1_000_000_000u32, "kind": "shoot"}));
    });
    found(&["replay", s(&r)], &[&format!("{}#/intents", r.display()), "edited", "round 1000000000"]);

    // An intent at a round where the person had no decision (between two recorded ones).
    let r = edited_run(d.path(), "between.json", |v| {
        let i = v["intents"].as_array_mut().unwrap();
        let rounds: Vec<u64> = i.iter().map(|x| x["round"].as_u64().unwrap()).collect();
        let k = rounds.windows(2).position(|w| w[1] > w[0] + 1).expect("a gap between decisions");
        i.insert(k + 1, json!({"round": rounds[k] + 1, "kind": "shoot"}));
    });
    found(&["replay", s(&r)], &[&format!("{}#/intents", r.display()), "had no decision"]);
    // Two intents in one round.
    let r = edited_run(d.path(), "twice.json", |v| {
        let i = v["intents"].as_array_mut().unwrap();
        let first = i[0].clone();
        i.insert(1, first);
    });
    refused(&["replay", s(&r)], &[&format!("{}#/intents/1/round", r.display())]);

    let r = edited_run(d.path(), "engine.json", |v| v["engine_version"] = json!("9.9.9"));
    refused(&["replay", s(&r)], &[&format!("{}#/engine_version", r.display()), "9.9.9"]);
    let r = edited_run(d.path(), "engine2.json", |v| v["engine_version"] = json!("banana"));
    refused(&["replay", s(&r)], &[&format!("{}#/engine_version", r.display())]);

    let r = edited_run(d.path(), "human.json", |v| v["human"] = json!("both"));
    refused(&["replay", s(&r)], &[&format!("{}#/human", r.display())]);

    let r =
        edited_run(d.path(), "fingerprint.json", |v| v["fingerprint"] = json!(format!("sha256:{}", "0".repeat(64))));
    let err = refused(&["replay", s(&r)], &[&format!("{}#/fingerprint", r.display()), "the record was edited"]);
    assert!(!err.contains("the content changed"), "{err}");

    let r = edited_run(d.path(), "revision.json", |v| v["revision"] = json!("0.9.9"));
    refused(&["replay", s(&r)], &[&format!("{}#/revision", r.display())]);

    let r = edited_run(d.path(), "club.json", |v| v["home"]["personality"]["security"] = json!(-100));
    refused(&["replay", s(&r)], &[&format!("{}#/home/personality/security", r.display())]);

    let r = edited_run(d.path(), "formation.json", |v| v["formations"][1] = json!("1-1-8"));
    refused(&["replay", s(&r)], &[&format!("{}#/formations/1", r.display())]);

    let r = edited_run(d.path(), "hash.json", |v| v["round_hashes"][100] = json!("0123456789abcdef"));
    found(&["replay", s(&r)], &[&format!("{}#/round_hashes", r.display()), "round 100"]);

    let r = edited_run(d.path(), "score.json", |v| v["score"][0] = json!(9));
    let out = found(&["replay", s(&r)], &[&format!("{}#/score", r.display()), "edited"]);
    assert!(!out.contains("content"), "{out}");

    let r = edited_run(d.path(), "type.json", |v| v["seed"] = json!("three"));
    refused(&["replay", s(&r)], &[&format!("{}#/seed", r.display())]);
}

// ---- 12. banked XP agrees with the record ----

#[test]
fn banked_xp_must_agree_with_the_progression_record() {
    let d = tempfile::tempdir().unwrap();
    let sheet = d.path().join("youth.json");
    fs::copy(Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/sheets/youth.json"), &sheet).unwrap();
    edit_json(&sheet, |s| {
        s["progression"] =
            json!({"channels": {"passing": {"raw": "0", "applied": "0", "banked": "100000"}}, "history": []})
    });
    let before = fs::read(&sheet).unwrap();
    let needle = format!("{}#/progression/channels/passing/banked", sheet.display());
    refused(&["train", s(&sheet), "--xp", "passing=1", "--revision", "0.5.1"], &[&needle]);
    assert_eq!(fs::read(&sheet).unwrap(), before);
    refused(&["sheet", s(&sheet), "--revision", "0.5.1"], &[&needle]);
    // A record the sessions wrote is consistent, however many sessions.
    let fresh = d.path().join("fresh.json");
    fs::copy(Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/sheets/youth.json"), &fresh).unwrap();
    for xp in ["passing=4000", "passing=900", "speed=40", "control=3000"] {
        let o = run(&["train", s(&fresh), "--xp", xp, "--revision", "0.5.1"]);
        assert!(o.status.success(), "{}", stderr(&o));
    }
    let o = run(&["sheet", s(&fresh), "--revision", "0.5.1"]);
    assert!(o.status.success(), "{}", stderr(&o));
}

// ---- 13. a value given for a derived input ----

#[test]
fn resolve_uses_or_refuses_every_value_given() {
    let err = refused(&["resolve", "range", "--set", "range=3"], &["range is what pipeline 'range' computes", "power"]);
    assert_eq!(err.lines().count(), 1);
    // A derived input given to a pipeline that reads it: used as given, and said so.
    let base = [
        "resolve",
        "pass",
        "--set",
        "dx=14",
        "--set",
        "passing=15",
        "--set",
        "control=13",
        "--set",
        "distance=18",
        "--set",
        "iq=10",
    ];
    let tail = ["--set", "orientation=30", "--set", "nearest_opponent=4", "--json"];
    let mut a: Vec<&str> = base.to_vec();
    a.extend(["--set", "range=40"]);
    a.extend(tail);
    let o = run(&a);
    assert!(o.status.success(), "{}", stderr(&o));
    let v: Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["given_derived_inputs"]["range"], 40);
    // Its inputs given as well would be ignored: refused.
    a.extend(["--set", "st=11"]);
    refused(&a, &["st = 11 would not be used", "range"]);
    // A value the pipeline does not read at all.
    refused(&["resolve", "range", "--set", "power=10", "--set", "goalkeeping=12"], &["does not read goalkeeping"]);
}

// ---- 14. budgets are exact ----

#[test]
fn a_budget_of_u64_max_is_exact() {
    let d = tempfile::tempdir().unwrap();
    let club = club_copy(d.path(), "rich", |c| c["budget"] = json!(u64::MAX));
    let o = run(&["club", "validate", s(&club), "--json"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let v: Value = serde_json::from_slice(&o.stdout).unwrap();
    let total = v["report"]["total_net"].as_u64().unwrap();
    let left = u64::MAX - total;
    assert_eq!(v["report"]["left"], json!(left.to_string()));
    let o = run(&["club", "validate", s(&club)]);
    let grouped = |n: u64| {
        let d = n.to_string();
        let mut out = String::new();
        for (i, c) in d.chars().enumerate() {
            if i > 0 && (d.len() - i).is_multiple_of(3) {
                out.push(',');
            }
            out.push(c);
        }
        out
    };
    assert!(stdout(&o).contains(&format!("({} left)", grouped(left))), "{}", stdout(&o));
}

// ---- 16. messages ----

#[test]
fn a_json_array_where_an_object_belongs_is_named_as_such() {
    let d = tempfile::tempdir().unwrap();
    let arr = d.path().join("array.json");
    fs::write(&arr, "[]").unwrap();
    let a = s(&arr);
    for args in [
        vec!["club", "validate", a],
        vec!["sheet", a],
        vec!["train", a, "--xp", "passing=1"],
        vec!["match", "--home", a, "--away", "uniao_pedra_branca", "--seed", "1"],
        vec!["replay", a],
    ] {
        let err = refused(&args, &[a, "found an array"]);
        assert!(!err.contains("$schema"), "{args:?}: {err}");
    }
    let obj = d.path().join("object.json");
    fs::write(&obj, "{}").unwrap();
    refused(
        &match_args(&["--human", "home", "--intents", s(&obj)]),
        &[s(&obj), "expected a JSON array of intents", "found an object"],
    );
    // A content document that is an array.
    let (_tmp, content) = content_copy();
    fs::write(content.join("microfut/0.5.4/tables.json"), "[]").unwrap();
    let out = found(&["validate", "--content", s(&content)], &["microfut/0.5.4/tables.json: expected a JSON object"]);
    assert!(!out.contains("missing \"$schema\""), "{out}");
}

#[test]
fn intent_refusals_name_the_intents_file_and_the_intent() {
    let d = tempfile::tempdir().unwrap();
    let intents = d.path().join("intents.json");
    fs::write(&intents, r#"[{"kind": "carry", "target": -30}, {"kind": "pass", "target": 99}]"#).unwrap();
    let home =
        ["match", "--home", "ferroviario_juazeiro", "--away", "atletico_vale_do_sol", "--seed", "3", "--human", "home"];
    let mut a = home.to_vec();
    a.extend(["--intents", s(&intents)]);
    let err = refused(&a, &[&format!("{}#/1", intents.display()), "pass #99", "round"]);
    assert_eq!(err.lines().count(), 1, "{err}");
    fs::write(&intents, r#"[{"kind": "carry", "target": -30}, {"kind": "fly"}]"#).unwrap();
    refused(&a, &[&format!("{}#/1/kind", intents.display())]);
    fs::write(&intents, r#"[{"kind": "carry", "target": -30}, []]"#).unwrap();
    refused(&a, &[&format!("{}#/1", intents.display()), "found an array"]);
}

#[test]
fn the_engine_itself_refuses_a_personality_outside_the_scale() {
    // Library callers (a server) get an error, not a panic mid-match.
    let rules = engine_rules();
    let mut home = fixture_club("test_home");
    home.personality.security = -100;
    let away = fixture_club("test_away");
    let e = microfut::engine::Match::new(rules, &home, &away, 2, Default::default()).err().expect("refused");
    assert!(e.to_string().contains("/personality/security: -100 is outside -3..3"), "{e}");
}

#[test]
fn a_control_character_echoed_from_a_file_keeps_the_problem_on_one_line() {
    // Found by the fuzz targets: a key holding a newline split one problem over two lines.
    let d = tempfile::tempdir().unwrap();
    let intents = d.path().join("intents.json");
    fs::write(&intents, r#"[{"ki\nd": "shoot"}]"#).unwrap();
    let err = refused(
        &match_args(&["--human", "home", "--intents", s(&intents)]),
        &[&format!("{}#/0/ki\\nd", intents.display())],
    );
    assert_eq!(err.lines().count(), 1, "{err}");
    let sheet = d.path().join("sheet.json");
    fs::copy(Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/sheets/youth.json"), &sheet).unwrap();
    edit_json(&sheet, |v| v["skills"]["goal\nkeeping"] = json!(10));
    let err = refused(&["sheet", s(&sheet), "--revision", "0.5.1"], &["goal\\nkeeping"]);
    assert!(err.lines().all(|l| l.starts_with("error: ")), "{err}");
}
