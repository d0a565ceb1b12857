//! Preparing a lab command (scenarios compiled, identity fixed) and running it on all cores.

use super::LabError;
use super::accumulate::{Accumulator, Layout};
use super::identity::{Identity, RevisionRef, ScenarioRef};
use super::metric::RESERVED_KEYS;
use super::scenario::{self, Scenario};
use super::shard::Shard;
use super::simulator::Simulator;
use crate::catalog::{Diagnostic, Revision};
use crate::dice::Dice;
use rayon::prelude::*;

/// What to run.
pub struct Request<'a> {
    pub revision: &'a Revision,
    /// A/B mode: also run every scenario under this revision, on the same seeds.
    pub against: Option<&'a Revision>,
    /// Scenario ids to run; empty for all, in declaration order.
    pub scenarios: &'a [String],
    /// Simulations per scenario.
    pub simulations: u64,
    pub seed: u64,
}

struct Arms<R> {
    id: String,
    /// The scenario's compiled rules: the revision's, then the `--against` revision's.
    rules: Vec<R>,
    layout: Layout,
    /// Dice label prefix `lab/<scenario id>/`; the simulation index follows.
    label: Vec<u8>,
}

/// A command ready to run: every scenario compiled and checked, the identity fixed.
pub struct Prepared<R> {
    pub identity: Identity,
    scenarios: Vec<Arms<R>>,
}

impl<R> Prepared<R> {
    pub fn layouts(&self) -> Vec<Layout> {
        self.scenarios.iter().map(|s| s.layout.clone()).collect()
    }
}

fn invalid(rev: &Revision, diagnostics: Vec<Diagnostic>) -> LabError {
    LabError::Invalid { revision: rev.label(), diagnostics }
}

/// Scenarios of a revision, with the base revision compiled first so its own problems are not
/// blamed on an overlay.
fn scenarios_of<S: Simulator>(sim: &S, rev: &Revision) -> Result<Vec<Scenario>, LabError> {
    sim.compile(rev).map_err(|d| invalid(rev, d))?;
    scenario::scenarios(rev).map_err(|d| invalid(rev, d))
}

fn select(all: &[Scenario], wanted: &[String], rev: &Revision) -> Result<Vec<Scenario>, LabError> {
    for w in wanted {
        if !all.iter().any(|s| &s.id == w) {
            let known: Vec<&str> = all.iter().map(|s| s.id.as_str()).collect();
            let hint = known
                .iter()
                .filter(|k| strsim::jaro_winkler(&k.to_lowercase(), &w.to_lowercase()) > 0.85)
                .map(|k| format!(" (did you mean '{k}'?)"))
                .next()
                .unwrap_or_default();
            return Err(LabError::UnknownScenario {
                id: w.clone(),
                revision: rev.label(),
                known: known.join(", "),
                hint,
            });
        }
    }
    Ok(all.iter().filter(|s| wanted.is_empty() || wanted.contains(&s.id)).cloned().collect())
}

/// Compiles every selected scenario (under both revisions in A/B mode) and fixes the identity.
/// All overlay problems of all scenarios are reported together.
pub fn prepare<S: Simulator>(sim: &S, req: &Request) -> Result<Prepared<S::Rules>, LabError> {
    if req.simulations == 0 {
        return Err(LabError::NoSimulations);
    }
    let rev = req.revision;
    let selected = select(&scenarios_of(sim, rev)?, req.scenarios, rev)?;
    let against_all = match req.against {
        Some(b) => Some((b, scenarios_of(sim, b)?)),
        None => None,
    };

    let mut problems = Vec::new();
    let mut compiled = Vec::new();
    for s in &selected {
        let mut arms = vec![(rev, s.clone())];
        if let Some((b, list)) = &against_all {
            let other = list.iter().find(|o| o.id == s.id).ok_or_else(|| LabError::ScenarioNotIn {
                id: s.id.clone(),
                revision: b.label(),
                known: list.iter().map(|o| o.id.clone()).collect::<Vec<_>>().join(", "),
            })?;
            arms.push((*b, other.clone()));
        }
        let mut rules = Vec::new();
        let mut fingerprints = Vec::new();
        for (r, sc) in arms {
            match scenario::apply(r, &sc) {
                Ok(patched) => match sim.compile(&patched) {
                    Ok(c) => {
                        fingerprints.push(patched.fingerprint.clone());
                        rules.push(c);
                    }
                    Err(d) => problems.extend(scenario::locate(r, &sc, d)),
                },
                Err(d) => problems.extend(d),
            }
        }
        compiled.push((s, rules, fingerprints));
    }
    if !problems.is_empty() {
        return Err(LabError::Overlay { revision: rev.label(), diagnostics: problems });
    }

    let arms = if req.against.is_some() { 2 } else { 1 };
    let mut refs = Vec::new();
    let mut prepared = Vec::new();
    for (s, rules, fingerprints) in compiled {
        let metrics = sim.metrics(&rules[0]);
        for m in &metrics {
            assert!(!RESERVED_KEYS.contains(&m.id.as_str()), "metric id '{}' is reserved", m.id);
        }
        if rules.len() == 2 && sim.metrics(&rules[1]) != metrics {
            return Err(LabError::MetricsDiffer { scenario: s.id.clone() });
        }
        let mut label = b"lab/".to_vec();
        label.extend_from_slice(s.id.as_bytes());
        label.push(b'/');
        prepared.push(Arms { id: s.id.clone(), layout: Layout::new(&metrics, arms), rules, label });
        refs.push(ScenarioRef {
            id: s.id.clone(),
            label: s.label.clone(),
            description: s.description.clone(),
            fingerprint: fingerprints[0].clone(),
            against_fingerprint: fingerprints.get(1).cloned(),
            metrics,
        });
    }
    let identity = Identity {
        engine: crate::catalog::ENGINE_VERSION.into(),
        ruleset: sim.ruleset().into(),
        unit: sim.unit(),
        revision: RevisionRef::of(rev),
        against: req.against.map(RevisionRef::of),
        simulations: req.simulations,
        seed: req.seed,
        setup: sim.setup(),
        scenarios: refs,
    };
    Ok(Prepared { identity, scenarios: prepared })
}

/// Simulations handed to a thread at a time: large enough that scheduling costs nothing (a
/// Trilha game takes ~0.1 µs), and at least `MIN_CHUNKS` pieces per scenario so that slow
/// simulations (a Microfut match takes ~30 ms) still spread over every core and move the progress
/// bar. Accumulators are exact integers, so the chunking does not affect results.
const MAX_CHUNK: u64 = 1024;
const MIN_CHUNKS: u64 = 64;

fn chunk_size(simulations: u64) -> u64 {
    (simulations / MIN_CHUNKS).clamp(1, MAX_CHUNK)
}

/// Runs this shard's slice of every scenario in parallel and returns one exact accumulator per
/// scenario. Simulation `i` of scenario `s` always gets the dice `Dice::derived(seed,
/// "lab/<s>/" + i)` — in both arms of an A/B run — so results depend neither on thread count nor
/// on scheduling, and memory does not grow with N. `progress` is told how many simulations ended.
/// A simulation that fails stops the run with its error.
pub fn run<S: Simulator>(
    sim: &S,
    p: &Prepared<S::Rules>,
    shard: Shard,
    progress: &(dyn Fn(u64) + Sync),
) -> Result<Vec<Accumulator>, LabError> {
    let range = shard.range(p.identity.simulations);
    let chunk = chunk_size(range.end - range.start);
    let chunks = (range.end - range.start).div_ceil(chunk);
    let total = chunks * p.scenarios.len() as u64;
    let seed = p.identity.seed;
    let zero = || p.scenarios.iter().map(|s| Accumulator::new(&s.layout)).collect::<Vec<_>>();

    (0..total)
        .into_par_iter()
        .try_fold(
            || (zero(), Vec::<i64>::new(), Vec::<u8>::new()),
            |(mut accs, mut obs, mut label), item| {
                let s = (item / chunks) as usize;
                let arms = &p.scenarios[s];
                let lo = range.start + (item % chunks) * chunk;
                let hi = (lo + chunk).min(range.end);
                let per_arm = arms.layout.slots_per_arm;
                obs.resize(arms.layout.observation_len(), 0);
                label.clear();
                label.extend_from_slice(&arms.label);
                let prefix = label.len();
                for index in lo..hi {
                    label.truncate(prefix);
                    label.extend_from_slice(&index.to_le_bytes());
                    obs.fill(0);
                    for (arm, rules) in arms.rules.iter().enumerate() {
                        let mut dice = Dice::derived(seed, &label);
                        sim.simulate(rules, index, &mut dice, &mut obs[arm * per_arm..(arm + 1) * per_arm])
                            .map_err(|message| LabError::Simulation { scenario: arms.id.clone(), index, message })?;
                    }
                    accs[s].add(&arms.layout, &obs);
                }
                progress((hi - lo) * arms.rules.len() as u64);
                Ok((accs, obs, label))
            },
        )
        .map(|r| r.map(|(accs, _, _)| accs))
        .try_reduce(zero, |mut a, b| {
            for (x, y) in a.iter_mut().zip(&b) {
                x.merge(y);
            }
            Ok(a)
        })
}
