//! The socket as hyper sees it: reads mark a new request's head arriving, writes that cannot go
//! out start the stall clock, hyper's bodiless automatic answers are replaced by the JSON error
//! body, and a connection closed while its head was arriving is told 408.

use super::conn::{ConnState, Phase};
use super::{Limits, MAX_HEAD, MAX_URI, raw_error};
use axum::http::StatusCode;
use std::io::{self, IoSlice};
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::TcpStream;

pub(super) struct Watched {
    stream: TcpStream,
    state: Arc<ConnState>,
    limits: Limits,
    /// The length of the arriving head's first line so far, and whether it ended: a head too
    /// large because of its request line is a 414, not a 431.
    line: usize,
    line_done: bool,
    /// The JSON answer that replaces hyper's automatic one, and how much of it went out. Once
    /// set, whatever else hyper writes (the rest of its answer) is dropped: it closes next.
    replacement: Option<(Vec<u8>, usize)>,
}

impl Watched {
    pub(super) fn new(stream: TcpStream, state: Arc<ConnState>, limits: Limits) -> Watched {
        Watched { stream, state, limits, line: 0, line_done: false, replacement: None }
    }

    fn arrived(&mut self, bytes: &[u8]) {
        if self.state.phase() == Phase::Idle {
            self.state.enter(Phase::Head);
            self.line = 0;
            self.line_done = false;
        }
        if self.state.phase() == Phase::Head && !self.line_done {
            match bytes.iter().position(|&b| b == b'\n') {
                Some(i) => {
                    self.line += i;
                    self.line_done = true;
                }
                None => self.line += bytes.len(),
            }
        }
    }

    /// Our answer in place of `buf`, if `buf` is hyper's automatic answer to a request it could
    /// not read: written while no request is with the server, a 400, 414 or 431 status line,
    /// `content-length: 0` and no content type (every answer of ours has one).
    fn automatic(&self, buf: &[u8]) -> Option<Vec<u8>> {
        // Cheap tests first: this runs on every write between requests.
        let status = buf.get(..12).filter(|b| b.starts_with(b"HTTP/1.") && b[8] == b' ')?;
        if !matches!(&status[9..12], b"400" | b"414" | b"431")
            || !matches!(self.state.phase(), Phase::Head | Phase::Idle)
        {
            return None;
        }
        let window = &buf[..buf.len().min(512)];
        let end = window.windows(4).position(|w| w == b"\r\n\r\n")?;
        let head = std::str::from_utf8(&window[..end]).ok()?;
        let (version, rest) = head.split_once(' ')?;
        if !version.starts_with("HTTP/1.") {
            return None;
        }
        let lower = head.to_ascii_lowercase();
        if !lower.contains("\r\ncontent-length: 0") || lower.contains("\r\ncontent-type:") {
            return None;
        }
        let uri_long = self.line > MAX_URI;
        let (status, code, message, field) = match rest.get(..3)? {
            "414" => uri_too_long(),
            "431" if uri_long => uri_too_long(),
            "431" => (
                StatusCode::REQUEST_HEADER_FIELDS_TOO_LARGE,
                "headers_too_large",
                format!("the request's head (request line and headers) is larger than {MAX_HEAD} bytes"),
                "headers",
            ),
            "400" => (
                StatusCode::BAD_REQUEST,
                "malformed_request",
                "the request is not HTTP/1.1: its request line or a header could not be read".to_string(),
                "request",
            ),
            _ => return None,
        };
        Some(raw_error(version, status, code, &message, Some(field)))
    }

    /// Writes what is left of the replacement; ready once all of it went out.
    fn drain_replacement(&mut self, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        while let Some((bytes, done)) = &mut self.replacement {
            if *done == bytes.len() {
                break;
            }
            match Pin::new(&mut self.stream).poll_write(cx, &bytes[*done..]) {
                Poll::Ready(Ok(0)) => return Poll::Ready(Err(io::ErrorKind::WriteZero.into())),
                Poll::Ready(Ok(n)) => *done += n,
                Poll::Ready(Err(e)) => return Poll::Ready(Err(e)),
                Poll::Pending => {
                    self.state.write_waits();
                    return Poll::Pending;
                }
            }
        }
        Poll::Ready(Ok(()))
    }

    /// A write's outcome, for the stall clock.
    fn track(&self, r: &Poll<io::Result<usize>>) {
        match r {
            Poll::Pending => self.state.write_waits(),
            Poll::Ready(Ok(n)) => self.state.wrote(*n),
            Poll::Ready(Err(_)) => {}
        }
    }

    /// Takes `first` (the start of what hyper writes) as its automatic answer if it is one.
    /// Returns whether hyper's bytes are to be dropped.
    fn replaced(&mut self, first: &[u8]) -> bool {
        if self.replacement.is_none()
            && let Some(ours) = self.automatic(first)
        {
            self.replacement = Some((ours, 0));
        }
        self.replacement.is_some()
    }
}

fn uri_too_long() -> (StatusCode, &'static str, String, &'static str) {
    (
        StatusCode::URI_TOO_LONG,
        "uri_too_long",
        format!("the request target (path and query) is longer than {MAX_URI} bytes"),
        "uri",
    )
}

impl AsyncRead for Watched {
    fn poll_read(self: Pin<&mut Self>, cx: &mut Context<'_>, buf: &mut ReadBuf<'_>) -> Poll<io::Result<()>> {
        let this = self.get_mut();
        let before = buf.filled().len();
        let r = Pin::new(&mut this.stream).poll_read(cx, buf);
        if let Poll::Ready(Ok(())) = r
            && buf.filled().len() > before
        {
            this.arrived(&buf.filled()[before..]);
        }
        r
    }
}

impl AsyncWrite for Watched {
    fn poll_write(self: Pin<&mut Self>, cx: &mut Context<'_>, buf: &[u8]) -> Poll<io::Result<usize>> {
        let this = self.get_mut();
        if this.replaced(buf) {
            // hyper's bytes are taken as written; ours go out first.
            return this.drain_replacement(cx).map_ok(|()| buf.len());
        }
        let r = Pin::new(&mut this.stream).poll_write(cx, buf);
        this.track(&r);
        r
    }

    fn poll_write_vectored(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        let this = self.get_mut();
        let first = bufs.iter().find(|b| !b.is_empty()).map_or(&[][..], |b| &b[..]);
        if this.replaced(first) {
            let total = bufs.iter().map(|b| b.len()).sum();
            return this.drain_replacement(cx).map_ok(|()| total);
        }
        let r = Pin::new(&mut this.stream).poll_write_vectored(cx, bufs);
        this.track(&r);
        r
    }

    fn is_write_vectored(&self) -> bool {
        self.stream.is_write_vectored()
    }

    fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        let this = self.get_mut();
        std::task::ready!(this.drain_replacement(cx))?;
        let r = Pin::new(&mut this.stream).poll_flush(cx);
        if let Poll::Ready(Ok(())) = r {
            // hyper flushes once its buffer is written out: nothing waits any more.
            this.state.flushed();
        }
        r
    }

    fn poll_shutdown(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        let this = self.get_mut();
        std::task::ready!(this.drain_replacement(cx))?;
        Pin::new(&mut this.stream).poll_shutdown(cx)
    }
}

impl Drop for Watched {
    /// Last words, best effort and without waiting: the rest of a replacement answer, or the 408
    /// of a connection closed while its request's head was arriving.
    fn drop(&mut self) {
        if let Some((bytes, done)) = &self.replacement {
            let _ = self.stream.try_write(&bytes[*done..]);
        } else if self.state.phase() == Phase::Head
            && let Some(bytes) = self.state.why().and_then(|w| w.head_timeout_bytes(&self.limits))
        {
            let _ = self.stream.try_write(&bytes);
        }
    }
}
