//! One connection's service: marks the phases of each request, bounds the time its body may
//! take, and makes sure every error answer is the JSON error body.

use super::body::BodyTimeout;
use super::conn::{ConnState, Phase};
use super::{Limits, MAX_URI, error_response};
use axum::Router;
use axum::body::{Body, Bytes, HttpBody};
use axum::http::{HeaderMap, Method, Request, Response, StatusCode, header};
use hyper::body::{Frame, Incoming, SizeHint};
use std::convert::Infallible;
use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};
use std::time::Duration;

type BoxError = Box<dyn std::error::Error + Send + Sync>;

pub(super) struct ConnService {
    app: Router,
    state: Arc<ConnState>,
    limits: Limits,
}

impl ConnService {
    pub(super) fn new(app: Router, state: Arc<ConnState>, limits: Limits) -> ConnService {
        ConnService { app, state, limits }
    }
}

impl hyper::service::Service<Request<Incoming>> for ConnService {
    type Response = Response<Tracked>;
    type Error = Infallible;
    type Future = Pin<Box<dyn Future<Output = Result<Response<Tracked>, Infallible>> + Send>>;

    fn call(&self, req: Request<Incoming>) -> Self::Future {
        let state = self.state.clone();
        state.enter(if req.body().is_end_stream() { Phase::Handling } else { Phase::Body });
        let target = req.uri().path_and_query().map_or(0, |p| p.as_str().len());
        if target > MAX_URI {
            let res = error_response(
                StatusCode::URI_TOO_LONG,
                "uri_too_long",
                &format!("the request target (path and query) is {target} bytes long; at most {MAX_URI} are read"),
                Some("uri"),
            );
            return Box::pin(std::future::ready(Ok(res.map(|b| Tracked::new(b, state)))));
        }
        let (method, path) = (req.method().clone(), req.uri().path().to_string());
        let req = req.map(|b| TimedBody::new(b, state.clone(), self.limits.body_timeout));
        let mut app = self.app.clone();
        let answer = tower_service::Service::call(&mut app, req);
        Box::pin(async move {
            let res = match CatchPanic(Box::pin(answer)).await {
                Some(Ok(res)) => as_json_error(res, &method, &path).await,
                Some(Err(never)) => match never {},
                None => error_response(
                    StatusCode::INTERNAL_SERVER_ERROR,
                    "internal_error",
                    "the server failed while answering this request (a defect: nothing it wrote is lost)",
                    None,
                ),
            };
            Ok(res.map(|b| Tracked::new(b, state)))
        })
    }
}

/// A request body that ends in an error once the body timeout has passed since its head was
/// read; the handler's extractor answers that as a 408.
pub(super) struct TimedBody {
    inner: Incoming,
    state: Arc<ConnState>,
    timeout: Duration,
    deadline: tokio::time::Instant,
    sleep: Option<Pin<Box<tokio::time::Sleep>>>,
}

impl TimedBody {
    fn new(inner: Incoming, state: Arc<ConnState>, timeout: Duration) -> TimedBody {
        TimedBody { inner, state, timeout, deadline: tokio::time::Instant::now() + timeout, sleep: None }
    }

    fn done(&self) {
        self.state.leave(Phase::Body, Phase::Handling);
    }
}

impl HttpBody for TimedBody {
    type Data = Bytes;
    type Error = BoxError;

    fn poll_frame(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Result<Frame<Bytes>, BoxError>>> {
        let this = &mut *self;
        match Pin::new(&mut this.inner).poll_frame(cx) {
            Poll::Ready(Some(Ok(frame))) => {
                if this.inner.is_end_stream() {
                    this.done();
                }
                Poll::Ready(Some(Ok(frame)))
            }
            Poll::Ready(Some(Err(e))) => {
                this.done();
                Poll::Ready(Some(Err(e.into())))
            }
            Poll::Ready(None) => {
                this.done();
                Poll::Ready(None)
            }
            Poll::Pending => {
                let deadline = this.deadline;
                let sleep = this.sleep.get_or_insert_with(|| Box::pin(tokio::time::sleep_until(deadline)));
                if sleep.as_mut().poll(cx).is_ready() {
                    this.done();
                    return Poll::Ready(Some(Err(Box::new(BodyTimeout(this.timeout)))));
                }
                Poll::Pending
            }
        }
    }

    fn is_end_stream(&self) -> bool {
        self.inner.is_end_stream()
    }

    fn size_hint(&self) -> SizeHint {
        self.inner.size_hint()
    }
}

impl Drop for TimedBody {
    fn drop(&mut self) {
        self.done();
    }
}

/// An answer's body: once hyper has taken all of it, the connection is idle again.
pub(super) struct Tracked {
    inner: Body,
    state: Arc<ConnState>,
}

impl Tracked {
    fn new(inner: Body, state: Arc<ConnState>) -> Tracked {
        Tracked { inner, state }
    }
}

impl HttpBody for Tracked {
    type Data = Bytes;
    type Error = axum::Error;

    fn poll_frame(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Result<Frame<Bytes>, axum::Error>>> {
        Pin::new(&mut self.inner).poll_frame(cx)
    }

    fn is_end_stream(&self) -> bool {
        self.inner.is_end_stream()
    }

    fn size_hint(&self) -> SizeHint {
        self.inner.size_hint()
    }
}

impl Drop for Tracked {
    fn drop(&mut self) {
        // A body the handler never read (dropped with the request) ends its phase too.
        self.state.leave(Phase::Body, Phase::Handling);
        self.state.leave(Phase::Handling, Phase::Idle);
    }
}

/// A handler's future with its panics caught: `None` if it panicked.
struct CatchPanic<F>(Pin<Box<F>>);

impl<F: Future> Future for CatchPanic<F> {
    type Output = Option<F::Output>;

    fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
        let inner = self.0.as_mut();
        match std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| inner.poll(cx))) {
            Ok(Poll::Ready(out)) => Poll::Ready(Some(out)),
            Ok(Poll::Pending) => Poll::Pending,
            Err(_) => Poll::Ready(None),
        }
    }
}

/// An error answer that is not the JSON error body (an extractor's rejection, a method router's
/// bodiless 405) becomes one, with its text as the message and its other headers kept.
async fn as_json_error(res: Response<Body>, method: &Method, path: &str) -> Response<Body> {
    let status = res.status();
    if !(status.is_client_error() || status.is_server_error()) || is_json(res.headers()) {
        return res;
    }
    let (parts, body) = res.into_parts();
    let text = axum::body::to_bytes(body, 4096)
        .await
        .ok()
        .and_then(|b| String::from_utf8(b.to_vec()).ok())
        .map(|t| t.trim().to_string())
        .filter(|t| !t.is_empty());
    let (code, field) = code_of(status);
    let message = text.unwrap_or_else(|| match status {
        StatusCode::METHOD_NOT_ALLOWED => {
            let allow = parts.headers.get(header::ALLOW).and_then(|v| v.to_str().ok()).unwrap_or("");
            format!("{method} is not allowed on {path} (allowed: {allow})")
        }
        StatusCode::NOT_FOUND => format!("no route {path}"),
        _ => status.canonical_reason().unwrap_or("error").to_string(),
    });
    let mut ours = error_response(status, code, &message, field);
    for (name, value) in &parts.headers {
        if name != header::CONTENT_TYPE && name != header::CONTENT_LENGTH {
            ours.headers_mut().append(name.clone(), value.clone());
        }
    }
    ours
}

fn is_json(headers: &HeaderMap) -> bool {
    headers
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.trim_start().to_ascii_lowercase().starts_with("application/json"))
}

/// The code and field of an error answer the server made without a handler's words.
fn code_of(status: StatusCode) -> (&'static str, Option<&'static str>) {
    match status {
        StatusCode::BAD_REQUEST => ("bad_request", None),
        StatusCode::NOT_FOUND => ("not_found", Some("path")),
        StatusCode::METHOD_NOT_ALLOWED => ("method_not_allowed", Some("method")),
        StatusCode::REQUEST_TIMEOUT => ("request_timeout", Some("body")),
        StatusCode::PAYLOAD_TOO_LARGE => ("body_too_large", Some("body")),
        StatusCode::URI_TOO_LONG => ("uri_too_long", Some("uri")),
        StatusCode::UNSUPPORTED_MEDIA_TYPE => ("unsupported_media_type", Some("Content-Type")),
        StatusCode::REQUEST_HEADER_FIELDS_TOO_LARGE => ("headers_too_large", Some("headers")),
        StatusCode::INTERNAL_SERVER_ERROR => ("internal_error", None),
        StatusCode::SERVICE_UNAVAILABLE => ("unavailable", None),
        s if s.is_server_error() => ("server_error", None),
        _ => ("client_error", None),
    }
}
