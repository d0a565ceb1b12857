//! The HTTP/1.1 connection loop under both servers (`microfut serve`, `microfut space serve`):
//! a connection limit, header, idle, body and write timeouts, and a JSON error body for every
//! response the server makes on its own.
//!
//! Problem: `axum::serve` accepts every connection and never times one out. 3,000 clients
//! trickling header bytes stayed open for 70 s; two clients opening 10,500 connections each
//! reached the file-descriptor limit, after which normal requests got no answer and memory grew
//! from 606 MB to 2.1 GB. hyper's own answers to a request it cannot parse (414, 431, 400) have
//! an empty body, not the API's `{"error": {"code", "message", "field"}}`.
//!
//! Decision: our own accept loop over hyper's HTTP/1 connection builder. Every connection is
//! registered with the phase it is in ([`conn`]): waiting for a request's head, idle between
//! requests, sending its body, being answered — and whether a write to it has stalled. A reaper
//! closes a connection that stays too long in a phase where the server waits on the client
//! (`--header-timeout`, `--idle-timeout`, `--write-timeout`; a body too slow is answered 408 by
//! the body itself, [`service`]). At `--max-connections`, a new connection does not wait for a
//! slow one to time out: the connection that has waited longest on its client is closed at once
//! (a slow head is told 408), so a normal client is answered within milliseconds during a flood
//! of slow ones; only when every connection is being answered do new ones wait, in the kernel's
//! backlog, for one to finish. The socket wrapper ([`io`]) notices writes that stall and replaces
//! hyper's bodiless automatic answers with the JSON error body; the service wrapper turns any
//! other non-JSON error (an extractor's rejection, a panic) into one. After a flood the
//! connections' memory is handed back to the system (`malloc_trim`): glibc keeps freed memory in
//! its per-thread arenas.
//!
//! Limits: HTTP/1.1 only (no HTTP/2, no upgrades). A client that pipelines a request whose head
//! is too large behind one still being written may get hyper's bodiless answer.

pub mod body;
mod conn;
mod io;
mod service;

use axum::Router;
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use conn::{Registry, Why};
use nix::errno::Errno;
use std::sync::Arc;
use std::time::Duration;
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::{OwnedSemaphorePermit, Semaphore, watch};

/// The largest request head (request line and headers) read; larger is a 431.
pub const MAX_HEAD: usize = 32 << 10;
/// The longest request target (path and query); longer is a 414.
pub const MAX_URI: usize = 8 << 10;
/// The connection limit when none is given (lowered to fit the file-descriptor limit).
pub const DEFAULT_MAX_CONNECTIONS: usize = 1024;
/// File descriptors kept for the process itself: the stores' database files, the runtime, the
/// connection accepted while it waits for a slot.
const FD_RESERVE: u64 = 128;
/// hyper's read buffer grows to this at most (its default is ~400 KB per connection).
const READ_BUFFER: usize = 64 << 10;

/// How long the server waits on a client, and how many clients it serves at once.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    pub max_connections: usize,
    /// From a connection's opening or the first byte of a request to the end of its head.
    pub header_timeout: Duration,
    /// Between requests on a kept-alive connection, before any byte of the next one.
    pub idle_timeout: Duration,
    /// From the end of a request's head to the end of its body.
    pub body_timeout: Duration,
    /// A write that makes less than [`STALL_PROGRESS`] bytes of progress in this long.
    pub write_timeout: Duration,
}

/// Progress that counts against the write timeout: a client reading a byte now and then does not
/// hold a response (and its memory) forever.
pub const STALL_PROGRESS: usize = 16 << 10;

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            max_connections: DEFAULT_MAX_CONNECTIONS,
            header_timeout: Duration::from_secs(10),
            idle_timeout: Duration::from_secs(30),
            body_timeout: Duration::from_secs(30),
            write_timeout: Duration::from_secs(30),
        }
    }
}

/// The connection limit: the one asked for, or the default lowered to fit the file-descriptor
/// limit (raised first to its hard maximum). Refuses a limit the process could not hold open.
pub fn connection_limit(asked: Option<usize>) -> Result<usize, String> {
    let fds = raise_fd_limit();
    let room = fds.saturating_sub(FD_RESERVE);
    match asked {
        Some(0) => Err("--max-connections must be at least 1".into()),
        Some(n) if n as u64 > room => Err(format!(
            "--max-connections {n} needs {} file descriptors ({FD_RESERVE} kept for the stores and the \
             process); this process may open {fds} (ulimit -n)",
            n as u64 + FD_RESERVE
        )),
        Some(n) => Ok(n),
        None if room == 0 => Err(format!("this process may open only {fds} files (ulimit -n): too few to serve")),
        None => Ok(DEFAULT_MAX_CONNECTIONS.min(room as usize)),
    }
}

/// Raises the soft limit on open files to the hard one and returns it.
fn raise_fd_limit() -> u64 {
    use nix::sys::resource::{Resource, getrlimit, setrlimit};
    let Ok((soft, hard)) = getrlimit(Resource::RLIMIT_NOFILE) else { return 1024 };
    let want = hard.min(1 << 20);
    if soft < want && setrlimit(Resource::RLIMIT_NOFILE, want, hard).is_ok() { want } else { soft }
}

/// The API's error body, `{"error": {"code", "message", "field"}}`, for answers the server makes
/// on its own.
pub fn error_response(status: StatusCode, code: &str, message: &str, field: Option<&str>) -> Response {
    let body = serde_json::json!({"error": {"code": code, "message": message, "field": field}});
    let mut res = (status, axum::Json(body)).into_response();
    if status == StatusCode::REQUEST_TIMEOUT || status == StatusCode::SERVICE_UNAVAILABLE {
        res.headers_mut().insert(header::CONNECTION, HeaderValue::from_static("close"));
    }
    res
}

/// The same body as raw HTTP/1.1 bytes, for a socket hyper no longer (or never) serves.
fn raw_error(version: &str, status: StatusCode, code: &str, message: &str, field: Option<&str>) -> Vec<u8> {
    let body = serde_json::json!({"error": {"code": code, "message": message, "field": field}}).to_string();
    format!(
        "{version} {} {}\r\ncontent-type: application/json\r\ncontent-length: {}\r\nconnection: close\r\n\r\n{body}",
        status.as_str(),
        status.canonical_reason().unwrap_or(""),
        body.len()
    )
    .into_bytes()
}

/// Listens on `addr` with a backlog of 4,096 (the kernel lowers it to `somaxconn`): a burst of
/// connections waits there for the accept loop instead of having its SYNs dropped (tokio's
/// default is 1,024, std's 128) — a dropped SYN costs a client a second before it tries again.
pub fn bind(addr: std::net::SocketAddr) -> std::io::Result<TcpListener> {
    let socket = if addr.is_ipv4() { tokio::net::TcpSocket::new_v4()? } else { tokio::net::TcpSocket::new_v6()? };
    socket.set_reuseaddr(true)?;
    socket.bind(addr)?;
    socket.listen(4096)
}

/// Serves `app` on `listener` until `shutdown` completes, then lets open requests finish (at
/// most the write timeout).
pub async fn serve(
    listener: TcpListener,
    app: Router,
    limits: Limits,
    shutdown: impl std::future::Future<Output = ()>,
) -> Result<(), String> {
    let server = Arc::new(Server::new(app, limits));
    let reaper = tokio::spawn(conn::reap(server.registry.clone()));
    tokio::pin!(shutdown);
    let mut backoff = Backoff::default();
    loop {
        tokio::select! {
            () = &mut shutdown => break,
            accepted = listener.accept() => match accepted {
                Ok((stream, _)) => {
                    // Until a slot is free the loop accepts nothing more: the kernel's backlog
                    // holds the next connections meanwhile.
                    tokio::select! {
                        () = &mut shutdown => break,
                        slot = server.slot() => {
                            tokio::spawn(server.clone().connection(stream, slot));
                        }
                    }
                }
                Err(e) => {
                    let pause = backoff.pause(&e, &server.registry);
                    if !pause.is_zero() {
                        tokio::time::sleep(pause).await;
                    }
                }
            },
        }
    }
    drop(listener);
    let _ = server.shutdown.send(true);
    let deadline = tokio::time::Instant::now() + limits.write_timeout;
    while server.registry.len() > 0 && tokio::time::Instant::now() < deadline {
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    reaper.abort();
    Ok(())
}

struct Server {
    app: Router,
    limits: Limits,
    registry: Arc<Registry>,
    slots: Arc<Semaphore>,
    shutdown: watch::Sender<bool>,
    http: hyper::server::conn::http1::Builder,
}

impl Server {
    fn new(app: Router, limits: Limits) -> Server {
        let mut http = hyper::server::conn::http1::Builder::new();
        http.max_buf_size(READ_BUFFER).max_header_size(MAX_HEAD).keep_alive(true).half_close(false);
        Server {
            app,
            limits,
            registry: Arc::new(Registry::new(limits)),
            slots: Arc::new(Semaphore::new(limits.max_connections)),
            shutdown: watch::channel(false).0,
            http,
        }
    }

    /// A slot for a connection just accepted: a free one, or the one made by closing the
    /// connection that has waited longest on its client. When every connection is being
    /// answered, it waits for one to finish (checking again for one to close every 50 ms).
    async fn slot(&self) -> OwnedSemaphorePermit {
        loop {
            if let Ok(slot) = self.slots.clone().try_acquire_owned() {
                return slot;
            }
            let wait =
                if self.registry.evict_longest_waiting() { Duration::from_secs(1) } else { Duration::from_millis(50) };
            if let Ok(Ok(slot)) = tokio::time::timeout(wait, self.slots.clone().acquire_owned()).await {
                return slot;
            }
        }
    }

    async fn connection(self: Arc<Self>, stream: TcpStream, slot: OwnedSemaphorePermit) {
        let _ = stream.set_nodelay(true);
        let (id, state) = self.registry.open();
        let io = hyper_util::rt::TokioIo::new(io::Watched::new(stream, state.clone(), self.limits));
        let svc = service::ConnService::new(self.app.clone(), state.clone(), self.limits);
        let mut conn = Box::pin(self.http.serve_connection(io, svc));
        let mut shutdown = self.shutdown.subscribe();
        let mut draining = false;
        loop {
            tokio::select! {
                _ = conn.as_mut() => break,
                () = state.closed() => break,
                changed = shutdown.changed(), if !draining => {
                    draining = true;
                    if changed.is_ok() {
                        conn.as_mut().graceful_shutdown();
                    }
                }
            }
        }
        // The socket is closed before its slot is given back: the limit counts file descriptors.
        drop(conn);
        self.registry.close(id);
        drop(slot);
    }
}

/// Accept errors: a connection that failed before it was accepted is skipped; running out of
/// file descriptors closes the connection that has waited longest on its client and pauses
/// (never a busy loop); anything else pauses too. Reported at most every 10 s.
#[derive(Default)]
struct Backoff {
    last_report: Option<std::time::Instant>,
    unreported: u64,
}

impl Backoff {
    fn pause(&mut self, e: &std::io::Error, registry: &Registry) -> Duration {
        let pause = match e.raw_os_error().map(Errno::from_raw) {
            Some(Errno::ECONNABORTED | Errno::ECONNRESET | Errno::EPROTO | Errno::EPERM | Errno::EINTR) => {
                return Duration::ZERO;
            }
            Some(Errno::EMFILE | Errno::ENFILE) => {
                registry.evict_longest_waiting();
                Duration::from_millis(20)
            }
            _ => Duration::from_millis(100),
        };
        self.unreported += 1;
        if self.last_report.is_none_or(|t| t.elapsed() >= Duration::from_secs(10)) {
            eprintln!("accepting a connection failed {} time(s): {e}; pausing {pause:?}", self.unreported);
            self.last_report = Some(std::time::Instant::now());
            self.unreported = 0;
        }
        pause
    }
}

/// Gives memory freed by closed connections back to the system. glibc keeps what a thread frees
/// in that thread's arena; after a flood of connections served by every worker thread, that is
/// hundreds of megabytes the process no longer uses. The one call left on `libc`: nix wraps
/// system calls, and malloc_trim is glibc's allocator, not a system call.
fn trim_memory() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: malloc_trim only walks the allocator's own free lists.
    unsafe {
        libc::malloc_trim(0);
    }
}

impl Why {
    /// The 408 a connection closed while its request's head was still arriving is told.
    fn head_timeout_bytes(self, limits: &Limits) -> Option<Vec<u8>> {
        let message = match self {
            Why::Timeout => format!(
                "the request's head (request line and headers) did not arrive within {} s",
                limits.header_timeout.as_secs_f64()
            ),
            Why::Pressure => "the server needed this connection's slot for another client while the request's head \
                              was still arriving"
                .to_string(),
            Why::Idle | Why::Stalled => return None,
        };
        Some(raw_error("HTTP/1.1", StatusCode::REQUEST_TIMEOUT, "request_timeout", &message, Some("headers")))
    }
}
