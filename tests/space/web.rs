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
    assert_eq!((s, refusal(&e)), (StatusCode::UNAUTHORIZED, ("unauthorized", "authorization")));
    let (s, e) = call(&app, "POST", &url, Some(mv.clone()), Some("0123")).await;
    assert_eq!((s, refusal(&e)), (StatusCode::FORBIDDEN, ("forbidden", "authorization")));
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
    assert_eq!(g["frames"].as_array().unwrap().len(), g["log"].as_array().unwrap().len() + 1);
    let (s, e) = call(&app, "POST", &url, Some(mv), Some(&token)).await;
    assert_eq!((s, refusal(&e).0), (StatusCode::CONFLICT, "game_over"));
    // The game's record replays identically through the API.
    let (s, r) = call(&app, "POST", "/api/v1/space/replay", Some(g["record"].clone()), None).await;
    assert_eq!(s, StatusCode::OK, "{r}");
    assert_eq!(r["identical"], true, "{r}");
    assert_eq!(r["frames"], g["frames"]);
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
            "",
        ),
        ("GET", "/api/v1/space/games/nope", None, StatusCode::NOT_FOUND, "id"),
        ("GET", "/api/v1/space/nothing", None, StatusCode::NOT_FOUND, "path"),
    ];
    for (method, uri, body, status, field) in cases {
        let (s, e) = call(&app, method, uri, body.clone(), None).await;
        assert_eq!(s, status, "{method} {uri} {body:?}: {e}");
        assert_eq!(refusal(&e).1, field, "{method} {uri} {body:?}: {e}");
    }
    // Not JSON at all, and JSON under the wrong media type.
    let req = Request::builder()
        .method("POST")
        .uri("/api/v1/space/games")
        .header("content-type", "application/json")
        .body(Body::from("{"))
        .unwrap();
    assert_eq!(app.clone().oneshot(req).await.unwrap().status(), StatusCode::UNPROCESSABLE_ENTITY);
    let req = Request::builder().method("POST").uri("/api/v1/space/games").body(Body::from("{}")).unwrap();
    assert_eq!(app.clone().oneshot(req).await.unwrap().status(), StatusCode::UNSUPPORTED_MEDIA_TYPE);
}

#[tokio::test]
async fn the_page_and_its_assets_are_served() {
    let app = app();
    for (uri, ty) in [("/space/", "text/html"), ("/space/app.js", "text/javascript"), ("/space/app.css", "text/css")] {
        let res = app.clone().oneshot(Request::get(uri).body(Body::empty()).unwrap()).await.unwrap();
        assert_eq!(res.status(), StatusCode::OK, "{uri}");
        assert!(res.headers()["content-type"].to_str().unwrap().starts_with(ty), "{uri}");
    }
}
