//! The bot protocol: one JSON line in per turn, one JSON line out; and the player that speaks it
//! to a bot process.
//!
//! In (referee → bot), the board as the bot sees it — it always plays white, towards row n + 1:
//!
//! ```text
//! {"protocol":"space-football/1","turn":1,"time_ms":1000,"colour":"white","board":{"n":5,"white":[[1,2],[2,4]],"black":[[4,1],[5,3]],"ball":[2,4],"holder":"white"},"actions":{"two_step_move":true,"attack":true,"carrier_attacks":true,"suicide_attack":true,"pass":true}}
//! ```
//!
//! Out (bot → referee), the robot and the square it acts on; `action` may be left out (the board
//! decides it) and is checked when given:
//!
//! ```text
//! {"from":[2,4],"to":[3,4]}
//! {"action":"attack","from":[3,1],"to":[4,2]}
//! ```
//!
//! README.md ("Space Football") documents it with a whole worked match.

use super::board::{BoardJson, Side, Square};
use super::compile::{Actions, Rules};
use super::moves::Kind;
use super::referee::{Answer, Ask, Fault, Player, Reason};
use microfut_core::bot_process::{BotProcess, Limits, Program, ReadFailure};
use serde::{Deserialize, Serialize};
use std::time::{Duration, Instant};

pub const PROTOCOL: &str = "space-football/1";

/// The line a bot reads each turn.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TurnLine {
    pub protocol: String,
    /// 1 for the match's first action (passes do not count).
    pub turn: u32,
    /// Wall-clock time for this answer, from the moment the line is sent.
    pub time_ms: u64,
    /// The colour the bot really plays; the board is already turned so that it plays white.
    pub colour: Side,
    pub board: BoardJson,
    /// Which actions the rules allow.
    pub actions: Actions,
}

/// The line a bot writes.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AnswerLine {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub action: Option<Kind>,
    pub from: Square,
    pub to: Square,
}

/// The turn line for a question.
pub fn turn_line(ask: &Ask, actions: &Actions) -> TurnLine {
    TurnLine {
        protocol: PROTOCOL.into(),
        turn: ask.turn,
        time_ms: ask.time_limit.as_millis() as u64,
        colour: ask.colour,
        board: ask.view.to_json(),
        actions: *actions,
    }
}

/// An answer line, read strictly: JSON (a key given twice is refused), an object with `from` and
/// `to` as `[row, col]` and maybe `action`, nothing else.
pub fn parse_answer(line: &[u8]) -> Result<AnswerLine, String> {
    let text = std::str::from_utf8(line).map_err(|_| "the line is not UTF-8".to_string())?;
    if text.trim().is_empty() {
        return Err("an empty line".into());
    }
    microfut_core::catalog::from_json::<AnswerLine>(text.as_bytes())
        .map_err(|e| microfut_core::catalog::describe_json_error(&e))
}

/// A short, printable excerpt of what a bot wrote.
fn excerpt(bytes: &[u8]) -> String {
    let s = String::from_utf8_lossy(bytes);
    let mut out: String = s.chars().take(200).collect();
    if s.chars().count() > 200 {
        out.push('…');
    }
    out
}

/// The process limits of a revision.
pub fn limits(rules: &Rules) -> Limits {
    let l = &rules.championship.limits;
    Limits {
        memory_bytes: l.memory_mb.saturating_mul(1 << 20),
        cpu_seconds: l.cpu_seconds,
        line_bytes: l.line_bytes as usize,
        stderr_bytes: l.stderr_bytes as usize,
        kill_grace: Duration::from_millis(l.kill_grace_ms),
    }
}

/// A bot process as a player: a line out, a line back within the time limit, frozen in between.
pub struct ProcessBot {
    process: Result<BotProcess, String>,
    actions: Actions,
    stderr: Option<String>,
}

impl ProcessBot {
    /// Starts the bot now (frozen until its first turn). A command that cannot start is not an
    /// error here: the bot crashes when first asked, as the course's referee would see it.
    pub fn start(program: &Program, limits: Limits, actions: Actions) -> ProcessBot {
        let process = BotProcess::spawn(program, limits).map_err(|e| format!("cannot start: {e}"));
        ProcessBot { process, actions, stderr: None }
    }

    /// The bot's process group, while it runs.
    pub fn pgid(&self) -> Option<i32> {
        self.process.as_ref().ok().map(BotProcess::pgid)
    }
}

impl Player for ProcessBot {
    fn act(&mut self, ask: &Ask) -> Result<Answer, Fault> {
        let p = match &mut self.process {
            Ok(p) => p,
            Err(e) => return Err(Fault::new(Reason::Crash, e.clone())),
        };
        let line = serde_json::to_string(&turn_line(ask, &self.actions)).expect("serialises");
        let start = Instant::now();
        let until = start + ask.time_limit;
        let read = p.send_line(&line, until).and_then(|()| p.read_line(until));
        let elapsed = start.elapsed();
        p.freeze();
        let ms = ask.time_limit.as_millis();
        match read {
            Ok(bytes) => match parse_answer(&bytes) {
                Ok(a) => Ok(Answer {
                    from: a.from,
                    to: a.to,
                    kind: a.action,
                    elapsed: Some(elapsed),
                    line: Some(String::from_utf8_lossy(&bytes).into_owned()),
                }),
                Err(why) => Err(Fault { reason: Reason::Malformed, detail: why, answer: Some(excerpt(&bytes)) }),
            },
            Err(ReadFailure::Timeout) => Err(Fault::new(Reason::Timeout, format!("no answer line within {ms} ms"))),
            Err(ReadFailure::TooLong(start)) => Err(Fault {
                reason: Reason::OutputLimit,
                detail: format!("a line longer than {} bytes", self.limits_line()),
                answer: Some(start),
            }),
            Err(ReadFailure::Closed(how)) => Err(Fault::new(Reason::Crash, how)),
        }
    }

    fn finish(&mut self) -> Option<String> {
        if self.stderr.is_none()
            && let Ok(p) = &mut self.process
        {
            let (text, _) = p.finish();
            self.stderr = Some(text);
        }
        self.stderr.clone()
    }
}

impl ProcessBot {
    fn limits_line(&self) -> usize {
        self.process.as_ref().map(|p| p.line_limit()).unwrap_or(0)
    }
}
