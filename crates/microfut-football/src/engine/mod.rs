//! The match engine: 22 players on the pitch, the rules document's round sequence (§3), every
//! action of Part VI through the content's pipelines, NPC decisions (§33) and human intents.
//!
//! The engine orchestrates — who acts, where everyone is, which pipeline to call with which
//! context — and takes every number from the pinned revision ([`Rules`]). Dice come only from the
//! run's seeded stream and only for real rolls; estimates, projections and decision noise never
//! touch it.

mod actions;
mod bench;
pub mod candidate;
mod chronicle;
pub mod content;
mod estimate;
pub mod events;
pub mod geometry;
pub mod log;
mod movement;
mod npc;
mod odds;
mod planner;
mod play;
mod positioning;
pub mod projection;
mod scratch;
pub mod set_pieces;
pub mod setup;
pub mod state;
pub mod stats;

pub use candidate::{Branch, Candidate, Intent, Kind, Odds, Target, TestOdds};
pub use content::{ContentError, Rules};
pub use events::{Event, EventKind, Who};
pub use microfut_core::pipeline::NonFinite;
pub use setup::{SetupError, Team};
pub use stats::TeamStats;

/// Two clubs to play each other over and over: what the lab plays (its `Simulator` for the
/// match engine is `calibrate`'s, so that the engine depends on nothing above it).
pub struct MatchSimulator {
    pub home: crate::club::Club,
    pub away: crate::club::Club,
}

use crate::club::Club;
use chronicle::Chronicle;
use geometry::{V2, angle_between};
use log::DecisionLog;
use microfut_core::dice::{Dice, Difficulty};
use microfut_core::pipeline::{Resolution, Roll};
use planner::Planner;
use play::{Pending, Play};
use projection::RollRole;
use scratch::Scratch;
use serde::{Deserialize, Serialize};
use state::{Ball, Line, State};
use std::sync::Arc;

/// Each player's (club id, player id) as the decision log writes them.
fn log_ids(teams: &[Team; 2], players: &[state::Player]) -> Vec<(Arc<str>, Arc<str>)> {
    let id = |p: &state::Player| {
        let club = &teams[p.team].club;
        let sheet = &club.squad[p.sheet];
        (Arc::from(club.id.as_str()), Arc::from(format!("{}#{} {}", club.id, sheet.shirt, sheet.name)))
    };
    players.iter().map(id).collect()
}

/// Rounds to hundredths, as events and the decision log write minutes and positions.
pub fn round2(x: f64) -> f64 {
    (x * 100.0).round() / 100.0
}

#[derive(Debug, thiserror::Error)]
pub enum EngineError {
    #[error(transparent)]
    Content(#[from] ContentError),
    #[error(transparent)]
    Setup(#[from] SetupError),
}

/// A refused human intent; the match is unchanged.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum IntentError {
    #[error("no decision is pending")]
    NotPending,
    #[error("{intent} is not among the candidates ({candidates})")]
    NotACandidate { intent: String, candidates: String },
}

/// How a match is set up beyond the two clubs and the seed.
#[derive(Debug, Clone, Default)]
pub struct Options {
    /// The side a person plays (0 home, 1 away); the engine pauses when it has the ball.
    pub human: Option<usize>,
    /// Decisions the log keeps (default: the content's retention).
    pub retention: Option<usize>,
    /// Formation per side (default: the content's default).
    pub formations: [Option<String>; 2],
}

/// A human intent as recorded in a run, with the round it was declared in.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RecordedIntent {
    pub round: u32,
    #[serde(flatten)]
    pub intent: Intent,
}

/// What `step` produced.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Step {
    /// One round was played.
    Round,
    /// The human side has the ball: read `candidates()`, then call `decide`.
    Decision,
    Finished,
    /// A pipeline gave NaN or an infinity (`fault()` says which): the match stops there and its
    /// result means nothing. `validate` refuses content that can do this over its domains.
    Faulted,
}

/// Where a match stopped on a non-finite value: the round and the pipeline's part.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[error("{revision}: the match stopped in round {round}: {fault}")]
pub struct MatchFault {
    pub revision: String,
    pub round: u32,
    pub fault: microfut_core::pipeline::NonFinite,
}

/// One match: the rules it plays by and four parts, cut by what they hold — the play (what
/// carries the match on; the round hash covers its state and dice), the scratch (working memory
/// recomputed from the play), the NPC's planner and the chronicle (what the match records).
/// Each part's file states its invariant.
pub struct Match {
    rules: Arc<Rules>,
    play: Play,
    scratch: Scratch,
    planner: Planner,
    chronicle: Chronicle,
}

impl Match {
    pub fn new(rules: Arc<Rules>, home: &Club, away: &Club, seed: u64, options: Options) -> Result<Match, EngineError> {
        Self::with_dice(rules, home, away, Dice::new(seed), seed, options)
    }

    /// A match on a given dice stream (the lab derives one per simulation); `seed` names the run
    /// and seeds decision noise.
    pub fn with_dice(
        rules: Arc<Rules>,
        home: &Club,
        away: &Club,
        dice: Dice,
        seed: u64,
        options: Options,
    ) -> Result<Match, EngineError> {
        let play = Play::new(&rules, [home, away], dice, seed, &options)?;
        let retention = options.retention.unwrap_or(rules.npc.retention);
        let chronicle = Chronicle::new(retention, log_ids(&play.teams, &play.state.players));
        let scratch = Scratch::new(play.state.players.len());
        let mut m = Match { rules, play, scratch, planner: Planner::default(), chronicle };
        m.event(EventKind::KickOff { team: 0 });
        Ok(m)
    }

    pub fn rules(&self) -> &Rules {
        &self.rules
    }
    pub fn teams(&self) -> &[Team; 2] {
        &self.play.teams
    }
    pub fn state(&self) -> &State {
        &self.play.state
    }
    pub fn score(&self) -> [u32; 2] {
        self.play.state.score
    }
    pub fn stats(&self) -> &[TeamStats; 2] {
        &self.play.stats
    }
    pub fn events(&self) -> &[Event] {
        &self.chronicle.events
    }
    pub fn round_hashes(&self) -> &[u64] {
        &self.chronicle.hashes
    }
    pub fn decisions(&self) -> &DecisionLog {
        &self.chronicle.log
    }
    pub fn intents(&self) -> &[RecordedIntent] {
        &self.chronicle.intents
    }
    pub fn seed(&self) -> u64 {
        self.play.seed
    }
    pub fn finished(&self) -> bool {
        self.play.state.finished
    }
    /// The restart the carrier is taking this round (a kick-off, a corner, a penalty …), if any.
    pub fn restart_taken(&self) -> Option<state::RestartKind> {
        self.play.taking
    }

    /// Makes the NPC weigh every candidate exactly instead of stopping when no remaining bound
    /// can beat the best exact score. The choice is the same either way (a test plays whole
    /// matches both ways); only the decision log differs: no candidate is marked pruned.
    pub fn weigh_every_candidate(&mut self, every: bool) {
        self.planner.weigh_every_candidate = every;
    }

    /// The candidates of the pending human decision.
    pub fn candidates(&self) -> Option<&[Candidate]> {
        self.play.pending.as_ref().map(|_| self.scratch.candidates.as_slice())
    }

    /// Why the match stopped early, if a pipeline met a non-finite value.
    pub fn fault(&self) -> Option<MatchFault> {
        let (pipe, part, round) = self.chronicle.fault.get()?;
        let pl = &self.rules.rs.pipelines[pipe];
        let r = Resolution {
            value: f64::NAN,
            raw: f64::NAN,
            difficulty: None,
            fraction: 0.0,
            probability: None,
            probability_above: None,
            possible: false,
            blocked_by: None,
            nonfinite: Some(part),
        };
        Some(MatchFault { revision: self.rules.rs.label(), round, fault: pl.fault(&r)? })
    }

    /// Notes the first resolution that met a non-finite value; the match stops after the round.
    fn check_finite(&self, pipe: usize, r: &Resolution) {
        if let Some(part) = r.nonfinite {
            self.chronicle.note_fault(pipe, part, self.play.state.round);
        }
    }

    /// Advances by one round, or stops at a human decision.
    pub fn step(&mut self) -> Step {
        if self.chronicle.fault.get().is_some() {
            return Step::Faulted;
        }
        if self.play.state.finished {
            return Step::Finished;
        }
        if self.play.pending.is_some() {
            return Step::Decision;
        }
        match self.begin_round() {
            // Nothing the content allows from where he stands (no pass in range, no direction
            // to carry in): he holds the ball this round and the others move.
            Some(_) if self.scratch.candidates.is_empty() => {
                self.finish_round(None);
                Step::Round
            }
            Some(carrier) if Some(self.play.state.players[carrier].team) == self.play.human => {
                self.price_for_person(carrier);
                self.play.pending = Some(Pending { carrier });
                Step::Decision
            }
            Some(carrier) => {
                let choice = self.choose();
                self.log_decision(carrier, choice, false);
                self.finish_round(Some((carrier, choice)));
                Step::Round
            }
            None => {
                self.finish_round(None);
                Step::Round
            }
        }
    }

    /// Declares the human side's intent for the pending decision. An intent that is not among the
    /// candidates is refused and nothing changes.
    pub fn decide(&mut self, intent: &Intent) -> Result<(), IntentError> {
        let Some(pending) = self.play.pending.clone() else {
            return Err(IntentError::NotPending);
        };
        let Some(choice) = self.scratch.candidates.iter().position(|c| c.intent() == *intent) else {
            return Err(IntentError::NotACandidate {
                intent: intent.to_string(),
                candidates: self
                    .scratch
                    .candidates
                    .iter()
                    .map(|c| c.intent().to_string())
                    .collect::<Vec<_>>()
                    .join(", "),
            });
        };
        self.play.pending = None;
        self.chronicle.intents.push(RecordedIntent { round: self.play.state.round, intent: intent.clone() });
        self.log_decision(pending.carrier, choice, true);
        self.finish_round(Some((pending.carrier, choice)));
        Ok(())
    }

    /// Lets the NPC take the pending human decision (a person who declares nothing).
    pub fn decide_npc(&mut self) -> Result<(), IntentError> {
        let Some(pending) = self.play.pending.take() else {
            return Err(IntentError::NotPending);
        };
        let choice = self.choose();
        self.log_decision(pending.carrier, choice, false);
        self.finish_round(Some((pending.carrier, choice)));
        Ok(())
    }

    /// Plays to the final whistle; NPC decisions only (a human side must be driven by `step`).
    /// Refused when a pipeline meets a non-finite value: the match stops there.
    pub fn run(&mut self) -> Result<(), MatchFault> {
        while self.step() == Step::Round {}
        match self.fault() {
            Some(f) => Err(f),
            None => Ok(()),
        }
    }

    // ---- constructed situations (what-if analysis and tests; never used in play) ----

    /// Moves a player, facing `dir` (zero for a neutral body). No die is drawn.
    pub fn place(&mut self, p: usize, pos: V2, dir: V2) {
        let pl = &mut self.play.state.players[p];
        pl.pos = self.rules.pitch.clamp(pos);
        pl.dir = dir.unit();
        pl.still = 0;
        pl.error = V2::ZERO;
        self.play.shaped[p] = None;
    }

    /// Gives the ball to a player where he stands.
    pub fn give_ball(&mut self, p: usize) {
        let t = self.play.state.players[p].team;
        self.play.state.ball_state = Ball::Held(p);
        self.play.state.ball = self.play.state.players[p].pos;
        self.play.state.possession = t;
        self.play.state.last_touch = t;
        self.play.positioned_for = Some(t);
        self.play.pending = None;
    }

    /// The holder's candidates as the NPC scores them now, best first. Read-only for the dice.
    pub fn scored_candidates(&mut self) -> Vec<Candidate> {
        let Some(h) = self.play.state.holder() else { return Vec::new() };
        self.scratch.duel_cache.clear();
        self.plan_candidates(h, false);
        let mut c = self.scratch.candidates.clone();
        c.sort_by(|a, b| b.score.total_cmp(&a.score));
        c
    }

    /// Index of the player of `team` (0 home, 1 away) in formation slot `slot`.
    pub fn player_in_slot(&self, team: usize, slot: usize) -> Option<usize> {
        self.play.state.players.iter().position(|p| p.team == team && p.slot == slot)
    }

    // ---- the round (document §3) ----

    /// Steps 1–3 up to the decision: restarts, who has the ball, positioning tests, candidates.
    fn begin_round(&mut self) -> Option<usize> {
        self.scratch.duel_cache.clear();
        self.chronicle.rolls.clear();
        if let Ball::Dead(r) = self.play.state.ball_state {
            self.take_restart(r);
            self.play.shaped.fill(None);
        }
        if self.play.state.ball_state == Ball::Loose {
            self.gather_loose_ball();
        }
        let holder = self.play.state.holder();
        if let Some(h) = holder {
            let team = self.play.state.players[h].team;
            if self.play.positioned_for != Some(team) {
                self.play.positioned_for = Some(team);
                self.positioning_tests();
            }
            // A match a person plays shows every candidate's score: the NPC weighs them all.
            let lazy = !self.planner.weigh_every_candidate && self.play.human.is_none();
            self.plan_candidates(h, lazy);
        }
        holder
    }

    /// The holder's candidates, weighed under the content's `npc.plan_context` when the NPC
    /// plays his side (a person's are weighed as the match is: the odds shown are the real ones).
    fn plan_candidates(&mut self, h: usize, lazy: bool) {
        if self.rules.npc.plan_context.is_empty() || Some(self.play.state.players[h].team) == self.play.human {
            self.generate_candidates(h, lazy);
            return;
        }
        let rules = self.rules.clone();
        let mut own = std::mem::take(&mut self.planner.planned_own);
        own.clear();
        let everyone = 0..self.play.state.players.len();
        let plan = everyone.flat_map(|p| rules.npc.plan_context.iter().map(move |&(slot, v)| (p, slot, v)));
        self.swap_in(&mut own, plan);
        self.generate_candidates(h, lazy);
        self.put_back(&own);
        self.planner.planned_own = own;
        // Duels weighed under the plan are not the match's: the round's defenders and tests
        // read them afresh.
        self.scratch.duel_cache.clear();
    }

    /// Sets each (player, slot, value), recording in `own` what it replaced.
    fn swap_in(&mut self, own: &mut planner::Own, values: impl Iterator<Item = (usize, usize, f64)>) {
        for (p, slot, v) in values {
            own.push((p, slot, self.get(p, slot)));
            self.set(p, slot, v);
        }
    }

    /// Undoes `swap_in`, in reverse: a player listed twice gets his own value last.
    fn put_back(&mut self, own: &[(usize, usize, f64)]) {
        for &(p, slot, was) in own.iter().rev() {
            self.set(p, slot, was);
        }
    }

    /// Steps 4–11: movement, the action and its opposition, effects, stamina, clock.
    fn finish_round(&mut self, choice: Option<(usize, usize)>) {
        let action = choice.map(|(carrier, c)| (carrier, self.scratch.candidates[c].clone()));
        self.step_four(action.as_ref());
        if let Some((carrier, cand)) = action {
            self.resolve(carrier, &cand);
        }
        self.after_round();
    }

    /// Step 4 for the round's action (or none): destinations, every player's movement, the
    /// carrier's run. Draws no die, so the geometry a declared action is rolled on is known when
    /// it is declared; `price_for_person` plays it on a copy for each candidate.
    fn step_four(&mut self, action: Option<&(usize, Candidate)>) {
        // Movement changes stamina-free context only; duel values stay valid for the round.
        for p in self.play.state.players.iter_mut() {
            p.moved = 0.0;
            p.duel = false;
            p.with_ball = false;
            p.pace = 0;
        }
        self.compute_targets(action);
        self.move_players(action);
        if let Some((carrier, _)) = action {
            self.play.state.players[*carrier].with_ball = true;
        }
    }

    fn after_round(&mut self) {
        self.play.taking = None;
        self.update_bodies();
        if let Some(t) = self.holding_team() {
            self.play.state.possession_rounds[t] += 1;
        }
        self.play.state.round += 1;
        self.play.state.clock += self.rules.clock.round_seconds;
        self.check_out_of_play();
        if self.play.state.clock >= self.rules.clock.half_seconds {
            self.end_half();
        }
        let h = self.play.state.hash(self.play.dice.draws());
        self.chronicle.hashes.push(h);
    }

    fn holding_team(&self) -> Option<usize> {
        self.play.state.holder().map(|p| self.play.state.players[p].team)
    }

    fn end_half(&mut self) {
        self.play.state.half += 1;
        self.play.state.clock = 0.0;
        if self.play.state.half >= self.rules.clock.halves {
            self.finish();
            return;
        }
        self.event(EventKind::HalfTime);
        let rec = self.rules.params.half_time_recovery;
        let max = self.rules.params.stamina_max;
        for p in self.play.state.players.iter_mut() {
            p.stamina = (p.stamina + rec).min(max);
        }
        self.play.state.attacks_right = [!self.play.state.attacks_right[0], !self.play.state.attacks_right[1]];
        let kicking = (self.play.state.half % 2) as usize;
        setup::line_up_for_kickoff(&self.rules, &self.play.teams, &mut self.play.state, kicking);
        self.play.positioned_for = None;
        self.play.shaped.fill(None);
    }

    fn finish(&mut self) {
        self.play.state.finished = true;
        let total = (self.play.state.possession_rounds[0] + self.play.state.possession_rounds[1]).max(1) as f64;
        for t in 0..2 {
            let s = &mut self.play.stats[t];
            s.possession = 100.0 * self.play.state.possession_rounds[t] as f64 / total;
            let players: Vec<&state::Player> = self.play.state.players.iter().filter(|p| p.team == t).collect();
            s.distance_km = players.iter().map(|p| p.distance_covered).sum::<f64>() / 1000.0;
            s.mean_stamina = players.iter().map(|p| p.stamina).sum::<f64>() / players.len() as f64;
        }
        self.event(EventKind::FullTime { score: self.play.state.score });
    }

    // ---- helpers shared by the parts of the engine ----

    fn event(&mut self, kind: EventKind) {
        let minute = self.play.state.minute(self.rules.clock.half_seconds);
        self.chronicle.events.push(Event { round: self.play.state.round, minute: round2(minute), kind });
    }

    /// Writes an event in place `at` of the match's events (one that happened before the
    /// events written since).
    fn event_at(&mut self, at: usize, kind: EventKind) {
        let minute = self.play.state.minute(self.rules.clock.half_seconds);
        self.chronicle.events.insert(at, Event { round: self.play.state.round, minute: round2(minute), kind });
    }

    fn who(&self, p: usize) -> Who {
        let pl = &self.play.state.players[p];
        Who { team: pl.team as u8, shirt: pl.shirt }
    }

    /// A world point in team `t`'s attacking frame (and back: the half-turn is its own inverse).
    fn frame(&self, t: usize, p: V2) -> V2 {
        if self.play.state.attacks_right[t] { p } else { self.rules.pitch.turn(p) }
    }

    /// The players of the other side, in index order (setup places each side's players together).
    fn opponents(&self, t: usize) -> std::ops::Range<usize> {
        self.play.sides[1 - t].clone()
    }

    fn keeper(&self, t: usize) -> usize {
        (0..self.play.state.players.len())
            .find(|&i| self.play.state.players[i].team == t && self.play.state.players[i].line == Line::Goalkeeper)
            .expect("every team fields a keeper")
    }

    /// Immediate pressure context (baseline §2) for player `p` at `at`.
    fn set_pressure(&mut self, p: usize, at: V2) {
        let t = self.play.state.players[p].team;
        let radius = self.rules.params.pressure_extra_radius;
        // Squared distances: the square root of the smallest is the smallest distance, bit for
        // bit (an exactly rounded root keeps the order).
        let mut nearest2 = f64::INFINITY;
        let mut within = 0u32;
        for o in self.opponents(t) {
            let q = self.play.state.players[o].pos.dist2(at);
            if geometry::sqrt_le(q, radius) {
                within += 1;
            }
            nearest2 = nearest2.min(q);
        }
        let nearest = nearest2.sqrt();
        let s = self.rules.slots;
        let extra = if nearest <= radius { within.saturating_sub(1) } else { within };
        // Kept within the vocabulary's scales (an empty side would leave the nearest at infinity).
        self.set_scaled(p, s.nearest_opponent, nearest);
        self.set_scaled(p, s.opponents_within_3m, extra as f64);
    }

    /// Body orientation context (baseline §3) for player `p` acting towards `toward`.
    fn set_orientation(&mut self, p: usize, toward: V2) {
        let s = self.rules.slots;
        let pl = &self.play.state.players[p];
        let neutral = pl.still as f64 >= self.rules.params.neutral_after_still_rounds || pl.dir == V2::ZERO;
        let angle = match &self.rules.orientation_plan {
            Some(plan) if !self.scratch.exact_angles => plan.angle(pl.dir, toward - pl.pos),
            _ => angle_between(pl.dir, toward - pl.pos),
        };
        let inputs = &mut self.play.state.players[p].inputs;
        inputs.set(s.neutral_orientation, if neutral { 1.0 } else { 0.0 });
        inputs.set(s.orientation, angle);
    }

    /// The player's state his tests read: stamina, and (engine 0.5.10, where the revision names
    /// them) the rounds his side has held the ball and the rounds either side has.
    fn set_match_state(&mut self, p: usize) {
        let slots = self.rules.slots;
        let scaled = self.rounds_scaled();
        let pl = &mut self.play.state.players[p];
        pl.inputs.set(slots.stamina, pl.stamina);
        if let Some(slot) = slots.ball_rounds {
            pl.inputs.set(slot, scaled.ball[pl.team]);
        }
        if let Some(slot) = slots.match_rounds {
            pl.inputs.set(slot, scaled.total);
        }
    }

    /// The rounds each side and the match have had the ball, kept within their scales: the same
    /// values for every player until the next round (a match sets them ~40 times a round).
    fn rounds_scaled(&mut self) -> scratch::RoundsScaled {
        let rounds = self.play.state.possession_rounds;
        if let Some(r) = self.scratch.rounds_scaled.filter(|r| r.rounds == rounds) {
            return r;
        }
        let s = self.rules.slots;
        let scale = |slot: Option<usize>, v: f64| slot.map_or(0.0, |slot| self.scaled(slot, v));
        let r = scratch::RoundsScaled {
            rounds,
            ball: rounds.map(|n| scale(s.ball_rounds, n as f64)),
            total: scale(s.match_rounds, (rounds[0] + rounds[1]) as f64),
        };
        self.scratch.rounds_scaled = Some(r);
        r
    }

    /// A context value kept inside its vocabulary scale.
    fn scaled(&self, slot: usize, v: f64) -> f64 {
        let var = &self.rules.rs.vars[slot];
        v.clamp(var.min, var.max)
    }

    fn set(&mut self, p: usize, slot: usize, v: f64) {
        self.play.state.players[p].inputs.set(slot, v);
    }

    /// Sets a context value kept inside its vocabulary scale (a margin beyond the scale reads
    /// as the scale's end).
    fn set_scaled(&mut self, p: usize, slot: usize, v: f64) {
        let v = self.scaled(slot, v);
        self.play.state.players[p].inputs.set(slot, v);
    }

    fn get(&self, p: usize, slot: usize) -> f64 {
        self.play.state.players[p].inputs.get(slot)
    }

    /// Evaluates a pipeline for a player without rolling.
    fn estimate(&self, p: usize, pipe: usize) -> Resolution {
        let r = self.rules.rs.pipelines[pipe].resolve(&self.play.state.players[p].inputs);
        self.check_finite(pipe, &r);
        r
    }

    /// The difficulty of an action pipeline for a player, without rolling.
    fn difficulty(&self, p: usize, pipe: usize) -> Difficulty {
        self.estimate(p, pipe).diff().expect("the engine's action pipelines are checked at load")
    }

    /// Evaluates and rolls: a real test, advancing the dice.
    fn test(&mut self, p: usize, pipe: usize, role: RollRole) -> (Resolution, Roll) {
        let r = self.estimate(p, pipe);
        let roll = self.roll(p, pipe, &r, role);
        (r, roll)
    }

    /// Rolls a test whose inputs were set and evaluated (`r`): the half of [`Match::test`] that
    /// advances the dice, so an action prices its test and rolls it with the same code.
    fn roll(&mut self, p: usize, pipe: usize, r: &Resolution, role: RollRole) -> Roll {
        let roll = r.roll(&mut self.play.dice, &self.rules.rs.pipelines[pipe]);
        self.journal(p, pipe, r, roll, role);
        roll
    }

    /// A dice-chosen direction (execution variance: a wayward ball, a heavy touch).
    fn random_dir(&mut self) -> V2 {
        V2::from_angle(self.play.dice.uniform(0.0, 360.0))
    }
}

/// The match, scored and summarised: `{"score": [home, away], "stats": {"home": …, "away": …}}`.
#[derive(Debug, Clone, Serialize)]
pub struct Summary {
    pub score: [u32; 2],
    pub stats: SideStats,
}

#[derive(Debug, Clone, Serialize)]
pub struct SideStats {
    pub home: TeamStats,
    pub away: TeamStats,
}

impl Match {
    pub fn summary(&self) -> Summary {
        Summary {
            score: self.play.state.score,
            stats: SideStats { home: self.play.stats[0].clone(), away: self.play.stats[1].clone() },
        }
    }
}
