//! `microfut play --lang pt-BR` speaks Portuguese throughout (issue 53 §4): the candidates, the
//! pitch's legend, the explanations, the rolls, the NPC's choice after `n`, every event after
//! `S` and the full-time summary show no English word and no raw key. Provenance (content
//! pointers such as `pipelines.json#/pipelines/1/base`, a table's id beside its input) is an
//! identifier on purpose and is left out of the check.

use super::common;
use std::io::Write;
use std::process::{Command, Stdio};

const ENGLISH: &str = "the and of to with from by for on at you your yours theirs pass shoot shoots shot \
    carry carries cross crosses target saved blocked misplaced imprecise hold holds parry parries keeps steal loose \
    wins threat risk noise score personality adaptation stamina round played half full time needs rolled succeeded \
    failed margin gain estimate kick free corner throw goal header heads intercepts blocks gathers ball foul penalty \
    statistics decision play next seed substitution nobody chose choice type number stop scorers possession tackles \
    saves fouls dribbles completed";

fn play(lang: &str, input: &str) -> String {
    let mut child = Command::new(common::bin())
        .args(["play", "--home", "esporte_clube_mandacaru", "--away", "uniao_pedra_branca", "--side", "home"])
        .args(["--seed", "3", "--lang", lang])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let input = input.to_string();
    let writer = std::thread::spawn(move || stdin.write_all(input.as_bytes()));
    let o = child.wait_with_output().unwrap();
    writer.join().unwrap().unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    String::from_utf8(o.stdout).unwrap()
}

/// Every English word and raw key in `text`, with its line.
fn foreign(text: &str) -> Vec<String> {
    let english: std::collections::HashSet<&str> = ENGLISH.split_whitespace().collect();
    let mut found = Vec::new();
    for line in text.lines() {
        // Provenance: a content pointer, and the `[table value]` of an input.
        let kept: Vec<&str> = line.split_whitespace().filter(|w| !w.contains(".json#/")).collect();
        let kept = kept.join(" ");
        let kept = kept.split('[').next().unwrap_or("");
        for w in kept.split(|c: char| !c.is_alphanumeric() && c != '_') {
            if english.contains(w.to_lowercase().as_str()) {
                found.push(format!("{w}: {line}"));
            }
            if w.contains('_') && w.chars().any(char::is_alphabetic) {
                found.push(format!("raw {w}: {line}"));
            }
        }
    }
    found
}

/// A decision explained, one declared, the NPC's choice after `n`, then every event to full time
/// (`S`): all in Portuguese.
#[test]
fn play_in_portuguese_has_no_english_word_and_no_raw_key() {
    let out = play("pt-BR", "?1\n?4\n?7\n1\nn\n4\nS\n");
    assert!(out.contains("o NPC escolheu"), "{out}");
    assert!(out.contains("gols:") && out.contains("posse %"), "{out}");
    let found = foreign(&out);
    assert!(found.is_empty(), "English or raw in `play --lang pt-BR`:\n{}", found.join("\n"));
}

/// The check is not empty: the English match is full of what it looks for.
#[test]
fn the_check_finds_english_in_english() {
    let out = play("en", "?1\n1\nn\nS\n");
    assert!(foreign(&out).len() > 20);
}

/// After `n` the NPC's choice and its rolls are said; `s` prints goals only and says so; full
/// time lists the scorers and the statistics; input that runs out says so before the NPC takes
/// over.
#[test]
fn the_terminal_narrates_the_npc_summarises_and_ends_with_scorers_and_statistics() {
    let out = play("en", "n\ns\n");
    let lines: Vec<&str> = out.lines().collect();
    let npc = lines.iter().position(|l| l.starts_with("→ the NPC chose: ")).expect(&out);
    assert!(lines[npc + 1].contains("needs") && lines[npc + 1].contains("rolled"), "{}", lines[npc + 1]);
    assert!(out.contains("goals only"), "{out}");
    assert!(out.lines().count() < 150, "`s` printed {} lines", out.lines().count());
    assert!(out.contains("scorers: ") && out.contains("possession %") && out.contains("passes completed"), "{out}");
    let full = play("en", "n\nS\n");
    assert!(full.lines().count() > 500, "`S` prints every event: {} lines", full.lines().count());
    let ended = play("en", "");
    assert!(ended.contains("standard input ended: the NPC plays your side to full time"), "{ended}");
}
