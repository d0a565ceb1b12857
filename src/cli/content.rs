//! Loading content for a command and checking revisions for meaning, per ruleset.

use super::CliError;
use crate::catalog::{Catalog, ContentTree, Diagnostic, Revision, RulesetEntry};
use crate::ruleset::domain::{self, Policy};
use std::path::Path;

/// The content tree of `--content DIR`, or the embedded content.
pub(super) fn content_tree(content: Option<&Path>) -> Result<ContentTree, CliError> {
    match content {
        Some(dir) => ContentTree::from_dir(dir).map_err(CliError::input),
        None => Ok(ContentTree::embedded()),
    }
}

/// The catalog from `--content DIR`, or the embedded content.
pub fn load_catalog(content: Option<&Path>) -> Result<Catalog, CliError> {
    Ok(Catalog::load(&content_tree(content)?))
}

/// The catalog for a command that plays one revision (`None`: the newest published): the
/// others are checked as by [`load_catalog`] but their documents not kept (peak memory).
pub fn load_catalog_for(content: Option<&Path>, ruleset: &str, version: Option<&str>) -> Result<Catalog, CliError> {
    Ok(Catalog::load_one(&content_tree(content)?, ruleset, version))
}

/// [`load_catalog_for`] for a command that plays several revisions of one ruleset (the lab's
/// `--revision` and `--against`).
pub fn load_catalog_for_some(
    content: Option<&Path>,
    ruleset: &str,
    versions: &[Option<&str>],
) -> Result<Catalog, CliError> {
    Ok(Catalog::load_some(&content_tree(content)?, ruleset, versions))
}

/// The meaning check of a revision, chosen by its ruleset; then, when the revision itself is
/// sound, the same check on every lab scenario it declares (each overlay applied).
pub fn meaning_check(rev: &Revision) -> Vec<Diagnostic> {
    meaning_check_with(rev, None)
}

/// `validate`'s meaning check: [`meaning_check`], with the parameter domains a published
/// revision that predates them borrows from the first that declares them, and a refusal for a
/// published revision after that one that declares none.
pub fn meaning_check_in(entry: &RulesetEntry, rev: &Revision) -> Vec<Diagnostic> {
    let legacy = domain::legacy_source(entry, rev);
    let mut out = domain::missing_after_source(entry, rev);
    out.extend(meaning_check_with(rev, legacy.as_ref()));
    out
}

/// The meaning check of the revision itself, without its scenarios (each of which can only add
/// refusals): what a content mutation is judged by in the property tests.
pub fn revision_check(rev: &Revision) -> Vec<Diagnostic> {
    ruleset_check(rev, Policy::Own)
}

fn meaning_check_with(rev: &Revision, legacy: Option<&domain::LegacyDomains>) -> Vec<Diagnostic> {
    let policy = legacy.map_or(Policy::Own, Policy::Borrowed);
    let out = ruleset_check(rev, policy);
    if !out.is_empty() {
        return out;
    }
    crate::lab::scenario::check(rev, &|patched: &Revision| {
        let mut d = ruleset_check(patched, policy);
        d.extend(domain::changed_by(rev, patched));
        d
    })
}

fn ruleset_check(rev: &Revision, domains: Policy) -> Vec<Diagnostic> {
    match crate::find_game(&rev.ruleset) {
        Some(game) => game.check(rev, domains),
        None => vec![Diagnostic::new(
            rev.file("manifest.json"),
            "/id",
            format!("no compiler for ruleset '{}'", rev.ruleset),
        )],
    }
}

/// A compiled Microfut revision, refusing an unusable one with a clear message.
pub fn microfut_ruleset(catalog: &Catalog, version: Option<&str>) -> Result<crate::ruleset::Ruleset, CliError> {
    let rev = catalog.revision("microfut", version).map_err(CliError::input)?;
    crate::ruleset::compile(rev).map_err(|d| {
        CliError::input(format!(
            "{} has {} content error(s), first: {}; run `microfut validate`",
            rev.label(),
            d.len(),
            d[0]
        ))
    })
}
