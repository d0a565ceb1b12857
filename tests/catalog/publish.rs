//! Publishing and immutability: a draft becomes published once; a published revision whose files
//! change is caught; failed commands write nothing.

use crate::common;
use common::*;
use serde_json::json;
use std::path::Path;

fn draft(content: &Path, version: &str) -> std::path::PathBuf {
    // From the newest revision: a draft declares every parameter's domain, as every revision from 0.5.5 on does.
    let dir = draft_copy(content, "0.6.21", version);
    edit_json(&dir.join("manifest.json"), |m| {
        m["parent"] = json!("0.6.21");
        m["change_note"] = json!("Test draft: a longer reach for every kick.");
    });
    edit_json(&dir.join("derived.json"), |d| {
        d["derived"][8]["base"]["expr"] = json!("9 + 2.4 * power");
    });
    dir
}

#[test]
fn publishing_a_draft_records_it_and_makes_it_usable() {
    let (_tmp, content) = content_copy();
    let c = content.to_str().unwrap();
    draft(&content, "0.6.22");
    let o = run(&["publish", "microfut", "0.6.22", "--content", c]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stdout(&o).contains("published microfut 0.6.22 — sha256:"));
    let cat: serde_json::Value =
        serde_json::from_slice(&std::fs::read(content.join("microfut/catalog.json")).unwrap()).unwrap();
    let versions: Vec<&str> =
        cat["published"].as_array().unwrap().iter().map(|e| e["version"].as_str().unwrap()).collect();
    assert_eq!(versions, ["0.5.0", "0.5.1", "0.5.2", "0.5.3", "0.5.4", "0.5.5", "0.6.0", "0.6.5", "0.6.20", "0.6.22"]);
    let manifest: serde_json::Value =
        serde_json::from_slice(&std::fs::read(content.join("microfut/0.6.22/manifest.json")).unwrap()).unwrap();
    assert_eq!(manifest["status"], "published");
    assert!(run(&["validate", "--content", c]).status.success());
    // The newest published revision is the default, and its change shows.
    let r = run(&["resolve", "range", "--set", "power=10", "--json", "--content", c]);
    let v: serde_json::Value = serde_json::from_slice(&r.stdout).unwrap();
    assert_eq!(v["revision"], "0.6.22");
    assert_eq!(v["value"], 33);
}

#[test]
fn publishing_over_a_published_revision_is_refused_and_writes_nothing() {
    let (_tmp, content) = content_copy();
    let before = tree_state(&content);
    let o = run(&["publish", "microfut", "0.5.0", "--content", content.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("microfut 0.5.0 is already published"), "{}", stderr(&o));
    assert_eq!(tree_state(&content), before);
}

#[test]
fn an_invalid_draft_is_not_published() {
    let (_tmp, content) = content_copy();
    let dir = draft(&content, "0.6.22");
    edit_json(&dir.join("modifiers.json"), |m| m["modifiers"][0]["expr"] = json!("controle"));
    let before = tree_state(&content);
    let o = run(&["publish", "microfut", "0.6.22", "--content", content.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    let err = stderr(&o);
    assert!(err.contains("does not validate") && err.contains("unknown variable 'controle'"), "{err}");
    assert_eq!(tree_state(&content), before);
}

#[test]
fn tampering_with_a_published_revision_is_caught() {
    let (_tmp, content) = content_copy();
    let c = content.to_str().unwrap();
    edit_json(&content.join("microfut/0.5.0/params.json"), |p| p["params"][0]["value"] = json!(100));
    let o = run(&["validate", "--content", c]);
    assert_eq!(o.status.code(), Some(1));
    let out = stdout(&o);
    assert!(out.contains("published revision microfut 0.5.0 no longer matches its recorded fingerprint"), "{out}");
    assert!(out.contains("new draft version"), "{out}");
    let r = run(&["resolve", "range", "--set", "power=10", "--revision", "0.5.0", "--content", c]);
    assert_eq!(r.status.code(), Some(2));
}

#[test]
fn reformatting_a_published_revision_is_not_tampering() {
    let (_tmp, content) = content_copy();
    let path = content.join("microfut/0.5.0/params.json");
    let v: serde_json::Value = serde_json::from_slice(&std::fs::read(&path).unwrap()).unwrap();
    std::fs::write(&path, serde_json::to_string(&v).unwrap()).unwrap();
    assert!(run(&["validate", "--content", content.to_str().unwrap()]).status.success());
}

#[test]
fn a_run_pinned_to_another_fingerprint_is_refused() {
    let catalog = microfut::catalog::Catalog::load(&microfut::catalog::ContentTree::embedded());
    let rev = catalog.revision("microfut", Some("0.5.0")).unwrap();
    assert!(catalog.pinned("microfut", "0.5.0", &rev.fingerprint).is_ok());
    let err = catalog.pinned("microfut", "0.5.0", "sha256:00").unwrap_err().to_string();
    assert!(err.contains("cannot be replayed"), "{err}");
}
