//! The record of a sheet's progression, as its `progression` field keeps it: applied XP per
//! channel and the history of awards, levels and birthdays. Below both the sheet's checks
//! (which refuse a record that does not add up) and the sessions that write it.

use super::xp::Xp;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// Applied XP per channel and the history of a sheet.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Progression {
    #[serde(default)]
    pub channels: BTreeMap<String, Channel>,
    #[serde(default)]
    pub history: Vec<Event>,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Channel {
    /// Raw XP received, direct and support.
    pub raw: Xp,
    /// Applied XP received (raw × the multiplier of the level at the time).
    pub applied: Xp,
    /// Applied XP not yet spent on a level.
    pub banked: Xp,
}

/// One entry of a sheet's history.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "event", rename_all = "snake_case", deny_unknown_fields)]
pub enum Event {
    /// Raw XP awarded, per channel, as given.
    Award { revision: String, age: u32, xp: BTreeMap<String, Xp> },
    /// A trait rose one level.
    Level {
        revision: String,
        age: u32,
        channel: String,
        from: i32,
        to: i32,
        cost: Xp,
        #[serde(with = "whole")]
        positive_xp: f64,
        #[serde(with = "whole")]
        cap: f64,
        /// Derived values that changed: [before, after].
        #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
        recalculated: BTreeMap<String, [i32; 2]>,
    },
    /// A level was paid for but the age cap held it.
    Capped {
        revision: String,
        age: u32,
        channel: String,
        next: i32,
        cost: Xp,
        #[serde(with = "whole")]
        positive_xp_after: f64,
        #[serde(with = "whole")]
        cap: f64,
    },
    Aged {
        revision: String,
        from: u32,
        to: u32,
        #[serde(with = "whole")]
        cap_before: f64,
        #[serde(with = "whole")]
        cap_after: f64,
        #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
        recalculated: BTreeMap<String, [i32; 2]>,
    },
}

/// Whole numbers as JSON integers (26000, not 26000.0).
mod whole {
    use serde::{Deserialize, Deserializer, Serializer};
    pub fn serialize<S: Serializer>(x: &f64, s: S) -> Result<S::Ok, S::Error> {
        if x.fract() == 0.0 && x.abs() < 9.0e15 { s.serialize_i64(*x as i64) } else { s.serialize_f64(*x) }
    }
    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<f64, D::Error> {
        f64::deserialize(d)
    }
}
