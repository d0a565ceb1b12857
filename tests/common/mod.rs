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
    let catalog = Catalog::load(&ContentTree::embedded());
    let rev = catalog.revision("microfut", Some(version)).expect("revision loads");
    compile(rev).expect("revision compiles")
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
/// would, the copy declares what its version requires and `from` lacks: from 0.6.21 on,
/// `beaten_rounds` (engine 0.5.12), at the one round older revisions are played with.
pub fn draft_copy(content: &Path, from: &str, version: &str) -> PathBuf {
    let draft = content.join("microfut").join(version);
    copy_dir(&content.join("microfut").join(from), &draft);
    edit_json(&draft.join("manifest.json"), |m| {
        m["version"] = serde_json::json!(version);
        m["status"] = serde_json::json!("draft");
    });
    let params = draft.join("params.json");
    let newer = semver::Version::parse(version).is_ok_and(|v| v >= semver::Version::new(0, 6, 21));
    if newer && params.exists() {
        edit_json(&params, |d| {
            let ps = d["params"].as_array_mut().unwrap();
            if !ps.iter().any(|p| p["id"] == "beaten_rounds") {
                let mut p = serde_json::json!({"id": "beaten_rounds", "value": 1, "unit": "rodadas",
                    "label": {"pt-BR": "Rodadas em que o defensor batido segue batido", "en": "Rounds a beaten defender stays beaten"}});
                if ps.first().is_some_and(|q| q.get("domain").is_some()) {
                    p["domain"] = serde_json::json!({"min": 0, "max": 10, "integer": true});
                }
                ps.push(p);
            }
        });
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

/// The save's base for a keeper of this DX, goalkeeping and reading (IQ, positioning and
/// perception all `read`), against a placed keeper's 12 m shot, as `resolve` shows it.
pub fn save_base(revision: &str, dx: i64, goalkeeping: i64, read: i64) -> f64 {
    let sets = [
        format!("dx={dx}"),
        format!("goalkeeping={goalkeeping}"),
        format!("iq={read}"),
        format!("positioning={read}"),
        format!("perception={read}"),
        "gk_position_error=0".into(),
        "shot_distance=12".into(),
        "shot_margin=0".into(),
        "shot_speed=1".into(),
    ];
    stage(&resolve_json("save", &sets, revision), "base")
}

/// A foot shot from 12 m, 20° off centre, a marker 3 m away, by a shooter of DX 14, control 14
/// and willpower 12 with this finishing, plus `extra` `--set`s: the tests' typical shot.
pub fn typical_shot(finishing: i64, extra: &[String]) -> Vec<String> {
    let fixed = [
        "dx=14",
        "willpower=12",
        "control=14",
        "range=30",
        "distance=12",
        "angle=20",
        "orientation=0",
        "nearest_opponent=3",
    ];
    let mut sets: Vec<String> = fixed.iter().map(|s| s.to_string()).collect();
    sets.push(format!("finishing={finishing}"));
    sets.extend_from_slice(extra);
    sets
}

/// The amount a resolution's stage `id` contributed.
pub fn stage(v: &serde_json::Value, id: &str) -> f64 {
    v["contributions"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["stage"] == id)
        .unwrap_or_else(|| panic!("no stage {id}: {v}"))["amount"]
        .as_f64()
        .unwrap()
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

/// Checks that a draft moves only what its change note names: its manifest's parent and engine
/// range, then each document against the parent's after `named` has asserted and undone the
/// named changes in (file, parent's, draft's). The golden same-seed match must differ and is
/// left out; the manifests are not compared.
pub fn only_named_changes(
    parent: &str,
    draft: &str,
    engine: &str,
    mut named: impl FnMut(&str, &mut serde_json::Value, &mut serde_json::Value),
) {
    let dir = test_content_dir().join("microfut");
    let read = |rev: &str, file: &str| -> serde_json::Value {
        let p = dir.join(rev).join(file);
        serde_json::from_str(&std::fs::read_to_string(&p).unwrap()).unwrap_or_else(|e| panic!("{p:?}: {e}"))
    };
    let manifest = read(draft, "manifest.json");
    assert_eq!(manifest["parent"], parent);
    assert_eq!(manifest["engine"], engine);
    for file in manifest["documents"].as_array().unwrap() {
        let file = file.as_str().unwrap();
        if file == "manifest.json" {
            continue;
        }
        let (mut old, mut new) = (read(parent, file), read(draft, file));
        if file == "calibration.json" {
            assert_ne!(old["same_seed"], new["same_seed"], "a new golden match for new rules");
            old.as_object_mut().unwrap().remove("same_seed");
            new.as_object_mut().unwrap().remove("same_seed");
        }
        named(file, &mut old, &mut new);
        assert_eq!(old, new, "{file}: nothing else differs from {parent}");
    }
}

/// The budget presets of a `club_rules.json`, as (id, XP).
pub fn budgets_xp(club_rules: &serde_json::Value) -> Vec<(String, i64)> {
    let b = club_rules["budgets"].as_array().unwrap();
    b.iter().map(|b| (b["id"].as_str().unwrap().into(), b["xp"].as_i64().unwrap())).collect()
}

/// In `only_named_changes`: the budget presets of `club_rules.json` were `was` in the parent and are
/// `now` in the draft; both are then left out of the comparison.
pub fn budgets_moved(
    old: &mut serde_json::Value,
    new: &mut serde_json::Value,
    was: [(&str, i64); 3],
    now: [(&str, i64); 3],
) {
    let own = |b: [(&str, i64); 3]| b.map(|(id, xp)| (id.to_string(), xp)).to_vec();
    assert_eq!(budgets_xp(old), own(was), "the parent's budgets");
    assert_eq!(budgets_xp(new), own(now), "the draft's budgets");
    old["budgets"] = serde_json::Value::Null;
    new["budgets"] = serde_json::Value::Null;
}

/// In `only_named_changes`: exactly the parameters `moved` (id, parent's value, draft's) changed
/// value in `params.json`; the draft's values are then put back to the parent's, so the rest of
/// each parameter is still compared.
pub fn params_moved(old: &serde_json::Value, new: &mut serde_json::Value, moved: &[(&str, f64, f64)]) {
    let values = |v: &serde_json::Value| -> Vec<(String, serde_json::Value)> {
        let list = v["params"].as_array().unwrap();
        list.iter().map(|p| (p["id"].as_str().unwrap().to_string(), p["value"].clone())).collect()
    };
    let was = values(old);
    let mut got: Vec<(String, f64, f64)> = was
        .iter()
        .zip(values(new))
        .filter(|(a, b)| *a != b)
        .map(|(a, b)| (a.0.clone(), a.1.as_f64().unwrap(), b.1.as_f64().unwrap()))
        .collect();
    got.sort_by(|a, b| a.0.cmp(&b.0));
    let mut want: Vec<(String, f64, f64)> = moved.iter().map(|(id, a, b)| (id.to_string(), *a, *b)).collect();
    want.sort_by(|a, b| a.0.cmp(&b.0));
    assert_eq!(got, want, "params.json: only the named values move");
    for p in new["params"].as_array_mut().unwrap() {
        if moved.iter().any(|m| p["id"] == m.0) {
            p["value"] = was.iter().find(|(id, _)| p["id"] == id.as_str()).unwrap().1.clone();
        }
    }
}

/// A draft that changes only `calibration.json`: its parent is `parent`, every other document is
/// the parent's (so every match is the same), and the calibration keeps the parent's same-seed
/// record and ranges. Returns the two calibration documents, parent's first.
pub fn calibration_only_change(parent: &str, draft: &str) -> (serde_json::Value, serde_json::Value) {
    let dir = test_content_dir().join("microfut");
    let read = |rev: &str, file: &str| -> serde_json::Value {
        serde_json::from_str(&std::fs::read_to_string(dir.join(rev).join(file)).unwrap()).unwrap()
    };
    let manifest = read(draft, "manifest.json");
    assert_eq!(manifest["parent"], parent);
    for file in manifest["documents"].as_array().unwrap() {
        let file = file.as_str().unwrap();
        if file != "calibration.json" {
            assert_eq!(read(parent, file), read(draft, file), "{file} differs from {parent}");
        }
    }
    let (old, new) = (read(parent, "calibration.json"), read(draft, "calibration.json"));
    assert_eq!(old["same_seed"], new["same_seed"], "the same match, so the same record");
    assert_eq!(old["ranges"], new["ranges"], "the targets themselves do not move");
    (old, new)
}
