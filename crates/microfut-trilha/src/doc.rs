//! Trilha documents as written in content (see `schemas/trilha_*.schema.json`).

use microfut_core::catalog::Labels;
use serde::Deserialize;
use std::collections::BTreeMap;

pub const BOARD_SCHEMA: &str = "trilha_board.schema.json";
pub const PLAY_SCHEMA: &str = "trilha_play.schema.json";
pub const STRATEGIES_SCHEMA: &str = "trilha_strategies.schema.json";

#[derive(Debug, Clone, Deserialize)]
pub struct BoardDoc {
    pub label: Labels,
    pub track: Track,
    /// By id; a BTreeMap so iteration (and so every check and drawing) is in a fixed order.
    pub specials: BTreeMap<String, SpecialDoc>,
}

#[derive(Debug, Clone, Copy, Deserialize)]
pub struct Track {
    pub first: i64,
    pub finish: i64,
}

#[derive(Debug, Clone, Deserialize)]
pub struct SpecialDoc {
    pub label: Labels,
    pub squares: Vec<i64>,
    #[serde(rename = "move")]
    pub move_by: i64,
    pub chain: bool,
    pub color: Option<String>,
}

#[derive(Debug, Clone, Deserialize)]
pub struct PlayDoc {
    pub dice: DiceDoc,
    pub seats: BTreeMap<String, SeatDoc>,
    pub end: EndDoc,
    pub ties: Ties,
}

#[derive(Debug, Clone, Copy, Deserialize)]
pub struct DiceDoc {
    pub count: u32,
    pub sides: u32,
}

#[derive(Debug, Clone, Deserialize)]
pub struct SeatDoc {
    pub order: u32,
    pub label: Labels,
    pub start: i64,
    pub strategy: String,
}

#[derive(Debug, Clone, Copy, Deserialize)]
pub struct EndDoc {
    pub rule: EndRule,
    pub beyond_finish: BeyondFinish,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum EndRule {
    /// The first pawn to reach the finish wins at once.
    FirstToFinish,
    /// The round in which a pawn reaches the finish is played to its last seat; the pawn farthest
    /// along then wins.
    CompleteTheRound,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum BeyondFinish {
    /// A pawn past the finish is as far along as it went.
    Counts,
    /// Every pawn at or past the finish is equally far along.
    Capped,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Ties {
    /// Tied pawns share the win in equal fractions.
    Shared,
    /// The tied pawn earliest in the turn order wins.
    EarlierSeat,
    /// The tied pawn latest in the turn order wins.
    LaterSeat,
}

#[derive(Debug, Clone, Deserialize)]
pub struct StrategiesDoc {
    pub strategies: BTreeMap<String, StrategyDoc>,
}

/// A strategy; its labels and description are for people reading content (the schema requires
/// them), the engine needs only the kind.
#[derive(Debug, Clone, Deserialize)]
pub struct StrategyDoc {
    pub kind: StrategyKind,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum StrategyKind {
    /// The die that leaves the pawn farthest along after the landing square's effect.
    FarthestAfterEffect,
    /// Any die with equal chance.
    Uniform,
}
