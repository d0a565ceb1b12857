//! Space Football documents as written in content (see `schemas/space_*.schema.json`).

use microfut_core::catalog::Labels;
use serde::{Deserialize, Serialize};

pub const GAME_SCHEMA: &str = "space_game.schema.json";
pub const CHAMPIONSHIP_SCHEMA: &str = "space_championship.schema.json";
pub const BOTS_SCHEMA: &str = "space_bots.schema.json";

#[derive(Debug, Clone, Deserialize)]
pub struct GameDoc {
    pub label: Labels,
    pub board: BoardDoc,
    pub actions: ActionsDoc,
    pub points: PointsDoc,
}

#[derive(Debug, Clone, Deserialize)]
pub struct BoardDoc {
    pub columns: RangeDoc,
    pub white_rows: SpanDoc,
    pub black_rows: SpanDoc,
    pub robots_per_side: FormulaRange,
}

#[derive(Debug, Clone, Copy, Deserialize)]
pub struct RangeDoc {
    pub min: i64,
    pub max: i64,
}

#[derive(Debug, Clone, Deserialize)]
pub struct SpanDoc {
    pub from: String,
    pub to: String,
}

#[derive(Debug, Clone, Deserialize)]
pub struct FormulaRange {
    pub min: String,
    pub max: String,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct ActionsDoc {
    pub two_step_move: bool,
    pub attack: bool,
    pub carrier_attacks: bool,
    pub suicide_attack: bool,
    pub pass: bool,
}

#[derive(Debug, Clone, Copy, Deserialize)]
pub struct PointsDoc {
    pub goal: u32,
    pub destruction: u32,
    pub opponent_invalid: u32,
    pub draw: u32,
    pub loss: u32,
}

#[derive(Debug, Clone, Deserialize)]
pub struct ChampionshipDoc {
    pub time_limit_ms: u64,
    pub validity_threshold: f64,
    pub group_a: GroupADoc,
    pub group_b: GroupBDoc,
    pub final_grade: FinalGradeDoc,
    pub limits: LimitsDoc,
}

#[derive(Debug, Clone, Copy, Deserialize)]
pub struct GroupADoc {
    pub most_points: f64,
    pub fewest_points: f64,
    pub all_tied: f64,
}

#[derive(Debug, Clone, Copy, Deserialize)]
pub struct GroupBDoc {
    pub per_valid_share: f64,
}

#[derive(Debug, Clone, Copy, Deserialize)]
pub struct FinalGradeDoc {
    pub normaliser: f64,
    pub min_share: f64,
    pub grade_at_min: f64,
    pub grade_at_max: f64,
}

#[derive(Debug, Clone, Copy, Deserialize)]
pub struct LimitsDoc {
    pub line_bytes: u64,
    pub memory_mb: u64,
    pub cpu_seconds: u64,
    pub stderr_bytes: u64,
    pub kill_grace_ms: u64,
}

#[derive(Debug, Clone, Deserialize)]
pub struct BotsDoc {
    pub evaluation: EvaluationDoc,
    pub search: SearchDoc,
    pub lab: LabDoc,
}

#[derive(Debug, Clone, Copy, Deserialize)]
pub struct EvaluationDoc {
    pub robot: f64,
    pub progress: f64,
    pub ball_held: f64,
    pub carrier_progress: f64,
    pub carrier_threatened: f64,
    pub loose_ball_reach: f64,
}

#[derive(Debug, Clone, Copy, Deserialize)]
pub struct SearchDoc {
    pub max_depth: u32,
    pub nodes_per_action: u64,
    pub time_share: f64,
    pub process_node_factor: u64,
}

#[derive(Debug, Clone, Deserialize)]
pub struct LabDoc {
    pub bots: Vec<String>,
}
