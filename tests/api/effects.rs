//! World 1 over HTTP (seed 002, issue 14 §3): journeys made and played on the server, their
//! records, and the CaptureOnly projections `GET /runs/{runId}/character-attributes` and
//! `GET /combats/{combatId}/actors/{actorId}/attributes` — their shape, that they are the same
//! reads as `microfut effects attributes`, that they never draw, settle, change a resource or
//! commit, and that every bad input is a 4xx naming its field.

use axum::body::Body;
use axum::http::{Request, StatusCode};
use microfut::api::journeys::Journeys;
use microfut::api::{self, Runs};
use microfut::catalog::{Catalog, ContentTree};
use microfut::effects::record::{JourneyRecord, Replay, pinned_world, replay};
use microfut::store::Store;
use serde_json::{Value, json};
use std::sync::Arc;
use tower::ServiceExt;

struct Server {
    app: axum::Router,
    journeys: Arc<Journeys>,
    runs: Arc<Runs>,
    dir: tempfile::TempDir,
}

fn server_on(dir: tempfile::TempDir) -> Server {
    let store = Arc::new(Store::open(&dir.path().join("runs.db")).unwrap());
    let catalog = Arc::new(Catalog::load(&ContentTree::embedded()));
    let runs = Arc::new(Runs::new(catalog.clone(), store.clone()));
    let journeys = Arc::new(Journeys::new(catalog, store));
    let app = api::app(vec![api::microfut::routes(runs.clone()), api::effects::routes(journeys.clone())]);
    Server { app, journeys, runs, dir }
}

fn server() -> Server {
    server_on(tempfile::tempdir().unwrap())
}

struct Resp {
    status: StatusCode,
    body: Value,
}

impl Server {
    async fn send(&self, method: &str, uri: &str, body: Option<Value>, token: Option<&str>) -> Resp {
        let mut req = Request::builder().method(method).uri(uri);
        if let Some(t) = token {
            req = req.header("authorization", format!("Bearer {t}"));
        }
        if body.is_some() {
            req = req.header("content-type", "application/json");
        }
        let req = req.body(body.map_or(Body::empty(), |b| Body::from(b.to_string()))).unwrap();
        let res = self.app.clone().oneshot(req).await.unwrap();
        let status = res.status();
        let bytes = axum::body::to_bytes(res.into_body(), usize::MAX).await.unwrap();
        let body = serde_json::from_slice(&bytes).unwrap_or(Value::String(String::from_utf8_lossy(&bytes).into()));
        Resp { status, body }
    }
    async fn get(&self, uri: &str) -> Resp {
        self.send("GET", uri, None, None).await
    }
    async fn post(&self, uri: &str, body: Value, token: Option<&str>) -> Resp {
        self.send("POST", uri, Some(body), token).await
    }
    async fn create(&self, body: Value) -> (String, String) {
        let r = self.post("/api/v1/effects/journeys", body, None).await;
        assert_eq!(r.status, StatusCode::CREATED, "{}", r.body);
        (r.body["runId"].as_str().unwrap().into(), r.body["token"].as_str().unwrap().into())
    }
    async fn cmd(&self, id: &str, body: Value, token: Option<String>) -> Resp {
        self.post(&format!("/api/v1/effects/journeys/{id}/commands"), body, token.as_deref()).await
    }
    async fn autoplay(&self, id: &str, token: &str, until: &str) -> Value {
        let r =
            self.post(&format!("/api/v1/effects/journeys/{id}/autoplay"), json!({ "until": until }), Some(token)).await;
        assert_eq!(r.status, StatusCode::OK, "{}", r.body);
        r.body
    }
}

fn assert_error(r: &Resp, status: StatusCode, field: &str) {
    assert_eq!(r.status, status, "{}", r.body);
    assert!(r.body["error"]["code"].is_string() && r.body["error"]["message"].is_string(), "{}", r.body);
    assert_eq!(r.body["error"]["field"], field, "{}", r.body);
}

/// The shape seed 002 gives a read, and the invariants of each attribute.
fn assert_read_shape(read: &Value) {
    for k in ["runId", "runSequence", "contentRevision", "actorId", "authority", "attributes"] {
        assert!(!read[k].is_null(), "{k} in {read}");
    }
    for k in ["combatId", "combatStep", "criticalRules"] {
        assert!(read.get(k).is_some(), "{k} in {read}");
    }
    for a in read["attributes"].as_array().unwrap() {
        for k in [
            "attributeId",
            "displayName",
            "unit",
            "baseValue",
            "effectiveValue",
            "pipelineId",
            "pipelineFingerprint",
            "contextTags",
            "contributions",
            "contributionsTruncated",
        ] {
            assert!(!a[k].is_null(), "{k} in {a}");
        }
        assert!(a["displayName"]["en"].is_string() && a["displayName"]["pt-BR"].is_string());
        assert!(a["contributions"].as_array().unwrap().len() <= 64);
        let (b, e) = (a["baseValue"].as_f64().unwrap(), a["effectiveValue"].as_f64().unwrap());
        let change = if e > b {
            "increased"
        } else if e < b {
            "reduced"
        } else {
            "base"
        };
        assert_eq!(a["change"], change, "{a}");
    }
}

#[tokio::test]
async fn a_journey_is_played_on_the_server_and_its_actors_read_as_seed_002_shows_them() {
    let s = server();
    let modes = s.get("/api/v1/effects/modes").await;
    assert_eq!(modes.status, StatusCode::OK, "{}", modes.body);
    let ids: Vec<&str> = modes.body["modes"].as_array().unwrap().iter().map(|m| m["mode"].as_str().unwrap()).collect();
    assert_eq!(ids, ["showcase", "w1_journey"]);

    let (id, token) = s.create(json!({"seed": 7})).await;
    // Between encounters: the persistent character, no combat.
    let r = s.get(&format!("/api/v1/runs/{id}/character-attributes")).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.body);
    assert_read_shape(&r.body);
    assert_eq!(r.body["authority"], "persistent_character");
    assert_eq!(r.body["combatId"], Value::Null);
    assert_eq!(r.body["runSequence"], 0);

    let played = s.autoplay(&id, &token, "turn").await;
    let journey = &played["journey"];
    assert_eq!(journey["phase"], "combat");
    let combat = journey["combat"]["combatId"].as_str().unwrap().to_string();
    assert_eq!(combat, format!("{id}.c1"));
    let hero = s.get(&format!("/api/v1/runs/{id}/character-attributes")).await.body;
    assert_read_shape(&hero);
    assert_eq!(hero["authority"], "encounter_actor");
    assert_eq!(hero["combatId"], combat.as_str());
    assert_eq!(hero["combatStep"], journey["combat"]["combatStep"]);
    assert_eq!(hero["runSequence"], journey["runSequence"]);
    assert_eq!(hero["contentRevision"]["ruleset"], "effects");
    // The mode's blessing raises the hero's crit chance: a mode provider among the
    // contributions, and the critical rules computed from the effective chance.
    let attrs = hero["attributes"].as_array().unwrap();
    let crit = attrs.iter().find(|a| a["attributeId"] == "crit_chance").unwrap();
    assert_eq!(crit["change"], "increased");
    let mode = crit["contributions"].as_array().unwrap().iter().find(|c| c["kind"] == "provider").unwrap();
    assert_eq!(mode["provider"]["kind"], "mode");
    let rules = &hero["criticalRules"];
    let chance = crit["effectiveValue"].as_f64().unwrap();
    assert_eq!(rules["chancePercent"].as_f64().unwrap(), chance);
    assert_eq!(rules["guaranteedTiers"].as_u64().unwrap(), (chance / 100.0).floor() as u64);
    assert!((rules["nextTierChancePercent"].as_f64().unwrap() - chance % 100.0).abs() < 1e-9);
    // Unit transforms from the policy's projection profiles: armor's reduction is a fraction
    // shown in percent (display scale 100), not a flat value.
    let armor = attrs.iter().find(|a| a["attributeId"] == "armor_reduction").expect("armor reduction");
    assert_eq!((armor["unit"].as_str(), armor["flatValue"].as_bool()), (Some("%"), Some(false)), "{armor}");

    // Every actor of the active combat, and the same read as the library's (the CLI's) on the
    // run replayed from the exported record.
    let record = s.get(&format!("/api/v1/effects/journeys/{id}/record")).await.body;
    let record: JourneyRecord = serde_json::from_value(record).unwrap();
    let catalog = Catalog::load(&ContentTree::embedded());
    let world = pinned_world(&catalog, &record).unwrap();
    assert_eq!(replay(world.clone(), &record).unwrap(), Replay::Identical { commands: record.commands.len() });
    let mut run = microfut::effects::Run::new(world, &record.mode, record.seed, record.run_id.clone()).unwrap();
    for c in &record.commands {
        run.apply(c).unwrap();
    }
    for actor in journey["combat"]["actors"].as_array().unwrap() {
        let a = actor["actorId"].as_str().unwrap();
        let r = s.get(&format!("/api/v1/combats/{combat}/actors/{a}/attributes")).await;
        assert_eq!(r.status, StatusCode::OK, "{}", r.body);
        assert_read_shape(&r.body);
        assert_eq!(r.body["authority"], "combat_actor");
        let lib = microfut::effects::project::combat_actor_attributes(&run, &combat, a).unwrap();
        assert_eq!(r.body, serde_json::to_value(&lib).unwrap(), "HTTP and library reads of {a}");
    }
}

#[tokio::test]
async fn reads_never_draw_settle_change_a_resource_or_commit() {
    let s = server();
    let (id, token) = s.create(json!({"seed": 11})).await;
    // Several points of the journey: in combat after each of a few turns, between encounters.
    for until in ["turn", "turn", "combat", "command", "turn"] {
        let journey = s.autoplay(&id, &token, until).await["journey"].clone();
        let before = s.journeys.probe(&id).unwrap();
        let digest = s.journeys.store.digest().unwrap();
        let view = s.get(&format!("/api/v1/effects/journeys/{id}")).await.body;
        for _ in 0..3 {
            assert_eq!(s.get(&format!("/api/v1/runs/{id}/character-attributes")).await.status, StatusCode::OK);
            if let Some(c) = journey["combat"].as_object() {
                for actor in c["actors"].as_array().unwrap() {
                    let uri = format!(
                        "/api/v1/combats/{}/actors/{}/attributes",
                        c["combatId"].as_str().unwrap(),
                        actor["actorId"].as_str().unwrap()
                    );
                    assert_eq!(s.get(&uri).await.status, StatusCode::OK);
                }
            }
        }
        assert_eq!(s.journeys.probe(&id).unwrap(), before, "no die drawn, no state changed, no command after {until}");
        assert_eq!(s.journeys.store.digest().unwrap(), digest, "nothing written");
        assert_eq!(
            s.get(&format!("/api/v1/effects/journeys/{id}")).await.body,
            view,
            "no resource or capacity changed"
        );
    }
    // And the journey plays on exactly as one never read.
    let end = s.autoplay(&id, &token, "end").await;
    let (other, other_token) = s.create(json!({"seed": 11})).await;
    let quiet = s.autoplay(&other, &other_token, "end").await;
    assert_eq!(end["journey"]["phase"], "finished");
    let ours = s.get(&format!("/api/v1/effects/journeys/{id}/record")).await.body;
    let theirs = s.get(&format!("/api/v1/effects/journeys/{other}/record")).await.body;
    // (State hashes include the run's id, so the commands and the outcome are compared.)
    assert_eq!(ours["commands"], theirs["commands"]);
    assert_eq!(ours["outcome"], theirs["outcome"]);
    assert_eq!(quiet["journey"]["victory"], end["journey"]["victory"]);
}

#[tokio::test]
async fn a_mode_without_a_policy_reads_an_empty_collection() {
    let s = server();
    let (id, token) = s.create(json!({"seed": 3, "mode": "showcase"})).await;
    let j = s.autoplay(&id, &token, "command").await;
    let r = s.get(&format!("/api/v1/runs/{id}/character-attributes")).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.body);
    assert_eq!(r.body["attributes"], json!([]));
    assert_eq!(r.body["criticalRules"], Value::Null);
    assert_eq!(r.body["policy"], Value::Null);
    let combat = j["journey"]["combat"]["combatId"].as_str().unwrap();
    let r = s.get(&format!("/api/v1/combats/{combat}/actors/hero/attributes")).await;
    assert_eq!(r.body["attributes"], json!([]));
}

#[tokio::test]
async fn bad_input_is_a_4xx_naming_its_field_and_changes_nothing() {
    let s = server();
    assert_error(
        &s.post("/api/v1/effects/journeys", json!({"mode": "nope"}), None).await,
        StatusCode::UNPROCESSABLE_ENTITY,
        "/mode",
    );
    assert_error(
        &s.post("/api/v1/effects/journeys", json!({"revision": "9.9.9"}), None).await,
        StatusCode::UNPROCESSABLE_ENTITY,
        "/revision",
    );
    assert_error(
        &s.post("/api/v1/effects/journeys", json!({"seed": -1}), None).await,
        StatusCode::UNPROCESSABLE_ENTITY,
        "/seed",
    );
    assert_eq!(
        s.post("/api/v1/effects/journeys", json!({"colour": 1}), None).await.status,
        StatusCode::UNPROCESSABLE_ENTITY
    );

    let (id, token) = s.create(json!({"seed": 5})).await;
    let tok = Some(token.clone());
    assert_error(&s.cmd(&id, json!({"kind": "advance"}), None).await, StatusCode::UNAUTHORIZED, "Authorization");
    assert_error(
        &s.cmd(&id, json!({"kind": "advance"}), Some("x".into())).await,
        StatusCode::FORBIDDEN,
        "Authorization",
    );
    assert_error(&s.cmd(&id, json!({"kind": "end_turn"}), tok.clone()).await, StatusCode::CONFLICT, "/kind");
    assert_error(
        &s.cmd(&id, json!({"kind": "advance", "card": 0}), tok.clone()).await,
        StatusCode::UNPROCESSABLE_ENTITY,
        "/card",
    );
    assert_error(&s.cmd(&id, json!({"kind": "fly"}), tok.clone()).await, StatusCode::UNPROCESSABLE_ENTITY, "/kind");
    let r = s.cmd(&id, json!({"kind": "advance"}), tok.clone()).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.body);
    let combat = r.body["journey"]["combat"].clone();

    // Refused plays leave the journey as it was: no die, no commit, no resource.
    let (before, digest) = (s.journeys.probe(&id).unwrap(), s.journeys.store.digest().unwrap());
    assert_error(&s.cmd(&id, json!({"kind": "play"}), tok.clone()).await, StatusCode::UNPROCESSABLE_ENTITY, "/card");
    assert_error(
        &s.cmd(&id, json!({"kind": "play", "card": 99}), tok.clone()).await,
        StatusCode::UNPROCESSABLE_ENTITY,
        "/card",
    );
    let needs = combat["hand"].as_array().unwrap().iter().find(|c| c["needsTarget"] == true).unwrap();
    let pos = needs["position"].clone();
    assert_error(
        &s.cmd(&id, json!({"kind": "play", "card": pos}), tok.clone()).await,
        StatusCode::UNPROCESSABLE_ENTITY,
        "/target",
    );
    assert_error(
        &s.cmd(&id, json!({"kind": "play", "card": pos, "target": "hero"}), tok.clone()).await,
        StatusCode::UNPROCESSABLE_ENTITY,
        "/target",
    );
    assert_error(&s.cmd(&id, json!({"kind": "advance"}), tok.clone()).await, StatusCode::CONFLICT, "/kind");
    assert_eq!(s.journeys.probe(&id).unwrap(), before);
    assert_eq!(s.journeys.store.digest().unwrap(), digest);

    // A person's play, then reads of ids that do not exist or are not active.
    let enemy = combat["actors"][1]["actorId"].as_str().unwrap();
    let r = s.cmd(&id, json!({"kind": "play", "card": pos, "target": enemy}), tok.clone()).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.body);
    assert_eq!(r.body["commands"].as_array().unwrap().len(), 1);
    assert!(r.body["events"].as_array().unwrap().iter().any(|e| e["kind"] == "card_played"));
    let c1 = combat["combatId"].as_str().unwrap();
    assert_error(&s.get("/api/v1/runs/nope/character-attributes").await, StatusCode::NOT_FOUND, "run_id");
    assert_error(&s.get("/api/v1/combats/nope/actors/hero/attributes").await, StatusCode::NOT_FOUND, "combat_id");
    assert_error(
        &s.get(&format!("/api/v1/combats/{id}.c9/actors/hero/attributes")).await,
        StatusCode::CONFLICT,
        "combat_id",
    );
    assert_error(
        &s.get(&format!("/api/v1/combats/x{id}.c1/actors/hero/attributes")).await,
        StatusCode::NOT_FOUND,
        "combat_id",
    );
    assert_error(
        &s.get(&format!("/api/v1/combats/{c1}/actors/ghost/attributes")).await,
        StatusCode::NOT_FOUND,
        "actor_id",
    );
    assert_error(&s.get("/api/v1/effects/journeys/nope").await, StatusCode::NOT_FOUND, "run_id");
    // A Microfut match's id is not a journey: the answer says where its players are read.
    let m = s
        .post(
            "/api/v1/runs",
            json!({"home": "esporte_clube_mandacaru", "away": "uniao_pedra_branca", "seed": 1, "human": null}),
            None,
        )
        .await;
    let match_id = m.body["runId"].as_str().unwrap();
    let r = s.get(&format!("/api/v1/runs/{match_id}/character-attributes")).await;
    assert_error(&r, StatusCode::NOT_FOUND, "run_id");
    assert!(r.body["error"]["message"].as_str().unwrap().contains("/players/"), "{}", r.body);
    assert!(s.runs.store.run(match_id).unwrap().is_some());

    // Over: autoplay refuses, naming `until`.
    s.autoplay(&id, &token, "end").await;
    let r = s.post(&format!("/api/v1/effects/journeys/{id}/autoplay"), json!({"until": "end"}), Some(&token)).await;
    assert_error(&r, StatusCode::CONFLICT, "/until");
    assert_error(&s.cmd(&id, json!({"kind": "advance"}), tok).await, StatusCode::CONFLICT, "/kind");
}

#[tokio::test]
async fn a_journey_survives_the_server_and_its_record_replays_identical() {
    let s = server();
    let (id, token) = s.create(json!({"seed": 21})).await;
    s.autoplay(&id, &token, "combat").await;
    let j = s.autoplay(&id, &token, "turn").await["journey"].clone();
    let combat = j["combat"]["combatId"].as_str().unwrap().to_string();
    assert_eq!(combat, format!("{id}.c2"));
    let uri = format!("/api/v1/combats/{combat}/actors/hero/attributes");
    let read = s.get(&uri).await.body;
    let view = s.get(&format!("/api/v1/effects/journeys/{id}")).await.body;
    // Another server on the same store: rebuilt from the committed commands, every hash checked.
    let Server { dir, .. } = s;
    let s = server_on(dir);
    assert_eq!(s.get(&uri).await.body, read);
    assert_eq!(s.get(&format!("/api/v1/effects/journeys/{id}")).await.body, view);
    s.autoplay(&id, &token, "end").await;
    let record = s.get(&format!("/api/v1/effects/journeys/{id}/record")).await.body;
    let record: JourneyRecord = serde_json::from_value(record).unwrap();
    assert!(record.outcome.victory.is_some());
    let catalog = Catalog::load(&ContentTree::embedded());
    let world = pinned_world(&catalog, &record).unwrap();
    assert_eq!(replay(world, &record).unwrap(), Replay::Identical { commands: record.commands.len() });
    // The same journey as `microfut effects journey --seed 21` plays.
    let world = pinned_world(&catalog, &record).unwrap();
    let mut cli = microfut::effects::Run::new(world, "w1_journey", 21, id.clone()).unwrap();
    microfut::effects::autopilot::play_out(&mut cli).unwrap();
    assert_eq!(cli.commands(), record.commands.as_slice());
}

#[tokio::test]
async fn the_openapi_document_describes_the_effects_routes() {
    let s = server();
    let doc = s.get("/api/v1/openapi.json").await.body;
    for path in [
        "/api/v1/effects/modes",
        "/api/v1/effects/journeys",
        "/api/v1/effects/journeys/{run_id}",
        "/api/v1/effects/journeys/{run_id}/commands",
        "/api/v1/effects/journeys/{run_id}/autoplay",
        "/api/v1/effects/journeys/{run_id}/record",
        "/api/v1/runs/{run_id}/character-attributes",
        "/api/v1/combats/{combat_id}/actors/{actor_id}/attributes",
    ] {
        assert!(doc["paths"][path].is_object(), "{path} in the document");
    }
    let schemas = &doc["components"]["schemas"];
    for k in ["EffectAttributeRead", "EffectAttributeView", "EffectCriticalRules", "JourneyView", "CommandRequest"] {
        assert!(schemas[k].is_object(), "{k}");
    }
    // Microfut's own projection schema is not shadowed by World 1's.
    assert!(schemas["Contribution"].is_object() && schemas["EffectContribution"].is_object());
}
