//! JSON Schema validation of content documents against the schemas embedded in the binary.
//!
//! A document names its schema in `$schema` (a relative path, so editors find the same file and
//! autocomplete while a designer types); the loader uses the schema's file name to pick the
//! embedded copy. The embedded copy is the engine's contract, whatever sits beside the content.

use super::diagnostic::Diagnostic;
use super::tree::embedded_schemas;
use serde_json::Value;
use std::collections::BTreeMap;
use std::sync::OnceLock;

struct Schemas {
    validators: BTreeMap<String, jsonschema::Validator>,
}

fn schemas() -> &'static Schemas {
    static S: OnceLock<Schemas> = OnceLock::new();
    S.get_or_init(|| {
        let mut validators = BTreeMap::new();
        let registry = registry();
        for (name, bytes) in embedded_schemas() {
            let value: Value =
                serde_json::from_slice(bytes).unwrap_or_else(|e| panic!("embedded schema {name} is not JSON: {e}"));
            let v = jsonschema::options()
                .with_draft(jsonschema::Draft::Draft202012)
                .with_registry(registry)
                .build(&value)
                .unwrap_or_else(|e| panic!("embedded schema {name} is invalid: {e}"));
            validators.insert(name.to_string(), v);
        }
        Schemas { validators }
    })
}

/// Every embedded schema under its `$id`, so one schema may `$ref` another by relative file name
/// (`club.schema.json` reuses `sheet.schema.json`), as editors resolve them beside each other.
fn registry() -> &'static jsonschema::Registry<'static> {
    static R: OnceLock<jsonschema::Registry<'static>> = OnceLock::new();
    R.get_or_init(|| {
        let resources = embedded_schemas().filter_map(|(_, bytes)| {
            let value: Value = serde_json::from_slice(bytes).ok()?;
            let id = value.get("$id").and_then(Value::as_str)?.to_string();
            Some((id, value))
        });
        jsonschema::Registry::new()
            .extend(resources)
            .and_then(|b| b.prepare())
            .unwrap_or_else(|e| panic!("embedded schemas do not form a registry: {e}"))
    })
}

/// The schema file a document declares, e.g. `tables.schema.json`.
pub fn declared_schema(doc: &Value) -> Option<&str> {
    let s = doc.get("$schema")?.as_str()?;
    Some(s.rsplit('/').next().unwrap_or(s))
}

pub fn names() -> Vec<String> {
    schemas().validators.keys().cloned().collect()
}

/// Validates `doc` against the named schema; one diagnostic per violation.
pub fn validate(file: &str, schema: &str, doc: &Value, out: &mut Vec<Diagnostic>) -> bool {
    let Some(v) = schemas().validators.get(schema) else {
        out.push(Diagnostic::new(
            file,
            "/$schema",
            format!("unknown schema '{schema}' (known: {})", names().join(", ")),
        ));
        return false;
    };
    let before = out.len();
    for e in v.iter_errors(doc) {
        out.push(Diagnostic::new(file, pointer_of(&e), shortened(format!("schema: {e}"))));
    }
    out.len() == before
}

/// A schema message quotes the value it refuses: a pasted 200,000-character expression would
/// make a line that long. Its start and its end (where the reason is) are kept.
fn shortened(message: String) -> String {
    const HEAD: usize = 160;
    const TAIL: usize = 120;
    let n = message.chars().count();
    if n <= HEAD + TAIL + 40 {
        return message;
    }
    let head: String = message.chars().take(HEAD).collect();
    let tail: String = message.chars().skip(n - TAIL).collect();
    format!("{head} … ({} characters left out) … {tail}", n - HEAD - TAIL)
}

/// Validates a document that must carry a specific schema.
pub fn validate_as(file: &str, expected: &str, doc: &Value, out: &mut Vec<Diagnostic>) -> bool {
    if !doc.is_object() {
        out.push(not_an_object(file, doc, expected));
        return false;
    }
    match declared_schema(doc) {
        Some(s) if s == expected => validate(file, expected, doc, out),
        Some(s) => {
            out.push(Diagnostic::new(file, "/$schema", format!("expected schema {expected}, found {s}")));
            false
        }
        None => {
            let message = match doc.get("$schema") {
                Some(v) => format!("expected the path of .../{expected}, found {}", super::strict::kind(v)),
                None => format!("missing (expected .../{expected})"),
            };
            out.push(Diagnostic::new(file, "/$schema", message));
            false
        }
    }
}

/// A document whose top level is not an object: said as such, not as a missing `$schema`.
pub fn not_an_object(file: &str, doc: &Value, schema: &str) -> Diagnostic {
    Diagnostic::new(
        file,
        "",
        format!("expected a JSON object (a document of {schema}), found {}", super::strict::kind(doc)),
    )
}

/// Where a schema error is: a missing or unexpected property is named by its own pointer (where
/// it belongs, or where it is), not by the object around it — so a missing top-level field is
/// `club.json#/budget`, not the whole file.
fn pointer_of(e: &jsonschema::ValidationError) -> String {
    use jsonschema::error::ValidationErrorKind as K;
    let at = e.instance_path().to_string();
    let child = |name: &str| format!("{at}/{}", super::escape_token(name));
    match e.kind() {
        K::Required { property } => property.as_str().map_or(at.clone(), child),
        K::AdditionalProperties { unexpected } | K::UnevaluatedProperties { unexpected } => {
            unexpected.first().map_or(at.clone(), |u| child(u))
        }
        _ => at,
    }
}
