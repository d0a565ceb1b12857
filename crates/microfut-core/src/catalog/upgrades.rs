//! A ruleset's `upgrades.json`: what its published revisions were played with beyond their own
//! frozen files, keyed by fingerprint. A revision cannot change once published, so when a later
//! engine reads from content what an earlier revision left to the engine (a number it kept in
//! code, the name of a skill), the value that revision was played with is declared here, and
//! the revision carries it (`Revision::upgrade`). No engine asks which version it plays.

use super::strict::from_value_located;
use super::{Diagnostic, RulesetEntry, validate_as};
use serde::Deserialize;
use std::collections::BTreeMap;

/// The file, beside the ruleset's `catalog.json`.
pub const FILE: &str = "upgrades.json";

/// What one published revision implies beyond its files.
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Upgrade {
    /// The version `catalog.json` records with the key's fingerprint.
    pub revision: String,
    /// Parameters the revision does not declare, with the values it was played with.
    #[serde(default)]
    pub params: BTreeMap<String, f64>,
    /// Other values it was played with that it does not write itself (a skill's name, where
    /// its calibration staged its situations), by the game's key; the game checks each.
    #[serde(default)]
    pub values: BTreeMap<String, serde_json::Value>,
    /// Where the entry is, for a game's meaning checks: file and JSON pointer.
    #[serde(skip)]
    pub file: String,
    #[serde(skip)]
    pub pointer: String,
}

impl Upgrade {
    /// The JSON pointer of one of the entry's parameters (`part` "params") or values ("values").
    pub fn pointer_to(&self, part: &str, key: &str) -> String {
        format!("{}/{part}/{}", self.pointer, super::escape_token(key))
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct UpgradesFile {
    #[serde(rename = "$schema")]
    _schema: String,
    #[serde(default, rename = "note")]
    _note: Option<String>,
    revisions: BTreeMap<String, Upgrade>,
}

/// Reads the ruleset's `upgrades.json`, checks each entry against what `catalog.json` records
/// (a fingerprint it records, with the same version), and gives each revision its entry. A file
/// with a problem gives nothing: a revision that needs its entry is then refused for what it
/// lacks, never played with a value nobody checked.
pub(super) fn attach(entry: &mut RulesetEntry, out: &mut Vec<Diagnostic>) {
    let Some(doc) = entry.extra.get(FILE) else {
        return;
    };
    let file = format!("{}/{FILE}", entry.id);
    let mut problems = Vec::new();
    if !validate_as(&file, "upgrades.schema.json", doc, &mut problems) {
        out.extend(problems);
        return;
    }
    let parsed = match from_value_located::<UpgradesFile>(doc.clone(), "an upgrades file") {
        Ok(p) => p,
        Err(e) => {
            out.push(Diagnostic::new(&file, e.pointer, e.message));
            return;
        }
    };
    let recorded: BTreeMap<&str, &str> =
        entry.catalog.iter().flat_map(|c| &c.published).map(|p| (p.fingerprint.as_str(), p.version.as_str())).collect();
    for (fingerprint, upgrade) in &parsed.revisions {
        let pointer = format!("/revisions/{}", super::escape_token(fingerprint));
        match recorded.get(fingerprint.as_str()) {
            None => problems.push(Diagnostic::new(
                &file,
                &pointer,
                "catalog.json records no published revision with this fingerprint",
            )),
            Some(v) if *v != upgrade.revision => problems.push(Diagnostic::new(
                &file,
                format!("{pointer}/revision"),
                format!("catalog.json records this fingerprint for {v}, not {}", upgrade.revision),
            )),
            Some(_) => {}
        }
    }
    if !problems.is_empty() {
        out.extend(problems);
        return;
    }
    for rev in entry.revisions.values_mut() {
        if let Some(u) = parsed.revisions.get(&rev.fingerprint) {
            rev.upgrade = Some(Upgrade {
                file: file.clone(),
                pointer: format!("/revisions/{}", super::escape_token(&rev.fingerprint)),
                ..u.clone()
            });
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::catalog::{Catalog, ContentTree};
    use std::path::{Path, PathBuf};

    fn content_with(upgrades: impl FnOnce(&mut serde_json::Value)) -> (tempfile::TempDir, PathBuf) {
        let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../content/microfut");
        let tmp = tempfile::tempdir().unwrap();
        let dst = tmp.path().join("microfut");
        copy_dir(&src, &dst);
        let file = dst.join("upgrades.json");
        let mut doc: serde_json::Value = serde_json::from_slice(&std::fs::read(&file).unwrap()).unwrap();
        upgrades(&mut doc);
        std::fs::write(&file, serde_json::to_vec_pretty(&doc).unwrap()).unwrap();
        let root = tmp.path().to_path_buf();
        (tmp, root)
    }

    fn copy_dir(from: &Path, to: &Path) {
        std::fs::create_dir_all(to).unwrap();
        for e in std::fs::read_dir(from).unwrap() {
            let e = e.unwrap();
            if e.file_type().unwrap().is_dir() {
                copy_dir(&e.path(), &to.join(e.file_name()));
            } else {
                std::fs::copy(e.path(), to.join(e.file_name())).unwrap();
            }
        }
    }

    #[test]
    fn each_published_revision_carries_its_entry_and_no_other() {
        let catalog = Catalog::load(&ContentTree::embedded());
        let entry = &catalog.rulesets["microfut"];
        let old = entry.revisions.values().find(|r| r.version.to_string() == "0.5.2").unwrap();
        let u = old.upgrade.as_ref().expect("0.5.2 has an entry");
        assert_eq!(u.revision, "0.5.2");
        assert!(u.params.contains_key("take_on_reach_factor"));
        assert_eq!(u.file, "microfut/upgrades.json");
        assert_eq!(u.pointer, format!("/revisions/{}", old.fingerprint));
        // Every entry sits on the revision catalog.json records with its fingerprint.
        for rev in entry.revisions.values().filter(|r| r.upgrade.is_some()) {
            assert_eq!(rev.upgrade.as_ref().unwrap().revision, rev.version.to_string());
        }
    }

    #[test]
    fn an_entry_for_a_fingerprint_nobody_published_is_refused_and_nothing_is_attached() {
        let (_tmp, root) = content_with(|doc| {
            let revisions = doc["revisions"].as_object_mut().unwrap();
            revisions.insert(format!("sha256:{}", "0".repeat(64)), serde_json::json!({"revision": "0.5.2"}));
        });
        let catalog = Catalog::load(&ContentTree::from_dir(&root).unwrap());
        let found: Vec<String> = catalog.diagnostics.iter().map(|d| d.to_string()).collect();
        assert!(
            found.iter().any(|d| d.contains("microfut/upgrades.json")
                && d.contains(&format!("/revisions/sha256:{}", "0".repeat(64)))
                && d.contains("records no published revision with this fingerprint")),
            "{found:#?}"
        );
        assert!(catalog.rulesets["microfut"].revisions.values().all(|r| r.upgrade.is_none()));
    }

    #[test]
    fn an_entry_whose_version_is_not_the_fingerprints_is_refused() {
        let (_tmp, root) = content_with(|doc| {
            let first = doc["revisions"].as_object_mut().unwrap().values_mut().next().unwrap();
            first["revision"] = "9.9.9".into();
        });
        let catalog = Catalog::load(&ContentTree::from_dir(&root).unwrap());
        let found: Vec<String> = catalog.diagnostics.iter().map(|d| d.to_string()).collect();
        assert!(found.iter().any(|d| d.contains("/revision") && d.contains("not 9.9.9")), "{found:#?}");
    }

    #[test]
    fn a_file_that_breaks_its_schema_is_named_by_pointer() {
        let (_tmp, root) = content_with(|doc| {
            let first = doc["revisions"].as_object_mut().unwrap().values_mut().next().unwrap();
            first["params"]["take_on_reach_factor"] = "two".into();
        });
        let catalog = Catalog::load(&ContentTree::from_dir(&root).unwrap());
        let found: Vec<String> = catalog.diagnostics.iter().map(|d| d.to_string()).collect();
        assert!(
            found.iter().any(|d| d.contains("upgrades.json") && d.contains("/params/take_on_reach_factor")),
            "{found:#?}"
        );
        assert!(catalog.rulesets["microfut"].revisions.values().all(|r| r.upgrade.is_none()));
    }
}
