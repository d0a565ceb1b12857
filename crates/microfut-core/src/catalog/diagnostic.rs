//! One problem found in content, located by file and JSON pointer.

use serde::Serialize;
use std::fmt;

#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize)]
pub struct Diagnostic {
    /// Path relative to the content root, e.g. `microfut/0.5.0/tables.json`.
    pub file: String,
    /// RFC 6901 pointer into the file; empty for the whole file.
    pub pointer: String,
    pub message: String,
}

impl Diagnostic {
    pub fn new(file: impl Into<String>, pointer: impl Into<String>, message: impl Into<String>) -> Self {
        Diagnostic { file: file.into(), pointer: pointer.into(), message: message.into() }
    }
}

impl fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (pointer, message) = (printable(&self.pointer), printable(&self.message));
        if self.pointer.is_empty() {
            write!(f, "{}: {message}", self.file)
        } else {
            write!(f, "{}#{pointer}: {message}", self.file)
        }
    }
}

/// Text for a one-line message: control characters a file's keys or values may hold (a newline
/// in a key) are written as escapes, so one problem is always one line.
pub fn printable(text: &str) -> std::borrow::Cow<'_, str> {
    if !text.chars().any(char::is_control) {
        return std::borrow::Cow::Borrowed(text);
    }
    std::borrow::Cow::Owned(
        text.chars().map(|c| if c.is_control() { c.escape_default().to_string() } else { c.to_string() }).collect(),
    )
}

/// Escapes one reference token of a JSON pointer (RFC 6901).
pub fn escape_token(token: &str) -> String {
    token.replace('~', "~0").replace('/', "~1")
}

/// Collects diagnostics for one file under a pointer prefix.
pub struct Sink<'a> {
    pub file: &'a str,
    pub out: &'a mut Vec<Diagnostic>,
}

impl Sink<'_> {
    pub fn error(&mut self, pointer: impl Into<String>, message: impl Into<String>) {
        self.out.push(Diagnostic::new(self.file, pointer, message));
    }
}
