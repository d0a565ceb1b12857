//! Microfut's routes under `/api/v1`: revisions, clubs, runs and their reads. Each handler
//! parses, calls one function of [`Runs`] (which calls the library), and answers; blocking work
//! (the engine, the store) runs on tokio's blocking pool — except the writes to a run, which
//! await their commit without holding a thread (`Runs::advance_async`, `Runs::intent_async`).

use super::dto::*;
use super::runs::Runs;
use crate::error::{ApiError, ApiResult, Bearer, ErrorBody, JsonBody, PathParams, QueryParams, RawJson};
use axum::Json;
use axum::extract::State;
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use std::sync::Arc;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

pub type AppRuns = Arc<Runs>;

/// Runs `f` off the async workers; a panic would be a bug, answered as unavailable, never hung.
async fn blocking<T: Send + 'static>(f: impl FnOnce() -> ApiResult<T> + Send + 'static) -> ApiResult<T> {
    tokio::task::spawn_blocking(f).await.map_err(|e| ApiError::unavailable(format!("internal failure: {e}")))?
}

/// The routes of this area, with their OpenAPI paths.
pub fn routes(runs: AppRuns) -> OpenApiRouter {
    OpenApiRouter::new()
        .routes(routes!(list_revisions))
        .routes(routes!(list_clubs, upload_club))
        .routes(routes!(get_club))
        .routes(routes!(create_run))
        .routes(routes!(get_run, delete_run))
        .routes(routes!(advance))
        .routes(routes!(candidates))
        .routes(routes!(declare_intent))
        .routes(routes!(events))
        .routes(routes!(decisions))
        .routes(routes!(record))
        .routes(routes!(player_sheet))
        .routes(routes!(player_attributes))
        .with_state(runs)
}

const RUN_ID: &str = "The run's id (from POST /runs).";

#[utoipa::path(get, path = "/revisions", tag = "microfut",
    responses((status = 200, description = "Microfut's content revisions", body = Vec<RevisionView>)))]
async fn list_revisions(State(runs): State<AppRuns>) -> ApiResult<Json<Vec<RevisionView>>> {
    let entry = runs.catalog.ruleset("microfut").map_err(|e| ApiError::unavailable(e.to_string()))?;
    let default = runs.catalog.revision("microfut", None).ok().map(|r| r.version.clone());
    let out = entry
        .revisions
        .values()
        .rev()
        .map(|rev| {
            let m = rev.manifest.as_ref();
            RevisionView {
                ruleset: rev.ruleset.clone(),
                version: rev.version.to_string(),
                status: rev.status().map(|s| format!("{s:?}").to_lowercase()),
                fingerprint: rev.fingerprint.clone(),
                parent: m.and_then(|m| m.parent.clone()),
                engine: m.map(|m| m.engine.clone()),
                label: m.map(|m| m.label.clone()),
                change_note: m.map(|m| m.change_note.clone()),
                playable: runs.rules(Some(&rev.version.to_string()), "revision").is_ok(),
                default: default.as_ref() == Some(&rev.version),
            }
        })
        .collect();
    Ok(Json(out))
}

#[utoipa::path(get, path = "/clubs", tag = "microfut",
    responses((status = 200, description = "Sample clubs, then uploaded ones", body = Vec<ClubSummary>)))]
async fn list_clubs(State(runs): State<AppRuns>) -> ApiResult<Json<Vec<ClubSummary>>> {
    blocking(move || {
        let summary = |c: &microfut_football::club::Club, source: &str| ClubSummary {
            id: c.id.clone(),
            name: c.name.clone(),
            source: source.into(),
            identity: c.identity.clone(),
            budget: c.budget,
            players: c.squad.len(),
            personality: serde_json::to_value(c.personality).expect("personality"),
        };
        let mut out = Vec::new();
        if let Ok(entry) = runs.catalog.ruleset("microfut") {
            for (k, v) in &entry.extra {
                if k.starts_with("clubs/")
                    && let Ok(c) = microfut_football::club::Club::from_value(v.clone())
                {
                    out.push(summary(&c, "sample"));
                }
            }
        }
        for c in runs.store.clubs().map_err(|e| ApiError::unavailable(e.to_string()))? {
            out.push(summary(&c, "uploaded"));
        }
        Ok(Json(out))
    })
    .await
}

#[utoipa::path(post, path = "/clubs", tag = "microfut",
    request_body(content = Object, description = "A club file (schemas/club.schema.json)", content_type = "application/json"),
    responses(
        (status = 201, description = "Valid and stored", body = ClubUploaded),
        (status = 400, body = ErrorBody), (status = 409, description = "A club with this id exists", body = ErrorBody),
        (status = 413, body = ErrorBody), (status = 415, body = ErrorBody),
        (status = 422, description = "Invalid: the first problem's pointer is the field", body = ErrorBody)))]
async fn upload_club(State(runs): State<AppRuns>, RawJson(body): RawJson) -> Response {
    let res = blocking(move || {
        // A body that is not an object is told what a club file is, not serde's type name.
        if !body.trim_ascii_start().starts_with(b"{")
            && let Ok(value) = microfut_core::catalog::from_json::<serde_json::Value>(&body)
            && let Some(expected) = crate::server::body::expected_object::<microfut_football::club::Club>(&value)
        {
            return Err(ApiError::invalid("/", format!("{expected} (a club file: schemas/club.schema.json)")));
        }
        let (club, schema) =
            microfut_football::sheet::read_document::<microfut_football::club::Club>(&body, "club", "club.schema.json")
                .map_err(|e| match e {
                    microfut_football::sheet::SheetFileError::Unreadable(problems) => {
                        let first = problems.first();
                        ApiError::invalid(
                            first.map_or("/", |d| d.pointer.as_str()),
                            problems.iter().map(|d| d.to_string()).collect::<Vec<_>>().join("; "),
                        )
                    }
                    other => ApiError::new(StatusCode::BAD_REQUEST, "malformed_json", other.to_string(), Some("body")),
                })?;
        let rules = runs.rules(None, "revision")?;
        let report = club.validate(&rules.rs, schema).map_err(|e| ApiError::unavailable(format!("club rules: {e}")))?;
        if !report.is_valid() {
            let first = &report.problems[0];
            let file = format!("clubs/{}.json (uploaded)", club.id);
            return Err(ApiError::invalid(
                if first.pointer.is_empty() { "/" } else { &first.pointer },
                report.problems.iter().map(|p| p.line(&file)).collect::<Vec<_>>().join("; "),
            ));
        }
        let sample =
            runs.catalog.ruleset("microfut").is_ok_and(|e| e.extra.contains_key(&format!("clubs/{}.json", club.id)));
        if sample || !runs.store.add_club(&club).map_err(|e| ApiError::unavailable(e.to_string()))? {
            return Err(ApiError::conflict("club_exists", Some("/id"), format!("a club '{}' exists already", club.id)));
        }
        Ok(ClubUploaded {
            id: club.id.clone(),
            name: club.name.clone(),
            report: serde_json::to_value(&report).expect("reports serialise"),
        })
    })
    .await;
    match res {
        Ok(v) => (StatusCode::CREATED, Json(v)).into_response(),
        Err(e) => e.into_response(),
    }
}

#[utoipa::path(get, path = "/clubs/{club_id}", tag = "microfut",
    params(("club_id" = String, Path, description = "A club's id")),
    responses((status = 200, description = "The club file", body = Object), (status = 404, body = ErrorBody)))]
async fn get_club(
    State(runs): State<AppRuns>,
    PathParams(club_id): PathParams<String>,
) -> ApiResult<Json<serde_json::Value>> {
    blocking(move || {
        let (club, _) = runs.club_file(&club_id, "club_id").map_err(|e| ApiError::not_found("club_id", e.message))?;
        Ok(Json(club))
    })
    .await
}

#[utoipa::path(post, path = "/runs", tag = "microfut", request_body = CreateRun,
    responses(
        (status = 201, description = "The run, its pinned revision and its write token", body = CreatedRun),
        (status = 400, body = ErrorBody), (status = 413, body = ErrorBody), (status = 415, body = ErrorBody),
        (status = 422, body = ErrorBody)))]
async fn create_run(State(runs): State<AppRuns>, JsonBody(req): JsonBody<CreateRun>) -> Response {
    match blocking(move || runs.create(req)).await {
        Ok(v) => {
            let location = format!("/api/v1/runs/{}", v.run_id);
            (StatusCode::CREATED, [(header::LOCATION, location)], Json(v)).into_response()
        }
        Err(e) => e.into_response(),
    }
}

#[utoipa::path(get, path = "/runs/{run_id}", tag = "microfut",
    params(("run_id" = String, Path, description = RUN_ID)),
    responses((status = 200, body = RunView), (status = 404, body = ErrorBody), (status = 409, body = ErrorBody)))]
async fn get_run(State(runs): State<AppRuns>, PathParams(run_id): PathParams<String>) -> ApiResult<Json<RunView>> {
    blocking(move || runs.view(&run_id).map(Json)).await
}

#[utoipa::path(delete, path = "/runs/{run_id}", tag = "microfut",
    params(("run_id" = String, Path, description = RUN_ID)),
    security(("bearer" = [])),
    responses(
        (status = 204, description = "The run and every row of it are deleted"),
        (status = 400, body = ErrorBody), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody),
        (status = 404, body = ErrorBody),
        (status = 503, description = "The store could not write (a full disk, a vanished file): nothing was deleted", body = ErrorBody)))]
async fn delete_run(
    State(runs): State<AppRuns>,
    PathParams(run_id): PathParams<String>,
    Bearer(token): Bearer,
) -> Response {
    match runs.delete_async(&run_id, token).await {
        Ok(()) => StatusCode::NO_CONTENT.into_response(),
        Err(e) => e.into_response(),
    }
}

#[utoipa::path(post, path = "/runs/{run_id}/advance", tag = "microfut",
    params(("run_id" = String, Path, description = RUN_ID)), request_body = AdvanceRequest,
    security(("bearer" = [])),
    responses(
        (status = 200, body = AdvanceResult),
        (status = 400, body = ErrorBody), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody),
        (status = 404, body = ErrorBody),
        (status = 409, description = "A decision is pending, or the match is over", body = ErrorBody),
        (status = 413, body = ErrorBody), (status = 415, body = ErrorBody), (status = 422, body = ErrorBody)))]
async fn advance(
    State(runs): State<AppRuns>,
    PathParams(run_id): PathParams<String>,
    Bearer(token): Bearer,
    JsonBody(req): JsonBody<AdvanceRequest>,
) -> ApiResult<Json<AdvanceResult>> {
    runs.advance_async(&run_id, token, req).await.map(Json)
}

#[utoipa::path(get, path = "/runs/{run_id}/candidates", tag = "microfut",
    params(("run_id" = String, Path, description = RUN_ID)),
    responses(
        (status = 200, description = "The pending decision's candidates with exact odds and explanations", body = CandidatesView),
        (status = 404, body = ErrorBody), (status = 409, description = "No decision is pending", body = ErrorBody)))]
async fn candidates(
    State(runs): State<AppRuns>,
    PathParams(run_id): PathParams<String>,
) -> ApiResult<Json<CandidatesView>> {
    blocking(move || runs.candidates(&run_id).map(Json)).await
}

#[utoipa::path(post, path = "/runs/{run_id}/intents", tag = "microfut",
    params(("run_id" = String, Path, description = RUN_ID)), request_body = IntentRequest,
    security(("bearer" = [])),
    responses(
        (status = 200, description = "The round played: the dice, the margins, what happened", body = IntentResult),
        (status = 400, body = ErrorBody), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody),
        (status = 404, body = ErrorBody), (status = 409, description = "No decision is pending", body = ErrorBody),
        (status = 413, body = ErrorBody), (status = 415, body = ErrorBody),
        (status = 422, description = "Not among the candidates: the run is unchanged", body = ErrorBody)))]
async fn declare_intent(
    State(runs): State<AppRuns>,
    PathParams(run_id): PathParams<String>,
    Bearer(token): Bearer,
    JsonBody(req): JsonBody<IntentRequest>,
) -> ApiResult<Json<IntentResult>> {
    runs.intent_async(&run_id, token, req).await.map(Json)
}

const LIMIT: u32 = 100_000;

#[utoipa::path(get, path = "/runs/{run_id}/events", tag = "microfut",
    params(("run_id" = String, Path, description = RUN_ID), FromQuery),
    responses((status = 200, body = EventsView), (status = 404, body = ErrorBody), (status = 422, body = ErrorBody)))]
async fn events(
    State(runs): State<AppRuns>,
    PathParams(run_id): PathParams<String>,
    QueryParams(q): QueryParams<FromQuery>,
) -> ApiResult<Json<EventsView>> {
    blocking(move || {
        let run = runs.stored(&run_id)?;
        let from = q.from.unwrap_or(0);
        let limit = q.limit.unwrap_or(LIMIT).min(LIMIT) as usize;
        let unavailable = |e: crate::store::StoreError| ApiError::unavailable(e.to_string());
        let events = runs.store.events(&run_id, from, limit).map_err(unavailable)?;
        let rounds = runs
            .store
            .rounds(&run_id, from, limit)
            .map_err(unavailable)?
            .into_iter()
            .map(|r| RoundRolls { round: r.round, hash: r.hash, rolls: runs.stored_rolls(&run.run, &r.rolls) })
            .collect();
        Ok(Json(EventsView { run_id, from, events, rounds }))
    })
    .await
}

#[utoipa::path(get, path = "/runs/{run_id}/decisions", tag = "microfut",
    params(("run_id" = String, Path, description = RUN_ID), FromQuery),
    responses((status = 200, body = DecisionsView), (status = 404, body = ErrorBody), (status = 422, body = ErrorBody)))]
async fn decisions(
    State(runs): State<AppRuns>,
    PathParams(run_id): PathParams<String>,
    QueryParams(q): QueryParams<FromQuery>,
) -> ApiResult<Json<DecisionsView>> {
    blocking(move || {
        let run = runs.stored(&run_id)?;
        let limit = q.limit.unwrap_or(LIMIT).min(LIMIT) as usize;
        let decisions = runs
            .store
            .decisions(&run_id, q.from.unwrap_or(0), limit)
            .map_err(|e| ApiError::unavailable(e.to_string()))?;
        Ok(Json(DecisionsView { run_id, retention: run.run.retention, total: run.decisions, decisions }))
    })
    .await
}

#[utoipa::path(get, path = "/runs/{run_id}/record", tag = "microfut",
    params(("run_id" = String, Path, description = RUN_ID)),
    responses(
        (status = 200, description = "The run record `microfut replay` reads (committed rounds)", body = Object),
        (status = 404, body = ErrorBody)))]
async fn record(State(runs): State<AppRuns>, PathParams(run_id): PathParams<String>) -> Response {
    let res = blocking(move || {
        let record = runs
            .store
            .record(&run_id)
            .map_err(|e| ApiError::unavailable(e.to_string()))?
            .ok_or_else(|| ApiError::not_found("runId", format!("no run '{run_id}'")))?;
        Ok((run_id, serde_json::to_string(&record).expect("records serialise")))
    })
    .await;
    match res {
        Ok((id, body)) => (
            [
                (header::CONTENT_TYPE, "application/json".to_string()),
                (header::CONTENT_DISPOSITION, format!("attachment; filename=\"run-{id}.json\"")),
            ],
            body,
        )
            .into_response(),
        Err(e) => e.into_response(),
    }
}

#[utoipa::path(get, path = "/runs/{run_id}/players/{player_id}", tag = "microfut",
    params(("run_id" = String, Path, description = RUN_ID), ("player_id" = String, Path, description = "home-<shirt> or away-<shirt>")),
    responses((status = 200, body = PlayerSheetView), (status = 404, body = ErrorBody), (status = 422, body = ErrorBody)))]
async fn player_sheet(
    State(runs): State<AppRuns>,
    PathParams((run_id, player_id)): PathParams<(String, String)>,
) -> ApiResult<Json<PlayerSheetView>> {
    blocking(move || runs.sheet(&run_id, &player_id).map(Json)).await
}

#[utoipa::path(get, path = "/runs/{run_id}/players/{player_id}/attributes", tag = "microfut",
    params(("run_id" = String, Path, description = RUN_ID), ("player_id" = String, Path, description = "home-<shirt> or away-<shirt>")),
    responses(
        (status = 200, description = "Base against effective values in the match context; a read: no die, no write", body = AttributesView),
        (status = 404, body = ErrorBody), (status = 422, body = ErrorBody)))]
async fn player_attributes(
    State(runs): State<AppRuns>,
    PathParams((run_id, player_id)): PathParams<(String, String)>,
) -> ApiResult<Json<AttributesView>> {
    blocking(move || runs.attributes(&run_id, &player_id).map(Json)).await
}
