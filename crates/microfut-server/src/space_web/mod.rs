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
//! game and a demo match are the same for the same seed on any machine. Errors are 4xx JSON
//! `{"error": {"code", "message", "field"}}` naming the field (a JSON pointer, a query parameter,
//! a header) — the shape `microfut serve` uses.
//!
//! Limits: without a store ([`router`] given `None`: the tests) games live in memory only; a
//! stored game made under another revision of the rules is not resumed (its record still
//! replays with `space replay` on that revision); ids and tokens come from the standard
//! library's randomly keyed hasher (64 and 128 bits), enough for a local page, not a public
//! service.

pub mod store;

use axum::Router;
use axum::body::Bytes;
use axum::extract::{DefaultBodyLimit, Path, RawQuery, State};
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{IntoResponse, Redirect, Response};
use axum::routing::{get, post};
use microfut_core::dice::Dice;
use microfut_space::bots::{BotKind, Builtin, Thinking};
use microfut_space::record::{self, Entrant, MatchRecord, Verdict};
use microfut_space::referee::{self, Finished, Outcome, Played, Player};
use microfut_space::{Action, BOARD_LABEL, Board, BoardJson, Effect, Kind, Rules, Side, Square, Victory, moves};
use serde::Deserialize;
use serde::de::DeserializeOwned;
use serde_json::{Value, json};
use std::collections::{BTreeMap, BTreeSet, VecDeque};
use std::hash::{BuildHasher, Hasher};
use std::sync::{Arc, Mutex};
use std::time::Duration;
use store::{GameRow, GameStore, token_sha256};

/// The dice label of the battlefield's random bot (a game's seed derives its stream).
const WEB_BOT_LABEL: &[u8] = b"space/web/bot";

/// Games kept in memory; the oldest is forgotten beyond this (it stays in the store).
pub const MAX_GAMES: usize = 1000;
/// The largest request body (a match record of a long match is ~100 KB).
pub const BODY_LIMIT: usize = 4 << 20;

/// An API error: a 4xx status and `{"error": {"code", "message", "field"}}`.
#[derive(Debug)]
pub struct ApiError {
    status: StatusCode,
    code: &'static str,
    message: String,
    field: Option<String>,
}

impl ApiError {
    fn new(status: StatusCode, code: &'static str, message: impl Into<String>, field: Option<&str>) -> ApiError {
        ApiError { status, code, message: message.into(), field: field.map(str::to_string) }
    }
    fn invalid(field: &str, message: impl Into<String>) -> ApiError {
        Self::new(StatusCode::UNPROCESSABLE_ENTITY, "invalid_field", message, Some(field))
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let body = json!({"error": {"code": self.code, "message": self.message, "field": self.field}});
        (self.status, axum::Json(body)).into_response()
    }
}

type ApiResult<T> = Result<T, ApiError>;

/// A request body's bytes: bounded by [`BODY_LIMIT`], arrived within the server's body timeout;
/// every failure the JSON error body naming `body`.
struct BodyBytes(Bytes);

impl<S: Send + Sync> axum::extract::FromRequest<S> for BodyBytes {
    type Rejection = ApiError;

    async fn from_request(req: axum::extract::Request, state: &S) -> Result<Self, Self::Rejection> {
        crate::server::body::check_declared_length(req.headers(), BODY_LIMIT)
            .map_err(|m| ApiError::new(StatusCode::PAYLOAD_TOO_LARGE, "body_too_large", m, Some("body")))?;
        Bytes::from_request(req, state).await.map(BodyBytes).map_err(|e| {
            if e.status() == StatusCode::PAYLOAD_TOO_LARGE {
                ApiError::new(
                    StatusCode::PAYLOAD_TOO_LARGE,
                    "body_too_large",
                    format!("the body is larger than {BODY_LIMIT} bytes"),
                    Some("body"),
                )
            } else if let Some(t) = crate::server::body::timed_out(&e) {
                ApiError::new(StatusCode::REQUEST_TIMEOUT, "request_timeout", t.to_string(), Some("body"))
            } else {
                ApiError::new(StatusCode::BAD_REQUEST, "unreadable_body", e.body_text(), Some("body"))
            }
        })
    }
}

/// A JSON body: `application/json` in UTF-8, read strictly (a key given twice is refused), every
/// problem naming its JSON pointer; a body of the wrong shape says what it must be.
fn body<T: DeserializeOwned>(headers: &HeaderMap, bytes: &Bytes) -> ApiResult<T> {
    crate::server::body::check_media_type(headers).map_err(|m| {
        ApiError::new(StatusCode::UNSUPPORTED_MEDIA_TYPE, "unsupported_media_type", m, Some("content-type"))
    })?;
    crate::server::body::check_encoding(bytes)
        .map_err(|m| ApiError::new(StatusCode::UNSUPPORTED_MEDIA_TYPE, "unsupported_encoding", m, Some("body")))?;
    let bytes = microfut_core::catalog::strip_bom(bytes);
    if let Err(e) = microfut_core::catalog::check_keys(bytes) {
        return Err(ApiError::invalid("", microfut_core::catalog::describe_json_error(&e)));
    }
    if let Ok(value) = serde_json::from_slice::<Value>(bytes)
        && let Some(expected) = crate::server::body::expected_object::<T>(&value)
    {
        return Err(ApiError::invalid("", expected));
    }
    let mut de = serde_json::Deserializer::from_slice(bytes);
    serde_path_to_error::deserialize(&mut de).map_err(|e| {
        let pointer: String = e
            .path()
            .iter()
            .filter_map(|seg| match seg {
                serde_path_to_error::Segment::Seq { index } => Some(format!("/{index}")),
                serde_path_to_error::Segment::Map { key } => Some(format!("/{key}")),
                serde_path_to_error::Segment::Enum { variant } => Some(format!("/{variant}")),
                serde_path_to_error::Segment::Unknown => None,
            })
            .collect();
        ApiError::invalid(&pointer, crate::server::body::plain(&microfut_core::catalog::describe_json_error(e.inner())))
    })
}

/// Query parameters as numbers, refusing any not in `known`.
fn query(raw: Option<String>, known: &[&str]) -> ApiResult<BTreeMap<String, u64>> {
    let mut out = BTreeMap::new();
    for pair in raw.unwrap_or_default().split('&').filter(|p| !p.is_empty()) {
        let (k, v) = pair.split_once('=').unwrap_or((pair, ""));
        if !known.contains(&k) {
            return Err(ApiError::invalid(k, format!("unknown query parameter '{k}' (known: {})", known.join(", "))));
        }
        let n: u64 = v.parse().map_err(|_| ApiError::invalid(k, format!("'{v}' is not a whole number")))?;
        out.insert(k.to_string(), n);
    }
    Ok(out)
}

fn random_hex() -> String {
    let mut h = std::collections::hash_map::RandomState::new().build_hasher();
    h.write_u64(std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_nanos() as u64));
    format!("{:016x}", h.finish())
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
            None => Err(ApiError::new(StatusCode::NOT_FOUND, "not_found", format!("no game {id}"), Some("id"))),
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
    ApiError::new(StatusCode::SERVICE_UNAVAILABLE, "unavailable", e.to_string(), None)
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

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct NewGame {
    seed: u64,
    #[serde(default)]
    n: Option<u64>,
    human: Side,
    bot: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Move {
    #[serde(default)]
    action: Option<Kind>,
    from: Square,
    to: Square,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct NewMatch {
    white: String,
    black: String,
    seed: u64,
    #[serde(default)]
    n: Option<u64>,
}

type Shared = Arc<Battlefield>;

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

async fn board(State(s): State<Shared>, RawQuery(q): RawQuery) -> ApiResult<impl IntoResponse> {
    let q = query(q, &["seed", "n"])?;
    let seed = *q.get("seed").ok_or_else(|| ApiError::invalid("seed", "seed is required"))?;
    let b = draw_board(&s.rules, seed, q.get("n").copied(), "n")?;
    Ok(axum::Json(json!({"seed": seed, "board": b.to_json(), "legal": legal(&s.rules, &b, Side::White)})))
}

async fn new_game(
    State(s): State<Shared>,
    headers: HeaderMap,
    BodyBytes(bytes): BodyBytes,
) -> ApiResult<impl IntoResponse> {
    let req: NewGame = body(&headers, &bytes)?;
    let kind = bot_kind("/bot", &req.bot)?;
    let start = draw_board(&s.rules, req.seed, req.n, "/n")?;
    let bot = Builtin::new(kind, &s.rules, Dice::derived(req.seed, WEB_BOT_LABEL), Thinking::Nodes);
    let token = random_hex() + &random_hex();
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
    .map_err(|e| ApiError::new(StatusCode::SERVICE_UNAVAILABLE, "unavailable", e.to_string(), None))?;
    let id = random_hex() + &random_hex();
    if let Some(store) = &s.store {
        store.create(&game.row(&id, &s.rules)).map_err(unavailable)?;
    }
    let mut view = game.view(&id, &s.rules);
    view["token"] = json!(token);
    let mut g = s.games.lock().expect("no handler panics");
    Battlefield::keep(&mut g, id, game);
    Ok((StatusCode::CREATED, axum::Json(view)))
}

async fn get_game(State(s): State<Shared>, Path(id): Path<String>) -> ApiResult<impl IntoResponse> {
    let shared = s.clone();
    let key = id.clone();
    tokio::task::spawn_blocking(move || shared.load(&key)).await.map_err(unavailable)??;
    let g = s.games.lock().expect("no handler panics");
    Ok(axum::Json(g.get(&id)?.view(&id, &s.rules)))
}

async fn act(
    State(s): State<Shared>,
    Path(id): Path<String>,
    headers: HeaderMap,
    BodyBytes(bytes): BodyBytes,
) -> ApiResult<impl IntoResponse> {
    let token = headers
        .get(header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.strip_prefix("Bearer "))
        .ok_or_else(|| {
            ApiError::new(
                StatusCode::UNAUTHORIZED,
                "unauthorized",
                "this needs the game's token: Authorization: Bearer <token>",
                Some("authorization"),
            )
        })?
        .to_string();
    let req: Move = body(&headers, &bytes)?;
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
                Some("authorization"),
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

/// Plays a match between two built-in bots and returns its record and every position.
async fn new_match(
    State(s): State<Shared>,
    headers: HeaderMap,
    BodyBytes(bytes): BodyBytes,
) -> ApiResult<impl IntoResponse> {
    let req: NewMatch = body(&headers, &bytes)?;
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
    .map_err(|e| ApiError::new(StatusCode::SERVICE_UNAVAILABLE, "unavailable", e.to_string(), None))?;
    Ok(axum::Json(out))
}

/// Checks an uploaded match record (as `space replay` does) and returns its positions, up to the
/// first action that is not legal.
async fn replay(
    State(s): State<Shared>,
    headers: HeaderMap,
    BodyBytes(bytes): BodyBytes,
) -> ApiResult<impl IntoResponse> {
    let rec: MatchRecord = body(&headers, &bytes)?;
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
const OPENAPI: &str = include_str!("assets/openapi.json");

/// The battlefield's part of the server's OpenAPI document: its paths relative to `/api/v1`
/// (`/space/games`, …), written by hand beside the handlers (the routes are a plain axum
/// `Router`, so `microfut space serve` needs no OpenAPI machinery); `microfut serve` merges it
/// into `/api/v1/openapi.json` as an area of its own. A test checks every path is a route.
pub fn openapi() -> utoipa::openapi::OpenApi {
    serde_json::from_str(OPENAPI).expect("the embedded OpenAPI fragment reads (tested)")
}
const APP_JS: &str = include_str!("assets/app.js");
const APP_CSS: &str = include_str!("assets/app.css");

async fn api_not_found(uri: axum::http::Uri) -> ApiError {
    ApiError::new(StatusCode::NOT_FOUND, "not_found", format!("no route {}", uri.path()), Some("path"))
}

async fn method_not_allowed(m: axum::http::Method, uri: axum::http::Uri) -> ApiError {
    ApiError::new(
        StatusCode::METHOD_NOT_ALLOWED,
        "method_not_allowed",
        format!("{m} is not allowed on {}", uri.path()),
        Some("method"),
    )
}

/// The battlefield's routes — `/api/v1/space/…` and the page at `/space/` — with their state,
/// ready to serve alone or to merge into another server's router.
pub fn router(rules: Rules, store: Option<GameStore>) -> Router {
    let state: Shared = Arc::new(Battlefield::new(rules, store));
    Router::new()
        .route("/api/v1/space/rules", get(rules_info))
        .route("/api/v1/space/board", get(board))
        .route("/api/v1/space/games", post(new_game))
        .route("/api/v1/space/games/{id}", get(get_game))
        .route("/api/v1/space/games/{id}/actions", post(act))
        .route("/api/v1/space/matches", post(new_match))
        .route("/api/v1/space/replay", post(replay))
        .route("/api/v1/space/{*rest}", get(api_not_found).post(api_not_found))
        .route("/space", get(|| async { Redirect::permanent("/space/") }))
        .route("/space/", get(|| async { ([(header::CONTENT_TYPE, "text/html; charset=utf-8")], INDEX) }))
        .route("/space/app.js", get(|| async { ([(header::CONTENT_TYPE, "text/javascript; charset=utf-8")], APP_JS) }))
        .route("/space/app.css", get(|| async { ([(header::CONTENT_TYPE, "text/css; charset=utf-8")], APP_CSS) }))
        .method_not_allowed_fallback(method_not_allowed)
        .layer(DefaultBodyLimit::max(BODY_LIMIT))
        .with_state(state)
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
        let app = router(rules, Some(store))
            .route("/", get(|| async { Redirect::temporary("/space/") }))
            .fallback(|uri: axum::http::Uri| async move { api_not_found(uri).await })
            .method_not_allowed_fallback(method_not_allowed);
        crate::server::serve(listener, app, limits, async {
            let _ = tokio::signal::ctrl_c().await;
        })
        .await
    })
}
