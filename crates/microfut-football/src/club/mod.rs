//! Clubs (rules document Part V): personality for NPC decisions, identity for development, a
//! budget and a squad of sheets.

pub mod generate;
pub mod rules;
pub mod source;
mod validate;

pub use generate::{GenerateError, Request};
pub use rules::ClubRules;
pub use validate::{ClubProblem, ClubReport, PlayerSummary};

use crate::sheet::rules::RulesError;
use crate::sheet::{Sheet, SheetFileError, read_document, read_file};
use microfut_core::catalog::Diagnostic;
use microfut_core::ruleset::Ruleset;
use serde::{Deserialize, Serialize};
use std::path::Path;

/// Club personality (document §13): three axes that shape NPC choices, never technique. One
/// type for the triple wherever it appears: whole values −3..+3 on a club's sheet
/// ([`ClubPersonality`]), real values where the NPC weighs them and the decision log records
/// them (the club's base and its in-match adaptation, `PersonalityAxes<f64>`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PersonalityAxes<T = i32> {
    pub verticality: T,
    pub security: T,
    pub risk_tolerance: T,
}

/// A club's personality as its sheet declares it.
pub type ClubPersonality = PersonalityAxes<i32>;

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

/// Why a club was refused by a command that plays it: it cannot be read, or it fails the checks
/// `club validate` runs. One line: the first problem by file and JSON pointer, and how many more.
#[derive(Debug, thiserror::Error)]
pub enum ClubRefusal {
    #[error("{}{}", .0[0], more(.0.len()))]
    Problems(Vec<Diagnostic>),
    #[error("{file}: {message}")]
    Unreadable { file: String, message: String },
    #[error("{file}: the club cannot be checked: {source}")]
    Rules { file: String, source: RulesError },
}

fn more(n: usize) -> String {
    match n {
        0 | 1 => String::new(),
        n => format!(" (and {} more problem(s); `microfut club validate` lists them all)", n - 1),
    }
}

#[derive(Debug, thiserror::Error)]
pub enum ClubError {
    #[error(transparent)]
    Read(#[from] microfut_core::files::ReadError),
    #[error("{path}: {message}")]
    Json { path: String, line: usize, column: usize, message: String },
}

impl Club {
    pub fn load(path: &Path) -> Result<Club, ClubError> {
        let text = microfut_core::files::read_input("a club file", path, microfut_core::files::FILE_LIMIT)?;
        Self::parse(&text, &path.display().to_string())
    }

    /// Reads a club file checked against `club.schema.json`: the club, and the schema problems
    /// that did not stop reading it (for [`Club::validate`]).
    pub fn read(path: &Path) -> Result<(Club, Vec<Diagnostic>), SheetFileError> {
        read_document(&read_file(path, "a club file")?, &path.display().to_string(), "club.schema.json")
    }

    /// A club from a JSON value (the sample clubs embedded with the content).
    pub fn from_value(value: serde_json::Value) -> Result<Club, serde_json::Error> {
        serde_json::from_value(value)
    }

    /// A club read from the JSON text of `file` and checked exactly as `club validate` checks it
    /// under `rs` (schema, squad, budget, every player): what every command that plays a club
    /// reads it with.
    pub fn read_checked(bytes: &[u8], file: &str, rs: &Ruleset) -> Result<Club, ClubRefusal> {
        let value: serde_json::Value = microfut_core::catalog::from_json(bytes).map_err(|e| {
            ClubRefusal::Unreadable { file: file.to_string(), message: microfut_core::catalog::describe_json_error(&e) }
        })?;
        Self::check_value(&value, file, "", rs)
    }

    /// A club found at `pointer` of `file` (a run record's `/home`), checked as
    /// [`Club::read_checked`] checks a club file; problems are named by their full pointer.
    pub fn check_value(
        value: &serde_json::Value,
        file: &str,
        pointer: &str,
        rs: &Ruleset,
    ) -> Result<Club, ClubRefusal> {
        let located = |d: Vec<Diagnostic>| {
            d.into_iter().map(|d| Diagnostic::new(file, format!("{pointer}{}", d.pointer), d.message)).collect()
        };
        let bytes = serde_json::to_vec(value).expect("values serialize");
        let (club, schema) = match read_document::<Club>(&bytes, file, "club.schema.json") {
            Ok(read) => read,
            Err(SheetFileError::Unreadable(d)) => return Err(ClubRefusal::Problems(located(d))),
            Err(e) => return Err(ClubRefusal::Unreadable { file: file.to_string(), message: e.to_string() }),
        };
        let report = club.validate(rs, schema).map_err(|source| ClubRefusal::Rules {
            file: format!("{file}{}", if pointer.is_empty() { String::new() } else { format!("#{pointer}") }),
            source,
        })?;
        if report.is_valid() {
            return Ok(club);
        }
        Err(ClubRefusal::Problems(located(
            report
                .problems
                .into_iter()
                .map(|p| {
                    let who = p.player.map(|w| format!("{w}: ")).unwrap_or_default();
                    Diagnostic::new(file, p.pointer, format!("{who}{}", p.message))
                })
                .collect(),
        )))
    }

    pub fn parse(bytes: &[u8], name: &str) -> Result<Club, ClubError> {
        microfut_core::catalog::from_json(bytes).map_err(|e| ClubError::Json {
            path: name.to_string(),
            line: e.line(),
            column: e.column(),
            message: microfut_core::catalog::describe_json_error(&e),
        })
    }
}
