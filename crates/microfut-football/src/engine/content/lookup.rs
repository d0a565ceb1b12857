//! The names a match document writes, looked up in its revision, and the error that names
//! what is missing: shared by the match documents' loaders (`content`, `set_pieces`), so
//! each loader depends on this file and none on another.

use microfut_core::catalog::{Diagnostic, declared_schema};
use microfut_core::ruleset::{Missing, RangeTable, Ruleset};
use serde::Deserialize;
use std::sync::Arc;

#[derive(Debug, thiserror::Error)]
pub enum ContentError {
    /// Every name the engine needs that the revision lacks, all at once.
    #[error("{}", .0.iter().map(|m| m.to_string()).collect::<Vec<_>>().join("; "))]
    Missing(Vec<Missing>),
    #[error(
        "revision {revision} has no {what} (a {schema} document), which the match engine needs; it can resolve single tests (`microfut resolve`) but not play matches — use a revision that carries the match documents, or compare variants of one with its scenarios"
    )]
    NoDocument { revision: String, what: &'static str, schema: &'static str },
    /// Problems at places in content, each with its document and JSON pointer.
    #[error("{}", .0.iter().map(|d| d.to_string()).collect::<Vec<_>>().join("; "))]
    Invalid(Vec<Diagnostic>),
}

impl ContentError {
    pub(crate) fn at(file: impl Into<String>, pointer: impl Into<String>, message: impl Into<String>) -> ContentError {
        ContentError::Invalid(vec![Diagnostic::new(file, pointer, message)])
    }
}

pub(crate) fn doc<T: for<'de> Deserialize<'de>>(
    rs: &Ruleset,
    schema: &'static str,
    what: &'static str,
) -> Result<(String, T), ContentError> {
    let rev = &rs.revision;
    let (name, value) = rev
        .documents
        .iter()
        .find(|(_, d)| declared_schema(d) == Some(schema))
        .ok_or_else(|| ContentError::NoDocument { revision: rs.label(), what, schema })?;
    let parsed = microfut_core::catalog::from_value_located(value.clone(), schema)
        .map_err(|e| ContentError::at(rev.file(name), e.pointer, format!("cannot read as {schema}: {}", e.message)))?;
    Ok((rev.file(name), parsed))
}

/// A name content writes for something the revision must declare (a pipeline, a table, a
/// variable), refused where it is written — not where such things are declared — with the
/// closest declared name.
pub(crate) fn misnamed(file: &str, pointer: &str, what: &str, id: &str, known: Vec<String>) -> Diagnostic {
    let close = known
        .into_iter()
        .map(|k| (strsim::damerau_levenshtein(id, &k), k))
        .filter(|(d, k)| *d <= 2.max(k.len() / 4))
        .min()
        .map(|(_, k)| format!(" (did you mean '{k}'?)"))
        .unwrap_or_default();
    let id = microfut_core::catalog::printable(id);
    Diagnostic::new(file, pointer, format!("names {what} '{id}', which this revision does not declare{close}"))
}

/// The pipeline a document names at `pointer`.
pub(crate) fn named_pipeline(rs: &Ruleset, file: &str, pointer: &str, id: &str) -> Result<usize, Diagnostic> {
    rs.pipeline_index(id)
        .ok_or_else(|| misnamed(file, pointer, "pipeline", id, rs.pipelines.iter().map(|p| p.id.clone()).collect()))
}

/// The range table a document names at `pointer`.
pub(crate) fn named_range_table(
    rs: &Ruleset,
    file: &str,
    pointer: &str,
    id: &str,
) -> Result<Arc<RangeTable>, Diagnostic> {
    rs.table(id).and_then(|t| t.range().cloned()).ok_or_else(|| {
        let known = rs.tables.iter().filter(|t| t.range().is_some()).map(|t| t.id.clone()).collect();
        misnamed(file, pointer, "range table", id, known)
    })
}

/// The vocabulary variable a document names at `pointer`.
pub(crate) fn named_var(rs: &Ruleset, file: &str, pointer: &str, id: &str) -> Result<usize, Diagnostic> {
    rs.var(id).ok_or_else(|| misnamed(file, pointer, "variable", id, rs.vars.iter().map(|v| v.id.clone()).collect()))
}
