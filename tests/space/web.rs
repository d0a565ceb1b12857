//! The battlefield's API (`/api/v1/space/…`) in process: a person's game against a bot with its
//! token, the legal actions it offers, every refusal a 4xx JSON body naming its field, demo
//! matches whose records replay, and edited records explained.

use crate::space_support;

use axum::body::Body;
use axum::http::{Request, StatusCode};
use serde_json::{Value, json};
use tower::ServiceExt;

fn app() -> axum::Router {
    microfut::space_web::router(space_support::rules(), None)
}

async fn call(
    app: &axum::Router,
    method: &str,
    uri: &str,
    body: Option<Value>,
    token: Option<&str>,
) -> (StatusCode, Value) {
    let mut req = Request::builder().method(method).uri(uri);
    if body.is_some() {
        req = req.header("content-type", "application/json");
    }
    if let Some(t) = token {
        req = req.header("authorization", format!("Bearer {t}"));
    }
    let req = req.body(body.map_or_else(Body::empty, |b| Body::from(b.to_string()))).unwrap();
    let res = app.clone().oneshot(req).await.unwrap();
    let status = res.status();
    let bytes = axum::body::to_bytes(res.into_body(), 1 << 24).await.unwrap();
    (status, serde_json::from_slice(&bytes).unwrap_or(Value::Null))
}

/// Checks `value` against the component schema `name` of the battlefield's OpenAPI document,
/// read strictly: an object with a property the schema does not list fails too, so the document
/// and the answers cannot drift apart in either direction.
async fn assert_fits(app: &axum::Router, name: &str, value: &Value) {
    let (_, doc) = call(app, "GET", "/api/v1/openapi.json", None, None).await;
    fn strict(v: &mut Value) {
        match v {
            Value::Object(o) => {
                if o.contains_key("properties") && !o.contains_key("additionalProperties") {
                    o.insert("additionalProperties".into(), Value::Bool(false));
                }
                o.values_mut().for_each(strict);
            }
            Value::Array(a) => a.iter_mut().for_each(strict),
            _ => {}
        }
    }
    let mut components = doc["components"].clone();
    strict(&mut components);
    let schema = json!({"$ref": format!("#/components/schemas/{name}"), "components": components});
    let validator = jsonschema::options().with_draft(jsonschema::Draft::Draft202012).build(&schema).unwrap();
    let errors: Vec<String> = validator.iter_errors(value).map(|e| format!("{}: {e}", e.instance_path())).collect();
    assert!(errors.is_empty(), "{name}: {errors:#?}\n{value}");
}

fn refusal(v: &Value) -> (&str, &str) {
    (v["error"]["code"].as_str().unwrap(), v["error"]["field"].as_str().unwrap_or(""))
}

#[tokio::test]
async fn a_person_plays_a_bot_with_the_token_to_the_end_and_the_record_replays() {
    let app = app();
    let (s, g) = call(
        &app,
        "POST",
        "/api/v1/space/games",
        Some(json!({"seed": 5, "n": 7, "human": "black", "bot": "greedy"})),
        None,
    )
    .await;
    assert_eq!(s, StatusCode::CREATED, "{g}");
    assert_fits(&app, "SpaceGame", &g).await;
    let (id, token) = (g["id"].as_str().unwrap().to_string(), g["token"].as_str().unwrap().to_string());
    // The bot (white) opened; the person's legal actions all go down the rows (black).
    assert_eq!(g["log"][0]["side"], "white");
    assert_eq!(g["to_move"], "black");
    assert!(!g["legal"].as_array().unwrap().is_empty());
    assert!(g["legal"].as_array().unwrap().iter().all(|a| a["to"][0].as_i64() < a["from"][0].as_i64()));
    // A read never shows the token.
    let (_, read) = call(&app, "GET", &format!("/api/v1/space/games/{id}"), None, None).await;
    assert!(read.get("token").is_none());

    let url = format!("/api/v1/space/games/{id}/actions");
    let a = g["legal"][0].clone();
    let mv = json!({"from": a["from"], "to": a["to"]});
    let (s, e) = call(&app, "POST", &url, Some(mv.clone()), None).await;
    assert_eq!((s, refusal(&e)), (StatusCode::UNAUTHORIZED, ("unauthorized", "Authorization")));
    let (s, e) = call(&app, "POST", &url, Some(mv.clone()), Some("0123")).await;
    assert_eq!((s, refusal(&e)), (StatusCode::FORBIDDEN, ("forbidden", "Authorization")));
    // Backwards: refused, naming the destination, and nothing changes.
    let back = json!({"from": a["from"], "to": [a["from"][0].as_i64().unwrap() + 1, a["from"][1]]});
    let (s, e) = call(&app, "POST", &url, Some(back), Some(&token)).await;
    assert_eq!((s, refusal(&e)), (StatusCode::UNPROCESSABLE_ENTITY, ("invalid_field", "/to")), "{e}");
    assert!(e["error"]["message"].as_str().unwrap().contains("does not go forward"), "{e}");
    let (_, same) = call(&app, "GET", &format!("/api/v1/space/games/{id}"), None, None).await;
    assert_eq!(same["log"], read["log"]);

    // Play the first legal action until the end.
    let mut g = g;
    for _ in 0..300 {
        if !g["outcome"].is_null() {
            break;
        }
        let a = &g["legal"][0];
        let (s, next) = call(&app, "POST", &url, Some(json!({"from": a["from"], "to": a["to"]})), Some(&token)).await;
        assert_eq!(s, StatusCode::OK, "{next}");
        g = next;
    }
    assert!(!g["outcome"].is_null(), "the game ends");
    assert_fits(&app, "SpaceGame", &g).await;
    assert_eq!(g["frames"].as_array().unwrap().len(), g["log"].as_array().unwrap().len() + 1);
    let (s, e) = call(&app, "POST", &url, Some(mv), Some(&token)).await;
    assert_eq!((s, refusal(&e).0), (StatusCode::CONFLICT, "game_over"));
    // The game's record replays identically through the API.
    let (s, r) = call(&app, "POST", "/api/v1/space/replay", Some(g["record"].clone()), None).await;
    assert_eq!(s, StatusCode::OK, "{r}");
    assert_eq!(r["identical"], true, "{r}");
    assert_eq!(r["frames"], g["frames"]);
    assert_fits(&app, "SpaceReplay", &r).await;
}

#[tokio::test]
async fn a_demo_match_is_the_same_for_the_same_seed_and_an_edited_record_is_explained() {
    let app = app();
    let req = json!({"white": "search", "black": "greedy", "seed": 3, "n": 8});
    let (s, m) = call(&app, "POST", "/api/v1/space/matches", Some(req.clone()), None).await;
    assert_eq!(s, StatusCode::OK, "{m}");
    let (_, again) = call(&app, "POST", "/api/v1/space/matches", Some(req), None).await;
    assert_eq!(m["record"]["actions"], again["record"]["actions"]);
    assert_eq!(m["record"]["result"]["winner"], "white");
    assert_eq!(m["frames"].as_array().unwrap().len(), m["record"]["actions"].as_array().unwrap().len() + 1);
    assert_fits(&app, "SpaceMatch", &m).await;

    let mut bad = m["record"].clone();
    let row = bad["actions"][1]["from"][0].as_i64().unwrap();
    bad["actions"][1]["to"][0] = json!(row + 1);
    let (s, r) = call(&app, "POST", "/api/v1/space/replay", Some(bad), None).await;
    assert_eq!(s, StatusCode::OK);
    assert_eq!(r["identical"], false);
    assert!(r["difference"].as_str().unwrap().starts_with("action 2 "), "{r}");
    assert_eq!(r["frames"].as_array().unwrap().len(), 2, "the positions up to the first illegal action");

    let mut other = m["record"].clone();
    other["fingerprint"] = json!("sha256:00");
    let (s, e) = call(&app, "POST", "/api/v1/space/replay", Some(other), None).await;
    assert_eq!((s, refusal(&e).1), (StatusCode::UNPROCESSABLE_ENTITY, "/fingerprint"));
}

#[tokio::test]
async fn bad_input_is_a_4xx_naming_the_field() {
    let app = app();
    let cases: Vec<(&str, &str, Option<Value>, StatusCode, &str)> = vec![
        ("GET", "/api/v1/space/board?seed=1&n=4", None, StatusCode::UNPROCESSABLE_ENTITY, "n"),
        ("GET", "/api/v1/space/board?seed=x", None, StatusCode::UNPROCESSABLE_ENTITY, "seed"),
        ("GET", "/api/v1/space/board", None, StatusCode::UNPROCESSABLE_ENTITY, "seed"),
        ("GET", "/api/v1/space/board?seed=1&colour=red", None, StatusCode::UNPROCESSABLE_ENTITY, "colour"),
        (
            "POST",
            "/api/v1/space/games",
            Some(json!({"seed": 1, "human": "green", "bot": "greedy"})),
            StatusCode::UNPROCESSABLE_ENTITY,
            "/human",
        ),
        (
            "POST",
            "/api/v1/space/games",
            Some(json!({"seed": 1, "human": "white", "bot": "deep"})),
            StatusCode::UNPROCESSABLE_ENTITY,
            "/bot",
        ),
        (
            "POST",
            "/api/v1/space/games",
            Some(json!({"seed": 1, "n": 300, "human": "white", "bot": "greedy"})),
            StatusCode::UNPROCESSABLE_ENTITY,
            "/n",
        ),
        (
            "POST",
            "/api/v1/space/games",
            Some(json!({"seed": -1, "human": "white", "bot": "greedy"})),
            StatusCode::UNPROCESSABLE_ENTITY,
            "/seed",
        ),
        (
            "POST",
            "/api/v1/space/games",
            Some(json!({"seed": 1, "human": "white", "bot": "greedy", "extra": 1})),
            StatusCode::UNPROCESSABLE_ENTITY,
            "/extra",
        ),
        (
            "POST",
            "/api/v1/space/matches",
            Some(json!({"white": "greedy", "black": "nobody", "seed": 1})),
            StatusCode::UNPROCESSABLE_ENTITY,
            "/black",
        ),
        (
            "POST",
            "/api/v1/space/replay",
            Some(json!({"format": "space-match/1"})),
            StatusCode::UNPROCESSABLE_ENTITY,
            "/",
        ),
        ("GET", "/api/v1/space/games/nope", None, StatusCode::NOT_FOUND, "id"),
        ("GET", "/api/v1/space/nothing", None, StatusCode::NOT_FOUND, "path"),
    ];
    for (method, uri, body, status, field) in cases {
        let (s, e) = call(&app, method, uri, body.clone(), None).await;
        assert_eq!(s, status, "{method} {uri} {body:?}: {e}");
        assert_eq!(refusal(&e).1, field, "{method} {uri} {body:?}: {e}");
    }
    // Not JSON at all, JSON under the wrong media type, a path segment that is not UTF-8: the
    // same JSON refusals, naming the same fields, as `microfut serve` (one error type for both).
    let raw = |method: &str, uri: &str, ty: Option<&str>, body: &'static str| {
        let mut req = Request::builder().method(method).uri(uri);
        if let Some(ty) = ty {
            req = req.header("content-type", ty);
        }
        req.body(Body::from(body)).unwrap()
    };
    let cases = [
        (raw("POST", "/api/v1/space/games", Some("application/json"), "{"), 400, "malformed_json", "body"),
        (raw("POST", "/api/v1/space/games", None, "{}"), 415, "unsupported_media_type", "Content-Type"),
        (raw("POST", "/api/v1/space/games", Some("text/plain"), "{}"), 415, "unsupported_media_type", "Content-Type"),
        (raw("POST", "/api/v1/space/games", Some("application/json"), "[1]"), 422, "invalid_field", "/"),
        (raw("GET", "/api/v1/space/games/%FF", None, ""), 400, "invalid_path", "path"),
        (raw("GET", "/api/v1/space/board?seed=1&seed=2", None, ""), 422, "invalid_field", "seed"),
        (raw("DELETE", "/api/v1/space/games", None, ""), 405, "method_not_allowed", "method"),
    ];
    for (req, status, code, field) in cases {
        let what = format!("{} {}", req.method(), req.uri());
        let res = app.clone().oneshot(req).await.unwrap();
        assert_eq!(res.status().as_u16(), status, "{what}");
        let bytes = axum::body::to_bytes(res.into_body(), 1 << 20).await.unwrap();
        let e: Value = serde_json::from_slice(&bytes).unwrap_or_else(|_| panic!("{what}: not JSON: {bytes:?}"));
        assert_eq!(refusal(&e), (code, field), "{what}: {e}");
    }
}

#[tokio::test]
async fn the_page_and_its_assets_are_served() {
    let app = app();
    let assets = [
        ("/space/", "text/html"),
        ("/common.js", "text/javascript"),
        ("/space/app.js", "text/javascript"),
        ("/space/app.css", "text/css"),
    ];
    for (uri, ty) in assets {
        let res = app.clone().oneshot(Request::get(uri).body(Body::empty()).unwrap()).await.unwrap();
        assert_eq!(res.status(), StatusCode::OK, "{uri}");
        assert!(res.headers()["content-type"].to_str().unwrap().starts_with(ty), "{uri}");
    }
    // The shared front-end kit is loaded before the page's own script, which relies on it.
    let res = app.clone().oneshot(Request::get("/space/").body(Body::empty()).unwrap()).await.unwrap();
    let html = String::from_utf8(axum::body::to_bytes(res.into_body(), 1 << 20).await.unwrap().to_vec()).unwrap();
    let at = |s: &str| html.find(s).unwrap_or_else(|| panic!("the page lacks {s}"));
    assert!(at(r#"<script src="/common.js">"#) < at(r#"<script src="/space/app.js">"#));
}

/// The battlefield's file runs the run store's migration runner: a schema version that no
/// microfut writes (below zero: damaged, or not our file) is refused with the file named, before
/// anything is written to it; a newer one likewise.
#[test]
fn a_games_file_of_an_unknown_schema_version_is_refused_naming_it() {
    use microfut::space_web::store::GameStore;
    let dir = tempfile::tempdir().unwrap();
    for (v, says) in [(-1, "not one microfut writes"), (2, "newer microfut")] {
        let path = dir.path().join(format!("v{v}.space.db"));
        let c = rusqlite::Connection::open(&path).unwrap();
        c.pragma_update(None, "user_version", v).unwrap();
        drop(c);
        let e = GameStore::open(&path).err().unwrap_or_else(|| panic!("version {v} opened")).to_string();
        assert!(e.contains(&path.display().to_string()) && e.contains(says), "{e}");
        let c = rusqlite::Connection::open(&path).unwrap();
        let tables: i64 = c.query_row("SELECT count(*) FROM sqlite_schema", [], |r| r.get(0)).unwrap();
        assert_eq!(tables, 0, "version {v}: nothing written");
    }
}

/// The battlefield's OpenAPI document is generated from its handlers (served alone at
/// `/api/v1/openapi.json`): every route is in it, each enum lists exactly the values the server
/// accepts, and the rules and board answers fit their schemas (the game, match and replay
/// answers are checked where they are played, above).
#[tokio::test]
async fn the_openapi_document_lists_every_route_and_every_accepted_value() {
    use microfut::space::bots::BotKind;
    let app = app();
    let (s, doc) = call(&app, "GET", "/api/v1/openapi.json", None, None).await;
    assert_eq!(s, StatusCode::OK);
    assert_eq!(doc["openapi"], "3.1.0");
    assert!(doc["info"].get("contact").is_none() && doc["info"].get("license").is_none(), "{}", doc["info"]);
    let paths: Vec<&String> = doc["paths"].as_object().unwrap().keys().collect();
    let routes = ["rules", "board", "games", "games/{id}", "games/{id}/actions", "matches", "replay"];
    assert_eq!(paths, routes.map(|r| format!("/api/v1/space/{r}")).iter().collect::<Vec<_>>());
    assert_eq!(doc["paths"]["/api/v1/space/games/{id}/actions"]["post"]["security"], json!([{"bearer": []}]));
    let schemas = &doc["components"]["schemas"];
    assert_eq!(schemas["SpaceBot"]["enum"], json!(BotKind::ALL.map(BotKind::name)));
    let accepted = |name: &str, values: Value| {
        assert_eq!(schemas[name]["enum"], values, "{name}");
        values.as_array().unwrap().to_vec()
    };
    for v in accepted("SpaceSide", json!(["white", "black"])) {
        serde_json::from_value::<microfut::space::Side>(v).unwrap();
    }
    for v in accepted("SpaceActionKind", json!(["move", "attack", "suicide", "pass"])) {
        serde_json::from_value::<microfut::space::Kind>(v).unwrap();
    }
    for v in accepted("SpaceVictory", json!(["goal", "destruction", "opponent_invalid", "draw"])) {
        serde_json::from_value::<microfut::space::Victory>(v).unwrap();
    }
    // Nothing else is accepted where those enums stand.
    assert!(serde_json::from_value::<microfut::space::Side>(json!("red")).is_err());
    assert!(serde_json::from_value::<microfut::space::Kind>(json!("jump")).is_err());
    let (_, rules) = call(&app, "GET", "/api/v1/space/rules", None, None).await;
    assert_fits(&app, "SpaceRules", &rules).await;
    let (_, board) = call(&app, "GET", "/api/v1/space/board?seed=4", None, None).await;
    assert_fits(&app, "SpaceDrawnBoard", &board).await;
}
