//! `microfut serve`: the HTTP API under `/api/v1`, its OpenAPI document, and the page at `/`.
//!
//! Problem: a person must be able to play a match in a browser, with the odds in front of them,
//! on a server that keeps runs safe — and other games (Space Football, the card game's
//! projections) will add their own routes to the same server.
//!
//! Decision: axum on tokio. The server is a set of *areas*, each an `OpenApiRouter` (utoipa-axum)
//! carrying its routes and their OpenAPI paths; [`app`] nests every area under `/api/v1`, merges
//! their documents into `/api/v1/openapi.json`, serves the page's embedded assets, and answers
//! anything else — unknown paths, wrong methods, malformed input — with a 4xx JSON error naming
//! the field. Handlers are thin: they parse and call `api::runs`, which calls the same library
//! functions the CLI uses; no rule is computed here or in the page. The run store
//! (`crate::store`) is below; the engine never knows it exists.
//!
//! Limits: binds to loopback unless told otherwise; writes need the run's token, reads only its
//! id (ids are 128 random bits). No TLS: put a reverse proxy in front to expose it.

pub mod dto;
pub mod effects;
pub mod journeys;
mod live;
pub mod microfut;
mod page;
pub mod runs;
pub mod views;

use crate::error::{BODY_LIMIT, method_not_allowed, not_found};
use crate::store::Store;
use axum::Router;
use axum::extract::DefaultBodyLimit;
use axum::http::header;
use microfut_core::catalog::Catalog;
use std::net::SocketAddr;
use std::sync::Arc;
use utoipa_axum::router::OpenApiRouter;

pub use runs::Runs;

/// The areas a default server mounts: Microfut's and World 1's (seed 002's journeys and
/// projections, on the same store). Another game adds its own `OpenApiRouter` here (its paths
/// relative to `/api/v1`, its state already applied with `with_state`).
pub fn default_areas(runs: Arc<Runs>) -> Vec<OpenApiRouter> {
    let journeys = Arc::new(journeys::Journeys::new(runs.catalog.clone(), runs.store.clone()));
    vec![microfut::routes(runs), effects::routes(journeys)]
}

/// The whole application: every area under `/api/v1`, the OpenAPI document, the page.
pub fn app(areas: Vec<OpenApiRouter>) -> Router {
    let mut api = OpenApiRouter::new();
    for area in areas {
        api = api.merge(area);
    }
    let (api_router, mut doc) = OpenApiRouter::new().nest("/api/v1", api).split_for_parts();
    crate::openapi::finish(
        &mut doc,
        "microfut",
        "Play Microfut matches: runs, their rounds, the human side's decisions with exact odds and \
         explanations, read-only projections; Space Football's battlefield when the catalog holds it. \
         Errors are 4xx JSON {\"error\": {\"code\", \"message\", \"field\"}}.",
    );
    let openapi = serde_json::to_string(&doc).expect("the OpenAPI document serialises");
    api_router
        .route(
            "/api/v1/openapi.json",
            axum::routing::get(move || {
                let body = openapi.clone();
                async move { ([(header::CONTENT_TYPE, "application/json")], body) }
            }),
        )
        .merge(page::routes())
        .fallback(not_found)
        .method_not_allowed_fallback(method_not_allowed)
        .layer(DefaultBodyLimit::max(BODY_LIMIT))
}

/// Opens the store (within `store_limits`: runs, bytes) and serves until interrupted, within
/// `limits` (`crate::server`). Prints `listening on http://ADDR` once bound.
pub fn serve(
    catalog: Catalog,
    bind: SocketAddr,
    db: &std::path::Path,
    store_limits: crate::store::Limits,
    limits: crate::server::Limits,
) -> Result<(), String> {
    let store = Store::open(db).map_err(|e| e.to_string())?;
    store.set_limits(store_limits);
    // Space Football's battlefield rides along when the catalog holds a playable revision of it.
    let space = catalog.revision("space", None).ok().and_then(|r| microfut_space::compile(r).ok());
    let space = match space {
        Some(rules) => {
            let games = crate::space_web::store::beside(db);
            Some((rules, crate::space_web::store::GameStore::open(&games).map_err(|e| e.to_string())?))
        }
        None => None,
    };
    let runs = Arc::new(Runs::new(Arc::new(catalog), Arc::new(store)));
    let rt = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(|e| format!("cannot start the runtime: {e}"))?;
    rt.block_on(async move {
        let listener = crate::server::bind(bind).map_err(|e| format!("cannot listen on {bind}: {e}"))?;
        let addr = listener.local_addr().map_err(|e| e.to_string())?;
        let battlefield = if space.is_some() { ", Space Football at /space/" } else { "" };
        println!("listening on http://{addr}/  (run store {}{battlefield})", db.display());
        let mut areas = default_areas(runs);
        let battlefield = space.is_some();
        if let Some((rules, games)) = space {
            areas.push(crate::space_web::area(rules, Some(games)));
        }
        let mut app = app(areas);
        if battlefield {
            app = app.merge(crate::space_web::pages());
        }
        crate::server::serve(listener, app, limits, async {
            let _ = tokio::signal::ctrl_c().await;
        })
        .await
    })
}
