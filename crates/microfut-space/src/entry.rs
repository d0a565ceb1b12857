//! Space Football in the registry of games (`microfut_core::game`).

use crate::bots::BotKind;
use crate::{SpaceSimulator, compile};
use microfut_core::catalog::{Catalog, Diagnostic, Revision};
use microfut_core::game::{Game, LabSetup, Study};
use microfut_core::record::{Record, Refusal};
use microfut_core::ruleset::domain::Policy;

/// Space Football, ruleset `space`.
pub struct Space;

impl Game for Space {
    fn ruleset(&self) -> &'static str {
        "space"
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

    /// The two bots of `--bots A,B`, or the revision's own pair for the lab.
    fn lab(&self, catalog: &Catalog, study: &Study) -> Result<LabSetup, String> {
        if study.home.is_some() || study.away.is_some() {
            return Err("--home and --away choose Microfut clubs; space plays bots (--bots A,B)".into());
        }
        let bots = match study.bots {
            [] => {
                let rev = catalog.revision(self.ruleset(), study.revision).map_err(|e| e.to_string())?;
                let rules = compile(rev)
                    .map_err(|d| format!("{} has {} content error(s), first: {}", rev.label(), d.len(), d[0]))?;
                rules.lab_bots.clone()
            }
            [a, b] => [a.clone(), b.clone()],
            other => return Err(format!("--bots takes two bots (A,B), got {}", other.len())),
        };
        let parse = |s: &str| BotKind::parse(s.trim());
        Ok(LabSetup::of(SpaceSimulator { bots: [parse(&bots[0])?, parse(&bots[1])?] }))
    }
}
