//! The battlefield's games survive the server: kill -9 `microfut serve` in the middle of a game
//! against the random bot, start it again on the same files, and the game is there — same
//! board, same actions, its token still accepted — and goes on exactly as a twin game that was
//! never interrupted (the random bot's dice resume where they were). Also `microfut space serve
//! --db`: a finished game's record is still served after a restart.
//!
//! The servers are our own binary on free loopback ports; each is killed by its pid.

use crate::common;
use common::server::{http, start};

use microfut::space_web::store;
use serde_json::{Value, json};

const API: &str = "/api/v1/space";

fn new_game(addr: &str) -> (String, String) {
    let req = json!({"seed": 17, "n": 6, "human": "white", "bot": "random"});
    let (st, g) = http(addr, "POST", &format!("{API}/games"), Some(&req), None);
    assert_eq!(st, 201, "{g}");
    (g["id"].as_str().unwrap().to_string(), g["token"].as_str().unwrap().to_string())
}

/// The person plays the first legal action; returns the game after the bot's answer.
fn play_first(addr: &str, id: &str, token: &str) -> Value {
    let (_, g) = http(addr, "GET", &format!("{API}/games/{id}"), None, None);
    let a = &g["legal"][0];
    let (st, g) = http(
        addr,
        "POST",
        &format!("{API}/games/{id}/actions"),
        Some(&json!({"from": a["from"], "to": a["to"]})),
        Some(token),
    );
    assert_eq!(st, 200, "{g}");
    g
}

#[test]
fn a_game_survives_kill_9_and_continues_as_if_never_interrupted() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("runs.db");
    let server = start(&["serve"], &db);
    let (id, token) = new_game(&server.addr);
    for _ in 0..2 {
        let v = play_first(&server.addr, &id, &token);
        assert!(v["outcome"].is_null(), "seed 17 lasts more than 2 moves: {v}");
    }
    let (_, before) = http(&server.addr, "GET", &format!("{API}/games/{id}"), None, None);
    // kill -9: nothing is flushed on the way out.
    let mut server = server;
    unsafe {
        libc::kill(server.child.id() as i32, libc::SIGKILL);
    }
    let _ = server.child.wait();
    drop(server);
    assert!(dir.path().join("runs.space.db").exists(), "the battlefield's file sits beside the run store");

    let server = start(&["serve"], &db);
    let (st, after) = http(&server.addr, "GET", &format!("{API}/games/{id}"), None, None);
    assert_eq!(st, 200, "{after}");
    assert_eq!(after, before, "the same game, board, actions and legal actions after the restart");
    // The token still writes; a wrong one does not.
    let a = &after["legal"][0];
    let (st, _) = http(
        &server.addr,
        "POST",
        &format!("{API}/games/{id}/actions"),
        Some(&json!({"from": a["from"], "to": a["to"]})),
        Some("not-the-token"),
    );
    assert_eq!(st, 403);
    // The restored random bot answers as in a game never interrupted: a new game on the same
    // seed, given the same two moves, then both given the same moves to the end.
    let (fresh, fresh_token) = new_game(&server.addr);
    play_first(&server.addr, &fresh, &fresh_token);
    play_first(&server.addr, &fresh, &fresh_token);
    let (mut g, mut f) = (after, Value::Null);
    for _ in 0..200 {
        if !g["outcome"].is_null() {
            break;
        }
        g = play_first(&server.addr, &id, &token);
        f = play_first(&server.addr, &fresh, &fresh_token);
        assert_eq!(g["log"], f["log"], "the restored game and an uninterrupted one diverge");
    }
    assert!(!g["outcome"].is_null(), "the game ends");
    assert_eq!(g["outcome"], f["outcome"]);
    assert_eq!(g["record"]["format"], "space-match/1");
}

#[test]
fn space_serve_keeps_finished_games_in_its_db() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("games.db");
    let (id, record) = {
        let server = start(&["space", "serve"], &db);
        let (id, token) = new_game(&server.addr);
        let mut g = Value::Null;
        for _ in 0..200 {
            g = play_first(&server.addr, &id, &token);
            if !g["outcome"].is_null() {
                break;
            }
        }
        assert!(!g["record"].is_null(), "finished: {g}");
        (id, g["record"].clone())
    };
    let server = start(&["space", "serve"], &db);
    let (st, g) = http(&server.addr, "GET", &format!("{API}/games/{id}"), None, None);
    assert_eq!(st, 200, "{g}");
    assert_eq!(g["record"], record);
    let (st, e) = http(&server.addr, "GET", &format!("{API}/games/ffff"), None, None);
    assert_eq!((st, e["error"]["field"].as_str()), (404, Some("id")));
}

#[test]
fn a_game_survives_reopening_and_a_newer_schema_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("g.space.db");
    let row = store::GameRow {
        id: "abc".into(),
        token_sha256: store::token_sha256("t"),
        revision: "1.0.0".into(),
        fingerprint: "sha256:x".into(),
        seed: u64::MAX,
        human: "white".into(),
        bot: "greedy".into(),
        start: "{}".into(),
        actions: "[]".into(),
        outcome: None,
    };
    {
        let s = store::GameStore::open(&path).unwrap();
        s.create(&row).unwrap();
        s.update("abc", "[1]", Some("{}")).unwrap();
    }
    let s = store::GameStore::open(&path).unwrap();
    let got = s.get("abc").unwrap().unwrap();
    assert_eq!(got, store::GameRow { actions: "[1]".into(), outcome: Some("{}".into()), ..row });
    assert_eq!(s.get("nope").unwrap(), None);
    drop(s);
    let c = rusqlite::Connection::open(&path).unwrap();
    c.pragma_update(None, "user_version", 99).unwrap();
    drop(c);
    let e = store::GameStore::open(&path).err().expect("refused").to_string();
    assert!(e.contains("newer microfut"), "{e}");
    assert_eq!(store::beside(std::path::Path::new("/x/microfut.db")), std::path::PathBuf::from("/x/microfut.space.db"));
}

#[test]
fn microfut_serve_documents_the_battlefield_in_its_openapi_document() {
    let dir = tempfile::tempdir().unwrap();
    let server = start(&["serve"], &dir.path().join("runs.db"));
    let (st, doc) = http(&server.addr, "GET", "/api/v1/openapi.json", None, None);
    assert_eq!(st, 200);
    let paths = doc["paths"].as_object().unwrap();
    // Microfut's paths are still there, beside the battlefield's.
    assert!(paths.keys().any(|p| p.starts_with("/api/v1/runs")), "{:?}", paths.keys());
    let space: Vec<&String> = paths.keys().filter(|p| p.starts_with("/api/v1/space/")).collect();
    assert_eq!(space.len(), 7, "{space:?}");
    assert_eq!(doc["paths"]["/api/v1/space/games/{id}/actions"]["post"]["security"], json!([{"bearer": []}]));
    // Every documented path and method is a route of the server (none answers "no route").
    for p in space {
        for (method, _) in paths[p].as_object().unwrap() {
            let concrete = p.replace("{id}", "0123");
            let (st, body) = http(&server.addr, &method.to_uppercase(), &concrete, Some(&json!({})), None);
            assert!(
                !(st == 404 && body["error"]["code"] == "not_found" && body["error"]["field"] == "path"),
                "{method} {p}: {st} {body}"
            );
            assert_ne!(st, 405, "{method} {p}");
        }
    }
}
