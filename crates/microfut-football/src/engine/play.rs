//! The match as it is played: what carries it from one round to the next.
//!
//! Invariants: the state hash after each round covers `state` and the dice's draw count; the
//! rest of the play (the line-ups as substitutions changed them, the statistics — substitutions
//! count against a limit —, the pending decision, the restart and positioning flags) follows
//! from them and the rules, so a replay rebuilds all of it by playing. Only the round and the
//! constructed situations (`Match::place`, `give_ball`) change it; reads (a person's odds,
//! projections, explanations) put back whatever they touch and draw no die. Dice are drawn only
//! for real rolls (`Match::roll`, `random_dir` and the actions' own draws), from `dice` alone.

use super::setup::{self, Team};
use super::state::{Ball, RestartKind, State};
use super::{EngineError, Options, Rules, TeamStats};
use crate::club::Club;
use microfut_core::dice::Dice;
use std::ops::Range;

/// The carrier's choice for the round, kept between the decision and its execution.
#[derive(Debug, Clone)]
pub(super) struct Pending {
    pub(super) carrier: usize,
}

pub(super) struct Play {
    pub(super) teams: [Team; 2],
    pub(super) state: State,
    pub(super) dice: Dice,
    /// Names the run and seeds decision noise.
    pub(super) seed: u64,
    /// The side a person plays.
    pub(super) human: Option<usize>,
    /// Each side's player indices (setup lists the home side first, then the away side).
    pub(super) sides: [Range<usize>; 2],
    pub(super) stats: [TeamStats; 2],
    pub(super) pending: Option<Pending>,
    /// The team whose possession the last positioning tests were made for.
    pub(super) positioned_for: Option<usize>,
    /// The restart in play is a penalty: the taker's only candidate is the shot, unblocked.
    pub(super) penalty_kick: bool,
    /// Per player, (round, possession) when his destination last came from the team shape
    /// (lever `positioning_cadence`); cleared when play restarts or the ends change.
    pub(super) shaped: Vec<Option<(u32, usize)>>,
    /// The restart the carrier takes this round, if any (the decision log's phase).
    pub(super) taking: Option<RestartKind>,
}

impl Play {
    /// The two line-ups at kick-off, on `dice`.
    pub(super) fn new(
        rules: &Rules,
        [home, away]: [&Club; 2],
        dice: Dice,
        seed: u64,
        options: &Options,
    ) -> Result<Play, EngineError> {
        let teams = [
            setup::select(rules, home, options.formations[0].as_deref())?,
            setup::select(rules, away, options.formations[1].as_deref())?,
        ];
        let players = setup::players(rules, &teams)?;
        let n = players.len();
        let home = players.iter().take_while(|p| p.team == 0).count();
        debug_assert!(players[home..].iter().all(|p| p.team == 1), "setup lists the home side first");
        let mut state = State {
            players,
            ball: rules.pitch.centre(),
            ball_state: Ball::Loose,
            possession: 0,
            last_touch: 0,
            score: [0, 0],
            half: 0,
            clock: 0.0,
            round: 0,
            attacks_right: [true, false],
            finished: false,
            possession_rounds: [0, 0],
        };
        setup::line_up_for_kickoff(rules, &teams, &mut state, 0);
        Ok(Play {
            teams,
            state,
            dice,
            seed,
            human: options.human,
            sides: [0..home, home..n],
            stats: [TeamStats::default(), TeamStats::default()],
            pending: None,
            positioned_for: None,
            penalty_kick: false,
            shaped: vec![None; n],
            taking: None,
        })
    }
}
