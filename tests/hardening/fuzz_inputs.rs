//! Structure-aware fuzzing of every JSON input a person hands the CLI: a club, a sheet, an
//! intents file, a run record and a lab shard. Each case takes a valid document, applies a few
//! random mutations — a value replaced by one of another type or out of every range, a key
//! removed, renamed or added, an element duplicated, the text truncated, a byte inserted, a key
//! written twice — and feeds it to the very functions the commands read it with. Asserted: no
//! panic; a refusal is one clean line per problem naming the file and, where the problem is inside
//! the document, its JSON pointer (or the line and column of a syntax error); what is accepted
//! plays to the end (a club or a sheet that passes the checks plays a match, trains and ages).
//!
//! cargo-fuzz needs a nightly toolchain this project does not have, so proptest generates the
//! mutations and shrinks a failure to a small one. `cargo test` runs a fixed number of cases
//! from a fixed seed; `MICROFUT_FUZZ_SECONDS=N` runs each target for N seconds from a random
//! seed instead (CI does), printing the seed of a failure for `MICROFUT_FUZZ_SEED`.

use crate::common;
use common::*;
use microfut::catalog::{Catalog, ContentTree};
use microfut::engine::Options;
use proptest::prelude::*;
use proptest::strategy::ValueTree;
use proptest::test_runner::{Config, RngAlgorithm, TestRng, TestRunner};
use serde_json::{Value, json};
use std::fs;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

// ---- mutations ----

/// A value to put somewhere it does not belong.
fn nasty(k: u8, donor: &Value, len: usize) -> Value {
    match k % 24 {
        0 => Value::Null,
        1 => json!(true),
        2 => json!(0),
        3 => json!(-1),
        4 => json!(1),
        5 => json!(i64::MAX),
        6 => json!(u64::MAX),
        7 => json!(i64::MIN),
        8 => json!(1e308),
        9 => json!(-1e308),
        10 => json!(0.5),
        11 => json!(-0.0),
        12 => json!(1e-300),
        13 => json!(""),
        14 => json!("x"),
        15 => json!("é🙂\u{0}\\\""),
        16 => json!("9".repeat(len % 200 + 1)),
        17 => json!([]),
        18 => json!({}),
        19 => json!([1, 2]),
        20 => json!({"$schema": "x"}),
        21 => donor.clone(),
        22 => json!(1_000_000_000u32),
        _ => json!(-1_000_000_000i32),
    }
}

/// One edit at the node reached by `walk`: each step goes one level deeper (into a random child)
/// or stops there, so top-level fields are hit as often as deep ones.
#[derive(Debug, Clone)]
struct Edit {
    walk: Vec<u32>,
    op: u8,
    value: u8,
    donor: Vec<u32>,
}

fn edit_strategy() -> impl Strategy<Value = Edit> {
    (prop::collection::vec(any::<u32>(), 1..8), any::<u8>(), any::<u8>(), prop::collection::vec(any::<u32>(), 0..6))
        .prop_map(|(walk, op, value, donor)| Edit { walk, op, value, donor })
}

/// The node a walk reaches, as a path of keys and indices.
fn locate(root: &Value, walk: &[u32]) -> Vec<PathStep> {
    let mut path = Vec::new();
    let mut node = root;
    for (depth, &w) in walk.iter().enumerate() {
        // At the root always go in; below, stop one time in three.
        if depth > 0 && w % 3 == 0 {
            break;
        }
        match node {
            Value::Object(o) if !o.is_empty() => {
                let (k, v) = o.iter().nth(w as usize / 3 % o.len()).expect("in range");
                path.push(PathStep::Key(k.clone()));
                node = v;
            }
            Value::Array(a) if !a.is_empty() => {
                let i = w as usize / 3 % a.len();
                path.push(PathStep::Index(i));
                node = &a[i];
            }
            _ => break,
        }
    }
    path
}

#[derive(Debug, Clone)]
enum PathStep {
    Key(String),
    Index(usize),
}

fn get_mut<'a>(root: &'a mut Value, path: &[PathStep]) -> &'a mut Value {
    let mut node = root;
    for step in path {
        node = match step {
            PathStep::Key(k) => node.get_mut(k.as_str()).expect("located"),
            PathStep::Index(i) => node.get_mut(*i).expect("located"),
        };
    }
    node
}

fn apply(root: &mut Value, e: &Edit) {
    let path = locate(root, &e.walk);
    let donor = {
        let p = locate(root, &e.donor);
        let mut n = &*root;
        for s in &p {
            n = match s {
                PathStep::Key(k) => &n[k.as_str()],
                PathStep::Index(i) => &n[*i],
            };
        }
        n.clone()
    };
    let (parent_path, last) = match path.split_last() {
        Some((last, parent)) => (parent.to_vec(), Some(last.clone())),
        None => (Vec::new(), None),
    };
    match (e.op % 8, last) {
        // Remove the node from its parent.
        (0, Some(last)) => match (get_mut(root, &parent_path), last) {
            (Value::Object(o), PathStep::Key(k)) => {
                o.shift_remove(&k);
            }
            (Value::Array(a), PathStep::Index(i)) => {
                a.remove(i);
            }
            _ => {}
        },
        // Rename a key, or duplicate an array element.
        (1, Some(last)) => match (get_mut(root, &parent_path), last) {
            (Value::Object(o), PathStep::Key(k)) => {
                if let Some(v) = o.shift_remove(&k) {
                    o.insert(format!("{k}_"), v);
                }
            }
            (Value::Array(a), PathStep::Index(i)) => {
                let v = a[i].clone();
                a.insert(i, v);
            }
            _ => {}
        },
        // Add an unknown key to an object, or an element to an array.
        (2, _) => match get_mut(root, &path) {
            Value::Object(o) => {
                o.insert("unexpected".into(), nasty(e.value, &donor, e.walk.len()));
            }
            Value::Array(a) => a.push(nasty(e.value, &donor, e.walk.len())),
            other => *other = nasty(e.value, &donor, e.walk.len()),
        },
        // Nudge a number by one, either way.
        (3, _) => {
            let n = get_mut(root, &path);
            if let Some(x) = n.as_i64() {
                *n = json!(if e.value.is_multiple_of(2) { x.saturating_add(1) } else { x.saturating_sub(1) });
            } else if let Some(x) = n.as_f64() {
                *n = json!(x * if e.value.is_multiple_of(2) { 10.0 } else { -1.0 });
            } else {
                *n = nasty(e.value, &donor, e.walk.len());
            }
        }
        // Replace the node by a value of any kind.
        _ => *get_mut(root, &path) = nasty(e.value, &donor, e.walk.len()),
    }
}

/// Text-level damage after the structural edits.
#[derive(Debug, Clone)]
enum Text {
    None,
    Truncate(u32),
    Insert(u32, u8),
    DuplicateKey(u32),
    Bom,
}

fn text_strategy() -> impl Strategy<Value = Text> {
    prop_oneof![
        6 => Just(Text::None),
        1 => any::<u32>().prop_map(Text::Truncate),
        1 => (any::<u32>(), any::<u8>()).prop_map(|(a, b)| Text::Insert(a, b)),
        1 => any::<u32>().prop_map(Text::DuplicateKey),
        1 => Just(Text::Bom),
    ]
}

fn damage(mut text: Vec<u8>, t: &Text) -> Vec<u8> {
    match *t {
        Text::None => text,
        Text::Truncate(at) => {
            text.truncate(at as usize % text.len().max(1));
            text
        }
        Text::Insert(at, b) => {
            let at = at as usize % (text.len() + 1);
            text.insert(at, b);
            text
        }
        Text::DuplicateKey(k) => {
            // Writes the k-th `"key": ` of the text twice: `"key": "key": ` is malformed, so the
            // key and its whole value are copied when the value is a plain scalar.
            let s = String::from_utf8_lossy(&text).into_owned();
            let keys: Vec<usize> = s.match_indices("\":").map(|(i, _)| i).collect();
            let Some(&end) = keys.get(k as usize % keys.len().max(1)) else { return text };
            let start = s[..end].rfind('"').unwrap_or(0);
            let rest = &s[end + 2..];
            let value_end = rest.find([',', '}']).unwrap_or(rest.len());
            let pair = format!("{}{}, ", &s[start..end + 2], &rest[..value_end]);
            if pair.contains(['{', '[']) {
                return text;
            }
            let mut out = s[..start].to_string();
            out.push_str(&pair);
            out.push_str(&s[start..]);
            out.into_bytes()
        }
        Text::Bom => [b"\xEF\xBB\xBF".as_slice(), &text].concat(),
    }
}

#[derive(Debug, Clone)]
struct Case {
    edits: Vec<Edit>,
    text: Text,
}

fn case_strategy(max_edits: usize) -> impl Strategy<Value = Case> {
    (prop::collection::vec(edit_strategy(), 1..=max_edits), text_strategy())
        .prop_map(|(edits, text)| Case { edits, text })
}

fn mutate(seed: &Value, case: &Case) -> (Value, Vec<u8>) {
    let mut v = seed.clone();
    for e in &case.edits {
        apply(&mut v, e);
    }
    let text = damage(serde_json::to_vec_pretty(&v).unwrap(), &case.text);
    (v, text)
}

// ---- the harness ----

/// Runs `check` on generated cases: a fixed number from a fixed seed, or for
/// `MICROFUT_FUZZ_SECONDS` from a random one. A failure is shrunk, then reported with its seed.
fn fuzz<S: Strategy>(name: &str, cases: u32, strategy: S, check: impl Fn(&S::Value) -> Result<(), String>)
where
    S::Value: std::fmt::Debug,
{
    let seconds: Option<u64> = std::env::var("MICROFUT_FUZZ_SECONDS").ok().and_then(|s| s.parse().ok());
    let seed: [u8; 32] = match std::env::var("MICROFUT_FUZZ_SEED").ok().and_then(|s| s.parse::<u64>().ok()) {
        Some(s) => seed_bytes(s),
        None if seconds.is_some() => {
            seed_bytes(std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().as_nanos() as u64)
        }
        None => seed_bytes(17),
    };
    let shown_seed = u64::from_le_bytes(seed[..8].try_into().unwrap());
    let config = Config { failure_persistence: None, ..Config::default() };
    let mut runner = TestRunner::new_with_rng(config, TestRng::from_seed(RngAlgorithm::ChaCha, &seed));
    let deadline = seconds.map(|s| Instant::now() + Duration::from_secs(s));
    let run_one = |v: &S::Value| match catch_unwind(AssertUnwindSafe(|| check(v))) {
        Ok(r) => r,
        Err(p) => Err(format!(
            "panicked: {}",
            p.downcast_ref::<String>()
                .cloned()
                .or_else(|| p.downcast_ref::<&str>().map(|s| s.to_string()))
                .unwrap_or_default()
        )),
    };
    let mut done = 0u32;
    while match deadline {
        Some(d) => Instant::now() < d,
        None => done < cases,
    } {
        done += 1;
        let mut tree = strategy.new_tree(&mut runner).expect("strategy generates");
        let Err(first) = run_one(&tree.current()) else { continue };
        let mut last = (format!("{:?}", tree.current()), first);
        let mut steps = 0;
        if tree.simplify() {
            while steps < 300 {
                steps += 1;
                match run_one(&tree.current()) {
                    Err(e) => {
                        last = (format!("{:?}", tree.current()), e);
                        if !tree.simplify() {
                            break;
                        }
                    }
                    Ok(()) => {
                        if !tree.complicate() {
                            break;
                        }
                    }
                }
            }
        }
        panic!(
            "fuzz target {name} failed after {done} case(s) (MICROFUT_FUZZ_SEED={shown_seed}):\n{}\nminimal case: {}",
            last.1, last.0
        );
    }
    eprintln!("fuzz target {name}: {done} case(s), seed {shown_seed}");
}

fn seed_bytes(s: u64) -> [u8; 32] {
    let mut b = [0u8; 32];
    b[..8].copy_from_slice(&s.to_le_bytes());
    b
}

/// A refusal as a person reads it: one line per problem, each naming the file and where in it.
fn clean(message: &str, file: &str) -> Result<(), String> {
    if message.trim().is_empty() {
        return Err("an empty error message".into());
    }
    for line in message.lines() {
        let line = line.strip_prefix("error: ").unwrap_or(line);
        let named = line.contains(&format!("{file}#/"))
            || line.contains(&format!("{file}: "))
            || line.contains(&format!("{file} and "))
            || line.contains(&format!(" and {file} "));
        if !named {
            return Err(format!("the message does not name {file} and a place in it: {line}"));
        }
        if line.contains("microfut-tmp") || line.contains("json.tmp") || line.contains("panicked") {
            return Err(format!("the message names a temporary file or a panic: {line}"));
        }
        // A problem of the whole document says what it is: malformed JSON at a line, or the
        // wrong kind of document.
        if !line.contains(&format!("{file}#/")) && line.contains(&format!("{file}: ")) {
            let rest = &line[line.find(&format!("{file}: ")).unwrap() + file.len() + 2..];
            // (A sheet over its age cap is a problem of the whole sheet; it names its largest purchases.)
            let whole = [
                "malformed JSON at line",
                "expected a JSON",
                "found ",
                "line ",
                "not a lab shard",
                "exceeds the age cap",
            ];
            if !whole.iter().any(|w| rest.contains(w)) {
                return Err(format!("a problem without a pointer: {line}"));
            }
        }
    }
    Ok(())
}

struct Scratch {
    _dir: tempfile::TempDir,
    path: PathBuf,
}

fn scratch(name: &str) -> Scratch {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join(name);
    Scratch { _dir: dir, path }
}

fn catalog() -> Catalog {
    Catalog::load(&ContentTree::embedded())
}

fn read_json(rel: &str) -> Value {
    serde_json::from_slice(&fs::read(Path::new(env!("CARGO_MANIFEST_DIR")).join(rel)).unwrap()).unwrap()
}

// ---- the targets ----

#[test]
fn fuzz_club_files() {
    let catalog = catalog();
    let rules = engine_rules();
    let seed = read_json("content/microfut/clubs/esporte_clube_mandacaru.json");
    let away = fixture_club("test_away");
    let s = scratch("club.json");
    let file = s.path.display().to_string();
    fuzz("club", 24, case_strategy(3), |case| {
        let (_, text) = mutate(&seed, case);
        fs::write(&s.path, &text).unwrap();
        let checked = microfut::cli::matchday::load_club(&catalog, &file, &rules.rs);
        match checked {
            Err(e) => clean(&message(e), &file),
            Ok(club) => {
                // What the checks accept takes the field and plays to the end.
                let m = microfut::cli::matchday::play(rules.clone(), &club, &away, 1, Options::default(), &[], "")
                    .map_err(|e| format!("a club `club validate` accepts does not play: {}", message(e)))?;
                finished(&m)
            }
        }
    });
}

#[test]
fn fuzz_sheet_files() {
    let rs = ruleset(ENGINE_REVISION);
    let seed = read_json("tests/fixtures/sheets/star.json");
    let s = scratch("sheet.json");
    let file = s.path.display().to_string();
    let trainer = microfut::sheet::Trainer::new(&rs).unwrap();
    fuzz("sheet", 64, case_strategy(3), |case| {
        let (_, text) = mutate(&seed, case);
        fs::write(&s.path, &text).unwrap();
        match microfut::cli::sheet::checked_sheet(&rs, &s.path, false) {
            Err(e) => clean(&message(e), &file),
            Ok((sheet, _)) => {
                sheet.view(&rs).map_err(|e| format!("a valid sheet has no view: {e}"))?;
                let mut trained = sheet.clone();
                let xp = microfut::sheet::Xp::int(400);
                if let Err(e) = trainer.award(&mut trained, &[("passing".into(), xp)]) {
                    clean(&format!("{file}: {e}"), &file)?;
                }
                let mut aged = sheet.clone();
                if let Err(e) = trainer.age(&mut aged, 1) {
                    clean(&format!("{file}: {e}"), &file)?;
                }
                Ok(())
            }
        }
    });
}

#[test]
fn fuzz_intents_files() {
    let catalog = catalog();
    let rules = engine_rules();
    let home = microfut::cli::matchday::load_club(&catalog, "ferroviario_juazeiro", &rules.rs).unwrap();
    let away = microfut::cli::matchday::load_club(&catalog, "atletico_vale_do_sol", &rules.rs).unwrap();
    let seed = read_json("tests/runs/ferroviario-intents.json");
    let s = scratch("intents.json");
    let file = s.path.display().to_string();
    fuzz("intents", 12, case_strategy(2), |case| {
        let (_, text) = mutate(&seed, case);
        fs::write(&s.path, &text).unwrap();
        match microfut::cli::matchday::read_intents(&s.path) {
            Err(e) => clean(&message(e), &file),
            Ok(intents) => {
                let options = Options { human: Some(0), ..Options::default() };
                match microfut::cli::matchday::play(rules.clone(), &home, &away, 3, options, &intents, &file) {
                    Err(e) => clean(&message(e), &file),
                    Ok(m) => finished(&m),
                }
            }
        }
    });
}

#[test]
fn fuzz_run_records() {
    let catalog = catalog();
    let seed = read_json("tests/runs/ferroviario-vale_do_sol-3-human.run.json");
    let original = microfut::run::RunRecord::parse(&serde_json::to_vec(&seed).unwrap()).unwrap();
    let canonical = serde_json::to_value(&original).unwrap();
    let s = scratch("run.json");
    let file = s.path.display().to_string();
    // Fields that decide what is replayed or claim what happened: an edit of any of them is
    // never "identical".
    const CHECKED: [&str; 10] =
        ["format", "ruleset", "revision", "fingerprint", "seed", "intents", "score", "stats", "events", "round_hashes"];
    fuzz("run record", 10, case_strategy(2), |case| {
        let (_, text) = mutate(&seed, case);
        fs::write(&s.path, &text).unwrap();
        match microfut::cli::matchday::replay_file(&catalog, &s.path) {
            Err(e) => clean(&message(e), &file),
            Ok((record, microfut::run::Replay::Identical { .. })) => {
                let now = serde_json::to_value(&record).unwrap();
                match CHECKED.iter().find(|k| now[**k] != canonical[**k]) {
                    Some(k) => Err(format!("replay calls a record with an edited /{k} identical")),
                    None => Ok(()),
                }
            }
            Ok(_) => Ok(()),
        }
    });
}

#[test]
fn fuzz_lab_shards() {
    let d = tempfile::tempdir().unwrap();
    let shard = |i: usize| d.path().join(format!("shard-{i}.json"));
    for i in 0..2 {
        let o = run(&[
            "lab",
            "trilha",
            "--games",
            "200",
            "--seed",
            "1",
            "--quiet",
            "--shard",
            &format!("{i}/2"),
            "--out",
            shard(i).to_str().unwrap(),
        ]);
        assert!(o.status.success(), "{}", stderr(&o));
    }
    let seed: Value = serde_json::from_slice(&fs::read(shard(0)).unwrap()).unwrap();
    let file = shard(0).display().to_string();
    fuzz("lab shard", 64, case_strategy(3), |case| {
        let (_, text) = mutate(&seed, case);
        fs::write(shard(0), &text).unwrap();
        match microfut::lab::merge(&[shard(0), shard(1)]) {
            Err(e) => clean(&e.to_string(), &file),
            Ok((identity, accs)) => {
                let report = microfut::lab::Report::new(identity, &accs);
                let table = report.markdown(microfut::lab::Lang::En);
                report.csv(microfut::lab::Lang::En);
                let json = report.json();
                if table.contains("NaN") || table.contains("inf") || json.to_string().contains("null") {
                    return Err(format!("merged shards give a report with impossible numbers:\n{table}"));
                }
                Ok(())
            }
        }
    });
}

fn message(e: microfut::cli::CliError) -> String {
    match e {
        microfut::cli::CliError::Input(m) | microfut::cli::CliError::Found(m) => m,
    }
}

fn finished(m: &microfut::engine::Match) -> Result<(), String> {
    if !m.state().finished {
        return Err("the match did not finish".into());
    }
    Ok(())
}

#[test]
fn the_mutations_reach_every_top_level_field() {
    // The walk stops at every depth, so each field of a run record is edited in some case.
    let seed = read_json("tests/runs/ferroviario-vale_do_sol-3-human.run.json");
    let mut hit = std::collections::BTreeSet::new();
    let mut runner = TestRunner::deterministic();
    for _ in 0..400 {
        let e = edit_strategy().new_tree(&mut runner).unwrap().current();
        if let Some(PathStep::Key(k)) = locate(&seed, &e.walk).first() {
            hit.insert(k.clone());
        }
    }
    assert_eq!(hit.len(), seed.as_object().unwrap().len(), "{hit:?}");
}
