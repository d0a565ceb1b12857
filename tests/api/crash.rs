//! Kill -9 the server in the middle of a match, start it again: the run continues from its last
//! committed round — no acknowledged advance is lost — and its exported record replays
//! `identical`. Also: `microfut play` driven through a pipe, its record replayed.
//!
//! The server is our own binary on a free loopback port; every process started here is killed
//! by its pid.

use crate::common;
use common::server::{assert_replays_identical, http, start};

use serde_json::{Value, json};
use std::io::Write;
use std::process::{Command, Stdio};
use std::time::Duration;

#[test]
fn a_killed_server_continues_each_run_from_its_last_committed_round() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("runs.db");
    let server = start(&["serve"], &db);
    let (st, created) = http(
        &server.addr,
        "POST",
        "/api/v1/runs",
        Some(&json!({"home": "esporte_clube_mandacaru", "away": "uniao_pedra_branca", "seed": 7, "human": "home"})),
        None,
    );
    assert_eq!(st, 201, "{created}");
    let id = created["runId"].as_str().unwrap().to_string();
    let token = created["token"].as_str().unwrap().to_string();
    let (adv, intents) = (format!("/api/v1/runs/{id}/advance"), format!("/api/v1/runs/{id}/intents"));

    // Play some decisions ourselves, then advance round by round from a second thread while the
    // server is killed under it.
    let mut declared = 0;
    while declared < 4 {
        let (st, b) = http(&server.addr, "POST", &adv, Some(&json!({"until": "decision"})), Some(&token));
        assert_eq!(st, 200, "{b}");
        let (_, c) = http(&server.addr, "GET", &format!("/api/v1/runs/{id}/candidates"), None, None);
        let pick = &c["candidates"][declared % 3];
        let (st, b) = http(
            &server.addr,
            "POST",
            &intents,
            Some(&json!({"kind": pick["kind"], "target": pick["target"]})),
            Some(&token),
        );
        assert_eq!(st, 200, "{b}");
        declared += 1;
    }
    let addr = server.addr.clone();
    let (adv2, token2) = (adv.clone(), token.clone());
    let driver = std::thread::spawn(move || {
        let mut acknowledged = 0u64;
        for _ in 0..2000 {
            let ok = std::panic::catch_unwind(|| {
                http(&addr, "POST", &adv2, Some(&json!({"until": "round", "delegate": true})), Some(&token2))
            });
            match ok {
                Ok((200, b)) => acknowledged = b["round"].as_u64().unwrap(),
                _ => break,
            }
        }
        acknowledged
    });
    std::thread::sleep(Duration::from_millis(400));
    let mut server = server;
    // SIGKILL: no chance to flush anything or finish a transaction.
    let pid = server.child.id().to_string();
    assert!(Command::new("kill").args(["-9", &pid]).status().unwrap().success());
    let _ = server.child.wait();
    let acknowledged = driver.join().unwrap();
    assert!(acknowledged > 0, "the driver advanced before the kill");
    drop(server);

    let server = start(&["serve"], &db);
    let (st, view) = http(&server.addr, "GET", &format!("/api/v1/runs/{id}"), None, None);
    assert_eq!(st, 200, "{view}");
    let round = view["round"].as_u64().unwrap();
    assert!(round >= acknowledged, "every acknowledged advance survives: {round} < {acknowledged}");
    // It plays on from there, and the whole run replays identical.
    let (st, b) = http(&server.addr, "POST", &adv, Some(&json!({"until": "end", "delegate": true})), Some(&token));
    assert_eq!(st, 200, "{b}");
    assert_eq!(b["finished"], true);
    let (st, record) = http(&server.addr, "GET", &format!("/api/v1/runs/{id}/record"), None, None);
    assert_eq!(st, 200);
    assert_eq!(record["intents"].as_array().unwrap().len(), declared);
    assert_replays_identical(dir.path(), "run.json", &record);
}

#[test]
fn play_at_a_prompt_through_a_pipe_and_replay_it() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("played.json");
    let mut child = Command::new(common::bin())
        .args(["play", "--home", "ferroviario_juazeiro", "--away", "atletico_vale_do_sol", "--side", "away"])
        .args(["--seed", "3", "--out"])
        .arg(&out)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // An explanation, an answer that is not understood, one out of range, then choices.
    child.stdin.take().unwrap().write_all(b"?1\nhello\n99\n1\n2\nn\n1\n").unwrap();
    let o = child.wait_with_output().unwrap();
    let stdout = String::from_utf8_lossy(&o.stdout);
    assert!(o.status.success(), "{stdout}{}", String::from_utf8_lossy(&o.stderr));
    assert!(stdout.contains(" 1. "), "numbered candidates: {stdout}");
    assert!(
        stdout.contains("keeps the ball ") && stdout.contains(" — ") && stdout.contains('%'),
        "odds shown: {stdout}"
    );
    assert!(stdout.contains("not understood: hello"));
    assert!(stdout.contains("there is no candidate 99 (1–"), "an out-of-range number names the range: {stdout}");
    assert!(stdout.contains("→ "), "a declared intent is echoed");
    assert!(stdout.contains("full time:"));
    let record: Value = serde_json::from_slice(&std::fs::read(&out).unwrap()).unwrap();
    assert_eq!(record["human"], "away");
    assert_eq!(record["intents"].as_array().unwrap().len(), 3, "1, 2 and 1 were declared; n was the NPC's");
    let r = common::run(&["replay", out.to_str().unwrap()]);
    assert!(String::from_utf8_lossy(&r.stdout).starts_with("identical"));
}
