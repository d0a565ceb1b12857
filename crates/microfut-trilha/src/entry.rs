//! Trilha in the registry of games (`microfut_core::game`).

use crate::{TrilhaSimulator, compile};
use microfut_core::catalog::{Catalog, Diagnostic, Revision};
use microfut_core::game::{Game, LabSetup, Study};
use microfut_core::ruleset::domain::Policy;

/// Trilha do Mandacaru, ruleset `trilha`.
pub struct Trilha;

impl Game for Trilha {
    fn ruleset(&self) -> &'static str {
        "trilha"
    }

    fn check(&self, revision: &Revision, _domains: Policy) -> Vec<Diagnostic> {
        compile(revision).err().unwrap_or_default()
    }

    fn lab(&self, _catalog: &Catalog, study: &Study) -> Result<LabSetup, String> {
        if study.home.is_some() || study.away.is_some() {
            return Err("--home and --away choose Microfut clubs; trilha has no clubs".into());
        }
        if !study.bots.is_empty() {
            return Err("--bots chooses Space Football's bots; trilha has none".into());
        }
        Ok(LabSetup::of(TrilhaSimulator))
    }
}
