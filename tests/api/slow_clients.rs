//! Slow and greedy clients against the real server binary (issue 49, section 4): a flood of
//! connections trickling their heads does not keep a normal client from an answer within a
//! second, nor hold its connections or its memory; heads, idle connections, bodies and writes
//! that wait on their client are cut off by their timeouts; accept errors are survived without
//! spinning; and every answer the server makes on its own is the JSON error body.
//!
//! Every server is our own binary on a free loopback port, killed by its pid when dropped.

use crate::common;
use common::server::{Server, start, start_with_open_files};

use serde_json::Value;
use std::io::{ErrorKind, Read, Write};
use std::net::TcpStream;
use std::time::{Duration, Instant};

/// Lets this test process open `want` files; false if its hard limit is lower.
fn raise_own_fd_limit(want: u64) -> bool {
    let mut lim = libc::rlimit { rlim_cur: 0, rlim_max: 0 };
    // SAFETY: getrlimit and setrlimit read and write only the struct given.
    unsafe {
        assert_eq!(libc::getrlimit(libc::RLIMIT_NOFILE, &mut lim), 0);
        if lim.rlim_max < want {
            return false;
        }
        if lim.rlim_cur < want {
            lim.rlim_cur = want;
            assert_eq!(libc::setrlimit(libc::RLIMIT_NOFILE, &lim), 0);
        }
    }
    true
}

fn rss_kb(pid: u32) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap();
    let line = status.lines().find(|l| l.starts_with("VmRSS:")).unwrap();
    line.split_whitespace().nth(1).unwrap().parse().unwrap()
}

fn open_fds(pid: u32) -> usize {
    std::fs::read_dir(format!("/proc/{pid}/fd")).unwrap().count()
}

/// CPU seconds the process has used (user + system).
fn cpu_seconds(pid: u32) -> f64 {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap();
    let after = &stat[stat.rfind(')').unwrap() + 2..];
    let fields: Vec<&str> = after.split(' ').collect();
    let ticks: u64 = fields[11].parse::<u64>().unwrap() + fields[12].parse::<u64>().unwrap();
    // SAFETY: sysconf has no preconditions.
    ticks as f64 / unsafe { libc::sysconf(libc::_SC_CLK_TCK) } as f64
}

/// One response read off `s`: status, head and JSON body (by its content-length). `None` if the
/// connection closed first.
fn read_response(s: &mut TcpStream) -> Option<(u16, String, Value)> {
    let mut buf = Vec::new();
    let mut chunk = [0u8; 65536];
    loop {
        if let Some(end) = buf.windows(4).position(|w| w == b"\r\n\r\n") {
            let head = String::from_utf8_lossy(&buf[..end]).to_string();
            let len = head
                .lines()
                .find_map(|l| l.to_ascii_lowercase().strip_prefix("content-length:").map(|v| v.trim().to_string()))
                .map_or(0, |v| v.parse::<usize>().unwrap());
            while buf.len() < end + 4 + len {
                match s.read(&mut chunk) {
                    Ok(0) | Err(_) => break,
                    Ok(n) => buf.extend_from_slice(&chunk[..n]),
                }
            }
            let status = head.split(' ').nth(1)?.parse().ok()?;
            let body = serde_json::from_slice(&buf[end + 4..(end + 4 + len).min(buf.len())]).unwrap_or(Value::Null);
            return Some((status, head, body));
        }
        match s.read(&mut chunk) {
            Ok(0) | Err(_) => return None,
            Ok(n) => buf.extend_from_slice(&chunk[..n]),
        }
    }
}

/// Sends `bytes` on a new connection and reads one response.
fn exchange(addr: &str, bytes: &[u8]) -> (u16, String, Value) {
    let mut s = TcpStream::connect(addr).unwrap();
    s.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
    s.write_all(bytes).unwrap();
    read_response(&mut s)
        .unwrap_or_else(|| panic!("no answer to {:?}", String::from_utf8_lossy(&bytes[..80.min(bytes.len())])))
}

/// A normal request on its own connection: how long until its whole answer arrived.
fn timed_get(addr: &str) -> Duration {
    let t = Instant::now();
    let mut s = TcpStream::connect(addr).unwrap();
    s.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
    write!(s, "GET /api/v1/revisions HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n").unwrap();
    let (status, _, body) = read_response(&mut s).expect("an answer within 10 s");
    assert_eq!(status, 200, "{body}");
    t.elapsed()
}

/// `{"error": {"code", "message", "field"}}` with this status, code and field.
fn assert_json_error(got: &(u16, String, Value), status: u16, code: &str, field: &str) {
    let (s, head, body) = got;
    assert_eq!(*s, status, "{head}\n{body}");
    assert!(head.to_ascii_lowercase().contains("content-type: application/json"), "{head}");
    assert_eq!(body["error"]["code"], code, "{body}");
    assert_eq!(body["error"]["field"], field, "{body}");
    assert!(body["error"]["message"].as_str().is_some_and(|m| !m.is_empty()), "{body}");
}

/// Whether the server has closed `s`: the bytes it sent first (a 408, say), if any. Non-blocking.
fn closed_by_server(s: &mut TcpStream) -> Option<Vec<u8>> {
    s.set_nonblocking(true).unwrap();
    let mut got = Vec::new();
    let mut chunk = [0u8; 4096];
    loop {
        match s.read(&mut chunk) {
            Ok(0) => return Some(got),
            Ok(n) => got.extend_from_slice(&chunk[..n]),
            Err(e) if e.kind() == ErrorKind::WouldBlock => return None,
            Err(_) => return Some(got),
        }
    }
}

const SLOW_HEAD: &[u8] = b"GET /api/v1/revisions HTTP/1.1\r\nHost: x\r\n";

#[test]
fn a_normal_client_is_answered_within_a_second_while_2000_connections_trickle_their_heads() {
    const SLOW: usize = 2000;
    if !raise_own_fd_limit(SLOW as u64 + 200) {
        eprintln!("skipped: needs a hard limit of {} open files (ulimit -Hn)", SLOW + 200);
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    // 1,024 open files, a common default: fewer than the flood's connections. The server keeps
    // 128 of them for itself, so it serves 896 connections at once.
    let server = start_with_open_files(&["serve", "--header-timeout", "4"], &dir.path().join("runs.db"), Some(1024));
    let pid = server.child.id();
    timed_get(&server.addr); // the first request loads what every later one shares
    let rss_before = rss_kb(pid);

    let opened = Instant::now();
    let mut slow: Vec<TcpStream> = (0..SLOW)
        .map(|_| {
            let mut s = TcpStream::connect(&server.addr).unwrap();
            s.write_all(SLOW_HEAD).unwrap();
            s
        })
        .collect();
    // Trickle a header line on each slow connection while normal requests are timed.
    let mut latencies = Vec::new();
    let mut rss_during = 0;
    for _ in 0..12 {
        for s in &mut slow {
            let _ = s.write_all(b"X-Slow: 1\r\n");
        }
        for _ in 0..2 {
            latencies.push(timed_get(&server.addr));
        }
        rss_during = rss_during.max(rss_kb(pid));
        std::thread::sleep(Duration::from_millis(150));
    }
    latencies.sort();
    let (p50, max) = (latencies[latencies.len() / 2], *latencies.last().unwrap());
    eprintln!(
        "{SLOW} slow connections opened in {:.2} s; {} normal requests: p50 {p50:?}, max {max:?}",
        opened.elapsed().as_secs_f64(),
        latencies.len()
    );
    assert!(max < Duration::from_secs(1), "a normal request waited {max:?} during the flood");

    // The header timeout (4 s) closes every slow connection the flood did not already push out;
    // a connection cut off while its head arrived is told 408 in the API's error body.
    std::thread::sleep(Duration::from_secs(4).saturating_sub(opened.elapsed()) + Duration::from_secs(2));
    let mut told_408 = 0;
    for s in &mut slow {
        let got = closed_by_server(s).expect("every slow connection is closed by the header timeout");
        if !got.is_empty() {
            let text = String::from_utf8_lossy(&got);
            assert!(text.starts_with("HTTP/1.1 408 ") && text.contains("\"code\":\"request_timeout\""), "{text}");
            told_408 += 1;
        }
    }
    assert!(told_408 > SLOW * 9 / 10, "{told_408} of {SLOW} were told 408");
    drop(slow);
    std::thread::sleep(Duration::from_secs(1));
    let rss_after = rss_kb(pid);
    eprintln!(
        "closed: all {SLOW} ({told_408} told 408); RSS {} MB before, {} MB during, {} MB after; {} files open",
        rss_before / 1024,
        rss_during / 1024,
        rss_after / 1024,
        open_fds(pid)
    );
    assert!(rss_after < rss_before + 24 * 1024, "memory back after the flood: {rss_before} kB → {rss_after} kB");
    assert!(open_fds(pid) < 64, "the server still holds {} files", open_fds(pid));
    timed_get(&server.addr);
}

#[test]
fn heads_idle_connections_bodies_and_unread_answers_wait_only_their_timeout() {
    let dir = tempfile::tempdir().unwrap();
    let server = start(
        &["serve", "--header-timeout", "2", "--idle-timeout", "3", "--body-timeout", "1", "--write-timeout", "2"],
        &dir.path().join("runs.db"),
    );
    let addr = server.addr.as_str();
    let t0 = Instant::now();
    // A head that trickles, and a connection that sends nothing: 408 after 2 s, then closed.
    let mut trickling = TcpStream::connect(addr).unwrap();
    trickling.write_all(SLOW_HEAD).unwrap();
    let mut silent = TcpStream::connect(addr).unwrap();
    // A kept-alive connection after one answer: closed after 3 s idle, without a word.
    let mut idle = TcpStream::connect(addr).unwrap();
    idle.write_all(b"GET /api/v1/revisions HTTP/1.1\r\nHost: x\r\n\r\n").unwrap();
    idle.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
    assert_eq!(read_response(&mut idle).unwrap().0, 200);
    let answered = Instant::now();
    for s in [&mut trickling, &mut silent, &mut idle] {
        s.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
    }
    for _ in 0..3 {
        std::thread::sleep(Duration::from_millis(400));
        let _ = trickling.write_all(b"X-Slow: 1\r\n");
    }
    for s in [&mut trickling, &mut silent] {
        let got = read_response(s).expect("a 408 before the connection closes");
        assert_json_error(&got, 408, "request_timeout", "headers");
        let waited = t0.elapsed();
        assert!(waited >= Duration::from_millis(1800) && waited < Duration::from_secs(4), "closed after {waited:?}");
        assert_eq!(s.read(&mut [0u8; 16]).unwrap_or(0), 0, "then closed");
    }
    let mut rest = Vec::new();
    let _ = idle.read_to_end(&mut rest);
    let waited = answered.elapsed();
    assert!(rest.is_empty(), "an idle connection is closed without a response: {:?}", String::from_utf8_lossy(&rest));
    assert!(waited >= Duration::from_millis(2800) && waited < Duration::from_secs(5), "idle closed after {waited:?}");

    // A body that stops arriving: 408 in the error body after the body timeout (1 s).
    let mut s = TcpStream::connect(addr).unwrap();
    s.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
    let t = Instant::now();
    let head =
        b"POST /api/v1/runs HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n";
    s.write_all(head).unwrap();
    s.write_all(b"{\"home\"").unwrap();
    let got = read_response(&mut s).expect("a 408");
    assert_json_error(&got, 408, "request_timeout", "body");
    assert!(t.elapsed() >= Duration::from_millis(900) && t.elapsed() < Duration::from_secs(3), "{:?}", t.elapsed());

    // A client that asks for 300 answers of ~50 KB and never reads: once the socket buffers are
    // full the server's writes stall, and after the write timeout (2 s) the connection is closed
    // — its answers are not held in memory for as long as the client likes.
    let mut greedy = TcpStream::connect(addr).unwrap();
    let one = b"GET /api/v1/revisions HTTP/1.1\r\nHost: x\r\n\r\n";
    let size_of_one = {
        let (_, head, _) = exchange(addr, b"GET /api/v1/revisions HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
        head.len()
            + head
                .lines()
                .find_map(|l| l.strip_prefix("content-length: ").map(|v| v.parse::<usize>().unwrap()))
                .unwrap()
    };
    greedy.write_all(&one.repeat(300)).unwrap();
    let before = open_fds(server.child.id());
    std::thread::sleep(Duration::from_secs(6));
    let after = open_fds(server.child.id());
    assert!(after < before, "the stalled connection was closed: {before} files open before, {after} after");
    greedy.set_read_timeout(Some(Duration::from_secs(5))).unwrap();
    let mut total = 0;
    let mut chunk = vec![0u8; 1 << 16];
    while let Ok(n) = greedy.read(&mut chunk) {
        if n == 0 {
            break;
        }
        total += n;
    }
    assert!(total < 300 * size_of_one, "the server stopped writing: {total} of {} bytes", 300 * size_of_one);
    eprintln!("a client that never read got {total} of {} bytes before it was dropped", 300 * size_of_one);
}

#[test]
fn every_answer_the_server_makes_on_its_own_is_the_json_error_body() {
    let dir = tempfile::tempdir().unwrap();
    let microfut = start(&["serve"], &dir.path().join("runs.db"));
    let space = start(&["space", "serve"], &dir.path().join("space.db"));
    for server in [&microfut, &space] {
        check_own_answers(server);
    }
    // Microfut's server carries the battlefield too: its routes answer the same way there.
    let put = exchange(&microfut.addr, b"PUT /api/v1/space/games HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
    assert_json_error(&put, 405, "method_not_allowed", "method");
    // A body larger than the route takes is refused on its Content-Length, before it is sent.
    for (server, path, len) in [(&microfut, "/api/v1/runs", 2 << 20), (&space, "/api/v1/space/games", 5 << 20)] {
        let head = format!(
            "POST {path} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: {len}\r\n\r\n{{"
        );
        assert_json_error(&exchange(&server.addr, head.as_bytes()), 413, "body_too_large", "body");
    }
    let utf16 = "POST /api/v1/runs HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\
                 Content-Type: application/json; charset=utf-16\r\nContent-Length: 2\r\n\r\n{}";
    assert_json_error(&exchange(&microfut.addr, utf16.as_bytes()), 415, "unsupported_media_type", "Content-Type");
}

/// 404, 405, 414 (a long target, and one longer than hyper reads), 431, 400: each with the JSON
/// error body, from `server`.
fn check_own_answers(server: &Server) {
    let addr = server.addr.as_str();
    let get =
        |target: &str, extra: &str| format!("GET {target} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n{extra}\r\n");
    assert_json_error(&exchange(addr, get("/api/v1/nothing", "").as_bytes()), 404, "not_found", "path");
    assert_json_error(&exchange(addr, get("/nothing/at/all", "").as_bytes()), 404, "not_found", "path");
    let delete = b"DELETE /api/v1/space/rules HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n";
    assert_json_error(&exchange(addr, delete), 405, "method_not_allowed", "method");
    for len in [9_000, 40_000, 70_000] {
        let target = format!("/api/v1/revisions?{}", "a".repeat(len));
        let got = exchange(addr, get(&target, "").as_bytes());
        assert_json_error(&got, 414, "uri_too_long", "uri");
    }
    let huge_header = format!("X-Big: {}\r\n", "b".repeat(40_000));
    assert_json_error(
        &exchange(addr, get("/api/v1/space/rules", &huge_header).as_bytes()),
        431,
        "headers_too_large",
        "headers",
    );
    assert_json_error(&exchange(addr, b"NOT HTTP AT ALL\r\n\r\n"), 400, "malformed_request", "request");
    // The server answered all of that and is still serving.
    let ok = exchange(addr, get("/api/v1/space/rules", "").as_bytes());
    assert_eq!(ok.0, 200, "{}", ok.2);
}

#[test]
fn accept_errors_pause_the_loop_and_the_server_recovers() {
    if unsafe { libc::geteuid() } != 0 || std::process::Command::new("strace").arg("-V").output().is_err() {
        eprintln!("skipped: needs root and strace (to make accept4 fail with EMFILE)");
        return;
    }
    use std::io::BufRead;
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("runs.db");
    // The server's first 150 accept4 calls fail with "too many open files".
    let mut strace = std::process::Command::new("strace")
        .args(["-f", "-qq", "-o", "/dev/null", "-e", "trace=accept4", "-e", "inject=accept4:error=EMFILE:when=1..150"])
        .arg(common::bin())
        .args(["serve", "--bind", "127.0.0.1:0", "--db"])
        .arg(&db)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut line = String::new();
    std::io::BufReader::new(strace.stdout.take().unwrap()).read_line(&mut line).unwrap();
    let addr = line.split("http://").nth(1).and_then(|s| s.split('/').next()).unwrap().to_string();
    let children = std::fs::read_to_string(format!("/proc/{}/task/{}/children", strace.id(), strace.id())).unwrap();
    let pid: u32 = children.split_whitespace().next().unwrap().parse().unwrap();

    let cpu = cpu_seconds(pid);
    let t = Instant::now();
    let mut s = TcpStream::connect(&addr).unwrap();
    s.set_read_timeout(Some(Duration::from_secs(15))).unwrap();
    s.write_all(b"GET /api/v1/revisions HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n").unwrap();
    let got = read_response(&mut s);
    let waited = t.elapsed();
    let used = cpu_seconds(pid) - cpu;
    let _ = std::process::Command::new("kill").arg("-9").arg(pid.to_string()).status();
    let _ = strace.kill();
    let _ = strace.wait();
    let mut stderr = String::new();
    let _ = strace.stderr.take().unwrap().read_to_string(&mut stderr);
    assert_eq!(got.map(|g| g.0), Some(200), "answered once accept works again; stderr: {stderr}");
    eprintln!("150 failed accepts: answered after {waited:?}, {used:.2} s of CPU");
    assert!(waited < Duration::from_secs(8), "answered after {waited:?}");
    assert!(used < waited.as_secs_f64() * 0.5, "the accept loop spun: {used:.2} s of CPU in {waited:?}");
    assert!(stderr.contains("accepting a connection failed") && stderr.contains("os error 24"), "{stderr}");
}

#[test]
fn a_connection_limit_the_process_cannot_hold_is_refused_at_start() {
    use std::os::unix::process::CommandExt;
    let dir = tempfile::tempdir().unwrap();
    let mut cmd = std::process::Command::new(common::bin());
    cmd.args(["serve", "--bind", "127.0.0.1:0", "--max-connections", "5000", "--db"]).arg(dir.path().join("r.db"));
    let lim = libc::rlimit { rlim_cur: 1024, rlim_max: 1024 };
    // SAFETY: setrlimit is async-signal-safe and touches only the forked child.
    unsafe {
        cmd.pre_exec(move || {
            if libc::setrlimit(libc::RLIMIT_NOFILE, &lim) == 0 { Ok(()) } else { Err(std::io::Error::last_os_error()) }
        });
    }
    let mut child = cmd.stdout(std::process::Stdio::null()).stderr(std::process::Stdio::piped()).spawn().unwrap();
    let t = Instant::now();
    while child.try_wait().unwrap().is_none() && t.elapsed() < Duration::from_secs(20) {
        std::thread::sleep(Duration::from_millis(50));
    }
    let _ = child.kill();
    let out = child.wait_with_output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "refused at start: {err}");
    assert!(err.contains("--max-connections 5000") && err.contains("1024"), "{err}");
    let out = common::run(&["serve", "--header-timeout", "0", "--db", "x.db"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(common::stderr(&out).contains("--header-timeout"), "{}", common::stderr(&out));
}
