//! Embeds the workspace's `content/` and `schemas/` into the binary so the main job runs on the default content
//! from anywhere, with no files beside it. Of each ruleset's revision folders only those its
//! `catalog.json` lists as published are embedded: a draft is work in progress, read with
//! `--content`, and embedding every draft made the binary and every command's start-up (which
//! loads and checks what is embedded) grow with the history instead of with the game.

use std::collections::BTreeSet;
use std::fs;
use std::path::{Path, PathBuf};

fn collect(dir: &Path, skip: &dyn Fn(&Path) -> bool, out: &mut Vec<PathBuf>) {
    let Ok(entries) = fs::read_dir(dir) else {
        return;
    };
    let mut entries: Vec<_> = entries.flatten().map(|e| e.path()).collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            if !skip(&p) {
                collect(&p, skip, out);
            }
        } else if p.extension().is_some_and(|e| e == "json") {
            out.push(p);
        }
    }
}

/// The versions `content/<ruleset>/catalog.json` records as published. A catalog that does not
/// read gives none: its revisions are then left out, and the catalog itself (embedded as it is)
/// makes the loader report the problem.
fn published(ruleset_dir: &Path) -> BTreeSet<semver::Version> {
    let Ok(bytes) = fs::read(ruleset_dir.join("catalog.json")) else {
        return BTreeSet::new();
    };
    let Ok(doc) = serde_json::from_slice::<serde_json::Value>(&bytes) else {
        return BTreeSet::new();
    };
    doc["published"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|e| semver::Version::parse(e["version"].as_str()?).ok())
        .collect()
}

/// A revision folder (`content/<ruleset>/<version>/`, named as the loader names them) that its
/// ruleset's catalog does not list as published.
fn is_unpublished_revision(content: &Path, dir: &Path) -> bool {
    let Ok(rel) = dir.strip_prefix(content) else {
        return false;
    };
    let parts: Vec<_> = rel.iter().filter_map(|s| s.to_str()).collect();
    let [ruleset, name] = parts.as_slice() else {
        return false;
    };
    match semver::Version::parse(name) {
        Ok(v) => !published(&content.join(ruleset)).contains(&v),
        Err(_) => false,
    }
}

fn main() {
    // content/ and schemas/ are the workspace's, two levels above this crate.
    let manifest_dir = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").unwrap()).join("../..");
    let manifest_dir = manifest_dir.canonicalize().unwrap_or(manifest_dir);
    let mut code = String::from("pub static FILES: &[(&str, &[u8])] = &[\n");
    for top in ["content", "schemas"] {
        let root = manifest_dir.join(top);
        println!("cargo:rerun-if-changed={}", root.display());
        let mut files = Vec::new();
        let content = manifest_dir.join("content");
        collect(&root, &|d| is_unpublished_revision(&content, d), &mut files);
        for f in files {
            let rel = f.strip_prefix(&manifest_dir).unwrap().to_string_lossy().replace('\\', "/");
            code.push_str(&format!("    ({rel:?}, include_bytes!({:?})),\n", f.display().to_string()));
        }
    }
    code.push_str("];\n");
    let out = PathBuf::from(std::env::var("OUT_DIR").unwrap()).join("embedded.rs");
    fs::write(out, code).unwrap();
}
