//! JSON Merge Patch (RFC 7386): how a scenario's overlay changes a revision's documents.
//!
//! Hand-written rather than a dependency: the whole algorithm is the ten lines below, and owning
//! it lets us remove keys with `shift_remove`, so a patched document keeps its key order (with
//! serde_json's `preserve_order`) and reads the same as the original in messages and dumps.

use serde_json::{Map, Value};

/// Applies `patch` to `target` in place, as RFC 7386 §2 defines: an object patch merges key by
/// key (`null` deletes), anything else replaces the target.
///
/// One extension, for content that lists identified items (`"params": [{"id": …}, …]`): an
/// object patch applied to an array whose elements are all objects with a string `id` merges
/// element by element — each patch key names an `id`; `null` removes that element, an unknown
/// id appends one. RFC 7386 would replace such an array wholesale, which would make an overlay
/// restate a whole document to change one number.
pub fn apply(target: &mut Value, patch: &Value) {
    let Value::Object(patch) = patch else {
        *target = patch.clone();
        return;
    };
    if let Value::Array(items) = target
        && !items.is_empty()
        && items.iter().all(|i| i.get("id").is_some_and(Value::is_string))
    {
        for (id, value) in patch {
            let at = items.iter().position(|i| i["id"] == Value::String(id.clone()));
            match (at, value.is_null()) {
                (Some(k), true) => {
                    items.remove(k);
                }
                (Some(k), false) => apply(&mut items[k], value),
                (None, true) => {}
                (None, false) => {
                    let mut item = Value::Object(Map::new());
                    apply(&mut item, value);
                    item["id"] = Value::String(id.clone());
                    items.push(item);
                }
            }
        }
        return;
    }
    if !target.is_object() {
        *target = Value::Object(Map::new());
    }
    let map = target.as_object_mut().expect("made an object above");
    for (key, value) in patch {
        if value.is_null() {
            map.shift_remove(key);
        } else {
            apply(map.entry(key.clone()).or_insert(Value::Null), value);
        }
    }
}

/// The patched copy of `target`.
pub fn applied(target: &Value, patch: &Value) -> Value {
    let mut out = target.clone();
    apply(&mut out, patch);
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// Every example of RFC 7386 Appendix A.
    #[test]
    fn rfc_7386_appendix_a() {
        let cases = [
            (json!({"a":"b"}), json!({"a":"c"}), json!({"a":"c"})),
            (json!({"a":"b"}), json!({"b":"c"}), json!({"a":"b","b":"c"})),
            (json!({"a":"b"}), json!({"a":null}), json!({})),
            (json!({"a":"b","b":"c"}), json!({"a":null}), json!({"b":"c"})),
            (json!({"a":["b"]}), json!({"a":"c"}), json!({"a":"c"})),
            (json!({"a":"c"}), json!({"a":["b"]}), json!({"a":["b"]})),
            (json!({"a":{"b":"c"}}), json!({"a":{"b":"d","c":null}}), json!({"a":{"b":"d"}})),
            (json!({"a":[{"b":"c"}]}), json!({"a":[1]}), json!({"a":[1]})),
            (json!(["a", "b"]), json!(["c", "d"]), json!(["c", "d"])),
            (json!({"a":"b"}), json!(["c"]), json!(["c"])),
            (json!({"a":"foo"}), json!(null), json!(null)),
            (json!({"a":"foo"}), json!("bar"), json!("bar")),
            (json!({"e":null}), json!({"a":1}), json!({"e":null,"a":1})),
            (json!([1, 2]), json!({"a":"b","c":null}), json!({"a":"b"})),
            (json!({}), json!({"a":{"bb":{"ccc":null}}}), json!({"a":{"bb":{}}})),
        ];
        for (target, patch, expected) in cases {
            assert_eq!(applied(&target, &patch), expected, "patch {patch} on {target}");
        }
    }

    #[test]
    fn arrays_of_identified_items_merge_by_id() {
        let doc = json!({"params": [{"id": "a", "value": 1}, {"id": "b", "value": 2}]});
        let out = applied(&doc, &json!({"params": {"b": {"value": 5}, "c": {"value": 9}, "a": null}}));
        assert_eq!(out, json!({"params": [{"id": "b", "value": 5}, {"value": 9, "id": "c"}]}));
        // Arrays of anything else still follow the RFC.
        assert_eq!(applied(&json!({"x": [1, 2]}), &json!({"x": {"a": 1}})), json!({"x": {"a": 1}}));
    }

    #[test]
    fn removing_a_key_keeps_the_order_of_the_others() {
        let out = applied(&json!({"a": 1, "b": 2, "c": 3}), &json!({"a": null}));
        let keys: Vec<&String> = out.as_object().unwrap().keys().collect();
        assert_eq!(keys, ["b", "c"]);
    }
}
