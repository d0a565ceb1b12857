//! A run store written by an older microfut (schema version 4, before the squads left the run
//! row) opens in this one: migration 5 runs once, every run keeps its squads, rounds, intents and
//! decisions, plays on from its last committed round, and its record replays `identical`.
//! The fixture was written by the version-4 server itself (tests/fixtures/store-v4/README.md).

use crate::common;
use common::server::{assert_replays_identical, http, http_text, start};
use sha2::{Digest, Sha256};

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
    // finished (migration 6, for `store prune`), the rows the old microfut wrote were sealed
    // into chunks with the rest when each run ended here (migration 7), and a second start
    // changes nothing.
    assert_eq!(user_version(&db), 7);
    let c = rusqlite::Connection::open(&db).unwrap();
    let squads: i64 = c.query_row("SELECT count(*) FROM run_squads", [], |r| r.get(0)).unwrap();
    assert_eq!(squads, 2);
    let dated: i64 = c
        .query_row("SELECT count(*) FROM runs WHERE finished AND finished_at >= created_at", [], |r| r.get(0))
        .unwrap();
    assert_eq!(dated, 2, "both runs finished here, and say when");
    for table in ["rounds", "events", "decisions"] {
        let plain: i64 = c.query_row(&format!("SELECT count(*) FROM {table}"), [], |r| r.get(0)).unwrap();
        assert_eq!(plain, 0, "{table}: a finished run keeps its rows in chunks");
    }
    let sealed: i64 = c.query_row("SELECT count(DISTINCT run_id) FROM chunks", [], |r| r.get(0)).unwrap();
    assert_eq!(sealed, 2);
    drop(c);
    let server = start(&["serve"], &db);
    let (st, view) = http(&server.addr, "GET", &format!("/api/v1/runs/{npc}"), None, None);
    assert_eq!(st, 200, "{view}");
    assert_eq!(view["finished"], true);
}

/// A finished run written before its rows were compressed (a version-5 store, plain rows for
/// its 2,000 decisions, rounds and events) reads byte for byte as the server that wrote it
/// answered: its decisions, events, record and view, whole and from a round with a limit. It
/// stays in plain rows (only the advance that ends a match seals them), while the run the old
/// server left in progress is sealed when it ends here, and both records replay `identical`.
#[test]
fn a_finished_run_stored_before_chunks_reads_the_same_bytes() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("runs.db");
    let here = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/store-v5");
    let packed = std::fs::read(here.join("runs.db.zst")).unwrap();
    std::fs::write(&db, zstd::decode_all(&packed[..]).unwrap()).unwrap();
    let runs: Value = serde_json::from_str(&std::fs::read_to_string(here.join("runs.json")).unwrap()).unwrap();
    assert_eq!(user_version(&db), 5, "the fixture is a version-5 store");
    let server = start(&["serve"], &db);
    for (name, run) in runs.as_object().unwrap() {
        for (what, answer) in run["answers"].as_object().unwrap() {
            let path = format!("/api/v1{}", answer["path"].as_str().unwrap());
            let (st, _, mut body) = http_text(&server.addr, "GET", &path, None, None);
            assert_eq!(st, 200, "{name} {what}: {body}");
            if what == "record" {
                // Records gained a seal after this store was written (the digests of what replay
                // cannot recompute): without it, the record is the old server's, byte for byte.
                let mut v: Value = serde_json::from_str(&body).unwrap();
                assert!(v.as_object_mut().unwrap().remove("seal").is_some(), "{name}: the record has no seal");
                body = serde_json::to_string(&v).unwrap();
            }
            assert_eq!(body.len() as u64, answer["bytes"].as_u64().unwrap(), "{name} {what}");
            let sha = Sha256::digest(body.as_bytes()).iter().map(|b| format!("{b:02x}")).collect::<String>();
            assert_eq!(sha, answer["sha256"].as_str().unwrap(), "{name} {what}: not the bytes the old server sent");
        }
    }
    let (finished, playing) = (runs["finished"]["runId"].as_str().unwrap(), runs["playing"]["runId"].as_str().unwrap());
    let c = rusqlite::Connection::open(&db).unwrap();
    let plain: i64 = c.query_row("SELECT count(*) FROM decisions WHERE run_id = ?1", [finished], |r| r.get(0)).unwrap();
    assert_eq!(plain, 2000, "the old finished run keeps its plain rows");
    drop(c);
    let token = runs["playing"]["token"].as_str().unwrap();
    let (st, b) = http(
        &server.addr,
        "POST",
        &format!("/api/v1/runs/{playing}/advance"),
        Some(&json!({"until": "end"})),
        Some(token),
    );
    assert_eq!((st, &b["finished"]), (200, &Value::Bool(true)), "{b}");
    let c = rusqlite::Connection::open(&db).unwrap();
    let sealed: i64 = c.query_row("SELECT count(*) FROM chunks WHERE run_id = ?1", [playing], |r| r.get(0)).unwrap();
    assert!(sealed > 0, "the run the old server left in progress is sealed when it ends");
    for (table, column) in [("rounds", "round"), ("events", "seq"), ("decisions", "seq")] {
        let n: i64 = c
            .query_row(&format!("SELECT count({column}) FROM {table} WHERE run_id = ?1"), [playing], |r| r.get(0))
            .unwrap();
        assert_eq!(n, 0, "{table}: its plain rows went into chunks");
    }
    for run in [finished, playing] {
        let (st, record) = http(&server.addr, "GET", &format!("/api/v1/runs/{run}/record"), None, None);
        assert_eq!(st, 200);
        assert_replays_identical(dir.path(), &format!("{run}.json"), &record);
        let (_, d) = http(&server.addr, "GET", &format!("/api/v1/runs/{run}/decisions?limit=5000"), None, None);
        assert_eq!(d["decisions"].as_array().unwrap().len() as u64, d["retention"].as_u64().unwrap(), "{run}");
    }
}
