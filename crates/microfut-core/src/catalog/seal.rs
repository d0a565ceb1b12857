//! Records whose every field is accounted for: what a replay can recompute it compares, what it
//! cannot (a player's name, a bot's command, the engine that wrote it) a seal covers.
//!
//! The problem (issue 49): 3 of 38 edited run records replayed `identical` — a renamed squad
//! player (names never change play), an extra key inside `stats` and one inside an event
//! (serde drops what a type does not name, and `#[serde(flatten)]` types cannot refuse it).
//! The decision: a record is read strictly — written back from its type, it must say everything
//! the file says (`first_unread`), so a key no field reads, or a value read as another, is
//! refused at its JSON pointer — and a record carries a seal: the digest of each part replay
//! cannot recompute, by JSON pointer (RFC 8785 canonical JSON, SHA-256, 128 bits), checked
//! before replay (`broken`). An edit is then either a field the replay recomputes and compares,
//! or a sealed part, named by its pointer. Limits: a seal is not a signature — whoever edits a
//! record and recomputes the digests is not caught; records written before seals (the corpus in
//! `tests/runs/`) carry none, and their unrecomputable parts are not checked.

use serde_json::Value;
use sha2::{Digest, Sha256};
use std::collections::BTreeMap;

/// A record's seal: digest of each part, by JSON pointer.
pub type Seal = BTreeMap<String, String>;

/// Where a record says something its type did not read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Unread {
    pub pointer: String,
    pub message: String,
}

/// The first place where `written` (a record as the file holds it) says something `read` (the
/// record parsed into its type and written back) does not: a key no field reads, an item more,
/// or a value read as another. A key `read` adds (a field with a default) is fine, and so is a
/// `null` written for an absent optional field.
pub fn first_unread(written: &Value, read: &Value) -> Option<Unread> {
    let mut at = String::new();
    walk(written, read, &mut at)
}

fn walk(written: &Value, read: &Value, at: &mut String) -> Option<Unread> {
    fn here(at: &str, message: &str) -> Option<Unread> {
        Some(Unread { pointer: at.to_string(), message: message.to_string() })
    }
    match (written, read) {
        (Value::Object(w), Value::Object(r)) => {
            for (k, x) in w {
                let len = at.len();
                at.push('/');
                at.push_str(&super::escape_token(k));
                let found = match r.get(k) {
                    Some(y) => walk(x, y, at),
                    None if x.is_null() => None,
                    None => here(
                        at,
                        "no such field in this record format: the record was edited, or written by another program",
                    ),
                };
                if found.is_some() {
                    return found;
                }
                at.truncate(len);
            }
            None
        }
        (Value::Array(w), Value::Array(r)) => {
            for (i, x) in w.iter().enumerate() {
                let len = at.len();
                at.push_str(&format!("/{i}"));
                let found = match r.get(i) {
                    Some(y) => walk(x, y, at),
                    None => here(at, "an item this record format does not read"),
                };
                if found.is_some() {
                    return found;
                }
                at.truncate(len);
            }
            None
        }
        (Value::Number(a), Value::Number(b)) => {
            let same = match (a.as_i64(), b.as_i64(), a.as_u64(), b.as_u64()) {
                (Some(x), Some(y), _, _) => x == y,
                (_, _, Some(x), Some(y)) => x == y,
                _ => a.as_f64() == b.as_f64(),
            };
            if same { None } else { here(at, &format!("written {a}, read as {b}")) }
        }
        (w, r) if w == r => None,
        (w, r) => here(at, &format!("written {}, read as {}", super::strict::kind(w), super::strict::kind(r))),
    }
}

/// The digest of one part: 128 bits of SHA-256 over its canonical JSON.
fn digest(v: &Value) -> String {
    let canonical = serde_json_canonicalizer::to_vec(v).expect("serde_json values always canonicalize");
    hex::encode(&Sha256::digest(&canonical)[..16])
}

/// The value at `pointer`, `null` when absent (an optional part left out is sealed as such).
fn part<'a>(record: &'a Value, pointer: &str) -> &'a Value {
    record.pointer(pointer).unwrap_or(&Value::Null)
}

/// Seals `parts` of a record (as JSON).
pub fn seal(record: &Value, parts: &[String]) -> Seal {
    parts.iter().map(|p| (p.clone(), digest(part(record, p)))).collect()
}

/// The first part whose digest no longer matches the seal — or that the record now has and the
/// seal does not, or the other way round: its pointer.
pub fn broken(record: &Value, seal: &Seal, parts: &[String]) -> Option<String> {
    for p in parts {
        match seal.get(p) {
            Some(d) if *d == digest(part(record, p)) => {}
            _ => return Some(p.clone()),
        }
    }
    // A digest of a part the record does not have: an item taken out of a list the record still
    // has (a player gone from a squad) is named where it was; anything else means the seal itself
    // was edited.
    seal.keys().find(|p| !parts.contains(p)).map(|p| {
        let parent = p.rsplit_once('/').map_or("", |(parent, _)| parent);
        match record.pointer(parent) {
            Some(Value::Array(_)) => p.clone(),
            _ => format!("/seal/{}", super::escape_token(p)),
        }
    })
}

/// Each key of the object at `at`, and each item of its arrays named in `itemised`, as pointers:
/// a part per player of a squad, so an edit names the player.
pub fn parts_of(record: &Value, at: &str, itemised: &[&str]) -> Vec<String> {
    let mut out = Vec::new();
    if let Some(obj) = record.pointer(at).and_then(Value::as_object) {
        for (k, v) in obj {
            let p = format!("{at}/{}", super::escape_token(k));
            match v.as_array() {
                Some(items) if itemised.contains(&k.as_str()) => {
                    out.extend((0..items.len()).map(|i| format!("{p}/{i}")));
                }
                _ => out.push(p),
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_key_or_value_a_type_did_not_read_is_named() {
        let read = json!({"a": 1, "b": [{"x": 1.5}], "c": null, "d": 3});
        assert_eq!(first_unread(&json!({"a": 1, "b": [{"x": 1.5}]}), &read), None);
        assert_eq!(first_unread(&json!({"a": 1.0, "c": null}), &read), None);
        assert_eq!(first_unread(&json!({"a": 1, "b": [{"x": 1.5, "y": 2}]}), &read).unwrap().pointer, "/b/0/y");
        assert_eq!(first_unread(&json!({"z~/": 1}), &read).unwrap().pointer, "/z~0~1");
        assert_eq!(first_unread(&json!({"b": [{"x": 1.5}, {}]}), &read).unwrap().pointer, "/b/1");
        assert_eq!(first_unread(&json!({"a": 2}), &read).unwrap().message, "written 2, read as 1");
        let big = json!({"s": u64::MAX});
        assert_eq!(first_unread(&big, &big), None);
    }

    #[test]
    fn a_seal_names_the_part_that_changed_appeared_or_went() {
        let record = json!({"v": "1", "club": {"name": "A", "squad": [{"n": "x"}, {"n": "y"}]}});
        let parts = |r: &Value| {
            let mut p = vec!["/v".to_string(), "/h".to_string()];
            p.extend(parts_of(r, "/club", &["squad"]));
            p
        };
        assert_eq!(parts(&record), ["/v", "/h", "/club/name", "/club/squad/0", "/club/squad/1"]);
        let s = seal(&record, &parts(&record));
        assert_eq!(broken(&record, &s, &parts(&record)), None);
        let mut renamed = record.clone();
        renamed["club"]["squad"][1]["n"] = json!("z");
        assert_eq!(broken(&renamed, &s, &parts(&renamed)).as_deref(), Some("/club/squad/1"));
        let mut longer = record.clone();
        longer["club"]["squad"].as_array_mut().unwrap().push(json!({"n": "w"}));
        assert_eq!(broken(&longer, &s, &parts(&longer)).as_deref(), Some("/club/squad/2"));
        let mut shorter = record.clone();
        shorter["club"]["squad"].as_array_mut().unwrap().pop();
        assert_eq!(broken(&shorter, &s, &parts(&shorter)).as_deref(), Some("/club/squad/1"));
        let mut added = record.clone();
        added["h"] = json!("home");
        assert_eq!(broken(&added, &s, &parts(&added)).as_deref(), Some("/h"));
        let mut forged = s.clone();
        forged.insert("/x".into(), "0".into());
        assert_eq!(broken(&record, &forged, &parts(&record)).as_deref(), Some("/seal/~1x"));
    }
}
