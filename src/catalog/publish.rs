//! Publishing: a validated draft becomes an immutable, fingerprinted, recorded revision.

use super::manifest::{CatalogFile, Labels, PublishedEntry, Status};
use super::{Catalog, ContentTree, Diagnostic, Revision};
use semver::Version;
use serde_json::Value;
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
    #[error("{}; nothing was written", .0)]
    Write(#[from] crate::files::WriteError),
    #[error(
        "cannot publish {ruleset} {version}: {}{} — publishing rewrites catalog.json, and would lose the fingerprints of the revisions published before; fix the file first (nothing was written)",
        .problems[0],
        if .problems.len() > 1 { format!(" (and {} more problem(s) in it)", .problems.len() - 1) } else { String::new() }
    )]
    CatalogUnusable { ruleset: String, version: String, problems: Vec<Diagnostic> },
    #[error("cannot publish {revision}: {source}; nothing was written")]
    Engine { revision: String, source: Box<super::CatalogError> },
}

fn render(d: &[Diagnostic]) -> String {
    d.iter().map(|d| format!("  {d}")).collect::<Vec<_>>().join("\n")
}

#[derive(Debug, Clone)]
pub struct PublishReport {
    pub revision: String,
    pub fingerprint: String,
    pub catalog_file: PathBuf,
}

/// Validates, fingerprints, marks published and records `<ruleset>/<version>` in a content folder.
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
    if let Some(e) = entry
        && !e.catalog_problems.is_empty()
    {
        return Err(PublishError::CatalogUnusable {
            ruleset: ruleset.into(),
            version: version.into(),
            problems: e.catalog_problems.clone(),
        });
    }
    let recorded = entry.and_then(|e| e.catalog.as_ref()).is_some_and(|c| c.entry(version).is_some());
    if recorded || rev.status() == Some(Status::Published) {
        return Err(PublishError::AlreadyPublished(rev.label()));
    }
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
    let mut manifest_doc = rev.documents["manifest.json"].clone();
    manifest_doc["status"] = Value::String("published".into());
    let mut documents = rev.documents.clone();
    documents.insert("manifest.json".into(), manifest_doc.clone());
    let fingerprint = super::fingerprint(&documents);

    let catalog_path = dir.join(ruleset).join("catalog.json");
    let mut cat = entry.and_then(|e| e.catalog.clone()).unwrap_or_else(|| CatalogFile {
        schema: "../../schemas/catalog.schema.json".into(),
        ruleset: ruleset.into(),
        label: rev.manifest.as_ref().map(|m| m.label.clone()).unwrap_or_else(Labels::default),
        published: Vec::new(),
    });
    cat.published.push(PublishedEntry {
        version: version.into(),
        fingerprint: fingerprint.clone(),
        published_on: today.into(),
    });
    cat.published.sort_by(|a, b| {
        let (va, vb) = (Version::parse(&a.version).ok(), Version::parse(&b.version).ok());
        va.cmp(&vb)
    });

    let manifest_path = dir.join(ruleset).join(version).join("manifest.json");
    let cat_value = serde_json::to_value(&cat).expect("catalog serializes");
    // Both files or neither, through links, keeping their permissions.
    crate::files::Plan::new(&[("manifest", &manifest_path), ("catalog", &catalog_path)], &[])?
        .write(&[pretty(&manifest_doc).as_bytes(), pretty(&cat_value).as_bytes()])?;
    Ok(PublishReport { revision: rev.label(), fingerprint, catalog_file: catalog_path })
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
