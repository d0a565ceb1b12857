//! What the document's blank sheet (§7) shows, computed under a revision: RES practical with its
//! age penalty, each characteristic's computed base, training, final value and cost, the skills,
//! the XP ledger, the age cap and the band.

use super::ledger::{Ledger, XpRules};
use super::{ATTRIBUTES, CHARACTERISTICS, SKILLS, Sheet, SheetError};
use microfut_core::catalog::Labels;
use microfut_core::pipeline::Part;
use microfut_core::ruleset::{Missing, Ruleset};
use serde::Serialize;

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ValueRow {
    pub id: String,
    pub label: Labels,
    pub value: i32,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ResPractical {
    pub base: i32,
    /// The penalty the age table gives (before the floor of the scale).
    pub age_penalty: f64,
    pub value: i32,
    /// Content path of the derived value.
    pub source: String,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct CharacteristicRow {
    pub id: String,
    pub label: Labels,
    /// The formula's value before training (document §10).
    pub base: f64,
    pub training: i32,
    pub value: i32,
    /// XP of the training (cumulative).
    pub cost: f64,
    pub source: String,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SheetView {
    pub ruleset: String,
    pub revision: String,
    pub fingerprint: String,
    pub name: String,
    pub club: Option<String>,
    pub age: u32,
    pub shirt: u32,
    pub role: String,
    pub role_label: Option<Labels>,
    pub foot: super::Foot,
    pub archetype: String,
    pub attributes: Vec<ValueRow>,
    pub res_practical: ResPractical,
    pub characteristics: Vec<CharacteristicRow>,
    pub skills: Vec<ValueRow>,
    pub personality: super::Personality,
    pub ledger: Ledger,
    /// Problems that do not stop the sheet from being computed (positive XP over the cap).
    pub problems: Vec<SheetError>,
}

#[derive(Debug, thiserror::Error)]
pub enum ViewError {
    #[error(transparent)]
    Missing(#[from] Missing),
    /// The sheet cannot be computed: each problem by field.
    #[error("{}", .0.iter().map(|e| e.to_string()).collect::<Vec<_>>().join("; "))]
    Invalid(Vec<SheetError>),
}

const BY: &str = "sheet view";

impl Sheet {
    /// The computed sheet. Refuses a sheet whose values are missing or off their scales; a sheet
    /// over its age cap is computed and carries the problem.
    pub fn view(&self, rs: &Ruleset) -> Result<SheetView, ViewError> {
        let problems = self.problems(rs)?;
        if problems.iter().any(|p| !p.pointer.is_empty()) {
            return Err(ViewError::Invalid(problems));
        }
        let xp = XpRules::from_ruleset(rs)?;
        let inputs = self.values(rs).map_err(|e| ViewError::Invalid(vec![e]))?;
        let label = |id: &str| rs.var(id).map(|s| rs.vars[s].label.clone()).unwrap_or_default();
        let value = |id: &str| -> Result<i32, Missing> { Ok(inputs.get(rs.need_var(id, BY)?) as i32) };

        let res_p = rs.pipeline("res_practical").ok_or_else(|| Missing {
            revision: rs.label(),
            what: "pipeline",
            name: "res_practical".into(),
            needed_by: BY,
        })?;
        let mut trace = Vec::new();
        let r = res_p.resolve_traced(&inputs, &mut trace);
        let base = trace.iter().find(|e| e.part == Part::Base).map_or(0.0, |e| e.amount);
        let res_practical = ResPractical {
            base: base as i32,
            age_penalty: r.raw - base,
            value: r.value as i32,
            source: res_p.source.clone(),
        };

        let mut characteristics = Vec::new();
        for c in CHARACTERISTICS {
            let slot = rs.need_var(c, BY)?;
            let p = rs.derived_order.iter().map(|&i| &rs.pipelines[i]).find(|p| p.output == Some(slot)).ok_or_else(
                || Missing { revision: rs.label(), what: "derived value", name: c.into(), needed_by: BY },
            )?;
            let r = p.resolve_traced(&inputs, &mut trace);
            let base = trace.iter().find(|e| e.part == Part::Base).map_or(0.0, |e| e.amount);
            let training = *self.training.get(c).unwrap_or(&0);
            let t = super::ledger::Trait { kind: super::ledger::TraitKind::Training, id: c.to_string() };
            characteristics.push(CharacteristicRow {
                id: c.to_string(),
                label: label(c),
                base,
                training,
                value: r.value as i32,
                cost: xp.net(&t, training),
                source: p.source.clone(),
            });
        }
        let rows = |ids: &[&str]| -> Result<Vec<ValueRow>, Missing> {
            ids.iter().map(|id| Ok(ValueRow { id: id.to_string(), label: label(id), value: value(id)? })).collect()
        };
        let role_label = super::Roles::from_revision(&rs.revision)
            .ok()
            .flatten()
            .and_then(|r| r.role(&self.role).map(|r| r.label.clone()));
        Ok(SheetView {
            ruleset: rs.id.clone(),
            revision: rs.version.to_string(),
            fingerprint: rs.fingerprint.clone(),
            name: self.name.clone(),
            club: self.club.clone(),
            age: self.age,
            shirt: self.shirt,
            role: self.role.clone(),
            role_label,
            foot: self.foot,
            archetype: self.archetype.clone(),
            attributes: rows(&ATTRIBUTES)?,
            res_practical,
            characteristics,
            skills: rows(&SKILLS)?,
            personality: self.personality,
            ledger: xp.ledger(rs, self),
            problems,
        })
    }
}
