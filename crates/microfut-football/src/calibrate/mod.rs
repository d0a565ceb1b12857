//! `microfut lab calibrate`: the rules document's Appendix D facts and every calibration target
//! of a revision's `calibration.json`, each measured and printed against its range.
//!
//! The problem: calibration used to be its own loops — matches seeded `seed + i`, summed in
//! floating point, one club against itself — so its figures could not be compared with the
//! lab's, had no intervals, and a football that held up for one club said nothing about a league.
//! The decision: every match-level figure is a lab run (`lab::prepare`/`lab::run` with the
//! match engine's `Simulator`): simulation `i` has its own dice `Dice::derived(seed, …, i)`,
//! observations are summed exactly, each figure comes with its 95 % interval, and a variant
//! (a worse keeper, better dribblers) is played on the very same dice as its base, so the
//! difference is the change and not the draw. The calibration set is clubs generated from a
//! budget preset and a seed, played as the document's fixtures. Facts about single actions stay
//! exact projections on constructed situations, staged where the document says. From 0.6.21
//! the set is a population (`population`, `league`): clubs drawn afresh from presets for each
//! run, pairs and whole leagues, since fixed pairs could be tuned until they passed while their
//! presets did not. A figure passes when its estimate lies in the range (`Judging::Point`) or,
//! for a short run, when its 95 % interval overlaps the range (`Judging::Interval`: fail only
//! what the run has shown to be out); every check carries its estimate, interval and range as
//! numbers. Its limits: a fixture's two orders, and each pair of a fixture with several named
//! `draws`, are run separately, so a pooled figure's interval adds their variances (each part
//! weighs the same, whatever its count of shots or rounds); a drawn fixture's and a league's
//! per-match intervals are given the clubs drawn (the spread between draws shows as another
//! seed's figure, and in the table figures' interval over the leagues).

mod doc;
mod facts;
mod fixtures;
mod league;
mod population;
mod simulator;

pub use doc::{Stage, Targets};
/// The same-seed fact on its own: `tests/football/same_seed_goldens.rs` runs it on every revision.
pub use facts::same_seed;
pub use fixtures::KeeperSimulator;
pub use population::{PopulationSimulator, derive_seed};

use crate::club::Club;
use crate::engine::Rules;
use microfut_core::catalog::Catalog;
use serde::Serialize;
use std::sync::Arc;

/// One measured figure or fact.
#[derive(Debug, Clone, Serialize)]
pub struct Check {
    /// The fixture (`modest`, `elite_v_modest`…) or `facts`.
    pub group: String,
    /// Which order of the fixture (`modest_a v modest_b`), when it has one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub order: Option<String>,
    pub id: String,
    pub fact: String,
    pub figure: String,
    /// The estimate and its 95 % interval, when the figure is one number.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub value: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ci95: Option<[f64; 2]>,
    /// The target as numbers, [low, high] (an open end is `null`: a direction), for a check
    /// whose figure is one number: what a fit measures its distance from.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub range: Option<[f64; 2]>,
    pub target: String,
    pub pass: bool,
    /// A figure pooled over both orders or several draws: each pair's own estimate, named
    /// "home v away", in the order played.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub orders: Vec<OrderFigure>,
}

/// One pair's estimate inside a pooled figure.
#[derive(Debug, Clone, Serialize)]
pub struct OrderFigure {
    pub order: String,
    pub value: f64,
}

/// How a figure with a number is judged against its range.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Judging {
    /// The estimate lies in the range: what a full run asks.
    Point,
    /// The 95 % interval overlaps the range: a run too short to place the estimate fails only
    /// what it has shown to be out of range (the short mode CI runs).
    Interval,
}

impl Judging {
    pub fn name(self) -> &'static str {
        match self {
            Judging::Point => "point",
            Judging::Interval => "interval",
        }
    }

    /// What a passing figure means, for the report's last line.
    pub fn rule(self) -> &'static str {
        match self {
            Judging::Point => "a figure passes when its estimate lies in the target",
            Judging::Interval => "a figure passes when its 95 % interval overlaps the target",
        }
    }
}

impl Check {
    /// Judges a check with a number and a range; one without (a fact of words) keeps its verdict.
    /// An undefined figure fails either way.
    pub fn judge(&mut self, judging: Judging) {
        let (Some(v), Some([lo, hi])) = (self.value, self.range) else {
            return;
        };
        let [a, b] = match (judging, self.ci95) {
            (Judging::Interval, Some(ci)) => ci,
            _ => [v, v],
        };
        // A range with an open end is a direction ("fewer", "more"): its finite end is excluded.
        self.pass = if lo.is_infinite() || hi.is_infinite() { b > lo && a < hi } else { b >= lo && a <= hi };
    }
}

#[derive(Debug, Clone)]
pub struct Settings {
    /// Matches per fixture and order (and per variant of the match-level facts).
    pub matches: u64,
    /// Leagues per league fixture (the document's when `None`).
    pub leagues: Option<usize>,
    pub judging: Judging,
    pub seed: u64,
    /// Run only these fixtures (all when empty); facts run when `facts` is set.
    pub fixtures: Vec<String>,
    pub facts: bool,
    /// Plays this club where the document names its reference club (`--club`).
    pub reference: Option<Club>,
}

/// The clubs a revision's calibration plays, by the names its document gives them.
pub struct Clubs {
    pub by_name: std::collections::BTreeMap<String, Club>,
}

impl Clubs {
    /// Resolves every club the document names: sample clubs from the catalog, generated ones
    /// from the revision's own club rules (an error names the club and why).
    pub fn of(catalog: &Catalog, rules: &Rules, t: &Targets, reference: Option<&Club>) -> Result<Clubs, String> {
        let sample = |id: &str| -> Result<Club, String> {
            let entry = catalog.ruleset("microfut").map_err(|e| e.to_string())?;
            let v = entry
                .extra
                .get(&format!("clubs/{id}.json"))
                .ok_or_else(|| format!("calibration names sample club '{id}', which the content does not have"))?;
            serde_json::from_value(v.clone()).map_err(|e| format!("sample club {id}: {e}"))
        };
        let mut by_name = std::collections::BTreeMap::new();
        let reference = match reference {
            Some(c) => c.clone(),
            None => sample(&t.reference_club)?,
        };
        by_name.insert("reference".to_string(), reference);
        let club_rules = crate::club::rules::ClubRules::need(&rules.rs, "calibration").map_err(|e| e.to_string());
        for (name, spec) in &t.clubs {
            let club = match spec {
                doc::ClubSpec::Sample { sample: id } => sample(id)?,
                doc::ClubSpec::Generated { preset, seed } => {
                    let cr = club_rules.as_ref().map_err(Clone::clone)?;
                    let budget = cr
                        .preset(preset)
                        .ok_or_else(|| format!("calibration club '{name}': no budget preset '{preset}'"))?
                        .xp;
                    let req = crate::club::generate::Request {
                        budget,
                        identity: None,
                        personality: None,
                        seed: *seed,
                        name: Some(format!("{preset} {seed}")),
                        id: None,
                    };
                    crate::club::generate::generate(&rules.rs, &req)
                        .map_err(|e| format!("calibration club '{name}' ({preset}, seed {seed}): {e}"))?
                }
            };
            by_name.insert(name.clone(), club);
        }
        Ok(Clubs { by_name })
    }

    pub fn get(&self, name: &str) -> &Club {
        &self.by_name[name]
    }
}

/// Every check of the revision's calibration document.
pub fn calibrate(catalog: &Catalog, rules: Arc<Rules>, targets: &Targets, s: &Settings) -> Result<Vec<Check>, String> {
    let clubs = Clubs::of(catalog, &rules, targets, s.reference.as_ref())?;
    let mut out = Vec::new();
    out.extend(fixtures::run(catalog, &rules, targets, &clubs, s)?);
    out.extend(league::run(&rules, targets, s)?);
    if s.facts {
        out.extend(facts::exact(&rules, targets, clubs.get("reference"))?);
        out.extend(fixtures::paired_facts(catalog, &rules, targets, &clubs, s)?);
        out.extend(facts::squads(&rules, targets)?);
        out.push(facts::same_seed(&rules, targets, &clubs)?);
    }
    for c in &mut out {
        c.judge(s.judging);
    }
    Ok(out)
}

fn pct(x: f64) -> String {
    format!("{:.1}%", 100.0 * x)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(value: f64, ci: [f64; 2], range: [f64; 2]) -> Check {
        Check {
            group: "g".into(),
            order: None,
            id: "goals_per_match".into(),
            fact: "goals per match".into(),
            figure: String::new(),
            value: Some(value),
            ci95: Some(ci),
            range: Some(range),
            target: String::new(),
            pass: false,
            orders: Vec::new(),
        }
    }

    /// An estimate outside its range fails a point judging and passes an interval one when its
    /// interval reaches the range; an interval wholly outside fails both.
    #[test]
    fn point_and_interval_judging() {
        let judged = |mut c: Check, j| {
            c.judge(j);
            c.pass
        };
        let near = check(3.1, [2.9, 3.3], [2.4, 3.0]);
        assert!(!judged(near.clone(), Judging::Point));
        assert!(judged(near, Judging::Interval));
        let far = check(3.4, [3.2, 3.6], [2.4, 3.0]);
        assert!(!judged(far.clone(), Judging::Point) && !judged(far, Judging::Interval));
        let edge = check(3.0, [3.0, 3.0], [2.4, 3.0]);
        assert!(judged(edge, Judging::Point), "a closed range includes its ends");
    }

    /// A direction ("more with better dribbling") excludes its finite end: no difference fails.
    #[test]
    fn a_direction_excludes_its_end() {
        let mut none = check(0.0, [0.0, 0.0], [0.0, f64::INFINITY]);
        none.judge(Judging::Point);
        assert!(!none.pass);
        let mut some = check(-0.01, [-0.05, 0.03], [0.0, f64::INFINITY]);
        some.judge(Judging::Interval);
        assert!(some.pass);
        some.judge(Judging::Point);
        assert!(!some.pass);
    }
}
