//! What both servers check of a request body: its declared size and the time it may take to
//! arrive; and of a JSON body, in words a client understands, its media type and charset, its
//! encoding, and the shape its top level must have.

use axum::http::{HeaderMap, header};
use serde::de::{self, DeserializeOwned, Visitor};
use std::cell::Cell;
use std::time::Duration;

/// A request body that did not arrive within the body timeout.
#[derive(Debug, Clone, Copy)]
pub struct BodyTimeout(pub Duration);

impl std::fmt::Display for BodyTimeout {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "the request's body did not arrive within {} s", self.0.as_secs_f64())
    }
}

impl std::error::Error for BodyTimeout {}

/// The body timeout behind an error reading a body (found anywhere in its chain of sources).
pub fn timed_out(e: &(dyn std::error::Error + 'static)) -> Option<BodyTimeout> {
    let mut cur = Some(e);
    while let Some(err) = cur {
        if let Some(t) = err.downcast_ref::<BodyTimeout>() {
            return Some(*t);
        }
        cur = err.source();
    }
    None
}

/// `Content-Type` of a JSON body: `application/json`, and UTF-8 if it names a charset (RFC 8259:
/// JSON exchanged between systems is UTF-8). The message says what was sent and what to send.
pub fn check_media_type(headers: &HeaderMap) -> Result<(), String> {
    let Some(value) = headers.get(header::CONTENT_TYPE) else {
        return Err("the body must be JSON: send Content-Type: application/json".into());
    };
    let value = value.to_str().map_err(|_| "Content-Type is not readable text".to_string())?;
    let mut parts = value.split(';');
    let media = parts.next().unwrap_or("").trim();
    if !media.eq_ignore_ascii_case("application/json") {
        return Err(format!("the body must be JSON: Content-Type is '{media}', send application/json"));
    }
    for param in parts {
        let (name, v) = param.split_once('=').unwrap_or((param, ""));
        if !name.trim().eq_ignore_ascii_case("charset") {
            continue;
        }
        let charset = v.trim().trim_matches('"');
        if !charset.eq_ignore_ascii_case("utf-8") && !charset.eq_ignore_ascii_case("utf8") {
            return Err(format!(
                "Content-Type names charset={charset}: JSON bodies are read as UTF-8 only; send the body \
                 as UTF-8 (charset=utf-8, or no charset)"
            ));
        }
    }
    Ok(())
}

/// A body whose `Content-Length` is over `limit` is refused before a byte of it is read.
pub fn check_declared_length(headers: &HeaderMap, limit: usize) -> Result<(), String> {
    let declared = headers.get(header::CONTENT_LENGTH).and_then(|v| v.to_str().ok()?.trim().parse::<u64>().ok());
    match declared {
        Some(n) if n > limit as u64 => Err(format!("the body is {n} bytes (Content-Length); at most {limit} are read")),
        _ => Ok(()),
    }
}

/// A body in UTF-16 or UTF-32 (with a byte order mark, or recognised by its zero bytes: JSON
/// begins with an ASCII character) is named as such instead of failing as malformed JSON.
pub fn check_encoding(bytes: &[u8]) -> Result<(), String> {
    let encoding = match bytes {
        [0xFF, 0xFE, 0, 0, ..] => "UTF-32 (little-endian, with a byte order mark)",
        [0, 0, 0xFE, 0xFF, ..] => "UTF-32 (big-endian, with a byte order mark)",
        [0xFF, 0xFE, ..] => "UTF-16 (little-endian, with a byte order mark)",
        [0xFE, 0xFF, ..] => "UTF-16 (big-endian, with a byte order mark)",
        [0, 0, 0, c, ..] | [c, 0, 0, 0, ..] if *c != 0 => "UTF-32",
        [0, c, ..] | [c, 0, ..] if *c != 0 => "UTF-16",
        _ => return Ok(()),
    };
    Err(format!("the body is {encoding}: JSON bodies must be UTF-8"))
}

/// If `T` is read from a JSON object and `value` is not one: what the body must be, in words
/// ("the body must be a JSON object with the fields home, away, …; found null").
pub fn expected_object<T: DeserializeOwned>(value: &serde_json::Value) -> Option<String> {
    if value.is_object() {
        return None;
    }
    let fields = struct_fields::<T>()?;
    Some(format!(
        "the body must be a JSON object with the fields {}; found {}",
        fields.join(", "),
        microfut_core::catalog::json_kind(value)
    ))
}

/// The fields of `T` if serde reads it as a struct (the names as the JSON spells them).
fn struct_fields<T: DeserializeOwned>() -> Option<&'static [&'static str]> {
    let seen = Cell::new(None);
    let _ = T::deserialize(Probe(&seen));
    seen.get()
}

/// A deserializer that only notes the fields a struct asks for, then gives up.
struct Probe<'a>(&'a Cell<Option<&'static [&'static str]>>);

impl<'de> de::Deserializer<'de> for Probe<'_> {
    type Error = de::value::Error;

    fn deserialize_any<V: Visitor<'de>>(self, _: V) -> Result<V::Value, Self::Error> {
        Err(de::Error::custom("probe"))
    }

    fn deserialize_struct<V: Visitor<'de>>(
        self,
        _: &'static str,
        fields: &'static [&'static str],
        _: V,
    ) -> Result<V::Value, Self::Error> {
        self.0.set(Some(fields));
        Err(de::Error::custom("probe"))
    }

    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string bytes byte_buf option
        unit unit_struct newtype_struct seq tuple tuple_struct map enum identifier ignored_any
    }
}

/// serde's words for a value of the wrong kind, in a client's: "expected struct Target with 2
/// elements" is "expected a JSON object".
pub fn plain(message: &str) -> String {
    let Some(at) = message.find("expected struct ") else { return message.to_string() };
    let rest = &message[at + "expected struct ".len()..];
    let name_end = rest.find(|c: char| !c.is_alphanumeric() && c != '_').unwrap_or(rest.len());
    let mut tail = &rest[name_end..];
    if let Some(t) = tail.strip_prefix(" with ")
        && let Some(end) = t.find(" element")
    {
        let after = &t[end + " element".len()..];
        tail = after.strip_prefix('s').unwrap_or(after);
    }
    format!("{}expected a JSON object{tail}", &message[..at])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(serde::Deserialize)]
    #[serde(rename_all = "camelCase")]
    #[allow(dead_code)]
    struct Req {
        home: String,
        home_formation: Option<String>,
    }

    #[test]
    fn a_struct_names_its_fields_and_other_types_nothing() {
        assert_eq!(struct_fields::<Req>(), Some(&["home", "homeFormation"][..]));
        assert_eq!(struct_fields::<Vec<u8>>(), None);
        assert_eq!(struct_fields::<serde_json::Value>(), None);
        let m = expected_object::<Req>(&serde_json::Value::Null).unwrap();
        assert_eq!(m, "the body must be a JSON object with the fields home, homeFormation; found null");
        assert_eq!(expected_object::<Req>(&serde_json::json!({})), None);
    }

    #[test]
    fn serde_struct_words_become_a_json_object() {
        assert_eq!(
            plain("invalid length 0, expected struct CreateRun with 7 elements"),
            "invalid length 0, expected a JSON object"
        );
        assert_eq!(plain("invalid type: null, expected struct Target"), "invalid type: null, expected a JSON object");
        assert_eq!(plain("missing field `home`"), "missing field `home`");
    }

    #[test]
    fn charsets_other_than_utf8_and_wide_encodings_are_named() {
        let mut h = HeaderMap::new();
        for ok in ["application/json", "application/json; charset=utf-8", "Application/JSON;Charset=\"UTF-8\""] {
            h.insert(header::CONTENT_TYPE, ok.parse().unwrap());
            assert_eq!(check_media_type(&h), Ok(()), "{ok}");
        }
        h.insert(header::CONTENT_TYPE, "application/json; charset=utf-16".parse().unwrap());
        assert!(check_media_type(&h).unwrap_err().contains("charset=utf-16"));
        assert!(check_encoding(b"\xFF\xFE{\0}\0").unwrap_err().contains("UTF-16 (little-endian"));
        assert!(check_encoding(b"{\0\"\0").unwrap_err().contains("UTF-16"));
        assert!(check_encoding(b"\xEF\xBB\xBF{}").is_ok());
        assert!(check_encoding(b"{}").is_ok() && check_encoding(b"").is_ok() && check_encoding(b"1").is_ok());
    }
}
