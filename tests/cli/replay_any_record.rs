//! `microfut replay` reads every game's record (issue 51): a Space Football match and a World 1
//! journey replay through it as through their own commands; an edited one differs at the step
//! edited; a file that is no game's record is refused naming it; `--json` prints the report
//! every game shares.

use crate::common;
use common::*;
use serde_json::{Value, json};
use std::fs;
use std::path::{Path, PathBuf};

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

fn space_record(dir: &Path) -> PathBuf {
    let out = dir.join("space.json");
    let o = run(&["space", "match", "--white", "@greedy", "--black", "@random", "--seed", "3", "--out", s(&out)]);
    assert!(o.status.success(), "{}", stderr(&o));
    out
}

fn journey_record(dir: &Path) -> PathBuf {
    let out = dir.join("journey.json");
    let o = run(&["effects", "journey", "--seed", "5", "--out", s(&out)]);
    assert!(o.status.success(), "{}", stderr(&o));
    out
}

fn edited(path: &Path, name: &str, f: impl FnOnce(&mut Value)) -> PathBuf {
    let to = path.with_file_name(name);
    fs::copy(path, &to).unwrap();
    edit_json(&to, f);
    to
}

/// Exit code, standard output, standard error.
fn replay(args: &[&str]) -> (Option<i32>, String, String) {
    let o = run(args);
    (o.status.code(), stdout(&o), stderr(&o))
}

#[test]
fn a_space_match_replays_through_replay_as_through_space_replay() {
    let d = tempfile::tempdir().unwrap();
    let rec = space_record(d.path());
    let (code, out, err) = replay(&["replay", s(&rec)]);
    assert_eq!(code, Some(0), "{err}");
    assert!(out.starts_with("identical: every action legal under space "), "{out}");
    assert_eq!((code, out.clone(), err.clone()), replay(&["space", "replay", s(&rec)]));

    // Black's third action made white's: the replay differs at action 4 (exit 1).
    let bad = edited(&rec, "edited.json", |v| v["actions"][3]["side"] = json!("white"));
    let (code, out, err) = replay(&["replay", s(&bad)]);
    assert_eq!(code, Some(1), "{out}{err}");
    assert!(err.contains("differs: action 4 is white's, but it was black's turn"), "{err}");
    assert_eq!((code, out, err), replay(&["space", "replay", s(&bad)]));
    let (code, report, _) = replay(&["replay", "--json", s(&bad)]);
    assert_eq!(code, Some(1));
    let v: Value = serde_json::from_str(&report).unwrap();
    assert_eq!(v["verdict"], "differs");
    assert_eq!(v["step"], 4);
    assert_eq!(v["pointer"], "/actions/3/side");
    assert_eq!((v["expected"].as_str(), v["actual"].as_str()), (Some("white"), Some("black")));
}

#[test]
fn a_journey_replays_through_replay_as_through_effects_replay() {
    let d = tempfile::tempdir().unwrap();
    let rec = journey_record(d.path());
    let (code, out, err) = replay(&["replay", s(&rec)]);
    assert_eq!(code, Some(0), "{err}");
    assert!(out.starts_with("identical (") && out.contains(" commands, effects "), "{out}");
    assert_eq!((code, out, err), replay(&["effects", "replay", s(&rec)]));

    // The state after the sixth command edited: the replay differs there, naming both hashes.
    let bad = edited(&rec, "edited.json", |v| v["stateHashes"][5] = json!("0000000000000000"));
    let (code, out, err) = replay(&["replay", s(&bad)]);
    assert_eq!(code, Some(1), "{out}{err}");
    assert!(err.starts_with("differs at command 6: recorded state 0000000000000000, replayed "), "{err}");
    assert_eq!((code, out, err), replay(&["effects", "replay", s(&bad)]));
    let (code, report, _) = replay(&["replay", "--json", s(&bad)]);
    assert_eq!(code, Some(1));
    let v: Value = serde_json::from_str(&report).unwrap();
    assert_eq!((v["verdict"].as_str(), v["step"].as_u64()), (Some("differs"), Some(6)));
    assert_eq!(v["pointer"], "/stateHashes/5");
    assert_eq!(v["expected"], "0000000000000000");
    assert!(v["actual"].as_str().is_some_and(|a| a.len() == 16 && a != "0000000000000000"), "{v}");
}

/// The report every game shares: what the record pins, its steps and their unit, the verdict.
#[test]
fn the_json_report_has_one_shape_for_every_game() {
    let d = tempfile::tempdir().unwrap();
    let football = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/runs/mandacaru-pedra_branca-2.run.json");
    let records = [
        (space_record(d.path()), "space-match/1", "space", "actions", "actions"),
        (journey_record(d.path()), "effects-run/1", "effects", "commands", "commands"),
        (football, "microfut-run/1", "microfut", "rounds", "round_hashes"),
    ];
    for (path, format, ruleset, unit, steps_key) in records {
        let record: Value = serde_json::from_slice(&fs::read(&path).unwrap()).unwrap();
        let (code, out, err) = replay(&["replay", "--json", s(&path)]);
        assert_eq!(code, Some(0), "{ruleset}: {err}");
        assert!(err.is_empty(), "{ruleset}: {err}");
        let v: Value = serde_json::from_str(&out).unwrap();
        let keys: Vec<&str> = v.as_object().unwrap().keys().map(String::as_str).collect();
        let shape = ["format", "ruleset", "revision", "fingerprint", "steps", "unit", "verdict", "message"];
        assert_eq!(keys, shape, "{ruleset}");
        assert_eq!(v["format"], format);
        assert_eq!(v["ruleset"], ruleset);
        assert_eq!(v["revision"], record["revision"]);
        assert_eq!(v["fingerprint"], record["fingerprint"]);
        assert_eq!(v["unit"], unit);
        assert_eq!(v["steps"].as_u64(), record[steps_key].as_array().map(|a| a.len() as u64), "{ruleset}");
        assert_eq!(v["verdict"], "identical");
        // The message is the line the text form prints.
        let (_, line, _) = replay(&["replay", s(&path)]);
        assert_eq!(v["message"].as_str().map(|m| format!("{m}\n")), Some(line), "{ruleset}");
    }
}

/// A football record whose hash was edited keeps its old line; the report locates the round.
#[test]
fn a_football_report_locates_the_round_and_the_refused_intent() {
    let d = tempfile::tempdir().unwrap();
    let runs = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/runs");
    let rec = d.path().join("run.json");
    fs::copy(runs.join("ferroviario-vale_do_sol-3-human-0.6.20.run.json"), &rec).unwrap();
    let seeded = edited(&rec, "seeded.json", |v| v["seed"] = json!(4));
    let (code, out, _) = replay(&["replay", "--json", s(&seeded)]);
    assert_eq!(code, Some(1));
    let v: Value = serde_json::from_str(&out).unwrap();
    assert_eq!((v["verdict"].as_str(), v["step"].as_u64()), (Some("differs"), Some(0)));
    assert_eq!(v["pointer"], "/round_hashes/0");
    assert!(v["message"].as_str().unwrap().starts_with("differs at round 0: recorded state "), "{v}");
    let refused = edited(&rec, "refused.json", |v| {
        v["intents"][0]["kind"] = json!("pass");
        v["intents"][0]["target"] = json!(99);
    });
    let (code, out, _) = replay(&["replay", "--json", s(&refused)]);
    assert_eq!(code, Some(1));
    let v: Value = serde_json::from_str(&out).unwrap();
    assert_eq!((v["verdict"].as_str(), v["step"].as_u64()), (Some("refused"), Some(0)), "{v}");
    assert_eq!(v["pointer"], "/intents/0");
    assert!(v["input"].as_str().is_some_and(|i| i.contains("#99")), "{v}");
    assert!(v["reason"].as_str().is_some_and(|r| r.contains("not among the candidates")), "{v}");
}

#[test]
fn a_file_that_is_no_games_record_is_refused_naming_it() {
    let d = tempfile::tempdir().unwrap();
    let cases: [(&str, &str, &[&str]); 6] = [
        ("array.json", "[1, 2]", &["array.json: not a record", "found an array", "space-match/1"]),
        ("empty.json", "{}", &["empty.json#/format: not a record of any game", "neither a format nor a ruleset"]),
        ("foo.json", r#"{"format": "foo/1"}"#, &["foo.json#/format: not a record of any game", "\"foo/1\""]),
        ("chess.json", r#"{"ruleset": "chess"}"#, &["chess.json#/ruleset: not a record of any game", "\"chess\""]),
        ("trilha.json", r#"{"ruleset": "trilha"}"#, &["trilha.json#/ruleset: trilha", "nothing to replay"]),
        ("broken.json", r#"{"format": "#, &["broken.json: not a run record (malformed JSON"]),
    ];
    for (name, text, needles) in cases {
        let p = d.path().join(name);
        fs::write(&p, text).unwrap();
        for args in [vec!["replay", s(&p)], vec!["replay", "--json", s(&p)]] {
            let (code, out, err) = replay(&args);
            assert_eq!(code, Some(2), "{name}: {out}{err}");
            assert!(out.is_empty(), "{name}: {out}");
            for n in needles {
                assert!(err.contains(n), "{name}: missing {n:?} in {err}");
            }
        }
    }
}

/// A revision the content does not hold, or none, is named by the record's pointer, whatever the
/// game.
#[test]
fn a_missing_revision_is_named_by_its_pointer() {
    let d = tempfile::tempdir().unwrap();
    for rec in [space_record(d.path()), journey_record(d.path())] {
        let gone = edited(&rec, "gone.json", |v| v["revision"] = json!("9.9.9"));
        let (code, _, err) = replay(&["replay", s(&gone)]);
        assert_eq!(code, Some(2), "{err}");
        assert!(err.contains("gone.json#/revision: ") && err.contains("no revision 9.9.9"), "{err}");
        let absent = edited(&rec, "absent.json", |v| {
            v.as_object_mut().unwrap().remove("revision");
        });
        let (code, _, err) = replay(&["replay", s(&absent)]);
        assert_eq!(code, Some(2), "{err}");
        assert!(err.contains("absent.json#/revision: missing"), "{err}");
    }
}
