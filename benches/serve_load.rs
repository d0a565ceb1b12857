//! Load benchmark of `microfut serve` (not criterion: it measures a server under concurrent
//! load). 100 runs advance round by round, each driven by its own keep-alive HTTP/1.1 client
//! on loopback, for a bounded time; every advance commits its transaction before it is answered.
//! Prints requests per second and the latency percentiles, then, side by side, the same advances
//! without HTTP (the service called directly: engine + commit) and the engine's rounds alone, so
//! the cost of each layer shows.
//!
//! Then the same clients paced at RATE advances/s in all (2,000 by default, the issue's target;
//! RATE=0 skips it), latency counted from when each advance was due.
//!
//! `cargo bench --bench serve_load` (SECONDS=10 RUNS=100 by default; loopback only, stops by itself).

use microfut::api::dto::{AdvanceRequest, Until};
use microfut::api::{self, Runs};
use microfut::catalog::{Catalog, ContentTree};
use microfut::store::{Store, timing};
use std::sync::Arc;
use std::time::{Duration, Instant};
use tokio::io::{AsyncReadExt, AsyncWriteExt};

fn env(name: &str, default: u64) -> u64 {
    std::env::var(name).ok().and_then(|v| v.parse().ok()).unwrap_or(default)
}

fn runs_in(dir: &std::path::Path) -> Arc<Runs> {
    let store = Store::open(&dir.join("runs.db")).expect("store");
    Arc::new(Runs::new(Arc::new(Catalog::load(&ContentTree::embedded())), Arc::new(store)))
}

fn create(runs: &Runs, n: usize) -> Vec<(String, String)> {
    (0..n)
        .map(|k| {
            let req: api::dto::CreateRun = serde_json::from_value(serde_json::json!({
                "home": "esporte_clube_mandacaru", "away": "uniao_pedra_branca", "seed": k
            }))
            .unwrap();
            let r = runs.create(req).expect("run");
            (r.run_id, r.token)
        })
        .collect()
}

/// One keep-alive connection: POST advance, read the whole response; returns the latency.
async fn advance(conn: &mut tokio::net::TcpStream, buf: &mut Vec<u8>, path: &str, token: &str) -> Duration {
    let body = r#"{"until":"round"}"#;
    let req = format!(
        "POST {path} HTTP/1.1\r\nHost: bench\r\nAuthorization: Bearer {token}\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    );
    let t = Instant::now();
    conn.write_all(req.as_bytes()).await.expect("write");
    buf.clear();
    let mut chunk = [0u8; 8192];
    loop {
        let n = conn.read(&mut chunk).await.expect("read");
        assert!(n > 0, "server closed the connection");
        buf.extend_from_slice(&chunk[..n]);
        if let Some(end) = buf.windows(4).position(|w| w == b"\r\n\r\n") {
            let head = std::str::from_utf8(&buf[..end]).unwrap().to_ascii_lowercase();
            assert!(head.starts_with("http/1.1 200"), "{head}");
            let len: usize = head
                .lines()
                .find_map(|l| l.strip_prefix("content-length:"))
                .map(|v| v.trim().parse().unwrap())
                .expect("content-length");
            while buf.len() < end + 4 + len {
                let n = conn.read(&mut chunk).await.expect("read");
                buf.extend_from_slice(&chunk[..n]);
            }
            return t.elapsed();
        }
    }
}

fn percentile(sorted: &[Duration], p: f64) -> f64 {
    let i = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    sorted[i].as_secs_f64() * 1000.0
}

/// A phase of an advance: when it began and ended.
type Span = fn(&timing::AdvanceTimes) -> (std::time::Instant, std::time::Instant);

/// Where the server's time went: each phase's p50 / p99, and its mean over the slowest 1 % of
/// advances (by server time), next to the client's p99 (the rest is the HTTP layer and the
/// client, which share the machine).
fn print_phases(client_p99: f64) {
    let (advances, groups) = timing::take();
    if advances.is_empty() {
        return;
    }
    let ms = |a: std::time::Instant, b: std::time::Instant| b.saturating_duration_since(a).as_secs_f64() * 1000.0;
    let phases: [(&str, Span); 8] = [
        ("run lock", |t| (t.entered, t.locked)),
        ("blocking-pool queue", |t| (t.locked, t.on_pool)),
        ("round(s) played", |t| (t.on_pool, t.played)),
        ("rows serialised + queued", |t| (t.played, t.queued)),
        ("writer queue", |t| (t.queued, t.group_began)),
        ("group write + COMMIT", |t| (t.group_began, t.committed)),
        ("wake-up after commit", |t| (t.committed, t.answered)),
        ("server total", |t| (t.entered, t.answered)),
    ];
    let mut order: Vec<usize> = (0..advances.len()).collect();
    order.sort_by(|&a, &b| {
        ms(advances[a].entered, advances[a].answered).total_cmp(&ms(advances[b].entered, advances[b].answered))
    });
    let slow = &order[order.len() * 99 / 100..];
    println!(
        "  server phases ({} advances; client p99 {client_p99:.2} ms): p50 / p99 / mean of the slowest 1 %",
        advances.len()
    );
    for (name, f) in phases {
        let mut v: Vec<f64> = advances
            .iter()
            .map(|t| {
                let (a, b) = f(t);
                ms(a, b)
            })
            .collect();
        let tail = slow
            .iter()
            .map(|&k| {
                let (a, b) = f(&advances[k]);
                ms(a, b)
            })
            .sum::<f64>()
            / slow.len() as f64;
        v.sort_by(f64::total_cmp);
        let q = |p: f64| v[((v.len() - 1) as f64 * p).round() as usize];
        println!("    {name:<26} {:>7.2} {:>7.2} {:>7.2} ms", q(0.5), q(0.99), tail);
    }
    let mut sizes: Vec<usize> = groups.iter().map(|g| g.size).collect();
    sizes.sort();
    let mut write: Vec<f64> = groups.iter().map(|g| ms(g.began, g.written)).collect();
    let mut commit: Vec<f64> = groups.iter().map(|g| ms(g.written, g.committed)).collect();
    write.sort_by(f64::total_cmp);
    commit.sort_by(f64::total_cmp);
    let q = |v: &[f64], p: f64| v[((v.len() - 1) as f64 * p).round() as usize];
    println!(
        "    groups: {} (size p50 {} max {}), rows written p50 {:.2} p99 {:.2} ms, COMMIT p50 {:.2} p99 {:.2} ms",
        groups.len(),
        sizes[sizes.len() / 2],
        sizes[sizes.len() - 1],
        q(&write, 0.5),
        q(&write, 0.99),
        q(&commit, 0.5),
        q(&commit, 0.99)
    );
}

/// What one advance wrote: rows per advance and bytes per row, table by table.
fn print_rows(db: &std::path::Path) {
    let c = rusqlite::Connection::open(db).unwrap();
    let advances: f64 = c.query_row("SELECT sum(rounds) FROM runs", [], |r| r.get(0)).unwrap();
    let decisions: f64 = c.query_row("SELECT sum(decisions) FROM runs", [], |r| r.get(0)).unwrap();
    for (table, col) in [("rounds", "rolls"), ("events", "body"), ("decisions", "body")] {
        let (n, bytes): (f64, Option<f64>) = c
            .query_row(&format!("SELECT count(*), avg(length({col})) FROM {table}"), [], |r| Ok((r.get(0)?, r.get(1)?)))
            .unwrap();
        // Expired decisions are deleted: count them from the runs' totals.
        let n = if table == "decisions" { decisions } else { n };
        println!("    {table:<10} {:.2} rows per round, {:.0} bytes each", n / advances, bytes.unwrap_or(0.0));
    }
}

/// Drives every run from its own keep-alive connection for `seconds`. Saturated (`rate` None):
/// each client sends its next advance as soon as the last is answered; latency is the request's
/// own. Paced: `rate` advances/s in all, each client on a fixed schedule offset from the others,
/// latency counted from when the request was due (no coordinated omission). Latencies sorted.
fn drive(
    rt: &tokio::runtime::Runtime,
    addr: std::net::SocketAddr,
    ids: &[(String, String)],
    seconds: u64,
    rate: Option<f64>,
) -> (Vec<Duration>, f64) {
    let started = Instant::now();
    let deadline = started + Duration::from_secs(seconds);
    let clients = ids.len() as f64;
    let mut all = rt.block_on(async {
        let mut tasks = Vec::new();
        for (k, (id, token)) in ids.iter().cloned().enumerate() {
            tasks.push(tokio::spawn(async move {
                let mut conn = tokio::net::TcpStream::connect(addr).await.unwrap();
                conn.set_nodelay(true).unwrap();
                let path = format!("/api/v1/runs/{id}/advance");
                let mut buf = Vec::with_capacity(16384);
                let mut lat = Vec::new();
                let interval = rate.map(|r| Duration::from_secs_f64(clients / r));
                let mut due = started + interval.map_or(Duration::ZERO, |i| i.mul_f64(k as f64 / clients));
                while due < deadline && Instant::now() < deadline {
                    match interval {
                        None => lat.push(advance(&mut conn, &mut buf, &path, &token).await),
                        Some(i) => {
                            tokio::time::sleep_until(due.into()).await;
                            advance(&mut conn, &mut buf, &path, &token).await;
                            lat.push(due.elapsed());
                            due += i;
                        }
                    }
                }
                lat
            }));
        }
        let mut all = Vec::new();
        for t in tasks {
            all.extend(t.await.unwrap());
        }
        all
    });
    all.sort();
    (all, started.elapsed().as_secs_f64())
}

/// Rate and latency percentiles of sorted latencies gathered over `elapsed` seconds.
fn summary(sorted: &[Duration], elapsed: f64) -> String {
    format!(
        "{:.0} advances/s, p50 {:.2} ms, p99 {:.2} ms, max {:.2} ms",
        sorted.len() as f64 / elapsed,
        percentile(sorted, 0.50),
        percentile(sorted, 0.99),
        sorted[sorted.len() - 1].as_secs_f64() * 1000.0
    )
}

fn main() {
    let seconds = env("SECONDS", 10);
    let n_runs = env("RUNS", 100) as usize;
    let dir = tempfile::tempdir().unwrap();

    // ---- HTTP, 100 concurrent clients ----
    let runs = runs_in(dir.path());
    let ids = create(&runs, n_runs);
    // WORKERS / BLOCKING: the server runtime's async workers and blocking-pool bound (tokio's
    // defaults — one worker per core, 512 blocking threads — unless set), to measure them.
    let mut server_rt = tokio::runtime::Builder::new_multi_thread();
    if let Some(n) = std::env::var("WORKERS").ok().and_then(|v| v.parse().ok()) {
        server_rt.worker_threads(n);
    }
    if let Some(n) = std::env::var("BLOCKING").ok().and_then(|v| v.parse().ok()) {
        server_rt.max_blocking_threads(n);
    }
    let server_rt = server_rt.enable_all().build().unwrap();
    let listener = server_rt.block_on(tokio::net::TcpListener::bind("127.0.0.1:0")).unwrap();
    let addr = listener.local_addr().unwrap();
    let app = api::app(api::default_areas(runs.clone()));
    server_rt.spawn(async move { axum::serve(listener, app).await.unwrap() });

    // TIMING=1: stamp every advance's phases on the server (`store::timing`) and print where
    // the time went, for all advances and for the slowest 1 %.
    let timed = env("TIMING", 0) == 1;
    if timed {
        timing::enable();
    }
    let client_rt = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
    let (latencies, elapsed) = drive(&client_rt, addr, &ids, seconds, None);
    let n = latencies.len();
    println!("serve_load: {n_runs} concurrent runs advancing round by round over HTTP/1.1 keep-alive, {seconds} s");
    println!("  HTTP end to end : {n} advances, {}", summary(&latencies, elapsed));
    if timed {
        print_phases(percentile(&latencies, 0.99));
        print_rows(&dir.path().join("runs.db"));
    }
    // The target as the issue writes it: 2,000 advances/s (RATE) with p99 < 50 ms. Saturated
    // clients measure capacity; a paced, open-loop schedule measures latency at that rate (a late
    // answer delays no later request, and each latency counts from when it was due).
    let rate = env("RATE", 2000);
    if rate > 0 {
        let (paced, elapsed) = drive(&client_rt, addr, &ids, seconds, Some(rate as f64));
        println!(
            "  HTTP paced      : {} advances due at {rate}/s, answered at {} (latency from when each was due)",
            paced.len(),
            summary(&paced, elapsed)
        );
    }
    drop(server_rt);

    // ---- the same advances without HTTP: engine + one commit each, one thread ----
    let dir2 = tempfile::tempdir().unwrap();
    let runs = runs_in(dir2.path());
    let ids = create(&runs, n_runs);
    let per_run = (n / n_runs).max(10);
    let t = Instant::now();
    for _ in 0..per_run {
        for (id, token) in &ids {
            runs.advance(id, token, AdvanceRequest { until: Until::Round, delegate: false }).unwrap();
        }
    }
    let direct = t.elapsed().as_secs_f64();
    println!(
        "  service direct  : {} advances, {:.0} advances/s ({:.1} µs each: engine round + transaction)",
        per_run * n_runs,
        (per_run * n_runs) as f64 / direct,
        direct * 1e6 / (per_run * n_runs) as f64
    );

    // ---- the engine's rounds alone ----
    let catalog = Catalog::load(&ContentTree::embedded());
    let rules = microfut::run::rules_for(&catalog, None).unwrap();
    let club = |id: &str| {
        let v = catalog.ruleset("microfut").unwrap().extra[&format!("clubs/{id}.json")].clone();
        microfut::club::Club::from_value(v).unwrap()
    };
    let (home, away) = (club("esporte_clube_mandacaru"), club("uniao_pedra_branca"));
    let mut matches: Vec<_> = (0..n_runs)
        .map(|k| microfut::engine::Match::new(rules.clone(), &home, &away, k as u64, Default::default()).unwrap())
        .collect();
    let t = Instant::now();
    for _ in 0..per_run {
        for m in matches.iter_mut() {
            m.step();
        }
    }
    let engine = t.elapsed().as_secs_f64();
    println!(
        "  engine alone    : {} rounds, {:.0} rounds/s ({:.1} µs each)",
        per_run * n_runs,
        (per_run * n_runs) as f64 / engine,
        engine * 1e6 / (per_run * n_runs) as f64
    );
}
