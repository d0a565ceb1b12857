//! A revision's `sheet_rules.json`: the scales the vocabulary does not hold (player personality,
//! shirt numbers), which attribute and characteristic each skill's XP supports, and the labels of
//! the sheet view.

use super::{ATTRIBUTES, CHARACTERISTICS, SKILLS};
use microfut_core::catalog::{Diagnostic, Labels, Revision, declared_schema};
use microfut_core::ruleset::{Missing, Ruleset};
use serde::Deserialize;
use std::collections::BTreeMap;

pub const SCHEMA: &str = "sheet_rules.schema.json";

/// Labels the sheet, train and age views show; each must be in the document.
pub const LABEL_KEYS: &[&str] = &[
    "identity",
    "name",
    "club",
    "age",
    "shirt",
    "role",
    "foot",
    "foot_left",
    "foot_right",
    "foot_both",
    "archetype",
    "attributes",
    "res_practical",
    "age_penalty",
    "characteristics",
    "computed_base",
    "training",
    "final",
    "cost",
    "skills",
    "personality",
    "confidence",
    "collectivity",
    "integrity",
    "ledger",
    "item",
    "levels",
    "level",
    "xp",
    "steps",
    "source",
    "positive_xp",
    "credits",
    "net_xp",
    "age_cap",
    "interpolated",
    "within_cap",
    "over_cap",
    "band",
    "problems",
    "none",
    "channel",
    "raw_xp",
    "multiplier",
    "applied_xp",
    "banked",
    "next_cost",
    "direct",
    "support",
    "level_up",
    "capped",
    "aged",
    "recalculated",
];

/// Rules a command needs from a revision: missing, or present but failing their meaning check.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum RulesError {
    #[error("{0}; name a revision that has it with --revision")]
    Missing(#[from] Missing),
    #[error("{file} has {count} content error(s), first: {first}; run `microfut validate`")]
    Invalid { file: String, count: usize, first: String },
}

/// A revision's rules document of one schema, read and told its file; `None` when the revision
/// has none. Shared by the sheet and club rules.
pub(crate) fn read_rules<T: serde::de::DeserializeOwned>(
    rev: &Revision,
    schema: &str,
    set_file: impl FnOnce(&mut T, String),
) -> Result<Option<T>, Vec<Diagnostic>> {
    let Some((name, doc)) = rev.documents.iter().find(|(_, d)| declared_schema(d) == Some(schema)) else {
        return Ok(None);
    };
    let file = rev.file(name);
    let mut rules: T = microfut_core::catalog::from_value_located(doc.clone(), schema)
        .map_err(|e| vec![Diagnostic::new(&file, e.pointer, format!("cannot read as {schema}: {}", e.message))])?;
    set_file(&mut rules, file);
    Ok(Some(rules))
}

/// Rules a command needs: read (see [`read_rules`]) and meaning-checked (`check` gives the
/// problems and the file), or an error naming the revision that lacks them.
pub(crate) fn need_rules<T>(
    rs: &Ruleset,
    schema: &str,
    needed_by: &'static str,
    read: Result<Option<T>, Vec<Diagnostic>>,
    check: impl FnOnce(&T) -> (Vec<Diagnostic>, String),
) -> Result<T, RulesError> {
    let missing = || Missing { revision: rs.label(), what: "document with schema", name: schema.into(), needed_by };
    match read {
        Ok(Some(r)) => {
            let (problems, file) = check(&r);
            RulesError::check(r, &file, problems)
        }
        Ok(None) => Err(missing().into()),
        Err(d) => RulesError::check((), &rs.label(), d).and(Err(missing().into())),
    }
}

impl RulesError {
    /// Refuses rules whose meaning check found problems.
    pub fn check<T>(rules: T, file: &str, problems: Vec<Diagnostic>) -> Result<T, RulesError> {
        match problems.first() {
            None => Ok(rules),
            Some(first) => {
                Err(RulesError::Invalid { file: file.into(), count: problems.len(), first: first.to_string() })
            }
        }
    }
}

/// The support-XP shares, as parameters of the revision (document §15).
pub const SHARE_PARAMS: [&str; 3] = ["xp_support_attribute", "xp_support_characteristic", "xp_support_control"];

#[derive(Debug, Clone, Deserialize)]
pub struct Scale {
    pub scale: [i32; 2],
}

#[derive(Debug, Clone, Deserialize)]
pub struct SkillSupport {
    pub id: String,
    pub attribute: String,
    pub characteristic: Option<String>,
    pub modified_by_control: bool,
}

#[derive(Debug, Clone, Deserialize)]
pub struct SheetRules {
    pub personality: Scale,
    pub shirt: Scale,
    pub control_skill: String,
    pub skills: Vec<SkillSupport>,
    pub labels: BTreeMap<String, Labels>,
    /// `microfut/0.5.1/sheet_rules.json`
    #[serde(skip)]
    pub file: String,
}

impl SheetRules {
    /// The revision's sheet rules; `None` when it has none (0.5.0 predates them).
    pub fn from_revision(rev: &Revision) -> Result<Option<SheetRules>, Vec<Diagnostic>> {
        read_rules(rev, SCHEMA, |r: &mut SheetRules, file| r.file = file)
    }

    /// The rules a command needs, or a message naming the revision that lacks them (or the
    /// first problem of rules that fail their meaning check).
    pub fn need(rs: &Ruleset, needed_by: &'static str) -> Result<SheetRules, RulesError> {
        need_rules(rs, SCHEMA, needed_by, SheetRules::from_revision(&rs.revision), |r| (r.check(rs), r.file.clone()))
    }

    /// Meaning checks, with file and JSON pointer.
    pub fn check(&self, rs: &Ruleset) -> Vec<Diagnostic> {
        let f = self.file.as_str();
        let mut out = Vec::new();
        for (key, s) in [("personality", &self.personality), ("shirt", &self.shirt)] {
            if s.scale[0] > s.scale[1] {
                out.push(Diagnostic::new(f, format!("/{key}/scale"), "scale minimum above maximum"));
            }
        }
        if !SKILLS.contains(&self.control_skill.as_str()) {
            out.push(Diagnostic::new(f, "/control_skill", format!("'{}' is not a skill", self.control_skill)));
        }
        for (i, s) in self.skills.iter().enumerate() {
            let p = format!("/skills/{i}");
            if !SKILLS.contains(&s.id.as_str()) {
                out.push(Diagnostic::new(f, format!("{p}/id"), format!("'{}' is not a skill", s.id)));
            }
            if self.skills[..i].iter().any(|o| o.id == s.id) {
                out.push(Diagnostic::new(f, format!("{p}/id"), format!("skill '{}' listed twice", s.id)));
            }
            if !ATTRIBUTES.contains(&s.attribute.as_str()) {
                out.push(Diagnostic::new(
                    f,
                    format!("{p}/attribute"),
                    format!("'{}' is not an attribute ({})", s.attribute, ATTRIBUTES.join(", ")),
                ));
            }
            if let Some(c) = &s.characteristic
                && !CHARACTERISTICS.contains(&c.as_str())
            {
                out.push(Diagnostic::new(
                    f,
                    format!("{p}/characteristic"),
                    format!("'{c}' is not a characteristic ({})", CHARACTERISTICS.join(", ")),
                ));
            }
            if s.modified_by_control && s.id == self.control_skill {
                out.push(Diagnostic::new(
                    f,
                    format!("{p}/modified_by_control"),
                    "the control skill cannot support itself",
                ));
            }
        }
        for s in SKILLS {
            if !self.skills.iter().any(|k| k.id == s) {
                out.push(Diagnostic::new(
                    f,
                    "/skills",
                    format!("skill '{s}' has no entry: which attribute does it support?"),
                ));
            }
        }
        for k in LABEL_KEYS {
            if !self.labels.contains_key(*k) {
                out.push(Diagnostic::new(f, "/labels", format!("missing label '{k}'")));
            }
        }
        for p in SHARE_PARAMS {
            if rs.param(p).is_none() {
                out.push(rs.locate(&rs.missing("parameter", p, "sheet ledger (support XP)")));
            }
        }
        out.extend(super::ledger::XpRules::free_level_problems(rs));
        out
    }

    pub fn support(&self, skill: &str) -> Option<&SkillSupport> {
        self.skills.iter().find(|s| s.id == skill)
    }

    pub fn label(&self, key: &str) -> Labels {
        self.labels.get(key).cloned().unwrap_or_else(|| Labels { pt_br: key.into(), en: key.into() })
    }
}

/// The meaning check of a revision's sheet rules (nothing when it has none).
pub fn content_check(rs: &Ruleset) -> Vec<Diagnostic> {
    match SheetRules::from_revision(&rs.revision) {
        Ok(Some(r)) => r.check(rs),
        Ok(None) => Vec::new(),
        Err(d) => d,
    }
}
