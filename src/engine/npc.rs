//! Candidates and NPC decisions (document §33, baseline §16).
//!
//! The NPC first chooses what to try, then executes it with exactly the same rules a person's
//! intent goes through. Each candidate is scored from normalised terms — opportunity, the exact
//! probability of success, progress, contextual risk — weighted by the content's weights, scaled
//! by the club's personality and by the match-state adaptation (logged separately, never written
//! over the base personality), plus a small deterministic noise from a hash of
//! (seed, round, player, candidate): estimating never draws a die.

use super::Match;
use super::content::{CrossProbability, MixedPlan, PassPlan};
use super::geometry::{V2, along_segment, angle_between, sqrt_le};
use super::log::{CandidateLog, Decision, Personality, StateSummary};
use super::state::{Line, mix};
use crate::dice::Difficulty;
use serde::{Deserialize, Serialize};
use std::fmt;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Kind {
    Carry,
    Pass,
    Cross,
    Shoot,
    Dribble,
    /// A throw-in to a team-mate (0.6 set pieces).
    Throw,
}

impl Kind {
    pub fn name(self) -> &'static str {
        match self {
            Kind::Carry => "carry",
            Kind::Pass => "pass",
            Kind::Cross => "cross",
            Kind::Shoot => "shoot",
            Kind::Dribble => "dribble",
            Kind::Throw => "throw",
        }
    }
}

/// What an action aims at: a direction (degrees from the line to the opponent's goal), a player
/// (shirt number: a team-mate for a pass, an opponent for a dribble), or nothing (shot, cross).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum Target {
    Direction(i32),
    Player(u32),
    None,
}

/// An intent as a person declares it: `{"kind": "pass", "target": 9}`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Intent {
    pub kind: Kind,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub target: Option<i32>,
    /// A set piece's zone (a delivery's, `far_post`) or a penalty's side (`left`), 0.6.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub zone: Option<String>,
}

impl fmt::Display for Intent {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (self.kind, self.target, &self.zone) {
            (k, None, Some(z)) => write!(f, "{} → {z}", k.name()),
            (Kind::Carry, Some(d), _) => write!(f, "carry {d}°"),
            (k, Some(t), _) => write!(f, "{} #{t}", k.name()),
            (k, None, None) => f.write_str(k.name()),
        }
    }
}

/// One action the carrier could try, with every term of its score.
#[derive(Debug, Clone, Serialize)]
pub struct Candidate {
    pub kind: Kind,
    pub target: Target,
    /// Where the action sends the ball or the carrier (world coordinates).
    pub dest: V2,
    /// The receiver (pass) or the opponent to beat (dribble), by player index.
    #[serde(skip)]
    pub other: Option<usize>,
    /// A set piece's zone or penalty side (0.6), by id …
    #[serde(skip_serializing_if = "Option::is_none")]
    pub zone: Option<std::sync::Arc<str>>,
    /// … and by index in the content's list.
    #[serde(skip)]
    pub zone_index: Option<u8>,
    /// The pipeline of the action's own test when it is not the kind's usual one (a throw-in,
    /// a goal kick, a delivery, a free kick, a penalty).
    #[serde(skip)]
    pub pipe: Option<usize>,
    /// Exact probability that the action's own test succeeds.
    pub probability: f64,
    /// Probability that the team keeps the ball through the action (interceptions, duels,
    /// reception included).
    pub success: f64,
    /// Probability that the action ends in a goal (a shot; a cross headed in), else 0.
    pub goal_chance: f64,
    pub progression: f64,
    /// Metres gained towards the opponents' goal (progression before it is normalised).
    pub gain: f64,
    pub threat: f64,
    pub turnover_risk: f64,
    pub personality_modifier: f64,
    pub match_state_modifier: f64,
    /// The content's constant for the kind (0.6 `bias`; 0 before).
    #[serde(skip_serializing_if = "is_zero")]
    pub bias: f64,
    pub noise: f64,
    pub score: f64,
}

fn is_zero(x: &f64) -> bool {
    *x == 0.0
}

impl Candidate {
    /// An unscored candidate aimed at a point (set pieces use it to shape runs).
    pub(super) fn aimed(kind: Kind, dest: V2) -> Candidate {
        Candidate {
            kind,
            target: Target::None,
            dest,
            other: None,
            zone: None,
            zone_index: None,
            pipe: None,
            probability: 0.0,
            success: 0.0,
            goal_chance: 0.0,
            progression: 0.0,
            gain: 0.0,
            threat: 0.0,
            turnover_risk: 0.0,
            personality_modifier: 0.0,
            match_state_modifier: 0.0,
            bias: 0.0,
            noise: 0.0,
            score: 0.0,
        }
    }

    pub fn intent(&self) -> Intent {
        Intent {
            kind: self.kind,
            target: match self.target {
                Target::Direction(d) => Some(d),
                Target::Player(s) => Some(s as i32),
                Target::None => None,
            },
            zone: self.zone.as_deref().map(str::to_string),
        }
    }

    /// A short explanation for a person choosing among candidates.
    pub fn explain(&self) -> String {
        let what = match (self.kind, self.target) {
            (Kind::Carry, Target::Direction(d)) => format!("carry the ball {d}° off the line to goal"),
            (Kind::Pass, Target::Player(s)) => format!("pass to #{s}"),
            (Kind::Throw, Target::Player(s)) => format!("throw to #{s}"),
            (Kind::Dribble, Target::Player(s)) => format!("take on #{s}"),
            (Kind::Shoot, _) if self.zone.is_some() => format!("shoot {}", self.zone.as_deref().unwrap_or_default()),
            (Kind::Shoot, _) => "shoot".to_string(),
            (Kind::Cross, _) if self.zone.is_some() => {
                format!("deliver to the {}", self.zone.as_deref().unwrap_or_default().replace('_', " "))
            }
            (Kind::Cross, _) => "cross into the box".to_string(),
            (k, _) => k.name().to_string(),
        };
        format!(
            "{what}: test {:.0}%, keeps the ball {:.0}%, gains {:.0} m, threat {:.2}",
            self.probability * 100.0,
            self.success * 100.0,
            self.gain,
            self.threat
        )
    }
}

/// Weights after personality: (opportunity, probability, progress, risk).
#[derive(Debug, Clone, Copy)]
struct W([f64; 4]);

#[derive(Debug, Clone, Copy, Default)]
pub(super) struct Axes {
    verticality: f64,
    security: f64,
    risk_tolerance: f64,
}

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
        let p = self.teams[t].personality;
        Axes { verticality: p.verticality as f64, security: p.security as f64, risk_tolerance: p.risk_tolerance as f64 }
    }

    /// The temporary shift of each axis from the score and the minute (content pipelines).
    fn adaptation(&mut self, carrier: usize) -> Axes {
        let t = self.state.players[carrier].team;
        let s = self.rules.slots;
        let diff = self.state.score[t] as f64 - self.state.score[1 - t] as f64;
        let minute = self.state.minute(self.rules.clock.half_seconds);
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
    fn map(&mut self, carrier: usize, pipe: usize, spot: V2) -> f64 {
        let s = self.rules.slots;
        self.set(carrier, s.spot_x, spot.x.clamp(0.0, self.rules.pitch.length));
        self.set(carrier, s.spot_y, spot.y.clamp(0.0, self.rules.pitch.width));
        self.estimate(carrier, pipe).value
    }

    /// Fills `self.candidates` with every valid action for the carrier, scored.
    pub(super) fn generate_candidates(&mut self, c: usize) {
        self.candidates.clear();
        let t = self.state.players[c].team;
        let pr = self.rules.params;
        let pitch = self.rules.pitch;
        let cpos = self.state.players[c].pos;
        let cf = self.frame(t, cpos);
        let goal_f = pitch.goal();
        let to_goal = (goal_f - cf).unit();

        self.set_pressure(c, cpos);
        self.set_stamina(c);

        if let Some(kind) = self.set_piece_now().filter(|&k| super::set_pieces::SetPieces::covers(k)) {
            self.set_piece_candidates(c, kind);
            self.score_candidates(c);
            return;
        }

        if self.penalty_kick {
            let (p_shot, p_goal) = self.strike_estimate(c, self.rules.pipes.finishing);
            let goal_w = self.frame(t, goal_f);
            self.push_candidate(c, Kind::Shoot, Target::None, goal_w, None, p_shot, p_shot);
            self.candidates.last_mut().expect("pushed").goal_chance = p_goal;
            self.score_candidates(c);
            return;
        }

        // Carry in the content's directions (relative to the line to goal), for the lines that may.
        let may_carry = self.rules.npc.carry.lines.contains(&self.state.players[c].line);
        let directions = if may_carry { self.rules.npc.carry.directions.len() } else { 0 };
        let pace = self.rules.npc.carry.with_ball_pace as usize;
        for k in 0..directions {
            let (deg, turn) = (self.rules.npc.carry.directions[k], self.rules.npc.carry.turns[k]);
            let dir_f = to_goal.turned(turn);
            // A direction turns with the pitch: the half-turn negates it.
            let dir_w = if self.state.attacks_right[t] { dir_f } else { dir_f * -1.0 };
            let range = self.movement_range(c, pace, true, dir_w);
            let dest = cpos + dir_w * range;
            if range < pr.carry_min_range || !pitch.in_bounds(dest) || self.path_blocked(c, cpos, dest) {
                continue;
            }
            let keep = self.keep_probability(c, dest, false, None);
            self.push_candidate(c, Kind::Carry, Target::Direction(deg.round() as i32), dest, None, 1.0, keep);
        }

        // Pass to every team-mate in range.
        let range = self.get(c, self.rules.slots.range);
        for r in 0..self.state.players.len() {
            if r == c || self.state.players[r].team != t {
                continue;
            }
            let rpos = self.state.players[r].pos;
            let d = cpos.dist(rpos);
            if d < pr.pass_min_distance || d > range {
                continue;
            }
            let (p_pass, keep) = self.pass_estimate(c, r, rpos, self.rules.pipes.pass);
            let shirt = self.state.players[r].shirt;
            self.push_candidate(c, Kind::Pass, Target::Player(shirt), rpos, Some(r), p_pass, keep);
        }

        // Cross from a wide attacking position.
        if self.crossing_position(t, cpos) {
            let landing = self.cross_landing(t, cpos);
            let d = cpos.dist(landing);
            if d <= self.get(c, self.rules.slots.cross_range) {
                let (p_cross, keep, goal) = self.cross_estimate(c, landing, self.rules.pipes.cross);
                self.push_candidate(c, Kind::Cross, Target::None, landing, None, p_cross, keep);
                self.candidates.last_mut().expect("pushed").goal_chance = goal;
            }
        }

        // Shoot when within the content's shooting distance and the ball's reach.
        let goal_w = self.frame(t, goal_f);
        let dist_goal = cpos.dist(goal_w);
        if dist_goal <= pr.shot_max_distance && dist_goal <= range {
            let (p_shot, p_goal) = self.strike_estimate(c, self.rules.pipes.finishing);
            self.push_candidate(c, Kind::Shoot, Target::None, goal_w, None, p_shot, p_shot);
            self.candidates.last_mut().expect("pushed").goal_chance = p_goal;
        }

        // Take on the opponent straight ahead.
        let ahead = self
            .opponents(t)
            .filter(|&o| self.state.players[o].line != Line::Goalkeeper)
            .map(|o| (o, self.frame(t, self.state.players[o].pos)))
            .filter(|(_, of)| of.dist(cf) <= pr.dribble_trigger && angle_between(to_goal, *of - cf) <= pr.dribble_cone)
            .min_by(|a, b| a.1.dist(cf).total_cmp(&b.1.dist(cf)).then(a.0.cmp(&b.0)));
        if let Some((o, of)) = ahead {
            let beyond_f = of + (of - cf).unit() * pr.dribble_beyond;
            let dest = self.frame(t, pitch.clamp(beyond_f));
            if pitch.in_bounds(beyond_f) {
                let keep = self.keep_probability(c, dest, true, Some(o));
                let p_dribble = self.estimate(c, self.rules.pipes.dribble).chance();
                let shirt = self.state.players[o].shirt;
                self.push_candidate(c, Kind::Dribble, Target::Player(shirt), dest, Some(o), p_dribble, keep);
            }
        }

        self.score_candidates(c);
    }

    /// A carry cannot go through an opponent standing goal-side on its path: getting past him is
    /// a take-on (the dribble candidate), not a carry.
    fn path_blocked(&self, c: usize, from: V2, to: V2) -> bool {
        let t = self.state.players[c].team;
        let reach = self.rules.params.tackle_reach;
        let round = self.state.round;
        let from_f = self.frame(t, from);
        self.opponents(t).any(|o| {
            let pl = &self.state.players[o];
            let beaten = matches!(pl.beaten_by, Some((b, r)) if b == c && r + 1 >= round);
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
        self.candidates.push(Candidate { target, other, probability, success, ..Candidate::aimed(kind, dest) });
    }

    /// Terms, weights and noise for every candidate.
    fn score_candidates(&mut self, c: usize) {
        let t = self.state.players[c].team;
        let pitch = self.rules.pitch;
        let cf = self.frame(t, self.state.players[c].pos);
        let base = self.base_axes(t);
        let shift = self.adaptation(c);
        self.adapted = Some((self.state.round, c, shift));
        let adapted = Axes {
            verticality: base.verticality + shift.verticality,
            security: base.security + shift.security,
            risk_tolerance: base.risk_tolerance + shift.risk_tolerance,
        };
        let (w0, wp, wa) = (self.weights(Axes::default()), self.weights(base), self.weights(adapted));
        let (opp, danger) = (self.rules.pipes.opportunity, self.rules.pipes.danger);
        let goal_value = self.rules.npc.shot.goal_value;
        let noise_amp = self.rules.npc.noise;
        let mut danger_here: Option<f64> = None;
        for i in 0..self.candidates.len() {
            let cand = self.candidates[i].clone();
            let df = self.frame(t, cand.dest);
            let (threat, progression, risk) = match cand.kind {
                Kind::Shoot => {
                    // Lost shots leave the ball at the far end: the danger is where play restarts.
                    let restart = V2::new(pitch.length - self.rules.params.goal_kick_spot_x, pitch.goal_y);
                    let danger_there = self.map(c, danger, restart);
                    (goal_value * cand.goal_chance, 0.0, (1.0 - cand.goal_chance) * danger_there)
                }
                Kind::Cross => {
                    // A cross is worth the header it makes, or at least the region it reaches.
                    let threat = self.map(c, opp, df).max(goal_value * cand.goal_chance);
                    let d = self.map(c, danger, df);
                    (threat, (df.x - cf.x) / pitch.length, (1.0 - cand.success) * d)
                }
                _ => {
                    let threat = self.map(c, opp, df);
                    // A pass is lost where it goes; a carry or a take-on where the carrier stands
                    // (the same spot for all of them: mapped once).
                    let d = if matches!(cand.kind, Kind::Pass | Kind::Throw) {
                        self.map(c, danger, df)
                    } else {
                        *danger_here.get_or_insert_with(|| self.map(c, danger, cf))
                    };
                    (threat, (df.x - cf.x) / pitch.length, (1.0 - cand.success) * d)
                }
            };
            // The probability term: the exact chance of the shot's own test (document §33); for
            // the other actions, the chance the ball is kept through them. A shot's goal chance
            // is its threat.
            let cross_test = matches!(&self.rules.npc.cross, Some(x) if x.probability == CrossProbability::Test);
            let probability = match cand.kind {
                Kind::Shoot => cand.probability,
                Kind::Cross if cross_test => cand.probability,
                _ => cand.success,
            };
            let terms = [threat, probability, progression, -risk];
            let dot = |w: W| w.0.iter().zip(terms).map(|(a, b)| a * b).sum::<f64>();
            let (s0, sp, sa) = (dot(w0), dot(wp), dot(wa));
            let h = mix(&[self.seed, self.state.round as u64, c as u64, i as u64]);
            let noise = noise_amp * (2.0 * ((h >> 11) as f64 / (1u64 << 53) as f64) - 1.0);
            let cand = &mut self.candidates[i];
            cand.threat = threat;
            cand.progression = progression;
            cand.gain = progression * pitch.length;
            cand.turnover_risk = risk;
            cand.personality_modifier = sp - s0;
            cand.match_state_modifier = sa - sp;
            cand.noise = noise;
            let bias = self.rules.npc.bias.of(cand.kind);
            cand.bias = bias;
            // 0.5 revisions have no bias: the score is as it was, bit for bit.
            cand.score = if bias == 0.0 { sa + noise } else { sa + noise + bias };
        }
    }

    /// The contributions behind a candidate's own test (pass, cross, shot, dribble; a carry has
    /// none), as the content's pipeline explains them. Read-only: no die is drawn.
    pub fn explain_candidate(&mut self, i: usize) -> Option<crate::pipeline::Explanation> {
        let carrier = self.state.holder()?;
        let cand = self.candidates.get(i)?.clone();
        let s = self.rules.slots;
        let pipes = self.rules.pipes;
        let pos = self.state.players[carrier].pos;
        let pipe = match cand.kind {
            Kind::Carry => return None,
            Kind::Pass | Kind::Throw => cand.pipe.unwrap_or(pipes.pass),
            Kind::Cross => cand.pipe.unwrap_or(pipes.cross),
            Kind::Shoot => cand.pipe.unwrap_or(pipes.finishing),
            Kind::Dribble => pipes.dribble,
        };
        // Explanations show inputs: exact angles, not their bins' stand-ins.
        self.exact_angles = true;
        self.set_pressure(carrier, pos);
        self.set_stamina(carrier);
        match cand.kind {
            Kind::Pass | Kind::Cross | Kind::Throw => {
                self.set(carrier, s.distance, pos.dist(cand.dest));
                self.set_orientation(carrier, cand.dest);
            }
            Kind::Shoot => {
                self.prepare_strike(carrier, pipe);
                if let (Some(i), Some(sp)) = (cand.zone_index, self.rules.set_pieces.as_ref())
                    && self.set_piece_now() == Some(super::state::RestartKind::Penalty)
                {
                    let (slot, m) = (sp.aim_slot, sp.penalty.aims[i as usize].modifier);
                    self.set(carrier, slot, m);
                }
            }
            Kind::Carry | Kind::Dribble => {}
        }
        let pl = &self.rules.rs.pipelines[pipe];
        let mut trace = Vec::new();
        let r = pl.resolve_traced(&self.state.players[carrier].inputs, &mut trace);
        self.check_finite(pipe, &r);
        self.exact_angles = false;
        Some(pl.explain(&trace, &r))
    }

    /// (chance of the strike's own test, chance of a goal) for player `p` shooting from where he
    /// stands — against the keeper and any blocker where they stand. A projection: no die.
    pub fn strike_chances(&mut self, p: usize, header: bool) -> (f64, f64) {
        let pipe = if header { self.rules.pipes.header } else { self.rules.pipes.finishing };
        self.strike_estimate(p, pipe)
    }

    /// The NPC's choice: the best score (ties to the earlier candidate).
    pub(super) fn choose(&self) -> usize {
        let mut best = 0;
        for (i, c) in self.candidates.iter().enumerate() {
            if c.score > self.candidates[best].score {
                best = i;
            }
        }
        best
    }

    /// The phase a decision is taken in: the restart the carrier takes, or the content's phase
    /// of open play for the ball's depth `x` in his attacking frame.
    fn phase(&self, x: f64) -> std::borrow::Cow<'static, str> {
        if let Some(kind) = self.taking {
            return kind.name().into();
        }
        let phases = &self.rules.npc.phases;
        match phases.iter().find(|p| x <= p.until_x).or(phases.last()) {
            Some(p) => p.id.clone().into(),
            None => "open_play".into(),
        }
    }

    pub(super) fn log_decision(&mut self, carrier: usize, selected: usize, human: bool) {
        if self.log.retention() == 0 {
            self.log.push_dropped();
            return;
        }
        let t = self.state.players[carrier].team;
        let base = self.base_axes(t);
        // Scored this round for this carrier: the same values (the score and the minute have
        // not moved since).
        let shift = match self.adapted {
            Some((round, p, shift)) if round == self.state.round && p == carrier => shift,
            _ => self.adaptation(carrier),
        };
        let (club_id, player_id) = self.log_ids[carrier].clone();
        let bf = self.frame(t, self.state.ball);
        let d = Decision {
            engine_version: crate::catalog::ENGINE_VERSION,
            seed: self.seed,
            round: self.state.round,
            club_id,
            club_personality: Personality {
                verticality: base.verticality,
                security: base.security,
                risk_tolerance: base.risk_tolerance,
            },
            adaptation: Personality {
                verticality: shift.verticality,
                security: shift.security,
                risk_tolerance: shift.risk_tolerance,
            },
            player_id,
            match_state_summary: StateSummary {
                minute: (self.state.minute(self.rules.clock.half_seconds) * 100.0).round() / 100.0,
                score: self.state.score,
                goal_diff: self.state.score[t] as i32 - self.state.score[1 - t] as i32,
                ball: [(bf.x * 100.0).round() / 100.0, (bf.y * 100.0).round() / 100.0],
                phase: self.phase(bf.x),
            },
            candidate_actions: self
                .candidates
                .iter()
                .map(|c| CandidateLog {
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
                    final_score: c.score,
                })
                .collect(),
            selected_action: selected,
            human,
        };
        self.log.push(d);
    }

    // ---- exact estimates (no dice) ----

    /// Probability that the carrier keeps the ball at `dest`: 1 unless an opponent can engage him
    /// there, else the exact chance of the duel ending with the carrier keeping it.
    fn keep_probability(&mut self, c: usize, dest: V2, dribbling: bool, only: Option<usize>) -> f64 {
        let t = self.state.players[c].team;
        let reach = self.rules.params.tackle_reach;
        let engager = match only {
            Some(o) => Some(o),
            None => {
                // The nearest who can get there (the first of equals), each distance taken once.
                let mut best: Option<(f64, usize)> = None;
                for o in self.opponents(t) {
                    let pl = &self.state.players[o];
                    let q = pl.pos.dist2(dest);
                    if !sqrt_le(q, reach + pl.inputs.get(self.rules.slots.r_sprint)) {
                        continue;
                    }
                    let d = q.sqrt();
                    if best.is_none_or(|(bd, _)| d < bd) && self.may_challenge(o, dest) {
                        best = Some((d, o));
                    }
                }
                best.map(|(_, o)| o)
            }
        };
        let Some(o) = engager else { return 1.0 };
        // Whoever can reach the carrier may choose to tackle: the carrier cannot count on being
        // only contained (0.5) — or, when the content says a carrier reads the defender (0.6),
        // only where that defender would choose to tackle.
        let moving = dribbling || dest != self.state.players[c].pos;
        let (cv, dv) = self.duel_values(c, o, moving);
        let keep = self.keep_chance(cv, dv);
        let contain_risk = self.rules.npc.defending.contain_risk;
        match contain_risk {
            Some(share) if only.is_none() && !self.would_tackle(c, o, dest, moving) => 1.0 - share * (1.0 - keep),
            _ => keep,
        }
    }

    /// Where along the ball's path from `from` to `to` (0..1) player `o` can reach it — within
    /// his interception radius of the line (document §30), strictly between its two ends — or
    /// `None`.
    pub(super) fn reaches_line(&self, o: usize, from: V2, to: V2) -> Option<f64> {
        let pos = self.state.players[o].pos;
        let end = self.rules.params.intercept_line_end;
        let (lo, hi) = (end, 1.0 - end);
        // `along_segment`'s quotient, divided only when it may fall inside (lo, hi): most
        // opponents stand behind the passer or beyond the receiver, clearly outside before
        // dividing (a 1e-9 margin keeps the decision the division's; a point-like line has
        // l2 = 0 and is ruled out here too).
        let ab = to - from;
        let (num, l2) = ((pos - from).dot(ab), ab.dot(ab));
        if num <= l2 * lo * (1.0 - 1e-9) || num >= l2 * hi * (1.0 + 1e-9) {
            return None;
        }
        let along = (num / l2).clamp(0.0, 1.0);
        if !(along > lo && along < hi) {
            return None;
        }
        let q = pos.dist2(from + (to - from) * along);
        sqrt_le(q, self.get(o, self.rules.slots.interception_radius)).then_some(along)
    }

    /// Who may challenge a carrier at `at`: outfield players anywhere, a keeper inside his box.
    pub(super) fn may_challenge(&self, o: usize, at: V2) -> bool {
        let pl = &self.state.players[o];
        pl.line != Line::Goalkeeper || self.rules.pitch.in_own_box(self.frame(pl.team, at))
    }

    /// The test a defender challenges with: a keeper smothers with his hands (his claim test),
    /// an outfield player tackles.
    pub(super) fn tackle_pipe(&self, o: usize) -> usize {
        if self.state.players[o].line == Line::Goalkeeper { self.rules.pipes.claim } else { self.rules.pipes.tackle }
    }

    /// A defender's choice (content `defending`): tackle when his chance of winning the ball is
    /// good enough, or when the carrier at `at` threatens enough that he cannot be let through.
    pub(super) fn would_tackle(&mut self, c: usize, o: usize, at: V2, moving: bool) -> bool {
        let d = self.rules.npc.defending;
        let (cv, dv) = self.duel_values(c, o, moving);
        let win = 1.0 - self.keep_chance(cv, dv);
        // 0.6: defenders differ in how much they dare — the threshold moves within ± half the
        // content's spread, by a hash of (seed, round, defender, carrier): deterministic, no die.
        let threshold = match d.tackle_spread {
            Some(spread) => {
                let h = mix(&[self.seed, self.state.round as u64, o as u64, c as u64, 0x7ac1e]);
                d.tackle_min_chance + spread * ((h >> 11) as f64 / (1u64 << 53) as f64 - 0.5)
            }
            None => d.tackle_min_chance,
        };
        if win >= threshold {
            return true;
        }
        let t = self.state.players[c].team;
        let spot = self.frame(t, at);
        self.map(c, self.rules.pipes.opportunity, spot) >= d.tackle_threat
    }

    /// Values of the carrier's dribble (or shielding) test and the defender's tackle.
    /// Difficulties of the carrier's dribble (or shielding) test and the defender's tackle,
    /// cached for the round: they depend on who and how, not on where.
    pub(super) fn duel_values(&mut self, c: usize, o: usize, moving: bool) -> (Difficulty, Difficulty) {
        if let Some(&(_, _, _, v)) = self.duel_cache.iter().find(|e| e.0 == c && e.1 == o && e.2 == moving) {
            return v;
        }
        self.set_stamina(c);
        self.set_stamina(o);
        let pipes = self.rules.pipes;
        let cp = if moving { pipes.dribble } else { pipes.protection };
        let v = (self.difficulty(c, cp), self.difficulty(o, self.tackle_pipe(o)));
        self.duel_cache.push((c, o, moving, v));
        v
    }

    /// Exact chance the carrier keeps the ball in a duel, from both difficulties.
    fn keep_chance(&self, carrier_difficulty: Difficulty, defender_difficulty: Difficulty) -> f64 {
        self.rules.duels.keep_of(carrier_difficulty, defender_difficulty)
    }

    /// (pass test probability, exact probability the team keeps the ball through the pass):
    /// summed over the pass's margins — where it arrives, whether each interceptor on the line
    /// beats it (with that margin's Q_INT), whether the receiver controls it (with its Q_REC).
    pub(super) fn pass_estimate(&mut self, c: usize, r: usize, to: V2, pipe: usize) -> (f64, f64) {
        let mut sc = std::mem::take(&mut self.pass_scratch);
        sc.clear();
        let out = self.pass_estimate_with(&mut sc, c, r, to, pipe);
        self.pass_scratch = sc;
        out
    }

    fn pass_estimate_with(&mut self, sc: &mut PassScratch, c: usize, r: usize, to: V2, pipe: usize) -> (f64, f64) {
        let s = self.rules.slots;
        let pipes = self.rules.pipes;
        let pr = self.rules.params;
        let from = self.state.players[c].pos;
        self.set(c, s.distance, from.dist(to));
        self.set_orientation(c, to);
        let res = self.estimate(c, pipe);
        let Some(difficulty) = res.diff().filter(|_| res.possible) else { return (0.0, 0.0) };
        let p_pass = res.chance();
        let t = self.state.players[c].team;
        for o in self.opponents(t) {
            if let Some(along) = self.reaches_line(o, from, to) {
                sc.on_line.push((o, from + (to - from) * along));
            }
        }
        for &(o, meet) in &sc.on_line {
            self.set_stamina(o);
            self.set_orientation(o, meet);
        }
        self.set_pressure(r, to);
        self.set_orientation(r, from);
        self.set_stamina(r);
        let compare = pr.interception_rule != 0.0;
        // Borrowed field by field: the rules are read while the players' inputs are written.
        let rules = &*self.rules;
        let odds = &rules.rs.odds;
        let (built, built_mixed);
        // A whole difficulty has one plan; a fractional one (0.6) both neighbours' margins, in
        // proportion, over one list of pairs.
        type Plans<'a> = (&'a [f64], &'a [f64], [(&'a [(i32, f64, usize)], f64); 2]);
        let (q_ints, q_recs, parts): Plans = if difficulty.f == 0.0 {
            let plan = match rules.pass_plans.get(difficulty.d) {
                Some(plan) => plan,
                None => {
                    built = PassPlan::build(difficulty.d, odds, &rules.margins, &pr);
                    &built
                }
            };
            (&plan.q_ints, &plan.q_recs, [(&plan.reachable, 1.0), (&[], 0.0)])
        } else {
            let plan = match rules.pass_plans.mixed(difficulty.d) {
                Some(plan) => plan,
                None => {
                    built_mixed = MixedPlan::build(difficulty.d, odds, &rules.margins, &pr);
                    &built_mixed
                }
            };
            (&plan.q_ints, &plan.q_recs, [(&plan.lo, 1.0 - difficulty.f), (&plan.hi, difficulty.f)])
        };
        let pairs = q_ints.len();
        if pairs == 0 {
            return (p_pass, 0.0);
        }
        // diffs[entry * n + i]: interceptor i's difficulty at that pair's Q_INT.
        let n = sc.on_line.len();
        sc.diffs.resize(pairs * n, Difficulty::whole(0));
        let interception = &rules.rs.pipelines[pipes.interception];
        let mut nonfinite = None;
        for (i, &(o, _)) in sc.on_line.iter().enumerate() {
            let diffs = &mut sc.diffs;
            interception.resolve_each(&mut self.state.players[o].inputs, s.q_int, q_ints, |k, res| {
                if res.nonfinite.is_some() {
                    nonfinite.get_or_insert((pipes.interception, res));
                }
                diffs[k * n + i] = res.diff().expect("the engine's action pipelines are checked at load");
            });
        }
        sc.control.resize(pairs, 0.0);
        let control = &mut sc.control;
        rules.rs.pipelines[pipes.control].resolve_each(&mut self.state.players[r].inputs, s.q_rec, q_recs, |k, res| {
            if res.nonfinite.is_some() {
                nonfinite.get_or_insert((pipes.control, res));
            }
            let d = res.diff().expect("the engine's action pipelines are checked at load");
            control[k] = rules.margins.control_keep_of(d);
        });
        if let Some((pipe, res)) = nonfinite {
            self.check_finite(pipe, &res);
        }
        let mut keep = 0.0;
        for (list, w) in parts {
            for &(margin, p, entry) in list {
                let mut through = 1.0;
                for &od in &sc.diffs[entry * n..(entry + 1) * n] {
                    // The interceptor fails when his margin does not beat the pass (or his test fails).
                    let needs = if compare { od.plus(margin + 1) } else { od };
                    through *= 1.0 - odds.chance_of(needs);
                }
                keep += w * p * through * sc.control[entry];
            }
        }
        (p_pass, keep)
    }

    /// (cross test probability, probability the attacking side wins the ball in the box,
    /// probability the cross is headed in by its best header).
    pub(super) fn cross_estimate(&mut self, c: usize, landing: V2, pipe: usize) -> (f64, f64, f64) {
        let s = self.rules.slots;
        let from = self.state.players[c].pos;
        self.set(c, s.distance, from.dist(landing));
        self.set_orientation(c, landing);
        let p_cross = self.estimate(c, pipe).chance();
        // The best header of each side within reach of the landing point after this round's runs.
        let t = self.state.players[c].team;
        let radius = self.rules.params.aerial_radius;
        // The easiest header (lowest difficulty) of each side.
        let mut best: [Option<Difficulty>; 2] = [None, None];
        let mut header: Option<(Difficulty, usize)> = None;
        let rules = self.rules.clone();
        let content = rules.npc.cross.as_ref();
        for p in 0..self.state.players.len() {
            let pl = &self.state.players[p];
            let keeper = pl.line == Line::Goalkeeper;
            if p == c || (keeper && content.is_none()) {
                continue;
            }
            // A keeper claims near the landing point inside his own box (as in the duel itself;
            // 0.5's estimate left keepers out).
            let pipe = if keeper {
                if pl.team == t
                    || pl.pos.dist(landing) > self.rules.params.keeper_claim_radius
                    || !self.rules.pitch.in_own_box(self.frame(pl.team, landing))
                {
                    continue;
                }
                self.rules.pipes.claim
            } else {
                // Team-mates of the runners' lines run onto the cross this round (0.5: attackers
                // and midfielders); defenders track them: both reach the landing zone at a sprint.
                let runner = pl.team == t
                    && match content {
                        Some(x) => x.runners.contains(&pl.line),
                        None => matches!(pl.line, Line::Attack | Line::Midfield),
                    };
                let defender = pl.team != t;
                let reach = match (runner || defender, content) {
                    (false, _) => 0.0,
                    // 0.6: how far he really gets this round, turning towards the landing point.
                    (true, Some(_)) => {
                        let towards = landing - pl.pos;
                        self.movement_range(p, 2, false, towards)
                    }
                    (true, None) => pl.inputs.get(s.r_sprint),
                };
                if self.state.players[p].pos.dist(landing) > radius + reach {
                    continue;
                }
                self.rules.pipes.aerial_duel
            };
            self.set_stamina(p);
            let Some(d) = self.estimate(p, pipe).diff() else { continue };
            let side = usize::from(self.state.players[p].team != t);
            best[side] = Some(best[side].map_or(d, |b: Difficulty| if d.real() < b.real() { d } else { b }));
            if side == 0 && header.is_none_or(|(hd, _): (Difficulty, usize)| d.real() < hd.real()) {
                header = Some((d, p));
            }
        }
        let win = match best {
            [None, _] => 0.0,
            [Some(_), None] => 1.0,
            [Some(a), Some(b)] => self.rules.duels.win_of(a, b),
        };
        let keep = p_cross * win;

        // Where the best header of the attacking side would head from, if he wins it.
        let goal = match header {
            Some((_, h)) if keep > 0.0 => {
                let at = self.state.players[h].pos;
                self.state.players[h].pos = landing;
                let (_, p_goal) = self.strike_estimate(h, self.rules.pipes.header);
                self.state.players[h].pos = at;
                keep * p_goal
            }
            _ => 0.0,
        };
        (p_cross, keep, goal)
    }

    /// (strike test probability, probability of a goal), for a shot (`finishing`) or a header
    /// at goal (`header`) from where the striker stands: summed over the strike's margins —
    /// whether it is on target, whether each defender on its line blocks it (with that margin's
    /// Q_INT), whether the keeper saves it (with that margin's placement).
    pub(super) fn strike_estimate(&mut self, c: usize, pipe: usize) -> (f64, f64) {
        let (res, target) = self.prepare_strike(c, pipe);
        let p_success = res.chance();
        let Some(difficulty) = res.diff().filter(|_| res.possible) else { return (0.0, 0.0) };
        let t = self.state.players[c].team;
        let s = self.rules.slots;
        let from = self.state.players[c].pos;
        let keeper = self.keeper(1 - t);
        self.prepare_keeper(keeper, c);
        let mut sc = std::mem::take(&mut self.strike_scratch);
        sc.clear();
        if !self.penalty_kick {
            for o in self.opponents(t) {
                if self.state.players[o].line == Line::Goalkeeper {
                    continue;
                }
                if let Some(along) = self.reaches_line(o, from, target) {
                    sc.blockers.push((o, from + (target - from) * along));
                }
            }
        }
        for &(o, meet) in &sc.blockers {
            self.set_stamina(o);
            self.set_orientation(o, meet);
        }
        let compare = self.rules.params.block_rule != 0.0;
        let spec = self.rules.rs.odds.spec();
        let mut goal = 0.0;
        sc.keeper.resize(self.rules.gk_placement.bins.len(), None);
        // Blockers' difficulties per distinct Q_INT: q_ints[entry], diffs[entry * n + i].
        let n = sc.blockers.len();
        // A fractional difficulty (0.6) is rolled against each whole neighbour in proportion.
        let whole = [(difficulty.d, 1.0 - difficulty.f), (difficulty.d + 1, difficulty.f)];
        // The keeper's chance depends on the margin only through its placement bin, unless he
        // must beat the margin itself.
        let by_bin = self.rules.params.save_rule == 0.0;
        for (d, weight) in whole.into_iter().filter(|&(_, w)| w > 0.0) {
            for total in spec.min_total()..=spec.max_total() {
                let p = self.rules.rs.odds.exactly(total);
                let margin = total as i32 - d;
                if self.rules.margins.shot(margin) == super::content::ShotOutcome::OffTarget {
                    continue;
                }
                let (_, _, q_int) = self.rules.margins.pass(margin);
                let entry = match sc.q_ints.iter().position(|&q| q == q_int) {
                    Some(i) => i,
                    None => {
                        for &(o, _) in &sc.blockers {
                            self.set(o, s.q_int, q_int);
                            sc.diffs.push(self.difficulty(o, self.rules.pipes.interception));
                        }
                        sc.q_ints.push(q_int);
                        sc.q_ints.len() - 1
                    }
                };
                let odds = &self.rules.rs.odds;
                let through: f64 = sc.diffs[entry * n..(entry + 1) * n]
                    .iter()
                    .map(|&bd| 1.0 - odds.chance_of(if compare { bd.plus(margin + 1) } else { bd }))
                    .product();
                let bin = self.rules.gk_placement.bin_index(margin as f64);
                let beaten = match sc.keeper[bin].filter(|_| by_bin) {
                    Some(b) => b,
                    None => {
                        self.set_scaled(keeper, s.shot_margin, margin as f64);
                        let save = self.estimate(keeper, self.rules.pipes.save);
                        // A keeper who cannot reach the shot does not save it.
                        let b = match save.diff().filter(|_| save.possible) {
                            Some(d) => self.beat_keeper(margin, d),
                            None => 1.0,
                        };
                        sc.keeper[bin] = Some(b);
                        b
                    }
                };
                if weight == 1.0 {
                    goal += p.as_f64() * through * beaten;
                } else {
                    goal += weight * p.as_f64() * through * beaten;
                }
            }
        }
        self.strike_scratch = sc;
        (p_success, goal)
    }

    /// Probability the keeper fails to save a shot with this margin, under the content's rule.
    pub(super) fn beat_keeper(&self, shot_margin: i32, keeper_difficulty: Difficulty) -> f64 {
        let odds = &self.rules.rs.odds;
        if self.rules.params.save_rule == 0.0 {
            1.0 - odds.chance_of(keeper_difficulty)
        } else {
            // The keeper must beat the shot's margin.
            1.0 - odds.chance_of(keeper_difficulty.plus(shot_margin + 1))
        }
    }
}

/// Reused buffers of [`Match::pass_estimate`]: interceptors on the line, reachable margins,
/// the distinct (Q_INT, Q_REC) pairs, interceptor difficulties and receiver control per pair.
#[derive(Debug, Default)]
pub(super) struct PassScratch {
    on_line: Vec<(usize, V2)>,
    diffs: Vec<Difficulty>,
    control: Vec<f64>,
}

impl PassScratch {
    fn clear(&mut self) {
        self.on_line.clear();
        self.diffs.clear();
        self.control.clear();
    }
}

/// Reused buffers of [`Match::strike_estimate`]: blockers on the line, their difficulties per
/// distinct Q_INT, the keeper's chance of being beaten per placement bin.
#[derive(Debug, Default)]
pub(super) struct StrikeScratch {
    blockers: Vec<(usize, V2)>,
    q_ints: Vec<f64>,
    diffs: Vec<Difficulty>,
    keeper: Vec<Option<f64>>,
}

impl StrikeScratch {
    fn clear(&mut self) {
        self.blockers.clear();
        self.q_ints.clear();
        self.diffs.clear();
        self.keeper.clear();
    }
}
