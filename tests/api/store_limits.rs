//! What keeps a run store from filling its disk (issue 49 §4): `DELETE /runs/{id}` and
//! `DELETE /effects/journeys/{id}` with their tokens, `microfut store prune` of old finished runs
//! beside a running server, and caps on stored runs (`serve --max-runs`) and on the store's
//! bytes (`serve --max-store-mb`) answered with a clear 4xx.

use crate::common;

use common::server::{Server, http, start};
use serde_json::{Value, json};
use std::path::Path;

fn create(addr: &str, seed: u64) -> (u16, Value) {
    let body = json!({"home": "esporte_clube_mandacaru", "away": "uniao_pedra_branca", "seed": seed});
    http(addr, "POST", "/api/v1/runs", Some(&body), None)
}

fn created(server: &Server, seed: u64) -> (String, String) {
    let (st, b) = create(&server.addr, seed);
    assert_eq!(st, 201, "{b}");
    (b["runId"].as_str().unwrap().to_string(), b["token"].as_str().unwrap().to_string())
}

fn advance(server: &Server, id: &str, token: &str, until: &str) -> (u16, Value) {
    http(&server.addr, "POST", &format!("/api/v1/runs/{id}/advance"), Some(&json!({"until": until})), Some(token))
}

/// Rows of run `id` of each kind the store holds: the run, its squads, and its rounds, events
/// and decisions whether plain rows or sealed into chunks (`rows` rows each).
fn rows_of(db: &Path, id: &str) -> Vec<(&'static str, i64)> {
    let c = rusqlite::Connection::open(db).unwrap();
    let sealed = |kind: i64| format!("(SELECT coalesce(sum(rows), 0) FROM chunks WHERE run_id = ?1 AND kind = {kind})");
    [
        ("runs", "SELECT count(*) FROM runs WHERE id = ?1".to_string()),
        ("run_squads", "SELECT count(*) FROM run_squads WHERE run_id = ?1".to_string()),
        ("rounds", format!("SELECT (SELECT count(*) FROM rounds WHERE run_id = ?1) + {}", sealed(0))),
        ("events", format!("SELECT (SELECT count(*) FROM events WHERE run_id = ?1) + {}", sealed(1))),
        ("decisions", format!("SELECT (SELECT count(*) FROM decisions WHERE run_id = ?1) + {}", sealed(2))),
    ]
    .into_iter()
    .map(|(what, sql)| (what, c.query_row(&sql, [id], |r| r.get(0)).unwrap()))
    .collect()
}

#[test]
fn delete_removes_a_run_and_all_its_rows_with_its_token_only() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("runs.db");
    let server = start(&["serve"], &db);
    let (id, token) = created(&server, 1);
    let (keep, _) = created(&server, 2);
    assert_eq!(advance(&server, &id, &token, "end").0, 200);
    assert!(rows_of(&db, &id).iter().all(|(_, n)| *n > 0), "{:?}", rows_of(&db, &id));

    let delete =
        |id: &str, token: Option<&str>| http(&server.addr, "DELETE", &format!("/api/v1/runs/{id}"), None, token);
    let (st, b) = delete(&id, None);
    assert_eq!((st, b["error"]["code"].as_str()), (401, Some("unauthorized")), "{b}");
    let (st, b) = delete(&id, Some("not-its-token"));
    assert_eq!((st, b["error"]["code"].as_str()), (403, Some("forbidden")), "{b}");
    let (st, b) = delete("0123456789abcdef0123456789abcdef", Some(&token));
    assert_eq!((st, b["error"]["field"].as_str()), (404, Some("runId")), "{b}");
    assert!(rows_of(&db, &id).iter().all(|(_, n)| *n > 0), "a refused delete deletes nothing");

    let (st, b) = delete(&id, Some(&token));
    assert_eq!(st, 204, "{b}");
    assert_eq!(b, Value::String(String::new()), "204 has no body");
    assert!(rows_of(&db, &id).iter().all(|(_, n)| *n == 0), "{:?}", rows_of(&db, &id));
    // Gone from memory too: every read, and a second delete, answer 404 in JSON.
    for path in [format!("/api/v1/runs/{id}"), format!("/api/v1/runs/{id}/record"), format!("/api/v1/runs/{id}/events")]
    {
        let (st, b) = http(&server.addr, "GET", &path, None, None);
        assert_eq!((st, b["error"]["code"].as_str()), (404, Some("not_found")), "{path}: {b}");
    }
    assert_eq!(delete(&id, Some(&token)).0, 404);
    assert_eq!(advance(&server, &id, &token, "round").0, 404);
    // The other run is untouched.
    let (st, _) = http(&server.addr, "GET", &format!("/api/v1/runs/{keep}"), None, None);
    assert_eq!(st, 200);
    // The route is in the OpenAPI document.
    let (_, doc) = http(&server.addr, "GET", "/api/v1/openapi.json", None, None);
    let op = &doc["paths"]["/api/v1/runs/{run_id}"]["delete"];
    assert!(op["responses"]["204"].is_object() && op["security"].is_array(), "{op}");
}

#[test]
fn a_full_store_refuses_new_runs_with_a_4xx_until_one_is_deleted() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("runs.db");
    let server = start(&["serve", "--max-runs", "2"], &db);
    let (first, token) = created(&server, 1);
    created(&server, 2);
    let (st, b) = create(&server.addr, 3);
    assert_eq!(st, 409, "{b}");
    assert_eq!(b["error"]["code"], "store_full");
    let message = b["error"]["message"].as_str().unwrap();
    assert!(message.contains("at most 2 runs") && message.contains("DELETE") && message.contains("prune"), "{message}");
    let c = rusqlite::Connection::open(&db).unwrap();
    let n: i64 = c.query_row("SELECT count(*) FROM runs", [], |r| r.get(0)).unwrap();
    assert_eq!(n, 2, "the refused run is not stored");
    // Room again once a run is deleted.
    let (st, _) = http(&server.addr, "DELETE", &format!("/api/v1/runs/{first}"), None, Some(&token));
    assert_eq!(st, 204);
    created(&server, 3);
    drop(server);

    for bad in ["0", "-1", "many"] {
        let out = common::run(&["serve", "--max-runs", bad, "--db", db.to_str().unwrap()]);
        assert_eq!(out.status.code(), Some(2), "--max-runs {bad}");
        assert!(common::stderr(&out).contains("--max-runs"), "{}", common::stderr(&out));
    }
}

fn prune(db: &Path, args: &[&str]) -> std::process::Output {
    let mut all = vec!["store", "prune", "--db", db.to_str().unwrap()];
    all.extend_from_slice(args);
    common::run(&all)
}

#[test]
fn prune_deletes_old_finished_runs_only_beside_a_running_server() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("runs.db");
    let server = start(&["serve"], &db);
    let (old, old_token) = created(&server, 1);
    let (recent, recent_token) = created(&server, 2);
    let (playing, playing_token) = created(&server, 3);
    assert_eq!(advance(&server, &old, &old_token, "end").0, 200);
    assert_eq!(advance(&server, &recent, &recent_token, "end").0, 200);
    assert_eq!(advance(&server, &playing, &playing_token, "round").0, 200);
    // `old` finished ten days ago.
    let c = rusqlite::Connection::open(&db).unwrap();
    c.execute("UPDATE runs SET finished_at = finished_at - 10 * 86400 WHERE id = ?1", [&old]).unwrap();
    drop(c);

    let out = prune(&db, &["--older-than", "7d", "--dry-run"]);
    assert!(out.status.success(), "{}", common::stderr(&out));
    let said = common::stdout(&out);
    assert!(said.contains(&format!("would delete run {old}")) && !said.contains(&recent), "{said}");
    assert!(said.contains("1 run and 0 journeys would be deleted") && said.contains("nothing was deleted"), "{said}");
    assert!(rows_of(&db, &old).iter().all(|(_, n)| *n > 0), "a dry run deletes nothing");

    let out = prune(&db, &["--older-than", "7d"]);
    assert!(out.status.success(), "{}", common::stderr(&out));
    let said = common::stdout(&out);
    assert!(said.contains(&format!("deleted run {old}")) && said.contains("esporte_clube_mandacaru"), "{said}");
    assert!(rows_of(&db, &old).iter().all(|(_, n)| *n == 0), "{:?}", rows_of(&db, &old));
    assert!(rows_of(&db, &recent).iter().all(|(_, n)| *n > 0), "a run finished today is kept");
    let (st, _) = http(&server.addr, "GET", &format!("/api/v1/runs/{old}/record"), None, None);
    assert_eq!(st, 404);

    // Everything finished, now, while the server writes: the run in progress is never touched.
    let out = prune(&db, &["--older-than", "0s"]);
    assert!(out.status.success(), "{}", common::stderr(&out));
    assert!(common::stdout(&out).contains(&format!("deleted run {recent}")), "{}", common::stdout(&out));
    assert!(!common::stdout(&out).contains(&playing));
    let (st, b) = advance(&server, &playing, &playing_token, "end");
    assert_eq!(st, 200, "the server plays on after a prune: {b}");
    let (st, record) = http(&server.addr, "GET", &format!("/api/v1/runs/{playing}/record"), None, None);
    assert_eq!(st, 200);
    common::server::assert_replays_identical(dir.path(), "playing.json", &record);
}

#[test]
fn prune_refuses_bad_input_with_exit_2_and_creates_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let missing = dir.path().join("missing.db");
    let out = prune(&missing, &["--older-than", "30d"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(common::stderr(&out).contains(&missing.display().to_string()), "{}", common::stderr(&out));
    assert!(!missing.exists(), "prune never creates a store");

    let text = dir.path().join("notes.db");
    std::fs::write(&text, "not a database\n".repeat(100)).unwrap();
    let out = prune(&text, &["--older-than", "30d"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(common::stderr(&out).contains("not a SQLite database"), "{}", common::stderr(&out));

    let other = dir.path().join("other.db");
    rusqlite::Connection::open(&other).unwrap().execute_batch("CREATE TABLE t (x)").unwrap();
    let out = prune(&other, &["--older-than", "30d"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(common::stderr(&out).contains("not a run store"), "{}", common::stderr(&out));

    let db = dir.path().join("runs.db");
    drop(start(&["serve"], &db));
    for bad in ["30", "3x", "-1d", "1.5h", ""] {
        let out = prune(&db, &["--older-than", bad]);
        assert_eq!(out.status.code(), Some(2), "--older-than {bad:?}");
        assert!(common::stderr(&out).contains("--older-than"), "{}", common::stderr(&out));
    }
    let out = common::run(&["store", "prune", "--db", db.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2), "--older-than is required");
}

fn create_journey(addr: &str) -> (String, String) {
    let (st, b) = http(addr, "POST", "/api/v1/effects/journeys", Some(&json!({"seed": 7})), None);
    assert_eq!(st, 201, "{b}");
    (b["runId"].as_str().unwrap().to_string(), b["token"].as_str().unwrap().to_string())
}

/// A journey's rows: (its row, its commands).
fn journey_rows(db: &Path, id: &str) -> (i64, i64) {
    let c = rusqlite::Connection::open(db).unwrap();
    let count = |sql: &str| c.query_row(sql, [id], |r| r.get::<_, i64>(0)).unwrap();
    (
        count("SELECT count(*) FROM effect_runs WHERE id = ?1"),
        count("SELECT count(*) FROM effect_commands WHERE run_id = ?1"),
    )
}

#[test]
fn delete_removes_a_journey_and_its_commands_with_its_token_only() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("runs.db");
    let server = start(&["serve"], &db);
    let (id, token) = create_journey(&server.addr);
    let (keep, _) = create_journey(&server.addr);
    let (st, b) = http(
        &server.addr,
        "POST",
        &format!("/api/v1/effects/journeys/{id}/autoplay"),
        Some(&json!({"until": "combat"})),
        Some(&token),
    );
    assert_eq!(st, 200, "{b}");
    let (one, commands) = journey_rows(&db, &id);
    assert!(one == 1 && commands > 0, "{one} {commands}");

    let path = format!("/api/v1/effects/journeys/{id}");
    let delete = |path: &str, token: Option<&str>| http(&server.addr, "DELETE", path, None, token);
    let (st, b) = delete(&path, None);
    assert_eq!((st, b["error"]["code"].as_str()), (401, Some("unauthorized")), "{b}");
    let (st, b) = delete(&path, Some("not-its-token"));
    assert_eq!((st, b["error"]["code"].as_str()), (403, Some("forbidden")), "{b}");
    assert!(b["error"]["message"].as_str().unwrap().contains("journey"), "{b}");
    let (st, b) = delete("/api/v1/effects/journeys/0123456789abcdef0123456789abcdef", Some(&token));
    assert_eq!((st, b["error"]["field"].as_str()), (404, Some("run_id")), "{b}");
    assert_eq!(journey_rows(&db, &id), (1, commands), "a refused delete deletes nothing");

    let (st, b) = delete(&path, Some(&token));
    assert_eq!(st, 204, "{b}");
    assert_eq!(b, Value::String(String::new()), "204 has no body");
    assert_eq!(journey_rows(&db, &id), (0, 0));
    // Gone from memory too (it was live there): reads, writes and a second delete answer 404.
    for read in [path.clone(), format!("{path}/record")] {
        let (st, b) = http(&server.addr, "GET", &read, None, None);
        assert_eq!((st, b["error"]["code"].as_str()), (404, Some("not_found")), "{read}: {b}");
    }
    let (st, _) = http(&server.addr, "POST", &format!("{path}/autoplay"), Some(&json!({"until": "end"})), Some(&token));
    assert_eq!(st, 404);
    assert_eq!(delete(&path, Some(&token)).0, 404);
    // A match's id is not a journey's.
    let (run, run_token) = created(&server, 1);
    let (st, b) = delete(&format!("/api/v1/effects/journeys/{run}"), Some(&run_token));
    assert_eq!(st, 404, "{b}");
    assert_eq!(rows_of(&db, &run)[0].1, 1, "the run is untouched");
    // The other journey is untouched.
    let (st, _) = http(&server.addr, "GET", &format!("/api/v1/effects/journeys/{keep}"), None, None);
    assert_eq!(st, 200);
    let (_, doc) = http(&server.addr, "GET", "/api/v1/openapi.json", None, None);
    let op = &doc["paths"]["/api/v1/effects/journeys/{run_id}"]["delete"];
    assert!(op["responses"]["204"].is_object() && op["security"].is_array(), "{op}");
}

/// Bytes the cap counts: the file's pages in use (not its free ones) and its WAL.
fn used_bytes(db: &Path) -> u64 {
    let c = rusqlite::Connection::open(db).unwrap();
    let pragma = |name: &str| c.query_row(&format!("PRAGMA {name}"), [], |r| r.get::<_, i64>(0)).unwrap() as u64;
    let wal = std::fs::metadata(format!("{}-wal", db.display())).map_or(0, |m| m.len());
    (pragma("page_count") - pragma("freelist_count")) * pragma("page_size") + wal
}

#[test]
fn a_store_over_its_byte_cap_refuses_new_runs_and_journeys_until_runs_are_deleted() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("runs.db");
    let server = start(&["serve", "--max-store-mb", "8"], &db);
    let cap = 8 << 20;
    // A run in progress when the store fills up.
    let (playing, playing_token) = created(&server, 100);
    assert_eq!(advance(&server, &playing, &playing_token, "round").0, 200);
    let mut finished = Vec::new();
    let refused = loop {
        assert!(finished.len() < 12, "8 MiB hold a few finished runs, not {}", finished.len());
        let (st, b) = create(&server.addr, finished.len() as u64 + 1);
        if st != 201 {
            break (st, b);
        }
        let (id, token) = (b["runId"].as_str().unwrap().to_string(), b["token"].as_str().unwrap().to_string());
        assert_eq!(advance(&server, &id, &token, "end").0, 200);
        finished.push((id, token));
    };
    assert!(finished.len() >= 2, "a finished run takes well under 4 MiB ({} fitted)", finished.len());
    let (st, b) = refused;
    assert_eq!((st, b["error"]["code"].as_str()), (409, Some("store_full")), "{b}");
    let message = b["error"]["message"].as_str().unwrap();
    for words in ["of the 8 MiB it may", "--max-store-mb", "DELETE /api/v1/runs/", "microfut store prune"] {
        assert!(message.contains(words), "{words:?} in {message}");
    }
    assert!(used_bytes(&db) >= cap, "refused at {} bytes", used_bytes(&db));
    let held = |db: &Path| {
        rusqlite::Connection::open(db)
            .unwrap()
            .query_row("SELECT count(*) FROM runs", [], |r| r.get::<_, i64>(0))
            .unwrap()
    };
    assert_eq!(held(&db), finished.len() as i64 + 1, "the refused run is not stored");
    // Journeys too, naming their own delete route.
    let (st, b) = http(&server.addr, "POST", "/api/v1/effects/journeys", Some(&json!({})), None);
    assert_eq!((st, b["error"]["code"].as_str()), (409, Some("store_full")), "{b}");
    assert!(b["error"]["message"].as_str().unwrap().contains("DELETE /api/v1/effects/journeys/"), "{b}");
    // The run in progress plays on to its end: the cap stops new runs, not a match being played.
    let (st, b) = advance(&server, &playing, &playing_token, "end");
    assert_eq!(st, 200, "{b}");

    // Deleting finished runs frees their pages (the file keeps its size): room again.
    for (id, token) in &finished {
        let (st, _) = http(&server.addr, "DELETE", &format!("/api/v1/runs/{id}"), None, Some(token));
        assert_eq!(st, 204);
    }
    created(&server, 50);
    create_journey(&server.addr);
    drop(server);

    for bad in ["0", "-5", "lots", "99999999999"] {
        let out = common::run(&["serve", "--max-store-mb", bad, "--db", db.to_str().unwrap()]);
        assert_eq!(out.status.code(), Some(2), "--max-store-mb {bad}");
        assert!(common::stderr(&out).contains("--max-store-mb"), "{}", common::stderr(&out));
    }
}

/// Pages of the store in use (not free) times the page size: what its runs take.
fn pages_in_use(db: &Path) -> u64 {
    let c = rusqlite::Connection::open(db).unwrap();
    let pragma = |name: &str| c.query_row(&format!("PRAGMA {name}"), [], |r| r.get::<_, i64>(0)).unwrap() as u64;
    (pragma("page_count") - pragma("freelist_count")) * pragma("page_size")
}

/// A finished match on the default revision takes at most 2 MB of store (it took ~5.9 MB when
/// every round, event and decision was a row of its own), whether played to the end in one
/// advance or round by round, and what is read back is what the engine made: the record
/// replays `identical` and the decision log holds its retention.
#[test]
fn a_finished_match_takes_at_most_2_mb_of_store() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("runs.db");
    let server = start(&["serve"], &db);
    let (warm, _) = created(&server, 99);
    let empty = pages_in_use(&db);
    let (id, token) = created(&server, 1);
    assert_eq!(advance(&server, &id, &token, "end").0, 200);
    let whole = pages_in_use(&db) - empty;
    // Round by round, its rows sealed into chunks as it goes.
    let (stepped, stepped_token) = created(&server, 1);
    let before = pages_in_use(&db);
    let mut rounds = 0;
    loop {
        let (st, b) = advance(&server, &stepped, &stepped_token, "round");
        assert_eq!(st, 200, "{b}");
        rounds += 1;
        if b["finished"] == true {
            break;
        }
        assert!(rounds < 5_000, "the match ends");
    }
    let by_round = pages_in_use(&db) - before;
    for (how, bytes) in [("to the end in one advance", whole), ("round by round", by_round)] {
        assert!(bytes <= 2_000_000, "a finished match played {how} takes {bytes} bytes");
    }
    for run in [&id, &stepped] {
        let (st, d) = http(&server.addr, "GET", &format!("/api/v1/runs/{run}/decisions?limit=5000"), None, None);
        assert_eq!(st, 200);
        assert_eq!(d["decisions"].as_array().unwrap().len() as u64, d["retention"].as_u64().unwrap(), "{}", d["total"]);
        let (st, record) = http(&server.addr, "GET", &format!("/api/v1/runs/{run}/record"), None, None);
        assert_eq!(st, 200);
        common::server::assert_replays_identical(dir.path(), &format!("{run}.json"), &record);
    }
    // The same match both ways: the same decisions, byte for byte.
    let read = |run: &str| http(&server.addr, "GET", &format!("/api/v1/runs/{run}/decisions?limit=5000"), None, None).1;
    assert_eq!(read(&id)["decisions"].to_string(), read(&stepped)["decisions"].to_string());
    drop(warm);
}

/// The byte cap counts the WAL's frames not yet checkpointed, not the WAL file's length: after a
/// checkpoint the file keeps its high-water mark (space it reuses, holding no run), which would
/// keep a small cap full for good. Here one big write (not a run) grows the WAL past the cap and
/// is undone; once checkpointed, runs are created again with the WAL file still over the cap.
#[test]
fn a_wal_file_grown_past_the_cap_does_not_keep_the_store_full() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("runs.db");
    let server = start(&["serve", "--max-store-mb", "8"], &db);
    created(&server, 1);
    let c = rusqlite::Connection::open(&db).unwrap();
    c.busy_timeout(std::time::Duration::from_secs(10)).unwrap();
    c.execute_batch(
        "CREATE TABLE scratch (b BLOB); INSERT INTO scratch VALUES (zeroblob(12 << 20)); DROP TABLE scratch;",
    )
    .unwrap();
    drop(c);
    let wal = || std::fs::metadata(format!("{}-wal", db.display())).unwrap().len();
    assert!(wal() >= 12 << 20, "the WAL grew past the cap: {} bytes", wal());
    // The checkpointer copies it into the file within a few of its 250 ms turns.
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
    loop {
        let (st, b) = create(&server.addr, 2);
        if st == 201 {
            break;
        }
        assert_eq!((st, b["error"]["code"].as_str()), (409, Some("store_full")), "{b}");
        assert!(std::time::Instant::now() < deadline, "still refused once the WAL was checkpointed: {b}");
        std::thread::sleep(std::time::Duration::from_millis(100));
    }
    assert!(wal() >= 8 << 20, "the WAL file kept its length ({} bytes), and is not what the cap counts", wal());
    assert!(pages_in_use(&db) < 8 << 20);
}
