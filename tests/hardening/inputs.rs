//! Issue 49, input sizes: every file a command reads is read with a bound — 64 MiB for run
//! records (Microfut's, World 1's journeys, Space Football's matches), 8 MiB for every other file
//! — so `/dev/zero`, `/dev/urandom`, a link to one, or a file past the limit is refused within
//! seconds, naming the file and the limit, in bounded memory; a legitimate big record still loads.

use crate::common;
use common::faults::*;
use common::*;
use std::fs;
use std::path::{Path, PathBuf};
use std::time::Duration;

const MIB: usize = 1 << 20;
/// Peak memory a refused input may cost: the content, one limit's worth of bytes, and slack.
const RSS_BOUND_KIB: i64 = 600 * 1024;

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// Every command that reads a file, with `{}` where it goes, and the limit its message names.
fn readers() -> Vec<(&'static str, Vec<&'static str>, &'static str)> {
    let m = ["--away", "uniao_pedra_branca", "--seed", "1"];
    let v = |a: &[&'static str]| a.to_vec();
    let with = |a: &[&'static str], b: &[&'static str]| [a, b].concat();
    vec![
        ("club validate", v(&["club", "validate", "{}"]), "8 MiB: not a club file?"),
        ("sheet", v(&["sheet", "{}", "--revision", "0.5.1"]), "8 MiB: not a sheet?"),
        ("train", v(&["train", "{}", "--xp", "passing=1", "--revision", "0.5.1"]), "8 MiB: not a sheet?"),
        ("age", v(&["age", "{}", "--years", "1", "--revision", "0.5.1"]), "8 MiB: not a sheet?"),
        ("match --home", with(&["match", "--home", "{}"], &m), "8 MiB: not a club file?"),
        (
            "match --intents",
            with(&["match", "--home", "esporte_clube_mandacaru", "--human", "home", "--intents", "{}"], &m),
            "8 MiB: not an intents file?",
        ),
        ("play --home", with(&["play", "--home", "{}", "--side", "home"], &m), "8 MiB: not a club file?"),
        (
            "season --clubs",
            v(&["season", "--clubs", "{}", "--clubs", "uniao_pedra_branca", "--seed", "1"]),
            "8 MiB: not a club file?",
        ),
        (
            "lab --home",
            v(&["lab", "microfut", "--matches", "2", "--seed", "1", "--quiet", "--home", "{}"]),
            "8 MiB: not a club file?",
        ),
        ("lab calibrate --club", v(&["lab", "calibrate", "--matches", "2", "--club", "{}"]), "8 MiB: not a club file?"),
        ("lab merge", v(&["lab", "merge", "{}"]), "8 MiB: not a lab shard?"),
        ("replay", v(&["replay", "{}"]), "64 MiB: not a run record?"),
        ("effects replay", v(&["effects", "replay", "{}"]), "64 MiB: not a journey record?"),
        ("effects attributes", v(&["effects", "attributes", "{}"]), "64 MiB: not a journey record?"),
        ("space replay", v(&["space", "replay", "{}"]), "64 MiB: not a match record?"),
        (
            "space match --board",
            v(&["space", "match", "--white", "@random", "--black", "@random", "--board", "{}"]),
            "8 MiB: not a board?",
        ),
    ]
}

fn filled(args: &[&str], input: &str) -> Vec<String> {
    args.iter().map(|a| if *a == "{}" { input.to_string() } else { a.to_string() }).collect()
}

fn bounded(args: &[String], stdin: Option<&Path>) -> Bounded {
    let a: Vec<&str> = args.iter().map(String::as_str).collect();
    run_bounded(&a, stdin, Duration::from_secs(60))
}

fn refused_quickly(b: &Bounded, what: &str, needles: &[&str]) {
    assert!(!b.timed_out, "{what}: still running after 60 s");
    assert_eq!(b.code, Some(2), "{what}: {}{}", b.stdout, b.stderr);
    for n in needles {
        assert!(b.stderr.contains(n), "{what}: missing {n:?} in {}", b.stderr);
    }
    assert!(b.max_rss_kib < RSS_BOUND_KIB, "{what}: {} MiB at peak", b.max_rss_kib / 1024);
    assert!(!b.stderr.contains("panicked"), "{what}: {}", b.stderr);
}

#[test]
fn every_reading_command_refuses_an_endless_device_in_bounded_time_and_memory() {
    let d = tempfile::tempdir().unwrap();
    let link = d.path().join("zero.json");
    std::os::unix::fs::symlink("/dev/zero", &link).unwrap();
    let mut slowest: (f64, String) = (0.0, String::new());
    for input in ["/dev/zero", "/dev/urandom", s(&link)] {
        for (name, args, limit) in readers() {
            let what = format!("{name} {input}");
            let b = bounded(&filled(&args, input), None);
            refused_quickly(&b, &what, &[&format!("{input} is larger than {limit}")]);
            if b.seconds > slowest.0 {
                slowest = (b.seconds, what);
            }
        }
    }
    eprintln!("slowest refusal: {} ({:.2} s)", slowest.1, slowest.0);
}

#[test]
fn a_content_document_that_is_an_endless_device_is_refused() {
    let (_tmp, content) = content_copy();
    let params = content.join("microfut/0.6.20/params.json");
    fs::remove_file(&params).unwrap();
    std::os::unix::fs::symlink("/dev/urandom", &params).unwrap();
    let needle = format!("{} is larger than 8 MiB: not a content document?", params.display());
    for args in [
        vec!["validate", "--content", s(&content)],
        vec![
            "match",
            "--home",
            "esporte_clube_mandacaru",
            "--away",
            "uniao_pedra_branca",
            "--seed",
            "1",
            "--content",
            s(&content),
        ],
        vec!["publish", "microfut", "0.6.21", "--content", s(&content)],
    ] {
        let b = run_bounded(&args, None, Duration::from_secs(60));
        refused_quickly(&b, &args.join(" "), &[&needle]);
    }
    // A folder linked into itself is refused, not read until the paths run out.
    fs::remove_file(&params).unwrap();
    std::os::unix::fs::symlink("..", content.join("microfut/0.6.20/again")).unwrap();
    let b = run_bounded(&["validate", "--content", s(&content)], None, Duration::from_secs(60));
    refused_quickly(&b, "a folder loop", &["again", "a loop of folders"]);
}

#[test]
fn standard_input_lines_are_bounded() {
    let play =
        ["play", "--home", "esporte_clube_mandacaru", "--away", "uniao_pedra_branca", "--side", "home", "--seed", "1"];
    let args: Vec<String> = play.iter().map(|a| a.to_string()).collect();
    let b = bounded(&args, Some(Path::new("/dev/zero")));
    refused_quickly(&b, "play < /dev/zero", &["standard input: a line longer than 1 MiB"]);
    let bot: Vec<String> = ["space", "bot", "random"].iter().map(|a| a.to_string()).collect();
    let b = bounded(&bot, Some(Path::new("/dev/zero")));
    refused_quickly(&b, "space bot < /dev/zero", &["cannot read standard input: a line longer than 1 MiB"]);
}

/// A copy of `src` padded with spaces after its JSON to `size` bytes.
fn padded(src: &Path, dir: &Path, size: usize) -> PathBuf {
    let mut bytes = fs::read(src).unwrap();
    assert!(bytes.len() <= size);
    bytes.resize(size, b' ');
    let p = dir.join(format!("{size}-{}", src.file_name().unwrap().to_str().unwrap()));
    fs::write(&p, bytes).unwrap();
    p
}

#[test]
fn a_file_one_byte_past_its_limit_is_refused_and_one_at_it_is_read() {
    let d = tempfile::tempdir().unwrap();
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let club = root.join("content/microfut/clubs/esporte_clube_mandacaru.json");
    let at = padded(&club, d.path(), 8 * MIB);
    let o = run(&["club", "validate", s(&at)]);
    assert!(o.status.success(), "{}", stderr(&o));
    let past = padded(&club, d.path(), 8 * MIB + 1);
    let b = run_bounded(&["club", "validate", s(&past)], None, Duration::from_secs(60));
    refused_quickly(&b, "club + 1", &[&format!("{} is larger than 8 MiB: not a club file?", past.display())]);

    // A run record far past 8 MiB and under 64 still replays.
    let record = root.join("tests/runs/mandacaru-pedra_branca-2.run.json");
    let big = padded(&record, d.path(), 40 * MIB);
    let o = run(&["replay", s(&big)]);
    assert!(o.status.success() && stdout(&o).contains("identical"), "{}{}", stdout(&o), stderr(&o));
    let past = padded(&record, d.path(), 64 * MIB + 1);
    let b = run_bounded(&["replay", s(&past)], None, Duration::from_secs(60));
    refused_quickly(&b, "record + 1", &[&format!("{} is larger than 64 MiB: not a run record?", past.display())]);
}
