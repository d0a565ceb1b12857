//! Helpers shared by the integration tests.
#![allow(dead_code)]

use microfut::catalog::{Catalog, ContentTree};
use microfut::pipeline::{Entry, Resolution};
use microfut::ruleset::{Ruleset, compile};
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// The baseline revision the rules document's examples are pinned to.
pub const BASELINE: &str = "0.5.0";

pub fn ruleset(version: &str) -> Ruleset {
    let rev = embedded_catalog().revision("microfut", Some(version)).expect("revision loads");
    compile(rev).expect("revision compiles")
}

/// The embedded catalog, loaded once per test process: loading checks every revision (about a
/// second), and the property tests compile a revision for every case.
pub fn embedded_catalog() -> &'static Catalog {
    static CATALOG: std::sync::OnceLock<Catalog> = std::sync::OnceLock::new();
    CATALOG.get_or_init(|| Catalog::load(&ContentTree::embedded()))
}

/// The number of cases a property test runs: `default`, bounded so `cargo test` stays quick, or
/// `MICROFUT_DEEP=N` times as many for a deeper run (CONTRIBUTING.md, "Tests").
pub fn cases(default: u32) -> u32 {
    match std::env::var("MICROFUT_DEEP") {
        Err(_) => default,
        Ok(n) => match n.trim().parse::<u32>() {
            Ok(n) if n >= 1 => default.saturating_mul(n),
            _ => panic!(
                "MICROFUT_DEEP={n:?}: expected a whole number of at least 1, the factor on every property test's cases"
            ),
        },
    }
}

pub fn baseline() -> Ruleset {
    ruleset(BASELINE)
}

pub fn sets(pairs: &[(&str, f64)]) -> Vec<(String, f64)> {
    pairs.iter().map(|(k, v)| (k.to_string(), *v)).collect()
}

/// Resolves a pipeline by name with named inputs, returning the resolution and its trace.
pub fn resolve(rs: &Ruleset, pipeline: &str, pairs: &[(&str, f64)]) -> (Resolution, Vec<Entry>) {
    let p = rs.pipeline(pipeline).unwrap_or_else(|| panic!("pipeline {pipeline}"));
    let prepared = rs.prepare(p, &sets(pairs)).expect("inputs are valid");
    let mut trace = Vec::new();
    let r = p.resolve_traced(&prepared.inputs, &mut trace);
    (r, trace)
}

pub fn bin() -> &'static str {
    env!("CARGO_BIN_EXE_microfut")
}

pub fn run(args: &[&str]) -> Output {
    Command::new(bin()).args(args).output().expect("binary runs")
}

pub fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}
pub fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// A private copy of the repository's content folder to break or publish in.
pub fn content_copy() -> (tempfile::TempDir, PathBuf) {
    let tmp = tempfile::tempdir().expect("temp dir");
    let dst = tmp.path().join("content");
    copy_dir(&Path::new(env!("CARGO_MANIFEST_DIR")).join("content"), &dst);
    (tmp, dst)
}

pub fn copy_dir(src: &Path, dst: &Path) {
    std::fs::create_dir_all(dst).unwrap();
    for e in std::fs::read_dir(src).unwrap() {
        let e = e.unwrap();
        let to = dst.join(e.file_name());
        if e.path().is_dir() {
            copy_dir(&e.path(), &to);
        } else {
            std::fs::copy(e.path(), to).unwrap();
        }
    }
}

/// Edits a JSON file in place.
pub fn edit_json(path: &Path, f: impl FnOnce(&mut serde_json::Value)) {
    let mut v: serde_json::Value = serde_json::from_slice(&std::fs::read(path).unwrap()).unwrap();
    f(&mut v);
    std::fs::write(path, serde_json::to_string_pretty(&v).unwrap()).unwrap();
}

/// Snapshot of every file under a folder, to prove a failed command wrote nothing.
pub fn tree_state(dir: &Path) -> Vec<(PathBuf, Vec<u8>)> {
    let mut out = Vec::new();
    fn walk(d: &Path, out: &mut Vec<(PathBuf, Vec<u8>)>) {
        let mut entries: Vec<_> = std::fs::read_dir(d).unwrap().map(|e| e.unwrap().path()).collect();
        entries.sort();
        for p in entries {
            if p.is_dir() {
                walk(&p, out);
            } else {
                out.push((p.clone(), std::fs::read(&p).unwrap()));
            }
        }
    }
    walk(dir, &mut out);
    out
}

/// The newest revision that carries the match engine's content.
pub const ENGINE_REVISION: &str = "0.5.5";

pub fn engine_rules() -> std::sync::Arc<microfut::engine::Rules> {
    let catalog = Catalog::load(&ContentTree::embedded());
    microfut::run::rules_for(&catalog, Some(ENGINE_REVISION)).expect("engine revision compiles")
}

/// Moves every player of a match out of the way — along the touchlines of the home half, the
/// keepers in goal — so a test places only the players it is about.
pub fn clear_the_pitch(m: &mut microfut::engine::Match) {
    use microfut::engine::geometry::V2;
    for slot in 0..11 {
        let home = m.player_in_slot(0, slot).unwrap();
        let away = m.player_in_slot(1, slot).unwrap();
        m.place(home, V2::new(4.0 + 4.0 * slot as f64, 0.5), V2::new(1.0, 0.0));
        m.place(away, V2::new(4.0 + 4.0 * slot as f64, 67.5), V2::new(-1.0, 0.0));
    }
    let (hk, ak) = (m.player_in_slot(0, 0).unwrap(), m.player_in_slot(1, 0).unwrap());
    m.place(hk, V2::new(1.0, 34.0), V2::new(1.0, 0.0));
    m.place(ak, V2::new(103.5, 34.0), V2::new(-1.0, 0.0));
}

pub fn fixture_club(name: &str) -> microfut::club::Club {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/clubs").join(format!("{name}.json"));
    microfut::club::Club::load(&path).expect("fixture club loads")
}

/// Copies Microfut revision `from` to a draft `version` in a content folder (its manifest's
/// version and status set) and returns the draft's folder, for a test to edit. As a designer
/// would, the copy declares itself what `from` was played with beyond its files — its entry in
/// `upgrades.json`: the parameters into its params, the penalty taker's skill into its roles,
/// the calibration's stage into its calibration — since a draft has no such entry.
pub fn draft_copy(content: &Path, from: &str, version: &str) -> PathBuf {
    let ruleset = content.join("microfut");
    let draft = ruleset.join(version);
    copy_dir(&ruleset.join(from), &draft);
    edit_json(&draft.join("manifest.json"), |m| {
        m["version"] = serde_json::json!(version);
        m["status"] = serde_json::json!("draft");
    });
    let upgrades: serde_json::Value = match std::fs::read(ruleset.join("upgrades.json")) {
        Ok(bytes) => serde_json::from_slice(&bytes).unwrap(),
        Err(_) => return draft,
    };
    let Some(entry) = upgrades["revisions"].as_object().and_then(|r| r.values().find(|e| e["revision"] == from)) else {
        return draft;
    };
    if let Some(params) = entry["params"].as_object().filter(|_| draft.join("params.json").exists()) {
        edit_json(&draft.join("params.json"), |d| {
            let ps = d["params"].as_array_mut().unwrap();
            let with_domains = ps.first().is_some_and(|q| q.get("domain").is_some());
            for (id, value) in params {
                let mut p = serde_json::json!({"id": id, "value": value, "label": {"pt-BR": id, "en": id}});
                if with_domains {
                    let v = value.as_f64().unwrap();
                    p["domain"] = serde_json::json!({"min": 0.0_f64.min(v), "max": (2.0 * v).max(1.0)});
                }
                ps.push(p);
            }
        });
    }
    if let Some(skill) = entry["values"].get("penalty_taker_skill").filter(|_| draft.join("roles.json").exists()) {
        edit_json(&draft.join("roles.json"), |d| d["penalty_taker_skill"] = skill.clone());
    }
    if let Some(stage) = entry["values"].get("calibration_stage").filter(|_| draft.join("calibration.json").exists()) {
        edit_json(&draft.join("calibration.json"), |d| d["stage"] = stage.clone());
    }
    draft
}
pub mod faults;
pub mod server;

/// The content folder the revision tests read: the repository's, or `MICROFUT_TEST_CONTENT`, so a
/// sabotaged copy can show an assertion failing without rebuilding the embedded copy.
pub fn test_content_dir() -> PathBuf {
    std::env::var_os("MICROFUT_TEST_CONTENT")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("content"))
}

pub fn test_catalog() -> Catalog {
    Catalog::load(&ContentTree::from_dir(&test_content_dir()).unwrap())
}

/// A Microfut revision of `catalog`, compiled for the engine.
pub fn revision_rules(catalog: &Catalog, revision: &str) -> std::sync::Arc<microfut::engine::Rules> {
    let rev = catalog.revision("microfut", Some(revision)).unwrap().clone();
    let rs = compile(&rev).unwrap_or_else(|d| panic!("{revision}: {d:?}"));
    std::sync::Arc::new(microfut::engine::Rules::new(std::sync::Arc::new(rs)).unwrap())
}

/// `microfut resolve <pipeline> --set … --revision <revision> --json` on the test content.
pub fn resolve_json(pipeline: &str, sets: &[impl AsRef<str>], revision: &str) -> serde_json::Value {
    let mut args = vec!["resolve", pipeline];
    for s in sets {
        args.extend_from_slice(&["--set", s.as_ref()]);
    }
    args.extend_from_slice(&["--revision", revision, "--json"]);
    let o = Command::new(bin()).arg("--content").arg(test_content_dir()).args(&args).output().unwrap();
    assert!(o.status.success(), "{args:?}: {}", String::from_utf8_lossy(&o.stderr));
    serde_json::from_slice(&o.stdout).unwrap()
}

/// A sample club of the repository's content.
pub fn sample_club(id: &str) -> microfut::club::Club {
    microfut::club::Club::load(&Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("content/microfut/clubs/{id}.json")))
        .unwrap()
}

/// A club generated the way `microfut lab calibrate` generates its calibration set: a budget
/// preset's XP, identity and personality from the seed, named "<preset> <seed>", by `revision`'s
/// club rules.
pub fn generated_club(catalog: &Catalog, revision: &str, preset: &str, seed: u64) -> microfut::club::Club {
    generated_club_as(catalog, revision, preset, seed, None, None)
}

/// As [`generated_club`], with the identity and the club personality given instead of drawn
/// from the seed.
pub fn generated_club_as(
    catalog: &Catalog,
    revision: &str,
    preset: &str,
    seed: u64,
    identity: Option<&str>,
    personality: Option<microfut::club::ClubPersonality>,
) -> microfut::club::Club {
    use microfut::club::generate::{Request, generate};
    let rules = revision_rules(catalog, revision);
    let cr = microfut::club::rules::ClubRules::need(&rules.rs, "test").unwrap();
    let req = Request {
        budget: cr.preset(preset).unwrap().xp,
        identity: identity.map(str::to_string),
        personality,
        seed,
        name: Some(format!("{preset} {seed}")),
        id: None,
    };
    generate(&rules.rs, &req).unwrap()
}

/// Sample club `id` with its club file edited by `edit` before it is loaded.
pub fn edited_sample_club(id: &str, edit: impl FnOnce(&mut serde_json::Value)) -> microfut::club::Club {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("content/microfut/clubs/{id}.json"));
    let mut v: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    edit(&mut v);
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join(format!("{id}.json"));
    std::fs::write(&file, v.to_string()).unwrap();
    microfut::club::Club::load(&file).unwrap()
}

/// Sample club `id` with its keepers `worse` points of goalkeeping and half as many of DX worse
/// (the rest of their sheets the same).
pub fn with_weaker_keepers(id: &str, worse: i64) -> microfut::club::Club {
    edited_sample_club(id, |v| {
        for p in v["squad"].as_array_mut().unwrap() {
            if p["role"] == "goalkeeper" {
                let gk = p["skills"]["goalkeeping"].as_i64().unwrap();
                let dx = p["attributes"]["dx"].as_i64().unwrap();
                p["skills"]["goalkeeping"] = serde_json::json!(gk - worse);
                p["attributes"]["dx"] = serde_json::json!(dx - worse / 2);
            }
        }
    })
}
