//! The match's working memory: the round's candidates, destinations and duel values, the
//! buffers estimates and positioning reuse, and the exact memos of two pipelines.
//!
//! Invariant: nothing here carries the match forward. Each item is either recomputed from the
//! play (and the rules) before the round reads it — the candidates (kept while a person's
//! decision is pending), the destinations and who runs at full pace, the duels weighed this
//! round —, a buffer whose contents mean nothing between uses, or a memo of a pipeline's own
//! result for its whole key (`movement::Memo`). Emptying all of it between rounds would change
//! no roll, choice or hash. `exact_angles` is set only while explaining: angles then go in exact
//! rather than as a value inside the same table bin, so every table reads the same.

use super::candidate::Candidate;
use super::estimate::{PassScratch, StrikeScratch};
use super::geometry::V2;
use super::movement::{RangeMemo, RecoveryMemo};
use microfut_core::dice::Difficulty;

/// Duel difficulties computed this round: (carrier, defender, moving, difficulties).
pub(super) type DuelCache = Vec<(usize, usize, bool, (Difficulty, Difficulty))>;

pub(super) struct Scratch {
    /// The carrier's candidates this round.
    pub(super) candidates: Vec<Candidate>,
    /// Each player's destination this round (step 4).
    pub(super) targets: Vec<V2>,
    /// Per player, whether he runs at full pace to his destination.
    pub(super) urgent: Vec<bool>,
    pub(super) duel_cache: DuelCache,
    /// Buffers the pass estimates reuse (a decision makes ~10), so estimating allocates nothing.
    pub(super) pass: PassScratch,
    pub(super) strike: StrikeScratch,
    /// Positioning's buffers: the nearest candidates to press or support, each side's view of
    /// its opponents.
    pub(super) near: Vec<(f64, usize)>,
    pub(super) view: [Vec<V2>; 2],
    /// Stamina recovery per player for the few contexts it reads (see `Rules::recovery_memo`).
    pub(super) recovery_memo: Vec<RecoveryMemo>,
    /// Movement range per player for the last few contexts (see `Rules::range_memo`).
    pub(super) range_memo: Vec<RangeMemo>,
    /// The rounds with the ball as players' inputs read them, for the possession counts they
    /// were scaled from (see `Match::rounds_scaled`).
    pub(super) rounds_scaled: Option<RoundsScaled>,
    /// Set while explaining: inputs then hold exact angles, as the explanation shows them.
    pub(super) exact_angles: bool,
}

/// Each side's rounds with the ball and the match's, kept within their vocabulary scales, for
/// the possession counts `rounds`.
#[derive(Debug, Clone, Copy)]
pub(super) struct RoundsScaled {
    pub(super) rounds: [u32; 2],
    pub(super) ball: [f64; 2],
    pub(super) total: f64,
}

impl Scratch {
    /// Working memory for `n` players.
    pub(super) fn new(n: usize) -> Scratch {
        Scratch {
            candidates: Vec::with_capacity(32),
            targets: vec![V2::ZERO; n],
            urgent: vec![false; n],
            duel_cache: Vec::with_capacity(16),
            pass: PassScratch::default(),
            strike: StrikeScratch::default(),
            near: Vec::with_capacity(n),
            view: [Vec::with_capacity(n), Vec::with_capacity(n)],
            recovery_memo: vec![RecoveryMemo::default(); n],
            range_memo: vec![RangeMemo::default(); n],
            rounds_scaled: None,
            exact_angles: false,
        }
    }
}
