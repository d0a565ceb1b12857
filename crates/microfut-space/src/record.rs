//! Match records: what a match was played with (revision and fingerprint, engine version, the
//! initial board and its seed, both bots, the time limit) and what happened (every action, the
//! invalid answer that ended it, the outcome, the bots' standard error) — and replay, which
//! re-checks every action's legality on the pinned revision and recomputes the outcome.
//!
//! What a replay cannot re-check is time: a recorded timeout, crash, malformed or over-long line
//! is taken as recorded (its side must have been the one to act); a recorded illegal answer is
//! re-checked and must be illegal.

mod report;

pub use report::{ReadRecord, refusal, summary};

use super::board::{Board, BoardJson, Side};
use super::compile::{Rules, compile};
use super::moves::{self, Effect, Victory};
use super::protocol::parse_answer;
use super::referee::{Finished, Outcome, Played, Reason};
use microfut_core::catalog::seal::Seal;
use microfut_core::catalog::{Catalog, ENGINE_VERSION};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

pub const FORMAT: &str = "space-match/1";

/// A bot as the record names it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Entrant {
    pub name: String,
    pub command: String,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MatchRecord {
    pub format: String,
    pub ruleset: String,
    pub revision: String,
    pub fingerprint: String,
    pub engine_version: String,
    /// The seed the board was drawn with (none for a board given as a file).
    #[serde(default)]
    pub seed: Option<u64>,
    pub board: BoardJson,
    pub white: Entrant,
    pub black: Entrant,
    pub time_limit_ms: u64,
    pub actions: Vec<Played>,
    pub result: Outcome,
    /// Each bot process's standard error (bounded), when it wrote any.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub stderr: BTreeMap<Side, String>,
    /// Digests of what replay cannot re-check (the bots, the seed, the engine version, the time
    /// limit, standard error, the actions' thinking times, the initial board), by JSON pointer;
    /// absent in records written before seals.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seal: Option<Seal>,
}

/// What replay cannot re-check. The actions are sealed whole (their legality is re-checked
/// first, so an edited move is named by the replay; what is left is a thinking time).
const SEALED: [&str; 7] = ["/engine_version", "/seed", "/white", "/black", "/time_limit_ms", "/stderr", "/actions"];

/// The sealed parts: `SEALED`, and the initial board robot by robot (a robot that never moves
/// can be put elsewhere and the match still replays legally, to the same outcome).
fn sealed_parts(record: &serde_json::Value) -> Vec<String> {
    let mut parts = SEALED.map(String::from).to_vec();
    parts.extend(microfut_core::catalog::seal::parts_of(record, "/board", &["white", "black"]));
    parts
}

impl MatchRecord {
    pub fn new(
        rules: &Rules,
        seed: Option<u64>,
        board: &Board,
        entrants: [Entrant; 2],
        time_limit_ms: u64,
        finished: &Finished,
    ) -> MatchRecord {
        let [white, black] = entrants;
        let stderr = Side::BOTH
            .into_iter()
            .filter_map(|s| finished.stderr[s.index()].clone().filter(|t| !t.is_empty()).map(|t| (s, t)))
            .collect();
        MatchRecord {
            format: FORMAT.into(),
            ruleset: "space".into(),
            revision: rules.version.clone(),
            fingerprint: rules.fingerprint.clone(),
            engine_version: ENGINE_VERSION.into(),
            seed,
            board: board.to_json(),
            white,
            black,
            time_limit_ms,
            actions: finished.log.clone(),
            result: finished.outcome.clone(),
            stderr,
            seal: None,
        }
        .sealed()
    }

    /// The record with its seal (any earlier one replaced).
    pub fn sealed(mut self) -> MatchRecord {
        self.seal = None;
        let v = serde_json::to_value(&self).expect("match records serialise");
        self.seal = Some(microfut_core::catalog::seal::seal(&v, &sealed_parts(&v)));
        self
    }

    /// Reads a record strictly: a value that does not fit, and anything the file says that the
    /// record's types do not read (a key inside an action), named by JSON pointer.
    pub fn parse(bytes: &[u8]) -> Result<MatchRecord, ReplayError> {
        let value: serde_json::Value = microfut_core::catalog::from_json(bytes)
            .map_err(|e| ReplayError::Format(microfut_core::catalog::describe_json_error(&e)))?;
        MatchRecord::from_value(value)
    }

    /// [`MatchRecord::parse`] of a value already read strictly (`catalog::from_json`).
    pub fn from_value(value: serde_json::Value) -> Result<MatchRecord, ReplayError> {
        let r: MatchRecord = microfut_core::catalog::from_value_located(value.clone(), "a match record")
            .map_err(|e| ReplayError::Record { pointer: e.pointer, message: e.message })?;
        let read = serde_json::to_value(&r).expect("match records serialise");
        if let Some(u) = microfut_core::catalog::seal::first_unread(&value, &read) {
            return Err(ReplayError::Record { pointer: u.pointer, message: u.message });
        }
        Ok(r)
    }

    /// The first sealed part that changed since the record was written, by JSON pointer.
    pub fn broken_seal(&self) -> Option<String> {
        let seal = self.seal.as_ref()?;
        let v = serde_json::to_value(self).expect("match records serialise");
        microfut_core::catalog::seal::broken(&v, seal, &sealed_parts(&v))
    }
}

#[derive(Debug, thiserror::Error)]
pub enum ReplayError {
    #[error("not a Space Football match record ({0})")]
    Format(String),
    #[error(transparent)]
    Catalog(#[from] microfut_core::catalog::CatalogError),
    #[error("{0}")]
    Compile(String),
    #[error("board: {0}")]
    Board(String),
    /// A field of the record no match can hold (an edit), by JSON pointer.
    #[error("{pointer}: {message}")]
    Record { pointer: String, message: String },
}

/// What a replay found.
#[derive(Debug, Clone, PartialEq)]
pub enum Verdict {
    /// Every action legal, the outcome as recorded.
    Identical(Outcome),
    /// The first thing that does not hold.
    Differs(String),
}

/// The positions of a match: the initial board, then the board after each action.
pub fn positions(rules: &Rules, record: &MatchRecord) -> Result<Vec<Board>, String> {
    let mut board = Board::from_json(&record.board)?;
    let mut out = vec![board.clone()];
    for (i, p) in record.actions.iter().enumerate() {
        moves::classify(&board, p.side, &rules.actions, p.action.from, p.action.to, Some(p.action.kind))
            .map_err(|why| format!("action {}: {why}", i + 1))?;
        moves::apply(&mut board, p.side, p.action);
        out.push(board.clone());
    }
    Ok(out)
}

/// The compiled revision a record pins (refused if its files changed since).
pub fn pinned_rules(catalog: &Catalog, record: &MatchRecord) -> Result<Rules, ReplayError> {
    if record.format != FORMAT {
        return Err(ReplayError::Format(format!("format '{}', expected '{FORMAT}'", record.format)));
    }
    if record.ruleset != "space" {
        return Err(ReplayError::Format(format!("ruleset '{}', expected 'space'", record.ruleset)));
    }
    let rev = catalog.pinned("space", &record.revision, &record.fingerprint)?;
    compile(rev)
        .map_err(|d| ReplayError::Compile(format!("{} has {} content error(s), first: {}", rev.label(), d.len(), d[0])))
}

/// Replays a record on its pinned revision.
pub fn replay(catalog: &Catalog, record: &MatchRecord) -> Result<Verdict, ReplayError> {
    let rules = pinned_rules(catalog, record)?;
    let board = Board::from_json(&record.board).map_err(ReplayError::Board)?;
    Ok(check(&rules, board, record))
}

/// Replays a record on already compiled rules (the caller checked they are the pinned ones).
pub fn check(rules: &Rules, board: Board, record: &MatchRecord) -> Verdict {
    match check_located(rules, board, record) {
        Ok(outcome) => Verdict::Identical(outcome),
        Err(m) => Verdict::Differs(m.statement),
    }
}

/// Where a replay first parts from a record, and what it found there.
#[derive(Debug, Clone, PartialEq)]
pub struct Mismatch {
    /// The action (from 1) at fault; none when every action is legal and it is the recorded
    /// result (or a sealed part) that does not hold.
    pub action: Option<usize>,
    /// The part of the record at fault, as a JSON pointer.
    pub pointer: String,
    /// What the record says there and what the replay found, when each is one value.
    pub expected: Option<String>,
    pub actual: Option<String>,
    /// The difference in words (what `space replay` prints after "differs: ").
    pub statement: String,
}

impl Mismatch {
    fn at_action(k: usize, part: &str, statement: String) -> Mismatch {
        Mismatch {
            action: Some(k),
            pointer: format!("/actions/{}{part}", k - 1),
            expected: None,
            actual: None,
            statement,
        }
    }

    fn in_result(pointer: String, statement: String) -> Mismatch {
        Mismatch { action: None, pointer, expected: None, actual: None, statement }
    }
}

/// [`check`], locating the first difference in the record.
pub fn check_located(rules: &Rules, mut board: Board, record: &MatchRecord) -> Result<Outcome, Mismatch> {
    let acts = &rules.actions;
    let mut to_move = Side::White;
    let mut ended: Option<(Option<Side>, Victory)> = None;
    // Skips the turns of a side with no action; None when neither side can act.
    let settle = |board: &Board, to_move: &mut Side| -> bool {
        if moves::has_legal(board, *to_move, acts) {
            return true;
        }
        if moves::has_legal(board, to_move.other(), acts) {
            *to_move = to_move.other();
            return true;
        }
        false
    };
    for (i, p) in record.actions.iter().enumerate() {
        let k = i + 1;
        if let Some((w, v)) = ended {
            return Err(Mismatch::at_action(
                k,
                "",
                format!(
                    "the match was over after action {i} ({}), but the record goes on to action {k}",
                    describe(w, v)
                ),
            ));
        }
        if !settle(&board, &mut to_move) {
            return Err(Mismatch::at_action(
                k,
                "",
                format!("after action {i} neither side can act (a draw), but the record goes on to action {k}"),
            ));
        }
        if p.side != to_move {
            return Err(Mismatch {
                expected: Some(p.side.name().to_string()),
                actual: Some(to_move.name().to_string()),
                ..Mismatch::at_action(
                    k,
                    "/side",
                    format!("action {k} is {}'s, but it was {}'s turn", p.side.name(), to_move.name()),
                )
            });
        }
        let a = p.action;
        if let Err(why) = moves::classify(&board, to_move, acts, a.from, a.to, Some(a.kind)) {
            return Err(Mismatch::at_action(k, "/action", format!("action {k} ({a}) is illegal: {why}")));
        }
        if let Effect::Won(w, v) = moves::apply(&mut board, to_move, a) {
            ended = Some((Some(w), v));
        }
        to_move = to_move.other();
    }
    let n = record.actions.len() as u32;
    let fault = record.result.reasons.iter().next().map(|(s, f)| (*s, f.clone()));
    let outcome = match (ended, fault) {
        (Some(_), Some((side, _))) => {
            return Err(Mismatch::in_result(
                reasons(side),
                format!("the match was won on the board, yet {} is recorded as invalid", side.name()),
            ));
        }
        (Some((w, v)), None) => Outcome::new(rules, w, v, None, n),
        (None, fault) => {
            if !settle(&board, &mut to_move) {
                if let Some((side, _)) = fault {
                    return Err(Mismatch::in_result(
                        reasons(side),
                        format!(
                            "neither side could act after action {n} (a draw), yet {} is recorded as invalid",
                            side.name()
                        ),
                    ));
                }
                Outcome::new(rules, None, Victory::Draw, None, n)
            } else {
                let Some((side, f)) = fault else {
                    return Err(Mismatch::in_result(
                        "/result".into(),
                        format!(
                            "the record ends after action {n}, but the match was not over: {} had an action",
                            to_move.name()
                        ),
                    ));
                };
                if side != to_move {
                    return Err(Mismatch::in_result(
                        reasons(side),
                        format!(
                            "{} is recorded as invalid after action {n}, but it was {}'s turn",
                            side.name(),
                            to_move.name()
                        ),
                    ));
                }
                if f.reason == Reason::IllegalAction {
                    let Some(line) = f.answer.as_deref() else {
                        return Err(Mismatch::in_result(
                            reasons(side),
                            format!("{}'s illegal answer is not recorded", side.name()),
                        ));
                    };
                    let a = match parse_answer(line.as_bytes()) {
                        Ok(a) => a,
                        Err(why) => {
                            return Err(Mismatch::in_result(
                                format!("{}/answer", reasons(side)),
                                format!("{}'s recorded answer is not an answer: {why}", side.name()),
                            ));
                        }
                    };
                    let (from, to) = match side {
                        Side::White => (a.from, a.to),
                        Side::Black => (a.from.mirrored(board.n()), a.to.mirrored(board.n())),
                    };
                    if let Ok(kind) = moves::classify(&board, side, acts, from, to, a.action) {
                        return Err(Mismatch::in_result(
                            format!("{}/answer", reasons(side)),
                            format!(
                                "{}'s answer recorded as illegal is a legal {} from {from} to {to}",
                                side.name(),
                                kind.name()
                            ),
                        ));
                    }
                }
                Outcome::new(rules, Some(side.other()), Victory::OpponentInvalid, Some((side, f)), n)
            }
        }
    };
    if outcome != record.result {
        let show = |o: &Outcome| serde_json::to_string(o).expect("serialises");
        return Err(Mismatch {
            expected: Some(show(&record.result)),
            actual: Some(show(&outcome)),
            ..Mismatch::in_result(
                "/result".into(),
                format!("the outcome is {}, but the record says {}", show(&outcome), show(&record.result)),
            )
        });
    }
    if let Some(p) = record.broken_seal() {
        let statement = format!(
            "{p} was edited after the record was written: every action replays legally and the outcome agrees, but {p} no longer matches the record's seal (replay cannot re-check it: names, commands, the seed, thinking times)"
        );
        return Err(Mismatch::in_result(p, statement));
    }
    Ok(outcome)
}

/// The pointer of a side's recorded invalid answer.
fn reasons(side: Side) -> String {
    format!("/result/reasons/{}", side.name())
}

/// "white wins by goal", "a draw".
pub fn describe(winner: Option<Side>, victory: Victory) -> String {
    match winner {
        None => "a draw".into(),
        Some(w) => match victory {
            Victory::Goal => format!("{} wins by goal", w.name()),
            Victory::Destruction => format!("{} wins by destruction", w.name()),
            Victory::OpponentInvalid => format!("{} wins: {} made an invalid action", w.name(), w.other().name()),
            Victory::Draw => "a draw".into(),
        },
    }
}
