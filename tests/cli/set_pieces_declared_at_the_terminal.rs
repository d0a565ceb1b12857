//! Issue 50: every candidate can be declared from the terminal (`microfut play`, answers piped
//! on standard input) and from an intents file (`microfut match --human --intents`), a set
//! piece's delivery and a penalty included: their zones tell them apart, the declared one is
//! played, and the terminal's roll line carries the chance it was shown.
//!
//! The match: Esporte Clube Mandacaru v Atlético Vale do Sol, the person at home, seed 2 — a
//! penalty to the person's side at round 864 when the NPC's choices are taken until then. The
//! script is worked out with the library: at every decision the NPC's pick, except the penalty
//! (its first side) and the next corner or free kick delivered into the box (its last zone,
//! which the NPC did not pick); then the input ends and the NPC plays on.

use crate::common;

use microfut::engine::{Candidate, Intent, Kind, Match, Options, Step};
use serde_json::Value;
use std::io::Write;
use std::process::{Command, Stdio};

const HOME: &str = "esporte_clube_mandacaru";
const AWAY: &str = "atletico_vale_do_sol";
const SEED: u64 = 2;

/// The first of the best scores: the NPC's pick (`Match::decide_npc`).
fn npc_pick(list: &[Candidate]) -> usize {
    (0..list.len()).fold(0, |best, i| if list[i].score > list[best].score { i } else { best })
}

struct Script {
    /// One answer a line for the terminal: `n` (the NPC chooses) or the candidate's number.
    answers: Vec<String>,
    /// What was declared: the NPC's picks too when they were declared rather than left to it.
    intents: Vec<Intent>,
    /// The delivery and the penalty declared, with the chance each was shown.
    cross: (Intent, f64),
    penalty: (Intent, f64),
}

/// `declare_all`: the NPC's picks are declared as intents (an intents file names every
/// decision) rather than left to it (`n` at the terminal); the NPC's own choice also draws its
/// noise, so the two matches part ways.
fn script(declare_all: bool) -> Script {
    let catalog = common::test_catalog();
    let rules = microfut::run::rules_for(&catalog, None).unwrap();
    let (home, away) = (common::sample_club(HOME), common::sample_club(AWAY));
    let options = Options { human: Some(0), retention: Some(0), ..Default::default() };
    let mut m = Match::new(rules, &home, &away, SEED, options).unwrap();
    let (mut answers, mut intents, mut penalty) = (Vec::new(), Vec::new(), None);
    loop {
        match m.step() {
            Step::Round => {}
            Step::Finished | Step::Faulted => panic!("no penalty, then delivery, reached: {:?}", m.fault()),
            Step::Decision => {
                let list = m.candidates().unwrap().to_vec();
                let restart = m.restart_taken().map(|r| r.name());
                let zoned = |k: Kind| list.iter().rposition(|c| c.kind == k && c.zone.is_some());
                // The penalty first (the NPC's play on to round 864 gives it), then the next
                // delivery into the box.
                let pick = match restart {
                    Some("penalty") => list.iter().position(|c| c.zone.is_some()).expect("a penalty's sides"),
                    Some("corner" | "free_kick") if penalty.is_some() && zoned(Kind::Cross).is_some() => {
                        zoned(Kind::Cross).unwrap()
                    }
                    _ => npc_pick(&list),
                };
                let c = &list[pick];
                let shown = || c.odds.as_ref().unwrap().test.expect("a delivery and a penalty roll a test").probability;
                let npc = pick == npc_pick(&list) && restart != Some("penalty");
                if npc && !declare_all {
                    answers.push("n".into());
                    m.decide_npc().unwrap();
                } else {
                    answers.push((pick + 1).to_string());
                    intents.push(c.intent());
                    m.decide(&c.intent()).unwrap();
                }
                if restart == Some("penalty") {
                    penalty = Some((c.intent(), shown()));
                } else if c.kind == Kind::Cross && c.zone.is_some() && penalty.is_some() {
                    assert_ne!(pick, npc_pick(&list), "a zone the NPC would not have picked");
                    let (cross, penalty) = ((c.intent(), shown()), penalty.unwrap());
                    return Script { answers, intents, cross, penalty };
                }
            }
        }
    }
}

fn pct(p: f64) -> String {
    if p > 0.0 && p < 1.0 && !(0.1..=0.995).contains(&p) {
        format!("{:.1}%", (p * 100.0).clamp(0.1, 99.9))
    } else {
        format!("{:.0}%", p * 100.0)
    }
}

fn play(script: &Script, lang: &str, out: &std::path::Path) -> String {
    let mut child = Command::new(common::bin())
        .args(["play", "--home", HOME, "--away", AWAY, "--side", "home", "--seed", &SEED.to_string(), "--lang", lang])
        .arg("--out")
        .arg(out)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let input: String = script.answers.iter().map(|a| format!("{a}\n")).collect();
    let mut stdin = child.stdin.take().unwrap();
    let writer = std::thread::spawn(move || stdin.write_all(input.as_bytes()));
    let o = child.wait_with_output().unwrap();
    writer.join().unwrap().unwrap();
    let stdout = String::from_utf8(o.stdout).unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    stdout
}

/// The lines that follow the declaration of `label`: its echo, then its rolls.
fn after<'a>(stdout: &'a str, echo: &str) -> Vec<&'a str> {
    let lines: Vec<&str> = stdout.lines().collect();
    let at = lines.iter().position(|l| l.starts_with(echo)).unwrap_or_else(|| panic!("no '{echo}'"));
    lines[at..]
        .iter()
        .take_while(|l| !l.trim_start().starts_with(|c: char| c.is_ascii_digit() && l.contains('\'')))
        .copied()
        .collect()
}

fn record(path: &std::path::Path) -> Value {
    serde_json::from_slice(&std::fs::read(path).unwrap()).unwrap()
}

#[test]
fn a_set_piece_cross_and_a_penalty_are_declared_at_the_terminal_and_from_an_intents_file() {
    let s = script(false);
    let dir = tempfile::tempdir().unwrap();

    // The terminal, in English: the siblings are told apart and the declared ones are played,
    // each roll line with the chance shown.
    let played = dir.path().join("played.json");
    let stdout = play(&s, "en", &played);
    let corners: Vec<&str> = stdout.lines().filter(|l| l.contains(": cross → ")).collect();
    assert!(!corners.is_empty(), "set-piece deliveries are listed by zone");
    assert!(stdout.contains("Penalty: shoot → "), "penalties are listed by side");
    let zone = |i: &Intent| i.zone.clone().unwrap();
    for ((intent, shown), what) in [(&s.cross, "cross"), (&s.penalty, "penalty")] {
        let tail = format!("[{intent}]");
        let lines: Vec<&str> = stdout.lines().filter(|l| l.contains("> → ") && l.ends_with(&tail)).collect();
        assert!(!lines.is_empty(), "{what}: '{tail}' echoed: {}", zone(intent));
        let rolls = after(&stdout, lines[0]);
        let own: Vec<&&str> = rolls.iter().filter(|l| l.contains("you were shown")).collect();
        assert_eq!(own.len(), 1, "{what}: its roll marked: {rolls:#?}");
        let p = pct(*shown);
        assert!(own[0].contains(&format!("({p}) — rolled ")), "{what}: rolled with the chance shown, {p}: {}", own[0]);
        assert!(own[0].contains(&format!("you were shown {p}")) && own[0].contains("(yours)"), "{}", own[0]);
        assert!(own[0].contains(" on 3d6 ") && own[0].contains("needs "), "{}", own[0]);
    }
    let rec = record(&played);
    let declared: Vec<Intent> = rec["intents"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| {
            let mut i = i.clone();
            i.as_object_mut().unwrap().remove("round");
            serde_json::from_value(i).unwrap()
        })
        .collect();
    assert_eq!(declared, s.intents, "the penalty and the delivery were declared, the NPC chose the rest");
    assert!(
        declared.contains(&s.cross.0) && declared.contains(&s.penalty.0) && declared.iter().all(|i| i.zone.is_some())
    );
    let r = common::run(&["replay", played.to_str().unwrap()]);
    assert!(common::stdout(&r).starts_with("identical"), "{}", common::stdout(&r));

    // From an intents file, every decision named (the NPC's picks declared, so the penalty comes
    // later): the delivery and the penalty are played.
    let every = script(true);
    let file = dir.path().join("intents.json");
    std::fs::write(&file, serde_json::to_string(&every.intents).unwrap()).unwrap();
    let matched = dir.path().join("matched.json");
    let args = ["match", "--home", HOME, "--away", AWAY, "--seed", "2", "--human", "home", "--intents"];
    let o = common::run(&[&args[..], &[file.to_str().unwrap(), "--out", matched.to_str().unwrap()]].concat());
    assert!(o.status.success(), "{}", common::stderr(&o));
    let rec2 = record(&matched);
    assert_eq!(rec2["intents"].as_array().unwrap().len(), every.intents.len(), "every intent was played");
    let r = common::run(&["replay", matched.to_str().unwrap()]);
    assert!(common::stdout(&r).starts_with("identical"), "{}", common::stdout(&r));
    let zoned = rec2["intents"].as_array().unwrap().iter().filter(|i| i["zone"].is_string()).count();
    assert!(zoned >= 2, "the delivery and the penalty carry their zones");

    // In Portuguese: the same choices, in its words.
    let pt = play(&s, "pt-BR", &dir.path().join("pt.json"));
    assert!(pt.contains("Pênalti: chutar → "), "penalties by side in Portuguese");
    assert!(pt.lines().any(|l| l.contains(": cruzar → ")), "deliveries by zone in Portuguese");
    assert!(pt.contains("você viu ") && pt.contains("precisa de ") && pt.contains(" em 3d6 "), "rolls in Portuguese");
    assert!(pt.contains("(estimativa do NPC)"), "the NPC's estimates are named");
}
