//! Loading content for a command and checking revisions for meaning, per ruleset.

use super::CliError;
use crate::catalog::{Catalog, ContentTree, Diagnostic, Revision};
use std::path::Path;

/// The catalog from `--content DIR`, or the embedded content.
pub fn load_catalog(content: Option<&Path>) -> Result<Catalog, CliError> {
    let tree = match content {
        Some(dir) => ContentTree::from_dir(dir).map_err(CliError::input)?,
        None => ContentTree::embedded(),
    };
    Ok(Catalog::load(&tree))
}

/// The meaning check of a revision, chosen by its ruleset; then, when the revision itself is
/// sound, the same check on every lab scenario it declares (each overlay applied).
pub fn meaning_check(rev: &Revision) -> Vec<Diagnostic> {
    let out = ruleset_check(rev);
    if !out.is_empty() {
        return out;
    }
    crate::lab::scenario::check(rev, &ruleset_check)
}

fn ruleset_check(rev: &Revision) -> Vec<Diagnostic> {
    match rev.ruleset.as_str() {
        "microfut" => {
            let compiled = crate::ruleset::compile(rev);
            let mut out = match &compiled {
                Ok(_) => Vec::new(),
                Err(d) => d.clone(),
            };
            if let Err(d) = crate::sheet::Roles::from_revision(rev) {
                out.extend(d);
            }
            if let Ok(rs) = compiled {
                out.extend(crate::sheet::rules::content_check(&rs));
                out.extend(crate::club::rules::content_check(&rs));
                // The match engine's own needs: its documents, pipelines, tables and parameters.
                out.extend(crate::engine::content::check(std::sync::Arc::new(rs)));
            }
            out
        }
        "trilha" => crate::trilha::compile(rev).err().unwrap_or_default(),
        "effects" => crate::effects::compile(rev).err().unwrap_or_default(),
        other => vec![Diagnostic::new(rev.file("manifest.json"), "/id", format!("no compiler for ruleset '{other}'"))],
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
