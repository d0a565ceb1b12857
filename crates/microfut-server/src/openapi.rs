//! What every OpenAPI document the servers publish has in common: the `info` the crate declares
//! (title, version, description — no contact or licence Cargo.toml does not declare), the bearer
//! scheme a write names, and a description for every response (OpenAPI requires one; a handler
//! that lists an error status without words gets what that status means in `crate::error`).

use utoipa::openapi::security::{Http, HttpAuthScheme, SecurityScheme};
use utoipa::openapi::{OpenApi, RefOr};

/// Sets `doc`'s info and security scheme and describes every response left undescribed.
pub fn finish(doc: &mut OpenApi, title: &str, description: &str) {
    doc.info.title = title.into();
    doc.info.version = env!("CARGO_PKG_VERSION").into();
    doc.info.description = Some(description.into());
    // utoipa fills these from its own crate's metadata, not ours.
    doc.info.contact = None;
    doc.info.license = None;
    let components = doc.components.get_or_insert_with(Default::default);
    components.add_security_scheme("bearer", SecurityScheme::Http(Http::new(HttpAuthScheme::Bearer)));
    for item in doc.paths.paths.values_mut() {
        let operations = [
            &mut item.get,
            &mut item.put,
            &mut item.post,
            &mut item.delete,
            &mut item.options,
            &mut item.head,
            &mut item.patch,
            &mut item.trace,
        ];
        for op in operations.into_iter().flatten() {
            for (status, response) in &mut op.responses.responses {
                if let RefOr::T(r) = response
                    && r.description.is_empty()
                {
                    r.description = meaning(status).into();
                }
            }
        }
    }
}

/// What a status means in these APIs (`crate::error`'s answers).
fn meaning(status: &str) -> &'static str {
    match status {
        "200" => "OK",
        "201" => "Created",
        "204" => "Done; no body",
        "400" => "Malformed: the body is not JSON, or a path segment does not decode; `field` names it",
        "401" => "No bearer token: `Authorization: Bearer <token>` is needed",
        "403" => "Not this resource's token",
        "404" => "No such resource; `field` names the identifier",
        "405" => "The path does not answer this method",
        "408" => "The body did not arrive in time",
        "409" => "The resource's state does not allow this now; `code` says why",
        "413" => "The body is larger than the route's limit",
        "415" => "Not `application/json` in UTF-8; `field` names `Content-Type` or `body`",
        "422" => "A value does not fit; `field` is its JSON pointer or parameter",
        "503" => "The server's store failed (a full disk, a vanished file): ask again after `Retry-After`",
        _ => "See the error body's `code` and `message`",
    }
}
