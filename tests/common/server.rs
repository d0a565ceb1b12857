//! A `microfut serve` of our own binary on a free loopback port, and plain HTTP/1.1 requests to
//! it — for the tests that kill the server by its pid and start it again on the same files.

use serde_json::Value;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Child, Command, Stdio};
use std::time::Duration;

/// Killed and reaped when dropped: no server outlives its test.
pub struct Server {
    pub child: Child,
    pub addr: String,
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

pub fn start(args: &[&str], db: &std::path::Path) -> Server {
    start_with_open_files(args, db, None)
}

/// `start`, the server allowed at most `nofile` open files (soft and hard limit) when given.
pub fn start_with_open_files(args: &[&str], db: &std::path::Path, nofile: Option<u64>) -> Server {
    use std::os::unix::process::CommandExt;
    let mut cmd = Command::new(super::bin());
    cmd.args(args).args(["--bind", "127.0.0.1:0", "--db"]).arg(db).stdout(Stdio::piped()).stderr(Stdio::inherit());
    if let Some(n) = nofile {
        let lim = libc::rlimit { rlim_cur: n, rlim_max: n };
        // SAFETY: setrlimit is async-signal-safe and touches only this (forked) process.
        unsafe {
            cmd.pre_exec(move || {
                if libc::setrlimit(libc::RLIMIT_NOFILE, &lim) == 0 {
                    Ok(())
                } else {
                    Err(std::io::Error::last_os_error())
                }
            });
        }
    }
    listening(cmd.spawn().expect("the server starts"))
}

/// A server process whose stdout is piped: waits for its "listening on http://…" line.
pub fn listening(mut child: Child) -> Server {
    let mut line = String::new();
    BufReader::new(child.stdout.take().unwrap()).read_line(&mut line).unwrap();
    let addr = line
        .split("http://")
        .nth(1)
        .and_then(|s| s.split('/').next())
        .unwrap_or_else(|| panic!("no address in {line:?}"))
        .to_string();
    Server { child, addr }
}

/// One HTTP/1.1 request on its own connection: (status, JSON body).
pub fn http(addr: &str, method: &str, path: &str, body: Option<&Value>, token: Option<&str>) -> (u16, Value) {
    let (status, _, body) = http_with_head(addr, method, path, body, token);
    (status, body)
}

/// [`http`], with the response's head (status line and headers, lowercased) as well.
pub fn http_with_head(
    addr: &str,
    method: &str,
    path: &str,
    body: Option<&Value>,
    token: Option<&str>,
) -> (u16, String, Value) {
    let (status, head, payload) = http_text(addr, method, path, body, token);
    (status, head, serde_json::from_str(&payload).unwrap_or(Value::String(payload)))
}

/// [`http_with_head`] with the body as the server sent it (for comparing bytes).
pub fn http_text(
    addr: &str,
    method: &str,
    path: &str,
    body: Option<&Value>,
    token: Option<&str>,
) -> (u16, String, String) {
    let mut s = TcpStream::connect(addr).expect("connects");
    s.set_read_timeout(Some(Duration::from_secs(60))).unwrap();
    let body = body.map(|b| b.to_string()).unwrap_or_default();
    let auth = token.map(|t| format!("Authorization: Bearer {t}\r\n")).unwrap_or_default();
    write!(
        s,
        "{method} {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n{auth}Content-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    )
    .unwrap();
    let mut raw = Vec::new();
    s.read_to_end(&mut raw).unwrap();
    let text = String::from_utf8_lossy(&raw);
    let (head, rest) = text.split_once("\r\n\r\n").expect("a response");
    let status: u16 = head.split(' ').nth(1).unwrap().parse().unwrap();
    let payload = if head.to_ascii_lowercase().contains("transfer-encoding: chunked") {
        let mut out = String::new();
        let mut s = rest;
        while let Some((size, r)) = s.split_once("\r\n") {
            let n = usize::from_str_radix(size.trim(), 16).unwrap_or(0);
            if n == 0 {
                break;
            }
            out.push_str(&r[..n]);
            s = &r[n + 2..];
        }
        out
    } else {
        rest.to_string()
    };
    (status, head.to_ascii_lowercase(), payload)
}

/// Writes an exported run record to `dir/name` and asserts `microfut replay` finds it identical.
pub fn assert_replays_identical(dir: &std::path::Path, name: &str, record: &Value) {
    let path = dir.join(name);
    std::fs::write(&path, record.to_string()).unwrap();
    let out = super::run(&["replay", path.to_str().unwrap()]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success() && stdout.starts_with("identical"),
        "{stdout}{}",
        String::from_utf8_lossy(&out.stderr)
    );
}
