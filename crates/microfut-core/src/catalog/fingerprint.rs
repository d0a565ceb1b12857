//! Revision fingerprints: SHA-256 over the RFC 8785 canonical JSON of every document.

use serde_json::{Map, Value};
use std::collections::BTreeMap;

/// `sha256:<hex>` of the canonical form of `{"<file name>": <document>, …}`.
///
/// Canonical JSON (sorted keys, no insignificant whitespace, one number format) makes the
/// fingerprint depend on what the content says, not on how an editor formatted it.
pub fn fingerprint(documents: &BTreeMap<String, Value>) -> String {
    let mut all = Map::new();
    for (name, doc) in documents {
        all.insert(name.clone(), doc.clone());
    }
    let canonical =
        serde_json_canonicalizer::to_vec(&Value::Object(all)).expect("serde_json values always canonicalize");
    format!("sha256:{}", crate::digest::sha256_hex(canonical))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn formatting_and_key_order_do_not_matter() {
        let a: Value = serde_json::from_str(r#"{"b": 1.0, "a": [1, 2]}"#).unwrap();
        let b: Value = serde_json::from_str(r#"{ "a":[1,2],"b":1 }"#).unwrap();
        let fa = fingerprint(&BTreeMap::from([("x.json".to_string(), a)]));
        let fb = fingerprint(&BTreeMap::from([("x.json".to_string(), b)]));
        assert_eq!(fa, fb);
    }

    #[test]
    fn content_matters() {
        let fa = fingerprint(&BTreeMap::from([("x.json".to_string(), json!({"a": 1}))]));
        let fb = fingerprint(&BTreeMap::from([("x.json".to_string(), json!({"a": 2}))]));
        assert_ne!(fa, fb);
        assert!(fa.starts_with("sha256:") && fa.len() == 71);
    }
}
