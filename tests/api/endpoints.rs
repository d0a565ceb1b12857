//! The HTTP API, in process through the router: every endpoint's success and failure cases,
//! errors as 4xx JSON naming the field, a refused intent that changes nothing, read-only
//! projections (no die drawn, nothing written, the same pipelines as play), and a run created
//! through the API whose exported record replays `identical`.

use axum::body::Body;
use axum::http::{Request, StatusCode};
use microfut::api::{self, Runs};
use microfut::catalog::{Catalog, ContentTree};
use microfut::run::{Replay, RunRecord, pinned_rules, replay};
use microfut::store::Store;
use serde_json::{Value, json};
use std::sync::Arc;
use tower::ServiceExt;

struct Server {
    app: axum::Router,
    runs: Arc<Runs>,
    _dir: tempfile::TempDir,
}

fn server() -> Server {
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open(&dir.path().join("runs.db")).unwrap();
    let catalog = Catalog::load(&ContentTree::embedded());
    let runs = Arc::new(Runs::new(Arc::new(catalog), Arc::new(store)));
    Server { app: api::app(api::default_areas(runs.clone())), runs, _dir: dir }
}

/// `f` on the live run `id`, through `Runs::with_run` — which blocks on the run's lock, so it is
/// called off the async runtime, as the handlers call it.
async fn inspect<T: Send + 'static>(
    s: &Server,
    id: &str,
    f: impl FnOnce(&mut microfut::api::runs::LiveRun) -> T + Send + 'static,
) -> T {
    let (runs, id) = (s.runs.clone(), id.to_string());
    tokio::task::spawn_blocking(move || runs.with_run(&id, |r| Ok(f(r))).unwrap()).await.unwrap()
}

struct Resp {
    status: StatusCode,
    body: Value,
    headers: axum::http::HeaderMap,
}

impl Server {
    async fn send(
        &self,
        method: &str,
        uri: &str,
        body: Option<&str>,
        token: Option<&str>,
        ctype: Option<&str>,
    ) -> Resp {
        let mut req = Request::builder().method(method).uri(uri);
        if let Some(t) = token {
            req = req.header("authorization", format!("Bearer {t}"));
        }
        if body.is_some() {
            req = req.header("content-type", ctype.unwrap_or("application/json"));
        }
        let req = req.body(body.map_or(Body::empty(), |b| Body::from(b.to_string()))).unwrap();
        let res = self.app.clone().oneshot(req).await.unwrap();
        let status = res.status();
        let headers = res.headers().clone();
        let bytes = axum::body::to_bytes(res.into_body(), usize::MAX).await.unwrap();
        let body = serde_json::from_slice(&bytes).unwrap_or(Value::String(String::from_utf8_lossy(&bytes).into()));
        Resp { status, body, headers }
    }
    async fn get(&self, uri: &str) -> Resp {
        self.send("GET", uri, None, None, None).await
    }
    async fn post(&self, uri: &str, body: Value, token: Option<&str>) -> Resp {
        self.send("POST", uri, Some(&body.to_string()), token, None).await
    }
    async fn create(&self, human: Option<&str>, seed: u64) -> (String, String) {
        let r = self
            .post(
                "/api/v1/runs",
                json!({"home": "esporte_clube_mandacaru", "away": "uniao_pedra_branca", "seed": seed, "human": human}),
                None,
            )
            .await;
        assert_eq!(r.status, StatusCode::CREATED, "{}", r.body);
        (r.body["runId"].as_str().unwrap().into(), r.body["token"].as_str().unwrap().into())
    }
    /// Advances to the human side's next decision.
    async fn to_decision(&self, id: &str, token: &str) -> Value {
        let r = self.post(&format!("/api/v1/runs/{id}/advance"), json!({"until": "decision"}), Some(token)).await;
        assert_eq!(r.status, StatusCode::OK, "{}", r.body);
        assert_eq!(r.body["stoppedAt"], "decision");
        r.body
    }
}

/// `{"error": {"code", "message", "field"}}` with this status and field.
fn assert_error(r: &Resp, status: StatusCode, field: &str) {
    assert_eq!(r.status, status, "{}", r.body);
    let e = &r.body["error"];
    assert!(e["code"].is_string() && e["message"].is_string(), "error body: {}", r.body);
    assert_eq!(e["field"], field, "{}", r.body);
}

#[tokio::test]
async fn revisions_and_clubs_are_listed() {
    let s = server();
    let r = s.get("/api/v1/revisions").await;
    assert_eq!(r.status, StatusCode::OK);
    let revs = r.body.as_array().unwrap();
    assert!(revs.iter().any(|v| v["version"] == "0.6.20" && v["playable"] == true && v["default"] == true));
    assert!(revs.iter().any(|v| v["version"] == "0.5.0" && v["playable"] == false), "0.5.0 predates the engine");
    let r = s.get("/api/v1/clubs").await;
    assert_eq!(r.status, StatusCode::OK);
    assert_eq!(r.body.as_array().unwrap().len(), 5);
    let r = s.get("/api/v1/clubs/uniao_pedra_branca").await;
    assert_eq!(r.status, StatusCode::OK);
    assert_eq!(r.body["squad"].as_array().unwrap().len(), 25);
    assert_error(&s.get("/api/v1/clubs/nobody").await, StatusCode::NOT_FOUND, "club_id");
}

#[tokio::test]
async fn a_club_upload_is_validated_like_club_validate() {
    let s = server();
    let mut club: Value =
        serde_json::from_str(include_str!("../../content/microfut/clubs/atletico_vale_do_sol.json")).unwrap();
    club["id"] = json!("uploaded_fc");
    for p in club["squad"].as_array_mut().unwrap() {
        p["club"] = json!("uploaded_fc");
    }
    let r = s.post("/api/v1/clubs", club.clone(), None).await;
    assert_eq!(r.status, StatusCode::CREATED, "{}", r.body);
    assert_eq!(r.body["report"]["club"], "uploaded_fc");
    assert!(s.get("/api/v1/clubs").await.body.as_array().unwrap().iter().any(|c| c["id"] == "uploaded_fc"));
    assert_error(&s.post("/api/v1/clubs", club.clone(), None).await, StatusCode::CONFLICT, "/id");
    // Over budget: refused, naming the field as `club validate` does.
    let mut poor = club.clone();
    poor["id"] = json!("poor_fc");
    for p in poor["squad"].as_array_mut().unwrap() {
        p["club"] = json!("poor_fc");
    }
    poor["budget"] = json!(10);
    let r = s.post("/api/v1/clubs", poor, None).await;
    assert_error(&r, StatusCode::UNPROCESSABLE_ENTITY, "/budget");
    // A mistyped field inside a sheet is named by its pointer.
    let mut bad = club.clone();
    bad["id"] = json!("bad_fc");
    for p in bad["squad"].as_array_mut().unwrap() {
        p["club"] = json!("bad_fc");
    }
    bad["squad"][3]["attributes"]["st"] = json!("strong");
    let r = s.post("/api/v1/clubs", bad, None).await;
    assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", r.body);
    assert!(r.body["error"]["field"].as_str().unwrap().starts_with("/squad/3"), "{}", r.body);
    // An uploaded club plays.
    let r = s.post("/api/v1/runs", json!({"home": "uploaded_fc", "away": "uniao_pedra_branca", "seed": 1}), None).await;
    assert_eq!(r.status, StatusCode::CREATED, "{}", r.body);
}

#[tokio::test]
async fn creating_a_run_pins_its_revision_and_refuses_bad_input_by_field() {
    let s = server();
    let r = s
        .post(
            "/api/v1/runs",
            json!({"home": "esporte_clube_mandacaru", "away": "uniao_pedra_branca", "human": "away"}),
            None,
        )
        .await;
    assert_eq!(r.status, StatusCode::CREATED, "{}", r.body);
    let b = &r.body;
    assert_eq!(b["runId"].as_str().unwrap().len(), 32, "128 random bits");
    assert_eq!(b["token"].as_str().unwrap().len(), 64);
    assert_eq!(b["revision"], "0.6.20");
    assert!(b["fingerprint"].as_str().unwrap().starts_with("sha256:"));
    assert!(b["seed"].as_u64().unwrap() < 1 << 53);
    assert_eq!(r.headers["location"], format!("/api/v1/runs/{}", b["runId"].as_str().unwrap()));

    let base = json!({"home": "esporte_clube_mandacaru", "away": "uniao_pedra_branca"});
    let with = |k: &str, v: Value| {
        let mut b = base.clone();
        b[k] = v;
        b
    };
    let cases = [
        (with("home", json!("nobody")), StatusCode::UNPROCESSABLE_ENTITY, "/home"),
        (with("away", json!(7)), StatusCode::UNPROCESSABLE_ENTITY, "/away"),
        (with("revision", json!("9.9.9")), StatusCode::UNPROCESSABLE_ENTITY, "/revision"),
        (with("revision", json!("0.5.0")), StatusCode::UNPROCESSABLE_ENTITY, "/revision"),
        (with("human", json!("both")), StatusCode::UNPROCESSABLE_ENTITY, "/human"),
        (with("seed", json!(-1)), StatusCode::UNPROCESSABLE_ENTITY, "/seed"),
        (with("homeFormation", json!("2-2-6")), StatusCode::UNPROCESSABLE_ENTITY, "/homeFormation"),
        (with("colour", json!("red")), StatusCode::UNPROCESSABLE_ENTITY, "/colour"),
        (json!({"away": "uniao_pedra_branca"}), StatusCode::UNPROCESSABLE_ENTITY, "/"),
        // serde would read a struct from an array, by position: the body must be an object.
        (json!([1, 2]), StatusCode::UNPROCESSABLE_ENTITY, "/"),
    ];
    for (body, status, field) in cases {
        let r = s.post("/api/v1/runs", body.clone(), None).await;
        assert_error(&r, status, field);
    }
    let r = s.send("POST", "/api/v1/runs", Some("{\"home\": "), None, None).await;
    assert_error(&r, StatusCode::BAD_REQUEST, "body");
    let r = s.send("POST", "/api/v1/runs", Some(r#"{"home": "a", "home": "b", "away": "c"}"#), None, None).await;
    assert_error(&r, StatusCode::BAD_REQUEST, "body");
    let r = s.send("POST", "/api/v1/runs", Some(&base.to_string()), None, Some("text/plain")).await;
    assert_error(&r, StatusCode::UNSUPPORTED_MEDIA_TYPE, "Content-Type");
    let huge = format!("{{\"home\": \"{}\", \"away\": \"x\"}}", "a".repeat(2 << 20));
    let r = s.send("POST", "/api/v1/runs", Some(&huge), None, None).await;
    assert_error(&r, StatusCode::PAYLOAD_TOO_LARGE, "body");
}

#[tokio::test]
async fn unknown_routes_and_methods_answer_json() {
    let s = server();
    assert_error(&s.get("/api/v1/nothing").await, StatusCode::NOT_FOUND, "path");
    assert_error(&s.send("DELETE", "/api/v1/runs", None, None, None).await, StatusCode::METHOD_NOT_ALLOWED, "method");
    assert_error(&s.get("/api/v1/runs/0123").await, StatusCode::NOT_FOUND, "runId");
    assert_error(&s.get("/api/v1/runs/0123/events").await, StatusCode::NOT_FOUND, "runId");
    let r = s.get("/").await;
    assert_eq!(r.status, StatusCode::OK);
    assert!(r.body.as_str().unwrap().contains("<title>Microfut</title>"));
}

#[tokio::test]
async fn the_openapi_document_describes_every_route() {
    let s = server();
    let r = s.get("/api/v1/openapi.json").await;
    assert_eq!(r.status, StatusCode::OK);
    let paths = r.body["paths"].as_object().unwrap();
    for p in [
        "/api/v1/revisions",
        "/api/v1/clubs",
        "/api/v1/clubs/{club_id}",
        "/api/v1/runs",
        "/api/v1/runs/{run_id}",
        "/api/v1/runs/{run_id}/advance",
        "/api/v1/runs/{run_id}/candidates",
        "/api/v1/runs/{run_id}/intents",
        "/api/v1/runs/{run_id}/events",
        "/api/v1/runs/{run_id}/decisions",
        "/api/v1/runs/{run_id}/record",
        "/api/v1/runs/{run_id}/players/{player_id}",
        "/api/v1/runs/{run_id}/players/{player_id}/attributes",
    ] {
        assert!(paths.contains_key(p), "OpenAPI lacks {p}");
    }
    assert!(r.body["components"]["schemas"]["ErrorBody"].is_object());
    // Every kind the engine offers can be declared: the intent's enum lists them all.
    let kinds = &r.body["components"]["schemas"]["Kind"]["enum"];
    assert_eq!(kinds, &json!(["carry", "pass", "cross", "shoot", "dribble", "throw"]), "{}", r.body["components"]);
}

#[tokio::test]
async fn writes_need_the_runs_token_and_a_pending_decision_stops_advances() {
    let s = server();
    let (id, token) = s.create(Some("home"), 7).await;
    let (_, other) = s.create(None, 8).await;
    let adv = format!("/api/v1/runs/{id}/advance");
    assert_error(&s.post(&adv, json!({"until": "round"}), None).await, StatusCode::UNAUTHORIZED, "Authorization");
    assert_error(&s.post(&adv, json!({"until": "round"}), Some(&other)).await, StatusCode::FORBIDDEN, "Authorization");
    assert_error(
        &s.post(&adv, json!({"until": "later"}), Some(&token)).await,
        StatusCode::UNPROCESSABLE_ENTITY,
        "/until",
    );
    assert_error(
        &s.post(&adv, json!({"until": "round", "x": 1}), Some(&token)).await,
        StatusCode::UNPROCESSABLE_ENTITY,
        "/x",
    );
    let b = s.to_decision(&id, &token).await;
    assert_eq!(b["pending"]["player"].as_str().unwrap().split('-').next(), Some("home"));
    // A pending decision: advancing without delegating is refused, with it the NPC decides.
    assert_error(&s.post(&adv, json!({"until": "round"}), Some(&token)).await, StatusCode::CONFLICT, "/until");
    let r = s.post(&adv, json!({"until": "round", "delegate": true}), Some(&token)).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.body);
    assert_eq!(r.body["roundsPlayed"], 1);
    assert!(!r.body["rolls"].as_array().unwrap().is_empty(), "the round's dice are shown");
    // A run without a human side never stops at a decision.
    let r =
        s.post(&format!("/api/v1/runs/{id}/advance"), json!({"until": "end", "delegate": true}), Some(&token)).await;
    assert_eq!(r.status, StatusCode::OK);
    assert_eq!(r.body["stoppedAt"], "end");
    assert_eq!(r.body["finished"], true);
    assert_error(&s.post(&adv, json!({"until": "round"}), Some(&token)).await, StatusCode::CONFLICT, "runId");
}

#[tokio::test]
async fn candidates_have_exact_odds_and_explanations_and_a_refused_intent_changes_nothing() {
    let s = server();
    let (id, token) = s.create(Some("home"), 7).await;
    assert_error(&s.get(&format!("/api/v1/runs/{id}/candidates")).await, StatusCode::CONFLICT, "runId");
    let intents = format!("/api/v1/runs/{id}/intents");
    assert_error(&s.post(&intents, json!({"kind": "shoot"}), Some(&token)).await, StatusCode::CONFLICT, "runId");
    s.to_decision(&id, &token).await;
    let c = s.get(&format!("/api/v1/runs/{id}/candidates")).await;
    assert_eq!(c.status, StatusCode::OK, "{}", c.body);
    let list = c.body["candidates"].as_array().unwrap();
    assert!(list.len() > 1);
    for k in list {
        let p = k["headline"].as_f64().unwrap();
        assert!((0.0..=1.0).contains(&p));
        // A test's chance, or none when no test will be rolled (a carry nobody challenges).
        assert!(k["probability"].is_null() || k["probability"].as_f64().is_some(), "{k}");
        if k["kind"] == "pass" {
            let e = &k["explanation"];
            assert_eq!(e["pipeline"], "pass");
            assert!(
                e["contributions"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .any(|x| x["source"].as_str().unwrap().contains("modifiers.json"))
            );
        }
    }
    let before = s.get(&format!("/api/v1/runs/{id}")).await.body;
    let record_before = s.get(&format!("/api/v1/runs/{id}/record")).await.body;
    let digest = s.runs.store.digest().unwrap();
    // Not a candidate: 422 naming the target; the run is exactly as it was.
    let r = s.post(&intents, json!({"kind": "pass", "target": 99}), Some(&token)).await;
    assert_error(&r, StatusCode::UNPROCESSABLE_ENTITY, "/target");
    assert_error(
        &s.post(&intents, json!({"kind": "fly"}), Some(&token)).await,
        StatusCode::UNPROCESSABLE_ENTITY,
        "/kind",
    );
    assert_error(
        &s.post(&intents, json!({"kind": "pass", "target": "x"}), Some(&token)).await,
        StatusCode::UNPROCESSABLE_ENTITY,
        "/target",
    );
    assert_eq!(s.get(&format!("/api/v1/runs/{id}")).await.body, before);
    assert_eq!(s.get(&format!("/api/v1/runs/{id}/record")).await.body, record_before);
    assert_eq!(s.runs.store.digest().unwrap(), digest);
    // A candidate: the round is played, with its dice, margins and events.
    let pass = list.iter().find(|k| k["kind"] == "pass").expect("a pass is offered");
    let r = s.post(&intents, json!({"kind": "pass", "target": pass["target"]}), Some(&token)).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.body);
    let roll = &r.body["rolls"][0];
    assert_eq!(roll["pipeline"], "pass");
    assert_eq!(
        roll["margin"].as_i64().unwrap(),
        roll["total"].as_i64().unwrap() - roll["difficulty"].as_i64().unwrap()
    );
    assert!(r.body["events"].as_array().unwrap().iter().any(|e| e["kind"] == "pass" || e["kind"] == "interception"));
    let after = s.get(&format!("/api/v1/runs/{id}")).await.body;
    assert!(after["round"].as_u64() > before["round"].as_u64());
}

#[tokio::test]
async fn reads_of_events_decisions_and_the_record() {
    let s = server();
    let (id, token) = s.create(None, 3).await;
    for _ in 0..30 {
        s.post(&format!("/api/v1/runs/{id}/advance"), json!({"until": "round"}), Some(&token)).await;
    }
    let r = s.get(&format!("/api/v1/runs/{id}/events?from=10")).await;
    assert_eq!(r.status, StatusCode::OK);
    assert!(r.body["events"].as_array().unwrap().iter().all(|e| e["round"].as_u64().unwrap() >= 10));
    assert_eq!(r.body["rounds"].as_array().unwrap().len(), 20);
    // A stored round's rolls come back labelled from the pinned revision.
    let rolls: Vec<&Value> =
        r.body["rounds"].as_array().unwrap().iter().flat_map(|r| r["rolls"].as_array().unwrap()).collect();
    assert!(!rolls.is_empty());
    for roll in rolls {
        assert!(
            roll["player"].as_str().unwrap().starts_with("home-")
                || roll["player"].as_str().unwrap().starts_with("away-")
        );
        assert!(roll["label"]["en"].is_string() && roll["label"]["en"] != roll["pipeline"], "{roll}");
        assert!(roll["probability"].as_f64().unwrap() >= 0.0 && roll["total"].as_u64().unwrap() >= 3);
        // What it was rolled for, by whose side, on which dice (issue 50).
        assert!(roll["role"].is_string() && roll["dice"] == "3d6", "{roll}");
        assert!(roll["player"].as_str().unwrap().starts_with(roll["team"].as_str().unwrap()), "{roll}");
    }
    assert_error(&s.get(&format!("/api/v1/runs/{id}/events?from=ten")).await, StatusCode::UNPROCESSABLE_ENTITY, "from");
    assert_error(&s.get(&format!("/api/v1/runs/{id}/events?since=3")).await, StatusCode::UNPROCESSABLE_ENTITY, "since");
    let r = s.get(&format!("/api/v1/runs/{id}/decisions")).await;
    assert_eq!(r.status, StatusCode::OK);
    let d = r.body["decisions"].as_array().unwrap();
    assert_eq!(d.len() as u64, r.body["total"].as_u64().unwrap());
    assert!(d[0]["candidate_actions"].as_array().unwrap().len() > 1);
    assert!(d[0]["selected_action"].is_u64());
    let r = s.get(&format!("/api/v1/runs/{id}/record")).await;
    assert_eq!(r.status, StatusCode::OK);
    assert!(r.headers["content-disposition"].to_str().unwrap().contains("attachment"));
    assert_eq!(r.body["round_hashes"].as_array().unwrap().len(), 30);
    let r = s.get(&format!("/api/v1/runs/{id}/players/home-9")).await;
    assert_eq!(r.status, StatusCode::OK);
    assert!(r.body["sheet"]["skills"].is_array());
    assert_error(&s.get(&format!("/api/v1/runs/{id}/players/home-99")).await, StatusCode::NOT_FOUND, "playerId");
    assert_error(
        &s.get(&format!("/api/v1/runs/{id}/players/left-9/attributes")).await,
        StatusCode::UNPROCESSABLE_ENTITY,
        "playerId",
    );
}

#[tokio::test]
async fn a_projection_reads_without_dice_or_writes_and_uses_the_pipelines_of_play() {
    let s = server();
    let (id, token) = s.create(Some("home"), 7).await;
    s.to_decision(&id, &token).await;
    let (d0, digest) = (inspect(&s, &id, |r| r.m.dice_draws()).await, s.runs.store.digest().unwrap());
    let state = s.get(&format!("/api/v1/runs/{id}")).await.body;
    let mut proj = Value::Null;
    for p in state["players"].as_array().unwrap() {
        let r = s.get(&format!("/api/v1/runs/{id}/players/{}/attributes", p["id"].as_str().unwrap())).await;
        assert_eq!(r.status, StatusCode::OK, "{}", r.body);
        if p["id"] == "home-9" {
            proj = r.body;
        }
    }
    s.get(&format!("/api/v1/runs/{id}/candidates")).await;
    assert_eq!(inspect(&s, &id, |r| r.m.dice_draws()).await, d0, "reads draw no die");
    assert_eq!(s.runs.store.digest().unwrap(), digest, "reads write nothing");
    assert_eq!(s.get(&format!("/api/v1/runs/{id}")).await.body, state);

    for k in ["runId", "round", "contentRevision", "fingerprint", "playerId", "authority", "attributes"] {
        assert!(!proj[k].is_null(), "{k} in {proj}");
    }
    let attrs = proj["attributes"].as_array().unwrap();
    let find = |id: &str| attrs.iter().find(|a| a["attributeId"] == id).unwrap_or_else(|| panic!("{id}"));
    assert_eq!(find("passing")["kind"], "skill");
    let ids: std::collections::BTreeSet<&str> = attrs.iter().map(|a| a["attributeId"].as_str().unwrap()).collect();
    assert_eq!(ids.len(), attrs.len(), "attribute ids are unique");
    assert_eq!(find("speed")["pipelineId"], "speed");
    for a in attrs {
        assert!(a["contributions"].as_array().unwrap().len() <= 64);
        assert_eq!(a["contributionsTruncated"], false);
        assert!(a["displayName"]["pt-BR"].is_string() && a["displayName"]["en"].is_string());
    }
    // The same pipelines as play: every action pipeline of the revision is projected, and the
    // finishing test gives the chance the engine's own strike estimate gives from there.
    let rules = s.runs.rules(None, "revision").unwrap();
    let tests: Vec<&str> =
        attrs.iter().filter(|a| a["kind"] == "test").map(|a| a["pipelineId"].as_str().unwrap()).collect();
    let actions: Vec<&str> = rules
        .rs
        .pipelines
        .iter()
        .filter(|p| p.kind == microfut::ruleset::PipelineKind::Action)
        .map(|p| p.id.as_str())
        .collect();
    assert_eq!(tests, actions);
    let strike = inspect(&s, &id, |r| {
        let p = r.m.state().players.iter().position(|p| p.team == 0 && p.shirt == 9).unwrap();
        r.m.strike_chances(p, false).0
    })
    .await;
    assert_eq!(find("test:finishing")["probability"].as_f64().unwrap(), strike);
    assert_eq!(find("test:finishing")["pipelineFingerprint"].as_str().unwrap().len(), 71);
    // Contributions add up to the effective value.
    let pass = find("test:pass");
    let last = pass["contributions"].as_array().unwrap().last().unwrap()["running"].as_f64().unwrap();
    assert_eq!(last, pass["effectiveValue"].as_f64().unwrap());
}

#[tokio::test]
async fn reads_do_not_change_how_the_match_plays() {
    // Two servers, same run; one reads everything at every decision, the other never does.
    let (a, b) = (server(), server());
    let (ia, ta) = a.create(Some("home"), 21).await;
    let (ib, tb) = b.create(Some("home"), 21).await;
    for _ in 0..8 {
        for (s, id, t, read) in [(&a, &ia, &ta, true), (&b, &ib, &tb, false)] {
            s.to_decision(id, t).await;
            if read {
                s.get(&format!("/api/v1/runs/{id}/candidates")).await;
                for p in ["home-9", "away-1", "home-1"] {
                    s.get(&format!("/api/v1/runs/{id}/players/{p}/attributes")).await;
                }
            }
            let c = s.get(&format!("/api/v1/runs/{id}/candidates")).await.body;
            let first = &c["candidates"][0];
            let r = s
                .post(
                    &format!("/api/v1/runs/{id}/intents"),
                    json!({"kind": first["kind"], "target": first["target"]}),
                    Some(t),
                )
                .await;
            assert_eq!(r.status, StatusCode::OK);
        }
    }
    let ra = a.get(&format!("/api/v1/runs/{ia}/record")).await.body;
    let rb = b.get(&format!("/api/v1/runs/{ib}/record")).await.body;
    assert_eq!(ra["round_hashes"], rb["round_hashes"]);
}

#[tokio::test]
async fn a_run_played_through_the_api_exports_a_record_that_replays_identical() {
    let s = server();
    let (id, token) = s.create(Some("away"), 5).await;
    for k in 0..6 {
        s.to_decision(&id, &token).await;
        let c = s.get(&format!("/api/v1/runs/{id}/candidates")).await.body;
        let list = c["candidates"].as_array().unwrap();
        let pick = &list[k % list.len()];
        let r = s
            .post(
                &format!("/api/v1/runs/{id}/intents"),
                json!({"kind": pick["kind"], "target": pick["target"]}),
                Some(&token),
            )
            .await;
        assert_eq!(r.status, StatusCode::OK);
    }
    let r =
        s.post(&format!("/api/v1/runs/{id}/advance"), json!({"until": "end", "delegate": true}), Some(&token)).await;
    assert_eq!(r.body["finished"], true);
    let body = s.get(&format!("/api/v1/runs/{id}/record")).await.body;
    let record = RunRecord::parse(body.to_string().as_bytes()).unwrap();
    assert_eq!(record.intents.len(), 6);
    let catalog = Catalog::load(&ContentTree::embedded());
    let rules = pinned_rules(&catalog, &record).unwrap();
    assert!(matches!(replay(rules, &record).unwrap(), Replay::Identical { .. }));
}

/// Writes of concurrent runs share transactions (group commit): every one of them commits, and
/// a write that fails is rolled back alone — its rows written before the failing one included —
/// while the others still commit.
#[test]
fn concurrent_advances_all_commit_and_a_failed_write_is_rolled_back_alone() {
    let s = server();
    let runs = s.runs.clone();
    let ids: Vec<(String, String)> = (0..8)
        .map(|k| {
            let req = serde_json::from_value(
                json!({"home": "esporte_clube_mandacaru", "away": "uniao_pedra_branca", "seed": k}),
            )
            .unwrap();
            let r = runs.create(req).unwrap();
            (r.run_id, r.token)
        })
        .collect();
    let advance = |runs: &Runs, id: &str, token: &str| {
        let req = serde_json::from_value(json!({"until": "round"})).unwrap();
        runs.advance(id, token, req).unwrap();
    };
    std::thread::scope(|scope| {
        for (id, token) in &ids {
            let runs = runs.clone();
            scope.spawn(move || {
                for _ in 0..25 {
                    advance(&runs, id, token);
                }
            });
        }
        // Meanwhile, a write that fails half-way: a new round, then one already committed.
        let (victim, _) = &ids[0];
        let store = runs.store.clone();
        scope.spawn(move || {
            for _ in 0..25 {
                let before = store.hashes(victim).unwrap();
                let Some(last) = before.len().checked_sub(1) else { continue };
                let row = |round: usize| microfut::store::RoundRow {
                    round: round as u32,
                    hash: "0".repeat(16),
                    rolls: "[]".into(),
                };
                let stats = Default::default();
                let bad = bare_advance(vec![row(1000 + last), row(last)], &stats);
                assert!(store.commit(victim, &bad).is_err(), "a duplicate round is refused");
                assert!(store.rounds(victim, 1000, 10).unwrap().is_empty(), "the failed write left a row behind");
            }
        });
    });
    for (id, _) in &ids {
        let stored = runs.store.run(id).unwrap().unwrap();
        assert_eq!(stored.rounds, 25, "{id}");
        assert_eq!(runs.store.hashes(id).unwrap().len(), 25);
    }
}

/// Issue 12: a club that `microfut club validate` refuses under the revision a run plays cannot
/// play it, and the refusal is worded as `club validate` prints each problem.
#[tokio::test]
async fn a_stored_club_is_checked_as_club_validate_checks_it_when_a_run_is_created() {
    let s = server();
    let mut club: Value =
        serde_json::from_str(include_str!("../../content/microfut/clubs/atletico_vale_do_sol.json")).unwrap();
    club["id"] = json!("poor_fc");
    for p in club["squad"].as_array_mut().unwrap() {
        p["club"] = json!("poor_fc");
    }
    club["budget"] = json!(10);
    // Stored without the upload's check (a club uploaded under another revision's rules, or a
    // store written by an older server).
    let poor = microfut::club::Club::from_value(club).unwrap();
    assert!(s.runs.store.add_club(&poor).unwrap());
    let digest = s.runs.store.digest().unwrap();
    let r = s.post("/api/v1/runs", json!({"home": "poor_fc", "away": "uniao_pedra_branca", "seed": 1}), None).await;
    assert_error(&r, StatusCode::UNPROCESSABLE_ENTITY, "/home");
    let rules = s.runs.rules(None, "revision").unwrap();
    let report = poor.validate(&rules.rs, Vec::new()).unwrap();
    assert!(!report.is_valid());
    let message = r.body["error"]["message"].as_str().unwrap();
    for p in &report.problems {
        let line = p.line("clubs/poor_fc.json (uploaded)");
        assert!(message.contains(&line), "{line} in {message}");
    }
    assert!(message.contains("#/budget"), "{message}");
    assert_eq!(s.runs.store.digest().unwrap(), digest, "no run was created");
}

/// Issue 12: on a revision with set pieces (0.6.0), a delivery's candidates carry their zone and
/// an intent names it; a zone where none applies is refused naming `zone`, the run unchanged.
#[tokio::test]
async fn set_piece_intents_name_their_zone_and_a_zone_elsewhere_is_refused() {
    let s = server();
    let mut refused_elsewhere = false;
    // A few matches: the human side takes a set piece with zones in most, not in every one.
    for seed in 1..=8 {
        let r = s
        .post(
            "/api/v1/runs",
            json!({"home": "esporte_clube_mandacaru", "away": "uniao_pedra_branca", "seed": seed, "human": "home", "revision": "0.6.0"}),
            None,
        )
        .await;
        assert_eq!(r.status, StatusCode::CREATED, "{}", r.body);
        let (id, token) =
            (r.body["runId"].as_str().unwrap().to_string(), r.body["token"].as_str().unwrap().to_string());
        let intents = format!("/api/v1/runs/{id}/intents");
        for _ in 0..400 {
            let adv = s.post(&format!("/api/v1/runs/{id}/advance"), json!({"until": "decision"}), Some(&token)).await;
            assert_eq!(adv.status, StatusCode::OK, "{}", adv.body);
            if adv.body["stoppedAt"] != "decision" {
                break;
            }
            let c = s.get(&format!("/api/v1/runs/{id}/candidates")).await.body;
            let list = c["candidates"].as_array().unwrap().clone();
            if let Some(zoned) = list.iter().find(|k| k["zone"].is_string()) {
                // Without its zone: refused naming `zone`; with it: played.
                let digest = s.runs.store.digest().unwrap();
                let bare = json!({"kind": zoned["kind"], "target": zoned["target"]});
                assert_error(&s.post(&intents, bare, Some(&token)).await, StatusCode::UNPROCESSABLE_ENTITY, "/zone");
                let wrong = json!({"kind": zoned["kind"], "target": zoned["target"], "zone": "the_moon"});
                assert_error(&s.post(&intents, wrong, Some(&token)).await, StatusCode::UNPROCESSABLE_ENTITY, "/zone");
                assert_eq!(s.runs.store.digest().unwrap(), digest);
                let ok = json!({"kind": zoned["kind"], "target": zoned["target"], "zone": zoned["zone"]});
                let r = s.post(&intents, ok, Some(&token)).await;
                assert_eq!(r.status, StatusCode::OK, "{}", r.body);
                assert_eq!(r.body["intent"], zoned["intent"]);
                assert!(refused_elsewhere, "an open-play decision came first");
                return;
            }
            let first = &list[0];
            if !refused_elsewhere {
                let digest = s.runs.store.digest().unwrap();
                let with_zone = json!({"kind": first["kind"], "target": first["target"], "zone": "far_post"});
                assert_error(
                    &s.post(&intents, with_zone, Some(&token)).await,
                    StatusCode::UNPROCESSABLE_ENTITY,
                    "/zone",
                );
                assert_eq!(s.runs.store.digest().unwrap(), digest, "the run is unchanged");
                refused_elsewhere = true;
            }
            let r = s.post(&intents, json!({"kind": first["kind"], "target": first["target"]}), Some(&token)).await;
            assert_eq!(r.status, StatusCode::OK, "{}", r.body);
        }
    }
    panic!("no set piece with zones reached the human side in 8 matches");
}

/// The decision log keeps the content's retention: a read returns exactly the last `retention`
/// decisions, oldest first, while the expired rows are deleted in batches (so the store holds at
/// most a batch more than the retention, and exactly the retention once the match is over, when
/// they are sealed into chunks).
#[test]
fn the_decision_log_reads_exactly_its_retention_while_expiry_is_batched() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("runs.db");
    let store = Store::open(&path).unwrap();
    let retention = 5;
    bare_run(&store, "r1", retention);
    let rows = || -> i64 {
        let c = rusqlite::Connection::open(&path).unwrap();
        c.query_row(
            "SELECT (SELECT count(*) FROM decisions WHERE run_id = 'r1') \
             + (SELECT coalesce(sum(rows), 0) FROM chunks WHERE run_id = 'r1' AND kind = 2)",
            [],
            |r| r.get(0),
        )
        .unwrap()
    };
    let stats = Default::default();
    let (per_advance, advances) = (3u64, 60u64);
    let mut max_rows = 0;
    for k in 0..advances {
        let first = k * per_advance;
        let finished = k + 1 == advances;
        let advance = microfut::store::Advance {
            rounds: vec![microfut::store::RoundRow { round: k as u32, hash: "0".repeat(16), rolls: "[]".into() }],
            events: Vec::new(),
            first_event: 0,
            intents: &[],
            first_intent: 0,
            decisions: (0..per_advance).map(|j| (k as u32, json!({"n": first + j}).to_string())).collect(),
            first_decision: first,
            retention,
            pending: false,
            finished,
            score: [0, 0],
            stats: &stats,
        };
        store.commit("r1", &advance).unwrap();
        let total = first + per_advance;
        let kept: Vec<u64> = store.decisions("r1", 0, 1000).unwrap().iter().map(|d| d["n"].as_u64().unwrap()).collect();
        let expected: Vec<u64> = (total.saturating_sub(retention as u64)..total).collect();
        assert_eq!(kept, expected, "after {total} decisions");
        assert_eq!(store.run("r1").unwrap().unwrap().decisions, total);
        max_rows = max_rows.max(rows());
    }
    assert!(max_rows > retention as i64, "expiry is batched, not one row per advance ({max_rows} rows at most)");
    assert!(max_rows <= retention as i64 + 64 + per_advance as i64, "{max_rows} rows at most");
    assert_eq!(rows(), retention as i64, "a finished match keeps exactly its retention");
}

/// The decisions endpoint shows each decision exactly as the engine's log serialises it, though
/// the store keeps it as positional arrays (`store::compact_decision`): field for field, number
/// for number, in the same order, pruned candidates included.
#[tokio::test]
async fn stored_decisions_read_back_as_the_engine_logged_them() {
    let s = server();
    let (id, token) = s.create(None, 5).await;
    let r = s.post(&format!("/api/v1/runs/{id}/advance"), json!({"until": "end"}), Some(&token)).await;
    assert_eq!(r.status, StatusCode::OK, "{:?}", r.body);
    let logged: Vec<Value> =
        inspect(&s, &id, |r| r.m.decisions().decisions().map(|d| serde_json::to_value(d).unwrap()).collect()).await;
    let r = s.get(&format!("/api/v1/runs/{id}/decisions")).await;
    assert_eq!(r.status, StatusCode::OK);
    let served = r.body["decisions"].as_array().unwrap();
    assert!(served.len() > 100, "a whole match logs many decisions ({})", served.len());
    assert_eq!(served.len(), logged.len());
    let candidates = || served.iter().flat_map(|d| d["candidate_actions"].as_array().unwrap());
    assert!(candidates().any(|c| c.get("pruned").is_some()), "some candidate was pruned");
    for (k, (served, logged)) in served.iter().zip(&logged).enumerate() {
        // Compared as text: a reordered field or a number written differently fails too.
        assert_eq!(served.to_string(), logged.to_string(), "decision {k}");
    }
}

/// A store with one run `id`, created directly (no engine), for tests of the writer itself.
/// An advance that writes only `rounds`: no events, intents or decisions, the score 0–0.
fn bare_advance(
    rounds: Vec<microfut::store::RoundRow>,
    stats: &[microfut::engine::TeamStats; 2],
) -> microfut::store::Advance<'_> {
    microfut::store::Advance {
        rounds,
        events: Vec::new(),
        first_event: 0,
        intents: &[],
        first_intent: 0,
        decisions: Vec::new(),
        first_decision: 0,
        retention: 10,
        pending: false,
        finished: false,
        score: [0, 0],
        stats,
    }
}

fn bare_run(store: &Store, id: &str, retention: usize) {
    let club = |file: &str| microfut::club::Club::from_value(serde_json::from_str(file).unwrap()).unwrap();
    store
        .create_run(&microfut::store::NewRun {
            id: id.into(),
            token_sha256: "0".repeat(64),
            ruleset: "microfut".into(),
            revision: "0.5.5".into(),
            fingerprint: "sha256:test".into(),
            engine_version: "test".into(),
            seed: 1,
            human: None,
            formations: [None, None],
            home: club(include_str!("../../content/microfut/clubs/esporte_clube_mandacaru.json")),
            away: club(include_str!("../../content/microfut/clubs/uniao_pedra_branca.json")),
            retention,
        })
        .unwrap();
}

/// A write queued while the writing connection is busy with another group (here, a long one)
/// is committed once that group is done, with no later write to carry it — whoever commits
/// (the writer thread today; a design where callers commit the queue themselves must hand what
/// they leave behind to someone, and this failed when that hand-over was removed).
#[test]
fn a_write_queued_while_another_commits_lands_without_a_later_write() {
    let dir = tempfile::tempdir().unwrap();
    let store = Arc::new(Store::open(&dir.path().join("runs.db")).unwrap());
    bare_run(&store, "big", 10);
    bare_run(&store, "small", 10);
    let stats = Default::default();
    let advance = |rounds: Vec<microfut::store::RoundRow>| bare_advance(rounds, &stats);
    let row =
        |round: u32, bytes: usize| microfut::store::RoundRow { round, hash: "0".repeat(16), rolls: "x".repeat(bytes) };
    let rt = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
    std::thread::scope(|scope| {
        // A group that holds the connection for a while: 4,000 rounds of 2 KB.
        let big_store = store.clone();
        let big_rows: Vec<_> = (0..4000).map(|r| row(r, 2048)).collect();
        let big_advance = advance(big_rows);
        let big = scope.spawn(move || big_store.commit("big", &big_advance));
        std::thread::sleep(std::time::Duration::from_millis(30));
        let small = store.queue_commit("small", &advance(vec![row(0, 10)])).unwrap();
        let landed =
            rt.block_on(async { tokio::time::timeout(std::time::Duration::from_secs(20), small.committed()).await });
        assert!(landed.is_ok(), "a write queued behind another group was never committed");
        landed.unwrap().unwrap();
        big.join().unwrap().unwrap();
    });
    assert_eq!(store.run("big").unwrap().unwrap().rounds, 4000);
    assert_eq!(store.run("small").unwrap().unwrap().rounds, 1);
}

/// Many runs advancing at once over HTTP, on a multi-threaded runtime as the server runs: every
/// advance is answered, and only once its transaction is in the file (a fresh read of the store
/// right after each answer sees that round).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn concurrent_http_advances_are_each_answered_after_their_commit() {
    let s = Arc::new(server());
    let mut runs = Vec::new();
    for seed in 0..24 {
        runs.push(s.create(None, seed).await);
    }
    let mut tasks = Vec::new();
    for (id, token) in runs {
        let s = s.clone();
        tasks.push(tokio::spawn(async move {
            for k in 1..=30usize {
                let r = s.post(&format!("/api/v1/runs/{id}/advance"), json!({"until": "round"}), Some(&token)).await;
                assert_eq!(r.status, StatusCode::OK, "{}", r.body);
                let committed = s.runs.store.run(&id).unwrap().unwrap().rounds;
                assert!(committed >= k, "run {id}: answered advance {k} with {committed} rounds committed");
            }
        }));
    }
    let all = tokio::time::timeout(std::time::Duration::from_secs(120), async {
        for t in tasks {
            t.await.unwrap();
        }
    });
    assert!(all.await.is_ok(), "some advance was never answered");
}

/// An advance's reply carries its events as the run store keeps them, byte for byte (they are
/// serialised once and the same bytes go to both): the events of every reply, in order, are the
/// stored rows.
#[tokio::test]
async fn replies_carry_the_stored_event_bytes() {
    let s = server();
    let (id, token) = s.create(None, 7).await;
    let mut answered: Vec<String> = Vec::new();
    for k in 0..151 {
        let until = if k == 150 { "end" } else { "round" };
        let r = s.post(&format!("/api/v1/runs/{id}/advance"), json!({"until": until}), Some(&token)).await;
        assert_eq!(r.status, StatusCode::OK, "{}", r.body);
        answered.extend(r.body["events"].as_array().unwrap().iter().map(Value::to_string));
    }
    assert!(answered.len() > 1000, "{} events", answered.len());
    // As stored: the end of the match sealed them into chunks, whose texts are the rows' bytes.
    let stored = s.runs.store.event_texts(&id, 0, usize::MAX).unwrap();
    let c = rusqlite::Connection::open(s.runs.store.path()).unwrap();
    let sealed: i64 =
        c.query_row("SELECT count(*) FROM chunks WHERE run_id = ?1 AND kind = 1", [&id], |r| r.get(0)).unwrap();
    assert!(sealed > 0, "{} events, none sealed into a chunk", stored.len());
    // The match's opening event (the kick-off, written with the first advance) is in no reply.
    let opening = stored.len() - answered.len();
    assert!(opening <= 1 && stored[..opening].iter().all(|e| e.contains("\"kind\":\"kick_off\"")), "{stored:?}");
    for (k, (a, s)) in answered.iter().zip(&stored[opening..]).enumerate() {
        assert_eq!(a, s, "event {k}");
    }
}

/// Every write checks its token by its SHA-256 in hex (`sha256_hex`, written without `format!`).
#[test]
fn token_digests_are_sha256_in_lowercase_hex() {
    assert_eq!(
        microfut::api::runs::sha256_hex("abc"),
        "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
    );
    assert_eq!(microfut::api::runs::sha256_hex(""), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
}

/// Declares `cand` of run `id` as the page does (every field that names it: kind, target,
/// zone) and checks that the odds it was shown are those of the tests its round rolled. Returns
/// the candidate's branch.
async fn declare_and_compare(s: &Server, id: &str, token: &str, cand: &Value, round: u64) -> String {
    let intent = json!({"kind": cand["kind"], "target": cand["target"], "zone": cand["zone"]});
    let r = s.post(&format!("/api/v1/runs/{id}/intents"), intent, Some(token)).await;
    assert_eq!(r.status, StatusCode::OK, "round {round}: {}", r.body);
    let rolls = r.body["rolls"].as_array().unwrap();
    for roll in rolls.iter().chain(r.body["earlierRolls"].as_array().unwrap()) {
        assert!(roll["role"].is_string() && roll["dice"] == "3d6", "{roll}");
        assert_eq!(roll["team"], roll["player"].as_str().unwrap().split('-').next().unwrap(), "{roll}");
    }
    let by = |role: &str, player: &Value| {
        let found: Vec<&Value> = rolls.iter().filter(|x| x["role"] == role && &x["player"] == player).collect();
        assert_eq!(found.len(), 1, "round {round}, {}: one {role} roll of {player}: {rolls:?}", cand["intent"]);
        found[0].clone()
    };
    let branch = cand["branch"].as_str().unwrap().to_string();
    match branch.as_str() {
        "test" => {
            let roll = by("action", &cand["test"]["player"]);
            assert_eq!(roll["pipeline"], cand["test"]["pipeline"]);
            assert_eq!(roll["probability"], cand["probability"], "round {round}: {}", cand["intent"]);
            assert_eq!(cand["headline"], cand["probability"]);
        }
        "duel" => {
            let (mine, theirs) = (by("duel", &cand["test"]["player"]), by("tackle", &cand["opponent"]["player"]));
            assert_eq!(mine["probability"], cand["probability"]);
            assert_eq!(theirs["probability"], cand["opponent"]["probability"]);
            assert_eq!(cand["keepProbability"], cand["headline"]);
        }
        _ => {
            assert!(cand["probability"].is_null() && cand["headline"] == 1.0, "{cand}");
            assert!(!rolls.iter().any(|x| x["role"] == "duel" || x["role"] == "action"), "{rolls:?}");
        }
    }
    branch
}

/// Issue 50, through HTTP: a declared candidate's `probability` is the `probability` of the roll
/// that resolved it, bit for bit (JSON carries the shortest representation that reads back to the
/// same double) — open-play decisions of several branches, and a penalty declared with its side
/// (Mandacaru v Vale do Sol, the person at home, seed 2: the NPC plays his side to round 864).
#[tokio::test]
async fn a_declared_candidates_odds_are_the_odds_its_roll_had() {
    let s = server();
    let (id, token) = s.create(Some("home"), 7).await;
    let mut branches = std::collections::BTreeSet::new();
    for k in 0..30 {
        let round = s.to_decision(&id, &token).await["round"].as_u64().unwrap();
        let c = s.get(&format!("/api/v1/runs/{id}/candidates")).await.body;
        let list = c["candidates"].as_array().unwrap();
        branches.insert(declare_and_compare(&s, &id, &token, &list[(k * 7) % list.len()], round).await);
    }
    assert!(branches.contains("test") && branches.len() >= 2, "{branches:?}");

    let r = s
        .post(
            "/api/v1/runs",
            json!({"home": "esporte_clube_mandacaru", "away": "atletico_vale_do_sol", "seed": 2, "human": "home"}),
            None,
        )
        .await;
    assert_eq!(r.status, StatusCode::CREATED, "{}", r.body);
    let (id, token) = (r.body["runId"].as_str().unwrap().to_string(), r.body["token"].as_str().unwrap().to_string());
    for _ in 0..1000 {
        let round = s.to_decision(&id, &token).await["round"].as_u64().unwrap();
        let c = s.get(&format!("/api/v1/runs/{id}/candidates")).await.body;
        if c["restart"] == "penalty" {
            assert_eq!(round, 864);
            let list = c["candidates"].as_array().unwrap();
            let cand = &list[list.len() - 1];
            assert!(cand["zone"].is_string() && cand["zoneLabel"]["en"].is_string(), "{cand}");
            assert!(cand["goalChance"].as_f64().unwrap() > 0.0);
            assert_eq!(declare_and_compare(&s, &id, &token, cand, round).await, "test");
            return;
        }
        // The NPC plays the person's side, as an NPC match would, on to the penalty.
        let r = s
            .post(&format!("/api/v1/runs/{id}/advance"), json!({"until": "round", "delegate": true}), Some(&token))
            .await;
        assert_eq!(r.status, StatusCode::OK, "{}", r.body);
    }
    panic!("the penalty at round 864 was not reached");
}

/// Both OpenAPI documents — `microfut serve`'s with the battlefield's area mounted as `serve`
/// mounts it, and the battlefield's alone (`microfut space serve`) — give every response a
/// description and claim no contact or licence, and are valid OpenAPI 3.1 for a real validator:
/// openapi-spec-validator (PyPI), named by `OPENAPI_SPEC_VALIDATOR` or found on PATH.
#[tokio::test]
async fn both_openapi_documents_are_valid_openapi_3_1() {
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open(&dir.path().join("runs.db")).unwrap();
    let catalog = Catalog::load(&ContentTree::embedded());
    let rules = microfut::space::compile(catalog.revision("space", None).unwrap()).unwrap();
    let runs = Arc::new(Runs::new(Arc::new(catalog), Arc::new(store)));
    let mut areas = api::default_areas(runs);
    areas.push(microfut::space_web::area(rules.clone(), None));
    let servers = [("microfut", api::app(areas)), ("space", microfut::space_web::router(rules, None))];
    let mut files = Vec::new();
    for (name, app) in servers {
        let req = Request::get("/api/v1/openapi.json").body(Body::empty()).unwrap();
        let res = app.oneshot(req).await.unwrap();
        assert_eq!(res.status(), StatusCode::OK, "{name}");
        let bytes = axum::body::to_bytes(res.into_body(), 1 << 24).await.unwrap();
        let doc: Value = serde_json::from_slice(&bytes).unwrap();
        assert!(doc["info"].get("contact").is_none() && doc["info"].get("license").is_none(), "{}", doc["info"]);
        let mut undescribed = Vec::new();
        for (path, item) in doc["paths"].as_object().unwrap() {
            for (method, op) in item.as_object().unwrap() {
                for (status, r) in op["responses"].as_object().unwrap() {
                    if r["description"].as_str().is_none_or(str::is_empty) {
                        undescribed.push(format!("{method} {path} {status}"));
                    }
                }
            }
        }
        assert!(undescribed.is_empty(), "{name}: responses without a description: {undescribed:#?}");
        let file = dir.path().join(format!("{name}.openapi.json"));
        std::fs::write(&file, &bytes).unwrap();
        files.push(file);
    }
    assert!(String::from_utf8_lossy(&std::fs::read(&files[0]).unwrap()).contains("/api/v1/space/games/{id}/actions"));
    let validator = std::env::var("OPENAPI_SPEC_VALIDATOR").unwrap_or_else(|_| "openapi-spec-validator".into());
    if std::process::Command::new(&validator).arg("--version").output().is_err() {
        eprintln!(
            "skipped: needs openapi-spec-validator (pip install openapi-spec-validator, or OPENAPI_SPEC_VALIDATOR=path)"
        );
        return;
    }
    let out = std::process::Command::new(&validator)
        .args(["--schema", "3.1", "--validation-errors", "all"])
        .args(&files)
        .output()
        .unwrap();
    let said = format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    assert!(out.status.success(), "{said}");
    assert_eq!(said.matches(": OK").count(), 2, "{said}");
}
