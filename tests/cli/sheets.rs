//! `microfut sheet`, `train`, `age` and `club`, end to end: output, exit codes, files written or
//! left alone.

use crate::common;
use common::*;
use serde_json::{Value, json};
use std::path::{Path, PathBuf};

const REV: &[&str] = &["--revision", "0.5.1"];

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/sheets").join(format!("{name}.json"))
}

fn sample_club(id: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("content/microfut/clubs").join(format!("{id}.json"))
}

/// A private copy of a fixture sheet to train or age.
fn scratch(name: &str) -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join(format!("{name}.json"));
    std::fs::copy(fixture(name), &path).unwrap();
    (dir, path)
}

fn args<'a>(base: &[&'a str], path: &'a Path) -> Vec<&'a str> {
    let mut v = base.to_vec();
    v.insert(1, path.to_str().unwrap());
    v.extend_from_slice(REV);
    v
}

/// Output with runs of spaces squashed, so needles do not depend on column widths.
fn squash(s: &str) -> String {
    let mut out = String::new();
    for part in s.split(' ').filter(|p| !p.is_empty()) {
        if !out.is_empty() && !out.ends_with('\n') {
            out.push(' ');
        }
        out.push_str(part);
    }
    out
}

fn has(out: &str, needle: &str) -> bool {
    squash(out).contains(&squash(needle))
}

fn ok(a: &[&str]) -> String {
    let o = run(a);
    assert!(o.status.success(), "{a:?}: {}{}", stdout(&o), stderr(&o));
    stdout(&o)
}

/// A refused invocation: exit 2, the needles on stderr, nothing on stdout, no panic.
fn refused(a: &[&str], needles: &[&str]) -> String {
    let o = run(a);
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(2), "{a:?}: {}{err}", stdout(&o));
    for n in needles {
        assert!(err.contains(n), "{a:?}: expected '{n}' in: {err}");
    }
    assert!(stdout(&o).is_empty(), "{a:?} printed to stdout");
    assert!(!err.contains("panicked"));
    err
}

fn read(path: &Path) -> Value {
    serde_json::from_slice(&std::fs::read(path).unwrap()).unwrap()
}

#[test]
fn sheet_shows_the_blank_sheet_and_the_ledger() {
    let out = ok(&args(&["sheet"], &fixture("veteran")));
    for needle in [
        "Valdir Damasceno  #4  Centre-back (centre_back)",
        "RES practical           9  age penalty -5 (age 36)",
        "Speed                    10        -2      8  -100",
        "Heading                 8 → 17     +2,450  50 + 50 + 100 + 100 + 200 + 250 + 400 + 500 + 800",
        "IQ — Intelligence       10 → 15     +1,500  2 × (100 + 100 + 150 + 150 + 250)",
        "Goalkeeping             8 → 3        -125  -(25 + 25 + 25 + 25 + 25)",
        "positive XP spent  11,400",
        "credits            -400",
        "net XP             11,000",
        "age cap (36)       29,500   within the cap",
        "Band               starter [9000, 14000)",
        "Violations: none",
    ] {
        assert!(has(&out, needle), "expected '{needle}' in:\n{out}");
    }
    assert!(out.contains("microfut/0.5.1/tables.json#/tables/26"), "every line names its content path");
}

#[test]
fn sheet_in_portuguese_and_as_json() {
    let pt = ok(&[args(&["sheet"], &fixture("youth")), vec!["--lang", "pt-BR"]].concat());
    for needle in [
        "Centroavante (striker)",
        "Razão de XP",
        "XP positivo gasto  2.250",
        "teto da idade (17)",
        "Faixa",
        "Violações: nenhuma",
    ] {
        assert!(has(&pt, needle), "expected '{needle}' in:\n{pt}");
    }
    let v: Value = serde_json::from_str(&ok(&[args(&["sheet"], &fixture("star")), vec!["--json"]].concat())).unwrap();
    assert_eq!(v["ledger"]["positive"], 25_900);
    assert_eq!(v["ledger"]["credits"], -125);
    assert_eq!(v["ledger"]["net"], 25_775);
    assert_eq!(v["ledger"]["cap"], 26_000);
    assert_eq!(v["ledger"]["band"]["tag"], "elite");
    assert_eq!(v["characteristics"][0]["value"], 18);
    assert_eq!(v["revision"], "0.5.1");
}

#[test]
fn a_sheet_over_its_cap_is_shown_with_its_violation() {
    let (_d, path) = scratch("star");
    edit_json(&path, |s| s["skills"]["heading"] = json!(13));
    let o = run(&args(&["sheet"], &path));
    assert_eq!(o.status.code(), Some(1), "found a problem: exit 1");
    let out = stdout(&o);
    assert!(has(&out, "age cap (27) 26,000 OVER THE CAP"), "{out}");
    assert!(out.contains("positive XP 26,100 exceeds the age cap at 27 (26,000) by 100"), "{out}");
}

#[test]
fn bad_sheets_are_refused_field_by_field() {
    let (dir, path) = scratch("youth");
    edit_json(&path, |s| {
        s["age"] = json!(14);
        s["attributes"]["dx"] = json!(19);
        s["training"]["speed"] = json!(4);
        s["skills"]["shooting"] = json!(12);
    });
    let file = path.display().to_string();
    let err = refused(
        &args(&["sheet"], &path),
        &[
            &format!("{file}#/age: 14 is outside 15..60"),
            &format!("{file}#/attributes/dx: 19 is outside 3..18"),
            &format!("{file}#/training/speed: 4 is outside -3..3"),
            &format!("{file}#/skills/shooting: unknown skill"),
        ],
    );
    assert_eq!(err.lines().filter(|l| l.starts_with("error: ")).count(), 4, "one line each:\n{err}");
    std::fs::write(dir.path().join("broken.json"), "{\"name\": ").unwrap();
    refused(&args(&["sheet"], &dir.path().join("broken.json")), &["malformed JSON at line 1"]);
    refused(&args(&["sheet"], &dir.path().join("missing.json")), &["cannot read", "missing.json"]);
    // A hand-edited progression record: unknown channels and negative XP are named.
    let (_d3, prog) = scratch("youth");
    edit_json(&prog, |s| {
        s["progression"] = json!({"channels": {
            "passing": {"raw": "10", "applied": "10", "banked": "-5"},
            "flying": {"raw": "1", "applied": "1", "banked": "1"}
        }, "history": []})
    });
    let f = prog.display().to_string();
    refused(
        &args(&["sheet"], &prog),
        &[
            &format!("{f}#/progression/channels/flying: unknown channel 'flying'"),
            &format!("{f}#/progression/channels/passing/banked: -5 is negative"),
        ],
    );
    // A value the schema lets through but that does not fit its type (an integer written 15.0)
    // is still named by its field.
    let (_d2, float) = scratch("youth");
    edit_json(&float, |s| s["skills"]["passing"] = json!(15.0));
    refused(&args(&["sheet"], &float), &[&format!("{}#/skills/passing: cannot read", float.display())]);
    refused(
        &["sheet", fixture("youth").to_str().unwrap(), "--revision", "0.5.0"],
        &["revision microfut 0.5.0 has no document with schema 'sheet_rules.schema.json'", "--revision"],
    );
}

#[test]
fn train_updates_the_sheet_and_records_the_season() {
    let (_d, path) = scratch("youth");
    let out = ok(&args(&["train", "--xp", "passing=400", "--xp", "speed=17/3"], &path));
    assert!(has(&out, "passing direct 400 ×1.25 → ×1 → ×0.85 386"), "{out}");
    assert!(out.contains("Passing rose: 11 → 12 (cost 100)"), "{out}");
    assert!(out.contains(&format!("wrote {}", path.display())));
    let s = read(&path);
    assert_eq!(s["skills"]["passing"], 12);
    assert_eq!(s["progression"]["channels"]["passing"]["banked"], "136");
    assert_eq!(s["progression"]["channels"]["speed"]["raw"], "17/3");
    assert_eq!(s["progression"]["history"][0]["event"], "award");
    assert_eq!(s["$schema"], "../../../schemas/sheet.schema.json", "the document keeps its schema");
    // The trained sheet is still a valid sheet, shown with its new ledger.
    assert!(has(&ok(&args(&["sheet"], &path)), "Passing 8 → 12 +300"));
}

#[test]
fn train_with_out_and_dry_run_leave_the_input_alone() {
    let (dir, path) = scratch("youth");
    let before = std::fs::read(&path).unwrap();
    let out = dir.path().join("trained.json");
    ok(&[args(&["train", "--xp", "dx=400"], &path), vec!["--out", out.to_str().unwrap()]].concat());
    assert_eq!(std::fs::read(&path).unwrap(), before);
    assert_eq!(read(&out)["attributes"]["dx"], 13);
    let v: Value =
        serde_json::from_str(&ok(&[args(&["train", "--xp", "dx=400"], &path), vec!["--dry-run", "--json"]].concat()))
            .unwrap();
    assert_eq!(v["written"], Value::Null);
    assert_eq!(v["outcome"]["levels"][0]["recalculated"]["speed"], json!([12, 13]));
    assert_eq!(std::fs::read(&path).unwrap(), before);
}

#[test]
fn failed_training_writes_nothing() {
    let (dir, path) = scratch("youth");
    let state = tree_state(dir.path());
    let out = dir.path().join("out.json");
    let o = out.to_str().unwrap();
    refused(
        &[args(&["train", "--xp", "pasing=10"], &path), vec!["--out", o]].concat(),
        &["unknown XP channel 'pasing' (did you mean 'passing'?)"],
    );
    refused(&args(&["train", "--xp", "passing=-5"], &path), &["--xp passing=-5: raw XP must be positive"]);
    refused(&args(&["train", "--xp", "passing"], &path), &["expected channel=amount"]);
    refused(&args(&["train", "--xp", "passing=1e3"], &path), &["'1e3' is not an XP amount"]);
    refused(&args(&["train", "--xp", "passing=1", "--xp", "passing=2"], &path), &["--xp passing is given twice"]);
    assert_eq!(tree_state(dir.path()), state, "nothing created or changed");
    let (dir, star) = scratch("star");
    edit_json(&star, |s| s["skills"]["heading"] = json!(13));
    let state = tree_state(dir.path());
    refused(&args(&["train", "--xp", "passing=10"], &star), &["exceeds the age cap at 27"]);
    refused(&args(&["age", "--years", "1"], &star), &["exceeds the age cap at 27"]);
    assert_eq!(tree_state(dir.path()), state);
}

#[test]
fn age_applies_the_penalty() {
    let (_d, path) = scratch("veteran");
    let out = ok(&args(&["age", "--years", "1"], &path));
    assert!(out.contains("aged: 36 → 37"), "{out}");
    assert!(out.contains("RES practical: 9 → 7"), "{out}");
    assert!(out.contains("Speed: 8 → 7"), "{out}");
    let s = read(&path);
    assert_eq!(s["age"], 37);
    assert_eq!(s["attributes"]["res"], 14);
    assert_eq!(s["progression"]["history"][0]["event"], "aged");
    let state = tree_state(path.parent().unwrap());
    refused(&args(&["age", "--years", "30"], &path), &["/age: 37 + 30 year(s) is 67, outside the age scale 15..60"]);
    refused(&args(&["age", "--years", "0"], &path), &["at least one year"]);
    refused(&args(&["age", "--years", "-1"], &path), &[]);
    assert_eq!(tree_state(path.parent().unwrap()), state);
}

#[test]
fn club_validate_passes_the_samples_and_names_problems() {
    let sample = sample_club("uniao_pedra_branca");
    let out = ok(&["club", "validate", sample.to_str().unwrap(), "--revision", "0.5.1"]);
    assert!(out.contains("club valid"), "{out}");
    assert!(out.contains("lines: goalkeeper 3, defence 8, midfield 8, attack 6"), "{out}");
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("club.json");
    std::fs::copy(sample_club("ferroviario_juazeiro"), &path).unwrap();
    edit_json(&path, |c| {
        c["squad"][5]["shirt"] = c["squad"][2]["shirt"].clone();
        c["squad"][9]["age"] = json!(14);
    });
    let o = run(&["club", "validate", path.to_str().unwrap(), "--revision", "0.5.1"]);
    assert_eq!(o.status.code(), Some(1));
    let out = stdout(&o);
    let file = path.display().to_string();
    assert!(out.contains(&format!("error: {file}#/squad/5/shirt (")), "{out}");
    assert!(out.contains(&format!("error: {file}#/squad/9/age (")) && out.contains("14 is outside 15..60"), "{out}");
    assert!(stderr(&o).contains("2 problem(s) found"));
    let v: Value = serde_json::from_slice(
        &run(&["club", "validate", path.to_str().unwrap(), "--revision", "0.5.1", "--json"]).stdout,
    )
    .unwrap();
    assert_eq!(v["valid"], false);
    assert_eq!(v["report"]["problems"][0]["pointer"], "/squad/5/shirt");
    std::fs::write(&path, "[]").unwrap();
    refused(&["club", "validate", path.to_str().unwrap(), "--revision", "0.5.1"], &["club.json"]);
}

#[test]
fn club_generate_is_deterministic_and_refuses_cleanly() {
    let dir = tempfile::tempdir().unwrap();
    let a = dir.path().join("a.json");
    let b = dir.path().join("b.json");
    fn generate<'a>(out: &'a Path, extra: &[&'a str]) -> Vec<&'a str> {
        let mut v = vec!["club", "generate", "--budget", "established", "--seed", "42", "--out", out.to_str().unwrap()];
        v.extend_from_slice(extra);
        v.extend_from_slice(REV);
        v
    }
    let out = ok(&generate(&a, &["--personality", "-1,2,0", "--identity", "aerial"]));
    assert!(
        out.contains(
            "identity aerial game (aerial); personality verticality -1, security 2, risk tolerance 0; seed 42"
        ),
        "{out}"
    );
    ok(&generate(&b, &["--personality", "-1,2,0", "--identity", "aerial"]));
    assert_eq!(std::fs::read(&a).unwrap(), std::fs::read(&b).unwrap(), "same seed, same bytes");
    let club = read(&a);
    assert_eq!(club["budget"], 260_000);
    assert_eq!(club["squad"].as_array().unwrap().len(), 25);
    assert!(ok(&["club", "validate", a.to_str().unwrap(), "--revision", "0.5.1"]).contains("club valid"));

    let state = tree_state(dir.path());
    let c = dir.path().join("c.json");
    let refuse = |extra: &[&str], needle: &str| {
        let mut v = vec!["club", "generate", "--seed", "1", "--out", c.to_str().unwrap()];
        v.extend_from_slice(extra);
        v.extend_from_slice(REV);
        refused(&v, &[needle]);
    };
    refuse(&["--budget", "20000"], "budget 20,000 XP is too small for 25 legal players");
    refuse(
        &["--budget", "legendary"],
        "--budget legendary: not a number of XP nor a preset (presets: modest (180,000), established (260,000), elite (340,000))",
    );
    refuse(&["--budget", "modest", "--personality", "4,0,0"], "personality verticality = 4 is outside -3..3");
    refuse(&["--budget", "modest", "--personality", "1,2"], "expected three whole numbers");
    refuse(&["--budget", "modest", "--identity", "tiki_taka"], "unknown identity 'tiki_taka'");
    refuse(&["--budget", "modest", "--id", "Bad Id"], "club id 'Bad Id'");
    refuse(&["--budget", "modest", "--name", "   "], "the club name is blank");
    assert_eq!(tree_state(dir.path()), state, "nothing written on failure");
    // A failed run does not overwrite an existing file either.
    let before = std::fs::read(&a).unwrap();
    refused(
        &["club", "generate", "--budget", "10", "--seed", "1", "--out", a.to_str().unwrap(), "--revision", "0.5.1"],
        &["too small"],
    );
    assert_eq!(std::fs::read(&a).unwrap(), before);
}

#[test]
fn validate_reports_broken_sheet_and_club_rules_with_pointers() {
    let (_tmp, content) = content_copy();
    // 0.5.5 is published (immutable): break a draft copy of it (a draft declares parameter domains,
    // as 0.5.5 does).
    let rev = content.join("microfut/0.5.9");
    copy_dir(&content.join("microfut/0.5.5"), &rev);
    edit_json(&rev.join("manifest.json"), |m| {
        m["version"] = json!("0.5.9");
        m["status"] = json!("draft");
    });
    edit_json(&rev.join("club_rules.json"), |c| {
        c["generator"]["split"]["identity"] = json!(0.25);
        c["generator"]["structure"][0]["role"] = json!("sweeper");
        c["generator"]["profiles"][0]["base"]["goalkeeping"] = json!(19);
        c["generator"]["identities"][0]["favours"]["shooting"] = json!(2);
        c["squad"]["min_per_line"]["goalkeeper"] = json!(4);
    });
    edit_json(&rev.join("sheet_rules.json"), |s| {
        s["skills"][1]["attribute"] = json!("agility");
        s["labels"].as_object_mut().unwrap().remove("credits");
    });
    let o = run(&["validate", "--content", content.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1));
    // Commands refuse rules that fail their meaning check instead of building from them.
    let dir = tempfile::tempdir().unwrap();
    let out_file = dir.path().join("c.json");
    let c = content.to_str().unwrap();
    refused(
        &[
            "club",
            "generate",
            "--content",
            c,
            "--budget",
            "modest",
            "--seed",
            "1",
            "--out",
            out_file.to_str().unwrap(),
            "--revision",
            "0.5.9",
        ],
        &["microfut/0.5.9/club_rules.json has 6 content error(s), first: ", "run `microfut validate`"],
    );
    assert!(!out_file.exists());
    refused(
        &["train", fixture("youth").to_str().unwrap(), "--xp", "passing=1", "--content", c, "--revision", "0.5.9"],
        &["microfut/0.5.9/sheet_rules.json has 2 content error(s)"],
    );
    let out = stdout(&o);
    for needle in [
        "microfut/0.5.9/club_rules.json#/generator/split: shares sum to 1.1, not 1",
        "microfut/0.5.9/club_rules.json#/generator/structure/0/role: 'sweeper' is not a role of roles.json",
        "microfut/0.5.9/club_rules.json#/generator/profiles/0/base/goalkeeping: 19 is outside 3..18",
        "microfut/0.5.9/club_rules.json#/generator/identities/0/favours/shooting: 'shooting' is not an attribute, characteristic or skill",
        "microfut/0.5.9/club_rules.json#/generator/structure: the structure has 2 player(s) in line 'goalkeeper', fewer than the 4 a squad needs",
        "microfut/0.5.9/sheet_rules.json#/skills/1/attribute: 'agility' is not an attribute (st, dx, iq, res)",
        "microfut/0.5.9/sheet_rules.json#/labels: missing label 'credits'",
    ] {
        assert!(out.contains(needle), "expected '{needle}' in:\n{out}");
    }
}
