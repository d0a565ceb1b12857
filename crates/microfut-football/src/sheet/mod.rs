//! Player sheets (rules document Part II): identity, attributes, characteristic training, skills
//! and player personality; and what a sheet means under a revision — the vocabulary values the
//! pipelines read.

mod check;
pub mod ledger;
pub mod progression;
mod record;
mod roles;
pub mod rules;
mod view;
pub mod xp;

pub use check::{SheetFileError, hint as name_hint, merge, read_document, read_file, thousands};
pub use ledger::{Ledger, LedgerLine, Trait, TraitKind, XpRules};
pub use progression::{Progression, ProgressionError, Session, Trainer};
pub use roles::{Line, Role, Roles};
pub use rules::SheetRules;
pub use view::{SheetView, ViewError};
pub use xp::Xp;

use microfut_core::ruleset::{InputError, Inputs, Ruleset};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// The four attributes, in sheet order.
pub const ATTRIBUTES: [&str; 4] = ["st", "dx", "iq", "res"];
/// The six characteristics with training, in sheet order.
pub const CHARACTERISTICS: [&str; 6] = ["speed", "acceleration", "balance", "perception", "willpower", "jumping"];
/// The ten skills, in sheet order.
pub const SKILLS: [&str; 10] = [
    "control",
    "passing",
    "kicking",
    "dribbling",
    "finishing",
    "crossing",
    "heading",
    "tackling",
    "positioning",
    "goalkeeping",
];

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Foot {
    Left,
    Right,
    Both,
}

/// Confidence, collectivity, integrity (−5..+5): stored, neutral in Engine 0.5 (document §12).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Personality {
    pub confidence: i32,
    pub collectivity: i32,
    pub integrity: i32,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Sheet {
    #[serde(rename = "$schema", default, skip_serializing_if = "Option::is_none")]
    pub schema: Option<String>,
    pub name: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub club: Option<String>,
    pub age: u32,
    pub shirt: u32,
    /// A role id of the revision's `roles.json` (`centre_back`, `winger`, …).
    pub role: String,
    pub foot: Foot,
    pub archetype: String,
    /// `st`, `dx`, `iq`, `res` (base), 3–18.
    pub attributes: BTreeMap<String, i32>,
    /// Training per characteristic id, −3..+3; absent means 0.
    #[serde(default)]
    pub training: BTreeMap<String, i32>,
    /// The ten skills, 3–18.
    pub skills: BTreeMap<String, i32>,
    #[serde(default)]
    pub personality: Personality,
    /// Progression state (applied XP per channel, level history); owned by the progression code.
    #[serde(default, skip_serializing_if = "serde_json::Value::is_null")]
    pub progression: serde_json::Value,
}

/// A problem with a sheet, located by JSON pointer (empty for the sheet as a whole).
#[derive(Debug, Clone, PartialEq, thiserror::Error, Serialize)]
#[error("{}{message}", if pointer.is_empty() { String::new() } else { format!("{pointer}: ") })]
pub struct SheetError {
    pub pointer: String,
    pub message: String,
}

impl SheetError {
    pub fn new(pointer: impl Into<String>, message: impl Into<String>) -> Self {
        SheetError { pointer: pointer.into(), message: message.into() }
    }
}

impl Sheet {
    /// The sheet's own values as named inputs: attributes, age, training, skills.
    pub fn named_values(&self) -> Vec<(String, f64)> {
        let mut v: Vec<(String, f64)> = Vec::new();
        for a in ATTRIBUTES {
            if let Some(x) = self.attributes.get(a) {
                v.push((a.to_string(), *x as f64));
            }
        }
        v.push(("age".into(), self.age as f64));
        for c in CHARACTERISTICS {
            v.push((format!("training_{c}"), *self.training.get(c).unwrap_or(&0) as f64));
        }
        for s in SKILLS {
            if let Some(x) = self.skills.get(s) {
                v.push((s.to_string(), *x as f64));
            }
        }
        v
    }

    /// Every vocabulary value this sheet determines under a revision: its own values, then every
    /// derived value computable from them (RES practical, characteristics, POT, ranges…).
    /// Refuses missing or out-of-scale fields, naming each.
    pub fn values(&self, rs: &Ruleset) -> Result<Inputs, SheetError> {
        let mut inputs = rs.inputs();
        let mut known: Vec<bool> = rs.vars.iter().map(|v| v.default.is_some()).collect();
        for (field, keys) in [("attributes", &ATTRIBUTES[..]), ("skills", &SKILLS[..])] {
            let map = if field == "attributes" { &self.attributes } else { &self.skills };
            for k in keys {
                if !map.contains_key(*k) {
                    return Err(SheetError::new(format!("/{field}/{k}"), "missing"));
                }
            }
            for k in map.keys() {
                if !keys.contains(&k.as_str()) {
                    return Err(SheetError::new(
                        format!("/{field}/{k}"),
                        format!("unknown {}", &field[..field.len() - 1]),
                    ));
                }
            }
        }
        for k in self.training.keys() {
            if !CHARACTERISTICS.contains(&k.as_str()) {
                return Err(SheetError::new(format!("/training/{k}"), "unknown characteristic"));
            }
        }
        for (name, value) in self.named_values() {
            let slot = rs.check_value(&name, value).map_err(|e| SheetError::new(pointer_of(&name), describe(e)))?;
            inputs.set(slot, value);
            known[slot] = true;
        }
        let all: Vec<usize> = rs.derived_order.iter().filter_map(|&p| rs.pipelines[p].output).collect();
        rs.complete(&mut inputs, &mut known, &all).map_err(|e| SheetError::new("", e.to_string()))?;
        Ok(inputs)
    }
}

/// The JSON pointer of a named sheet value.
pub fn pointer_of(name: &str) -> String {
    if ATTRIBUTES.contains(&name) {
        format!("/attributes/{name}")
    } else if SKILLS.contains(&name) {
        format!("/skills/{name}")
    } else if let Some(c) = name.strip_prefix("training_") {
        format!("/training/{c}")
    } else {
        format!("/{name}")
    }
}

fn describe(e: InputError) -> String {
    match e {
        InputError::OutOfScale { value, min, max, .. } => format!("{value} is outside {min}..{max}"),
        InputError::NotInteger { value, .. } => format!("{value} must be a whole number"),
        other => other.to_string(),
    }
}
