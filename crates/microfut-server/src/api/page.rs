//! The page, embedded in the binary (no build step, nothing to install): one HTML file, its
//! script and its style; and World 1's attributes page at `/effects/`; both load the shared
//! `/common.js` (`crate::assets`) first. Pages only draw what the API returns.

use axum::Router;
use axum::http::header;
use axum::routing::get;

const INDEX: &str = include_str!("assets/index.html");
const SCRIPT: &str = include_str!("assets/app.js");
const STYLE: &str = include_str!("assets/app.css");
/// World 1's attributes page (seed 002's projections).
const EFFECTS: &str = include_str!("assets/effects.html");
const EFFECTS_SCRIPT: &str = include_str!("assets/effects.js");
const EFFECTS_STYLE: &str = include_str!("assets/effects.css");

pub fn routes() -> Router {
    Router::new()
        .route("/", get(|| async { ([(header::CONTENT_TYPE, "text/html; charset=utf-8")], INDEX) }))
        .route("/app.js", get(|| async { ([(header::CONTENT_TYPE, "text/javascript; charset=utf-8")], SCRIPT) }))
        .route("/app.css", get(|| async { ([(header::CONTENT_TYPE, "text/css; charset=utf-8")], STYLE) }))
        .route("/effects/", get(|| async { ([(header::CONTENT_TYPE, "text/html; charset=utf-8")], EFFECTS) }))
        .route("/effects", get(|| async { axum::response::Redirect::permanent("/effects/") }))
        .route(
            "/effects.js",
            get(|| async { ([(header::CONTENT_TYPE, "text/javascript; charset=utf-8")], EFFECTS_SCRIPT) }),
        )
        .route("/effects.css", get(|| async { ([(header::CONTENT_TYPE, "text/css; charset=utf-8")], EFFECTS_STYLE) }))
        .merge(crate::assets::routes())
}
