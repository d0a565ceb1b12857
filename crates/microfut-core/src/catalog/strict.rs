//! Reading JSON strictly: a key written twice in one object is an error, not a silent "last one
//! wins" (serde_json's behaviour), so a designer who pastes a parameter twice learns which one
//! counts — by JSON pointer, line and column — instead of finding out in the lab.

use serde::de::{self, DeserializeOwned, DeserializeSeed, Deserializer, MapAccess, SeqAccess, Visitor};
use std::collections::BTreeSet;
use std::fmt;

/// Parses JSON (a UTF-8 byte order mark is ignored) into `T`, refusing duplicate keys. Two
/// passes on purpose: the key walk, then serde_json's own parse, which keeps line and column on
/// a value of the wrong type (inputs are content-sized; a run record takes a millisecond).
pub fn from_json<T: DeserializeOwned>(bytes: &[u8]) -> Result<T, serde_json::Error> {
    let bytes = super::strip_bom(bytes);
    check_keys(bytes)?;
    serde_json::from_slice(bytes)
}

/// What went wrong, for a person: a syntax error says where the JSON is malformed; a key written
/// twice (well-formed, ambiguous) or a value of the wrong type says what, with its position.
pub fn describe(e: &serde_json::Error) -> String {
    if e.is_data() { e.to_string() } else { format!("malformed JSON at line {} column {}: {e}", e.line(), e.column()) }
}

/// A value that does not fit the type it was read as, located by JSON pointer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Located {
    /// RFC 6901 pointer of the value that failed (empty for the whole document).
    pub pointer: String,
    pub message: String,
}

/// Reads an already strictly parsed value as `T`, naming the pointer of the first value that does
/// not fit (an integer written `15.0`, a string where a number belongs, a field misspelt). A
/// document whose top level is not the kind `T` reads is named as such ("found an array").
pub fn from_value_located<T: DeserializeOwned>(value: serde_json::Value, what: &str) -> Result<T, Located> {
    match serde_path_to_error::deserialize::<_, T>(&value) {
        Ok(v) => Ok(v),
        Err(e) => {
            let mut pointer = pointer_of(e.path());
            let inner = e.into_inner().to_string();
            // serde names a missing or unknown field in its message, at the object around it: the
            // pointer goes to the field itself.
            let field =
                |prefix: &str| inner.strip_prefix(prefix).and_then(|rest| rest.split('`').next()).map(str::to_string);
            let message = if pointer.is_empty() && !matches!(value, serde_json::Value::Object(_)) {
                format!("expected a JSON object ({what}), found {}", kind(&value))
            } else if let Some(f) = field("missing field `") {
                pointer = format!("{pointer}/{}", super::escape_token(&f));
                "missing (a required field)".to_string()
            } else if let Some(f) = field("unknown field `") {
                // serde_path_to_error has the key in the path already when the map was read
                // key by key: the pointer names the field once.
                let token = format!("/{}", super::escape_token(&f));
                if !pointer.ends_with(&token) {
                    pointer.push_str(&token);
                }
                inner.split_once(", ").map_or("unknown field".to_string(), |(_, rest)| format!("unknown field, {rest}"))
            } else {
                inner
            };
            // Keys and values echoed from the file may hold control characters (a newline in a
            // key): escaped, so the problem stays one line.
            Err(Located {
                pointer: super::printable(&pointer).into_owned(),
                message: super::printable(&message).into_owned(),
            })
        }
    }
}

/// What a JSON value is, for messages: `an array`, `an object`, `a string`…
pub fn kind(v: &serde_json::Value) -> &'static str {
    match v {
        serde_json::Value::Null => "null",
        serde_json::Value::Bool(_) => "true or false",
        serde_json::Value::Number(_) => "a number",
        serde_json::Value::String(_) => "a string",
        serde_json::Value::Array(_) => "an array",
        serde_json::Value::Object(_) => "an object",
    }
}

/// A serde path (`squad[2].skills.passing`) as a JSON pointer (`/squad/2/skills/passing`).
pub fn pointer_of(path: &serde_path_to_error::Path) -> String {
    use serde_path_to_error::Segment;
    let mut out = String::new();
    for seg in path.iter() {
        match seg {
            Segment::Seq { index } => out.push_str(&format!("/{index}")),
            Segment::Map { key } => out.push_str(&format!("/{}", super::escape_token(key))),
            Segment::Enum { variant } => out.push_str(&format!("/{}", super::escape_token(variant))),
            Segment::Unknown => {}
        }
    }
    out
}

/// Fails on the first object that holds a key twice (syntax errors are reported as they are).
pub fn check_keys(bytes: &[u8]) -> Result<(), serde_json::Error> {
    let mut de = serde_json::Deserializer::from_slice(bytes);
    Walk { pointer: String::new() }.deserialize(&mut de)?;
    de.end()
}

/// Walks one value, knowing its JSON pointer.
struct Walk {
    pointer: String,
}

impl<'de> DeserializeSeed<'de> for Walk {
    type Value = ();
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for Walk {
    type Value = ();

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a JSON value")
    }
    fn visit_bool<E>(self, _: bool) -> Result<(), E> {
        Ok(())
    }
    fn visit_i64<E>(self, _: i64) -> Result<(), E> {
        Ok(())
    }
    fn visit_u64<E>(self, _: u64) -> Result<(), E> {
        Ok(())
    }
    fn visit_f64<E>(self, _: f64) -> Result<(), E> {
        Ok(())
    }
    fn visit_str<E>(self, _: &str) -> Result<(), E> {
        Ok(())
    }
    fn visit_unit<E>(self) -> Result<(), E> {
        Ok(())
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
        let mut i = 0usize;
        while seq.next_element_seed(Walk { pointer: format!("{}/{i}", self.pointer) })?.is_some() {
            i += 1;
        }
        Ok(())
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        let mut seen = BTreeSet::new();
        while let Some(key) = map.next_key::<String>()? {
            let pointer = format!("{}/{}", self.pointer, super::escape_token(&key));
            if !seen.insert(key) {
                return Err(de::Error::custom(format!(
                    "duplicate key: {pointer} is written twice in the same object (only one value can count)"
                )));
            }
            map.next_value_seed(Walk { pointer })?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_key_written_twice_is_named_by_pointer_and_position() {
        let text = "{\n  \"params\": [\n    {\"id\": \"x\", \"value\": 1, \"value\": 2}\n  ]\n}";
        let e = check_keys(text.as_bytes()).unwrap_err().to_string();
        assert!(e.contains("/params/0/value is written twice"), "{e}");
        assert!(e.contains("line 3"), "{e}");
    }

    #[test]
    fn the_same_key_in_different_objects_and_escaped_keys_are_fine() {
        assert!(check_keys(br#"[{"a": 1}, {"a": 2, "b": {"a": 3}}]"#).is_ok());
        let e = check_keys(br#"{"a/b": {"c~d": 1, "c~d": 2}}"#).unwrap_err().to_string();
        assert!(e.contains("/a~1b/c~0d is written twice"), "{e}");
    }

    #[test]
    fn parses_like_serde_json_otherwise() {
        let v: serde_json::Value = from_json(b"\xEF\xBB\xBF{\"a\": [1, 2.5, null, true, \"s\"]}").unwrap();
        assert_eq!(v, serde_json::json!({"a": [1, 2.5, null, true, "s"]}));
        assert!(from_json::<serde_json::Value>(b"{\"a\": }").unwrap_err().to_string().contains("line 1"));
        assert!(from_json::<serde_json::Value>(b"{} x").is_err());
    }

    /// An unknown field is named once, at its own key, however deep (it was doubled,
    /// `/zones/0/zz_extra/zz_extra`, for documents read as a whole into a typed struct).
    #[test]
    fn an_unknown_field_is_named_once() {
        #[derive(Debug, serde::Deserialize)]
        #[serde(deny_unknown_fields)]
        #[allow(dead_code)]
        struct Inner {
            a: u32,
        }
        #[derive(Debug, serde::Deserialize)]
        #[serde(deny_unknown_fields)]
        #[allow(dead_code)]
        struct Outer {
            zones: Vec<Inner>,
            x: Option<Inner>,
        }
        let at = |v: serde_json::Value| from_value_located::<Outer>(v, "a test").unwrap_err().pointer;
        assert_eq!(at(serde_json::json!({"zones": [{"a": 1, "zz": 2}]})), "/zones/0/zz");
        assert_eq!(at(serde_json::json!({"zones": [], "zz": 1})), "/zz");
        assert_eq!(at(serde_json::json!({"zones": [], "x": {"a": 1, "x": 2}})), "/x/x");
    }
}
