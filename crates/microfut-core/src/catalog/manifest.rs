//! The manifest of a revision and the catalog file of a ruleset.

use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Status {
    Draft,
    Published,
}

/// Display labels, pt-BR and en.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Default)]
pub struct Labels {
    #[serde(rename = "pt-BR")]
    pub pt_br: String,
    pub en: String,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Manifest {
    #[serde(rename = "$schema")]
    pub schema: String,
    /// The ruleset this revision belongs to (`microfut`, `trilha`).
    pub id: String,
    pub version: String,
    /// Semver requirement on the engine version, e.g. `>=0.5.0, <0.6.0`.
    pub engine: String,
    pub parent: Option<String>,
    pub status: Status,
    pub change_note: String,
    pub label: Labels,
    /// The revision's documents (file names in its folder), manifest excluded.
    pub documents: Vec<String>,
}

/// `content/<ruleset>/catalog.json`: the published revisions and their fingerprints.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CatalogFile {
    #[serde(rename = "$schema")]
    pub schema: String,
    pub ruleset: String,
    pub label: Labels,
    pub published: Vec<PublishedEntry>,
}

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct PublishedEntry {
    pub version: String,
    pub fingerprint: String,
    pub published_on: String,
}

impl CatalogFile {
    pub fn entry(&self, version: &str) -> Option<&PublishedEntry> {
        self.published.iter().find(|e| e.version == version)
    }
}

// The OpenAPI schema of labels, for the servers' documents (feature `openapi`): here because
// the orphan rule lets only the crate that owns `Labels` (or utoipa) implement utoipa's traits.
#[cfg(feature = "openapi")]
impl utoipa::ToSchema for Labels {}
#[cfg(feature = "openapi")]
impl utoipa::PartialSchema for Labels {
    fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
        use utoipa::openapi::{ObjectBuilder, schema::Type};
        ObjectBuilder::new()
            .property("pt-BR", ObjectBuilder::new().schema_type(Type::String))
            .property("en", ObjectBuilder::new().schema_type(Type::String))
            .required("pt-BR")
            .required("en")
            .into()
    }
}
