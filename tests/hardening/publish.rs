//! Issue 49, publish: no sequence of failures or kills leaves a state that `validate` and
//! `publish` both refuse. A failed publish writes nothing (and says so only when true); one
//! killed at any step is named by `validate` and finished by the next `publish`; stray
//! temporaries are reported and removed; a missing catalog is not silently recreated. Faults are
//! real: `chattr +i`, `strace -e inject`, `kill -9` at random moments.

use crate::common;
use common::faults::*;
use common::*;
use serde_json::{Value, json};
use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// A Microfut draft 0.6.22 in a copy of the repository's content.
fn microfut_draft() -> (tempfile::TempDir, PathBuf) {
    let (tmp, content) = content_copy();
    let dir = draft_copy(&content, "0.6.21", "0.6.22");
    edit_json(&dir.join("manifest.json"), |m| m["parent"] = json!("0.6.21"));
    (tmp, content)
}

/// A content folder holding only Trilha, with a draft 1.0.1 of its published 1.0.0: the same
/// catalog logic in milliseconds per command, for the kill loops.
fn trilha_draft(root: &Path) -> PathBuf {
    let content = root.join("content");
    copy_dir(&Path::new(env!("CARGO_MANIFEST_DIR")).join("content/trilha"), &content.join("trilha"));
    copy_dir(&content.join("trilha/1.0.0"), &content.join("trilha/1.0.1"));
    edit_json(&content.join("trilha/1.0.1/manifest.json"), |m| {
        m["version"] = json!("1.0.1");
        m["status"] = json!("draft");
        m["parent"] = json!("1.0.0");
    });
    content
}

fn catalog_entry(content: &Path, ruleset: &str, version: &str) -> Option<Value> {
    let cat: Value = serde_json::from_slice(&fs::read(content.join(ruleset).join("catalog.json")).ok()?).ok()?;
    cat["published"].as_array()?.iter().find(|e| e["version"] == version).cloned()
}

fn status(content: &Path, ruleset: &str, version: &str) -> String {
    let m: Value =
        serde_json::from_slice(&fs::read(content.join(ruleset).join(version).join("manifest.json")).unwrap()).unwrap();
    m["status"].as_str().unwrap().to_string()
}

fn strays(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for e in fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if p.is_dir() {
            out.extend(strays(&p));
        } else if p.to_string_lossy().contains(".microfut-") {
            out.push(p);
        }
    }
    out
}

fn publish(content: &Path, ruleset: &str, version: &str) -> std::process::Output {
    run(&["publish", ruleset, version, "--content", s(content)])
}

fn validate(content: &Path) -> std::process::Output {
    run(&["validate", "--content", s(content)])
}

#[test]
fn an_immutable_catalog_or_manifest_refuses_publish_and_changes_nothing() {
    if !can("an_immutable_catalog_or_manifest_refuses_publish_and_changes_nothing", &["chattr"]) {
        return;
    }
    let (_tmp, content) = microfut_draft();
    let catalog = content.join("microfut/catalog.json");
    let manifest = content.join("microfut/0.6.22/manifest.json");
    for target in [&catalog, &manifest] {
        let before = tree_state(&content);
        let Some(guard) = Immutable::set(target) else {
            eprintln!("skipped: this file system takes no immutable flag");
            return;
        };
        let o = publish(&content, "microfut", "0.6.22");
        assert_eq!(o.status.code(), Some(2), "{}", stdout(&o));
        let err = stderr(&o);
        assert!(err.contains(&format!("cannot write {}: it is immutable", target.display())), "{err}");
        assert!(err.contains("nothing was written"), "{err}");
        assert_eq!(tree_state(&content), before, "publish changed the tree");
        assert!(strays(&content).is_empty(), "{:?}", strays(&content));
        let v = validate(&content);
        assert!(v.status.success(), "validate refuses the unchanged tree: {}", stdout(&v));
        drop(guard);
    }
    let o = publish(&content, "microfut", "0.6.22");
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(status(&content, "microfut", "0.6.22"), "published");
    assert!(validate(&content).status.success());
}

#[test]
fn a_rename_that_fails_late_leaves_nothing_published() {
    if !can("a_rename_that_fails_late_leaves_nothing_published", &["strace"]) {
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    let content = trilha_draft(tmp.path());
    let before = tree_state(&content);
    let o = Command::new("strace")
        .args(["-f", "-o", "/dev/null", "-e", "trace=rename", "-e", "inject=rename:error=EIO:when=2", bin()])
        .args(["publish", "trilha", "1.0.1", "--content", s(&content)])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2), "{}", stdout(&o));
    let err = stderr(&o);
    assert!(err.contains("Input/output error (os error 5); nothing was written"), "{err}");
    assert_eq!(tree_state(&content), before, "the first rename was not undone");
    assert!(strays(&content).is_empty(), "{:?}", strays(&content));
    assert!(validate(&content).status.success());
}

/// After a publish stopped anywhere: `validate` either passes with the revision published, or
/// names what to do, and `publish` then finishes it. Returns what `validate` said first.
fn recover(content: &Path, expected: &Value, what: &str) -> String {
    let v = validate(content);
    let said = stdout(&v);
    let done = v.status.success() && catalog_entry(content, "trilha", "1.0.1").is_some();
    if !done {
        if catalog_entry(content, "trilha", "1.0.1").is_some() || status(content, "trilha", "1.0.1") == "published" {
            assert!(
                said.contains("an interrupted publish") && said.contains("tools/publish trilha 1.0.1"),
                "{what}: {said}"
            );
        }
        let p = publish(content, "trilha", "1.0.1");
        assert!(p.status.success(), "{what}: publish refuses after validate said\n{said}\n{}", stderr(&p));
        assert!(strays(content).is_empty(), "{what}: publish left {:?}", strays(content));
        let v = validate(content);
        assert!(v.status.success(), "{what}: {}", stdout(&v));
    } else if !strays(content).is_empty() {
        assert!(said.contains("warning:") && said.contains("the next `tools/publish` removes it"), "{what}: {said}");
    }
    assert_eq!(status(content, "trilha", "1.0.1"), "published", "{what}");
    let entry = catalog_entry(content, "trilha", "1.0.1").unwrap();
    assert_eq!(entry["fingerprint"], expected["fingerprint"], "{what}");
    said
}

#[test]
fn a_publish_killed_at_every_step_is_finished_by_the_next() {
    // strace kills the process at the n-th call of each system call publish writes with, for
    // every n until one runs to the end: every point a kill can fall between two steps.
    if !can("a_publish_killed_at_every_step_is_finished_by_the_next", &["strace"]) {
        return;
    }
    let reference = tempfile::tempdir().unwrap();
    let content = trilha_draft(reference.path());
    assert!(publish(&content, "trilha", "1.0.1").status.success());
    let expected = catalog_entry(&content, "trilha", "1.0.1").unwrap();
    let mut half = 0;
    let mut points = 0;
    for syscall in ["unlink", "openat", "write", "fsync", "linkat", "rename"] {
        for n in 1..=300 {
            let tmp = tempfile::tempdir().unwrap();
            let content = trilha_draft(tmp.path());
            let o = Command::new("strace")
                .args(["-f", "-o", "/dev/null", "-e", &format!("trace={syscall}")])
                .args(["-e", &format!("inject={syscall}:signal=SIGKILL:when={n}"), bin()])
                .args(["publish", "trilha", "1.0.1", "--content", s(&content)])
                .output()
                .unwrap();
            let killed = o.status.code() != Some(0);
            let what = format!("killed at {syscall} #{n}");
            let said = recover(&content, &expected, &what);
            points += 1;
            half += usize::from(said.contains("an interrupted publish"));
            if !killed {
                break;
            }
        }
    }
    eprintln!("{points} kill points, {half} left a half-published revision; every one finished");
    assert!(half > 0, "no kill fell between the two renames");
}

#[test]
fn a_publish_killed_at_random_moments_is_finished_by_the_next() {
    let pristine = tempfile::tempdir().unwrap();
    let source = trilha_draft(pristine.path());
    let expected = {
        let t = tempfile::tempdir().unwrap();
        let c = t.path().join("c");
        copy_dir(&source, &c);
        assert!(publish(&c, "trilha", "1.0.1").status.success());
        catalog_entry(&c, "trilha", "1.0.1").unwrap()
    };
    let mut state = 0x9e37_79b9_7f4a_7c15_u64;
    let (mut untouched, mut half, mut whole) = (0, 0, 0);
    for i in 0..200 {
        let t = tempfile::tempdir().unwrap();
        let content = t.path().join("c");
        copy_dir(&source, &content);
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        let delay = Duration::from_micros(state % 40_000);
        let mut child = Command::new(bin())
            .args(["publish", "trilha", "1.0.1", "--content", s(&content)])
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .spawn()
            .unwrap();
        std::thread::sleep(delay);
        let _ = child.kill();
        child.wait().unwrap();
        let recorded = catalog_entry(&content, "trilha", "1.0.1").is_some();
        let marked = status(&content, "trilha", "1.0.1") == "published";
        match (recorded, marked) {
            (false, false) => untouched += 1,
            (true, true) => whole += 1,
            _ => half += 1,
        }
        recover(&content, &expected, &format!("kill {i} after {delay:?}"));
    }
    eprintln!("200 kills: {untouched} before any rename, {half} between the renames, {whole} after both; all finished");
}

#[test]
fn a_half_published_revision_edited_afterwards_is_refused_until_the_edit_is_undone() {
    if !can("a_half_published_revision_edited_afterwards_is_refused_until_the_edit_is_undone", &["strace"]) {
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    let content = trilha_draft(tmp.path());
    let o = Command::new("strace")
        .args(["-f", "-o", "/dev/null", "-e", "trace=rename", "-e", "inject=rename:signal=SIGKILL:when=2", bin()])
        .args(["publish", "trilha", "1.0.1", "--content", s(&content)])
        .output()
        .unwrap();
    assert_ne!(o.status.code(), Some(0));
    assert!(catalog_entry(&content, "trilha", "1.0.1").is_some(), "the catalog is written first");
    assert_eq!(status(&content, "trilha", "1.0.1"), "draft");
    let manifest = content.join("trilha/1.0.1/manifest.json");
    let original = fs::read(&manifest).unwrap();
    edit_json(&manifest, |m| m["change_note"] = json!("Edited after the kill."));
    let said = stdout(&validate(&content));
    assert!(said.contains("its files have changed since that fingerprint was recorded"), "{said}");
    let before = tree_state(&content);
    let p = publish(&content, "trilha", "1.0.1");
    assert_eq!(p.status.code(), Some(2));
    assert!(stderr(&p).contains("were edited after the publish was interrupted"), "{}", stderr(&p));
    assert_eq!(tree_state(&content), before);
    fs::write(&manifest, original).unwrap();
    let p = publish(&content, "trilha", "1.0.1");
    assert!(p.status.success(), "{}", stderr(&p));
    assert!(stdout(&p).contains("finished an interrupted publish: marked its manifest published"), "{}", stdout(&p));
    assert!(validate(&content).status.success());
}

#[test]
fn a_manifest_marked_published_but_not_recorded_is_recorded_by_publish() {
    // What an older engine's publish left when killed between its renames (manifest first), or
    // a hand edit: validate says how to finish it, and publish does.
    let tmp = tempfile::tempdir().unwrap();
    let content = trilha_draft(tmp.path());
    edit_json(&content.join("trilha/1.0.1/manifest.json"), |m| m["status"] = json!("published"));
    let v = validate(&content);
    assert_eq!(v.status.code(), Some(1));
    let said = stdout(&v);
    assert!(
        said.contains("trilha 1.0.1 is marked published but not recorded in catalog.json: an interrupted publish")
            && said.contains("run `tools/publish trilha 1.0.1` to finish it"),
        "{said}"
    );
    let p = publish(&content, "trilha", "1.0.1");
    assert!(p.status.success(), "{}", stderr(&p));
    assert!(stdout(&p).contains("finished an interrupted publish: recorded it in catalog.json"), "{}", stdout(&p));
    assert!(validate(&content).status.success());
}

#[test]
fn a_missing_catalog_is_refused_unless_nothing_was_published() {
    let (_tmp, content) = microfut_draft();
    fs::remove_file(content.join("microfut/catalog.json")).unwrap();
    let before = tree_state(&content);
    let p = publish(&content, "microfut", "0.6.22");
    assert_eq!(p.status.code(), Some(2));
    let err = stderr(&p);
    assert!(
        err.contains("microfut/catalog.json is missing, but 0.5.0, 0.5.1,") && err.contains("are marked published"),
        "{err}"
    );
    assert!(err.contains("nothing was written"), "{err}");
    assert_eq!(tree_state(&content), before);

    // A ruleset whose one published revision is lost with its catalog: not recreated either.
    let tmp = tempfile::tempdir().unwrap();
    let trilha = trilha_draft(tmp.path());
    fs::remove_file(trilha.join("trilha/catalog.json")).unwrap();
    let p = publish(&trilha, "trilha", "1.0.1");
    assert_eq!(p.status.code(), Some(2));
    assert!(stderr(&p).contains("but 1.0.0 is marked published"), "{}", stderr(&p));

    // A brand-new ruleset (nothing published yet) creates its catalog, with the fingerprint the
    // repository records for the same files.
    let recorded = catalog_entry(&Path::new(env!("CARGO_MANIFEST_DIR")).join("content"), "trilha", "1.0.0").unwrap();
    fs::remove_dir_all(trilha.join("trilha/1.0.1")).unwrap();
    edit_json(&trilha.join("trilha/1.0.0/manifest.json"), |m| m["status"] = json!("draft"));
    let p = publish(&trilha, "trilha", "1.0.0");
    assert!(p.status.success(), "{}", stderr(&p));
    assert_eq!(catalog_entry(&trilha, "trilha", "1.0.0").unwrap()["fingerprint"], recorded["fingerprint"]);
    assert!(validate(&trilha).status.success());
}

#[test]
fn stray_temporaries_are_reported_by_validate_and_removed_by_publish() {
    let tmp = tempfile::tempdir().unwrap();
    let content = trilha_draft(tmp.path());
    // A process that has ended: its id names the leftovers of a killed publish.
    let mut gone = Command::new("true").spawn().unwrap();
    let pid = gone.id();
    gone.wait().unwrap();
    let names = [
        format!("trilha/.catalog.json.{pid}-0.microfut-tmp"),
        format!("trilha/.catalog.json.{pid}-0.microfut-bak"),
        format!("trilha/1.0.1/.manifest.json.{pid}-1.microfut-tmp"),
    ];
    for n in &names {
        fs::write(content.join(n), "{}").unwrap();
    }
    let v = validate(&content);
    assert!(v.status.success(), "strays are a warning: {}", stdout(&v));
    for n in &names {
        assert!(
            stdout(&v).contains(&format!("warning: {n}: a temporary file of an interrupted write")),
            "{}",
            stdout(&v)
        );
    }
    let j: Value = serde_json::from_slice(&run(&["validate", "--content", s(&content), "--json"]).stdout).unwrap();
    assert_eq!(j["warnings"].as_array().unwrap().len(), 3, "{j}");
    let p = publish(&content, "trilha", "1.0.1");
    assert!(p.status.success(), "{}", stderr(&p));
    assert_eq!(stdout(&p).matches("left by an interrupted write").count(), 3, "{}", stdout(&p));
    assert!(strays(&content).is_empty(), "{:?}", strays(&content));
    let v = validate(&content);
    assert!(!stdout(&v).contains("warning"), "{}", stdout(&v));
}
