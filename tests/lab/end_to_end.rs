//! `microfut lab` end to end: tables, JSON, CSV, determinism across threads and shards, A/B
//! comparison, and bad input refused with nothing written.

use crate::common;
use common::*;
use serde_json::{Value, json};
use std::path::{Path, PathBuf};

const SMALL: &[&str] = &["lab", "trilha", "--games", "3000", "--seed", "7", "--quiet"];

fn ok(args: &[&str]) -> String {
    let o = run(args);
    assert!(o.status.success(), "{args:?} failed: {}", stderr(&o));
    stdout(&o)
}

fn json_of(args: &[&str]) -> Value {
    serde_json::from_str(&ok(args)).expect("stdout is JSON")
}

fn with(base: &[&str], more: &[&str]) -> Vec<String> {
    base.iter().chain(more).map(|s| s.to_string()).collect()
}

fn strs(v: &[String]) -> Vec<&str> {
    v.iter().map(String::as_str).collect()
}

/// A content copy with a draft Trilha revision 1.0.1 (a copy of 1.0.0) edited by `edit`, which
/// receives the revision folder.
fn draft(edit: impl FnOnce(&Path)) -> (tempfile::TempDir, PathBuf) {
    let (tmp, content) = content_copy();
    let dir = content.join("trilha/1.0.1");
    copy_dir(&content.join("trilha/1.0.0"), &dir);
    edit_json(&dir.join("manifest.json"), |m| {
        m["version"] = json!("1.0.1");
        m["parent"] = json!("1.0.0");
        m["status"] = json!("draft");
        m["change_note"] = json!("test draft");
    });
    edit(&dir);
    (tmp, content)
}

#[test]
fn the_table_for_people() {
    insta::assert_snapshot!("trilha_table_en", ok(SMALL));
    insta::assert_snapshot!("trilha_table_pt_br", ok(&strs(&with(SMALL, &["--lang", "pt-BR"]))));
}

#[test]
fn json_has_shares_as_fractions_and_rounds_per_scenario() {
    let v = json_of(&strs(&with(SMALL, &["--json"])));
    assert_eq!(v["ruleset"], "trilha");
    assert_eq!(v["simulations"], 3000);
    assert_eq!(v["seed"], 7);
    let ids: Vec<&str> = v["scenarios"].as_array().unwrap().iter().map(|s| s["id"].as_str().unwrap()).collect();
    assert_eq!(ids, ["A", "B", "C", "D", "E", "F", "G", "H"]);
    for s in v["scenarios"].as_array().unwrap() {
        let shares: Vec<f64> = s["win_share"].as_array().unwrap().iter().map(|x| x.as_f64().unwrap()).collect();
        assert_eq!(shares.len(), 3);
        assert!((shares.iter().sum::<f64>() - 1.0).abs() < 1e-12, "{}: {shares:?}", s["id"]);
        for (i, share) in shares.iter().enumerate() {
            let ci = &s["win_share_ci95"][i];
            assert!(ci[0].as_f64().unwrap() <= *share && *share <= ci[1].as_f64().unwrap());
        }
        let r = s["mean_rounds"].as_f64().unwrap();
        assert!(r > 1.0 && r < 30.0, "{r}");
        assert!(s["mean_rounds_ci95"][0].as_f64().unwrap() < r);
        assert!(s["fingerprint"].as_str().unwrap().starts_with("sha256:"));
    }
    // G is the revision itself; the others are patched, so their fingerprints differ.
    let g = &v["scenarios"][6];
    assert_eq!(g["fingerprint"], v["revision"]["fingerprint"]);
    assert_ne!(v["scenarios"][0]["fingerprint"], g["fingerprint"]);
    // Only "complete the round" can end in a tie.
    assert_eq!(v["scenarios"][2]["shared_wins"], 0.0);
    assert!(g["shared_wins"].as_f64().unwrap() > 0.0);
}

#[test]
fn same_command_same_numbers_whatever_the_thread_count() {
    let one = ok(&strs(&with(SMALL, &["--json", "--threads", "1"])));
    let two = ok(&strs(&with(SMALL, &["--json", "--threads", "2"])));
    let five = ok(&strs(&with(SMALL, &["--json", "--threads", "5"])));
    let default = ok(&strs(&with(SMALL, &["--json"])));
    assert_eq!(one, two);
    assert_eq!(one, five);
    assert_eq!(one, default);
    let other_seed = ok(&["lab", "trilha", "--games", "3000", "--seed", "8", "--quiet", "--json"]);
    assert_ne!(one, other_seed, "the seed matters");
}

/// Runs `base` as `n` shards into `dir` and returns the shard files.
fn shards(base: &[String], n: u32, dir: &Path) -> Vec<String> {
    (0..n)
        .map(|i| {
            let file = dir.join(format!("part-{i}.json")).display().to_string();
            let spec = format!("{i}/{n}");
            let o = run(&strs(&with(&strs(base), &["--shard", &spec, "--out", &file])));
            assert!(o.status.success(), "shard {spec}: {}", stderr(&o));
            file
        })
        .collect()
}

#[test]
fn merged_shards_print_exactly_what_one_machine_prints() {
    let tmp = tempfile::tempdir().unwrap();
    let base = with(SMALL, &[]);
    let files = shards(&base, 3, tmp.path());
    let merge = |extra: &[&str], order: &[usize]| {
        let mut args = vec!["lab".to_string(), "merge".into()];
        args.extend(order.iter().map(|&i| files[i].clone()));
        args.extend(extra.iter().map(|s| s.to_string()));
        ok(&strs(&args))
    };
    assert_eq!(merge(&[], &[0, 1, 2]), ok(SMALL), "markdown table");
    assert_eq!(merge(&[], &[2, 0, 1]), ok(SMALL), "any order of files");
    assert_eq!(merge(&["--json"], &[1, 2, 0]), ok(&strs(&with(SMALL, &["--json"]))), "JSON");
    assert_eq!(merge(&["--lang", "pt-BR"], &[0, 1, 2]), ok(&strs(&with(SMALL, &["--lang", "pt-BR"]))));

    let (single_csv, merged_csv) = (tmp.path().join("single.csv"), tmp.path().join("merged.csv"));
    ok(&strs(&with(SMALL, &["--csv", single_csv.to_str().unwrap()])));
    merge(&["--csv", merged_csv.to_str().unwrap()], &[0, 1, 2]);
    assert_eq!(std::fs::read(&single_csv).unwrap(), std::fs::read(&merged_csv).unwrap(), "CSV");

    let (single_html, merged_html) = (tmp.path().join("single.html"), tmp.path().join("merged.html"));
    ok(&strs(&with(SMALL, &["--html", single_html.to_str().unwrap()])));
    merge(&["--html", merged_html.to_str().unwrap()], &[2, 1, 0]);
    assert_eq!(std::fs::read(&single_html).unwrap(), std::fs::read(&merged_html).unwrap(), "HTML report");
}

#[test]
fn more_shards_than_games_still_merge() {
    let tmp = tempfile::tempdir().unwrap();
    let base = with(&["lab", "trilha", "--games", "3", "--seed", "1", "--quiet", "--scenario", "G"], &[]);
    let files = shards(&base, 5, tmp.path());
    let mut args = vec!["lab".to_string(), "merge".into()];
    args.extend(files);
    assert_eq!(ok(&strs(&args)), ok(&strs(&base)));
}

#[test]
fn a_shard_file_carries_the_command_and_exact_sums() {
    let tmp = tempfile::tempdir().unwrap();
    let file = tmp.path().join("s.json");
    let o = run(&strs(&with(SMALL, &["--scenario", "G", "--shard", "1/4", "--out", file.to_str().unwrap()])));
    assert!(o.status.success(), "{}", stderr(&o));
    let v: Value = serde_json::from_slice(&std::fs::read(&file).unwrap()).unwrap();
    assert_eq!(v["format"], "microfut-lab-shard/1");
    assert_eq!(v["shard"], json!({"index": 1, "count": 4}));
    assert_eq!(v["identity"]["seed"], 7);
    assert_eq!(v["identity"]["simulations"], 3000);
    assert_eq!(v["identity"]["revision"]["version"], "1.0.0");
    assert_eq!(v["accumulators"][0]["scenario"], "G");
    assert_eq!(v["accumulators"][0]["n"], 750);
    // Win shares are counted in sixths: every game hands out exactly 6 sixths.
    let sums: Vec<i128> = v["accumulators"][0]["values"]
        .as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_str().unwrap().parse().unwrap())
        .collect();
    assert_eq!(sums[0] + sums[2] + sums[4], 750 * 6);
}

#[test]
fn a_shard_without_out_is_named_by_its_slice() {
    let tmp = tempfile::tempdir().unwrap();
    let o = std::process::Command::new(bin())
        .current_dir(tmp.path())
        .args(["lab", "trilha", "--games", "10", "--seed", "1", "--shard", "0/2", "--quiet"])
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(tmp.path().join("lab-shard-0-of-2.json").is_file());
}

#[test]
fn scenarios_can_be_chosen_and_keep_their_order() {
    let v = json_of(&["lab", "trilha", "--games", "50", "--seed", "1", "--quiet", "--json", "--scenario", "D,A"]);
    let ids: Vec<&str> = v["scenarios"].as_array().unwrap().iter().map(|s| s["id"].as_str().unwrap()).collect();
    assert_eq!(ids, ["A", "D"]);
    let v = json_of(&[
        "lab",
        "trilha",
        "--games",
        "50",
        "--seed",
        "1",
        "--quiet",
        "--json",
        "--scenario",
        "H",
        "--scenario",
        "G",
    ]);
    assert_eq!(v["scenarios"].as_array().unwrap().len(), 2);
    // A scenario gets the same numbers alone or among others: its dice depend on its id only.
    let alone = json_of(&["lab", "trilha", "--games", "50", "--seed", "1", "--quiet", "--json", "--scenario", "D"]);
    let among = json_of(&["lab", "trilha", "--games", "50", "--seed", "1", "--quiet", "--json", "--scenario", "A,D"]);
    assert_eq!(alone["scenarios"][0], among["scenarios"][1]);
}

#[test]
fn matches_is_the_same_option_as_games() {
    let a = ok(&["lab", "trilha", "--games", "20", "--seed", "3", "--quiet", "--scenario", "G"]);
    let b = ok(&["lab", "trilha", "--matches", "20", "--seed", "3", "--quiet", "--scenario", "G"]);
    assert_eq!(a, b);
}

#[test]
fn a_revision_against_itself_differs_by_exactly_zero() {
    let v = json_of(&strs(&with(SMALL, &["--against", "1.0.0", "--json"])));
    assert_eq!(v["against"]["version"], "1.0.0");
    for s in v["scenarios"].as_array().unwrap() {
        assert_eq!(s["win_share"]["revision"], s["win_share"]["against"]);
        assert_eq!(s["win_share"]["difference"], json!([0.0, 0.0, 0.0]));
        assert_eq!(s["mean_rounds"]["difference_ci95"], json!([0.0, 0.0]));
    }
}

#[test]
fn ab_mode_finds_a_rule_change_and_its_confidence_interval() {
    // 1.0.1 gives every tie to the earlier seat instead of sharing it.
    let (_tmp, content) = draft(|d| edit_json(&d.join("play.json"), |p| p["ties"] = json!("earlier_seat")));
    let c = content.to_str().unwrap();
    let base = ["lab", "trilha", "--content", c, "--games", "20000", "--seed", "5", "--quiet", "--scenario", "C,G"];
    let v = json_of(&strs(&with(&base, &["--revision", "1.0.1", "--against", "1.0.0", "--json"])));
    let (c_scn, g) = (&v["scenarios"][0], &v["scenarios"][1]);
    // C ends at the first pawn to finish, so ties never happen: no difference at all.
    assert_eq!(c_scn["win_share"]["difference"], json!([0.0, 0.0, 0.0]));
    // G: player 1 gains what player 3 loses, and the interval says it is not noise.
    let d1 = g["win_share"]["difference"][0].as_f64().unwrap();
    let ci1 = &g["win_share"]["difference_ci95"][0];
    assert!(d1 > 0.0 && ci1[0].as_f64().unwrap() > 0.0, "{g}");
    let d3 = g["win_share"]["difference"][2].as_f64().unwrap();
    assert!(d3 < 0.0 && g["win_share"]["difference_ci95"][2][1].as_f64().unwrap() < 0.0);
    // Same dice, same games: the length does not change.
    assert_eq!(g["mean_rounds"]["difference"], 0.0);
    assert_eq!(g["shared_wins"]["revision"], 0.0);

    let table = ok(&strs(&with(&base, &["--revision", "1.0.1", "--against", "1.0.0"])));
    assert!(table.contains("against 1.0.0"), "{table}");
    let p1 = table.lines().find(|l| l.contains("G ·") && l.contains("Player 1")).expect("row for G, player 1");
    assert!(p1.trim_end().ends_with("* |"), "significant difference marked: {p1}");

    // A/B runs shard and merge like any other run.
    let tmp = tempfile::tempdir().unwrap();
    let ab = with(&base, &["--revision", "1.0.1", "--against", "1.0.0"]);
    let files = shards(&ab, 2, tmp.path());
    let mut args = vec!["lab".to_string(), "merge".into()];
    args.extend(files);
    assert_eq!(ok(&strs(&args)), table);
}

#[test]
fn progress_and_timing_stay_off_stdout() {
    let o = run(&["lab", "trilha", "--games", "10", "--seed", "1", "--scenario", "G"]);
    assert!(o.status.success());
    let err = stderr(&o);
    // Not a terminal: no bar, only the timing line.
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.contains("10 games in"), "{err}");
    let quiet = run(&["lab", "trilha", "--games", "10", "--seed", "1", "--scenario", "G", "--quiet"]);
    assert!(stderr(&quiet).is_empty());
    assert_eq!(stdout(&o), stdout(&quiet));
}

#[test]
fn csv_has_a_line_per_scenario_and_value() {
    let tmp = tempfile::tempdir().unwrap();
    let file = tmp.path().join("out.csv");
    ok(&strs(&with(SMALL, &["--csv", file.to_str().unwrap()])));
    let text = std::fs::read_to_string(&file).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines[0], "scenario,metric,part,simulations,mean,ci95_low,ci95_high,std_error,label");
    assert_eq!(lines.len(), 1 + 8 * 5);
    assert!(lines[1].starts_with("A,win_share,p1,3000,"), "{}", lines[1]);
    assert!(lines.iter().any(|l| l.starts_with("G,mean_rounds,,3000,")));
}

/// A bad invocation: exit 2, a clear message on stderr, nothing on stdout.
fn refused(args: &[&str], needle: &str) -> String {
    let o = run(args);
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
    assert!(err.contains(needle), "{args:?}: expected '{needle}' in: {err}");
    assert!(stdout(&o).is_empty(), "{args:?} printed to stdout: {}", stdout(&o));
    assert!(!err.contains("panicked"), "{err}");
    err
}

#[test]
fn microfut_refuses_a_revision_without_match_content() {
    refused(
        &["lab", "microfut", "--matches", "10", "--seed", "1", "--revision", "0.5.0"],
        "which the match engine needs",
    );
}

#[test]
fn unknown_ruleset() {
    refused(
        &["lab", "chess", "--games", "10", "--seed", "1"],
        "unknown ruleset 'chess' (rulesets with a lab simulator: effects, microfut, space, trilha)",
    );
}

#[test]
fn unknown_scenario_is_named_with_the_known_ones() {
    refused(&["lab", "trilha", "--games", "10", "--seed", "1", "--home", "x"], "trilha has no clubs");
    let err = refused(&["lab", "trilha", "--games", "10", "--seed", "1", "--scenario", "Z"], "unknown scenario 'Z'");
    assert!(err.contains("A, B, C, D, E, F, G, H"), "{err}");
    refused(&["lab", "trilha", "--games", "10", "--seed", "1", "--scenario", "g"], "did you mean 'G'?");
}

#[test]
fn simulations_must_be_positive() {
    refused(&["lab", "trilha", "--games", "0", "--seed", "1"], "must be at least 1, got 0");
    refused(&["lab", "trilha", "--games", "-5", "--seed", "1"], "must be at least 1, got -5");
    refused(&["lab", "trilha", "--matches", "many", "--seed", "1"], "'many' is not a whole number");
    let o = run(&["lab", "trilha", "--seed", "1"]);
    assert_eq!(o.status.code(), Some(2), "--games is required");
}

#[test]
fn bad_shard_specs() {
    refused(
        &["lab", "trilha", "--games", "10", "--seed", "1", "--shard", "4/4"],
        "--shard '4/4': shards are numbered from 0 to n-1",
    );
    refused(&["lab", "trilha", "--games", "10", "--seed", "1", "--shard", "1"], "expected i/n");
    refused(&["lab", "trilha", "--games", "10", "--seed", "1", "--shard", "0/2", "--json"], "cannot be used with");
}

#[test]
fn an_overlay_that_breaks_the_rules_is_located_in_the_scenarios_document() {
    // Scenario E moves player 3's start past the finish.
    let (tmp, content) = draft(|d| {
        edit_json(&d.join("scenarios.json"), |s| {
            s["scenarios"][4]["overlay"]["play.json"]["seats"]["p3"]["start"] = json!(40)
        })
    });
    let c = content.to_str().unwrap();
    let csv = tmp.path().join("out.csv");
    let before = tree_state(tmp.path());
    let err = refused(
        &[
            "lab",
            "trilha",
            "--content",
            c,
            "--revision",
            "1.0.1",
            "--games",
            "10",
            "--seed",
            "1",
            "--csv",
            csv.to_str().unwrap(),
        ],
        "trilha/1.0.1/scenarios.json#/scenarios/4/overlay/play.json/seats/p3/start: scenario E makes play.json#/seats/p3/start invalid: start square 40 is at or beyond the finish 30",
    );
    assert!(err.contains("scenario overlays of trilha 1.0.1 make it invalid (1 problem(s))"), "{err}");
    assert_eq!(tree_state(tmp.path()), before, "nothing written");

    // validate reports the same problem (exit 1), located the same way.
    let o = run(&["validate", "--content", c]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stdout(&o).contains("scenarios.json#/scenarios/4/overlay/play.json/seats/p3/start"), "{}", stdout(&o));
}

#[test]
fn an_overlay_that_breaks_a_schema_is_located_too() {
    let (_tmp, content) = draft(|d| {
        edit_json(&d.join("scenarios.json"), |s| {
            s["scenarios"][0]["overlay"]["play.json"]["dice"]["count"] = json!("two")
        })
    });
    refused(
        &[
            "lab",
            "trilha",
            "--content",
            content.to_str().unwrap(),
            "--revision",
            "1.0.1",
            "--games",
            "10",
            "--seed",
            "1",
        ],
        "scenarios.json#/scenarios/0/overlay/play.json/dice/count: scenario A makes play.json#/dice/count invalid: schema:",
    );
}

#[test]
fn malformed_overlays_are_refused() {
    // Naming a document the revision does not have.
    let (_tmp, content) = draft(|d| {
        edit_json(&d.join("scenarios.json"), |s| s["scenarios"][1]["overlay"] = json!({"rules.json": {"x": 1}}))
    });
    refused(
        &[
            "lab",
            "trilha",
            "--content",
            content.to_str().unwrap(),
            "--revision",
            "1.0.1",
            "--games",
            "10",
            "--seed",
            "1",
        ],
        "scenarios.json#/scenarios/1/overlay/rules.json: overlay names rules.json, which is not a document of trilha 1.0.1",
    );
    // An overlay that is not an object of merge patches.
    let (_tmp, content) =
        draft(|d| edit_json(&d.join("scenarios.json"), |s| s["scenarios"][1]["overlay"] = json!([1, 2])));
    refused(
        &[
            "lab",
            "trilha",
            "--content",
            content.to_str().unwrap(),
            "--revision",
            "1.0.1",
            "--games",
            "10",
            "--seed",
            "1",
        ],
        "trilha/1.0.1/scenarios.json#/scenarios/1/overlay: schema:",
    );
    // Two scenarios with one id.
    let (_tmp, content) = draft(|d| edit_json(&d.join("scenarios.json"), |s| s["scenarios"][1]["id"] = json!("A")));
    refused(
        &[
            "lab",
            "trilha",
            "--content",
            content.to_str().unwrap(),
            "--revision",
            "1.0.1",
            "--games",
            "10",
            "--seed",
            "1",
        ],
        "scenarios.json#/scenarios/1/id: scenario 'A' declared twice",
    );
}

#[test]
fn shards_of_different_commands_do_not_merge() {
    let tmp = tempfile::tempdir().unwrap();
    let a = shards(&with(SMALL, &["--scenario", "G"]), 2, &tmp.path().join("a").tap_mkdir());
    let other_seed = with(&["lab", "trilha", "--games", "3000", "--seed", "8", "--quiet", "--scenario", "G"], &[]);
    let b = shards(&other_seed, 2, &tmp.path().join("b").tap_mkdir());
    let csv = tmp.path().join("merged.csv");
    let err = refused(
        &["lab", "merge", &a[0], &b[1], "--csv", csv.to_str().unwrap()],
        "come from different lab commands: /identity/seed is 7 in the first and 8 in the second",
    );
    assert!(err.contains(&a[0]) && err.contains(&b[1]), "names both files: {err}");
    assert!(!csv.exists(), "no partial CSV");

    let c = shards(&with(SMALL, &["--scenario", "G,H"]), 2, &tmp.path().join("c").tap_mkdir());
    refused(&["lab", "merge", &a[0], &c[1]], "/identity/scenarios");
    let d = shards(&with(SMALL, &["--scenario", "G"]), 3, &tmp.path().join("d").tap_mkdir());
    refused(&["lab", "merge", &a[0], &d[1]], "/shards is 2 in the first and 3 in the second");
}

#[test]
fn merge_needs_every_shard_once() {
    let tmp = tempfile::tempdir().unwrap();
    let f = shards(&with(SMALL, &["--scenario", "G"]), 3, tmp.path());
    refused(&["lab", "merge", &f[0], &f[2]], "missing shard(s) 1/3 of 3");
    refused(&["lab", "merge", &f[0], &f[1], &f[0]], "shard 0/3 given twice");
}

#[test]
fn merge_refuses_what_is_not_a_shard_file() {
    let tmp = tempfile::tempdir().unwrap();
    let junk = tmp.path().join("junk.json");
    std::fs::write(&junk, "{\"hello\": 1}").unwrap();
    refused(&["lab", "merge", junk.to_str().unwrap()], "not a lab shard file");
    std::fs::write(&junk, "{not json").unwrap();
    refused(&["lab", "merge", junk.to_str().unwrap()], "malformed JSON at line 1");
    refused(&["lab", "merge", tmp.path().join("absent.json").to_str().unwrap()], "cannot read it");
}

#[test]
fn nothing_is_written_when_the_output_folder_is_missing() {
    let tmp = tempfile::tempdir().unwrap();
    let missing = tmp.path().join("no/such/dir/out.csv");
    refused(&strs(&with(SMALL, &["--csv", missing.to_str().unwrap()])), "folder");
    let shard = tmp.path().join("no/shard.json");
    refused(&strs(&with(SMALL, &["--shard", "0/2", "--out", shard.to_str().unwrap()])), "does not exist");
    assert!(tree_state(tmp.path()).is_empty());
}

#[test]
fn a_revision_that_does_not_exist() {
    refused(
        &["lab", "trilha", "--games", "10", "--seed", "1", "--revision", "9.9.9"],
        "ruleset trilha has no revision 9.9.9",
    );
    refused(
        &["lab", "trilha", "--games", "10", "--seed", "1", "--against", "2.0.0"],
        "ruleset trilha has no revision 2.0.0",
    );
}

trait TapMkdir {
    fn tap_mkdir(self) -> Self;
}
impl TapMkdir for PathBuf {
    fn tap_mkdir(self) -> Self {
        std::fs::create_dir_all(&self).unwrap();
        self
    }
}

#[test]
fn bad_input_writes_nothing() {
    let tmp = tempfile::tempdir().unwrap();
    let csv = tmp.path().join("out.csv");
    let shard = tmp.path().join("shard.json");
    let (c, s) = (csv.to_str().unwrap(), shard.to_str().unwrap());
    let cases: &[&[&str]] = &[
        &["lab", "chess", "--games", "10", "--seed", "1", "--csv", c],
        &["lab", "trilha", "--games", "10", "--seed", "1", "--scenario", "Z", "--csv", c],
        &["lab", "trilha", "--games", "10", "--seed", "1", "--scenario", "Z", "--shard", "0/2", "--out", s],
        &["lab", "trilha", "--games", "0", "--seed", "1", "--csv", c],
        &["lab", "trilha", "--games", "10", "--seed", "1", "--shard", "2/2", "--out", s],
        &["lab", "trilha", "--games", "10", "--seed", "1", "--revision", "9.9.9", "--shard", "0/2", "--out", s],
        &["lab", "microfut", "--matches", "10", "--seed", "1", "--revision", "0.5.0", "--csv", c],
    ];
    for args in cases {
        let o = run(args);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stderr(&o));
        assert!(stdout(&o).is_empty(), "{args:?}");
        assert!(tree_state(tmp.path()).is_empty(), "{args:?} wrote a file");
    }
}

#[test]
fn ab_needs_the_scenario_in_both_revisions() {
    let (_tmp, content) = draft(|d| {
        edit_json(&d.join("scenarios.json"), |s| {
            s["scenarios"].as_array_mut().unwrap().pop();
        })
    });
    refused(
        &[
            "lab",
            "trilha",
            "--content",
            content.to_str().unwrap(),
            "--against",
            "1.0.1",
            "--games",
            "10",
            "--seed",
            "1",
        ],
        "scenario 'H' is not in trilha 1.0.1, so it cannot be compared (its scenarios: A, B, C, D, E, F, G)",
    );
}

#[test]
fn a_tampered_shard_file_is_refused_not_trusted() {
    let tmp = tempfile::tempdir().unwrap();
    let f = shards(&with(SMALL, &["--scenario", "G"]), 1, tmp.path());
    edit_json(Path::new(&f[0]), |v| {
        v["accumulators"][0]["values"].as_array_mut().unwrap().pop();
    });
    refused(&["lab", "merge", &f[0]], "scenario G: accumulator size does not match its metrics");
}

/// At small counts a share's interval is Wilson's: within [0, 100 %], around its estimate, and
/// with width even when nothing (or everything) happened — 0 of 12 games is [0, 24 %], where
/// the normal interval said [0, 0] — in JSON as in the table.
#[test]
fn a_share_interval_at_small_counts_is_wilsons() {
    let o = run(&["lab", "trilha", "--games", "12", "--seed", "3", "--quiet", "--json"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let z2 = 1.959_963_984_540_054f64.powi(2);
    let mut never = 0;
    for s in v["scenarios"].as_array().unwrap() {
        for id in ["win_share", "shared_wins"] {
            let w = &s["metrics"][id];
            let (means, cis) = match w["mean"].as_array() {
                Some(m) => (m.clone(), w["ci95"].as_array().unwrap().clone()),
                None => (vec![w["mean"].clone()], vec![w["ci95"].clone()]),
            };
            for (mean, ci) in means.iter().zip(&cis) {
                let (m, lo, hi) = (mean.as_f64().unwrap(), ci[0].as_f64().unwrap(), ci[1].as_f64().unwrap());
                assert!(0.0 <= lo && lo <= m && m <= hi && hi <= 1.0 && lo < hi, "{id}: {m} [{lo}, {hi}]");
                if m == 0.0 {
                    never += 1;
                    assert!((hi - z2 / (12.0 + z2)).abs() < 1e-12, "0 of 12: [0, {hi}]");
                }
            }
        }
    }
    assert!(never >= 8, "seed 3 has shared wins in only one scenario: {never}");
    // Player 2 won 11 of 12 games of scenario D: Wilson's [64.6 %, 98.5 %].
    let d = &v["scenarios"][3]["metrics"]["win_share"]["ci95"][1];
    assert!((d[0].as_f64().unwrap() - 0.6461).abs() < 1e-4 && (d[1].as_f64().unwrap() - 0.9851).abs() < 1e-4, "{d}");
    let table = stdout(&run(&["lab", "trilha", "--games", "12", "--seed", "3", "--quiet"]));
    assert!(table.contains("92 % [65, 99]") && table.contains("0 % [0, 24]"), "{table}");
}
