//! World 1 in the lab: every mode's journey played by the automatic player, per simulation —
//! how often it is won, how far it gets, the hero's life at its end, how long it takes, and the
//! share of the hero's damaging impacts that rolled a critical tier above none. Each mode plays
//! on its own copy of the simulation's dice, so modes compare on common random numbers.

use super::autopilot::play_out;
use super::combat::{Run, What};
use super::model::World;
use microfut_core::catalog::{Diagnostic, Labels, Revision};
use microfut_core::dice::Dice;
use microfut_core::lab::{Format, Kind, Metric, Part, Simulator, Unit};
use std::sync::Arc;

pub struct JourneySimulator;

fn labels(pt: &str, en: &str) -> Labels {
    Labels { pt_br: pt.into(), en: en.into() }
}

impl Simulator for JourneySimulator {
    type Rules = Arc<World>;

    fn ruleset(&self) -> &'static str {
        "effects"
    }

    fn unit(&self) -> Unit {
        Unit { id: "journeys".into(), label: labels("jornadas", "journeys") }
    }

    fn compile(&self, revision: &Revision) -> Result<Self::Rules, Vec<Diagnostic>> {
        super::compile(revision).map(Arc::new)
    }

    fn metrics(&self, world: &Self::Rules) -> Vec<Metric> {
        let parts: Vec<Part> =
            world.modes.values().map(|m| Part { id: m.id.clone(), label: m.label.clone() }).collect();
        let metric = |id: &str, pt: &str, en: &str, kind, format| Metric {
            id: id.into(),
            label: labels(pt, en),
            kind,
            scale: 1,
            format,
            parts: parts.clone(),
        };
        vec![
            metric("journey_won", "jornada vencida", "journey won", Kind::Mean, Format::Percent),
            metric("encounters_won", "encontros vencidos", "encounters won", Kind::Mean, Format::Number),
            metric("life_at_end", "vida ao fim", "life at the end", Kind::Mean, Format::Number),
            metric("commands", "comandos", "commands", Kind::Mean, Format::Number),
            metric("critical_impacts", "impactos críticos", "critical impacts", Kind::Ratio, Format::Percent),
        ]
    }

    fn simulate(&self, world: &Self::Rules, index: u64, dice: &mut Dice, out: &mut [i64]) -> Result<(), String> {
        let n = world.modes.len();
        for (k, mode) in world.modes.keys().enumerate() {
            let mut run =
                Run::with_dice(world.clone(), mode, dice.clone(), format!("lab-{index}")).map_err(|e| e.to_string())?;
            play_out(&mut run).map_err(|e| format!("mode '{mode}', simulation {index}: {e}"))?;
            let (mut crits, mut hits) = (0i64, 0i64);
            for e in run.events() {
                if let What::Effect { source, target, tier: Some(t), .. } = &e.what
                    && source == "hero"
                    && target != "hero"
                {
                    hits += 1;
                    crits += i64::from(*t > 0);
                }
            }
            let life = run.hero().values.get(&world.life).copied().unwrap_or(0.0);
            out[k] = i64::from(run.victory() == Some(true));
            out[n + k] = i64::from(run.encounters_won());
            out[2 * n + k] = microfut_core::expr::round(life) as i64;
            out[3 * n + k] = run.sequence() as i64;
            out[4 * n + 2 * k] = crits;
            out[4 * n + 2 * k + 1] = hits;
        }
        Ok(())
    }
}
