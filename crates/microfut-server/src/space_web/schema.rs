//! The shapes of the battlefield's JSON for its OpenAPI document (`Space…` components).
//!
//! The game's own types (`microfut_space::{Board, Played, Outcome, MatchRecord}`) know nothing of
//! OpenAPI — the space crate builds without utoipa —, so their wire shapes are written here, next
//! to the handlers that send them. `tests/space/web.rs` validates real answers of every route
//! against these schemas and checks every enum against the values the server accepts, so a change
//! of either side shows.

#![allow(dead_code)] // Only their schemas are used.

use microfut_core::catalog::Labels;
use utoipa::ToSchema;
use utoipa::openapi::RefOr;
use utoipa::openapi::schema::{ArrayBuilder, ObjectBuilder, Schema, SchemaType, Type};

/// A side: white plays up the rows, black down.
#[derive(ToSchema)]
#[schema(as = SpaceSide, rename_all = "lowercase")]
pub enum Side {
    White,
    Black,
}

/// A built-in bot (`BotKind`).
#[derive(ToSchema)]
#[schema(as = SpaceBot, rename_all = "lowercase")]
pub enum Bot {
    Random,
    Greedy,
    Search,
}

/// What an action does.
#[derive(ToSchema)]
#[schema(as = SpaceActionKind, rename_all = "snake_case")]
pub enum Kind {
    Move,
    Attack,
    Suicide,
    Pass,
}

/// How a match was won.
#[derive(ToSchema)]
#[schema(as = SpaceVictory, rename_all = "snake_case")]
pub enum Victory {
    Goal,
    Destruction,
    OpponentInvalid,
    Draw,
}

/// A square, `[row, column]`: row 0..=n+1, column 1..=n.
pub struct Square;

impl utoipa::PartialSchema for Square {
    fn schema() -> RefOr<Schema> {
        let coordinate =
            ObjectBuilder::new().schema_type(SchemaType::Type(Type::Integer)).minimum(Some(0)).maximum(Some(255));
        ArrayBuilder::new()
            .items(coordinate)
            .min_items(Some(2))
            .max_items(Some(2))
            .description(Some("[row, column]"))
            .into()
    }
}

impl ToSchema for Square {
    fn name() -> std::borrow::Cow<'static, str> {
        "SpaceSquare".into()
    }
}

/// A board: its size, each side's robots, the ball and who holds it.
#[derive(ToSchema)]
#[schema(as = SpaceBoard)]
pub struct Board {
    /// Columns (the field has rows 0..=n+1).
    n: u8,
    white: Vec<Square>,
    black: Vec<Square>,
    ball: Square,
    /// The robot on the ball's square holds it; none: loose. Checked when given.
    holder: Option<Side>,
}

/// A legal action: its kind and squares.
#[derive(ToSchema)]
#[schema(as = SpaceAction)]
pub struct Action {
    action: Kind,
    from: Square,
    to: Square,
}

/// One action of a match, by the side that played it.
#[derive(ToSchema)]
#[schema(as = SpacePlayed)]
pub struct Played {
    side: Side,
    action: Kind,
    from: Square,
    to: Square,
    /// The player's thinking time in milliseconds (process bots only).
    ms: Option<f64>,
}

/// A side's invalid answer.
#[derive(ToSchema)]
#[schema(as = SpaceFault)]
pub struct Fault {
    /// Why the answer was refused (`timeout`, `invalid_action`, …).
    reason: String,
    detail: String,
    answer: Option<String>,
}

/// How a match ended.
#[derive(ToSchema)]
#[schema(as = SpaceOutcome)]
pub struct Outcome {
    /// None: a draw.
    winner: Option<Side>,
    victory: Victory,
    /// The invalid answer of a side, by side name (only a side that made one).
    #[schema(value_type = std::collections::BTreeMap<String, Fault>)]
    reasons: (),
    /// White's and black's points.
    points: [u32; 2],
    /// Whether each side's answers were all valid.
    valid: [bool; 2],
    /// Actions played (passes are not actions).
    actions: u32,
}

/// A bot as a record names it.
#[derive(ToSchema)]
#[schema(as = SpaceEntrant)]
pub struct Entrant {
    name: String,
    command: String,
}

/// A match record (format `space-match/1`), as `microfut space match --record` writes it and
/// `microfut space replay` reads it.
#[derive(ToSchema)]
#[schema(as = SpaceMatchRecord)]
pub struct MatchRecord {
    format: String,
    ruleset: String,
    revision: String,
    fingerprint: String,
    engine_version: String,
    /// The seed the board was drawn with (none for a board given as a file).
    seed: Option<u64>,
    board: Board,
    white: Entrant,
    black: Entrant,
    time_limit_ms: u64,
    actions: Vec<Played>,
    result: Outcome,
    /// Each bot process's standard error (bounded), by side.
    #[schema(value_type = Option<std::collections::BTreeMap<String, String>>)]
    stderr: (),
    /// Digests of what replay cannot re-check, by JSON pointer.
    #[schema(value_type = Option<Object>)]
    seal: (),
}

/// A person's game against a built-in bot.
#[derive(ToSchema)]
#[schema(as = SpaceGame)]
pub struct Game {
    id: String,
    /// Only in the answer that creates the game: every action needs it.
    token: Option<String>,
    seed: u64,
    human: Side,
    bot: Bot,
    start: Board,
    board: Board,
    /// None once the game is over.
    to_move: Option<Side>,
    /// The person's legal actions (empty when it is not their turn).
    legal: Vec<Action>,
    log: Vec<Played>,
    /// The start, then the board after each action.
    frames: Vec<Board>,
    outcome: Option<Outcome>,
    /// The finished game as a match record.
    record: Option<MatchRecord>,
}

/// The revision's points.
#[derive(ToSchema)]
#[schema(as = SpacePoints)]
pub struct Points {
    goal: u32,
    destruction: u32,
    opponent_invalid: u32,
    draw: u32,
    loss: u32,
}

/// Which actions the revision allows.
#[derive(ToSchema)]
#[schema(as = SpaceActions)]
pub struct Actions {
    two_step_move: bool,
    attack: bool,
    carrier_attacks: bool,
    suicide_attack: bool,
    pass: bool,
}

/// The Space Football revision a server plays.
#[derive(ToSchema)]
#[schema(as = SpaceRules)]
pub struct Rules {
    /// Always `space`.
    ruleset: String,
    revision: String,
    fingerprint: String,
    label: Labels,
    /// The smallest and largest n.
    columns: [u8; 2],
    actions: Actions,
    points: Points,
    time_limit_ms: u64,
    bots: Vec<Bot>,
}

/// An initial board and white's legal actions on it.
#[derive(ToSchema)]
#[schema(as = SpaceDrawnBoard)]
pub struct DrawnBoard {
    seed: u64,
    board: Board,
    legal: Vec<Action>,
}

/// A match between two built-in bots.
#[derive(ToSchema)]
#[schema(as = SpaceMatch)]
pub struct Match {
    record: MatchRecord,
    /// The start, then the board after each action.
    frames: Vec<Board>,
}

/// A record re-checked.
#[derive(ToSchema)]
#[schema(as = SpaceReplay)]
pub struct Replay {
    /// Every action legal and the outcome as recorded.
    identical: bool,
    /// The first thing that does not hold (when not identical).
    difference: Option<String>,
    record: MatchRecord,
    /// The positions up to the first action that is not legal.
    frames: Vec<Board>,
}
