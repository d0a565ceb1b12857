//! What the API reads and writes, as the OpenAPI document describes it. Requests refuse unknown
//! fields. Engine documents carried inside responses (events, decisions, explanations, run
//! records) keep the field names the CLI's JSON gives them, so one reader serves both.

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, Serialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum Side {
    Home,
    Away,
}

impl Side {
    pub fn index(self) -> usize {
        match self {
            Side::Home => 0,
            Side::Away => 1,
        }
    }
    pub fn of(t: usize) -> Side {
        if t == 0 { Side::Home } else { Side::Away }
    }
}

#[derive(Debug, Clone, Deserialize, ToSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct CreateRun {
    /// Home club: a sample club's id or an uploaded club's id (`GET /clubs`).
    pub home: String,
    pub away: String,
    /// Seed of the run's dice (default: a random one, below 2^53 so JavaScript keeps it exact).
    #[serde(default)]
    pub seed: Option<u64>,
    /// Content revision (default: the newest published).
    #[serde(default)]
    pub revision: Option<String>,
    /// The side a person plays; null for a match the NPC plays alone.
    #[serde(default)]
    pub human: Option<Side>,
    #[serde(default)]
    pub home_formation: Option<String>,
    #[serde(default)]
    pub away_formation: Option<String>,
}

#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ClubRef {
    pub id: String,
    pub name: String,
}

#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct CreatedRun {
    pub run_id: String,
    /// Needed by every write to this run: `Authorization: Bearer <token>`. Shown once.
    pub token: String,
    pub ruleset: String,
    pub revision: String,
    pub fingerprint: String,
    pub engine_version: String,
    pub seed: u64,
    pub human: Option<Side>,
    pub home: ClubRef,
    pub away: ClubRef,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, Serialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum Until {
    /// One round (or up to the human side's decision that opens it).
    Round,
    /// Up to the human side's next decision.
    Decision,
    /// To full time.
    End,
}

#[derive(Debug, Clone, Deserialize, ToSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct AdvanceRequest {
    pub until: Until,
    /// Let the NPC take the human side's decisions met on the way (a pending one included).
    /// Without it, an advance stops at the human side's decision, and one already pending is a 409.
    #[serde(default)]
    pub delegate: bool,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum Stop {
    Round,
    Decision,
    End,
}

#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct RollView {
    /// `home-9`: side and shirt.
    pub player: String,
    /// The roller's side, so a front end draws an opponent's success in his colours, not yours.
    pub team: Side,
    pub pipeline: String,
    pub label: microfut_core::catalog::Labels,
    /// What the test was rolled for — the branch of play that happened: `action` (the carrier's
    /// pass, throw, cross, shot or penalty), `duel` (the carrier's test in a duel after a carry
    /// or a dribble), `tackle` (the defender's in it), `interception`, `block`, `control`,
    /// `aerial`, `header`, `save`, `gather`, `positioning`. Null for rolls stored before it was
    /// recorded.
    pub role: Option<String>,
    /// The dice rolled, as the content names them (`3d6`); null when the revision is not known.
    pub dice: Option<String>,
    /// The difficulty the dice faced: the test needs this total or more.
    pub difficulty: i32,
    /// The dice total.
    pub total: u32,
    pub margin: i32,
    pub success: bool,
    /// The exact chance the test had.
    pub probability: f64,
}

#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PendingView {
    pub round: u32,
    /// The human side's player on the ball.
    pub player: String,
    pub candidates: usize,
}

#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct AdvanceResult {
    pub run_id: String,
    pub rounds_played: u32,
    pub stopped_at: Stop,
    pub round: u32,
    pub minute: f64,
    pub score: [u32; 2],
    pub finished: bool,
    pub pending: Option<PendingView>,
    /// Events of the rounds played, in order (the engine's event documents, byte for byte as
    /// the run store keeps them).
    #[schema(value_type = Vec<Object>)]
    pub events: Vec<Box<serde_json::value::RawValue>>,
    /// The tests rolled in the last round played.
    pub rolls: Vec<RollView>,
}

#[derive(Debug, Clone, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct IntentRequest {
    /// carry, pass, cross, shoot, dribble or throw — as the candidate's `kind` (a kick-off, a
    /// corner, a free kick, a goal kick or a penalty is played with these kinds too).
    pub kind: microfut_football::engine::Kind,
    /// carry: degrees off the line to goal; pass or throw: a team-mate's shirt; dribble: the
    /// opponent's shirt.
    #[serde(default)]
    pub target: Option<i32>,
    /// A set piece's zone (a delivery's, `far_post`) or a penalty's side (`left`), as the
    /// candidate's `zone` names it (revisions with set pieces, 0.6); refused (422 naming `zone`)
    /// where no candidate of this kind has one. Send back every field of the candidate chosen:
    /// `kind`, `target` and `zone`.
    #[serde(default)]
    pub zone: Option<String>,
}

#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct IntentResult {
    pub run_id: String,
    /// The round the intent was played in.
    pub round: u32,
    /// As a person writes it: `pass #9`.
    pub intent: String,
    /// The tests of the action and its opposition, the carrier's own first.
    pub rolls: Vec<RollView>,
    /// Tests rolled as the round opened, before the decision (off-ball positioning, a restart).
    pub earlier_rolls: Vec<RollView>,
    /// The events of the round, byte for byte as the run store keeps them.
    #[schema(value_type = Vec<Object>)]
    pub events: Vec<Box<serde_json::value::RawValue>>,
    pub score: [u32; 2],
    pub finished: bool,
    pub pending: Option<PendingView>,
}

/// One test as it will be rolled if the candidate is declared now.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct TestView {
    /// `home-9`: side and shirt.
    pub player: String,
    pub pipeline: String,
    pub label: microfut_core::catalog::Labels,
    /// The total the dice must reach (null: the test is impossible, a requirement fails) …
    pub difficulty: Option<i32>,
    /// … or, this share of the time, one more (0.6's fractional difficulties).
    pub fraction: f64,
    /// Exact chance of success: bit for bit the `probability` of the roll that resolves it.
    pub probability: f64,
}

/// A candidate of the human side's pending decision. Every figure not named `…Estimate` is
/// exact under the rules and priced on the geometry its roll will use: the round's movement for
/// this candidate is played first (it draws no die), then the action's own test is evaluated by
/// the code that rolls it. `…Estimate` figures are the NPC's: computed before the movement, by
/// its method (a pass's or a cross's keep chance takes every margin's ball to arrive where it is
/// aimed and weighs the interceptors on that line and the receiver's control, or the best header
/// of each side; a cross's goal chance is that header's).
#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct CandidateView {
    pub index: usize,
    pub kind: String,
    pub target: Option<i32>,
    /// A set piece's zone or a penalty's side: send it back as the intent's `zone`.
    pub zone: Option<String>,
    /// The content's label of that zone or side (`far post`, `left corner`).
    pub zone_label: Option<microfut_core::catalog::Labels>,
    /// As a person writes it: `pass #9`, `carry 30°`, `cross → far_post`.
    pub intent: String,
    /// What the action comes to after the round's movement: `test` (its own test is rolled),
    /// `duel` (a carry or a dribble is challenged), `unchallenged`, `contained` (the defender
    /// who can reach him holds off) or `out_of_reach` (a dribble's man is too far): no test.
    pub branch: String,
    /// The figure to read first: the chance of the action's own test, or for a carry or a
    /// dribble the chance his side keeps the ball (or wins a free kick) through what follows
    /// the run.
    pub headline: f64,
    /// Exact chance the action's own test succeeds (in a duel: the carrier's test) — the
    /// `probability` of the roll that resolves it; null when no test will be rolled.
    pub probability: Option<f64>,
    /// That test: whose, which pipeline, against what.
    pub test: Option<TestView>,
    /// In a duel: the defender's test.
    pub opponent: Option<TestView>,
    /// In a duel: the exact chance the carrier wins it (the content's duel table over both
    /// margins) …
    pub wins_duel: Option<f64>,
    /// … and the share of the duels he loses that are called as fouls (a free kick for his side).
    pub foul_share: Option<f64>,
    /// Exact chance the team keeps the ball through it (carries and dribbles: the headline);
    /// null where only the NPC's estimate exists.
    pub keep_probability: Option<f64>,
    /// The NPC's estimate of that chance, made before the round's movement.
    pub keep_estimate: f64,
    /// Exact chance it ends in a goal: a shot (its blockers and the keeper, every margin) or a
    /// penalty (the keeper's dive by the content's odds); null otherwise.
    pub goal_chance: Option<f64>,
    /// The NPC's estimate of the chance of a goal (a cross's header; a shot's before the
    /// movement); 0 for other actions.
    pub goal_estimate: f64,
    /// Metres gained towards goal, exact: to where the ball is aimed, or to where the carrier's
    /// run ends (0 for a shot).
    pub gain: f64,
    /// The NPC's terms: the opportunity where it sends the ball, its risk term.
    pub threat: f64,
    pub turnover_risk: f64,
    /// The NPC's score for it (personality, match state and noise included).
    pub npc_score: f64,
    /// Where it sends the ball or the carrier.
    pub dest: [f64; 2],
    /// In words, in English, with its odds.
    pub summary: String,
    /// The action test's pipeline, stage by stage, as it will be rolled (null when no test will
    /// be rolled: a carry nobody challenges).
    #[schema(value_type = Option<Object>)]
    pub explanation: Option<serde_json::Value>,
}

#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct CandidatesView {
    pub run_id: String,
    pub round: u32,
    pub player: String,
    /// The restart the decision takes (`kick_off`, `throw_in`, `goal_kick`, `corner`,
    /// `free_kick`, `indirect_free_kick`, `penalty`), null in open play.
    pub restart: Option<String>,
    /// The candidate the NPC would choose.
    pub npc_choice: usize,
    pub candidates: Vec<CandidateView>,
}

#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PlayerView {
    /// `home-9`: side and shirt.
    pub id: String,
    pub side: Side,
    pub shirt: u32,
    pub name: String,
    pub role: String,
    pub role_label: Option<microfut_core::catalog::Labels>,
    pub line: String,
    pub x: f64,
    pub y: f64,
    /// Unit body direction; null when the body is neutral.
    pub dir: Option<[f64; 2]>,
    pub stamina: f64,
    pub has_ball: bool,
}

#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct BallView {
    pub x: f64,
    pub y: f64,
    /// held, loose or dead.
    pub state: String,
    pub holder: Option<String>,
    /// The restart to be taken when the ball is dead.
    pub restart: Option<String>,
}

#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PitchView {
    pub length: f64,
    pub width: f64,
    pub goal_y: f64,
    pub post_low: f64,
    pub post_high: f64,
    pub box_depth: f64,
    pub box_half_width: f64,
}

#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct TeamView {
    pub id: String,
    pub name: String,
    pub formation: String,
    pub attacks_right: bool,
    #[schema(value_type = Object)]
    pub stats: serde_json::Value,
}

#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct RunView {
    pub run_id: String,
    pub ruleset: String,
    pub revision: String,
    pub fingerprint: String,
    pub engine_version: String,
    pub seed: u64,
    pub human: Option<Side>,
    pub round: u32,
    /// 0-based half.
    pub half: u32,
    /// Seconds played in this half.
    pub clock: f64,
    pub minute: f64,
    pub score: [u32; 2],
    pub finished: bool,
    pub home: TeamView,
    pub away: TeamView,
    pub pitch: PitchView,
    pub ball: BallView,
    pub players: Vec<PlayerView>,
    pub pending: Option<PendingView>,
}

#[derive(Debug, Clone, Deserialize, ToSchema, utoipa::IntoParams)]
#[serde(deny_unknown_fields)]
#[into_params(parameter_in = Query)]
pub struct FromQuery {
    /// First round to include.
    #[serde(default)]
    pub from: Option<u32>,
    /// At most this many items (default and maximum 100000).
    #[serde(default)]
    pub limit: Option<u32>,
}

#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct RoundRolls {
    pub round: u32,
    pub hash: String,
    pub rolls: Vec<RollView>,
}

#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct EventsView {
    pub run_id: String,
    pub from: u32,
    #[schema(value_type = Vec<Object>)]
    pub events: Vec<serde_json::Value>,
    /// The committed rounds from `from` on: state hash and the tests rolled.
    pub rounds: Vec<RoundRolls>,
}

#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct DecisionsView {
    pub run_id: String,
    /// Decisions the log keeps (the content's retention).
    pub retention: usize,
    /// Decisions made so far; the oldest beyond the retention are no longer kept.
    pub total: u64,
    /// The decision log's entries (document §33), oldest first.
    #[schema(value_type = Vec<Object>)]
    pub decisions: Vec<serde_json::Value>,
}

#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Contribution {
    pub stage: String,
    pub kind: String,
    pub label: microfut_core::catalog::Labels,
    pub op: String,
    pub amount: f64,
    /// Running value after this stage.
    pub running: f64,
    /// The table input that chose the amount, when the stage is a table.
    pub input: Option<f64>,
    pub table: Option<String>,
    /// Where the stage lives in content (`modifiers.json#/modifiers/2`).
    pub source: String,
}

#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct AttributeProjection {
    pub attribute_id: String,
    /// attribute, skill, characteristic, derived or test.
    pub kind: String,
    pub display_name: microfut_core::catalog::Labels,
    pub unit: Option<String>,
    pub base_value: f64,
    pub effective_value: f64,
    pub pipeline_id: Option<String>,
    pub pipeline_fingerprint: Option<String>,
    /// For tests: difficulty and exact chance in this context.
    pub difficulty: Option<i32>,
    pub probability: Option<f64>,
    pub context_tags: Vec<String>,
    pub contributions: Vec<Contribution>,
    pub contributions_truncated: bool,
}

#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ProjectionContextView {
    pub stamina: f64,
    pub nearest_opponent: f64,
    pub opponents_within_3m: f64,
    pub orientation: Option<f64>,
    pub distance_to_goal: f64,
    pub angle_to_goal: f64,
}

#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct AttributesView {
    pub run_id: String,
    pub round: u32,
    pub content_revision: String,
    pub fingerprint: String,
    pub player_id: String,
    /// Whose values these are: the player as he stands in the run's current round.
    pub authority: String,
    pub context: ProjectionContextView,
    pub attributes: Vec<AttributeProjection>,
}

#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PlayerSheetView {
    pub run_id: String,
    pub player_id: String,
    /// The computed sheet (as `microfut sheet --json` shows it).
    #[schema(value_type = Object)]
    pub sheet: serde_json::Value,
    pub stamina: f64,
    pub x: f64,
    pub y: f64,
}

#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct RevisionView {
    pub ruleset: String,
    pub version: String,
    pub status: Option<String>,
    pub fingerprint: String,
    pub parent: Option<String>,
    pub engine: Option<String>,
    pub label: Option<microfut_core::catalog::Labels>,
    pub change_note: Option<String>,
    /// Whether the match engine can play it (and so `POST /runs` accept it).
    pub playable: bool,
    /// The one `POST /runs` uses when none is named.
    pub default: bool,
}

#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ClubSummary {
    pub id: String,
    pub name: String,
    /// sample (content) or uploaded.
    pub source: String,
    pub identity: String,
    pub budget: u64,
    pub players: usize,
    #[schema(value_type = Object)]
    pub personality: serde_json::Value,
}

#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ClubUploaded {
    pub id: String,
    pub name: String,
    /// The validation report (as `microfut club validate --json` gives it).
    #[schema(value_type = Object)]
    pub report: serde_json::Value,
}
