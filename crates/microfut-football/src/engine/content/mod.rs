//! Everything the match engine reads from a revision, resolved by name once per match setup.
//!
//! The engine never looks a name up while playing: pipelines become indices, variables slots,
//! tables shared handles, parameters numbers. A revision lacking something the engine needs is
//! refused here with a message naming the revision and the missing piece.

use super::geometry::{AnglePlan, Pitch};
use crate::sheet::Roles;
use microfut_core::catalog::{Diagnostic, declared_schema};
use microfut_core::ruleset::{RangeTable, Ruleset};
use names::Names;
use serde::Deserialize;
use std::sync::Arc;

mod behaviours;
mod clock;
mod documents;
mod indices;
mod lineup;
pub(crate) mod lookup;
mod memos;
mod names;
mod npc_rules;
pub(crate) mod outcomes;
mod params;
mod plans;

pub use behaviours::{Behaviours, Levers};
pub use clock::Clock;
pub use documents::*;
pub use indices::{Pipes, Slots};
pub use lookup::ContentError;
pub(crate) use lookup::{doc, named_pipeline};
pub use outcomes::*;
pub use params::Params;
pub use plans::*;

pub(super) const BY: &str = "match engine";

/// A problem with a parameter's value, at `params.json#/params/N/value`.
fn param_error(rs: &Ruleset, id: &str, message: String) -> ContentError {
    match rs.params.iter().find(|p| p.id == id) {
        Some(p) => {
            let (file, pointer) = microfut_core::ruleset::split_source(&p.source);
            ContentError::at(file, format!("{pointer}/value"), message)
        }
        None => match rs.revision.upgrade.as_ref().filter(|u| u.params.contains_key(id)) {
            // A value the revision's entry in upgrades.json declares.
            Some(u) => ContentError::at(&u.file, u.pointer_to("params", id), message),
            None => ContentError::at(rs.revision.file("manifest.json"), "", message),
        },
    }
}

/// A range table whose bins carry tags the engine acts on, mapped once to an engine enum.
#[derive(Debug, Clone)]
pub struct Tagged<T: Copy> {
    pub table: Arc<RangeTable>,
    by_bin: Vec<T>,
}

impl<T: Copy> Tagged<T> {
    fn new(rs: &Ruleset, id: &str, map: &[(&str, T)]) -> Result<Self, ContentError> {
        let table = rs.need_range_table(id, BY).map_err(|m| ContentError::Missing(vec![m]))?;
        let mut by_bin = Vec::new();
        for (i, b) in table.bins.iter().enumerate() {
            let tag = b.tag.as_deref().unwrap_or("");
            match map.iter().find(|(t, _)| *t == tag) {
                Some((_, v)) => by_bin.push(*v),
                None => {
                    let known: Vec<&str> = map.iter().map(|(t, _)| *t).collect();
                    let source = rs.table(id).map(|t| t.source.clone()).unwrap_or_default();
                    let (file, pointer) = microfut_core::ruleset::split_source(&source);
                    return Err(ContentError::at(
                        file,
                        format!("{pointer}/bins/{i}/tag"),
                        format!("table '{id}' has a bin tagged '{tag}'; the match engine knows {}", known.join(", ")),
                    ));
                }
            }
        }
        Ok(Tagged { table, by_bin })
    }

    #[inline]
    pub fn of(&self, x: f64) -> T {
        self.by_bin[self.table.bin_index(x)]
    }

    #[inline]
    pub fn value(&self, x: f64) -> f64 {
        self.table.value(x)
    }
}

/// A revision, compiled and resolved for the match engine.
pub struct Rules {
    pub rs: Arc<Ruleset>,
    pub pipes: Pipes,
    pub slots: Slots,
    pub pass_quality: Tagged<PassOutcome>,
    pub pass_q_int: Arc<RangeTable>,
    pub control_outcome: Tagged<ControlOutcome>,
    pub shot_outcome: Tagged<ShotOutcome>,
    pub save_outcome: Tagged<SaveOutcome>,
    pub tackle_outcome: Tagged<DuelOutcome>,
    pub foul_check: Tagged<FoulCall>,
    pub gk_placement: Arc<RangeTable>,
    pub clock: Clock,
    pub params: Params,
    pub pitch: Pitch,
    pub formations: Vec<Formation>,
    pub default_formation: usize,
    pub bench: Bench,
    /// 0.6; `None`: nobody comes off (and setup names no bench).
    pub substitutions: Option<Substitutions>,
    pub roles: Roles,
    pub npc: Npc,
    /// The `pace` values for reposition, run and sprint (from the vocabulary's named values).
    pub paces: [f64; 3],
    /// Exact duel odds by (carrier difficulty, defender difficulty), computed once.
    pub duels: DuelOdds,
    /// What each margin means for passes and shots, and each difficulty for a reception,
    /// tabulated once: the NPC's exact estimates sum over margins many times a match.
    pub margins: Margins,
    /// The context values stamina recovery reads (at most [`MEMO_KEY`]), when that is all it
    /// reads besides a player's sheet: its result can then be kept per player and context.
    pub recovery_memo: Option<Vec<usize>>,
    /// The context values movement range reads (at most [`RANGE_KEY`]), each with the sorted
    /// ends of the range tables it is read through when nothing else reads it: a player's range
    /// can then be kept per context, keyed by those bins (see `Match::movement_range`).
    pub range_memo: Option<Vec<(usize, Option<Vec<f64>>)>>,
    /// What a pass of each difficulty can do, for the NPC's exact pass estimates.
    pub pass_plans: PassPlans,
    /// Body orientation and direction change, when the revision reads them only through range
    /// tables: their bins come from cosines (see [`AnglePlan`]).
    pub orientation_plan: Option<AnglePlan>,
    pub direction_change_plan: Option<AnglePlan>,
    /// The set pieces (0.6), or `None`: 0.5's restarts.
    pub set_pieces: Option<super::set_pieces::SetPieces>,
    /// Without set pieces, the penalty taker is the outfield player with the best value of this
    /// variable (the revision's upgrade entry names it), resolved once; revisions with set
    /// pieces name their own rule.
    pub penalty_skill_without_set_pieces: Option<usize>,
    /// Behaviours a revision switches on by declaring their parameters.
    pub behaviours: Behaviours,
    /// The club personality scale (club rules), which the NPC's weights and the team shape
    /// multiply: a club outside it is refused before kick-off.
    pub club_personality: Option<[i32; 2]>,
    /// Issue 15's speed levers; each absent one keeps the engine's play bit for bit.
    pub levers: Levers,
}

/// The key of `upgrades.json`'s `values` that says which skill picks the penalty taker of a
/// revision without set pieces.
pub const PENALTY_TAKER_SKILL: &str = "penalty_taker_skill";

/// The key of `upgrades.json`'s `values` that says where a revision whose `calibration.json`
/// has no `stage` staged its constructed situations.
pub const CALIBRATION_STAGE: &str = "calibration_stage";

/// The most players positioning sends to press the carrier, or to support him.
pub const MAX_HELPERS: usize = 4;

/// The most rounds a match may last: what the engine keeps per round (a state hash, events) is
/// held in memory. A capacity, not a rule: the clock's parameters' domains keep content far
/// below it (0.5.5: at most 4 halves of 60 min in rounds of 0.5 s, 28,800 rounds).
pub const MAX_ROUNDS: u32 = 100_000;

/// The most context values a memoised pipeline may read.
pub const MEMO_KEY: usize = 3;

/// The most context values movement range may read to be memoised (pace, with or without the
/// ball, direction change and stamina in every revision so far).
pub const RANGE_KEY: usize = 4;

/// Range tables the engine reads by name.
const RANGE_TABLES: &[&str] = &[
    "tackle_outcome",
    "pass_quality",
    "pass_q_int",
    "control_outcome",
    "shot_outcome",
    "save_outcome",
    "foul_check",
    "gk_placement",
];

impl Rules {
    /// Resolves a revision for the match engine, document by document; a revision lacking a
    /// name hears of every missing one at once, then of the first other problem.
    pub fn new(rs: Arc<Ruleset>) -> Result<Rules, ContentError> {
        let r = &*rs;
        let (formations_file, fdoc) = doc::<FormationsDoc>(r, "formations.schema.json", "formations")?;
        let (npc_file, ndoc) = doc::<NpcDoc>(r, "npc.schema.json", "NPC utility")?;
        let roles =
            crate::sheet::Roles::from_revision(&r.revision).map_err(ContentError::Invalid)?.ok_or_else(|| {
                ContentError::NoDocument { revision: r.label(), what: "playing roles", schema: "roles.schema.json" }
            })?;

        let names = Names::new(r, &npc_file);
        let pipes = Pipes::load(&names, &ndoc);
        let slots = Slots::load(&names, r);
        let clock = Clock::load(&names);
        let params = Params::load(|id| Ok(names.param_or_upgrade(id)))?;
        let pitch = lineup::pitch(&names);
        names.range_tables(RANGE_TABLES);
        let set_pieces = names.finish(super::set_pieces::resolve(r))?;

        let paces = paces(r, &slots)?;
        clock.check(r)?;
        params.check(r)?;
        pipes.check_actions(r)?;
        lineup::check_role_lines(r, &roles)?;
        lineup::check_pitch(r, &pitch)?;
        let default_formation = lineup::default_formation(&formations_file, &fdoc)?;
        let mut problems = Vec::new();
        lineup::check_formations(&formations_file, &fdoc, &roles, &pitch, &mut problems);
        let npc = npc_rules::load(r, &npc_file, ndoc, &roles, problems)?;

        let tackle_outcome = Tagged::new(
            r,
            "tackle_outcome",
            &[
                ("carrier_keeps", DuelOutcome::CarrierKeeps),
                ("loose", DuelOutcome::Loose),
                ("steal", DuelOutcome::Steal),
            ],
        )?;
        let duels = DuelOdds::new(&r.odds, &tackle_outcome);
        let pass_quality = Tagged::new(
            r,
            "pass_quality",
            &[
                ("exceptional", PassOutcome::OnTarget),
                ("good", PassOutcome::OnTarget),
                ("adequate", PassOutcome::OnTarget),
                ("imprecise", PassOutcome::Imprecise),
                ("misplaced", PassOutcome::Misplaced),
            ],
        )?;
        let pass_q_int = r.need_range_table("pass_q_int", BY).map_err(|m| ContentError::Missing(vec![m]))?;
        let control_outcome = Tagged::new(
            r,
            "control_outcome",
            &[
                ("clean", ControlOutcome::Clean),
                ("heavy_touch", ControlOutcome::HeavyTouch),
                ("loose", ControlOutcome::Loose),
            ],
        )?;
        let shot_outcome = Tagged::new(
            r,
            "shot_outcome",
            &[
                ("on_target", ShotOutcome::OnTarget),
                ("weak", ShotOutcome::Weak),
                ("off_target", ShotOutcome::OffTarget),
            ],
        )?;
        let margins = Margins::new(&r.odds, &pass_quality, &pass_q_int, &shot_outcome, &control_outcome);
        let fractional = rs.pipelines[pipes.pass].fractional;
        let pass_plans = PassPlans::new(&r.odds, &margins, &params, fractional);
        let plan = |slot: usize| rs.table_bounds[slot].as_deref().and_then(AnglePlan::new);
        let penalty_skill_without_set_pieces = behaviours::penalty_skill(r, &roles, &set_pieces)?;
        let behaviours = Behaviours::load(r)?;
        let club_personality =
            crate::club::ClubRules::from_revision(&r.revision).ok().flatten().map(|c| c.personality.scale);
        let levers = behaviours::levers(r, &pipes, &slots, &pitch)?;
        Ok(Rules {
            levers,
            club_personality,
            set_pieces,
            penalty_skill_without_set_pieces,
            behaviours,
            orientation_plan: plan(slots.orientation),
            direction_change_plan: plan(slots.direction_change),
            duels,
            margins,
            pass_quality,
            pass_q_int,
            control_outcome,
            shot_outcome,
            recovery_memo: memos::recovery(r, &pipes, &slots),
            range_memo: memos::range(r, &pipes, &slots),
            pipes,
            slots,
            save_outcome: Tagged::new(
                r,
                "save_outcome",
                &[("hold", SaveOutcome::Hold), ("parry", SaveOutcome::Parry), ("beaten", SaveOutcome::Beaten)],
            )?,
            tackle_outcome,
            foul_check: Tagged::new(
                r,
                "foul_check",
                &[("foul", FoulCall::Direct), ("indirect", FoulCall::Indirect), ("clean", FoulCall::Clean)],
            )?,
            gk_placement: r.need_range_table("gk_placement", BY).map_err(|m| ContentError::Missing(vec![m]))?,
            clock,
            params,
            pitch,
            formations: fdoc.formations,
            default_formation,
            bench: fdoc.bench,
            substitutions: fdoc.substitutions,
            roles,
            npc,
            paces,
            pass_plans,
            rs,
        })
    }

    pub fn formation(&self, id: Option<&str>) -> Option<&Formation> {
        match id {
            Some(id) => self.formations.iter().find(|f| f.id == id),
            None => self.formations.get(self.default_formation),
        }
    }
}

/// The `pace` values for reposition, run and sprint, from the variable's named values.
fn paces(r: &Ruleset, slots: &Slots) -> Result<[f64; 3], ContentError> {
    let pace_var = &r.vars[slots.pace];
    let pace = |name: &str| {
        pace_var.values.get(name).copied().ok_or_else(|| {
            let (file, pointer) = microfut_core::ruleset::split_source(&pace_var.source);
            ContentError::at(file, format!("{pointer}/values"), format!("variable 'pace' has no named value '{name}'"))
        })
    };
    Ok([pace("reposition")?, pace("run")?, pace("sprint")?])
}

/// The engine's meaning check for `validate`: a revision that carries match content must resolve.
pub fn check(rs: Arc<Ruleset>) -> Vec<Diagnostic> {
    let has_engine_content = rs
        .revision
        .documents
        .values()
        .any(|d| matches!(declared_schema(d), Some("formations.schema.json" | "npc.schema.json")));
    if !has_engine_content {
        return Vec::new();
    }
    match Rules::new(rs.clone()) {
        Ok(_) => Vec::new(),
        Err(e) => located(&rs, e),
    }
}

/// A refusal as content diagnostics: each problem at its document and JSON pointer, each
/// missing name at the list of the document it belongs in.
pub fn located(rs: &Ruleset, e: ContentError) -> Vec<Diagnostic> {
    match e {
        ContentError::Invalid(d) => d,
        ContentError::Missing(names) => names.iter().map(|m| rs.locate(m)).collect(),
        e @ ContentError::NoDocument { .. } => {
            vec![Diagnostic::new(rs.revision.file("manifest.json"), "/documents", e.to_string())]
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use microfut_core::catalog::{Catalog, ContentTree};
    use microfut_core::dice::{DiceSpec, Odds};

    /// The table as first written: every pair of difficulties summed over every pair of totals.
    fn quartic(odds: &Odds, tackle: &Tagged<DuelOutcome>) -> (Vec<f64>, Vec<f64>) {
        let spec = odds.spec();
        let lo = spec.min_total() as i32 - 2;
        let n = (spec.max_total() as i32 + 2 - lo + 1) as usize;
        let totals: Vec<(i32, u64)> = odds.totals().map(|(t, p)| (t as i32, p.favourable)).collect();
        let (mut keep, mut win) = (vec![0.0; n * n], vec![0.0; n * n]);
        for a in 0..n {
            for b in 0..n {
                let (da, db) = (lo + a as i32, lo + b as i32);
                let (mut k, mut w, mut tie, mut all) = (0u64, 0u64, 0u64, 0u64);
                for &(ta, pa) in &totals {
                    for &(tb, pb) in &totals {
                        let x = pa * pb;
                        all += x;
                        let (ma, mb) = (ta - da, tb - db);
                        if tackle.of((mb - ma) as f64) == DuelOutcome::CarrierKeeps {
                            k += x;
                        }
                        match ma.cmp(&mb) {
                            std::cmp::Ordering::Greater => w += x,
                            std::cmp::Ordering::Equal => tie += x,
                            std::cmp::Ordering::Less => {}
                        }
                    }
                }
                keep[a * n + b] = k as f64 / all as f64;
                win[a * n + b] = if all == tie { 0.5 } else { w as f64 / (all - tie) as f64 };
            }
        }
        (keep, win)
    }

    #[test]
    fn duel_odds_by_difference_are_the_full_sums_bit_for_bit() {
        let catalog = Catalog::load(&ContentTree::embedded());
        let rs = microfut_core::ruleset::compile(catalog.revision("microfut", Some("0.5.4")).unwrap()).unwrap();
        let tackle = Tagged::new(
            &rs,
            "tackle_outcome",
            &[
                ("carrier_keeps", DuelOutcome::CarrierKeeps),
                ("loose", DuelOutcome::Loose),
                ("steal", DuelOutcome::Steal),
            ],
        )
        .unwrap();
        for spec in [DiceSpec::D3D6, DiceSpec { count: 2, sides: 10 }, DiceSpec { count: 1, sides: 20 }] {
            let odds = Odds::new(spec);
            let fast = DuelOdds::new(&odds, &tackle);
            let (keep, win) = quartic(&odds, &tackle);
            let bits = |v: &[f64]| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
            assert_eq!(bits(&fast.keep), bits(&keep), "{spec:?}");
            assert_eq!(bits(&fast.win), bits(&win), "{spec:?}");
        }
    }
}
