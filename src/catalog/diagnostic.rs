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
        if self.pointer.is_empty() {
            write!(f, "{}: {}", self.file, self.message)
        } else {
            write!(f, "{}#{}: {}", self.file, self.pointer, self.message)
        }
    }
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
