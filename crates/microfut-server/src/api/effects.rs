//! World 1's routes under `/api/v1` (seed 002): its modes, journeys played on the server, their
//! records, and the read-only projections `GET /runs/{runId}/character-attributes` and
//! `GET /combats/{combatId}/actors/{actorId}/attributes`. Each handler parses and calls one
//! function of [`Journeys`]; blocking work runs on tokio's blocking pool.

use super::journeys::*;
use crate::error::{ApiError, ApiResult, Bearer, ErrorBody, JsonBody, PathParams};
use axum::Json;
use axum::extract::State;
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use microfut_effects::project::AttributeRead;
use std::sync::Arc;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

pub type AppJourneys = Arc<Journeys>;

async fn blocking<T: Send + 'static>(f: impl FnOnce() -> ApiResult<T> + Send + 'static) -> ApiResult<T> {
    tokio::task::spawn_blocking(f).await.map_err(|e| ApiError::unavailable(format!("internal failure: {e}")))?
}

pub fn routes(journeys: AppJourneys) -> OpenApiRouter {
    OpenApiRouter::new()
        .routes(routes!(modes))
        .routes(routes!(create_journey))
        .routes(routes!(get_journey, delete_journey))
        .routes(routes!(command))
        .routes(routes!(autoplay))
        .routes(routes!(journey_record))
        .routes(routes!(character_attributes))
        .routes(routes!(actor_attributes))
        .with_state(journeys)
}

const RUN_ID: &str = "A journey's id (from POST /effects/journeys).";
const COMBAT_ID: &str =
    "A combat's id, `<runId>.c<n>` (the n-th combat of the journey), from a journey's `combat.combatId`.";

#[utoipa::path(get, path = "/effects/modes", tag = "effects",
    responses((status = 200, description = "World 1's modes and the policy each selects", body = ModesView),
        (status = 422, body = ErrorBody)))]
async fn modes(State(j): State<AppJourneys>) -> ApiResult<Json<ModesView>> {
    blocking(move || j.modes().map(Json)).await
}

#[utoipa::path(post, path = "/effects/journeys", tag = "effects", request_body = CreateJourney,
    responses(
        (status = 201, description = "The journey, its pinned revision, mode and policy, and its write token", body = CreatedJourney),
        (status = 400, body = ErrorBody), (status = 413, body = ErrorBody), (status = 415, body = ErrorBody),
        (status = 422, body = ErrorBody)))]
async fn create_journey(State(j): State<AppJourneys>, JsonBody(req): JsonBody<CreateJourney>) -> Response {
    match blocking(move || j.create(req)).await {
        Ok(v) => {
            let location = format!("/api/v1/effects/journeys/{}", v.journey.run_id);
            (StatusCode::CREATED, [(header::LOCATION, location)], Json(v)).into_response()
        }
        Err(e) => e.into_response(),
    }
}

#[utoipa::path(get, path = "/effects/journeys/{run_id}", tag = "effects",
    params(("run_id" = String, Path, description = RUN_ID)),
    responses((status = 200, body = JourneyView), (status = 404, body = ErrorBody), (status = 409, body = ErrorBody)))]
async fn get_journey(
    State(j): State<AppJourneys>,
    PathParams(run_id): PathParams<String>,
) -> ApiResult<Json<JourneyView>> {
    blocking(move || j.get(&run_id).map(Json)).await
}

#[utoipa::path(delete, path = "/effects/journeys/{run_id}", tag = "effects",
    params(("run_id" = String, Path, description = RUN_ID)),
    security(("bearer" = [])),
    responses(
        (status = 204, description = "The journey and its commands are deleted"),
        (status = 400, body = ErrorBody), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody),
        (status = 404, body = ErrorBody),
        (status = 503, description = "The store could not write (a full disk, a vanished file): nothing was deleted", body = ErrorBody)))]
async fn delete_journey(
    State(j): State<AppJourneys>,
    PathParams(run_id): PathParams<String>,
    Bearer(token): Bearer,
) -> Response {
    match blocking(move || j.delete(&run_id, &token)).await {
        Ok(()) => StatusCode::NO_CONTENT.into_response(),
        Err(e) => e.into_response(),
    }
}

#[utoipa::path(post, path = "/effects/journeys/{run_id}/commands", tag = "effects",
    params(("run_id" = String, Path, description = RUN_ID)), request_body = CommandRequest,
    security(("bearer" = [])),
    responses(
        (status = 200, description = "The command committed, what it did, the journey after it", body = CommandsResult),
        (status = 400, body = ErrorBody), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody),
        (status = 404, body = ErrorBody),
        (status = 409, description = "Not in this phase (no combat, in combat, journey over)", body = ErrorBody),
        (status = 413, body = ErrorBody), (status = 415, body = ErrorBody),
        (status = 422, description = "Refused (no such card, too expensive, a bad target): the journey is unchanged", body = ErrorBody)))]
async fn command(
    State(j): State<AppJourneys>,
    PathParams(run_id): PathParams<String>,
    Bearer(token): Bearer,
    JsonBody(req): JsonBody<CommandRequest>,
) -> ApiResult<Json<CommandsResult>> {
    blocking(move || j.command(&run_id, &token, req).map(Json)).await
}

#[utoipa::path(post, path = "/effects/journeys/{run_id}/autoplay", tag = "effects",
    params(("run_id" = String, Path, description = RUN_ID)), request_body = AutoplayRequest,
    security(("bearer" = [])),
    responses(
        (status = 200, description = "The automatic player's commands, committed in one transaction", body = CommandsResult),
        (status = 400, body = ErrorBody), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody),
        (status = 404, body = ErrorBody), (status = 409, description = "The journey is over", body = ErrorBody),
        (status = 413, body = ErrorBody), (status = 415, body = ErrorBody), (status = 422, body = ErrorBody)))]
async fn autoplay(
    State(j): State<AppJourneys>,
    PathParams(run_id): PathParams<String>,
    Bearer(token): Bearer,
    JsonBody(req): JsonBody<AutoplayRequest>,
) -> ApiResult<Json<CommandsResult>> {
    blocking(move || j.autoplay(&run_id, &token, req).map(Json)).await
}

#[utoipa::path(get, path = "/effects/journeys/{run_id}/record", tag = "effects",
    params(("run_id" = String, Path, description = RUN_ID)),
    responses(
        (status = 200, description = "The journey record `microfut effects replay` reads (committed commands)", body = Object),
        (status = 404, body = ErrorBody), (status = 409, body = ErrorBody)))]
async fn journey_record(State(j): State<AppJourneys>, PathParams(run_id): PathParams<String>) -> Response {
    let res = blocking(move || {
        let record = j.record(&run_id)?;
        Ok((run_id, serde_json::to_string(&record).expect("records serialise")))
    })
    .await;
    match res {
        Ok((id, body)) => (
            [
                (header::CONTENT_TYPE, "application/json".to_string()),
                (header::CONTENT_DISPOSITION, format!("attachment; filename=\"journey-{id}.json\"")),
            ],
            body,
        )
            .into_response(),
        Err(e) => e.into_response(),
    }
}

#[utoipa::path(get, path = "/runs/{run_id}/character-attributes", tag = "effects",
    params(("run_id" = String, Path, description = RUN_ID)),
    responses(
        (status = 200, description = "The hero's attributes (the encounter's actor in combat, the persistent character \
            between encounters) and critical rules: base against effective, every contribution. A read: no die, no \
            settlement, no resource change, no commit. A mode without a policy: an empty collection.", body = AttributeRead),
        (status = 404, body = ErrorBody), (status = 409, body = ErrorBody)))]
async fn character_attributes(
    State(j): State<AppJourneys>,
    PathParams(run_id): PathParams<String>,
) -> ApiResult<Json<AttributeRead>> {
    blocking(move || j.character_attributes(&run_id).map(Json)).await
}

#[utoipa::path(get, path = "/combats/{combat_id}/actors/{actor_id}/attributes", tag = "effects",
    params(("combat_id" = String, Path, description = COMBAT_ID),
        ("actor_id" = String, Path, description = "An actor of the combat (`hero`, or an enemy's id from the journey's `combat.actors`)")),
    responses(
        (status = 200, description = "An actor of the active combat as its current version has it. A read: no die, no \
            settlement, no resource change, no commit.", body = AttributeRead),
        (status = 404, body = ErrorBody),
        (status = 409, description = "The combat is not the journey's active one", body = ErrorBody)))]
async fn actor_attributes(
    State(j): State<AppJourneys>,
    PathParams((combat_id, actor_id)): PathParams<(String, String)>,
) -> ApiResult<Json<AttributeRead>> {
    blocking(move || j.actor_attributes(&combat_id, &actor_id).map(Json)).await
}
