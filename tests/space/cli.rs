//! `microfut space` and `microfut lab space` at the command line: outputs, records and replays,
//! championships with grades, exit codes on bad input, and no process left after a match.

use crate::common;
use common::*;
use serde_json::Value;
use std::path::Path;

fn json_of(args: &[&str]) -> Value {
    let o = run(args);
    assert!(o.status.success(), "{args:?}: {}", stderr(&o));
    serde_json::from_str(&stdout(&o)).unwrap_or_else(|e| panic!("{e}: {}", stdout(&o)))
}

fn refused(args: &[&str], needle: &str) -> String {
    let o = run(args);
    assert_eq!(o.status.code(), Some(2), "{args:?}: {}{}", stdout(&o), stderr(&o));
    let e = stderr(&o);
    assert!(e.contains(needle), "{args:?}: expected '{needle}' in: {e}");
    e
}

#[test]
fn a_board_from_a_seed_as_text_and_json() {
    let o = run(&["space", "board", "--seed", "1"]);
    assert!(o.status.success());
    let text = stdout(&o);
    assert!(text.starts_with("space 1.0.0 · seed 1 · n = 7, 7 robots a side · ball with white\n"), "{text}");
    assert!(text.contains("   1   w  .  W  .  w  .  .\n"), "{text}");
    let v = json_of(&["space", "board", "--seed", "1", "--json"]);
    assert_eq!(v["n"], 7);
    assert_eq!(v["ball"], serde_json::json!([1, 3]));
    refused(&["space", "board", "--seed", "1", "--n", "4"], "n = 4 is outside space 1.0.0's column range 5..=12");
}

#[test]
fn a_match_prints_its_outcome_writes_a_record_and_the_replay_agrees() {
    let t = tempfile::tempdir().unwrap();
    let rec = t.path().join("m.json");
    let rec_s = rec.to_str().unwrap();
    let v = json_of(&[
        "space", "match", "--white", "@greedy", "--black", "@random", "--seed", "3", "--out", rec_s, "--json",
    ]);
    let keys: Vec<&str> = v.as_object().unwrap().keys().map(String::as_str).collect();
    assert_eq!(keys, ["winner", "victory", "reasons", "points", "valid", "actions"]);
    assert_eq!(v["winner"], "white");
    assert_eq!(v["valid"], serde_json::json!([true, true]));
    let o = run(&["space", "replay", rec_s]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        stdout(&o).starts_with("identical: every action legal under space 1.0.0, white wins by goal"),
        "{}",
        stdout(&o)
    );

    // An edited record: the second action moved backwards.
    edit_json(&rec, |r| {
        let a = &mut r["actions"][1];
        let row = a["from"][0].as_i64().unwrap();
        a["to"][0] = serde_json::json!(row + 1);
    });
    let o = run(&["space", "replay", rec_s]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).starts_with("differs: action 2 (move "), "{}", stderr(&o));

    refused(&["space", "replay", "/no/such/record.json"], "cannot read /no/such/record.json");
}

#[test]
fn a_board_file_is_checked_field_by_field() {
    let t = tempfile::tempdir().unwrap();
    let p = t.path().join("b.json");
    std::fs::write(&p, r#"{"n": 5, "white": [[1, 1], [0, 2]], "black": [[5, 5]], "ball": [1, 1]}"#).unwrap();
    let e = refused(
        &["space", "match", "--white", "@random", "--black", "@random", "--board", p.to_str().unwrap()],
        "white[1]: (0, 2) is in a goal area, where no robot stands",
    );
    assert!(e.contains("b.json"), "{e}");
    std::fs::write(&p, r#"{"n": 5, "white": [[1, 1]], "black": [[5, 5]], "ball": [1, 1], "holder": "black"}"#).unwrap();
    refused(
        &["space", "match", "--white", "@random", "--black", "@random", "--board", p.to_str().unwrap()],
        "holder: says black but a white robot stands on the ball's square (1, 1)",
    );
    std::fs::write(&p, r#"{"n": 5, "white": [[2, 2]], "black": [[4, 1]], "ball": [2, 2]}"#).unwrap();
    let v = json_of(&[
        "space",
        "match",
        "--white",
        "@greedy",
        "--black",
        "@greedy",
        "--board",
        p.to_str().unwrap(),
        "--json",
    ]);
    assert!(v["winner"].is_string(), "{v}");
}

#[test]
fn bad_match_arguments_are_refused() {
    refused(
        &["space", "match", "--white", "@clever", "--black", "@random", "--seed", "1"],
        "unknown built-in bot 'clever'",
    );
    refused(
        &["space", "match", "--white", "@random", "--black", "@random", "--seed", "1", "--time-limit", "5"],
        "needs a unit",
    );
    refused(&["space", "match", "--white", "@random", "--black", "@random"], "--seed");
    refused(&["space", "match", "--white", " ", "--black", "@random", "--seed", "1"], "a bot command is empty");
}

#[test]
fn a_faulty_bot_loses_and_the_cli_says_why() {
    let o =
        run(&["space", "match", "--white", "read l; echo nonsense; sleep 100", "--black", "@random", "--seed", "2"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let text = stdout(&o);
    assert!(
        text.contains(
            "black wins: white made an invalid action after 0 action(s) · points 0–3 · white INVALID, black valid"
        ),
        "{text}"
    );
    assert!(text.contains("  white — malformed: malformed JSON at line 1 column 2"), "{text}");
    assert!(text.contains("    answer: nonsense"), "{text}");
}

#[test]
fn a_championship_with_groups_grades_csv_and_a_final_grade() {
    let t = tempfile::tempdir().unwrap();
    let csv = t.path().join("c.csv");
    let recs = t.path().join("records");
    std::fs::create_dir(&recs).unwrap();
    let v = json_of(&[
        "space",
        "championship",
        "--bot",
        "greedy=@greedy",
        "--bot",
        "random=@random",
        "--bot",
        "broken=exit 1",
        "--seed",
        "5",
        "--championships",
        "2",
        "--quiet",
        "--json",
        "--csv",
        csv.to_str().unwrap(),
        "--records",
        recs.to_str().unwrap(),
    ]);
    let champs = v["championships"].as_array().unwrap();
    assert_eq!(champs.len(), 2);
    for c in champs {
        assert_eq!(c["matches"].as_array().unwrap().len(), 6);
        let st = c["standings"].as_array().unwrap();
        let by = |name: &str| st.iter().find(|s| s["bot"] == name).unwrap().clone();
        let broken = by("broken");
        assert_eq!(
            (broken["valid"].as_u64(), broken["group"].as_str(), broken["grade"].as_f64()),
            (Some(0), Some("B"), Some(0.0))
        );
        assert_eq!(by("greedy")["group"], "A");
        assert_eq!(by("greedy")["grade"], 10.0);
        assert_eq!(by("random")["grade"], 5.0);
        assert!(c["matches"].as_array().unwrap().iter().any(|m| m["reasons"]["white"]["reason"] == "crash"));
    }
    let fin = v["final"].as_array().unwrap();
    assert_eq!(fin.iter().map(|f| f["grade"].as_f64().unwrap()).collect::<Vec<_>>(), [10.0, 5.0, 0.0]);
    let text = std::fs::read_to_string(&csv).unwrap();
    assert!(
        text.starts_with("scope,bot,points,matches,wins,draws,losses,valid_matches,valid_share,group,grade,total\n")
    );
    assert!(text.contains("\nfinal,greedy,,,,,,,,,10,2\n"), "{text}");
    let files = std::fs::read_dir(&recs).unwrap().count();
    assert_eq!(files, 12);
    let o = run(&["space", "replay", recs.join("c2-random-v-greedy.json").to_str().unwrap()]);
    assert!(o.status.success(), "{}", stderr(&o));
}

#[test]
fn bad_championship_arguments_are_refused() {
    refused(&["space", "championship", "--bot", "a=@random", "--seed", "1"], "at least two bots");
    refused(
        &["space", "championship", "--bot", "a=@random", "--bot", "a=@greedy", "--seed", "1"],
        "two bots are named 'a'",
    );
    refused(
        &["space", "championship", "--bot", "@random", "--bot", "b=@greedy", "--seed", "1"],
        "expected NAME=COMMAND",
    );
    refused(
        &["space", "championship", "--bot", "a=@random", "--bot", "b=@greedy", "--seed", "1", "--records", "/no/dir"],
        "not a folder",
    );
}

#[test]
fn the_lab_plays_built_in_bots_over_scenarios() {
    let v = json_of(&[
        "lab",
        "space",
        "--games",
        "10",
        "--seed",
        "1",
        "--scenario",
        "course,one_step",
        "--bots",
        "greedy,random",
        "--quiet",
        "--json",
    ]);
    assert_eq!(v["setup"], "bots greedy v random, each with both colours on every board");
    assert_eq!(v["scenarios"].as_array().unwrap().len(), 2);
    refused(&["lab", "space", "--games", "10", "--seed", "1", "--bots", "greedy"], "--bots takes two bots");
    refused(
        &["lab", "space", "--games", "10", "--seed", "1", "--bots", "greedy,clever"],
        "unknown built-in bot 'clever'",
    );
    refused(&["lab", "space", "--games", "10", "--seed", "1", "--home", "x"], "space plays bots");
    refused(
        &["lab", "trilha", "--games", "10", "--seed", "1", "--bots", "a,b"],
        "--bots chooses Space Football's bots",
    );
}

#[test]
fn no_process_outlives_a_match_run_from_the_command_line() {
    let t = tempfile::tempdir().unwrap();
    let pidfile = t.path().join("child.pid");
    let bot =
        format!("trap '' TERM; (sleep 1000; true) & echo $! > {}; exec {} space bot greedy", pidfile.display(), bin());
    let o = run(&["space", "match", "--white", &bot, "--black", "@random", "--seed", "9", "--json"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let pid = std::fs::read_to_string(&pidfile).unwrap().trim().to_string();
    assert!(!Path::new(&format!("/proc/{pid}")).exists(), "helper {pid} outlived the match");
}

#[test]
fn outputs_are_planned_before_the_match_and_never_overwrite_an_input() {
    let t = tempfile::tempdir().unwrap();
    let board = t.path().join("b.json");
    let text = r#"{"n": 5, "white": [[2, 2]], "black": [[4, 1]], "ball": [2, 2]}"#;
    std::fs::write(&board, text).unwrap();
    let b = board.to_str().unwrap();
    // The record over the board it was played on: refused, the board untouched.
    refused(&["space", "match", "--white", "@greedy", "--black", "@greedy", "--board", b, "--out", b], "--out");
    assert_eq!(std::fs::read_to_string(&board).unwrap(), text);
    // A CSV whose folder is missing and a CSV that is also a record: refused before any match
    // (a bot that would leave a mark if it ever ran).
    let mark = t.path().join("ran");
    let bot = format!("b=touch {}; exit 1", mark.display());
    let recs = t.path().join("records");
    std::fs::create_dir(&recs).unwrap();
    let clash = recs.join("c1-a-v-b.json");
    refused(
        &["space", "championship", "--bot", "a=@random", "--bot", &bot, "--seed", "1", "--csv", "/no/dir/c.csv"],
        "folder /no/dir does not exist",
    );
    refused(
        &[
            "space",
            "championship",
            "--bot",
            "a=@random",
            "--bot",
            &bot,
            "--seed",
            "1",
            "--records",
            recs.to_str().unwrap(),
            "--csv",
            clash.to_str().unwrap(),
        ],
        "are the same file",
    );
    assert!(!mark.exists(), "no match was played");
    assert_eq!(std::fs::read_dir(&recs).unwrap().count(), 0);
}

#[test]
fn a_timeout_in_a_busy_championship_is_played_again_alone() {
    // A bot that is slow only the first time it ever plays (mkdir succeeds once): a machine
    // that starved it. Its timed-out match is played again alone, and that playing counts.
    let t = tempfile::tempdir().unwrap();
    let mark = t.path().join("once");
    let bot =
        format!("slow=if mkdir {} 2>/dev/null; then sleep 5; else exec {} space bot greedy; fi", mark.display(), bin());
    let v = json_of(&[
        "space",
        "championship",
        "--bot",
        &bot,
        "--bot",
        "g=@greedy",
        "--seed",
        "3",
        "--jobs",
        "2",
        "--time-limit",
        "2s",
        "--quiet",
        "--json",
    ]);
    let m = v["championships"][0]["matches"].as_array().unwrap();
    assert_eq!(m.len(), 2);
    assert_eq!(m.iter().filter(|x| x["rechecked"] == true).count(), 1, "{m:?}");
    assert!(m.iter().all(|x| x["valid"] == serde_json::json!([true, true])), "{m:?}");
}
