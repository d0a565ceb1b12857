//! World 1 in the registry of games (`microfut_core::game`).

use crate::{JourneySimulator, compile};
use microfut_core::catalog::{Catalog, Diagnostic, Revision};
use microfut_core::game::{Game, LabSetup, Study};
use microfut_core::record::{Record, Refusal};
use microfut_core::ruleset::domain::Policy;

/// World 1's effect-resolution policy and journeys, ruleset `effects`.
pub struct Effects;

impl Game for Effects {
    fn ruleset(&self) -> &'static str {
        "effects"
    }

    fn check(&self, revision: &Revision, _domains: Policy) -> Vec<Diagnostic> {
        compile(revision).err().unwrap_or_default()
    }

    fn record_format(&self) -> Option<&'static str> {
        Some(crate::record::FORMAT)
    }

    fn read_record(&self, name: &str, record: serde_json::Value) -> Result<Box<dyn Record>, Refusal> {
        Ok(Box::new(crate::record::ReadRecord::read(name, record)?))
    }

    fn lab(&self, _catalog: &Catalog, study: &Study) -> Result<LabSetup, String> {
        if study.home.is_some() || study.away.is_some() {
            return Err("--home and --away choose Microfut clubs; effects plays every mode's journey".into());
        }
        if !study.bots.is_empty() {
            return Err("--bots chooses Space Football's bots; effects has none".into());
        }
        Ok(LabSetup::of(JourneySimulator))
    }
}
