//! Microfut's football in the registry of games (`microfut_core::game`).

use crate::calibrate::Targets;
use crate::club::source::ClubSource;
use crate::engine::MatchSimulator;
use crate::run::rules_for;
use microfut_core::catalog::{Catalog, Diagnostic, Revision};
use microfut_core::game::{Game, LabSetup, Study};
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
            out.extend(crate::sheet::rules::content_check(&rs));
            out.extend(crate::club::rules::content_check(&rs));
            // The match engine's own needs: its documents, pipelines, tables and parameters.
            out.extend(crate::engine::content::check(Arc::new(rs)));
        }
        out
    }

    /// Two clubs (`--home`, `--away`; by default the revision's reference club against itself),
    /// each checked as `club validate` checks it under every revision the study plays.
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
