//! The record `GET /runs/{id}/record` exports replays `identical` at every moment of a run
//! (issue 49 §7): before its first round (the kick-off is stored with the run), part-way, with
//! its person's decision pending (the round opened up to it), and at full time — and `replay`
//! says when a record is of a run still in progress.

use crate::common;

use common::server::{assert_replays_identical, http, start};
use serde_json::{Value, json};

fn record(addr: &str, id: &str) -> Value {
    let (st, record) = http(addr, "GET", &format!("/api/v1/runs/{id}/record"), None, None);
    assert_eq!(st, 200, "{record}");
    record
}

/// `microfut replay` of `record`: its first line of output, asserting success.
fn replayed(dir: &std::path::Path, name: &str, record: &Value) -> String {
    assert_replays_identical(dir, name, record);
    let out = common::run(&["replay", dir.join(name).to_str().unwrap()]);
    common::stdout(&out)
}

#[test]
fn a_record_replays_identical_before_the_first_round_part_way_and_at_full_time() {
    let dir = tempfile::tempdir().unwrap();
    let server = start(&["serve"], &dir.path().join("runs.db"));
    let addr = &server.addr;
    for (k, human) in [None, Some("home"), Some("away")].into_iter().enumerate() {
        let mut body = json!({"home": "ferroviario_juazeiro", "away": "atletico_vale_do_sol", "seed": 3 + k});
        if let Some(h) = human {
            body["human"] = json!(h);
        }
        let (st, created) = http(addr, "POST", "/api/v1/runs", Some(&body), None);
        assert_eq!(st, 201, "{created}");
        let (id, token) = (created["runId"].as_str().unwrap(), created["token"].as_str().unwrap());

        // Not advanced yet: the kick-off and no round (this replayed as "differs at round 0").
        let fresh = record(addr, id);
        assert_eq!(fresh["round_hashes"].as_array().unwrap().len(), 0);
        assert_eq!(fresh["events"][0]["kind"], "kick_off", "the kick-off is stored with the run");
        let said = replayed(dir.path(), &format!("{k}-fresh.json"), &fresh);
        assert!(said.starts_with("identical (0 rounds so far: the run is unfinished"), "{said}");

        let advance = |until: &str| {
            let (st, b) = http(
                addr,
                "POST",
                &format!("/api/v1/runs/{id}/advance"),
                Some(&json!({"until": until, "delegate": true})),
                Some(token),
            );
            assert_eq!(st, 200, "{b}");
        };
        for _ in 0..3 {
            advance("round");
        }
        let part = record(addr, id);
        assert_eq!(part["round_hashes"].as_array().unwrap().len(), 3);
        let said = replayed(dir.path(), &format!("{k}-part.json"), &part);
        assert!(said.starts_with("identical (3 rounds so far"), "{said}");

        if human.is_some() {
            // Up to the person's next decision: the round is open, its first events stored.
            let (st, b) = http(
                addr,
                "POST",
                &format!("/api/v1/runs/{id}/advance"),
                Some(&json!({"until": "decision"})),
                Some(token),
            );
            assert_eq!(st, 200, "{b}");
            assert!(!b["pending"].is_null(), "a decision of the {human:?} side is pending: {b}");
            let pending = record(addr, id);
            replayed(dir.path(), &format!("{k}-pending.json"), &pending);
        }

        advance("end");
        let full = record(addr, id);
        let said = replayed(dir.path(), &format!("{k}-full.json"), &full);
        assert!(said.starts_with("identical (") && !said.contains("so far"), "{said}");
    }
}

/// A record stopped part-way is not a licence to edit: cutting a finished record short without
/// its final rounds' claims still differs, and a part-way record with an edited event is caught.
#[test]
fn a_part_way_record_is_still_checked_for_edits() {
    let dir = tempfile::tempdir().unwrap();
    let server = start(&["serve"], &dir.path().join("runs.db"));
    let body = json!({"home": "esporte_clube_mandacaru", "away": "uniao_pedra_branca", "seed": 11});
    let (_, created) = http(&server.addr, "POST", "/api/v1/runs", Some(&body), None);
    let (id, token) = (created["runId"].as_str().unwrap(), created["token"].as_str().unwrap());
    let (st, _) =
        http(&server.addr, "POST", &format!("/api/v1/runs/{id}/advance"), Some(&json!({"until": "end"})), Some(token));
    assert_eq!(st, 200);
    let full = record(&server.addr, id);
    let replay = |name: &str, r: &Value| {
        let path = dir.path().join(name);
        std::fs::write(&path, r.to_string()).unwrap();
        common::run(&["replay", path.to_str().unwrap()])
    };
    // The final whistle removed: the replay still blows it.
    let mut edited = full.clone();
    let events = edited["events"].as_array_mut().unwrap();
    events.retain(|e| e["kind"] != "full_time");
    let out = replay("no-whistle.json", &edited);
    assert_eq!(out.status.code(), Some(1), "{}", common::stdout(&out));
    assert!(common::stderr(&out).contains("#/events"), "{}", common::stderr(&out));
    // The rounds cut short without the events that say so.
    let mut edited = full.clone();
    edited["round_hashes"].as_array_mut().unwrap().truncate(100);
    let out = replay("short.json", &edited);
    assert_eq!(out.status.code(), Some(1), "{}", common::stdout(&out));
}
