//! The command line, end to end: the document's examples, and bad input refused cleanly.

use crate::common;
use common::*;
use serde_json::Value;

const PASS: &[&str] = &[
    "resolve",
    "pass",
    "--set",
    "dx=14",
    "--set",
    "passing=15",
    "--set",
    "control=13",
    "--set",
    "st=11",
    "--set",
    "kicking=12",
    "--set",
    "distance=18",
    "--set",
    "orientation=30",
    "--set",
    "nearest_opponent=4",
];

/// The rules document is Microfut 0.5: its worked examples are resolved on its revision. Later
/// revisions read more of the sheet (0.6's crowd reads willpower) and change the numbers.
const DOCUMENT: &[&str] = &["--revision", BASELINE];

fn doc<'a>(args: &[&'a str]) -> Vec<&'a str> {
    let mut v = args.to_vec();
    v.extend_from_slice(DOCUMENT);
    v
}

fn json_of(args: &[&str]) -> Value {
    let o = run(args);
    assert!(o.status.success(), "{args:?} failed: {}", stderr(&o));
    serde_json::from_slice(&o.stdout).expect("stdout is JSON")
}

#[test]
fn resolve_pass_example_as_json() {
    let mut args = doc(PASS);
    args.push("--json");
    let v = json_of(&args);
    assert_eq!(v["value"], 17);
    assert_eq!(v["difficulty"], 4);
    assert_eq!(v["probability_exact"], "215/216");
    assert!((v["probability"].as_f64().unwrap() - 215.0 / 216.0).abs() < 1e-15);
    assert!(v.get("margin").is_none(), "no margin unless rolled");
    let stages: Vec<&str> =
        v["contributions"].as_array().unwrap().iter().map(|c| c["stage"].as_str().unwrap()).collect();
    assert_eq!(stages, ["base", "mod_control", "mod_pass_distance", "mod_pressure", "mod_orientation", "mod_stamina"]);
    for c in v["contributions"].as_array().unwrap() {
        assert!(c["source"].as_str().unwrap().contains(".json#/"), "every contribution names its content path");
        assert!(c["label"]["pt-BR"].is_string() && c["label"]["en"].is_string());
    }
}

#[test]
fn resolve_with_a_roll_reports_the_margin() {
    let mut args = doc(PASS);
    args.extend(["--roll", "12", "--json"]);
    let v = json_of(&args);
    assert_eq!(v["margin"], 8);
    assert_eq!(v["success"], true);
}

#[test]
fn resolve_with_a_seed_is_repeatable() {
    let mut args = doc(PASS);
    args.extend(["--seed", "99", "--json"]);
    let a = json_of(&args);
    let b = json_of(&args);
    assert_eq!(a["roll"], b["roll"]);
    assert_eq!(a["margin"], a["roll"].as_i64().unwrap() - 4);
}

#[test]
fn resolve_finishing_shows_the_clamp() {
    let v = json_of(&[
        "resolve",
        "finishing",
        "--set",
        "dx=15",
        "--set",
        "finishing=16",
        "--set",
        "control=14",
        "--set",
        "st=13",
        "--set",
        "kicking=15",
        "--set",
        "distance=9",
        "--set",
        "angle=0",
        "--set",
        "orientation=0",
        "--set",
        "nearest_opponent=10",
        "--json",
        "--revision",
        BASELINE,
    ]);
    assert_eq!(v["value"], 17);
    assert_eq!(v["difficulty"], 4);
    let clamp = v["contributions"].as_array().unwrap().iter().find(|c| c["stage"] == "clamp").expect("clamp entry");
    assert_eq!(clamp["running"], 17.0);
}

#[test]
fn human_output_is_an_aligned_table() {
    let o = run(&doc(PASS));
    assert!(o.status.success());
    let out = stdout(&o);
    assert!(out.contains("value 17  difficulty 4  P(3d6 ≥ 4) = 215/216 = 99.54%"), "{out}");
    assert!(out.contains("mod_pass_distance"));
    let pt = stdout(&run(&[&doc(PASS)[..], &["--lang", "pt-BR"]].concat()));
    assert!(pt.contains("Domínio"));
    // The explanation's own words are Portuguese too, not only content's labels.
    assert!(pt.contains("valor 17  dificuldade 4  P(3d6 ≥ 4) = 215/216 = 99.54%"), "{pt}");
    assert!(pt.contains("etapa") && pt.contains("acumulado") && !pt.contains("running"), "{pt}");
}

#[test]
fn odds_prints_appendix_b() {
    let o = run(&["odds"]);
    assert!(o.status.success());
    let out = stdout(&o);
    let line = out.lines().find(|l| l.trim_start().starts_with("8 ")).expect("row for difficulty 8");
    assert!(line.contains("181/216") && line.contains("83.80%"), "{line}");
    let v = json_of(&["odds", "--json"]);
    assert_eq!(v["odds"].as_array().unwrap().len(), 16);
    assert_eq!(v["odds"][0]["favourable"], 216);
}

#[test]
fn the_default_job_runs_on_embedded_content() {
    // On the document's revision the demo reproduces the document's numbers.
    let o = run(&["demo", "--revision", BASELINE]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(out.contains("roll 12 → margin +8 (success)"), "{out}");
    assert!(out.contains("roll 10 → margin +6 (success)"), "{out}");
    assert!(out.contains("181/216 = 83.80%"));
    assert!(!out.contains("does not reach the clamp"), "{out}");

    // On the default revision it runs, and the command it suggests runs too: the README's first
    // command must not end by suggesting one that fails.
    let o = run(&[]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(out.contains("roll 12 → margin"), "{out}");
    let at = out.find("Try: microfut ").expect("a suggestion") + "Try: microfut ".len();
    let suggested: Vec<&str> = out[at..].split_whitespace().filter(|w| *w != "\\").collect();
    let o = run(&suggested);
    assert!(o.status.success(), "{suggested:?}: {}", stderr(&o));
    let v: Value = serde_json::from_slice(&o.stdout).expect("the suggestion prints JSON");
    assert!(v["value"].is_number());
}

/// 0.6's home crowd: the pass reads willpower (derived from iq), and an away player under the
/// crowd's pressure passes worse than the same player at home.
#[test]
fn the_crowd_presses_the_away_side_on_0_6() {
    refused(&[PASS, &["--revision", "0.6.0"][..]].concat(), "willpower");
    // A weaker passer, so the pass is not at the clamp and the crowd shows in the odds.
    let weak = |extra: &[&'static str]| -> Value {
        let mut args: Vec<&str> = PASS.iter().map(|a| if *a == "passing=15" { "passing=3" } else { a }).collect();
        args.extend_from_slice(&["--set", "iq=10", "--revision", "0.6.0", "--json"]);
        args.extend_from_slice(extra);
        json_of(&args)
    };
    let home = weak(&[]);
    let away = weak(&["--set", "away_side=1"]);
    crowd_presses_only_the_away_side(&home, &away);
}

/// The crowd presses the away side's interception and block test too (since 0.6.2; 0.6.0 refuses
/// `away_side` there as unused): with blocks as the blocker's own test, the home side's shots
/// would otherwise never meet a pressed blocker, and the home advantage fades.
#[test]
fn the_crowd_presses_the_away_interceptor() {
    let args = |revision: &'static str, extra: &[&'static str]| -> Vec<&'static str> {
        let mut args = vec!["resolve", "interception"];
        for s in ["dx=12", "positioning=10", "perception=10", "orientation=30", "stamina=100", "q_int=0"] {
            args.extend_from_slice(&["--set", s]);
        }
        args.extend_from_slice(&["--revision", revision, "--json"]);
        args.extend_from_slice(extra);
        args
    };
    refused(&args("0.6.0", &["--set", "away_side=1"]), "away_side");
    let intercept = |away: &'static str| json_of(&args("0.6.20", &["--set", "iq=10", "--set", away]));
    let (home, away) = (intercept("away_side=0"), intercept("away_side=1"));
    crowd_presses_only_the_away_side(&home, &away);
}

/// The crowd stage is 0 for the home side's test and negative for the away side's, whose odds
/// are lower for it.
fn crowd_presses_only_the_away_side(home: &Value, away: &Value) {
    let crowd = |v: &Value| {
        // `mod_crowd` on a player's own test; `mod_crowd_interception` (half as loud) on the
        // interceptor's since 0.6.3.
        let crowd_stage = |c: &&Value| c["stage"] == "mod_crowd" || c["stage"] == "mod_crowd_interception";
        v["contributions"].as_array().unwrap().iter().find(crowd_stage).expect("crowd stage")["amount"]
            .as_f64()
            .unwrap()
    };
    assert_eq!(crowd(home), 0.0);
    assert!(crowd(away) < 0.0, "{away}");
    assert!(away["probability"].as_f64().unwrap() < home["probability"].as_f64().unwrap());
}

/// A bad invocation: exit 2, one clear line on stderr, nothing on stdout.
fn refused(args: &[&str], needle: &str) {
    let o = run(args);
    assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stderr(&o));
    let err = stderr(&o);
    assert!(err.contains(needle), "{args:?}: expected '{needle}' in: {err}");
    assert!(stdout(&o).is_empty(), "{args:?} printed to stdout");
    assert!(!err.contains("panicked"));
}

#[test]
fn unknown_pipeline() {
    refused(&["resolve", "passe", "--set", "dx=3"], "unknown pipeline 'passe'");
}

#[test]
fn unknown_variable_gets_a_hint() {
    refused(&[PASS, &["--set", "passin=12"]].concat(), "unknown variable 'passin' (did you mean 'passing'?)");
}

#[test]
fn missing_variable_is_named() {
    refused(&["resolve", "pass", "--set", "dx=14", "--set", "passing=15"], "--set control=…");
}

#[test]
fn attribute_and_skill_outside_3_to_18() {
    refused(&["resolve", "pass", "--set", "dx=19"], "dx = 19 is outside its scale 3..18");
    refused(&["resolve", "pass", "--set", "passing=2"], "passing = 2 is outside its scale 3..18");
    refused(&["resolve", "pass", "--set", "dx=12.5"], "dx = 12.5 must be a whole number");
}

#[test]
fn malformed_set_and_roll() {
    refused(&["resolve", "pass", "--set", "dx"], "expected name=value");
    refused(&["resolve", "pass", "--set", "dx=abc"], "'abc' is not a number");
    refused(&[&doc(PASS)[..], &["--roll", "2"]].concat(), "3d6 totals run from 3 to 18");
    refused(&[&doc(PASS)[..], &["--set", "dx=13"]].concat(), "dx is set twice");
}

#[test]
fn revision_that_does_not_exist() {
    refused(&[PASS, &["--revision", "9.9.9"]].concat(), "ruleset microfut has no revision 9.9.9");
    refused(&[PASS, &["--revision", "latest"]].concat(), "'latest' is not a version");
}

#[test]
fn unknown_command_is_a_usage_error() {
    let o = run(&["frobnicate"]);
    assert_eq!(o.status.code(), Some(2));
}

#[test]
fn missing_content_folder() {
    refused(&["validate", "--content", "/nonexistent/microfut"], "does not exist");
}

/// A reader that leaves early (`microfut | head -1`) must not make the command panic: the rest
/// of the output is dropped and the command ends normally.
#[test]
fn a_closed_pipe_is_not_a_panic() {
    use std::process::{Command, Stdio};
    for args in [&[][..], &["odds"][..], &["validate"][..]] {
        let mut child =
            Command::new(bin()).args(args).stdout(Stdio::piped()).stderr(Stdio::piped()).spawn().expect("starts");
        drop(child.stdout.take());
        let o = child.wait_with_output().expect("finishes");
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(!err.contains("panicked"), "{args:?} panicked: {err}");
        assert_eq!(o.status.code(), Some(0), "{args:?}: {err}");
    }
}

/// Output that cannot be written for another reason (a full disk) is an I/O error: exit 2.
#[cfg(target_os = "linux")]
#[test]
fn unwritable_output_is_an_error() {
    use std::process::{Command, Stdio};
    let full = std::fs::OpenOptions::new().write(true).open("/dev/full").expect("/dev/full");
    let o = Command::new(bin()).arg("odds").stdout(Stdio::from(full)).output().expect("runs");
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("cannot write to standard output"), "{}", stderr(&o));
}

/// `microfut season` plays the revision asked for (loading only that one), and its table adds up:
/// every club plays every other twice, points are three a win and one a draw, goals for and
/// against both equal the goals of the results; the same seed gives the same season.
#[test]
fn a_season_plays_its_revision_and_its_table_adds_up() {
    let args = [
        "season",
        "--clubs",
        "ferroviario_juazeiro,uniao_pedra_branca,esporte_clube_mandacaru",
        "--seed",
        "2",
        "--revision",
        "0.6.5",
        "--json",
    ];
    let o = common::run(&args);
    assert!(o.status.success(), "{}", common::stderr(&o));
    let v: Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["revision"], "0.6.5");
    let table = v["table"].as_array().unwrap();
    let rounds = v["rounds"].as_array().unwrap();
    let results: Vec<&Value> = rounds.iter().flat_map(|r| r.as_array().unwrap()).collect();
    assert_eq!(table.len(), 3);
    assert_eq!(results.len(), 6, "3 clubs: 6 matches");
    let goals: u64 = results.iter().map(|r| r["score"][0].as_u64().unwrap() + r["score"][1].as_u64().unwrap()).sum();
    let field = |row: &Value, k: &str| row[k].as_u64().unwrap();
    for row in table {
        assert_eq!(field(row, "played"), 4);
        assert_eq!(field(row, "won") + field(row, "drawn") + field(row, "lost"), 4);
        assert_eq!(field(row, "points"), 3 * field(row, "won") + field(row, "drawn"));
    }
    assert_eq!(table.iter().map(|r| field(r, "goals_for")).sum::<u64>(), goals);
    assert_eq!(table.iter().map(|r| field(r, "goals_against")).sum::<u64>(), goals);
    assert_eq!(common::run(&args).stdout, o.stdout, "the same seed, the same season");

    let missing = common::run(&[
        "season",
        "--clubs",
        "ferroviario_juazeiro,uniao_pedra_branca",
        "--seed",
        "2",
        "--revision",
        "9.9.9",
    ]);
    assert_eq!(missing.status.code(), Some(2));
    assert!(common::stderr(&missing).contains("no revision 9.9.9"), "{}", common::stderr(&missing));
}

/// `microfut revisions` reads every manifest and catalog.json: the default (newest published)
/// with its date and fingerprint, a draft with its parent, the first sentence of a change note
/// (the whole of it with `--full` and in `--json`), one ruleset with `--ruleset`, and an unknown
/// ruleset refused with exit 2, naming the known ones.
#[test]
fn revisions_lists_each_revision_from_its_manifest() {
    let (_tmp, content) = content_copy();
    let note = "A draft for this test. Its second sentence is only in the full note.";
    edit_json(&content.join("microfut/0.6.21/manifest.json"), |m| m["change_note"] = Value::from(note));
    let c = content.to_str().unwrap();
    let catalog: Value =
        serde_json::from_slice(&std::fs::read(content.join("microfut/catalog.json")).unwrap()).unwrap();
    let published = catalog["published"].as_array().unwrap();
    let newest = published.last().unwrap();

    let o = run(&["revisions", "--content", c, "--ruleset", "microfut"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let text = stdout(&o);
    let default_line = format!(
        "  {} (default)  published {}",
        newest["version"].as_str().unwrap(),
        newest["published_on"].as_str().unwrap()
    );
    assert!(text.contains(&default_line), "{text}");
    assert!(text.contains(&format!("fingerprint {}", newest["fingerprint"].as_str().unwrap())), "{text}");
    assert!(text.contains("  0.6.21  draft\n    parent 0.6.20\n    A draft for this test.\n"), "{text}");
    assert!(!text.contains("second sentence"), "{text}");
    assert!(!text.contains("trilha"), "only the ruleset asked for: {text}");
    let full = stdout(&run(&["revisions", "--content", c, "--ruleset", "microfut", "--full"]));
    assert!(full.contains(note), "{full}");

    let o = run(&["revisions", "--content", c, "--json"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let v: Value = serde_json::from_slice(&o.stdout).unwrap();
    let rulesets = v["rulesets"].as_array().unwrap();
    let ids: Vec<&str> = rulesets.iter().map(|r| r["ruleset"].as_str().unwrap()).collect();
    assert_eq!(ids, ["effects", "microfut", "space", "trilha"]);
    let microfut = rulesets.iter().find(|r| r["ruleset"] == "microfut").unwrap();
    assert_eq!(microfut["default"], newest["version"]);
    let revs = microfut["revisions"].as_array().unwrap();
    for entry in published {
        let r = revs.iter().find(|r| r["version"] == entry["version"]).expect("every published revision listed");
        assert_eq!(
            (&r["status"], &r["fingerprint"], &r["published_on"]),
            (&Value::from("published"), &entry["fingerprint"], &entry["published_on"])
        );
    }
    let draft = revs.iter().find(|r| r["version"] == "0.6.21").unwrap();
    assert_eq!(
        (&draft["status"], &draft["parent"], &draft["fingerprint"]),
        (&Value::from("draft"), &Value::from("0.6.20"), &Value::Null)
    );
    assert_eq!(
        (draft["change_note"].as_str(), draft["summary"].as_str()),
        (Some(note), Some("A draft for this test."))
    );

    let o = run(&["revisions", "--content", c, "--ruleset", "nope"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("unknown ruleset 'nope' (known: effects, microfut, space, trilha)"), "{}", stderr(&o));
}
