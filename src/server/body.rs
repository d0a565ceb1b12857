//! What both servers check of a request body before reading it: its declared size, and the
//! time it may take to arrive.

use axum::http::{HeaderMap, header};
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

/// A body whose `Content-Length` is over `limit` is refused before a byte of it is read.
pub fn check_declared_length(headers: &HeaderMap, limit: usize) -> Result<(), String> {
    let declared = headers.get(header::CONTENT_LENGTH).and_then(|v| v.to_str().ok()?.trim().parse::<u64>().ok());
    match declared {
        Some(n) if n > limit as u64 => Err(format!("the body is {n} bytes (Content-Length); at most {limit} are read")),
        _ => Ok(()),
    }
}
