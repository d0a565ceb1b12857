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
}
