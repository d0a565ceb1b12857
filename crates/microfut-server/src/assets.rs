//! What the pages of both servers share, embedded: `assets/common.js` (element lookup, escaping,
//! the API call and its errors, the language, the tooltip), served at `/common.js` and loaded by
//! each page before its own script. `microfut serve` mounts it once for all its pages
//! (`api::page`), `microfut space serve` for the battlefield's (`space_web::router`). The
//! favicon too, at `/favicon.svg` and at `/favicon.ico` where browsers look unasked.

use axum::Router;
use axum::http::header;
use axum::routing::get;

const COMMON_JS: &str = include_str!("assets/common.js");
const FAVICON: &str = include_str!("assets/favicon.svg");

pub fn routes() -> Router {
    Router::new()
        .route("/common.js", get(|| async { ([(header::CONTENT_TYPE, "text/javascript; charset=utf-8")], COMMON_JS) }))
        .route("/favicon.svg", get(|| async { ([(header::CONTENT_TYPE, "image/svg+xml")], FAVICON) }))
        .route("/favicon.ico", get(|| async { ([(header::CONTENT_TYPE, "image/svg+xml")], FAVICON) }))
}
