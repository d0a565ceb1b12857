//! Load benchmark of `microfut serve` (not criterion: it measures a server under concurrent
//! load). 100 runs advance round by round, each driven by its own keep-alive HTTP/1.1 client
//! on loopback, for a bounded time; every advance commits its transaction before it is answered.
//! Prints requests per second and the latency percentiles, then, side by side, the same advances
//! without HTTP (the service called directly: engine + commit) and the engine's rounds alone, so
//! the cost of each layer shows.
//!
//! `cargo bench --bench serve_load` (SECONDS=10 RUNS=100 by default; loopback only, stops by itself).

use microfut::api::dto::{AdvanceRequest, Until};
use microfut::api::{self, Runs};
use microfut::catalog::{Catalog, ContentTree};
use microfut::store::Store;
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

fn main() {
    let seconds = env("SECONDS", 10);
    let n_runs = env("RUNS", 100) as usize;
    let dir = tempfile::tempdir().unwrap();

    // ---- HTTP, 100 concurrent clients ----
    let runs = runs_in(dir.path());
    let ids = create(&runs, n_runs);
    let server_rt = tokio::runtime::Builder::new_multi_thread().enable_all().build().unwrap();
    let listener = server_rt.block_on(tokio::net::TcpListener::bind("127.0.0.1:0")).unwrap();
    let addr = listener.local_addr().unwrap();
    let app = api::app(api::default_areas(runs.clone()));
    server_rt.spawn(async move { axum::serve(listener, app).await.unwrap() });

    let client_rt = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
    let deadline = Instant::now() + Duration::from_secs(seconds);
    let started = Instant::now();
    let mut latencies: Vec<Duration> = client_rt.block_on(async {
        let mut tasks = Vec::new();
        for (id, token) in ids.clone() {
            tasks.push(tokio::spawn(async move {
                let mut conn = tokio::net::TcpStream::connect(addr).await.unwrap();
                conn.set_nodelay(true).unwrap();
                let path = format!("/api/v1/runs/{id}/advance");
                let mut buf = Vec::with_capacity(16384);
                let mut lat = Vec::new();
                while Instant::now() < deadline {
                    lat.push(advance(&mut conn, &mut buf, &path, &token).await);
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
    let elapsed = started.elapsed().as_secs_f64();
    latencies.sort();
    let n = latencies.len();
    println!("serve_load: {n_runs} concurrent runs advancing round by round over HTTP/1.1 keep-alive, {seconds} s");
    println!(
        "  HTTP end to end : {n} advances, {:.0} advances/s, p50 {:.2} ms, p99 {:.2} ms, max {:.2} ms",
        n as f64 / elapsed,
        percentile(&latencies, 0.50),
        percentile(&latencies, 0.99),
        latencies[n - 1].as_secs_f64() * 1000.0
    );
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
