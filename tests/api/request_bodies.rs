//! Request bodies every JSON route of both servers refuses, in words a client understands (issue
//! 49, section 8): a body that is not a JSON object names the fields it must have; a charset
//! other than UTF-8 is a 415 naming `Content-Type`; a body in UTF-16 (byte order mark or not) is
//! a 415 naming the body — never parsed as if it were UTF-8; and an array is never read as a
//! struct by position.

use crate::space_support;

use axum::body::Body;
use axum::http::{Request, StatusCode};
use microfut::api::{self, Runs};
use microfut::catalog::{Catalog, ContentTree};
use microfut::store::Store;
use serde_json::{Value, json};
use std::sync::Arc;
use tower::ServiceExt;

async fn send(app: &axum::Router, uri: &str, body: &[u8], ctype: &str, token: Option<&str>) -> (StatusCode, Value) {
    let mut req = Request::builder().method("POST").uri(uri).header("content-type", ctype);
    if let Some(t) = token {
        req = req.header("authorization", format!("Bearer {t}"));
    }
    let res = app.clone().oneshot(req.body(Body::from(body.to_vec())).unwrap()).await.unwrap();
    let status = res.status();
    let bytes = axum::body::to_bytes(res.into_body(), 1 << 24).await.unwrap();
    (status, serde_json::from_slice(&bytes).unwrap_or(Value::Null))
}

async fn post_ok(app: &axum::Router, uri: &str, body: Value) -> Value {
    let (status, b) = send(app, uri, body.to_string().as_bytes(), "application/json", None).await;
    assert!(status.is_success(), "{uri}: {status} {b}");
    b
}

/// A route, the token its writes need, one of its fields, and what the server calls the root.
struct Route {
    uri: String,
    token: Option<String>,
    field: &'static str,
    root: &'static str,
    content_type: &'static str,
}

/// Every JSON route of `microfut serve` (runs, advance, intents, clubs, journeys and their
/// commands) and of the battlefield (games, actions, matches, replay), with what it needs.
async fn routes() -> (axum::Router, axum::Router, Vec<Route>, tempfile::TempDir) {
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open(&dir.path().join("runs.db")).unwrap();
    let runs = Arc::new(Runs::new(Arc::new(Catalog::load(&ContentTree::embedded())), Arc::new(store)));
    let api = api::app(api::default_areas(runs));
    let space = microfut::space_web::router(space_support::rules(), None);

    let run = post_ok(
        &api,
        "/api/v1/runs",
        json!({"home": "esporte_clube_mandacaru", "away": "uniao_pedra_branca", "human": "home"}),
    )
    .await;
    let (run_id, run_token) = (run["runId"].as_str().unwrap(), run["token"].as_str().unwrap().to_string());
    let journey = post_ok(&api, "/api/v1/effects/journeys", json!({"seed": 1})).await;
    let (j_id, j_token) = (journey["runId"].as_str().unwrap(), journey["token"].as_str().unwrap().to_string());
    let game = post_ok(&space, "/api/v1/space/games", json!({"seed": 1, "human": "white", "bot": "greedy"})).await;
    let (g_id, g_token) = (game["id"].as_str().unwrap(), game["token"].as_str().unwrap().to_string());

    let api_route = |uri: String, token: Option<&String>, field| Route {
        uri,
        token: token.cloned(),
        field,
        root: "/",
        content_type: "Content-Type",
    };
    // The battlefield answers with the same error type: the same root pointer and header name.
    let space_route = api_route;
    let list = vec![
        api_route("/api/v1/runs".into(), None, "home"),
        api_route(format!("/api/v1/runs/{run_id}/advance"), Some(&run_token), "until"),
        api_route(format!("/api/v1/runs/{run_id}/intents"), Some(&run_token), "kind"),
        api_route("/api/v1/clubs".into(), None, "squad"),
        api_route("/api/v1/effects/journeys".into(), None, "mode"),
        api_route(format!("/api/v1/effects/journeys/{j_id}/commands"), Some(&j_token), "kind"),
        api_route(format!("/api/v1/effects/journeys/{j_id}/autoplay"), Some(&j_token), "until"),
        space_route("/api/v1/space/games".into(), None, "bot"),
        space_route(format!("/api/v1/space/games/{g_id}/actions"), Some(&g_token), "from"),
        space_route("/api/v1/space/matches".into(), None, "white"),
        space_route("/api/v1/space/replay".into(), None, "actions"),
    ];
    (api, space, list, dir)
}

#[tokio::test]
async fn a_body_that_is_not_a_json_object_says_what_it_must_be_on_every_route() {
    let (api, space, routes, _dir) = routes().await;
    for r in &routes {
        let app = if r.uri.starts_with("/api/v1/space/") { &space } else { &api };
        for (body, found) in [("null", "null"), ("[]", "an array"), ("\"x\"", "a string"), ("42", "a number")] {
            let (status, b) = send(app, &r.uri, body.as_bytes(), "application/json", r.token.as_deref()).await;
            let e = &b["error"];
            assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{} {body}: {b}", r.uri);
            assert_eq!(e["field"], r.root, "{} {body}: {b}", r.uri);
            let m = e["message"].as_str().unwrap();
            assert!(m.contains("JSON object"), "{} {body}: {m}", r.uri);
            assert!(m.contains(r.field), "{} {body} names `{}`: {m}", r.uri, r.field);
            assert!(m.contains(found), "{} {body} says what it found: {m}", r.uri);
            assert!(!m.contains("struct") && !m.contains("elements"), "{} {body}: serde's words: {m}", r.uri);
        }
    }
}

#[tokio::test]
async fn a_struct_is_never_read_from_an_array_by_position() {
    // serde reads a struct from a JSON array, field by field in declaration order: these were
    // accepted as a run, an advance to the end and a game. Each is refused, nothing is made.
    let (api, space, routes, _dir) = routes().await;
    let cases = [
        (&api, &routes[0], json!(["esporte_clube_mandacaru", "uniao_pedra_branca"])),
        (&api, &routes[1], json!(["end", true])),
        (&space, &routes[7], json!([1, null, "white", "greedy"])),
    ];
    for (app, r, body) in cases {
        let (status, b) = send(app, &r.uri, body.to_string().as_bytes(), "application/json", r.token.as_deref()).await;
        assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{} {body}: {b}", r.uri);
        assert!(b["error"]["message"].as_str().unwrap().contains("found an array"), "{b}");
    }
}

#[tokio::test]
async fn a_charset_other_than_utf8_and_a_utf16_body_are_refused_on_every_route() {
    let (api, space, routes, _dir) = routes().await;
    let utf16 = |text: &str, bom: bool| {
        let mut out = if bom { vec![0xFF, 0xFE] } else { Vec::new() };
        out.extend(text.encode_utf16().flat_map(u16::to_le_bytes));
        out
    };
    for r in &routes {
        let app = if r.uri.starts_with("/api/v1/space/") { &space } else { &api };
        for charset in ["utf-16", "UTF-16LE", "iso-8859-1", "\"utf-32\""] {
            let ctype = format!("application/json; charset={charset}");
            let (status, b) = send(app, &r.uri, b"{}", &ctype, r.token.as_deref()).await;
            assert_eq!(status, StatusCode::UNSUPPORTED_MEDIA_TYPE, "{} {ctype}: {b}", r.uri);
            assert_eq!(b["error"]["field"], r.content_type, "{} {ctype}: {b}", r.uri);
            let m = b["error"]["message"].as_str().unwrap();
            assert!(m.contains(charset.trim_matches('"')) && m.contains("UTF-8"), "{m}");
        }
        for ok in ["application/json; charset=utf-8", "application/json;charset=\"UTF-8\""] {
            let (status, b) = send(app, &r.uri, b"null", ok, r.token.as_deref()).await;
            assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{} {ok} is read: {b}", r.uri);
        }
        for bom in [true, false] {
            let body = utf16(&format!("{{\"{}\": 1}}", r.field), bom);
            let (status, b) = send(app, &r.uri, &body, "application/json", r.token.as_deref()).await;
            assert_eq!(status, StatusCode::UNSUPPORTED_MEDIA_TYPE, "{} UTF-16 (BOM {bom}): {b}", r.uri);
            assert_eq!(b["error"]["field"], "body", "{b}");
            let m = b["error"]["message"].as_str().unwrap();
            assert!(m.contains("UTF-16") && m.contains("UTF-8"), "{m}");
        }
    }
}
