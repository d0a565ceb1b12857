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
}

impl TeamStats {
    pub fn pass_completion(&self) -> f64 {
        if self.passes == 0 { 0.0 } else { self.passes_completed as f64 / self.passes as f64 }
    }
}
