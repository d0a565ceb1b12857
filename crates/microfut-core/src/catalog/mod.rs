//! The content catalog: rulesets, their revisions, schema validation, fingerprints, publishing.
//!
//! Generic over rulesets: it knows manifests, documents, schemas and fingerprints, not what a
//! pipeline or a Trilha square is. Meaning is checked by each ruleset's compiler on top.

mod diagnostic;
mod fingerprint;
mod manifest;
mod publish;
mod schema;
pub mod seal;
mod strict;
mod tree;
pub mod upgrades;

pub use diagnostic::{Diagnostic, Sink, escape_token, printable};
pub use fingerprint::fingerprint;
pub use manifest::{CatalogFile, Labels, Manifest, PublishedEntry, Status};
pub use publish::{PublishError, PublishReport, fingerprint_as_published, publish, stray_files, today_utc};
pub use schema::{declared_schema, validate as validate_schema, validate_as};
pub use strict::{
    Located, check_keys, describe as describe_json_error, from_json, from_value_located, kind as json_kind,
};
pub use tree::{ContentTree, Origin, TreeError};
pub use upgrades::Upgrade;

use semver::{Version, VersionReq};
use serde_json::Value;
use std::collections::BTreeMap;

/// This engine's version; revisions declare which engine versions they accept.
pub const ENGINE_VERSION: &str = env!("CARGO_PKG_VERSION");

pub fn engine_version() -> Version {
    Version::parse(ENGINE_VERSION).expect("crate version is semver")
}

/// One revision folder: `<ruleset>/<version>/`.
#[derive(Debug, Clone)]
pub struct Revision {
    pub ruleset: String,
    pub version: Version,
    /// `microfut/0.5.0`
    pub dir: String,
    pub manifest: Option<Manifest>,
    /// Every document by file name, `manifest.json` included.
    pub documents: BTreeMap<String, Value>,
    pub fingerprint: String,
    /// Problems found while loading: schema, manifest, catalog consistency.
    pub diagnostics: Vec<Diagnostic>,
    /// Loaded by [`Catalog::load_one`] for another revision: checked and fingerprinted like
    /// any, its documents then dropped; [`Catalog::revision`] refuses it.
    pub trimmed: bool,
    /// For a draft that `catalog.json` records: the fingerprint its files have once marked
    /// published (what an interrupted publish recorded), computed before documents are trimmed.
    pub fingerprint_as_published: Option<String>,
    /// A publish that stopped between its two files, as `catalog.json` and the manifest show it,
    /// with the one problem `validate` reports for it.
    pub half_published: Option<(HalfPublished, Diagnostic)>,
    /// What a published revision was played with beyond its files: its entry in the ruleset's
    /// `upgrades.json`, found by its fingerprint (see [`upgrades`]).
    pub upgrade: Option<Upgrade>,
}

/// How a publish that was stopped half-way (killed, or an older engine's that failed between
/// its two renames) left a revision; `publish` finishes either.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum HalfPublished {
    /// `catalog.json` records it, its manifest still says draft. `intact`: its files, marked
    /// published, still have the recorded fingerprint (else it was edited since: refused).
    RecordedDraft { recorded: String, intact: bool },
    /// Its manifest says published, `catalog.json` does not record it.
    Unrecorded,
}

impl Revision {
    pub fn file(&self, name: &str) -> String {
        format!("{}/{}", self.dir, name)
    }
    pub fn document(&self, name: &str) -> Option<&Value> {
        self.documents.get(name)
    }
    pub fn status(&self) -> Option<Status> {
        self.manifest.as_ref().map(|m| m.status)
    }
    pub fn label(&self) -> String {
        format!("{} {}", self.ruleset, self.version)
    }

    /// The one document of this revision declaring `schema`, read as `T`: `(file, value)`, or
    /// `None` with a diagnostic — none declares it, two do, or it does not read as `T` (at the
    /// JSON pointer of the value that does not fit). Every ruleset's compiler starts here;
    /// `game` names the ruleset in messages ("a Trilha revision").
    pub fn one_document<T: serde::de::DeserializeOwned>(
        &self,
        schema: &str,
        game: &str,
        out: &mut Vec<Diagnostic>,
    ) -> Option<(String, T)> {
        let found: Vec<_> = self.documents.iter().filter(|(_, d)| declared_schema(d) == Some(schema)).collect();
        match found.as_slice() {
            [] => {
                out.push(Diagnostic::new(
                    self.file("manifest.json"),
                    "/documents",
                    format!("{game} needs a document with schema {schema}"),
                ));
                None
            }
            [(name, doc)] => {
                let file = self.file(name);
                match from_value_located::<T>((*doc).clone(), schema) {
                    Ok(t) => Some((file, t)),
                    Err(e) => {
                        out.push(Diagnostic::new(file, e.pointer, format!("cannot read as {schema}: {}", e.message)));
                        None
                    }
                }
            }
            [_, rest @ ..] => {
                for (name, _) in rest {
                    out.push(Diagnostic::new(
                        self.file(name),
                        "/$schema",
                        format!("a second document with schema {schema}: {game} has one"),
                    ));
                }
                None
            }
        }
    }
}

/// A ruleset folder: its catalog file, its revisions and any other files (clubs, boards).
#[derive(Debug, Clone, Default)]
pub struct RulesetEntry {
    pub id: String,
    pub catalog: Option<CatalogFile>,
    pub revisions: BTreeMap<Version, Revision>,
    /// Files outside revision folders, by path relative to the ruleset folder (`clubs/x.json`).
    pub extra: BTreeMap<String, Value>,
    /// Problems of an existing `catalog.json` (unreadable, or recording a revision that is not
    /// there). While it has any, no revision of the ruleset is used and none is published: the
    /// record of what was published, and with which fingerprint, cannot be trusted.
    pub catalog_problems: Vec<Diagnostic>,
}

#[derive(Debug, Clone)]
pub struct Catalog {
    pub tree_origin: Origin,
    pub rulesets: BTreeMap<String, RulesetEntry>,
    /// Problems outside any revision (catalog files, stray files).
    pub diagnostics: Vec<Diagnostic>,
}

#[derive(Debug, thiserror::Error, PartialEq)]
pub enum CatalogError {
    #[error("unknown ruleset '{0}' (known: {1})")]
    UnknownRuleset(String, String),
    #[error("'{0}' is not a version (expected semver such as 0.5.0)")]
    BadVersion(String),
    #[error("ruleset {ruleset} has no revision {version} (available: {available})")]
    MissingRevision { ruleset: String, version: String, available: String },
    #[error("ruleset {0} has no published revision; name a draft with --revision")]
    NothingPublished(String),
    #[error(
        "{first}{}; the record of published revisions cannot be trusted, so no {ruleset} revision is used until it is fixed (`microfut validate` lists every problem)",
        if *.count > 1 { format!(" (and {} more problem(s) in it)", .count - 1) } else { String::new() }
    )]
    CatalogUnusable { ruleset: String, first: Diagnostic, count: usize },
    #[error("revision {revision} was checked but not kept: this command loaded the catalog for another revision")]
    NotLoaded { revision: String },
    #[error("revision {revision} has {count} content error(s), first: {first}; run `microfut validate`")]
    Invalid { revision: String, count: usize, first: String },
    #[error(
        "revision {revision} requires engine {requirement}, but this is engine {engine}; use an engine that satisfies the requirement"
    )]
    EngineMismatch { revision: String, requirement: String, engine: String },
    #[error(
        "revision {revision} has fingerprint {actual}, but the run was made with {expected}: the revision's files changed since the run was made, or the run's fingerprint was edited; the run cannot be replayed on it"
    )]
    FingerprintMismatch { revision: String, expected: String, actual: String },
}

impl Catalog {
    /// Loads every ruleset of a content tree, collecting all problems instead of stopping.
    pub fn load(tree: &ContentTree) -> Catalog {
        Self::load_keeping(tree, None)
    }

    /// Loads a content tree for a command that plays one revision: `version` of `ruleset`, or
    /// (`None`) the newest its manifest calls published — the one [`Catalog::revision`] picks.
    /// Every revision is still parsed, checked and fingerprinted, one at a time and newest
    /// first, so the catalog's checks, its diagnostics and the revision chosen are those of
    /// [`Catalog::load`]; every other revision's documents are dropped as soon as it is checked
    /// (marked `trimmed`). Why: the embedded catalog holds a dozen revisions, and holding all
    /// their parsed documents at once was most of a match command's peak memory.
    pub fn load_one(tree: &ContentTree, ruleset: &str, version: Option<&str>) -> Catalog {
        Self::load_some(tree, ruleset, &[version])
    }

    /// [`Catalog::load_one`] for a command that plays several revisions of one ruleset (the
    /// lab's A/B mode, `--revision` and `--against`): each of `versions` is kept (`None`: the
    /// newest published), every other revision checked and trimmed.
    pub fn load_some(tree: &ContentTree, ruleset: &str, versions: &[Option<&str>]) -> Catalog {
        let versions = versions.iter().map(|v| v.map(|v| Version::parse(v).ok())).collect();
        Self::load_keeping(tree, Some((ruleset, versions)))
    }

    /// `keep`: `None` keeps every revision; `Some((ruleset, versions))` the revisions of
    /// `ruleset` that one of `versions` names — `Some(Some(v))` that version, `None` the newest
    /// published, `Some(None)` (a version that does not parse, refused later by `revision`)
    /// none.
    fn load_keeping(tree: &ContentTree, keep: Option<(&str, Vec<Option<Option<Version>>>)>) -> Catalog {
        let mut rulesets: BTreeMap<String, RulesetEntry> = BTreeMap::new();
        let mut diagnostics = Vec::new();
        let mut revision_files: BTreeMap<(String, String), BTreeMap<String, &[u8]>> = BTreeMap::new();

        for (path, bytes) in &tree.files {
            let parts: Vec<&str> = path.split('/').collect();
            let ruleset = parts[0].to_string();
            if parts.len() < 2 {
                diagnostics.push(Diagnostic::new(
                    path,
                    "",
                    "stray file at the content root: content lives in <ruleset>/",
                ));
                continue;
            }
            let entry = rulesets
                .entry(ruleset.clone())
                .or_insert_with(|| RulesetEntry { id: ruleset.clone(), ..Default::default() });
            match parts.as_slice() {
                [_, "catalog.json"] => {
                    let mut problems = Vec::new();
                    if let Some(doc) = parse_json(path, bytes, &mut problems)
                        && validate_as(path, "catalog.schema.json", &doc, &mut problems)
                    {
                        match from_value_located::<CatalogFile>(doc, "a catalog") {
                            Ok(c) => entry.catalog = Some(c),
                            Err(e) => problems.push(Diagnostic::new(path.as_str(), e.pointer, e.message)),
                        }
                    }
                    entry.catalog_problems.extend(problems);
                }
                [_, dir, file] if Version::parse(dir).is_ok() => {
                    revision_files.entry((ruleset, dir.to_string())).or_default().insert(file.to_string(), bytes);
                }
                [_, dir, ..] if Version::parse(dir).is_ok() => {
                    diagnostics.push(Diagnostic::new(path, "", "revision folders hold documents only, no sub-folders"));
                }
                [_, rest @ ..] => {
                    if let Some(doc) = parse_json(path, bytes, &mut diagnostics) {
                        entry.extra.insert(rest.join("/"), doc);
                    }
                }
                [] => unreachable!(),
            }
        }

        // Newest first, by version (folder names sort as text), so that the newest published
        // revision is met before the others.
        let mut order: Vec<_> = revision_files.into_iter().collect();
        order.sort_by(|((ra, da), _), ((rb, db), _)| {
            let (va, vb) = (Version::parse(da).expect("folder name checked"), Version::parse(db).expect("checked"));
            ra.cmp(rb).then(vb.cmp(&va))
        });
        let mut kept_newest_published = false;
        for ((ruleset, dir), files) in order {
            let recorded_fingerprint = rulesets[&ruleset].catalog.as_ref().and_then(|c| {
                let version = Version::parse(&dir).ok();
                c.published.iter().find(|e| Version::parse(&e.version).ok() == version).map(|e| e.fingerprint.clone())
            });
            // Embedded content is what the build took from a content folder that CI validates,
            // so a command that plays one revision reads only the manifests of the others
            // (`validate`, which keeps every revision, still checks them all): start-up of a
            // command is then the revision it plays, not the whole history.
            let mut rev = match (&keep, &tree.origin, &recorded_fingerprint) {
                (Some(_), Origin::Embedded, Some(fp)) => {
                    let head = load_manifest_only(&ruleset, &dir, &files, fp);
                    let plays = |rev: &Revision| match &keep {
                        Some((r, versions)) if *r == ruleset => versions.iter().any(|v| match v {
                            Some(v) => v.as_ref() == Some(&rev.version),
                            None => !kept_newest_published,
                        }),
                        _ => false,
                    };
                    if head.status() == Some(Status::Published) && head.diagnostics.is_empty() && !plays(&head) {
                        head
                    } else {
                        load_revision(&ruleset, &dir, &files)
                    }
                }
                _ => load_revision(&ruleset, &dir, &files),
            };
            let recorded = recorded_fingerprint.is_some();
            if recorded && rev.status() == Some(Status::Draft) {
                rev.fingerprint_as_published = Some(fingerprint_as_published(&rev.documents));
            }
            let kept = match &keep {
                None => true,
                Some((r, _)) if *r != ruleset => false,
                Some((_, versions)) => {
                    let newest = !kept_newest_published && rev.status() == Some(Status::Published);
                    kept_newest_published |= newest;
                    versions.iter().any(|v| match v {
                        Some(v) => v.as_ref() == Some(&rev.version),
                        None => newest,
                    })
                }
            };
            if !kept {
                rev.documents = BTreeMap::new();
                rev.trimmed = true;
            }
            rulesets.get_mut(&ruleset).expect("created above").revisions.insert(rev.version.clone(), rev);
        }
        for entry in rulesets.values_mut() {
            check_catalog(entry, &mut diagnostics);
            upgrades::attach(entry, &mut diagnostics);
            diagnostics.extend(entry.catalog_problems.iter().cloned());
        }
        Catalog { tree_origin: tree.origin.clone(), rulesets, diagnostics }
    }

    /// How a file of this content is named in messages: `content/microfut/clubs/x.json
    /// (embedded)`, or its path under the content folder.
    pub fn display_path(&self, rel: &str) -> String {
        match &self.tree_origin {
            Origin::Embedded => format!("content/{rel} (embedded)"),
            Origin::Dir(d) => d.join(rel).display().to_string(),
        }
    }

    pub fn ruleset(&self, id: &str) -> Result<&RulesetEntry, CatalogError> {
        self.rulesets.get(id).ok_or_else(|| {
            CatalogError::UnknownRuleset(id.into(), self.rulesets.keys().cloned().collect::<Vec<_>>().join(", "))
        })
    }

    /// A usable revision: the named one, or the newest published. Refuses a revision with content
    /// errors or one whose engine requirement excludes this engine.
    pub fn revision(&self, ruleset: &str, version: Option<&str>) -> Result<&Revision, CatalogError> {
        let entry = self.ruleset(ruleset)?;
        if let Some(first) = entry.catalog_problems.first() {
            return Err(CatalogError::CatalogUnusable {
                ruleset: ruleset.into(),
                first: first.clone(),
                count: entry.catalog_problems.len(),
            });
        }
        let rev = match version {
            Some(v) => {
                let parsed = Version::parse(v).map_err(|_| CatalogError::BadVersion(v.into()))?;
                entry.revisions.get(&parsed).ok_or_else(|| CatalogError::MissingRevision {
                    ruleset: ruleset.into(),
                    version: v.into(),
                    available: entry.revisions.keys().map(|k| k.to_string()).collect::<Vec<_>>().join(", "),
                })?
            }
            None => entry
                .revisions
                .values()
                .rev()
                .find(|r| r.status() == Some(Status::Published))
                .ok_or_else(|| CatalogError::NothingPublished(ruleset.into()))?,
        };
        if rev.trimmed {
            return Err(CatalogError::NotLoaded { revision: rev.label() });
        }
        if let Some(first) = rev.diagnostics.first() {
            return Err(CatalogError::Invalid {
                revision: rev.label(),
                count: rev.diagnostics.len(),
                first: first.to_string(),
            });
        }
        check_engine(rev)?;
        Ok(rev)
    }

    /// The revision a run was made with, refusing it when its files changed since.
    pub fn pinned(&self, ruleset: &str, version: &str, fingerprint: &str) -> Result<&Revision, CatalogError> {
        let rev = self.revision(ruleset, Some(version))?;
        if rev.fingerprint != fingerprint {
            return Err(CatalogError::FingerprintMismatch {
                revision: rev.label(),
                expected: fingerprint.into(),
                actual: rev.fingerprint.clone(),
            });
        }
        Ok(rev)
    }
}

/// Refuses a revision whose engine requirement excludes this engine.
pub fn check_engine(rev: &Revision) -> Result<(), CatalogError> {
    let Some(m) = &rev.manifest else {
        return Ok(());
    };
    let engine = engine_version();
    let ok = VersionReq::parse(&m.engine).map(|req| req.matches(&engine)).unwrap_or(false);
    if ok {
        Ok(())
    } else {
        Err(CatalogError::EngineMismatch {
            revision: rev.label(),
            requirement: m.engine.clone(),
            engine: engine.to_string(),
        })
    }
}

fn parse_json(file: &str, bytes: &[u8], out: &mut Vec<Diagnostic>) -> Option<Value> {
    match from_json::<Value>(bytes) {
        Ok(v) => Some(v),
        Err(e) => {
            out.push(Diagnostic::new(file, "", describe_json_error(&e)));
            None
        }
    }
}

/// A published revision read no further than its manifest (version, status, parent), trimmed,
/// with the fingerprint `catalog.json` records for it: see `load_keeping`.
fn load_manifest_only(ruleset: &str, dir: &str, files: &BTreeMap<String, &[u8]>, recorded: &str) -> Revision {
    let rev_dir = format!("{ruleset}/{dir}");
    let mut diagnostics = Vec::new();
    let mut documents = BTreeMap::new();
    if let Some(bytes) = files.get("manifest.json") {
        let file = format!("{rev_dir}/manifest.json");
        if let Some(doc) = parse_json(&file, bytes, &mut diagnostics) {
            documents.insert("manifest.json".to_string(), doc);
        }
    }
    let present: Vec<&str> = files.keys().map(String::as_str).collect();
    let manifest = check_manifest(ruleset, dir, &rev_dir, &documents, &present, &mut diagnostics);
    Revision {
        ruleset: ruleset.into(),
        version: Version::parse(dir).expect("folder name checked"),
        dir: rev_dir,
        manifest,
        documents: BTreeMap::new(),
        fingerprint: recorded.to_string(),
        diagnostics,
        trimmed: true,
        fingerprint_as_published: None,
        half_published: None,
        upgrade: None,
    }
}

fn load_revision(ruleset: &str, dir: &str, files: &BTreeMap<String, &[u8]>) -> Revision {
    let rev_dir = format!("{ruleset}/{dir}");
    let mut diagnostics = Vec::new();
    let mut documents = BTreeMap::new();
    for (name, bytes) in files {
        let file = format!("{rev_dir}/{name}");
        if let Some(doc) = parse_json(&file, bytes, &mut diagnostics) {
            documents.insert(name.clone(), doc);
        }
    }
    let version = Version::parse(dir).expect("folder name checked");
    let present: Vec<&str> = files.keys().map(String::as_str).collect();
    let manifest = check_manifest(ruleset, dir, &rev_dir, &documents, &present, &mut diagnostics);
    for (name, doc) in &documents {
        if name == "manifest.json" {
            continue;
        }
        let file = format!("{rev_dir}/{name}");
        match declared_schema(doc) {
            Some(schema) => {
                let schema = schema.to_string();
                validate_schema(&file, &schema, doc, &mut diagnostics);
            }
            None if !doc.is_object() => diagnostics.push(Diagnostic::new(
                file,
                "",
                format!(
                    "expected a JSON object (a document naming its schema in \"$schema\"), found {}",
                    json_kind(doc)
                ),
            )),
            None => diagnostics.push(match doc.get("$schema") {
                Some(v) => {
                    Diagnostic::new(file, "/$schema", format!("expected a schema's path, found {}", json_kind(v)))
                }
                None => Diagnostic::new(file, "/$schema", "missing: every document names its schema"),
            }),
        }
    }
    let fingerprint = fingerprint(&documents);
    Revision {
        ruleset: ruleset.into(),
        version,
        dir: rev_dir,
        manifest,
        documents,
        fingerprint,
        diagnostics,
        trimmed: false,
        fingerprint_as_published: None,
        half_published: None,
        upgrade: None,
    }
}

fn check_manifest(
    ruleset: &str,
    dir: &str,
    rev_dir: &str,
    documents: &BTreeMap<String, Value>,
    present: &[&str],
    out: &mut Vec<Diagnostic>,
) -> Option<Manifest> {
    let file = format!("{rev_dir}/manifest.json");
    let Some(doc) = documents.get("manifest.json") else {
        out.push(Diagnostic::new(file, "", "a revision needs a manifest.json"));
        return None;
    };
    let before = out.len();
    let schema_ok = validate_as(&file, "manifest.schema.json", doc, out);
    // The field checks read the raw document, so a schema problem in one field does not hide a
    // problem in another; a field the schema already flagged is not reported twice.
    let flagged: Vec<String> = out[before..].iter().map(|d| d.pointer.clone()).collect();
    let field = |name: &str| -> Option<&str> {
        let pointer = format!("/{name}");
        let clean = !flagged.iter().any(|f| *f == pointer || f.starts_with(&format!("{pointer}/")));
        doc.get(name).and_then(Value::as_str).filter(|_| clean)
    };
    if let Some(id) = field("id")
        && id != ruleset
    {
        out.push(Diagnostic::new(&file, "/id", format!("manifest id '{id}' but the folder is {ruleset}/")));
    }
    if let Some(v) = field("version")
        && v != dir
    {
        out.push(Diagnostic::new(&file, "/version", format!("manifest version {v} but the folder is {dir}/")));
    }
    if let Some(engine) = field("engine")
        && let Err(e) = VersionReq::parse(engine)
    {
        out.push(Diagnostic::new(&file, "/engine", format!("'{engine}' is not a semver requirement: {e}")));
    }
    if let Some(p) = field("parent")
        && Version::parse(p).is_err()
    {
        out.push(Diagnostic::new(&file, "/parent", format!("'{p}' is not a version")));
    }
    // Against the files present, parsed or not: a malformed document is reported once, as malformed.
    let listed: Option<Vec<&str>> =
        doc.get("documents").and_then(Value::as_array).map(|a| a.iter().filter_map(Value::as_str).collect());
    if let Some(listed) = &listed {
        for (i, d) in listed.iter().enumerate() {
            if !present.contains(d) {
                out.push(Diagnostic::new(
                    &file,
                    format!("/documents/{i}"),
                    format!("lists {d}, which is not in the folder"),
                ));
            }
        }
        for name in present {
            if *name != "manifest.json" && !listed.contains(name) {
                out.push(Diagnostic::new(&file, "/documents", format!("{name} is in the folder but not listed")));
            }
        }
    }
    if !schema_ok {
        return None;
    }
    match from_value_located(doc.clone(), "manifest.schema.json") {
        Ok(m) => Some(m),
        Err(e) => {
            out.push(Diagnostic::new(file, e.pointer, e.message));
            None
        }
    }
}

fn check_catalog(entry: &mut RulesetEntry, out: &mut Vec<Diagnostic>) {
    check_parents(entry);
    let cat_file = format!("{}/catalog.json", entry.id);
    if entry.catalog.is_none() && !entry.catalog_problems.is_empty() {
        // Present but unreadable: what was published, with which fingerprint, is unknown — said
        // once, about the file, rather than as a problem of every published revision.
        return;
    }
    let problems = &mut entry.catalog_problems;
    let published: BTreeMap<String, (usize, PublishedEntry)> = match &entry.catalog {
        Some(c) => {
            if c.ruleset != entry.id {
                problems.push(Diagnostic::new(
                    &cat_file,
                    "/ruleset",
                    format!("says '{}' but the folder is {}/", c.ruleset, entry.id),
                ));
            }
            let mut map = BTreeMap::new();
            for (i, e) in c.published.iter().enumerate() {
                if map.insert(e.version.clone(), (i, e.clone())).is_some() {
                    problems.push(Diagnostic::new(
                        &cat_file,
                        format!("/published/{i}"),
                        format!("version {} recorded twice", e.version),
                    ));
                }
            }
            map
        }
        None => {
            if !entry.revisions.is_empty() {
                out.push(Diagnostic::new(
                    &cat_file,
                    "",
                    "missing: every ruleset with revisions records its published ones here",
                ));
            }
            BTreeMap::new()
        }
    };
    let catalog_missing = entry.catalog.is_none();
    for (version, (i, e)) in &published {
        let found = Version::parse(version).ok().and_then(|v| entry.revisions.get_mut(&v));
        let Some(rev) = found else {
            problems.push(Diagnostic::new(
                &cat_file,
                format!("/published/{i}"),
                format!(
                    "records {} {version} as published, but there is no folder {}/{version}/: restore the folder (a published revision is never removed)",
                    entry.id, entry.id
                ),
            ));
            continue;
        };
        if rev.status() == Some(Status::Draft) {
            recorded_draft(&entry.id, rev, &e.fingerprint);
            continue;
        }
        if rev.fingerprint != e.fingerprint {
            rev.diagnostics.push(Diagnostic::new(
                rev.file("manifest.json"),
                "",
                format!(
                    "published revision {} {} no longer matches its recorded fingerprint ({} recorded, {} now): published revisions are immutable — undo the edit, or copy the folder to a new draft version and publish that",
                    entry.id, version, e.fingerprint, rev.fingerprint
                ),
            ));
        }
    }
    for rev in entry.revisions.values_mut() {
        if rev.status() == Some(Status::Published) && !published.contains_key(&rev.version.to_string()) {
            let label = rev.label();
            let message = if catalog_missing {
                format!(
                    "{label} is marked published but {}/catalog.json, the record of published revisions, is missing: restore it (from version control); `tools/publish` recreates it only for a ruleset whose one published revision is the one it publishes",
                    entry.id
                )
            } else {
                format!(
                    "{label} is marked published but not recorded in catalog.json: an interrupted publish (or a hand edit); run `tools/publish {} {}` to finish it — it records the revision as its files are now — or set the status back to \"draft\"",
                    rev.ruleset, rev.version
                )
            };
            let d = Diagnostic::new(rev.file("manifest.json"), "/status", message);
            rev.diagnostics.push(d.clone());
            rev.half_published = Some((HalfPublished::Unrecorded, d));
        }
    }
}

/// A draft that `catalog.json` records: a publish that wrote the catalog and was stopped before
/// the manifest. Its one problem says whether `publish` can finish it.
fn recorded_draft(ruleset: &str, rev: &mut Revision, recorded: &str) {
    let label = rev.label();
    let finish = format!("tools/publish {ruleset} {}", rev.version);
    let intact = rev.fingerprint_as_published.as_deref() == Some(recorded);
    let message = if intact {
        format!(
            "{label} is recorded as published in catalog.json but its manifest still says draft: an interrupted publish; run `{finish}` again to finish it"
        )
    } else {
        format!(
            "{label} is recorded as published in catalog.json ({recorded}) but its manifest still says draft, and its files have changed since that fingerprint was recorded ({} now, marked published): an interrupted publish, edited afterwards; undo the edits and run `{finish}` to finish it",
            rev.fingerprint_as_published.as_deref().unwrap_or("unknown")
        )
    };
    let d = Diagnostic::new(rev.file("manifest.json"), "/status", message);
    rev.diagnostics.push(d.clone());
    rev.half_published = Some((HalfPublished::RecordedDraft { recorded: recorded.to_string(), intact }, d));
}

/// A revision's parent is an older revision of the same ruleset, present in the catalog: the
/// lineage a designer follows from one revision's change note to the next. A published
/// revision's parent may be a draft that is no longer there: drafts leave the tree (and are not
/// embedded in the binary) once a successor is published, and the published revision cannot
/// change to forget it. A parent the catalog records as published must be present.
fn check_parents(entry: &mut RulesetEntry) {
    let versions: Vec<Version> = entry.revisions.keys().cloned().collect();
    let recorded: Vec<Version> =
        entry.catalog.iter().flat_map(|c| &c.published).filter_map(|e| Version::parse(&e.version).ok()).collect();
    for (version, rev) in entry.revisions.iter_mut() {
        let Some(parent) = rev.manifest.as_ref().and_then(|m| m.parent.clone()) else { continue };
        let Ok(p) = Version::parse(&parent) else { continue };
        let file = rev.file("manifest.json");
        let gone_draft = rev.status() == Some(Status::Published) && !recorded.contains(&p);
        if p >= *version {
            rev.diagnostics.push(Diagnostic::new(
                file,
                "/parent",
                format!("parent {parent} is not older than the revision itself ({version})"),
            ));
        } else if !versions.contains(&p) && !gone_draft {
            let known: Vec<String> = versions.iter().map(|v| v.to_string()).collect();
            rev.diagnostics.push(Diagnostic::new(
                file,
                "/parent",
                format!("parent {parent} is not a revision of {} (revisions: {})", entry.id, known.join(", ")),
            ));
        }
    }
}

/// The bytes of a JSON text without a UTF-8 byte order mark, which some editors (Windows
/// Notepad) write and RFC 8259 lets a parser ignore; fingerprints are over parsed values, so a
/// BOM never changes one.
pub fn strip_bom(bytes: &[u8]) -> &[u8] {
    bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The binary embeds only published revisions, whose parents are often drafts left out:
    /// what it embeds must still load without a problem, or every command would refuse it.
    #[test]
    fn the_embedded_catalog_loads_without_problems() {
        let catalog = Catalog::load(&ContentTree::embedded());
        let revisions = catalog.rulesets.values().flat_map(|e| e.revisions.values());
        let problems: Vec<String> =
            catalog.diagnostics.iter().chain(revisions.flat_map(|r| &r.diagnostics)).map(|d| d.to_string()).collect();
        assert!(problems.is_empty(), "{problems:#?}");
        assert!(
            catalog.rulesets.values().flat_map(|e| e.revisions.values()).all(|r| r.status() == Some(Status::Published))
        );
    }
}
