//! Microfut's football in the registry of games (`microfut_core::game`).

use crate::calibrate::Stage;
use crate::calibrate::Targets;
use crate::club::source::ClubSource;
use crate::engine::MatchSimulator;
use crate::engine::content::{CALIBRATION_STAGE, PENALTY_TAKER_SKILL, Params};
use crate::run::rules_for;
use microfut_core::catalog::{Catalog, Diagnostic, Revision};
use microfut_core::game::{Game, LabSetup, Study};
use microfut_core::record::{Record, Refusal};
use microfut_core::ruleset::{self, domain::Policy};
use std::sync::Arc;

/// The football game, ruleset `microfut`.
pub struct Football;

impl Game for Football {
    fn ruleset(&self) -> &'static str {
        "microfut"
    }

    /// The ruleset's checks, then what sheets, clubs and the match engine need of it.
    fn check(&self, revision: &Revision, domains: Policy) -> Vec<Diagnostic> {
        let compiled = ruleset::compile_with(revision, domains);
        let mut out = match &compiled {
            Ok(_) => Vec::new(),
            Err(d) => d.clone(),
        };
        if let Err(d) = crate::sheet::Roles::from_revision(revision) {
            out.extend(d);
        }
        if let Ok(rs) = compiled {
            out.extend(upgrade_check(&rs));
            out.extend(crate::sheet::rules::content_check(&rs));
            out.extend(crate::club::rules::content_check(&rs));
            // The match engine's own needs: its documents, pipelines, tables and parameters.
            out.extend(crate::engine::content::check(Arc::new(rs)));
        }
        out
    }

    /// Two clubs (`--home`, `--away`; by default the revision's reference club against itself),
    /// each checked as `club validate` checks it under every revision the study plays.
    fn record_format(&self) -> Option<&'static str> {
        Some(crate::run::FORMAT)
    }

    fn read_record(&self, name: &str, record: serde_json::Value) -> Result<Box<dyn Record>, Refusal> {
        Ok(Box::new(crate::run::ReadRecord::read(name, record)?))
    }

    fn lab(&self, catalog: &Catalog, study: &Study) -> Result<LabSetup, String> {
        if !study.bots.is_empty() {
            return Err("--bots chooses Space Football's bots; microfut has none".into());
        }
        let rules = rules_for(catalog, study.revision).map_err(|e| e.to_string())?;
        let home = match study.home {
            Some(h) => h.to_string(),
            None => Targets::of(&rules)?.reference_club,
        };
        let away = study.away.map_or_else(|| home.clone(), str::to_string);
        let (home, away) = (ClubSource::read(catalog, &home)?, ClubSource::read(catalog, &away)?);
        let mut arms = vec![rules.rs.clone()];
        if let Some(v) = study.against {
            arms.push(rules_for(catalog, Some(v)).map_err(|e| e.to_string())?.rs.clone());
        }
        let mut clubs = Vec::new();
        for rs in &arms {
            clubs = vec![home.checked(rs)?, away.checked(rs)?];
        }
        let inputs = [("--home", &home), ("--away", &away)]
            .into_iter()
            .filter_map(|(what, s)| s.path.clone().map(|p| (what, p)))
            .collect();
        let away = clubs.pop().expect("two clubs");
        let home = clubs.pop().expect("two clubs");
        Ok(LabSetup { simulator: Box::new(MatchSimulator { home, away }), inputs })
    }
}

/// The revision's entry in `upgrades.json` means something to the match engine: every parameter
/// one the engine reads and the revision does not declare itself, every value one it reads.
fn upgrade_check(rs: &ruleset::Ruleset) -> Vec<Diagnostic> {
    let Some(u) = &rs.revision.upgrade else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for id in u.params.keys() {
        let at = u.pointer_to("params", id);
        if !Params::IDS.contains(&id.as_str()) {
            out.push(Diagnostic::new(&u.file, at, format!("the match engine reads no parameter '{id}'")));
        } else if rs.param(id).is_some() {
            out.push(Diagnostic::new(
                &u.file,
                at,
                format!("{} declares '{id}' itself: an upgrade gives only what a revision lacks", rs.label()),
            ));
        }
    }
    for (key, value) in &u.values {
        let at = u.pointer_to("values", key);
        let problem = match key.as_str() {
            PENALTY_TAKER_SKILL => match value.as_str() {
                Some(skill) if rs.var(skill).is_some() => None,
                Some(skill) => Some(format!("names '{skill}', which is not a variable of {}", rs.label())),
                None => Some("is the name of a skill (a string)".to_string()),
            },
            CALIBRATION_STAGE => {
                serde_json::from_value::<Stage>(value.clone()).err().map(|e| format!("is not a calibration stage: {e}"))
            }
            other => Some(format!(
                "the football game reads no value '{other}' (it reads: {PENALTY_TAKER_SKILL}, {CALIBRATION_STAGE})"
            )),
        };
        out.extend(problem.map(|m| Diagnostic::new(&u.file, at, m)));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::Rules;
    use microfut_core::catalog::ContentTree;

    fn revision(version: &str) -> Revision {
        let catalog = Catalog::load_one(&ContentTree::embedded(), "microfut", Some(version));
        catalog.revision("microfut", Some(version)).unwrap().clone()
    }

    fn rules(rev: Revision) -> Result<Rules, String> {
        let rs = ruleset::compile(&rev).map_err(|d| format!("{d:?}"))?;
        Rules::new(Arc::new(rs)).map_err(|e| e.to_string())
    }

    #[test]
    fn a_revision_that_predates_a_parameter_plays_with_its_upgrade_value() {
        let rev = revision("0.5.2");
        let declared = rev.upgrade.as_ref().unwrap().params["take_on_reach_factor"];
        assert_eq!(rules(rev.clone()).unwrap().params.take_on_reach_factor, declared);
        // The value comes from content: without the entry the revision lacks the parameter.
        let mut bare = rev;
        bare.upgrade = None;
        let refused = rules(bare).err().expect("refused without its upgrade");
        assert!(refused.contains("take_on_reach_factor"), "{refused}");
    }

    #[test]
    fn a_revision_without_set_pieces_takes_its_penalty_skill_from_its_upgrade() {
        let rev = revision("0.5.5");
        let with = rules(rev.clone()).unwrap();
        let skill = rev.upgrade.as_ref().unwrap().values[PENALTY_TAKER_SKILL].as_str().unwrap().to_string();
        assert_eq!(with.penalty_skill_without_set_pieces, with.rs.var(&skill));
        let mut bare = rev;
        bare.upgrade.as_mut().unwrap().values.remove(PENALTY_TAKER_SKILL);
        let refused = rules(bare.clone()).err().expect("refused without a penalty rule");
        assert!(refused.contains("roles.json#/penalty_taker_skill") && refused.contains("set pieces"), "{refused}");
        // A draft declares it itself, in its roles.
        let roles = bare.documents.get_mut("roles.json").unwrap();
        roles["penalty_taker_skill"] = skill.clone().into();
        let own = rules(bare).unwrap();
        assert_eq!(own.penalty_skill_without_set_pieces, own.rs.var(&skill));
    }

    #[test]
    fn an_upgrade_may_only_give_what_the_engine_reads_and_the_revision_lacks() {
        let mut rev = revision("0.5.2");
        let u = rev.upgrade.as_mut().unwrap();
        u.params.insert("no_such_parameter".into(), 1.0);
        u.params.insert("stamina_start".into(), 100.0);
        u.values.insert(PENALTY_TAKER_SKILL.into(), "juggling".into());
        u.values.insert("weather".into(), "rain".into());
        u.values.insert(CALIBRATION_STAGE.into(), serde_json::json!({"bench_x": 1}));
        let found: Vec<String> = Football.check(&rev, Policy::Own).iter().map(|d| d.to_string()).collect();
        let has = |what: &str| found.iter().any(|d| d.contains("microfut/upgrades.json") && d.contains(what));
        assert!(has("reads no parameter 'no_such_parameter'"), "{found:#?}");
        assert!(has("declares 'stamina_start' itself"), "{found:#?}");
        assert!(has("names 'juggling', which is not a variable"), "{found:#?}");
        assert!(has("reads no value 'weather'"), "{found:#?}");
        assert!(has("is not a calibration stage"), "{found:#?}");
    }

    #[test]
    fn every_published_revision_passes_its_upgrade_check() {
        let catalog = Catalog::load(&ContentTree::embedded());
        for rev in catalog.rulesets["microfut"].revisions.values().filter(|r| r.upgrade.is_some()) {
            if let Ok(rs) = ruleset::compile(rev) {
                assert_eq!(upgrade_check(&rs), Vec::new(), "{}", rev.label());
            }
        }
    }
}
