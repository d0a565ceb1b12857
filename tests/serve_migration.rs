//! A run store written by an older microfut (schema version 4, before the squads left the run
//! row) opens in this one: migration 5 runs once, every run keeps its squads, rounds, intents and
//! decisions, plays on from its last committed round, and its record replays `identical`.
//! The fixture was written by the version-4 server itself (tests/fixtures/store-v4/README.md).

mod common;
use common::server::{assert_replays_identical, http, start};

use serde_json::{Value, json};

fn fixture() -> (tempfile::TempDir, std::path::PathBuf, Value) {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("runs.db");
    let here = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/store-v4");
    std::fs::copy(here.join("runs.db"), &db).unwrap();
    let runs: Value = serde_json::from_str(&std::fs::read_to_string(here.join("runs.json")).unwrap()).unwrap();
    (dir, db, runs)
}

fn user_version(db: &std::path::Path) -> i64 {
    let c = rusqlite::Connection::open(db).unwrap();
    c.pragma_query_value(None, "user_version", |r| r.get(0)).unwrap()
}

#[test]
fn a_version_4_store_migrates_and_its_runs_play_on_and_replay_identical() {
    let (dir, db, runs) = fixture();
    assert_eq!(user_version(&db), 4, "the fixture is a version-4 store");
    let server = start(&["serve"], &db);
    let get = |path: &str| http(&server.addr, "GET", path, None, None);

    // The NPC run: where it was, with its squads and its decisions.
    let (npc, npc_token) = (runs["npc"]["runId"].as_str().unwrap(), runs["npc"]["token"].as_str().unwrap());
    let (st, view) = get(&format!("/api/v1/runs/{npc}"));
    assert_eq!(st, 200, "{view}");
    assert_eq!(view["round"], 60);
    assert_eq!(view["players"].as_array().map(Vec::len), Some(22), "both squads are on the pitch: {view}");
    let (st, d) = get(&format!("/api/v1/runs/{npc}/decisions"));
    assert_eq!(st, 200, "{d}");
    assert_eq!(d["total"], 57);
    assert!(d["decisions"][0]["candidate_actions"].as_array().is_some_and(|c| !c.is_empty()), "{}", d["decisions"][0]);
    let (st, sheet) = get(&format!("/api/v1/runs/{npc}/players/home-9/attributes"));
    assert_eq!(st, 200, "a player's projection reads the migrated squad: {sheet}");

    // The human run: its four intents kept; one more declared; then to the end.
    let (human, token) = (runs["human"]["runId"].as_str().unwrap(), runs["human"]["token"].as_str().unwrap());
    let adv = format!("/api/v1/runs/{human}/advance");
    let (st, b) = http(&server.addr, "POST", &adv, Some(&json!({"until": "decision"})), Some(token));
    assert_eq!(st, 200, "{b}");
    let (_, c) = get(&format!("/api/v1/runs/{human}/candidates"));
    let pick = &c["candidates"][0];
    let (st, b) = http(
        &server.addr,
        "POST",
        &format!("/api/v1/runs/{human}/intents"),
        Some(&json!({"kind": pick["kind"], "target": pick["target"]})),
        Some(token),
    );
    assert_eq!(st, 200, "{b}");
    for (id, token) in [(npc, npc_token), (human, token)] {
        let (st, b) = http(
            &server.addr,
            "POST",
            &format!("/api/v1/runs/{id}/advance"),
            Some(&json!({"until": "end", "delegate": true})),
            Some(token),
        );
        assert_eq!(st, 200, "{b}");
        assert_eq!(b["finished"], true);
    }
    let (st, record) = get(&format!("/api/v1/runs/{human}/record"));
    assert_eq!(st, 200);
    assert_eq!(record["intents"].as_array().unwrap().len(), 5, "the four stored intents and the new one");
    assert_replays_identical(dir.path(), &format!("{}.json", record["seed"]), &record);
    let (st, record) = get(&format!("/api/v1/runs/{npc}/record"));
    assert_eq!(st, 200);
    assert_replays_identical(dir.path(), &format!("{}.json", record["seed"]), &record);
    drop(server);

    // Migrated once: the squads are in their own table, each finished run says when it
    // finished (migration 6, for `store prune`), and a second start changes nothing.
    assert_eq!(user_version(&db), 6);
    let c = rusqlite::Connection::open(&db).unwrap();
    let squads: i64 = c.query_row("SELECT count(*) FROM run_squads", [], |r| r.get(0)).unwrap();
    assert_eq!(squads, 2);
    let dated: i64 = c
        .query_row("SELECT count(*) FROM runs WHERE finished AND finished_at >= created_at", [], |r| r.get(0))
        .unwrap();
    assert_eq!(dated, 2, "both runs finished here, and say when");
    drop(c);
    let server = start(&["serve"], &db);
    let (st, view) = http(&server.addr, "GET", &format!("/api/v1/runs/{npc}"), None, None);
    assert_eq!(st, 200, "{view}");
    assert_eq!(view["finished"], true);
}
