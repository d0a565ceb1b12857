//! Any edit of a record is caught and named (issue 49): 3 of 38 edited run records replayed
//! `identical` — a renamed squad player, an extra key inside `stats`, an extra key inside an
//! event. A record is now read strictly (everything the file says must be read) and sealed (the
//! parts replay cannot recompute carry a digest), for Microfut runs, World 1 journeys and Space
//! Football matches alike. The systematic tests change every leaf and give every object an extra
//! key (a sample of the long event and hash lists for runs) and count the edits that still
//! replay identical: none may.

use crate::common;
use common::{run, stderr, stdout};
use microfut::catalog::{Catalog, ContentTree};
use rayon::prelude::*;
use serde_json::{Value, json};
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

fn catalog() -> &'static Catalog {
    static C: OnceLock<Catalog> = OnceLock::new();
    C.get_or_init(|| Catalog::load(&ContentTree::embedded()))
}

fn runs() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/runs")
}

/// A record of this engine: the corpus's human match under 0.6.20, intents and all.
fn fresh_run(dir: &Path) -> PathBuf {
    let out = dir.join("run.json");
    let intents = runs().join("ferroviario-intents-0.6.20.json");
    let o = run(&[
        "match",
        "--home",
        "ferroviario_juazeiro",
        "--away",
        "atletico_vale_do_sol",
        "--seed",
        "3",
        "--revision",
        "0.6.20",
        "--human",
        "home",
        "--intents",
        s(&intents),
        "--out",
        s(&out),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    out
}

fn fresh_journey(dir: &Path) -> PathBuf {
    let out = dir.join("journey.json");
    let o = run(&["effects", "journey", "--seed", "7", "--out", s(&out)]);
    assert!(o.status.success(), "{}", stderr(&o));
    out
}

fn fresh_space_match(dir: &Path) -> PathBuf {
    let out = dir.join("space.json");
    let o = run(&["space", "match", "--white", "@greedy", "--black", "@random", "--seed", "3", "--out", s(&out)]);
    assert!(o.status.success(), "{}", stderr(&o));
    out
}

fn read(p: &Path) -> Value {
    serde_json::from_slice(&std::fs::read(p).unwrap()).unwrap()
}

fn write(dir: &Path, name: &str, v: &Value) -> PathBuf {
    let p = dir.join(name);
    std::fs::write(&p, serde_json::to_vec(v).unwrap()).unwrap();
    p
}

/// `replay` (or `space replay`) of `v`: its exit code and its one-line message.
fn replayed(dir: &Path, v: &Value, space: bool) -> (i32, String, PathBuf) {
    let p = write(dir, "edited.json", v);
    let o = if space { run(&["space", "replay", s(&p)]) } else { run(&["replay", s(&p)]) };
    (o.status.code().unwrap(), format!("{}{}", stdout(&o), stderr(&o)), p)
}

/// One edit of a record's JSON.
type EditFn = Box<dyn Fn(&mut Value)>;

/// The edits that replayed identical before issue 49, and the other parts replay cannot
/// recompute: each caught, and named by its JSON pointer.
#[test]
fn an_edit_replay_cannot_recompute_is_named_by_its_pointer() {
    let d = tempfile::tempdir().unwrap();
    let original = read(&fresh_run(d.path()));
    let (code, out, _) = replayed(d.path(), &original, false);
    assert_eq!(code, 0, "{out}");
    assert!(out.starts_with("identical") && !out.contains("unsealed"), "{out}");
    let edits: Vec<(&str, EditFn)> = vec![
        ("/home/squad/3", Box::new(|v| v["home"]["squad"][3]["name"] = json!("Someone Else"))),
        ("/stats/0/zz_extra", Box::new(|v| v["stats"][0]["zz_extra"] = json!(1))),
        ("/events/5/zz_extra", Box::new(|v| v["events"][5]["zz_extra"] = json!(1))),
        ("/away/name", Box::new(|v| v["away"]["name"] = json!("Another Club"))),
        ("/engine_version", Box::new(|v| v["engine_version"] = json!("0.5.11"))),
        ("/formations", Box::new(|v| v["formations"] = json!(["1-4-4-2", null]))),
        ("/intents/0/zz_extra", Box::new(|v| v["intents"][0]["zz_extra"] = json!(true))),
        ("/zz_extra", Box::new(|v| v["zz_extra"] = json!({}))),
        ("/seal/~1zz", Box::new(|v| v["seal"]["/zz"] = json!("0"))),
    ];
    for (pointer, edit) in edits {
        let mut v = original.clone();
        edit(&mut v);
        let (code, out, p) = replayed(d.path(), &v, false);
        assert_ne!(code, 0, "{pointer}: {out}");
        assert!(out.contains(&format!("{}#{pointer}", p.display())), "{pointer}: {out}");
        assert_eq!(out.lines().count(), 1, "{out}");
    }
    // A record from before seals still replays, and says what it could not check; the keys
    // nothing reads are caught in it too.
    let legacy = read(&runs().join("ferroviario-vale_do_sol-3-human.run.json"));
    let (code, out, _) = replayed(d.path(), &legacy, false);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("unsealed: its squads' names were not checked"), "{out}");
    let mut v = legacy.clone();
    v["events"][5]["zz_extra"] = json!(1);
    let (code, out, p) = replayed(d.path(), &v, false);
    assert_eq!(code, 2, "{out}");
    assert!(out.contains(&format!("{}#/events/5/zz_extra", p.display())), "{out}");
}

#[test]
fn a_journey_or_space_record_edit_replay_cannot_recompute_is_named() {
    let d = tempfile::tempdir().unwrap();
    let journey = read(&fresh_journey(d.path()));
    for (pointer, edit) in [
        ("/engineVersion", Box::new(|v: &mut Value| v["engineVersion"] = json!("0.5.11")) as EditFn),
        ("/events/3/zz_extra", Box::new(|v| v["events"][3]["zz_extra"] = json!(1))),
        ("/commands/0/zz_extra", Box::new(|v| v["commands"][0]["zz_extra"] = json!(1))),
        ("/journey", Box::new(|v| v["journey"] = json!("showcase_duel"))),
    ] {
        let mut v = journey.clone();
        edit(&mut v);
        let (code, out, p) = replayed(d.path(), &v, false);
        assert_ne!(code, 0, "{pointer}: {out}");
        assert!(out.contains(&format!("{}#{pointer}", p.display())), "{pointer}: {out}");
    }
    let space = read(&fresh_space_match(d.path()));
    let (code, out, _) = replayed(d.path(), &space, true);
    assert_eq!(code, 0, "{out}");
    for (pointer, edit) in [
        ("/white", Box::new(|v: &mut Value| v["white"]["name"] = json!("@search")) as EditFn),
        ("/seed", Box::new(|v| v["seed"] = json!(4))),
        ("/actions/0/zz_extra", Box::new(|v| v["actions"][0]["zz_extra"] = json!(1))),
        ("/result/zz_extra", Box::new(|v| v["result"]["zz_extra"] = json!(1))),
    ] {
        let mut v = space.clone();
        edit(&mut v);
        let (code, out, _) = replayed(d.path(), &v, true);
        assert_ne!(code, 0, "{pointer}: {out}");
        assert!(out.contains(pointer), "{pointer}: {out}");
    }
}

#[derive(Clone, Copy)]
enum Edit {
    /// A leaf changed: a number moved, a string lengthened, a boolean flipped, null set.
    Leaf,
    /// A key the object does not have.
    Key,
    /// An array's last item written twice.
    Item,
}

/// Every edit of a record, pointer by pointer, that `keep` keeps.
fn edits(v: &Value, keep: &dyn Fn(&str) -> bool) -> Vec<(String, Edit)> {
    fn walk(v: &Value, at: String, keep: &dyn Fn(&str) -> bool, out: &mut Vec<(String, Edit)>) {
        if !keep(&at) {
            return;
        }
        match v {
            Value::Object(m) => {
                out.push((at.clone(), Edit::Key));
                for (k, x) in m {
                    walk(x, format!("{at}/{}", k.replace('~', "~0").replace('/', "~1")), keep, out);
                }
            }
            Value::Array(a) => {
                if !a.is_empty() {
                    out.push((at.clone(), Edit::Item));
                }
                for (i, x) in a.iter().enumerate() {
                    walk(x, format!("{at}/{i}"), keep, out);
                }
            }
            _ => out.push((at, Edit::Leaf)),
        }
    }
    let mut out = Vec::new();
    walk(v, String::new(), keep, &mut out);
    out
}

fn apply(v: &Value, pointer: &str, edit: Edit) -> Value {
    let mut c = v.clone();
    let at = c.pointer_mut(pointer).unwrap();
    match edit {
        Edit::Key => {
            at.as_object_mut().unwrap().insert("zz_extra".into(), json!(1));
        }
        Edit::Item => {
            let a = at.as_array_mut().unwrap();
            let last = a.last().unwrap().clone();
            a.push(last);
        }
        Edit::Leaf => {
            *at = match at.clone() {
                Value::Number(n) if n.is_u64() => json!(n.as_u64().unwrap().wrapping_add(1)),
                Value::Number(n) if n.is_i64() => json!(n.as_i64().unwrap() + 1),
                Value::Number(n) => json!(n.as_f64().unwrap() + 0.5),
                Value::String(s) => json!(format!("{s}x")),
                Value::Bool(b) => json!(!b),
                Value::Null => json!(1),
                other => other,
            }
        }
    }
    c
}

/// Tried, refused before replay, found by replay — and the pointers of those that replayed
/// identical.
struct Tally {
    tried: usize,
    refused: usize,
    found: usize,
    identical: Vec<String>,
}

fn tally(original: &Value, edits: Vec<(String, Edit)>, verdict: &(dyn Fn(&[u8]) -> Verdict + Sync)) -> Tally {
    let results: Vec<(String, Verdict)> = edits
        .par_iter()
        .map(|(p, e)| {
            let bytes = serde_json::to_vec(&apply(original, p, *e)).unwrap();
            (format!("{p} ({})", ["leaf", "key", "item"][*e as usize]), verdict(&bytes))
        })
        .collect();
    let mut t = Tally { tried: results.len(), refused: 0, found: 0, identical: Vec::new() };
    for (p, v) in results {
        match v {
            Verdict::Refused => t.refused += 1,
            Verdict::Found => t.found += 1,
            Verdict::Identical => t.identical.push(p),
        }
    }
    t
}

enum Verdict {
    /// Refused before any replay (strict reading, the seal, the pins): named by pointer.
    Refused,
    /// The replay found it.
    Found,
    Identical,
}

fn run_verdict(bytes: &[u8]) -> Verdict {
    use microfut::run::{Replay, RunRecord, pinned_rules, replay};
    let Ok(record) = RunRecord::parse(bytes) else { return Verdict::Refused };
    let Ok(rules) = pinned_rules(catalog(), &record) else { return Verdict::Refused };
    match replay(rules, &record) {
        Err(_) => Verdict::Refused,
        Ok(Replay::Identical { .. }) => Verdict::Identical,
        Ok(_) => Verdict::Found,
    }
}

fn journey_verdict(bytes: &[u8]) -> Verdict {
    use microfut::effects::record::{JourneyRecord, Replay, pinned_world, replay};
    let Ok(record) = JourneyRecord::parse(bytes) else { return Verdict::Refused };
    let Ok(world) = pinned_world(catalog(), &record) else { return Verdict::Refused };
    match replay(world, &record) {
        Err(_) => Verdict::Refused,
        Ok(Replay::Identical { .. }) => Verdict::Identical,
        Ok(_) => Verdict::Found,
    }
}

fn space_verdict(bytes: &[u8]) -> Verdict {
    use microfut::space::record::{MatchRecord, Verdict as V, replay};
    let Ok(record) = MatchRecord::parse(bytes) else { return Verdict::Refused };
    match replay(catalog(), &record) {
        Err(_) => Verdict::Refused,
        Ok(V::Identical(_)) => Verdict::Identical,
        Ok(V::Differs(_)) => Verdict::Found,
    }
}

fn report(what: &str, t: &Tally) {
    eprintln!(
        "{what}: {} edits tried, {} refused before replay, {} found by replay, {} replayed identical",
        t.tried,
        t.refused,
        t.found,
        t.identical.len()
    );
    assert!(t.identical.is_empty(), "{what}: edits that replay identical: {:?}", t.identical);
}

/// A Microfut record: every leaf and object outside the events and the round hashes (the
/// squads, statistics, score, intents, pins), every 40th event and every 100th round hash
/// whole. (`every_edit_of_a_whole_run_record_is_caught` runs them all.)
#[test]
fn no_edit_of_a_run_record_replays_identical() {
    let d = tempfile::tempdir().unwrap();
    let original = read(&fresh_run(d.path()));
    let keep = |p: &str| {
        let nth = |prefix: &str, every: usize| {
            p.strip_prefix(prefix)
                .map(|rest| rest.split('/').next().unwrap().parse::<usize>().is_ok_and(|k| k % every == 0))
        };
        nth("/events/", 40).or(nth("/round_hashes/", 100)).unwrap_or(true)
    };
    let t = tally(&original, edits(&original, &keep), &run_verdict);
    assert!(t.tried > 2_000, "{}", t.tried);
    report("run record (sampled)", &t);
}

#[test]
#[ignore = "every edit of a whole record: about 20,000 replays; run by hand for the figures"]
fn every_edit_of_a_whole_run_record_is_caught() {
    let d = tempfile::tempdir().unwrap();
    let original = read(&fresh_run(d.path()));
    let t = tally(&original, edits(&original, &|_| true), &run_verdict);
    report("run record (whole)", &t);
}

#[test]
fn no_edit_of_a_journey_or_space_record_replays_identical() {
    let d = tempfile::tempdir().unwrap();
    let journey = read(&fresh_journey(d.path()));
    // The journey's events, every 10th.
    let keep = |p: &str| {
        p.strip_prefix("/events/")
            .map(|rest| rest.split('/').next().unwrap().parse::<usize>().is_ok_and(|k| k % 10 == 0))
            .unwrap_or(true)
    };
    report("journey record", &tally(&journey, edits(&journey, &keep), &journey_verdict));
    let space = read(&fresh_space_match(d.path()));
    report("space match record", &tally(&space, edits(&space, &|_| true), &space_verdict));
}
