//! The Space Football battlefield: an HTTP API under `/api/v1/space/` and the page at `/space/`.
//!
//! Problem: the course shipped an interactive battlefield; ours must let a person pick n and a
//! seed, play a built-in bot by clicking with the legal actions shown, and step through any
//! recorded match — on `microfut serve` once it exists, before that on its own.
//!
//! Decision: one axum [`Router`] ([`router`]) holding the routes (absolute paths) and the page
//! (embedded: HTML, JS, CSS), with its state applied, so `microfut space serve` serves it alone
//! and `microfut serve` can `merge` the same router. Handlers are thin: they parse, call the
//! library (`space::moves`, `space::bots`, `space::referee`, `space::record`) and answer JSON;
//! no rule is computed here or in the page — the page draws the boards and the legal actions the
//! API returns. Games are stored (`store`: SQLite, so a restart or a killed server keeps them)
//! and the most recent [`MAX_GAMES`] kept in memory; a game's writes need its token
//! (`Authorization: Bearer …`). Built-in bots play in process on their node budget, so a
//! game and a demo match are the same for the same seed on any machine. Errors are
//! `crate::error`'s, as `microfut serve` answers them: 4xx JSON `{"error": {"code", "message",
//! "field"}}` naming the field (a JSON pointer, a query parameter, a header), read by the same
//! extractors.
//!
//! Limits: without a store ([`router`] given `None`: the tests) games live in memory only; a
//! stored game made under another revision of the rules is not resumed (its record still
//! replays with `space replay` on that revision); ids and tokens come from the standard
//! library's randomly keyed hasher (64 and 128 bits), enough for a local page, not a public
//! service.

mod schema;
pub mod store;

use crate::api::runs::random_hex;
use crate::error::{
    ApiError, ApiResult, Bearer, ErrorBody, JsonBody, PathParams, QueryParams, method_not_allowed, not_found,
};
use axum::Router;
use axum::extract::{DefaultBodyLimit, State};
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Redirect};
use axum::routing::get;
use microfut_core::dice::Dice;
use microfut_space::bots::{BotKind, Builtin, Thinking};
use microfut_space::record::{self, Entrant, MatchRecord, Verdict};
use microfut_space::referee::{self, Finished, Outcome, Played, Player};
use microfut_space::{Action, BOARD_LABEL, Board, BoardJson, Effect, Kind, Rules, Side, Square, Victory, moves};
use serde::Deserialize;
use serde_json::{Value, json};
use std::collections::{BTreeMap, BTreeSet, VecDeque};
use std::sync::{Arc, Mutex};
use std::time::Duration;
use store::{GameRow, GameStore, token_sha256};
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

/// The dice label of the battlefield's random bot (a game's seed derives its stream).
const WEB_BOT_LABEL: &[u8] = b"space/web/bot";

/// Games kept in memory; the oldest is forgotten beyond this (it stays in the store).
pub const MAX_GAMES: usize = 1000;
/// The largest request body (a match record of a long match is ~100 KB).
pub const BODY_LIMIT: usize = 4 << 20;

/// A JSON body of a battlefield route: [`JsonBody`] within [`BODY_LIMIT`].
type Body<T> = JsonBody<T, BODY_LIMIT>;

#[derive(Deserialize, utoipa::IntoParams)]
#[serde(deny_unknown_fields)]
#[into_params(parameter_in = Query)]
struct BoardQuery {
    seed: u64,
    /// Columns; by default drawn from the revision's range.
    #[serde(default)]
    n: Option<u64>,
}

/// A person's game against a built-in bot.
struct Game {
    /// Only the token's SHA-256 is kept (and stored).
    token_sha256: String,
    seed: u64,
    start: Board,
    board: Board,
    to_move: Side,
    human: Side,
    bot_kind: BotKind,
    bot: Builtin,
    log: Vec<Played>,
    outcome: Option<Outcome>,
}

/// The server's state: the rules and the games.
pub struct Battlefield {
    rules: Rules,
    games: Mutex<Games>,
    store: Option<GameStore>,
}

/// The games by id, their ids oldest first, and the ids of those whose bot is thinking (taken
/// out of the map meanwhile, so a second action on the same game waits its turn).
#[derive(Default)]
struct Games {
    by_id: BTreeMap<String, Game>,
    order: VecDeque<String>,
    busy: BTreeSet<String>,
}

impl Games {
    fn get(&self, id: &str) -> ApiResult<&Game> {
        match self.by_id.get(id) {
            Some(g) => Ok(g),
            None if self.busy.contains(id) => Err(ApiError::new(
                StatusCode::CONFLICT,
                "busy",
                format!("game {id} is playing an action: ask again"),
                Some("id"),
            )),
            None => Err(ApiError::not_found("id", format!("no game {id}"))),
        }
    }
}

impl Battlefield {
    pub fn new(rules: Rules, store: Option<GameStore>) -> Battlefield {
        Battlefield { rules, games: Mutex::new(Games::default()), store }
    }

    /// Keeps a game in memory, forgetting the oldest beyond [`MAX_GAMES`] (they stay stored).
    fn keep(g: &mut Games, id: String, game: Game) {
        if g.by_id.insert(id.clone(), game).is_none() {
            g.order.push_back(id);
        }
        while g.order.len() > MAX_GAMES {
            if let Some(old) = g.order.pop_front() {
                g.by_id.remove(&old);
            }
        }
    }

    /// Brings a stored game back into memory if it is not there (after a restart, or forgotten).
    fn load(&self, id: &str) -> ApiResult<()> {
        let Some(store) = &self.store else { return Ok(()) };
        if self.games.lock().expect("no handler panics").by_id.contains_key(id) {
            return Ok(());
        }
        let row = store.get(id).map_err(unavailable)?;
        let Some(row) = row else { return Ok(()) };
        let game = Game::restore(&self.rules, &row)?;
        let mut g = self.games.lock().expect("no handler panics");
        if !g.by_id.contains_key(id) && !g.busy.contains(id) {
            Self::keep(&mut g, id.to_string(), game);
        }
        Ok(())
    }

    /// Writes a game's actions and outcome after a move.
    fn save(&self, id: &str, game: &Game) -> ApiResult<()> {
        let Some(store) = &self.store else { return Ok(()) };
        let (actions, outcome) = game.columns();
        store.update(id, &actions, outcome.as_deref()).map_err(unavailable)
    }
}

fn unavailable(e: impl std::fmt::Display) -> ApiError {
    ApiError::unavailable(e.to_string())
}

fn bot_kind(field: &str, name: &str) -> ApiResult<BotKind> {
    BotKind::parse(name).map_err(|e| ApiError::invalid(field, e))
}

fn draw_board(rules: &Rules, seed: u64, n: Option<u64>, field: &str) -> ApiResult<Board> {
    let n = n
        .map(|n| u8::try_from(n).map_err(|_| ApiError::invalid(field, format!("n = {n} is far too large"))))
        .transpose()?;
    Board::draw(rules, &mut Dice::derived(seed, BOARD_LABEL), n).map_err(|e| ApiError::invalid(field, e))
}

fn legal(rules: &Rules, b: &Board, side: Side) -> Vec<Action> {
    let mut out = Vec::new();
    moves::legal(b, side, &rules.actions, &mut out);
    out
}

impl Game {
    /// The actions and outcome columns of its stored row.
    fn columns(&self) -> (String, Option<String>) {
        let actions = serde_json::to_string(&self.log).expect("serialises");
        (actions, self.outcome.as_ref().map(|o| serde_json::to_string(o).expect("serialises")))
    }

    fn row(&self, id: &str, rules: &Rules) -> GameRow {
        let (actions, outcome) = self.columns();
        GameRow {
            id: id.to_string(),
            token_sha256: self.token_sha256.clone(),
            revision: rules.version.clone(),
            fingerprint: rules.fingerprint.clone(),
            seed: self.seed,
            human: self.human.name().to_string(),
            bot: self.bot_kind.name().to_string(),
            start: serde_json::to_string(&self.start.to_json()).expect("serialises"),
            actions,
            outcome,
        }
    }

    /// A stored game, played again from its start on these rules: every action re-checked, the
    /// random bot's dice advanced by replaying its choices (the other bots keep no state).
    fn restore(rules: &Rules, row: &GameRow) -> ApiResult<Game> {
        let gone = |why: String| {
            ApiError::new(StatusCode::CONFLICT, "not_resumable", format!("game {}: {why}", row.id), Some("id"))
        };
        if row.fingerprint != rules.fingerprint {
            return Err(gone(format!(
                "it was played on space {} ({}); this server plays {} ({})",
                row.revision, row.fingerprint, rules.version, rules.fingerprint
            )));
        }
        let corrupt = |what: &str, e: &dyn std::fmt::Display| gone(format!("its stored {what} is unreadable: {e}"));
        let human: Side = serde_json::from_value(Value::String(row.human.clone())).map_err(|e| corrupt("side", &e))?;
        let bot_kind = BotKind::parse(&row.bot).map_err(|e| corrupt("bot", &e))?;
        let start: BoardJson = serde_json::from_str(&row.start).map_err(|e| corrupt("board", &e))?;
        let start = Board::from_json(&start).map_err(|e| corrupt("board", &e))?;
        let log: Vec<Played> = serde_json::from_str(&row.actions).map_err(|e| corrupt("actions", &e))?;
        let outcome: Option<Outcome> =
            row.outcome.as_deref().map(serde_json::from_str).transpose().map_err(|e| corrupt("outcome", &e))?;
        let bot = Builtin::new(bot_kind, rules, Dice::derived(row.seed, WEB_BOT_LABEL), Thinking::Nodes);
        let mut game = Game {
            token_sha256: row.token_sha256.clone(),
            seed: row.seed,
            board: start.clone(),
            start,
            to_move: Side::White,
            human,
            bot_kind,
            bot,
            log: Vec::new(),
            outcome: None,
        };
        for (i, p) in log.iter().enumerate() {
            let a = p.action;
            if let Err(why) = moves::classify(&game.board, p.side, &rules.actions, a.from, a.to, Some(a.kind)) {
                return Err(corrupt(&format!("action {}", i + 1), &why));
            }
            if p.side != human && bot_kind == BotKind::Random {
                let view = if p.side == Side::White { game.board.clone() } else { game.board.mirrored() };
                game.bot.choose(&view, Duration::from_millis(rules.championship.time_limit_ms));
            }
            game.play(rules, p.side, a);
        }
        // After the last action the side to move is the one `advance` left it at: the person
        // (passes skipped), unless the game is over.
        if game.outcome.is_none() {
            game.advance(rules);
        }
        if game.outcome != outcome {
            return Err(gone("its stored outcome does not follow from its actions".into()));
        }
        Ok(game)
    }

    fn view(&self, id: &str, rules: &Rules) -> Value {
        let human_turn = self.outcome.is_none() && self.to_move == self.human;
        json!({
            "id": id,
            "seed": self.seed,
            "human": self.human,
            "bot": self.bot_kind.name(),
            "start": self.start.to_json(),
            "board": self.board.to_json(),
            "to_move": self.outcome.is_none().then_some(self.to_move),
            "legal": if human_turn { legal(rules, &self.board, self.human) } else { Vec::new() },
            "log": self.log,
            "frames": self.frames(),
            "outcome": self.outcome,
            "record": self.record(rules),
        })
    }

    /// The initial board, then the board after each action played.
    fn frames(&self) -> Vec<BoardJson> {
        let mut b = self.start.clone();
        let mut out = vec![b.to_json()];
        for p in &self.log {
            moves::apply(&mut b, p.side, p.action);
            out.push(b.to_json());
        }
        out
    }

    /// The finished game as a match record (`space replay` and the page's viewer read it).
    fn record(&self, rules: &Rules) -> Option<MatchRecord> {
        let outcome = self.outcome.clone()?;
        let bot = Entrant { name: self.bot_kind.name().into(), command: format!("@{}", self.bot_kind.name()) };
        let person = Entrant { name: "person".into(), command: "battlefield page".into() };
        let entrants = if self.human == Side::White { [person, bot] } else { [bot, person] };
        let finished = Finished { outcome, log: self.log.clone(), stderr: [None, None] };
        Some(MatchRecord::new(
            rules,
            Some(self.seed),
            &self.start,
            entrants,
            rules.championship.time_limit_ms,
            &finished,
        ))
    }

    /// Plays the bot's turns (and passes) until the person has an action or the game is over.
    fn advance(&mut self, rules: &Rules) {
        while self.outcome.is_none() {
            if !moves::has_legal(&self.board, self.to_move, &rules.actions) {
                if !moves::has_legal(&self.board, self.to_move.other(), &rules.actions) {
                    self.outcome = Some(Outcome::new(rules, None, Victory::Draw, None, self.log.len() as u32));
                    return;
                }
                self.to_move = self.to_move.other();
                continue;
            }
            if self.to_move == self.human {
                return;
            }
            let side = self.to_move;
            let view = if side == Side::White { self.board.clone() } else { self.board.mirrored() };
            let mut a = self.bot.choose(&view, Duration::from_millis(rules.championship.time_limit_ms));
            if side == Side::Black {
                a = a.mirrored(self.board.n());
            }
            self.play(rules, side, a);
        }
    }

    fn play(&mut self, rules: &Rules, side: Side, a: Action) {
        self.log.push(Played { side, action: a, ms: None });
        if let Effect::Won(w, v) = moves::apply(&mut self.board, side, a) {
            self.outcome = Some(Outcome::new(rules, Some(w), v, None, self.log.len() as u32));
        }
        self.to_move = side.other();
    }
}

/// A new game: the board drawn from `seed` (and `n`), the person's side, the bot they play.
#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(as = SpaceNewGame)]
struct NewGame {
    seed: u64,
    /// Columns; by default drawn from the revision's range.
    #[serde(default)]
    n: Option<u64>,
    #[schema(value_type = schema::Side)]
    human: Side,
    #[schema(value_type = schema::Bot)]
    bot: String,
}

/// The person's action.
#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(as = SpaceMove)]
struct Move {
    /// Optional: the board decides it; refused when given and wrong.
    #[serde(default)]
    #[schema(value_type = Option<schema::Kind>)]
    action: Option<Kind>,
    #[schema(value_type = schema::Square)]
    from: Square,
    #[schema(value_type = schema::Square)]
    to: Square,
}

/// A match between two built-in bots on the board drawn from `seed` (and `n`).
#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(as = SpaceNewMatch)]
struct NewMatch {
    #[schema(value_type = schema::Bot)]
    white: String,
    #[schema(value_type = schema::Bot)]
    black: String,
    seed: u64,
    /// Columns; by default drawn from the revision's range.
    #[serde(default)]
    n: Option<u64>,
}

type Shared = Arc<Battlefield>;

/// The Space Football revision this server plays.
#[utoipa::path(get, path = "/space/rules", tag = "space",
    responses((status = 200, description = "Version, fingerprint, column range, actions, points, time limit, built-in bots", body = schema::Rules)))]
async fn rules_info(State(s): State<Shared>) -> impl IntoResponse {
    let r = &s.rules;
    axum::Json(json!({
        "ruleset": "space",
        "revision": r.version,
        "fingerprint": r.fingerprint,
        "label": r.label,
        "columns": [r.columns.0, r.columns.1],
        "actions": r.actions,
        "points": {"goal": r.points.goal, "destruction": r.points.destruction, "opponent_invalid": r.points.opponent_invalid, "draw": r.points.draw, "loss": r.points.loss},
        "time_limit_ms": r.championship.time_limit_ms,
        "bots": BotKind::ALL.map(BotKind::name),
    }))
}

/// An initial board drawn from a seed (and n), with white's legal actions.
#[utoipa::path(get, path = "/space/board", tag = "space", params(BoardQuery),
    responses((status = 200, description = "The board and white's legal actions", body = schema::DrawnBoard),
        (status = 422, description = "A parameter is missing, unknown, not a whole number, or n is not one the revision allows", body = ErrorBody)))]
async fn board(State(s): State<Shared>, QueryParams(q): QueryParams<BoardQuery>) -> ApiResult<impl IntoResponse> {
    let b = draw_board(&s.rules, q.seed, q.n, "n")?;
    Ok(axum::Json(json!({"seed": q.seed, "board": b.to_json(), "legal": legal(&s.rules, &b, Side::White)})))
}

/// A new game of a person against a built-in bot; the bot plays until it is the person's turn.
#[utoipa::path(post, path = "/space/games", tag = "space", request_body = NewGame,
    responses((status = 201, description = "The game, with its token (shown only here)", body = schema::Game),
        (status = 400, body = ErrorBody), (status = 408, body = ErrorBody), (status = 413, body = ErrorBody),
        (status = 415, body = ErrorBody), (status = 422, body = ErrorBody), (status = 503, body = ErrorBody)))]
async fn new_game(State(s): State<Shared>, JsonBody(req): Body<NewGame>) -> ApiResult<impl IntoResponse> {
    let kind = bot_kind("/bot", &req.bot)?;
    let start = draw_board(&s.rules, req.seed, req.n, "/n")?;
    let bot = Builtin::new(kind, &s.rules, Dice::derived(req.seed, WEB_BOT_LABEL), Thinking::Nodes);
    let token = random_hex(16)?;
    let mut game = Game {
        token_sha256: token_sha256(&token),
        seed: req.seed,
        board: start.clone(),
        start,
        to_move: Side::White,
        human: req.human,
        bot_kind: kind,
        bot,
        log: Vec::new(),
        outcome: None,
    };
    let shared = s.clone();
    let game = tokio::task::spawn_blocking(move || {
        game.advance(&shared.rules);
        game
    })
    .await
    .map_err(unavailable)?;
    let id = random_hex(16)?;
    if let Some(store) = &s.store {
        store.create(&game.row(&id, &s.rules)).map_err(unavailable)?;
    }
    let mut view = game.view(&id, &s.rules);
    view["token"] = json!(token);
    let mut g = s.games.lock().expect("no handler panics");
    Battlefield::keep(&mut g, id, game);
    Ok((StatusCode::CREATED, axum::Json(view)))
}

/// A game (stored: it survives a restart of the server).
#[utoipa::path(get, path = "/space/games/{id}", tag = "space",
    params(("id" = String, Path, description = "The game's id (from POST /space/games)")),
    responses((status = 200, description = "The game", body = schema::Game),
        (status = 400, body = ErrorBody), (status = 404, body = ErrorBody),
        (status = 409, description = "The game is playing an action, or was played on another revision", body = ErrorBody),
        (status = 503, body = ErrorBody)))]
async fn get_game(State(s): State<Shared>, PathParams(id): PathParams<String>) -> ApiResult<impl IntoResponse> {
    let shared = s.clone();
    let key = id.clone();
    tokio::task::spawn_blocking(move || shared.load(&key)).await.map_err(unavailable)??;
    let g = s.games.lock().expect("no handler panics");
    Ok(axum::Json(g.get(&id)?.view(&id, &s.rules)))
}

/// The person's action (checked against the rules); the bot answers in the same request.
#[utoipa::path(post, path = "/space/games/{id}/actions", tag = "space", request_body = Move,
    params(("id" = String, Path, description = "The game's id (from POST /space/games)")),
    security(("bearer" = [])),
    responses((status = 200, description = "The game after the person's action and the bot's answer", body = schema::Game),
        (status = 400, body = ErrorBody), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody),
        (status = 404, body = ErrorBody), (status = 408, body = ErrorBody),
        (status = 409, description = "The game is over, busy, or was played on another revision", body = ErrorBody),
        (status = 413, body = ErrorBody), (status = 415, body = ErrorBody),
        (status = 422, description = "Not a legal action: `field` is /from or /to", body = ErrorBody),
        (status = 503, body = ErrorBody)))]
async fn act(
    State(s): State<Shared>,
    PathParams(id): PathParams<String>,
    Bearer(token): Bearer,
    JsonBody(req): Body<Move>,
) -> ApiResult<impl IntoResponse> {
    let shared = s.clone();
    let key = id.clone();
    tokio::task::spawn_blocking(move || shared.load(&key)).await.map_err(unavailable)??;
    let mut game = {
        let mut g = s.games.lock().expect("no handler panics");
        let game = g.get(&id)?;
        if game.token_sha256 != token_sha256(&token) {
            return Err(ApiError::new(
                StatusCode::FORBIDDEN,
                "forbidden",
                "not this game's token",
                Some("Authorization"),
            ));
        }
        if game.outcome.is_some() {
            return Err(ApiError::new(StatusCode::CONFLICT, "game_over", "the game is over", None));
        }
        // Taken out while the bot thinks; a request meanwhile is told the game is busy.
        g.busy.insert(id.clone());
        g.by_id.remove(&id).expect("just found")
    };
    let human = game.human;
    let checked = moves::classify(&game.board, human, &s.rules.actions, req.from, req.to, req.action);
    let result = match checked {
        Err(why) => {
            let field = if game.board.at(req.from) == Some(human) { "/to" } else { "/from" };
            Err(ApiError::invalid(field, why))
        }
        Ok(kind) => {
            let shared = s.clone();
            let key = id.clone();
            let played = tokio::task::spawn_blocking(move || {
                game.play(&shared.rules, human, Action::new(kind, req.from, req.to));
                game.advance(&shared.rules);
                // Stored before it is answered.
                let saved = shared.save(&key, &game);
                (game, saved)
            })
            .await;
            match played {
                Ok((_, Err(e))) => {
                    // Not stored: the game leaves memory and comes back from the file as it was
                    // before this move on the next request, so memory and file never disagree.
                    let mut g = s.games.lock().expect("no handler panics");
                    g.busy.remove(&id);
                    g.order.retain(|o| o != &id);
                    return Err(e);
                }
                Ok((g, Ok(()))) => {
                    game = g;
                    Ok(())
                }
                Err(e) => {
                    // The blocking task panicked: the game is lost from memory (its stored
                    // row is as before the move) and reloads from the file on the next request.
                    let mut g = s.games.lock().expect("no handler panics");
                    g.busy.remove(&id);
                    return Err(unavailable(e));
                }
            }
        }
    };
    let view = game.view(&id, &s.rules);
    let mut g = s.games.lock().expect("no handler panics");
    g.busy.remove(&id);
    g.by_id.insert(id, game);
    result.map(|()| axum::Json(view))
}

/// A match between two built-in bots: its record and every position.
#[utoipa::path(post, path = "/space/matches", tag = "space", request_body = NewMatch,
    responses((status = 200, description = "The match's record and positions", body = schema::Match),
        (status = 400, body = ErrorBody), (status = 408, body = ErrorBody), (status = 413, body = ErrorBody),
        (status = 415, body = ErrorBody), (status = 422, body = ErrorBody), (status = 503, body = ErrorBody)))]
async fn new_match(State(s): State<Shared>, JsonBody(req): Body<NewMatch>) -> ApiResult<impl IntoResponse> {
    let kinds = [bot_kind("/white", &req.white)?, bot_kind("/black", &req.black)?];
    let start = draw_board(&s.rules, req.seed, req.n, "/n")?;
    let shared = s.clone();
    let out = tokio::task::spawn_blocking(move || {
        let r = &shared.rules;
        let mut w = Builtin::new(kinds[0], r, Dice::derived(req.seed, b"space/web/white"), Thinking::Nodes);
        let mut b = Builtin::new(kinds[1], r, Dice::derived(req.seed, b"space/web/black"), Thinking::Nodes);
        let players: [&mut dyn Player; 2] = [&mut w, &mut b];
        let time_limit = Duration::from_millis(r.championship.time_limit_ms);
        let f = referee::play(r, start.clone(), players, &referee::Options { time_limit, record: true });
        let entrant = |k: BotKind| Entrant { name: k.name().into(), command: format!("@{}", k.name()) };
        let rec = MatchRecord::new(
            r,
            Some(req.seed),
            &start,
            [entrant(kinds[0]), entrant(kinds[1])],
            time_limit.as_millis() as u64,
            &f,
        );
        let frames: Vec<BoardJson> =
            record::positions(r, &rec).expect("a match just played is legal").iter().map(Board::to_json).collect();
        json!({"record": rec, "frames": frames})
    })
    .await
    .map_err(unavailable)?;
    Ok(axum::Json(out))
}

/// Re-checks a match record (as `microfut space replay` does) and returns its positions, up to
/// the first action that is not legal.
#[utoipa::path(post, path = "/space/replay", tag = "space",
    request_body(content = schema::MatchRecord, description = "A match record (format space-match/1) of this server's revision"),
    responses((status = 200, description = "Whether it replays identical, and its positions", body = schema::Replay),
        (status = 400, body = ErrorBody), (status = 408, body = ErrorBody), (status = 413, body = ErrorBody),
        (status = 415, body = ErrorBody),
        (status = 422, description = "Not a record of this revision, or not a record: `field` names where", body = ErrorBody)))]
async fn replay(State(s): State<Shared>, JsonBody(rec): Body<MatchRecord>) -> ApiResult<impl IntoResponse> {
    if rec.format != record::FORMAT {
        return Err(ApiError::invalid("/format", format!("format '{}', expected '{}'", rec.format, record::FORMAT)));
    }
    if rec.ruleset != "space" {
        return Err(ApiError::invalid("/ruleset", format!("'{}' is not Space Football", rec.ruleset)));
    }
    if rec.revision != s.rules.version || rec.fingerprint != s.rules.fingerprint {
        return Err(ApiError::invalid(
            "/fingerprint",
            format!(
                "the record was made with space {} ({}); this server plays {} ({})",
                rec.revision, rec.fingerprint, s.rules.version, s.rules.fingerprint
            ),
        ));
    }
    let start = Board::from_json(&rec.board).map_err(|e| ApiError::invalid("/board", e))?;
    let verdict = record::check(&s.rules, start.clone(), &rec);
    let mut frames = vec![start.to_json()];
    let mut b = start;
    for p in &rec.actions {
        if moves::classify(&b, p.side, &s.rules.actions, p.action.from, p.action.to, Some(p.action.kind)).is_err() {
            break;
        }
        moves::apply(&mut b, p.side, p.action);
        frames.push(b.to_json());
    }
    let (identical, difference) = match verdict {
        Verdict::Identical(_) => (true, None),
        Verdict::Differs(d) => (false, Some(d)),
    };
    Ok(axum::Json(json!({"identical": identical, "difference": difference, "record": rec, "frames": frames})))
}

const INDEX: &str = include_str!("assets/index.html");
const APP_JS: &str = include_str!("assets/app.js");
const APP_CSS: &str = include_str!("assets/app.css");

/// What the battlefield's OpenAPI document says of itself when served alone.
const DESCRIPTION: &str = "Space Football's battlefield: play a built-in bot, watch two bots play, replay a match \
    record. Errors are 4xx JSON {\"error\": {\"code\", \"message\", \"field\"}}.";

/// The battlefield's API routes with their OpenAPI paths (relative to `/api/v1`), before state.
fn api_routes() -> OpenApiRouter<Shared> {
    OpenApiRouter::new()
        .routes(routes!(rules_info))
        .routes(routes!(board))
        .routes(routes!(new_game))
        .routes(routes!(get_game))
        .routes(routes!(act))
        .routes(routes!(new_match))
        .routes(routes!(replay))
}

/// The battlefield's API as an area of `microfut serve` (`api::app` nests it under `/api/v1` and
/// merges its paths into `/api/v1/openapi.json`): its state applied, its own body limit.
pub fn area(rules: Rules, store: Option<GameStore>) -> OpenApiRouter {
    let state: Shared = Arc::new(Battlefield::new(rules, store));
    api_routes().layer(DefaultBodyLimit::max(BODY_LIMIT)).with_state(state)
}

/// The battlefield's OpenAPI document alone (paths under `/api/v1`), as `microfut space serve`
/// serves it at `/api/v1/openapi.json`.
pub fn openapi() -> utoipa::openapi::OpenApi {
    let (_, mut doc) = OpenApiRouter::<Shared>::new().nest("/api/v1", api_routes()).split_for_parts();
    crate::openapi::finish(&mut doc, "Space Football battlefield", DESCRIPTION);
    doc
}

/// The page at `/space/` and its assets (but `/common.js`, which the server mounts once).
pub fn pages() -> Router {
    Router::new()
        .route("/space", get(|| async { Redirect::permanent("/space/") }))
        .route("/space/", get(|| async { ([(header::CONTENT_TYPE, "text/html; charset=utf-8")], INDEX) }))
        .route("/space/app.js", get(|| async { ([(header::CONTENT_TYPE, "text/javascript; charset=utf-8")], APP_JS) }))
        .route("/space/app.css", get(|| async { ([(header::CONTENT_TYPE, "text/css; charset=utf-8")], APP_CSS) }))
}

/// The battlefield alone — `/api/v1/space/…`, its OpenAPI document at `/api/v1/openapi.json`, the
/// page at `/space/` — with every unknown path or method answered by `crate::error`.
pub fn router(rules: Rules, store: Option<GameStore>) -> Router {
    let (api, _) = OpenApiRouter::new().nest("/api/v1", area(rules, store)).split_for_parts();
    let doc = serde_json::to_string(&openapi()).expect("the OpenAPI document serialises");
    api.route("/api/v1/openapi.json", get(move || async move { ([(header::CONTENT_TYPE, "application/json")], doc) }))
        .merge(pages())
        .merge(crate::assets::routes())
        .fallback(not_found)
        .method_not_allowed_fallback(method_not_allowed)
}

/// `microfut space serve`: the battlefield alone, its games in `db`. Prints `listening on
/// http://ADDR/space/`.
pub fn serve(
    rules: Rules,
    bind: std::net::SocketAddr,
    db: &std::path::Path,
    limits: crate::server::Limits,
) -> Result<(), String> {
    let store = GameStore::open(db).map_err(|e| e.to_string())?;
    let rt = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(|e| format!("cannot start the runtime: {e}"))?;
    rt.block_on(async move {
        let listener = crate::server::bind(bind).map_err(|e| format!("cannot listen on {bind}: {e}"))?;
        let addr = listener.local_addr().map_err(|e| e.to_string())?;
        println!("listening on http://{addr}/space/  (games in {})", db.display());
        let app = router(rules, Some(store)).route("/", get(|| async { Redirect::temporary("/space/") }));
        crate::server::serve(listener, app, limits, async {
            let _ = tokio::signal::ctrl_c().await;
        })
        .await
    })
}
