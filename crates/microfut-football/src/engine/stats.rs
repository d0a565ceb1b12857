//! Per-side match statistics.

use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct TeamStats {
    pub goals: u32,
    pub shots: u32,
    pub on_target: u32,
    /// Sum of the success probabilities of every shot's finishing test.
    pub shot_probability_sum: f64,
    pub passes: u32,
    pub passes_completed: u32,
    pub crosses: u32,
    /// Duels on the ball: a carrier on the move challenged (in a dribble or while carrying), won
    /// or lost. Shown as "duels on the ball"; the key is a wire name frozen in run records.
    pub dribbles_won: u32,
    pub dribbles_lost: u32,
    pub tackles: u32,
    pub interceptions: u32,
    pub blocks: u32,
    pub saves: u32,
    pub fouls: u32,
    /// Share of rounds in possession, 0–100.
    pub possession: f64,
    pub distance_km: f64,
    pub mean_stamina: f64,
    /// Crosses (and set-piece deliveries) won in the air by a team-mate.
    #[serde(default)]
    pub crosses_completed: u32,
    /// Dribbles: a carrier choosing to beat the man ahead (a `dribble` intent), and those won.
    /// Stored as `take_ons`, a wire name frozen in run records and published calibration targets
    /// (`take_ons_per_match`); everything shown to a person calls them dribbles.
    #[serde(default)]
    pub take_ons: u32,
    #[serde(default)]
    pub take_ons_won: u32,
    /// Restarts awarded to this side.
    #[serde(default)]
    pub corners: u32,
    #[serde(default)]
    pub free_kicks: u32,
    #[serde(default)]
    pub penalties: u32,
    #[serde(default)]
    pub penalty_goals: u32,
    #[serde(default)]
    pub substitutions: u32,
    /// Shots struck from outside the box the side attacks (free kicks included, penalties not):
    /// a shot's place says as much about it as the count does, and the totals alone hid it.
    #[serde(default)]
    pub shots_outside_box: u32,
}

impl TeamStats {
    /// The run record's format, statistic by statistic: the first engine whose records carry
    /// it. A record names the engine that wrote it (`engine_version`), so a replay compares only
    /// the statistics that engine wrote; the rules a match plays by never depend on this.
    pub const FIRST_WRITTEN_BY: &[(&str, semver::Version)] = &[
        ("crosses_completed", semver::Version::new(0, 5, 3)),
        ("take_ons", semver::Version::new(0, 5, 3)),
        ("take_ons_won", semver::Version::new(0, 5, 3)),
        ("corners", semver::Version::new(0, 5, 3)),
        ("free_kicks", semver::Version::new(0, 5, 3)),
        ("penalties", semver::Version::new(0, 5, 3)),
        ("penalty_goals", semver::Version::new(0, 5, 3)),
        ("substitutions", semver::Version::new(0, 5, 3)),
        ("shots_outside_box", semver::Version::new(0, 5, 7)),
    ];

    /// The statistics a record written by engine `writer` does not carry: left out when a
    /// replay compares the record's statistics with its own.
    pub fn not_written_by(writer: &semver::Version) -> impl Iterator<Item = &'static str> {
        Self::FIRST_WRITTEN_BY.iter().filter(move |(_, first)| writer < first).map(|(id, _)| *id)
    }

    pub fn pass_completion(&self) -> f64 {
        if self.passes == 0 { 0.0 } else { self.passes_completed as f64 / self.passes as f64 }
    }
}
