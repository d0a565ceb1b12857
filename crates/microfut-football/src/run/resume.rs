//! Bringing a stored run back to life: the match as it stood after its last committed round.
//!
//! Problem: a server that is killed mid-match must continue each run exactly where its last
//! committed round left it, and the result must replay `identical`. Serialising the engine's
//! whole state would tie the store to every private field of the engine.
//!
//! Decision: a run is a pure function of what its record pins (revision, seed, squads, human
//! side, formations) and the human intents with their rounds, so the match is rebuilt by playing
//! it again to the committed round — the same loop `replay` uses: at a decision of the human side,
//! the intent recorded for that round, else the NPC (a decision the person delegated) — and each
//! round's state hash is checked against the stored one. A whole match plays in milliseconds, so
//! this costs little, and the engine never knows a store exists.
//!
//! Limits: the rebuilt match's decision log is the replay's (same decisions, same order). A run
//! whose stored hashes the rebuild does not reproduce (another engine) is refused, naming the
//! round, never silently migrated.

use super::RunError;
use crate::club::Club;
use crate::engine::{Match, Options, RecordedIntent, Rules, Step};
use std::sync::Arc;

/// What a stored run needs to be rebuilt.
pub struct Resume<'a> {
    pub home: &'a Club,
    pub away: &'a Club,
    pub seed: u64,
    pub options: Options,
    pub intents: &'a [RecordedIntent],
    /// The state hash of every committed round, hex.
    pub hashes: &'a [String],
    /// Whether a decision of the human side was pending after the last committed round.
    pub pending: bool,
}

#[derive(Debug, thiserror::Error)]
pub enum ResumeError {
    #[error(transparent)]
    Run(#[from] RunError),
    #[error("the stored run does not replay: {0}")]
    Diverged(String),
}

/// The match after `r.hashes.len()` rounds, with its pending decision when there was one.
pub fn resume(rules: Arc<Rules>, r: Resume<'_>) -> Result<Match, ResumeError> {
    let mut m = Match::new(rules, r.home, r.away, r.seed, r.options).map_err(RunError::from)?;
    let target = r.hashes.len();
    let mut intents = r.intents.iter().peekable();
    while m.round_hashes().len() < target {
        match m.step() {
            Step::Finished | Step::Faulted => break,
            Step::Round => {}
            Step::Decision => {
                let round = m.state().round;
                match intents.peek() {
                    Some(i) if i.round == round => {
                        let i = intents.next().expect("peeked");
                        m.decide(&i.intent).map_err(|e| {
                            ResumeError::Diverged(format!("intent '{}' at round {round}: {e}", i.intent))
                        })?;
                    }
                    _ => m.decide_npc().expect("a decision is pending"),
                }
            }
        }
        let n = m.round_hashes().len();
        if n > 0 {
            let actual = format!("{:016x}", m.round_hashes()[n - 1]);
            if r.hashes.get(n - 1) != Some(&actual) {
                return Err(ResumeError::Diverged(format!(
                    "round {} replays to state {actual}, stored {}",
                    n - 1,
                    r.hashes.get(n - 1).map_or("nothing", |s| s.as_str())
                )));
            }
        }
    }
    if m.round_hashes().len() != target {
        return Err(ResumeError::Diverged(format!(
            "the match ends after {} rounds; {target} are stored",
            m.round_hashes().len()
        )));
    }
    if r.pending && m.step() != Step::Decision {
        return Err(ResumeError::Diverged(format!("no decision is pending after round {target}")));
    }
    Ok(m)
}
