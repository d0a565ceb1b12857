//! Trilha in the lab: each seat's win share, the game's length in rounds, how often a win is
//! shared.

use super::compile::{Rules, compile};
use super::game::play;
use microfut_core::catalog::{Diagnostic, Labels, Revision};
use microfut_core::dice::Dice;
use microfut_core::lab::{Format, Kind, Metric, Part, Simulator, Unit};

pub struct TrilhaSimulator;

fn labels(pt: &str, en: &str) -> Labels {
    Labels { pt_br: pt.into(), en: en.into() }
}

fn gcd(a: u64, b: u64) -> u64 {
    if b == 0 { a } else { gcd(b, a % b) }
}

/// The smallest scale at which a win shared by any number of seats is a whole number:
/// lcm(1..=seats), e.g. 6 for three seats (a three-way tie is 2/6 each). It depends on the seats
/// only, not on the tie rule, so revisions that differ in how ties are settled still compare
/// (A/B needs the same observation scale on both sides).
pub fn win_scale(rules: &Rules) -> u64 {
    (1..=rules.seats.len() as u64).fold(1, |l, k| l / gcd(l, k) * k)
}

impl Simulator for TrilhaSimulator {
    type Rules = (Rules, u64);

    fn ruleset(&self) -> &'static str {
        "trilha"
    }

    fn unit(&self) -> Unit {
        Unit { id: "games".into(), label: labels("partidas", "games") }
    }

    fn compile(&self, revision: &Revision) -> Result<Self::Rules, Vec<Diagnostic>> {
        let rules = compile(revision)?;
        let scale = win_scale(&rules);
        Ok((rules, scale))
    }

    fn metrics(&self, (rules, scale): &Self::Rules) -> Vec<Metric> {
        vec![
            Metric {
                id: "win_share".into(),
                label: labels("vitórias", "win share"),
                kind: Kind::Mean,
                scale: *scale,
                format: Format::Percent,
                parts: rules.seats.iter().map(|s| Part { id: s.id.clone(), label: s.label.clone() }).collect(),
            },
            Metric {
                id: "mean_rounds".into(),
                label: labels("rodadas (média)", "mean rounds"),
                kind: Kind::Mean,
                scale: 1,
                format: Format::Number,
                parts: vec![],
            },
            Metric {
                id: "shared_wins".into(),
                label: labels("vitórias divididas", "shared wins"),
                kind: Kind::Mean,
                scale: 1,
                format: Format::Percent,
                parts: vec![],
            },
        ]
    }

    /// Slots: win share of each seat (in turn order), then rounds, then whether the win was shared.
    fn simulate(
        &self,
        (rules, scale): &Self::Rules,
        _index: u64,
        dice: &mut Dice,
        out: &mut [i64],
    ) -> Result<(), String> {
        let o = play(rules, dice);
        let n = rules.seats.len();
        let share = (*scale / u64::from(o.winner_count())) as i64;
        for (seat, slot) in out[..n].iter_mut().enumerate() {
            if o.won(seat) {
                *slot = share;
            }
        }
        out[n] = i64::from(o.rounds);
        out[n + 1] = i64::from(o.winner_count() > 1);
        Ok(())
    }
}
