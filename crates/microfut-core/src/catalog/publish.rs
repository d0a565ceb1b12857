//! Publishing: a validated draft becomes an immutable, fingerprinted, recorded revision.
//!
//! Two files change: `catalog.json` gains the revision's fingerprint and the revision's
//! `manifest.json` says `published`. They are written by one [`crate::files::Plan`], catalog
//! first: a failure of either puts the other back (nothing was written), and a process killed
//! between the two renames leaves the catalog recording a draft — a state `validate` names ("an
//! interrupted publish; run `tools/publish …` again to finish it") and `publish` finishes after
//! checking that the files still have the fingerprint recorded. The converse (a manifest marked
//! published that the catalog does not record: a hand edit, or an older engine's interrupted
//! publish, which renamed the manifest first) is finished too, by recording the revision as its
//! files are. No sequence of failures or kills leaves a state that `validate` and `publish` both
//! refuse; temporary and backup files a kill leaves are reported by `validate` and removed by the
//! next publish.

use super::manifest::{CatalogFile, PublishedEntry, Status};
use super::{Catalog, ContentTree, Diagnostic, HalfPublished, Revision};
use semver::Version;
use serde_json::Value;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

#[derive(Debug, thiserror::Error)]
pub enum PublishError {
    #[error(transparent)]
    Tree(#[from] super::TreeError),
    #[error("'{0}' is not a version (expected semver such as 0.5.1)")]
    BadVersion(String),
    #[error("ruleset {ruleset} has no revision folder {version} under {dir}")]
    Missing { ruleset: String, version: String, dir: String },
    #[error("{0} is already published and published revisions are immutable; copy it to a new version to change it")]
    AlreadyPublished(String),
    #[error("{revision} does not validate ({} error(s)); nothing was written:\n{}", .diagnostics.len(), render(.diagnostics))]
    Invalid { revision: String, diagnostics: Vec<Diagnostic> },
    #[error("{}{}", .0, if .0.changed_something() { "" } else { "; nothing was written" })]
    Write(#[from] crate::files::WriteError),
    #[error(
        "cannot publish {ruleset} {version}: {}{} — publishing rewrites catalog.json, and would lose the fingerprints of the revisions published before; fix the file first (nothing was written)",
        .problems[0],
        if .problems.len() > 1 { format!(" (and {} more problem(s) in it)", .problems.len() - 1) } else { String::new() }
    )]
    CatalogUnusable { ruleset: String, version: String, problems: Vec<Diagnostic> },
    #[error(
        "cannot publish {ruleset} {version}: {file} is missing, but {} marked published — publishing would write a catalog without their fingerprints, and every one of them would then fail `validate`; restore {file} (from version control) first (nothing was written)",
        list_versions(.published)
    )]
    CatalogMissing { ruleset: String, version: String, file: String, published: Vec<String> },
    #[error(
        "cannot finish publishing {revision}: catalog.json records it with {recorded}, but its files, marked published, now have {now}: they were edited after the publish was interrupted; undo the edits (nothing was written)"
    )]
    EditedSince { revision: String, recorded: String, now: String },
    #[error("cannot publish {revision}: {source}; nothing was written")]
    Engine { revision: String, source: Box<super::CatalogError> },
}

fn render(d: &[Diagnostic]) -> String {
    d.iter().map(|d| format!("  {d}")).collect::<Vec<_>>().join("\n")
}

fn list_versions(v: &[String]) -> String {
    match v {
        [one] => format!("{one} is"),
        many => format!("{} are", many.join(", ")),
    }
}

#[derive(Debug, Clone)]
pub struct PublishReport {
    pub revision: String,
    pub fingerprint: String,
    pub catalog_file: PathBuf,
    /// What an interrupted publish had left to do, when this one finished it.
    pub finished: Option<&'static str>,
    /// Temporary and backup files of interrupted writes removed from the ruleset's folder.
    pub removed: Vec<PathBuf>,
}

/// What is left to write.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Step {
    Both,
    CatalogOnly,
    ManifestOnly,
}

/// Validates, fingerprints, marks published and records `<ruleset>/<version>` in a content folder,
/// or finishes a publish of it that was interrupted (see the module comment).
/// `check` is the ruleset's meaning check (the catalog only knows schemas and manifests).
pub fn publish(
    dir: &Path,
    ruleset: &str,
    version: &str,
    today: &str,
    check: &dyn Fn(&Revision) -> Vec<Diagnostic>,
) -> Result<PublishReport, PublishError> {
    let parsed = Version::parse(version).map_err(|_| PublishError::BadVersion(version.into()))?;
    let tree = ContentTree::from_dir(dir)?;
    let catalog = Catalog::load(&tree);
    let entry = catalog.rulesets.get(ruleset);
    let rev = entry.and_then(|e| e.revisions.get(&parsed)).ok_or_else(|| PublishError::Missing {
        ruleset: ruleset.into(),
        version: version.into(),
        dir: dir.display().to_string(),
    })?;
    let entry = entry.expect("the revision is in it");
    let catalog_path = dir.join(ruleset).join("catalog.json");
    if !entry.catalog_problems.is_empty() {
        return Err(PublishError::CatalogUnusable {
            ruleset: ruleset.into(),
            version: version.into(),
            problems: entry.catalog_problems.clone(),
        });
    }
    if entry.catalog.is_none() {
        let published: Vec<String> = entry
            .revisions
            .values()
            .filter(|r| r.version != parsed && r.status() == Some(Status::Published))
            .map(|r| r.version.to_string())
            .collect();
        if !published.is_empty() {
            return Err(PublishError::CatalogMissing {
                ruleset: ruleset.into(),
                version: version.into(),
                file: catalog_path.display().to_string(),
                published,
            });
        }
    }
    let step = match &rev.half_published {
        None if rev.status() == Some(Status::Published) => return Err(PublishError::AlreadyPublished(rev.label())),
        None if entry.catalog.as_ref().is_some_and(|c| c.entry(version).is_some()) => {
            return Err(PublishError::AlreadyPublished(rev.label()));
        }
        None => Step::Both,
        Some((HalfPublished::Unrecorded, _)) => Step::CatalogOnly,
        Some((HalfPublished::RecordedDraft { intact: true, .. }, _)) => Step::ManifestOnly,
        Some((HalfPublished::RecordedDraft { recorded, intact: false }, _)) => {
            return Err(PublishError::EditedSince {
                revision: rev.label(),
                recorded: recorded.clone(),
                now: rev.fingerprint_as_published.clone().unwrap_or_default(),
            });
        }
    };
    // The half-published state is what this run repairs, not a reason to refuse it (the meaning
    // check refuses a revision with any diagnostic, so it is given one without it).
    let mut repaired = rev.clone();
    if let Some((_, own)) = repaired.half_published.take() {
        repaired.diagnostics.retain(|d| *d != own);
    }
    let rev = &repaired;
    let mut problems: Vec<Diagnostic> = rev.diagnostics.clone();
    if problems.is_empty() {
        problems.extend(check(rev));
    }
    if !problems.is_empty() {
        return Err(PublishError::Invalid { revision: rev.label(), diagnostics: problems });
    }
    // Published for an engine that cannot run it, it would be refused by every command.
    super::check_engine(rev)
        .map_err(|source| PublishError::Engine { revision: rev.label(), source: Box::new(source) })?;

    // Mark published, then fingerprint what will be on disk.
    let manifest_doc = as_published(&rev.documents["manifest.json"]);
    let fingerprint = fingerprint_as_published(&rev.documents);
    let manifest_path = dir.join(ruleset).join(version).join("manifest.json");
    let cat_value = serde_json::to_value(recorded(entry, rev, version, &fingerprint, today)).expect("serializes");
    let (manifest_text, cat_text) = (pretty(&manifest_doc), pretty(&cat_value));
    let (catalog_out, manifest_out) = (("catalog", catalog_path.as_path()), ("manifest", manifest_path.as_path()));
    // Catalog first: a kill between the two renames leaves a state `publish` finishes.
    let (outputs, texts): (Vec<_>, Vec<&[u8]>) = match step {
        Step::Both => (vec![catalog_out, manifest_out], vec![cat_text.as_bytes(), manifest_text.as_bytes()]),
        Step::CatalogOnly => (vec![catalog_out], vec![cat_text.as_bytes()]),
        Step::ManifestOnly => (vec![manifest_out], vec![manifest_text.as_bytes()]),
    };
    crate::files::Plan::new(&outputs, &[])?.write(&texts)?;
    let removed = remove_strays(&dir.join(ruleset));
    Ok(PublishReport {
        revision: rev.label(),
        fingerprint,
        catalog_file: catalog_path,
        finished: match step {
            Step::Both => None,
            Step::CatalogOnly => Some("recorded it in catalog.json"),
            Step::ManifestOnly => Some("marked its manifest published"),
        },
        removed,
    })
}

/// The catalog with `version` recorded (as it already is, when an interrupted publish got that far).
fn recorded(entry: &super::RulesetEntry, rev: &Revision, version: &str, fingerprint: &str, today: &str) -> CatalogFile {
    let mut cat = entry.catalog.clone().unwrap_or_else(|| CatalogFile {
        schema: "../../schemas/catalog.schema.json".into(),
        ruleset: entry.id.clone(),
        label: rev.manifest.as_ref().map(|m| m.label.clone()).unwrap_or_default(),
        published: Vec::new(),
    });
    if cat.entry(version).is_none() {
        cat.published.push(PublishedEntry {
            version: version.into(),
            fingerprint: fingerprint.into(),
            published_on: today.into(),
        });
    }
    cat.published.sort_by(|a, b| {
        let (va, vb) = (Version::parse(&a.version).ok(), Version::parse(&b.version).ok());
        va.cmp(&vb)
    });
    cat
}

fn as_published(manifest: &Value) -> Value {
    let mut m = manifest.clone();
    m["status"] = Value::String("published".into());
    m
}

/// The fingerprint a revision's documents have once its manifest says published: what `publish`
/// records.
pub fn fingerprint_as_published(documents: &BTreeMap<String, Value>) -> String {
    let mut documents = documents.clone();
    if let Some(m) = documents.get("manifest.json") {
        let m = as_published(m);
        documents.insert("manifest.json".into(), m);
    }
    super::fingerprint(&documents)
}

/// Temporary and backup files of interrupted writes ([`crate::files::leftover`]) under `dir`,
/// with the process that made each; symbolic links are not followed.
pub fn stray_files(dir: &Path) -> Vec<(PathBuf, u32)> {
    let mut out = Vec::new();
    let Ok(entries) = std::fs::read_dir(dir) else { return out };
    for entry in entries.flatten() {
        let Ok(kind) = entry.file_type() else { continue };
        if kind.is_dir() {
            out.extend(stray_files(&entry.path()));
        } else if let Some(pid) = entry.file_name().to_str().and_then(crate::files::leftover) {
            out.push((entry.path(), pid));
        }
    }
    out.sort();
    out
}

/// Removes the leftovers under `dir` of processes that no longer run (a running one may be
/// another command writing there now).
fn remove_strays(dir: &Path) -> Vec<PathBuf> {
    stray_files(dir)
        .into_iter()
        .filter(|(_, pid)| !crate::files::is_running(*pid))
        .filter(|(path, _)| std::fs::remove_file(path).is_ok())
        .map(|(path, _)| path)
        .collect()
}

fn pretty(value: &Value) -> String {
    let mut text = serde_json::to_string_pretty(value).expect("values serialize");
    text.push('\n');
    text
}

/// Today's date (UTC) as YYYY-MM-DD, from the system clock.
pub fn today_utc() -> String {
    let secs = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map(|d| d.as_secs()).unwrap_or(0);
    let days = (secs / 86_400) as i64;
    // Civil-from-days (Howard Hinnant's algorithm).
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let y = yoe + era * 400;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = if m <= 2 { y + 1 } else { y };
    format!("{y:04}-{m:02}-{d:02}")
}
