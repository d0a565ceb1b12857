//! Microfut's servers: the HTTP API and pages of `microfut serve` (`api`), the run store
//! (`store`, on `sqlite_file`), our own connection loop with its timeouts and limits (`server`),
//! and Space Football's championship server (`space_web`). Games know nothing of this crate.

pub mod api;
pub mod assets;
pub mod error;
pub mod migrations;
pub mod openapi;
pub mod server;
pub mod space_web;
pub mod sqlite_file;
pub mod store;
