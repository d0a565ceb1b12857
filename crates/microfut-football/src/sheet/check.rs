//! Reading a sheet file and finding every problem with it, field by field.

use super::ledger::{Trait, XpRules};
use super::rules::SheetRules;
use super::{ATTRIBUTES, CHARACTERISTICS, SKILLS, Sheet, SheetError, pointer_of};
use microfut_core::catalog::{Diagnostic, validate_as};
use microfut_core::ruleset::{InputError, Missing, Ruleset};
use std::path::Path;

/// Why a sheet file could not be read.
#[derive(Debug, thiserror::Error)]
pub enum SheetFileError {
    #[error(transparent)]
    Read(#[from] microfut_core::files::ReadError),
    #[error("{path}: {message}")]
    Json { path: String, line: usize, column: usize, message: String },
    /// The document is JSON but not readable as the expected kind; each problem with its pointer.
    #[error("{}", .0.iter().map(|d| d.to_string()).collect::<Vec<_>>().join("\n"))]
    Unreadable(Vec<Diagnostic>),
}

/// Reads a JSON document of a known kind: parsed, checked against its schema (the embedded
/// copy, whatever `$schema` path it declares) and deserialized. Schema problems that do not stop
/// deserialization are returned beside the value, for the caller to merge with its own checks.
pub fn read_document<T: serde::de::DeserializeOwned>(
    bytes: &[u8],
    name: &str,
    schema: &str,
) -> Result<(T, Vec<Diagnostic>), SheetFileError> {
    let value: serde_json::Value = microfut_core::catalog::from_json(bytes).map_err(|e| SheetFileError::Json {
        path: name.into(),
        line: e.line(),
        column: e.column(),
        message: microfut_core::catalog::describe_json_error(&e),
    })?;
    let mut problems = Vec::new();
    validate_as(name, schema, &with_schema(&value, schema), &mut problems);
    // serde_path_to_error keeps where a value failed to convert (an integer written 15.0, a
    // budget beyond u64), which the schema alone cannot catch, so the error names the field.
    match serde_path_to_error::deserialize::<_, T>(value) {
        Ok(v) => Ok((v, problems)),
        Err(e) => {
            if problems.is_empty() {
                let pointer = json_pointer(e.path());
                problems.push(Diagnostic::new(name, pointer, format!("cannot read as {schema}: {}", e.inner())));
            }
            Err(SheetFileError::Unreadable(problems))
        }
    }
}

/// A sheet or club file's bytes, refused past [`microfut_core::files::FILE_LIMIT`]; `what` names the kind
/// of file in that message ("a club file").
pub fn read_file(path: &Path, what: &str) -> Result<Vec<u8>, SheetFileError> {
    Ok(microfut_core::files::read_input(what, path, microfut_core::files::FILE_LIMIT)?)
}

/// Our field-by-field problems, plus the schema's that say something ours do not (ours name the
/// field and the known names; the schema's are the net for the rest).
pub fn merge(schema: Vec<Diagnostic>, mut ours: Vec<SheetError>) -> Vec<SheetError> {
    let covered = |p: &str| ours.iter().any(|o| o.pointer == p || o.pointer.starts_with(&format!("{p}/")));
    let extra: Vec<SheetError> = schema
        .into_iter()
        .filter(|d| !covered(&d.pointer))
        .map(|d| SheetError::new(d.pointer, d.message.trim_start_matches("schema: ").to_string()))
        .collect();
    ours.extend(extra);
    ours.sort_by(|a, b| pointer_order(&a.pointer, &b.pointer));
    ours
}

/// Pointer order with array indices compared as numbers (`/squad/2` before `/squad/10`).
pub fn pointer_order(a: &str, b: &str) -> std::cmp::Ordering {
    let key = |p: &str| -> Vec<(u64, String)> {
        p.split('/').map(|t| t.parse::<u64>().map_or((u64::MAX, t.to_string()), |n| (n, String::new()))).collect()
    };
    key(a).cmp(&key(b))
}

impl Sheet {
    /// Reads a sheet file: the sheet, and the schema problems that did not stop reading it.
    pub fn load(path: &Path) -> Result<(Sheet, Vec<Diagnostic>), SheetFileError> {
        Self::parse(&read_file(path, "a sheet")?, &path.display().to_string())
    }

    pub fn parse(bytes: &[u8], name: &str) -> Result<(Sheet, Vec<Diagnostic>), SheetFileError> {
        read_document(bytes, name, "sheet.schema.json")
    }

    /// Every problem with this sheet under a revision, field by field: missing, unknown and
    /// out-of-scale values, an unknown role, and positive XP over the age cap. Empty when valid.
    pub fn problems(&self, rs: &Ruleset) -> Result<Vec<SheetError>, Missing> {
        let xp = XpRules::from_ruleset(rs)?;
        let rules = SheetRules::from_revision(&rs.revision).ok().flatten();
        let mut out = Vec::new();
        if self.name.trim().is_empty() {
            out.push(SheetError::new("/name", "a player needs a name"));
        }
        let scale = |name: &str, value: f64, out: &mut Vec<SheetError>| {
            if let Err(e) = rs.check_value(name, value) {
                out.push(SheetError::new(pointer_of(name), describe(e)));
            }
        };
        scale("age", self.age as f64, &mut out);
        for (field, keys, map) in
            [("attributes", &ATTRIBUTES[..], &self.attributes), ("skills", &SKILLS[..], &self.skills)]
        {
            for k in keys {
                match map.get(*k) {
                    Some(v) => scale(k, *v as f64, &mut out),
                    None => out.push(SheetError::new(format!("/{field}/{k}"), "missing")),
                }
            }
            for k in map.keys().filter(|k| !keys.contains(&k.as_str())) {
                out.push(SheetError::new(
                    format!("/{field}/{k}"),
                    format!("unknown {}{}", &field[..field.len() - 1], hint(k, keys)),
                ));
            }
        }
        for (k, v) in &self.training {
            if CHARACTERISTICS.contains(&k.as_str()) {
                scale(&format!("training_{k}"), *v as f64, &mut out);
            } else {
                out.push(SheetError::new(
                    format!("/training/{k}"),
                    format!("unknown characteristic{}", hint(k, &CHARACTERISTICS)),
                ));
            }
        }
        if let Some(rules) = &rules {
            let [lo, hi] = rules.shirt.scale;
            if (self.shirt as i64) < lo as i64 || (self.shirt as i64) > hi as i64 {
                out.push(SheetError::new("/shirt", format!("{} is outside {lo}..{hi}", self.shirt)));
            }
            let [lo, hi] = rules.personality.scale;
            let p = &self.personality;
            for (k, v) in [("confidence", p.confidence), ("collectivity", p.collectivity), ("integrity", p.integrity)] {
                if v < lo || v > hi {
                    out.push(SheetError::new(format!("/personality/{k}"), format!("{v} is outside {lo}..{hi}")));
                }
            }
        }
        if let Ok(Some(roles)) = super::Roles::from_revision(&rs.revision)
            && roles.role(&self.role).is_none()
        {
            let known: Vec<&str> = roles.roles.iter().map(|r| r.id.as_str()).collect();
            out.push(SheetError::new(
                "/role",
                format!("unknown role '{}'{} (roles: {})", self.role, hint(&self.role, &known), known.join(", ")),
            ));
        }
        // The progression record `train` and `age` keep: readable, only known channels, and no
        // negative XP (a hand-edited record would otherwise be trusted by the next session).
        if !self.progression.is_null() {
            match serde_path_to_error::deserialize::<_, super::record::Progression>(self.progression.clone()) {
                Err(e) => out.push(SheetError::new(
                    format!("/progression{}", json_pointer(e.path())),
                    format!("not a progression record: {}", e.inner()),
                )),
                Ok(p) => out.extend(record_problems(&p)),
            }
        }
        // The cap is only meaningful once every level is.
        if !out.iter().any(|e| e.pointer != "/name" && e.pointer != "/shirt" && e.pointer != "/role") {
            let totals = xp.totals(self);
            let cap = xp.cap(self.age as f64);
            if totals.positive > cap {
                let mut items: Vec<(f64, String)> = Trait::all()
                    .into_iter()
                    .filter_map(|t| t.level(self).map(|l| (xp.net(&t, l), t.pointer())))
                    .filter(|(x, _)| *x > 0.0)
                    .collect();
                items.sort_by(|a, b| b.0.total_cmp(&a.0).then_with(|| a.1.cmp(&b.1)));
                let largest: Vec<String> =
                    items.iter().take(3).map(|(x, p)| format!("{p} {}", thousands(*x))).collect();
                out.push(SheetError::new(
                    "",
                    format!(
                        "positive XP {} exceeds the age cap at {} ({}) by {}; largest purchases: {}",
                        thousands(totals.positive),
                        self.age,
                        thousands(cap),
                        thousands(totals.positive - cap),
                        largest.join(", ")
                    ),
                ));
            }
        }
        Ok(out)
    }
}

/// What a progression record must satisfy to be trusted by the next session: known channels, no
/// negative XP, and per channel the ledger the sessions keep — every applied XP is either still
/// banked or paid for a level in the history, so `applied = banked + Σ level costs` (an edited
/// `banked` would otherwise buy levels nobody earned).
fn record_problems(p: &super::record::Progression) -> Vec<SheetError> {
    use super::record::Event;
    use super::xp::Xp;
    let mut out = Vec::new();
    let mut paid: std::collections::BTreeMap<&str, Xp> = std::collections::BTreeMap::new();
    for (k, e) in p.history.iter().enumerate() {
        if let Event::Level { channel, cost, .. } = e {
            let at = format!("/progression/history/{k}");
            if super::Trait::named(channel).is_none() {
                out.push(SheetError::new(format!("{at}/channel"), format!("unknown channel '{channel}'")));
            }
            if *cost < Xp::ZERO {
                out.push(SheetError::new(format!("{at}/cost"), format!("{cost} is negative")));
            }
            let sum = paid.entry(channel.as_str()).or_default();
            match sum.checked_add(*cost) {
                Ok(x) => *sum = x,
                Err(e) => out.push(SheetError::new(format!("{at}/cost"), e.to_string())),
            }
        }
    }
    for (name, ch) in &p.channels {
        let at = format!("/progression/channels/{}", microfut_core::catalog::escape_token(name));
        if super::Trait::named(name).is_none() {
            out.push(SheetError::new(at.clone(), format!("unknown channel '{name}'")));
        }
        for (field, x) in [("raw", ch.raw), ("applied", ch.applied), ("banked", ch.banked)] {
            if x < Xp::ZERO {
                out.push(SheetError::new(format!("{at}/{field}"), format!("{x} is negative")));
            }
        }
        if ch.raw.is_zero() && !ch.applied.is_zero() {
            out.push(SheetError::new(
                format!("{at}/applied"),
                format!("{} applied XP from no raw XP: applied XP is raw XP times a multiplier", ch.applied),
            ));
        }
        let spent = paid.remove(name.as_str()).unwrap_or_default();
        if ch.banked.checked_add(spent).ok() != Some(ch.applied) {
            out.push(SheetError::new(
                format!("{at}/banked"),
                format!(
                    "{} banked, but the channel received {} applied XP and its levels in the history cost {}: banked XP is what was applied and not yet spent ({})",
                    ch.banked,
                    ch.applied,
                    spent,
                    ch.applied.checked_sub(spent).map(|x| x.to_string()).unwrap_or_else(|_| "?".into())
                ),
            ));
        }
    }
    for (name, spent) in paid {
        if !spent.is_zero() {
            out.push(SheetError::new(
                "/progression/history",
                format!("levels of '{name}' cost {spent} XP in the history, but the channel has no record in /progression/channels"),
            ));
        }
    }
    out
}

/// A copy of a document that declares `schema`, so a sheet inside a club or without `$schema`
/// is checked against the sheet schema all the same.
fn with_schema(value: &serde_json::Value, schema: &str) -> serde_json::Value {
    let mut v = value.clone();
    if let Some(o) = v.as_object_mut()
        && !o.contains_key("$schema")
    {
        o.insert("$schema".into(), serde_json::Value::String(schema.into()));
    }
    v
}

fn describe(e: InputError) -> String {
    match e {
        InputError::OutOfScale { value, min, max, .. } => format!("{value} is outside {min}..{max}"),
        InputError::NotInteger { value, .. } => format!("{value} must be a whole number"),
        other => other.to_string(),
    }
}

/// ` (did you mean 'passing'?)` when a known name is close.
pub fn hint(name: &str, known: &[&str]) -> String {
    known
        .iter()
        .map(|k| (strsim::damerau_levenshtein(name, k), *k))
        .filter(|(d, _)| *d <= 2)
        .min()
        .map(|(_, k)| format!(" (did you mean '{k}'?)"))
        .unwrap_or_default()
}

/// `27,350`, `-1,050`, `26,666.67`: XP for messages.
pub fn thousands(x: f64) -> String {
    let neg = x < 0.0;
    let a = x.abs();
    let whole = a.trunc() as u64;
    let frac = a - a.trunc();
    let digits = whole.to_string();
    let mut s = String::new();
    for (i, ch) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            s.push(',');
        }
        s.push(ch);
    }
    if frac > 0.005 {
        let cents = format!("{:.2}", frac);
        if cents.starts_with("1.") {
            return thousands(if neg { -(whole as f64 + 1.0) } else { whole as f64 + 1.0 });
        }
        s.push_str(&cents[1..]);
    }
    if neg && (whole > 0 || frac > 0.005) { format!("-{s}") } else { s }
}

/// A serde path (`squad[2].skills.passing`) as a JSON pointer (`/squad/2/skills/passing`).
fn json_pointer(path: &serde_path_to_error::Path) -> String {
    use serde_path_to_error::Segment;
    let mut out = String::new();
    for seg in path.iter() {
        match seg {
            Segment::Seq { index } => out.push_str(&format!("/{index}")),
            Segment::Map { key } => out.push_str(&format!("/{}", microfut_core::catalog::escape_token(key))),
            Segment::Enum { variant } => out.push_str(&format!("/{}", microfut_core::catalog::escape_token(variant))),
            Segment::Unknown => {}
        }
    }
    out
}
