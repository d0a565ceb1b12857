//! Candidates and NPC decisions (document §33, baseline §16).
//!
//! The NPC first chooses what to try, then executes it with exactly the same rules a person's
//! intent goes through. Each candidate is scored from normalised terms — opportunity, the exact
//! probability of success, progress, contextual risk — weighted by the content's weights, scaled
//! by the club's personality and by the match-state adaptation (logged separately, never written
//! over the base personality), plus a small deterministic noise from a hash of
//! (seed, round, player, candidate): estimating never draws a die.

use super::Match;
use super::candidate::{Candidate, Kind, Target};
use super::content::CrossProbability;
use super::geometry::{V2, along_segment, angle_between, sqrt_le};
use super::log::{CandidateLog, Decision, Personality, StateSummary};
use super::state::{Line, mix};

/// Weights after personality: (opportunity, probability, progress, risk).
#[derive(Debug, Clone, Copy)]
struct W([f64; 4]);

/// The personality axes the NPC weighs (the club's, or shifted by the match).
pub(super) type Axes = Personality;

impl Match {
    fn weights(&self, a: Axes) -> W {
        let w = self.rules.npc.weights;
        let k = self.rules.npc.personality;
        W([
            w.opportunity * (1.0 + k.risk_tolerance_opportunity * a.risk_tolerance),
            w.probability * (1.0 + k.risk_tolerance_probability * a.risk_tolerance),
            w.progress * (1.0 + k.verticality_progress * a.verticality),
            w.risk * (1.0 + k.security_risk * a.security),
        ])
    }

    fn base_axes(&self, t: usize) -> Axes {
        let p = self.play.teams[t].personality;
        Axes { verticality: p.verticality as f64, security: p.security as f64, risk_tolerance: p.risk_tolerance as f64 }
    }

    /// The temporary shift of each axis from the score and the minute (content pipelines).
    fn adaptation(&mut self, carrier: usize) -> Axes {
        let t = self.play.state.players[carrier].team;
        let s = self.rules.slots;
        let diff = self.play.state.score[t] as f64 - self.play.state.score[1 - t] as f64;
        let minute = self.play.state.minute(self.rules.clock.half_seconds);
        self.set_scaled(carrier, s.goal_diff, diff);
        self.set_scaled(carrier, s.minute, minute);
        let pipes = self.rules.pipes;
        let eval = |m: &Match, p: Option<usize>| p.map_or(0.0, |p| m.estimate(carrier, p).value);
        Axes {
            verticality: eval(self, pipes.adapt_verticality),
            security: eval(self, pipes.adapt_security),
            risk_tolerance: eval(self, pipes.adapt_risk_tolerance),
        }
    }

    /// A content map (opportunity or danger) at a point of team `t`'s attacking frame.
    pub(super) fn map(&mut self, carrier: usize, pipe: usize, spot: V2) -> f64 {
        let s = self.rules.slots;
        let (x, y) = (spot.x.clamp(0.0, self.rules.pitch.length), spot.y.clamp(0.0, self.rules.pitch.width));
        self.set(carrier, s.spot_x, x);
        self.set(carrier, s.spot_y, y);
        // Lever `npc_map_grid`: the map read from its table (it reads only the spot).
        if let Some(grid) = &self.rules.levers.map_grid
            && let Some(m) = grid.which(pipe)
        {
            return grid.value(m, x, y);
        }
        self.estimate(carrier, pipe).value
    }

    /// Fills `self.scratch.candidates` with every valid action for the carrier, scored — or, when
    /// `lazy`, scored exactly only as far as the choice needs (see [`Match::weigh_lazily`]).
    pub(super) fn generate_candidates(&mut self, c: usize, lazy: bool) {
        self.scratch.candidates.clear();
        self.set_pressure(c, self.play.state.players[c].pos);
        self.set_match_state(c);
        if let Some(kind) = self.set_piece_now().filter(|&k| super::set_pieces::SetPieces::covers(k)) {
            self.set_piece_candidates(c, kind);
        } else if self.play.penalty_kick {
            self.strike_candidate(c);
        } else {
            self.open_play_candidates(c, lazy);
        }
        self.score_candidates(c);
    }

    /// Open play: carries, passes, a cross, a shot and a take-on, each where the content allows.
    fn open_play_candidates(&mut self, c: usize, lazy: bool) {
        self.carry_candidates(c);
        // The ball's reach, as it stands before the passes are priced.
        let range = self.get(c, self.rules.slots.range);
        self.pass_candidates(c, range, lazy);
        self.cross_candidate(c);
        // Shoot when within the content's shooting distance and the ball's reach.
        let t = self.play.state.players[c].team;
        let dist_goal = self.play.state.players[c].pos.dist(self.frame(t, self.rules.pitch.goal()));
        if dist_goal <= self.rules.params.shot_max_distance && dist_goal <= range {
            self.strike_candidate(c);
        }
        self.take_on_candidate(c);
    }

    /// A shot at goal, priced through blockers and the keeper.
    fn strike_candidate(&mut self, c: usize) {
        let t = self.play.state.players[c].team;
        let (p_shot, p_goal, priced) = self.strike_estimate(c, self.rules.pipes.finishing);
        let goal_w = self.frame(t, self.rules.pitch.goal());
        self.push_candidate(c, Kind::Shoot, Target::None, goal_w, None, p_shot, p_shot);
        let cand = self.scratch.candidates.last_mut().expect("pushed");
        (cand.goal_chance, cand.priced_goal) = (p_goal, Some(priced));
    }

    /// Carry in the content's directions (relative to the line to goal), for the lines that may.
    fn carry_candidates(&mut self, c: usize) {
        let t = self.play.state.players[c].team;
        let cpos = self.play.state.players[c].pos;
        let to_goal = (self.rules.pitch.goal() - self.frame(t, cpos)).unit();
        let rules = self.rules.clone();
        let carry = &rules.npc.carry;
        let directions =
            if carry.lines.contains(&self.play.state.players[c].line) { carry.directions.len() } else { 0 };
        for k in 0..directions {
            let dir_f = to_goal.turned(carry.turns[k]);
            // A direction turns with the pitch: the half-turn negates it.
            let dir_w = if self.play.state.attacks_right[t] { dir_f } else { dir_f * -1.0 };
            let range = self.movement_range(c, carry.with_ball_pace as usize, true, dir_w);
            let dest = cpos + dir_w * range;
            if range < rules.params.carry_min_range || !rules.pitch.in_bounds(dest) || self.path_blocked(c, cpos, dest)
            {
                continue;
            }
            let keep = self.keep_probability(c, dest, false, None);
            let target = Target::Direction(carry.directions[k].round() as i32);
            self.push_candidate(c, Kind::Carry, target, dest, None, 1.0, keep);
        }
    }

    /// A pass to every team-mate within `range`; when `lazy`, its keep chance waits for its bound.
    fn pass_candidates(&mut self, c: usize, range: f64, lazy: bool) {
        let pr = self.rules.params;
        let t = self.play.state.players[c].team;
        let cpos = self.play.state.players[c].pos;
        for r in 0..self.play.state.players.len() {
            if r == c || self.play.state.players[r].team != t {
                continue;
            }
            let rpos = self.play.state.players[r].pos;
            let d = cpos.dist(rpos);
            // Lever `npc_pass_reach`: beyond it no sane pass goes, whatever the passer's range.
            if d < pr.pass_min_distance || d > range || self.rules.levers.pass_reach.is_some_and(|reach| d > reach) {
                continue;
            }
            let (p_pass, difficulty) = self.pass_test(c, rpos, self.rules.pipes.pass);
            let shirt = self.play.state.players[r].shirt;
            match difficulty {
                // The keep chance (interceptors, the receiver's control) waits for the bound.
                Some(d) if lazy => {
                    let bound = self.pass_keep_bound(d);
                    self.push_candidate(c, Kind::Pass, Target::Player(shirt), rpos, Some(r), p_pass, 0.0);
                    self.scratch.candidates.last_mut().expect("pushed").unweighed = Some((d, bound));
                }
                _ => {
                    let keep = difficulty.map_or(0.0, |d| self.pass_keep(c, r, rpos, d));
                    self.push_candidate(c, Kind::Pass, Target::Player(shirt), rpos, Some(r), p_pass, keep);
                }
            }
        }
    }

    /// Cross from a wide attacking position, within the crosser's range.
    fn cross_candidate(&mut self, c: usize) {
        let t = self.play.state.players[c].team;
        let cpos = self.play.state.players[c].pos;
        if !self.crossing_position(t, cpos) {
            return;
        }
        let landing = self.cross_landing(t, cpos);
        if cpos.dist(landing) <= self.get(c, self.rules.slots.cross_range) {
            let (p_cross, keep, goal, priced) = self.cross_estimate(c, landing, self.rules.pipes.cross);
            self.push_candidate(c, Kind::Cross, Target::None, landing, None, p_cross, keep);
            let cand = self.scratch.candidates.last_mut().expect("pushed");
            (cand.goal_chance, cand.priced_goal) = (goal, Some(priced));
        }
    }

    /// Take on the nearest outfield opponent straight ahead, to a spot beyond him on the pitch.
    fn take_on_candidate(&mut self, c: usize) {
        let pr = self.rules.params;
        let pitch = self.rules.pitch;
        let t = self.play.state.players[c].team;
        let cf = self.frame(t, self.play.state.players[c].pos);
        let to_goal = (pitch.goal() - cf).unit();
        let ahead = self
            .opponents(t)
            .filter(|&o| self.play.state.players[o].line != Line::Goalkeeper)
            .map(|o| (o, self.frame(t, self.play.state.players[o].pos)))
            .filter(|(_, of)| {
                of.dist(cf) <= pr.dribble_trigger_distance && angle_between(to_goal, *of - cf) <= pr.dribble_cone
            })
            .min_by(|a, b| a.1.dist(cf).total_cmp(&b.1.dist(cf)).then(a.0.cmp(&b.0)));
        let Some((o, of)) = ahead else { return };
        let beyond_f = of + (of - cf).unit() * pr.dribble_beyond;
        let dest = self.frame(t, pitch.clamp(beyond_f));
        if pitch.in_bounds(beyond_f) {
            let keep = self.keep_probability(c, dest, true, Some(o));
            let p_dribble = self.estimate(c, self.rules.pipes.dribble).chance();
            let shirt = self.play.state.players[o].shirt;
            self.push_candidate(c, Kind::Dribble, Target::Player(shirt), dest, Some(o), p_dribble, keep);
        }
    }

    /// A carry cannot go through an opponent standing goal-side on its path: getting past him is
    /// a take-on (the dribble candidate), not a carry.
    fn path_blocked(&self, c: usize, from: V2, to: V2) -> bool {
        let t = self.play.state.players[c].team;
        let reach = self.rules.params.tackle_reach;
        let from_f = self.frame(t, from);
        self.opponents(t).any(|o| {
            let pl = &self.play.state.players[o];
            let beaten = self.still_beaten(o, c);
            if beaten || self.frame(t, pl.pos).x <= from_f.x {
                return false;
            }
            let along = along_segment(pl.pos, from, to);
            along > 0.0 && sqrt_le(pl.pos.dist2(from + (to - from) * along), reach)
        })
    }

    /// Whether a player of team `t` at `at` stands where he may cross: deep and wide enough.
    pub(super) fn crossing_position(&self, t: usize, at: V2) -> bool {
        let pr = self.rules.params;
        let f = self.frame(t, at);
        f.x >= pr.cross_min_x && (f.y - self.rules.pitch.goal_y).abs() >= pr.cross_min_wide
    }

    /// Where a cross from `from` aims: beyond the centre of the goal, at the content's depth.
    pub(super) fn cross_landing(&self, t: usize, from: V2) -> V2 {
        let pr = self.rules.params;
        let pitch = self.rules.pitch;
        let f = self.frame(t, from);
        let side = if f.y < pitch.goal_y { 1.0 } else { -1.0 };
        self.frame(t, V2::new(pitch.length - pr.cross_landing_depth, pitch.goal_y + side * pr.cross_landing_offset))
    }

    #[allow(clippy::too_many_arguments)]
    pub(super) fn push_candidate(
        &mut self,
        _c: usize,
        kind: Kind,
        target: Target,
        dest: V2,
        other: Option<usize>,
        probability: f64,
        success: f64,
    ) {
        self.scratch.candidates.push(Candidate { target, other, probability, success, ..Candidate::aimed(kind, dest) });
    }

    /// Terms, weights and noise for every candidate.
    fn score_candidates(&mut self, c: usize) {
        let t = self.play.state.players[c].team;
        let cf = self.frame(t, self.play.state.players[c].pos);
        let w = self.decision_weights(c);
        let pv = self.possession_value(c);
        let mut danger_here: Option<f64> = None;
        // Every candidate's danger where it would lose the ball, for the lazy passes' bounds.
        let mut unweighed: Vec<(f64, usize, f64)> = Vec::new();
        for i in 0..self.scratch.candidates.len() {
            let (threat, progression, danger) = self.candidate_terms(c, i, cf, &mut danger_here);
            // What losing the ball costs: the danger where it is lost, and the ball itself.
            let lost_danger = match pv {
                Some(v) => danger + v,
                None => danger,
            };
            let noise = self.decision_noise(c, i);
            let cand = &mut self.scratch.candidates[i];
            let bias = self.rules.npc.bias.of(cand.kind);
            cand.threat = threat;
            cand.progression = progression;
            cand.gain = progression * self.rules.pitch.length;
            cand.noise = noise;
            cand.bias = bias;
            match cand.unweighed {
                Some((_, keep_bound)) => {
                    let bound = score_bound(w[2], threat, progression, lost_danger, keep_bound, noise, bias);
                    unweighed.push((bound, i, lost_danger));
                }
                None => {
                    let risk = match cand.kind {
                        Kind::Shoot => 1.0 - cand.priced_goal.unwrap_or(cand.goal_chance),
                        _ => 1.0 - cand.success,
                    } * lost_danger;
                    self.finish_score(i, w, risk);
                }
            }
        }
        if !unweighed.is_empty() {
            self.weigh_lazily(c, &mut unweighed, w);
        }
    }

    /// The decision's weights: neutral, the club's personality, and shifted by the match state
    /// (noted for the log).
    fn decision_weights(&mut self, c: usize) -> [W; 3] {
        let base = self.base_axes(self.play.state.players[c].team);
        let shift = self.adaptation(c);
        self.planner.adapted = Some((self.play.state.round, c, shift));
        let adapted = Axes {
            verticality: base.verticality + shift.verticality,
            security: base.security + shift.security,
            risk_tolerance: base.risk_tolerance + shift.risk_tolerance,
        };
        [self.weights(Axes::default()), self.weights(base), self.weights(adapted)]
    }

    /// The value of possession (0.6.4): one constant for the decision, from the passer's own
    /// tests (known before any lazy evaluation; no die), noted for the log. Absent, losses cost
    /// the danger alone.
    fn possession_value(&mut self, c: usize) -> Option<f64> {
        let t = self.play.state.players[c].team;
        let pv =
            self.rules.npc.possession_value.map(|v| v.weight * self.best_pass_chance() * self.lead_factor(t, v.lead));
        self.planner.possession_value = pv.map(|v| (self.play.state.round, c, v));
        pv
    }

    /// Candidate `i`'s threat, progression and the danger where it would lose the ball;
    /// `danger_here` is the danger where the carrier stands (mapped once, `cf` his spot).
    fn candidate_terms(&mut self, c: usize, i: usize, cf: V2, danger_here: &mut Option<f64>) -> (f64, f64, f64) {
        let t = self.play.state.players[c].team;
        let pitch = self.rules.pitch;
        let (opp, danger) = (self.rules.pipes.opportunity, self.rules.pipes.danger);
        let goal_value = self.rules.npc.shot.goal_value;
        let cand = &self.scratch.candidates[i];
        // The NPC weighs the goal as it prices it (engine 0.5.6; before, the true chance).
        let goal_chance = cand.priced_goal.unwrap_or(cand.goal_chance);
        let kind = cand.kind;
        let df = self.frame(t, cand.dest);
        match kind {
            Kind::Shoot => {
                // Lost shots leave the ball at the far end: the danger is where play restarts.
                let restart = V2::new(pitch.length - self.rules.params.goal_kick_spot_x, pitch.goal_y);
                let danger_there = self.map(c, danger, restart);
                (goal_value * goal_chance, 0.0, danger_there)
            }
            Kind::Cross => {
                // A cross is worth the header it makes, or at least the region it reaches.
                let threat = self.map(c, opp, df).max(goal_value * goal_chance);
                let d = self.map(c, danger, df);
                (threat, (df.x - cf.x) / pitch.length, d)
            }
            _ => {
                let threat = self.map(c, opp, df);
                // A pass is lost where it goes; a carry or a take-on where the carrier stands
                // (the same spot for all of them: mapped once).
                let d = if matches!(kind, Kind::Pass | Kind::Throw) {
                    self.map(c, danger, df)
                } else {
                    *danger_here.get_or_insert_with(|| self.map(c, danger, cf))
                };
                (threat, (df.x - cf.x) / pitch.length, d)
            }
        }
    }

    /// The decision noise of candidate `i`: drawn from no die, a hash of the seed, the round,
    /// the carrier and the candidate.
    fn decision_noise(&self, c: usize, i: usize) -> f64 {
        let h = mix(&[self.play.seed, self.play.state.round as u64, c as u64, i as u64]);
        self.rules.npc.noise * (2.0 * ((h >> 11) as f64 / (1u64 << 53) as f64) - 1.0)
    }

    /// K of the value of possession: the best pass-test chance among the decision's passes
    /// (throw-ins included), 0 when the holder has no pass.
    fn best_pass_chance(&self) -> f64 {
        self.scratch
            .candidates
            .iter()
            .filter(|c| matches!(c.kind, Kind::Pass | Kind::Throw))
            .map(|c| c.probability)
            .fold(0.0, f64::max)
    }

    /// The value of possession's scale from the holder's team's lead over the opponents in a
    /// skill (its mean over each side's outfield players on the pitch): max(0, 1 + per point ×
    /// lead); 1 when the content names no lead.
    fn lead_factor(&self, t: usize, lead: Option<(usize, f64)>) -> f64 {
        let Some((skill, per_point)) = lead else { return 1.0 };
        let mean = |team: usize| {
            let (sum, n) = (0..self.play.state.players.len())
                .filter(|&p| {
                    self.play.state.players[p].team == team && self.play.state.players[p].line != Line::Goalkeeper
                })
                .fold((0.0, 0usize), |(s, n), p| (s + self.get(p, skill), n + 1));
            if n == 0 { 0.0 } else { sum / n as f64 }
        };
        (1.0 + per_point * (mean(t) - mean(1 - t))).max(0.0)
    }

    /// The candidate's probability term, risk, modifiers and score from its terms.
    fn finish_score(&mut self, i: usize, [w0, wp, wa]: [W; 3], risk: f64) {
        // The probability term: the exact chance of the shot's own test (document §33); for
        // the other actions, the chance the ball is kept through them. A shot's goal chance
        // is its threat.
        let cross_test = matches!(&self.rules.npc.cross, Some(x) if x.probability == CrossProbability::Test);
        let cand = &mut self.scratch.candidates[i];
        let probability = match cand.kind {
            Kind::Shoot => cand.probability,
            Kind::Cross if cross_test => cand.probability,
            _ => cand.success,
        };
        let terms = [cand.threat, probability, cand.progression, -risk];
        let (s0, sp, sa) = (dot(w0, terms), dot(wp, terms), dot(wa, terms));
        cand.turnover_risk = risk;
        cand.personality_modifier = sp - s0;
        cand.match_state_modifier = sa - sp;
        // 0.5 revisions have no bias: the score is as it was, bit for bit.
        cand.score = if cand.bias == 0.0 { sa + cand.noise } else { sa + cand.noise + cand.bias };
    }

    /// Lazy exact evaluation (issue 15). `unweighed` holds the passes whose keep chance — the
    /// interceptors on the line and the receiver's control, most of a pass's cost — was not
    /// computed, each with an upper bound of its score. They are weighed best bound first, and
    /// only while a bound can still reach the best exact score: a pass whose bound is below it
    /// cannot be chosen, as its exact score would be lower still. The choice is therefore the one
    /// weighing everything gives — the same index, ties included (equal scores go to the earlier
    /// candidate, and a bound equal to the best is weighed). A skipped pass keeps score −∞ and its
    /// bound in `pruned`, which the decision log shows. Any non-finite bound or score turns the
    /// shortcut off for the decision (everything is weighed, as before).
    fn weigh_lazily(&mut self, c: usize, unweighed: &mut [(f64, usize, f64)], w: [W; 3]) {
        let mut best: Option<(f64, usize)> = None;
        let mut finite = unweighed.iter().all(|u| u.0.is_finite());
        for (i, cand) in self.scratch.candidates.iter().enumerate() {
            if cand.unweighed.is_some() {
                continue;
            }
            finite &= cand.score.is_finite();
            if best.is_none_or(|(s, _)| cand.score > s) {
                best = Some((cand.score, i));
            }
        }
        // Best bound first; equal bounds in the candidates' order (deterministic).
        unweighed.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1)));
        for &(bound, i, lost_danger) in unweighed.iter() {
            if finite && best.is_some_and(|(s, _)| bound < s) {
                let cand = &mut self.scratch.candidates[i];
                cand.unweighed = None;
                cand.pruned = Some(bound);
                cand.score = f64::NEG_INFINITY;
                continue;
            }
            let (d, _) = self.scratch.candidates[i].unweighed.take().expect("unweighed");
            let (r, to) =
                (self.scratch.candidates[i].other.expect("a pass has a receiver"), self.scratch.candidates[i].dest);
            let keep = self.pass_keep(c, r, to, d);
            self.scratch.candidates[i].success = keep;
            self.finish_score(i, w, (1.0 - keep) * lost_danger);
            let score = self.scratch.candidates[i].score;
            finite &= score.is_finite();
            if best.is_none_or(|(s, b)| score > s || (score == s && i < b)) {
                best = Some((score, i));
            }
        }
    }

    /// (chance of the strike's own test, chance of a goal) for player `p` shooting from where he
    /// stands — against the keeper and any blocker where they stand. A projection: no die.
    pub fn strike_chances(&mut self, p: usize, header: bool) -> (f64, f64) {
        let pipe = if header { self.rules.pipes.header } else { self.rules.pipes.finishing };
        let (p_test, p_goal, _) = self.strike_estimate(p, pipe);
        (p_test, p_goal)
    }

    /// The NPC's choice: the best score (ties to the earlier candidate).
    pub(super) fn choose(&self) -> usize {
        let mut best = 0;
        for (i, c) in self.scratch.candidates.iter().enumerate() {
            if c.score > self.scratch.candidates[best].score {
                best = i;
            }
        }
        best
    }

    /// The phase a decision is taken in: the restart the carrier takes, or the content's phase
    /// of open play for the ball's depth `x` in his attacking frame.
    fn phase(&self, x: f64) -> std::borrow::Cow<'static, str> {
        if let Some(kind) = self.play.taking {
            return kind.name().into();
        }
        let phases = &self.rules.npc.phases;
        match phases.iter().find(|p| x <= p.until_x).or(phases.last()) {
            Some(p) => p.id.clone().into(),
            None => "open_play".into(),
        }
    }

    pub(super) fn log_decision(&mut self, carrier: usize, selected: usize, human: bool) {
        if self.chronicle.log.retention() == 0 {
            self.chronicle.log.push_dropped();
            return;
        }
        let t = self.play.state.players[carrier].team;
        let base = self.base_axes(t);
        // Scored this round for this carrier: the same values (the score and the minute have
        // not moved since).
        let shift = match self.planner.adapted_for(self.play.state.round, carrier) {
            Some(shift) => shift,
            None => self.adaptation(carrier),
        };
        let (club_id, player_id) = self.chronicle.log_ids[carrier].clone();
        let bf = self.frame(t, self.play.state.ball);
        let possession_value = self.planner.possession_value_for(self.play.state.round, carrier);
        let d = Decision {
            engine_version: microfut_core::catalog::ENGINE_VERSION,
            seed: self.play.seed,
            round: self.play.state.round,
            club_id,
            club_personality: base,
            adaptation: shift,
            player_id,
            match_state_summary: StateSummary {
                minute: super::round2(self.play.state.minute(self.rules.clock.half_seconds)),
                score: self.play.state.score,
                goal_diff: self.play.state.score[t] as i32 - self.play.state.score[1 - t] as i32,
                ball: [super::round2(bf.x), super::round2(bf.y)],
                phase: self.phase(bf.x),
            },
            candidate_actions: {
                let mut v = self.chronicle.log.spare_candidates();
                v.extend(self.scratch.candidates.iter().map(|c| CandidateLog {
                    kind: c.kind.name(),
                    target: c.intent(),
                    success_probability: c.probability,
                    progression: c.progression,
                    threat: c.threat,
                    turnover_risk: c.turnover_risk,
                    personality_modifier: c.personality_modifier,
                    match_state_modifier: c.match_state_modifier,
                    bias: c.bias,
                    noise: c.noise,
                    final_score: c.pruned.unwrap_or(c.score),
                    pruned: c.pruned.is_some(),
                }));
                v
            },
            selected_action: selected,
            human,
            possession_value,
        };
        self.chronicle.log.push(d);
    }
}

fn dot(w: W, terms: [f64; 4]) -> f64 {
    w.0.iter().zip(terms).map(|(a, b)| a * b).sum::<f64>()
}

/// An upper bound of a pass's score when its keep chance `k` is known only to lie in
/// [0, `keep_bound`] — admissible by construction: the score is
/// `Σ w·[threat, k, progression, −(1 − k)·danger] + noise + bias`, affine in `k`, so over the
/// interval each of its terms is largest at one of the two ends; the bound takes each term at
/// its larger end (a sum of term maxima is at least the sum at any single `k`), in the exact
/// score's order of operations. Float rounding of the exact keep (a sum of products of
/// probabilities, each rounded at ~1e-16 relative) is covered by a slack of 1e-9 of the terms'
/// size, orders of magnitude above it.
fn score_bound(w: W, threat: f64, progression: f64, danger: f64, keep_bound: f64, noise: f64, bias: f64) -> f64 {
    let at = |k: f64| [threat, k, progression, -((1.0 - k) * danger)];
    let (lo, hi) = (at(0.0), at(keep_bound));
    let ends = |j: usize| (w.0[j] * lo[j], w.0[j] * hi[j]);
    let sa = (0..4).map(|j| ends(j).0.max(ends(j).1)).sum::<f64>();
    let size = 1.0 + (0..4).map(|j| ends(j).0.abs().max(ends(j).1.abs())).sum::<f64>();
    let score = if bias == 0.0 { sa + noise } else { sa + noise + bias };
    score + 1e-9 * size
}
