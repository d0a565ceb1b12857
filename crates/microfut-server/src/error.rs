//! Errors as both servers answer them (`microfut serve` and the Space Football battlefield) —
//! `{"error": {"code", "message", "field"}}` with a 4xx status, or a 503 with `Retry-After` when
//! the server's own store fails — and the extractors that turn every malformed request into one:
//! a body that is not JSON, too large, of the wrong content type, with an unknown or mistyped
//! field; a path or query value that does not parse; a missing or malformed bearer token. The
//! field names the JSON pointer (`/home`, `/` for the whole body), the query or path parameter,
//! or the header (`Content-Type`, `Authorization`).

use axum::extract::{FromRequest, FromRequestParts, Request};
use axum::http::{StatusCode, header, request::Parts};
use axum::response::{IntoResponse, Response};
use serde::Serialize;
use serde::de::DeserializeOwned;

/// What a 503 asks a client to wait before it tries again.
pub const RETRY_AFTER_SECONDS: &str = "30";

/// The largest request body `microfut serve` accepts (a club file with 25 sheets is ~40 KB); an
/// area with larger bodies names its own limit in [`JsonBody`]'s second parameter.
pub const BODY_LIMIT: usize = 1 << 20;

#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
pub struct ErrorBody {
    pub error: ErrorDetail,
}

#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
pub struct ErrorDetail {
    /// A stable machine-readable code (`not_found`, `invalid_field`, `decision_pending`, …).
    pub code: String,
    pub message: String,
    /// The field at fault: a JSON pointer into the body, a path or query parameter, a header.
    pub field: Option<String>,
}

#[derive(Debug, Clone)]
pub struct ApiError {
    pub status: StatusCode,
    pub code: &'static str,
    pub message: String,
    pub field: Option<String>,
}

impl ApiError {
    pub fn new(status: StatusCode, code: &'static str, message: impl Into<String>, field: Option<&str>) -> Self {
        ApiError { status, code, message: message.into(), field: field.map(str::to_string) }
    }
    pub fn invalid(field: &str, message: impl Into<String>) -> Self {
        Self::new(StatusCode::UNPROCESSABLE_ENTITY, "invalid_field", message, Some(field))
    }
    pub fn not_found(field: &str, message: impl Into<String>) -> Self {
        Self::new(StatusCode::NOT_FOUND, "not_found", message, Some(field))
    }
    pub fn conflict(code: &'static str, field: Option<&str>, message: impl Into<String>) -> Self {
        Self::new(StatusCode::CONFLICT, code, message, field)
    }
    /// The server could not do its part (the store failed): not the client's fault.
    pub fn unavailable(message: impl Into<String>) -> Self {
        Self::new(StatusCode::SERVICE_UNAVAILABLE, "unavailable", message, None)
    }
    /// A path no route serves.
    pub fn no_route(uri: &axum::http::Uri) -> Self {
        Self::new(StatusCode::NOT_FOUND, "not_found", format!("no route {}", uri.path()), Some("path"))
    }
    /// A route that exists, asked with a method it does not answer.
    pub fn method_not_allowed(method: &axum::http::Method, uri: &axum::http::Uri) -> Self {
        Self::new(
            StatusCode::METHOD_NOT_ALLOWED,
            "method_not_allowed",
            format!("{method} is not allowed on {}", uri.path()),
            Some("method"),
        )
    }
}

/// The fallback of a router: every unknown path is a 404 naming `path`.
pub async fn not_found(uri: axum::http::Uri) -> ApiError {
    ApiError::no_route(&uri)
}

/// The method fallback of a router: a 405 naming `method`.
pub async fn method_not_allowed(method: axum::http::Method, uri: axum::http::Uri) -> ApiError {
    ApiError::method_not_allowed(&method, &uri)
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let body =
            ErrorBody { error: ErrorDetail { code: self.code.into(), message: self.message, field: self.field } };
        let mut response = (self.status, axum::Json(body)).into_response();
        // The server's own condition (a full disk, a store that went away): worth asking again.
        if self.status == StatusCode::SERVICE_UNAVAILABLE {
            response.headers_mut().insert(header::RETRY_AFTER, header::HeaderValue::from_static(RETRY_AFTER_SECONDS));
        }
        response
    }
}

pub type ApiResult<T> = Result<T, ApiError>;

/// The bytes of a JSON request body: `application/json` in UTF-8, at most `LIMIT` bytes, arrived
/// within the server's body timeout. (The router's `DefaultBodyLimit` must be at least `LIMIT`.)
pub struct RawJson<const LIMIT: usize = BODY_LIMIT>(pub axum::body::Bytes);

impl<S: Send + Sync, const LIMIT: usize> FromRequest<S> for RawJson<LIMIT> {
    type Rejection = ApiError;

    async fn from_request(req: Request, state: &S) -> Result<Self, Self::Rejection> {
        crate::server::body::check_media_type(req.headers()).map_err(|m| {
            ApiError::new(StatusCode::UNSUPPORTED_MEDIA_TYPE, "unsupported_media_type", m, Some("Content-Type"))
        })?;
        crate::server::body::check_declared_length(req.headers(), LIMIT)
            .map_err(|m| ApiError::new(StatusCode::PAYLOAD_TOO_LARGE, "body_too_large", m, Some("body")))?;
        let bytes = axum::body::Bytes::from_request(req, state).await.map_err(|e| {
            if e.status() == StatusCode::PAYLOAD_TOO_LARGE {
                ApiError::new(
                    StatusCode::PAYLOAD_TOO_LARGE,
                    "body_too_large",
                    format!("the body is larger than {LIMIT} bytes"),
                    Some("body"),
                )
            } else if let Some(t) = crate::server::body::timed_out(&e) {
                ApiError::new(StatusCode::REQUEST_TIMEOUT, "request_timeout", t.to_string(), Some("body"))
            } else {
                ApiError::new(StatusCode::BAD_REQUEST, "unreadable_body", e.body_text(), Some("body"))
            }
        })?;
        crate::server::body::check_encoding(&bytes)
            .map_err(|m| ApiError::new(StatusCode::UNSUPPORTED_MEDIA_TYPE, "unsupported_encoding", m, Some("body")))?;
        Ok(RawJson(bytes))
    }
}

/// A JSON request body: bounded, `application/json`, read strictly (duplicate keys refused),
/// unknown fields refused by the target type, every problem naming its JSON pointer.
pub struct JsonBody<T, const LIMIT: usize = BODY_LIMIT>(pub T);

impl<T: DeserializeOwned, S: Send + Sync, const LIMIT: usize> FromRequest<S> for JsonBody<T, LIMIT> {
    type Rejection = ApiError;

    async fn from_request(req: Request, state: &S) -> Result<Self, Self::Rejection> {
        let RawJson::<LIMIT>(bytes) = RawJson::from_request(req, state).await?;
        parse_json(&bytes).map(JsonBody)
    }
}

/// Strict JSON into `T`, naming the pointer of the first value that does not fit.
pub fn parse_json<T: DeserializeOwned>(bytes: &[u8]) -> ApiResult<T> {
    let value: serde_json::Value = microfut_core::catalog::from_json(bytes).map_err(|e| {
        ApiError::new(
            StatusCode::BAD_REQUEST,
            "malformed_json",
            format!("not valid JSON: {}", microfut_core::catalog::describe_json_error(&e)),
            Some("body"),
        )
    })?;
    if let Some(expected) = crate::server::body::expected_object::<T>(&value) {
        return Err(ApiError::invalid("/", expected));
    }
    serde_path_to_error::deserialize::<_, T>(value).map_err(|e| {
        let pointer = pointer_of(e.path());
        ApiError::invalid(&pointer, crate::server::body::plain(&e.inner().to_string()))
    })
}

fn pointer_of(path: &serde_path_to_error::Path) -> String {
    use serde_path_to_error::Segment;
    let mut out = String::new();
    for seg in path.iter() {
        match seg {
            Segment::Seq { index } => out.push_str(&format!("/{index}")),
            Segment::Map { key } | Segment::Enum { variant: key } => {
                out.push('/');
                out.push_str(&microfut_core::catalog::escape_token(key));
            }
            Segment::Unknown => {}
        }
    }
    // An unknown field is reported at its parent; serde names it in the message.
    if out.is_empty() { "/".into() } else { out }
}

/// Query parameters into `T` (unknown parameters refused by `T`), naming the parameter.
pub struct QueryParams<T>(pub T);

impl<T: DeserializeOwned, S: Send + Sync> FromRequestParts<S> for QueryParams<T> {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, _: &S) -> Result<Self, Self::Rejection> {
        let q = parts.uri.query().unwrap_or("");
        let de = serde_urlencoded::Deserializer::new(form_urlencoded_parse(q));
        serde_path_to_error::deserialize::<_, T>(de).map(QueryParams).map_err(|e| {
            let field = e.path().iter().next_back().map(|s| s.to_string()).filter(|s| !s.is_empty() && s != "?");
            let msg = e.inner().to_string();
            // serde names an unknown parameter only in its message.
            let field = field.or_else(|| msg.split('`').nth(1).map(str::to_string)).unwrap_or_else(|| "query".into());
            ApiError::invalid(&field, format!("query parameter: {msg}"))
        })
    }
}

fn form_urlencoded_parse(q: &str) -> form_urlencoded::Parse<'_> {
    form_urlencoded::parse(q.as_bytes())
}

/// The bearer token of a write, from `Authorization: Bearer …`.
pub struct Bearer(pub String);

impl<S: Send + Sync> FromRequestParts<S> for Bearer {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, _: &S) -> Result<Self, Self::Rejection> {
        let value = parts.headers.get(header::AUTHORIZATION).ok_or_else(|| {
            ApiError::new(
                StatusCode::UNAUTHORIZED,
                "unauthorized",
                "this write needs its token: Authorization: Bearer <token>",
                Some("Authorization"),
            )
        })?;
        let token = value
            .to_str()
            .ok()
            .and_then(|v| v.strip_prefix("Bearer ").or_else(|| v.strip_prefix("bearer ")))
            .map(str::trim)
            .filter(|t| !t.is_empty())
            .ok_or_else(|| {
                ApiError::new(
                    StatusCode::UNAUTHORIZED,
                    "unauthorized",
                    "the Authorization header must be 'Bearer <token>'",
                    Some("Authorization"),
                )
            })?;
        Ok(Bearer(token.to_string()))
    }
}

/// Path parameters; a segment that cannot be decoded is a 400 naming the path.
pub struct PathParams<T>(pub T);

impl<T: DeserializeOwned + Send, S: Send + Sync> FromRequestParts<S> for PathParams<T> {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, Self::Rejection> {
        axum::extract::Path::<T>::from_request_parts(parts, state)
            .await
            .map(|p| PathParams(p.0))
            .map_err(|e| ApiError::new(StatusCode::BAD_REQUEST, "invalid_path", e.body_text(), Some("path")))
    }
}
