//! Clubs (rules document Part V): personality for NPC decisions, identity for development, a
//! budget and a squad of sheets.

pub mod generate;
pub mod rules;
mod validate;

pub use generate::{GenerateError, Request};
pub use rules::ClubRules;
pub use validate::{ClubProblem, ClubReport, PlayerSummary};

use crate::catalog::Diagnostic;
use crate::sheet::{Sheet, SheetFileError, read_document, read_file};
use serde::{Deserialize, Serialize};
use std::path::Path;

/// Club personality (document §13): axes −3..+3 that shape NPC choices, never technique.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ClubPersonality {
    pub verticality: i32,
    pub security: i32,
    pub risk_tolerance: i32,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Club {
    #[serde(rename = "$schema", default, skip_serializing_if = "Option::is_none")]
    pub schema: Option<String>,
    pub id: String,
    pub name: String,
    pub personality: ClubPersonality,
    /// Where the club concentrates development (document §19) — not its personality.
    pub identity: String,
    /// Net XP the squad may cost.
    pub budget: u64,
    pub squad: Vec<Sheet>,
}

#[derive(Debug, thiserror::Error)]
pub enum ClubError {
    #[error("cannot read club file {path}: {source}")]
    Io { path: String, source: std::io::Error },
    #[error("{path}: {message}")]
    Json { path: String, line: usize, column: usize, message: String },
}

impl Club {
    pub fn load(path: &Path) -> Result<Club, ClubError> {
        let text = std::fs::read(path).map_err(|source| ClubError::Io { path: path.display().to_string(), source })?;
        Self::parse(&text, &path.display().to_string())
    }

    /// Reads a club file checked against `club.schema.json`: the club, and the schema problems
    /// that did not stop reading it (for [`Club::validate`]).
    pub fn read(path: &Path) -> Result<(Club, Vec<Diagnostic>), SheetFileError> {
        read_document(&read_file(path)?, &path.display().to_string(), "club.schema.json")
    }

    /// A club from a JSON value (the sample clubs embedded with the content).
    pub fn from_value(value: serde_json::Value) -> Result<Club, serde_json::Error> {
        serde_json::from_value(value)
    }

    pub fn parse(bytes: &[u8], name: &str) -> Result<Club, ClubError> {
        crate::catalog::from_json(bytes).map_err(|e| ClubError::Json {
            path: name.to_string(),
            line: e.line(),
            column: e.column(),
            message: crate::catalog::describe_json_error(&e),
        })
    }
}
