//! The revision's `calibration.json`: what `microfut lab calibrate` measures and the targets it
//! checks. Targets, not rules: no simulation reads this document.
//!
//! 0.5 revisions carry the Appendix D facts and four league averages for the reference club
//! against itself; 0.6 adds the calibration set — clubs generated from a budget preset and a
//! seed, fixtures between them (equal clubs in both orders, a stronger and a weaker club each at
//! home), the ranges each fixture is held to, a keeper check, where constructed situations are
//! staged and a golden same-seed match. A published revision is frozen, so the older shape stays
//! readable: every 0.6 key is optional.

use crate::engine::Rules;
use microfut_core::catalog::{Labels, declared_schema};
use serde::Deserialize;
use std::collections::BTreeMap;

#[derive(Debug, Clone, Deserialize)]
pub struct Targets {
    pub reference_club: String,
    /// 0.5: the reference club against itself, held to league averages.
    #[serde(default)]
    pub league: Option<League>,
    pub pass: PassTargets,
    pub finishing: FinishingTargets,
    pub levels: Levels,
    pub squads: Squads,
    /// Matches per fixture and order when the command does not say.
    #[serde(default)]
    pub matches: Option<u64>,
    #[serde(default)]
    pub clubs: BTreeMap<String, ClubSpec>,
    /// Named sets of ranges, each metric in the document's order.
    #[serde(default, deserialize_with = "ordered_ranges")]
    pub ranges: BTreeMap<String, Vec<(String, [f64; 2])>>,
    #[serde(default)]
    pub fixtures: Vec<Fixture>,
    #[serde(default)]
    pub keeper: Option<KeeperCheck>,
    #[serde(default)]
    pub stage: Option<Stage>,
    #[serde(default)]
    pub same_seed: Option<SameSeed>,
    /// 0.6.21: leagues of clubs drawn from a preset mix, each a double round-robin, judged on
    /// their tables.
    #[serde(default)]
    pub leagues: Vec<LeagueFixture>,
    /// 0.6.21: what `lab calibrate --short` plays.
    #[serde(default)]
    pub short: Option<Short>,
}

/// Clubs drawn afresh for each run from budget presets, from the run's seed (0.6.21): a
/// fixture's figures are about its presets, not about the squads one seed happened to draw.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Draw {
    /// Two budget presets; when they differ the first is the stronger side.
    pub presets: [String; 2],
    /// Pairs of clubs drawn per run, each played in both orders.
    pub pairs: usize,
}

/// The fewest pairs a drawn fixture may declare (issue 52: a figure about presets judged on
/// fewer pairs is a figure about those squads).
pub const MIN_PAIRS: usize = 8;

/// Leagues of `size` clubs drawn from a preset mix, each a double round-robin.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LeagueFixture {
    pub id: String,
    pub label: Labels,
    /// How many leagues a full run plays.
    pub leagues: usize,
    /// Clubs of each preset in one league, in the document's order.
    #[serde(deserialize_with = "ordered_mix")]
    pub mix: Vec<(String, usize)>,
    pub ranges: String,
}

impl LeagueFixture {
    /// Clubs in one league.
    pub fn size(&self) -> usize {
        self.mix.iter().map(|(_, n)| n).sum()
    }
}

/// What the short mode plays (`lab calibrate --short`).
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Short {
    /// Matches per fixture and order (and per variant of the match-level facts).
    pub matches: u64,
    /// Leagues per league fixture.
    pub leagues: usize,
}

#[derive(Debug, Clone, Deserialize)]
pub struct League {
    pub goals_per_match: [f64; 2],
    pub shots_per_match: [f64; 2],
    pub pass_completion: [f64; 2],
    pub shot_conversion: [f64; 2],
}

#[derive(Debug, Clone, Deserialize)]
pub struct PassTargets {
    pub distances: Vec<f64>,
    pub free_short_min: f64,
}

#[derive(Debug, Clone, Deserialize)]
pub struct FinishingTargets {
    pub close: f64,
    pub far: f64,
    pub min_gap: f64,
    pub open_goal_distance: f64,
    pub open_goal_min: f64,
    pub typical_distance: f64,
    /// 0.5: the most a typical shot may score (a goal chance, the test saturating).
    #[serde(default)]
    pub typical_max: Option<f64>,
    /// 0.6: the finishing test itself — a typical shot under light pressure …
    #[serde(default)]
    pub typical_test: Option<[f64; 2]>,
    /// … light pressure: the nearest opponent this far away (m) …
    #[serde(default)]
    pub typical_pressure: Option<f64>,
    /// … and from these distances (m) the test succeeds at most `long_test_max`.
    #[serde(default)]
    pub long_distances: Vec<f64>,
    #[serde(default)]
    pub long_test_max: Option<f64>,
}

#[derive(Debug, Clone, Deserialize)]
pub struct Levels {
    pub low: i32,
    pub high: i32,
}

#[derive(Debug, Clone, Deserialize)]
pub struct Squads {
    pub preset: String,
    pub count: u64,
    pub max_share_of_18: f64,
}

/// A club of the calibration set: a sample club, or one generated from a budget preset and a seed.
#[derive(Debug, Clone, Deserialize)]
#[serde(untagged)]
pub enum ClubSpec {
    Sample { sample: String },
    Generated { preset: String, seed: u64 },
}

/// Clubs to play each other: equal clubs (`home`/`away`, or two `clubs` in both orders) or a
/// `stronger` and a `weaker` club, each side at home; `ranges` names the targets.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Fixture {
    pub id: String,
    pub label: Labels,
    #[serde(default)]
    pub home: Option<String>,
    #[serde(default)]
    pub away: Option<String>,
    #[serde(default)]
    pub clubs: Option<[String; 2]>,
    #[serde(default)]
    pub stronger: Option<String>,
    #[serde(default)]
    pub weaker: Option<String>,
    /// 0.6.21: the clubs drawn from presets for each run, in place of named clubs.
    #[serde(default)]
    pub draw: Option<Draw>,
    /// Further `[stronger, weaker]` pairs of the same presets (0.6.15): each order's figure is
    /// the mean over the first pair and these, so a target about presets is not judged on the
    /// squads one seed happened to draw.
    #[serde(default)]
    pub draws: Vec<[String; 2]>,
    pub ranges: String,
    /// Metrics judged on both orders together (the home split between two clubs who are not
    /// quite equal).
    #[serde(default)]
    pub pooled: Vec<String>,
}

/// A side's keepers made `drop` levels worse in one skill, the rest of their sheets the same:
/// the goals they concede more, on paired seeds.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct KeeperCheck {
    pub club: String,
    pub skill: String,
    pub drop: i32,
    pub extra_conceded: [f64; 2],
}

/// Where constructed situations are staged (the pitch's touchlines, formation slots).
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Stage {
    /// Everyone not in the situation stands on a touchline: home side at `bench_y[0]`, away at
    /// `bench_y[1]`, from `bench_x` metres along, `bench_step` apart.
    pub bench_y: [f64; 2],
    pub bench_x: f64,
    pub bench_step: f64,
    /// Keepers stand this far in front of their goal line.
    pub keeper_depth: f64,
    /// Passes start here (x; centred on the goal's y) …
    pub passer_x: f64,
    /// … an interceptor stands this far off the ball's line.
    pub marker_offset: f64,
    /// Formation slots: keeper, passer, receiver, marker (away side), striker.
    pub keeper_slot: usize,
    pub passer_slot: usize,
    pub receiver_slot: usize,
    pub marker_slot: usize,
    pub striker_slot: usize,
    /// An open goal: the keeper stands this far up the pitch and this far in from a touchline.
    pub keeper_away: [f64; 2],
}

/// A match that must play exactly as it did when the revision was calibrated.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SameSeed {
    pub club: String,
    pub seed: u64,
    pub rounds: usize,
    /// The state hash after the last round, hex.
    pub hash: String,
}

/// A fixture's ranges: metric id and [low, high], in the document's order.
pub type Ranges = Vec<(String, [f64; 2])>;

/// A league's mix keeps the document's order (the clubs of a league are drawn in it).
fn ordered_mix<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Vec<(String, usize)>, D::Error> {
    let raw: serde_json::Map<String, serde_json::Value> = Deserialize::deserialize(d)?;
    raw.into_iter()
        .map(|(k, v)| serde_json::from_value::<usize>(v).map(|n| (k, n)).map_err(serde::de::Error::custom))
        .collect()
}

/// Ranges keep the order the document gives them (a report reads like the document).
fn ordered_ranges<'de, D: serde::Deserializer<'de>>(d: D) -> Result<BTreeMap<String, Ranges>, D::Error> {
    let raw: BTreeMap<String, serde_json::Map<String, serde_json::Value>> = Deserialize::deserialize(d)?;
    raw.into_iter()
        .map(|(name, set)| {
            let ranges = set
                .into_iter()
                .map(|(k, v)| serde_json::from_value::<[f64; 2]>(v).map(|r| (k, r)).map_err(serde::de::Error::custom))
                .collect::<Result<Vec<_>, D::Error>>()?;
            Ok((name, ranges))
        })
        .collect()
}

impl Targets {
    /// The revision's calibration targets.
    pub fn of(rules: &Rules) -> Result<Targets, String> {
        let rev = &rules.rs.revision;
        let (name, doc) =
            rev.documents.iter().find(|(_, d)| declared_schema(d) == Some("calibration.schema.json")).ok_or_else(
                || format!("revision {} has no calibration targets (calibration.json)", rules.rs.label()),
            )?;
        let mut t: Targets = serde_json::from_value(doc.clone()).map_err(|e| format!("{}: {e}", rev.file(name)))?;
        t.check().map_err(|e| format!("{}: {e}", rev.file(name)))?;
        if t.stage.is_none()
            && let Some(u) = &rev.upgrade
            && let Some(stage) = u.values.get(crate::engine::content::CALIBRATION_STAGE)
        {
            // Checked by `validate` (the football game's upgrade check).
            t.stage = serde_json::from_value(stage.clone()).ok();
        }
        Ok(t)
    }

    /// Names that must resolve: every fixture's clubs and ranges, the keeper check's club.
    fn check(&self) -> Result<(), String> {
        let club = |id: &str, at: &str| -> Result<(), String> {
            if id == "reference" || self.clubs.contains_key(id) {
                Ok(())
            } else {
                Err(format!("{at} names club '{id}', which `clubs` does not declare"))
            }
        };
        for (i, f) in self.fixtures.iter().enumerate() {
            let at = format!("/fixtures/{i}");
            if !self.ranges.contains_key(&f.ranges) {
                return Err(format!("{at}/ranges names '{}', which `ranges` does not declare", f.ranges));
            }
            let names: Vec<&String> = match (&f.home, &f.away, &f.clubs, &f.stronger, &f.weaker, &f.draw) {
                (Some(h), Some(a), None, None, None, None) => vec![h, a],
                (None, None, Some([a, b]), None, None, None) => vec![a, b],
                (None, None, None, Some(s), Some(w), None) => vec![s, w],
                (None, None, None, None, None, Some(d)) => {
                    if d.pairs < MIN_PAIRS {
                        return Err(format!(
                            "{at}/draw/pairs is {}: a drawn fixture plays at least {MIN_PAIRS} pairs of clubs",
                            d.pairs
                        ));
                    }
                    vec![]
                }
                _ => {
                    return Err(format!(
                        "{at}: a fixture names home and away, two clubs (both orders), a stronger and a weaker club, or a draw from presets"
                    ));
                }
            };
            for n in names {
                club(n, &at)?;
            }
            if !f.draws.is_empty() && f.stronger.is_none() {
                return Err(format!("{at}/draws: only a fixture of a stronger and a weaker club has further draws"));
            }
            for (j, pair) in f.draws.iter().enumerate() {
                for n in pair {
                    club(n, &format!("{at}/draws/{j}"))?;
                }
            }
        }
        for (i, l) in self.leagues.iter().enumerate() {
            let at = format!("/leagues/{i}");
            if !self.ranges.contains_key(&l.ranges) {
                return Err(format!("{at}/ranges names '{}', which `ranges` does not declare", l.ranges));
            }
            if l.leagues < 1 {
                return Err(format!("{at}/leagues is 0: a league fixture plays at least one league"));
            }
            if l.size() < 2 {
                return Err(format!("{at}/mix: a league needs at least two clubs (it has {})", l.size()));
            }
            if self.fixtures.iter().any(|f| f.id == l.id) || self.leagues[..i].iter().any(|o| o.id == l.id) {
                return Err(format!("{at}/id '{}' is already a fixture's id", l.id));
            }
        }
        if let Some(s) = &self.short
            && (s.matches < 1 || s.leagues < 1)
        {
            return Err("/short: a short run plays at least one match a fixture and one league".into());
        }
        if let Some(k) = &self.keeper {
            club(&k.club, "/keeper")?;
        }
        if let Some(s) = &self.same_seed {
            club(&s.club, "/same_seed")?;
        }
        Ok(())
    }
}
