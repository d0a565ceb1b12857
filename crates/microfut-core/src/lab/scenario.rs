//! Scenarios: a revision plus an overlay, declared in the revision's scenarios document.
//!
//! An overlay is `{"<document file>": <JSON merge patch>}`. Applying it gives a new in-memory
//! revision that is checked by the same validator as content on disk (the document's JSON Schema,
//! then the ruleset's meaning check); any problem is reported at the overlay's place in the
//! scenarios document, so the designer sees which scenario and which key broke the rules.

use super::merge_patch;
use crate::catalog::{Diagnostic, Labels, Revision, declared_schema, escape_token, fingerprint, validate_schema};
use serde::Deserialize;
use serde_json::Value;
use std::collections::BTreeMap;

/// The schema file that marks a revision's scenarios document.
pub const SCHEMA: &str = "scenarios.schema.json";

/// The scenario every revision without a scenarios document has: the revision as it is.
pub const BASE_ID: &str = "base";

#[derive(Debug, Clone, Deserialize)]
struct ScenariosDoc {
    scenarios: Vec<Entry>,
}

#[derive(Debug, Clone, Deserialize)]
struct Entry {
    id: String,
    label: Labels,
    description: Labels,
    overlay: BTreeMap<String, Value>,
}

#[derive(Debug, Clone)]
pub struct Scenario {
    pub id: String,
    pub label: Labels,
    pub description: Labels,
    /// Document file → merge patch.
    pub overlay: BTreeMap<String, Value>,
    /// Where it is declared: the scenarios document's file name and the scenario's pointer.
    /// `None` for the implicit base scenario.
    pub source: Option<(String, String)>,
}

impl Scenario {
    fn base() -> Scenario {
        Scenario {
            id: BASE_ID.into(),
            label: Labels { pt_br: "Revisão como está".into(), en: "The revision as it is".into() },
            description: Labels {
                pt_br: "A revisão sem sobreposição (ela não declara cenários).".into(),
                en: "The revision with no overlay (it declares no scenarios).".into(),
            },
            overlay: BTreeMap::new(),
            source: None,
        }
    }
}

/// The scenarios document of a revision, if it has one: (file name, document).
fn document(rev: &Revision) -> Vec<(&String, &Value)> {
    rev.documents.iter().filter(|(_, d)| declared_schema(d) == Some(SCHEMA)).collect()
}

/// The revision's scenarios in declaration order, or the implicit base scenario when it declares
/// none. Problems with the document itself (duplicate ids, an overlay naming a document the
/// revision does not have) are reported with file and pointer.
pub fn scenarios(rev: &Revision) -> Result<Vec<Scenario>, Vec<Diagnostic>> {
    let docs = document(rev);
    let (name, doc) = match docs.as_slice() {
        [] => return Ok(vec![Scenario::base()]),
        [one] => *one,
        [_, second, ..] => {
            return Err(vec![Diagnostic::new(
                rev.file(second.0),
                "/$schema",
                "a revision holds at most one scenarios document",
            )]);
        }
    };
    let file = rev.file(name);
    let parsed: ScenariosDoc = crate::catalog::from_value_located(doc.clone(), SCHEMA)
        .map_err(|e| vec![Diagnostic::new(&file, e.pointer, format!("cannot read as {SCHEMA}: {}", e.message))])?;
    let mut out = Vec::new();
    let mut problems = Vec::new();
    for (i, e) in parsed.scenarios.into_iter().enumerate() {
        let at = format!("/scenarios/{i}");
        if out.iter().any(|s: &Scenario| s.id == e.id) {
            problems.push(Diagnostic::new(&file, format!("{at}/id"), format!("scenario '{}' declared twice", e.id)));
        }
        for target in e.overlay.keys() {
            let pointer = format!("{at}/overlay/{}", escape_token(target));
            if target == "manifest.json" || target == name {
                problems.push(Diagnostic::new(
                    &file,
                    pointer,
                    format!("an overlay changes rule documents, not {target}"),
                ));
            } else if !rev.documents.contains_key(target) {
                let known: Vec<&str> = rev
                    .documents
                    .keys()
                    .map(String::as_str)
                    .filter(|d| *d != "manifest.json" && *d != name.as_str())
                    .collect();
                problems.push(Diagnostic::new(
                    &file,
                    pointer,
                    format!(
                        "overlay names {target}, which is not a document of {} (documents: {})",
                        rev.label(),
                        known.join(", ")
                    ),
                ));
            }
        }
        out.push(Scenario {
            id: e.id,
            label: e.label,
            description: e.description,
            overlay: e.overlay,
            source: Some((name.clone(), at)),
        });
    }
    if problems.is_empty() { Ok(out) } else { Err(problems) }
}

/// The revision with the scenario's overlay applied, schema-checked; the fingerprint is that of
/// the patched documents. Problems are located in the scenarios document.
pub fn apply(rev: &Revision, scenario: &Scenario) -> Result<Revision, Vec<Diagnostic>> {
    if scenario.overlay.is_empty() {
        return Ok(rev.clone());
    }
    let mut patched = rev.clone();
    patched.diagnostics.clear();
    for (name, patch) in &scenario.overlay {
        if let Some(doc) = patched.documents.get_mut(name) {
            merge_patch::apply(doc, patch);
        }
    }
    let mut problems = Vec::new();
    for name in scenario.overlay.keys() {
        let Some(doc) = patched.documents.get(name) else { continue };
        let file = patched.file(name);
        match declared_schema(doc) {
            Some(schema) => {
                let schema = schema.to_string();
                validate_schema(&file, &schema, doc, &mut problems);
            }
            None => problems.push(Diagnostic::new(file, "", "missing \"$schema\": every document names its schema")),
        }
    }
    if !problems.is_empty() {
        return Err(locate(rev, scenario, problems));
    }
    patched.fingerprint = fingerprint(&patched.documents);
    Ok(patched)
}

/// Moves diagnostics found in a patched revision to the overlay that caused them: the pointer is
/// the deepest part of the overlay on the path to the problem, and the message keeps the exact
/// place in the patched document.
pub fn locate(rev: &Revision, scenario: &Scenario, found: Vec<Diagnostic>) -> Vec<Diagnostic> {
    let Some((scen_file, at)) = &scenario.source else {
        return found;
    };
    let prefix = format!("{}/", rev.dir);
    found
        .into_iter()
        .map(|d| {
            let doc = d.file.strip_prefix(&prefix).unwrap_or(&d.file).to_string();
            let mut pointer = format!("{at}/overlay");
            if let Some(patch) = scenario.overlay.get(&doc) {
                pointer.push('/');
                pointer.push_str(&escape_token(&doc));
                let patched = rev.documents.get(&doc).map(|orig| merge_patch::applied(orig, patch));
                pointer.push_str(&deepest(patch, patched.as_ref(), &d.pointer));
            }
            let place = if d.pointer.is_empty() { doc } else { format!("{doc}#{}", d.pointer) };
            Diagnostic::new(
                rev.file(scen_file),
                pointer,
                format!("scenario {} makes {place} invalid: {}", scenario.id, d.message),
            )
        })
        .collect()
}

/// The longest prefix of `pointer` that exists in the patch `value`, written as a pointer into
/// the patch. `patched` is the document the pointer points into: where it holds an array of
/// identified items that the patch changes by id (`{"params": {"halves": {…}}}`), the index in
/// the pointer is translated to that id.
fn deepest(value: &Value, patched: Option<&Value>, pointer: &str) -> String {
    let mut out = String::new();
    let mut at = value;
    let mut doc = patched;
    for token in pointer.split('/').skip(1) {
        let key = token.replace("~1", "/").replace("~0", "~");
        let element = match doc {
            Some(Value::Array(a)) => key.parse::<usize>().ok().and_then(|i| a.get(i)),
            Some(Value::Object(m)) => m.get(&key),
            _ => None,
        };
        let by_id = match (at, doc, element) {
            (Value::Object(_), Some(Value::Array(_)), Some(e)) => e.get("id").and_then(Value::as_str),
            _ => None,
        };
        let (next, written) = match (at, by_id) {
            (Value::Object(m), Some(id)) => (m.get(id), escape_token(id)),
            (Value::Object(m), None) => (m.get(&key), token.to_string()),
            (Value::Array(a), _) => (key.parse::<usize>().ok().and_then(|i| a.get(i)), token.to_string()),
            _ => (None, String::new()),
        };
        match next {
            Some(v) => {
                out.push('/');
                out.push_str(&written);
                at = v;
                doc = element;
            }
            None => break,
        }
    }
    out
}

/// Every problem the revision's scenarios cause, for `validate`: the document's own problems,
/// then, per scenario, the patched revision's schema and meaning problems (`meaning` is the
/// ruleset's check).
pub fn check(rev: &Revision, meaning: &dyn Fn(&Revision) -> Vec<Diagnostic>) -> Vec<Diagnostic> {
    let list = match scenarios(rev) {
        Ok(l) => l,
        Err(d) => return d,
    };
    let mut out = Vec::new();
    for s in list.iter().filter(|s| !s.overlay.is_empty()) {
        match apply(rev, s) {
            Ok(patched) => out.extend(locate(rev, s, meaning(&patched))),
            Err(d) => out.extend(d),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn deepest_stops_where_the_overlay_stops() {
        let patch = json!({"seats": {"p3": {"start": 40}}});
        assert_eq!(deepest(&patch, None, "/seats/p3/start"), "/seats/p3/start");
        assert_eq!(deepest(&patch, None, "/seats/p2/order"), "/seats");
        assert_eq!(deepest(&patch, None, "/dice/count"), "");
        assert_eq!(deepest(&json!({"a": [1, {"b": 2}]}), None, "/a/1/b"), "/a/1/b");
    }

    #[test]
    fn items_patched_by_id_are_named_by_id() {
        let doc = json!({"params": [{"id": "a", "value": 1}, {"id": "b/c", "value": 2}]});
        let patch = json!({"params": {"b/c": {"value": 9}}});
        let patched = merge_patch::applied(&doc, &patch);
        assert_eq!(deepest(&patch, Some(&patched), "/params/1/value"), "/params/b~1c/value");
        // A problem with an item the overlay does not touch stops at the array.
        assert_eq!(deepest(&patch, Some(&patched), "/params/0/value"), "/params");
    }
}
