//! Resolving actions (document Part VI, steps 5–9 of the round): the action's test, the
//! opposition's tests compared by margins, and the physical effect — trajectory, possession,
//! goal, rebound, loose ball, restart.

use super::Match;
use super::candidate::{Candidate, Kind};
use super::content::{ControlOutcome, DuelOutcome, FoulCall, PassOutcome, SaveOutcome, ShotOutcome};
use super::events::EventKind;
use super::geometry::V2;
use super::projection::RollRole;
use super::round2;
use super::set_pieces::Taker;
use super::state::{Ball, Line, Restart, RestartKind};
use microfut_core::pipeline::Resolution;

/// What a shot's event says whatever became of it.
pub(super) struct ShotFacts {
    pub(super) by: super::events::Who,
    pub(super) distance: f64,
    pub(super) margin: i32,
    pub(super) probability: f64,
    pub(super) header: bool,
    pub(super) target_y: f64,
    pub(super) set_piece: Option<String>,
    pub(super) aim: Option<String>,
    pub(super) wall: Option<u32>,
}

impl ShotFacts {
    pub(super) fn event(&self, outcome: &str, keeper: Option<super::events::KeeperTest>) -> EventKind {
        EventKind::Shot {
            by: self.by,
            distance: self.distance,
            margin: self.margin,
            probability: self.probability,
            header: self.header,
            target_y: self.target_y,
            outcome: outcome.into(),
            keeper,
            set_piece: self.set_piece.clone(),
            aim: self.aim.clone(),
            wall: self.wall,
        }
    }
}

/// What a ball on its way was struck as, for the defenders on its line.
#[derive(Debug, Clone, Copy)]
enum Struck {
    Pass,
    Shot,
}

impl Match {
    pub(super) fn resolve(&mut self, c: usize, cand: &Candidate) {
        let t = self.play.state.players[c].team;
        self.play.state.possession = t;
        self.play.state.last_touch = t;
        let pipes = self.rules.pipes;
        match cand.kind {
            Kind::Carry => self.after_carry(c, None),
            Kind::Dribble => self.after_carry(c, cand.other),
            Kind::Pass | Kind::Throw => {
                self.pass(c, cand.other.expect("a pass has a receiver"), cand.pipe.unwrap_or(pipes.pass))
            }
            Kind::Cross => self.cross(c, cand.dest, cand.pipe.unwrap_or(pipes.cross), cand.zone_index),
            Kind::Shoot if self.set_piece_now() == Some(RestartKind::Penalty) => {
                self.penalty(c, cand.zone_index.unwrap_or(0) as usize)
            }
            Kind::Shoot => self.shot(c, false, cand.pipe.unwrap_or(pipes.finishing)),
        }
    }

    /// The restart being taken this round, when the revision has set pieces (0.6).
    pub(super) fn set_piece_now(&self) -> Option<RestartKind> {
        self.play.taking.filter(|_| self.rules.set_pieces.is_some())
    }

    /// The restart's name for events, when a set piece is being taken.
    fn set_piece_name(&self) -> Option<String> {
        self.set_piece_now().map(|k| k.name().to_string())
    }

    pub(super) fn hold(&mut self, p: usize) {
        let t = self.play.state.players[p].team;
        self.play.state.ball_state = Ball::Held(p);
        self.play.state.ball = self.play.state.players[p].pos;
        self.play.state.possession = t;
        self.play.state.last_touch = t;
    }

    fn loose_at(&mut self, at: V2, touched_by: usize) {
        self.play.state.ball_state = Ball::Loose;
        self.play.state.ball = at;
        self.play.state.last_touch = touched_by;
        self.event(EventKind::LooseBall { x: round2(at.x), y: round2(at.y) });
    }

    pub(super) fn dead(&mut self, kind: RestartKind, team: usize, spot: V2, taker: Option<usize>) {
        match kind {
            RestartKind::Corner => self.play.stats[team].corners += 1,
            RestartKind::FreeKick | RestartKind::IndirectFreeKick => self.play.stats[team].free_kicks += 1,
            RestartKind::Penalty => self.play.stats[team].penalties += 1,
            _ => {}
        }
        self.play.state.ball_state = Ball::Dead(Restart { kind, team, spot, taker });
        self.play.state.ball = spot;
    }

    // ---- carrying and duels (document §28–§29, baseline §10) ----

    /// After a carry (or a dribble at `only`), an opponent within reach challenges the carrier.
    fn after_carry(&mut self, c: usize, only: Option<usize>) {
        let cpos = self.play.state.players[c].pos;
        let defender = self.challenger(c, only);
        self.play.state.ball = cpos;
        if let Some(o) = defender {
            let moving = self.carrier_moving(c);
            // Taken on, a defender must tackle; otherwise he tackles only when it is worth it
            // and contains the carrier when it is not.
            if only.is_some() || self.would_tackle(c, o, cpos, moving) {
                self.duel(c, o, moving, only.is_some());
            }
        }
    }

    /// Who challenges carrier `c` where his run ended: the man he takes on (`only`) if still
    /// within the take-on's reach, or else the nearest opponent within reach who may challenge
    /// him there and is not still beaten by him. No die: known once the players have moved.
    pub(super) fn challenger(&self, c: usize, only: Option<usize>) -> Option<usize> {
        let t = self.play.state.players[c].team;
        let cpos = self.play.state.players[c].pos;
        let reach = self.rules.params.tackle_reach;
        match only {
            Some(o) if self.play.state.players[o].pos.dist(cpos) <= self.rules.params.take_on_reach_factor * reach => {
                Some(o)
            }
            Some(_) => None,
            None => self
                .opponents(t)
                .filter(|&o| self.may_challenge(o, cpos))
                .filter(|&o| self.play.state.players[o].pos.dist(cpos) <= reach)
                .filter(|&o| !self.still_beaten(o, c))
                .min_by(|&a, &b| {
                    let da = self.play.state.players[a].pos.dist(cpos);
                    let db = self.play.state.players[b].pos.dist(cpos);
                    da.total_cmp(&db).then(a.cmp(&b))
                }),
        }
    }

    /// Whether carrier `c` moved this round (a duel on the move is a dribble, else a shield).
    pub(super) fn carrier_moving(&self, c: usize) -> bool {
        self.play.state.players[c].moved > self.rules.params.still_threshold
    }

    /// Sets both duellists' context and evaluates their tests: ((the carrier's pipeline, its
    /// resolution), (the defender's pipeline, its resolution)). The duel rolls these.
    pub(super) fn prepare_duel(
        &mut self,
        c: usize,
        o: usize,
        moving: bool,
    ) -> ((usize, Resolution), (usize, Resolution)) {
        let pipes = self.rules.pipes;
        self.set_match_state(c);
        self.set_match_state(o);
        let cp = if moving { pipes.dribble } else { pipes.protection };
        let op = self.tackle_pipe(o);
        ((cp, self.estimate(c, cp)), (op, self.estimate(o, op)))
    }

    /// The share of the duels carrier `c` loses where he stands that the referee calls as
    /// fouls (0.6 `tackle_foul_share`, outside the defender's own box), when a die decides it.
    pub(super) fn tackle_foul_share(&self, c: usize) -> Option<f64> {
        let t = self.play.state.players[c].team;
        self.rules
            .behaviours
            .tackle_foul_share
            .filter(|_| !self.rules.pitch.in_own_box(self.frame(1 - t, self.play.state.players[c].pos)))
    }

    /// A carrier's duel with a defender; `take_on` when the carrier chose to beat him.
    fn duel(&mut self, c: usize, o: usize, moving: bool, take_on: bool) {
        let t = self.play.state.players[c].team;
        self.play.state.players[c].duel = true;
        self.play.state.players[o].duel = true;
        let ((cp, cres), (op, ores)) = self.prepare_duel(c, o, moving);
        let croll = self.roll(c, cp, &cres, RollRole::Duel);
        let droll = self.roll(o, op, &ores, RollRole::Tackle);
        let diff = droll.margin - croll.margin;
        let outcome = self.rules.tackle_outcome.of(diff as f64);
        let (cw, dw) = (self.who(c), self.who(o));
        let name = match outcome {
            DuelOutcome::CarrierKeeps => "carrier_keeps",
            DuelOutcome::Loose => "loose",
            DuelOutcome::Steal => "steal",
        };
        self.event(EventKind::Duel {
            carrier: cw,
            defender: dw,
            carrier_margin: croll.margin,
            defender_margin: droll.margin,
            dribbling: moving,
            outcome: name.into(),
        });
        if take_on {
            self.play.stats[t].take_ons += 1;
            self.play.stats[t].take_ons_won += u32::from(outcome == DuelOutcome::CarrierKeeps);
        }
        match outcome {
            DuelOutcome::CarrierKeeps => self.carrier_keeps(c, o, moving, diff, droll.margin),
            DuelOutcome::Loose | DuelOutcome::Steal => self.defender_wins(c, o, moving, outcome),
        }
    }

    /// Carrier `c` beat defender `o` (by `diff`, the defender's margin `defender_margin`); the
    /// referee may still call the contact a foul.
    fn carrier_keeps(&mut self, c: usize, o: usize, moving: bool, diff: i32, defender_margin: i32) {
        let t = self.play.state.players[c].team;
        self.play.state.players[o].beaten_by = Some((c, self.play.state.round));
        if moving {
            self.play.stats[t].dribbles_won += 1;
        }
        let b = self.rules.behaviours;
        // 0.6: a defender in his own box holds back (a foul needs a worse margin there).
        let careful = match b.foul_box_offset {
            Some(k) if self.rules.pitch.in_own_box(self.frame(1 - t, self.play.state.players[c].pos)) => k,
            _ => 0.0,
        };
        // 0.6 may read how badly he was beaten rather than his own margin.
        let read = if b.foul_on_difference { diff } else { defender_margin };
        match self.rules.foul_check.of(read as f64 + careful) {
            FoulCall::Clean => {}
            // 0.6: the referee gives only a share of the contacts the table calls.
            _ if b.foul_share.is_some_and(|s| self.play.dice.unit() >= s) => {}
            call => self.foul(o, c, call == FoulCall::Indirect),
        }
    }

    /// Defender `o` won the duel against carrier `c`: the ball runs loose or he steals it. 0.6:
    /// outside his own box, a share of the duels a defender wins are fouls — he went through the
    /// man; the carrier's side has a free kick and no tackle is counted.
    fn defender_wins(&mut self, c: usize, o: usize, moving: bool, outcome: DuelOutcome) {
        let t = self.play.state.players[c].team;
        let foul = self.tackle_foul_share(c).is_some_and(|s| self.play.dice.unit() < s);
        if moving {
            self.play.stats[t].dribbles_lost += 1;
        }
        if foul {
            self.foul(o, c, false);
            return;
        }
        self.play.stats[1 - t].tackles += 1;
        if outcome == DuelOutcome::Steal {
            self.hold(o);
            return;
        }
        let (lo, hi) = (self.rules.params.loose_ball_min, self.rules.params.loose_ball_max);
        let at = self.play.state.players[c].pos + self.random_dir() * self.play.dice.uniform(lo, hi);
        self.loose_at(at, 1 - t);
    }

    /// An accidental foul (document §35): a free kick, or a penalty inside the defender's box;
    /// impeding (`indirect`, 0.6) gives an indirect free kick wherever it happens.
    fn foul(&mut self, by: usize, on: usize, indirect: bool) {
        let ft = self.play.state.players[by].team;
        self.play.stats[ft].fouls += 1;
        let spot = self.play.state.players[on].pos;
        let penalty = !indirect && self.rules.pitch.in_own_box(self.frame(ft, spot));
        let (bw, ow) = (self.who(by), self.who(on));
        self.event(EventKind::Foul { by: bw, on: ow, penalty, indirect });
        let team = 1 - ft;
        if penalty {
            let spot_f =
                V2::new(self.rules.pitch.length - self.rules.params.penalty_spot_distance, self.rules.pitch.goal_y);
            let spot = self.frame(team, spot_f);
            self.dead(RestartKind::Penalty, team, spot, None);
        } else if indirect {
            self.dead(RestartKind::IndirectFreeKick, team, spot, Some(on));
        } else {
            self.dead(RestartKind::FreeKick, team, spot, Some(on));
        }
    }

    // ---- passing (document §24, baseline §8, interception §30) ----

    /// Where a pass or cross of this margin arrives: on target, off by |margin| × k, or misplaced.
    fn arrival(&mut self, margin: i32, to: V2) -> (PassOutcome, V2) {
        let outcome = self.rules.pass_quality.of(margin as f64);
        let pr = self.rules.params;
        let at = match outcome {
            PassOutcome::OnTarget => to,
            PassOutcome::Imprecise => {
                to + self.random_dir() * (pr.pass_imprecise_offset_per_margin * margin.unsigned_abs() as f64)
            }
            PassOutcome::Misplaced => {
                to + self.random_dir()
                    * self.play.dice.uniform(pr.pass_misplaced_offset_min, pr.pass_misplaced_offset_max)
            }
        };
        (outcome, at)
    }

    /// Opponents who can reach the ball's line test in order along it; the first to win takes
    /// the ball. A pass meets outfield players and keepers with the interception test, a shot
    /// outfield players with the block test (the revision's, or the interception test). With the
    /// content's rule for the case (`interception_rule`, `block_rule`) the defender must beat the
    /// ball's margin (the document's rule for opposition, §6); without it his own test decides
    /// (baseline §9 for blocks).
    fn intercept(&mut self, passer: usize, from: V2, to: V2, margin: i32, ball: Struck) -> Option<usize> {
        let (skip_keeper, compare, pipe) = match ball {
            Struck::Pass => (false, self.rules.params.interception_rule != 0.0, self.rules.pipes.interception),
            Struck::Shot => (true, self.rules.params.block_rule != 0.0, self.rules.pipes.block),
        };
        let t = self.play.state.players[passer].team;
        let s = self.rules.slots;
        let q_int = self.rules.pass_q_int.value(margin as f64);
        let mut on_line: Vec<(f64, usize)> = self
            .opponents(t)
            .filter(|&o| !(skip_keeper && self.play.state.players[o].line == Line::Goalkeeper))
            .filter_map(|o| self.reaches_line(o, from, to).map(|along| (along, o)))
            .collect();
        on_line.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
        for (along, o) in on_line {
            let meet = from + (to - from) * along;
            self.set(o, s.q_int, q_int);
            self.set_match_state(o);
            self.set_orientation(o, meet);
            let role = match ball {
                Struck::Pass => RollRole::Interception,
                Struck::Shot => RollRole::Block,
            };
            let (_, roll) = self.test(o, pipe, role);
            let wins = if compare { roll.margin > margin } else { roll.success };
            if wins {
                return Some(o);
            }
        }
        None
    }

    /// Sets a pass's (or throw's) context from the carrier to `to` and evaluates its test.
    pub(super) fn prepare_pass(&mut self, c: usize, to: V2, pipe: usize) -> Resolution {
        let s = self.rules.slots;
        let from = self.play.state.players[c].pos;
        self.set(c, s.distance, from.dist(to));
        self.set_orientation(c, to);
        self.set_pressure(c, from);
        self.set_match_state(c);
        self.estimate(c, pipe)
    }

    fn pass(&mut self, c: usize, r: usize, pipe: usize) {
        let t = self.play.state.players[c].team;
        let s = self.rules.slots;
        let from = self.play.state.players[c].pos;
        let to = self.play.state.players[r].pos;
        let res = self.prepare_pass(c, to, pipe);
        let roll = self.roll(c, pipe, &res, RollRole::Action);
        let set_piece = self.set_piece_name();
        self.play.stats[t].passes += 1;
        let (outcome, at) = if res.possible {
            self.arrival(roll.margin, to)
        } else {
            // Beyond the kicker's reach: the ball dies short of the target.
            let reach = self.get(c, s.range);
            (PassOutcome::Misplaced, from.toward(to, reach))
        };
        let (cw, rw) = (self.who(c), self.who(r));
        let label = outcome_name(outcome);
        if let Some(o) = self.intercept(c, from, at, roll.margin, Struck::Pass) {
            self.play.stats[1 - t].interceptions += 1;
            let ow = self.who(o);
            self.event(EventKind::Pass {
                by: cw,
                to: rw,
                distance: round2(from.dist(to)),
                margin: roll.margin,
                outcome: label.into(),
                completed: false,
                set_piece,
            });
            self.event(EventKind::Interception { by: ow, from: cw, margin: roll.margin });
            self.hold(o);
            return;
        }
        // The pass is written before what became of the ball (a loose ball it left), though
        // whether it was completed is known only after: the event goes in where it happened.
        let at_pass = self.chronicle.events.len();
        let reach = self.rules.params.loose_ball_reach * self.rules.params.receive_reach_factor;
        let completed = if outcome == PassOutcome::Misplaced || self.play.state.players[r].pos.dist(at) > reach {
            self.loose_at(at, t);
            false
        } else {
            self.receive(r, from, at, self.rules.pass_quality.value(roll.margin as f64))
        };
        if completed {
            self.play.stats[t].passes_completed += 1;
        }
        self.event_at(
            at_pass,
            EventKind::Pass {
                by: cw,
                to: rw,
                distance: round2(from.dist(to)),
                margin: roll.margin,
                outcome: label.into(),
                completed,
                set_piece,
            },
        );
    }

    /// The receiver's control test (document §22); true when his side keeps the ball.
    fn receive(&mut self, r: usize, from: V2, at: V2, q_rec: f64) -> bool {
        let t = self.play.state.players[r].team;
        let s = self.rules.slots;
        self.play.state.players[r].pos = at;
        self.set(r, s.q_rec, q_rec);
        self.set_pressure(r, at);
        self.set_orientation(r, from);
        self.set_match_state(r);
        let (_, roll) = self.test(r, self.rules.pipes.control, RollRole::Control);
        match self.rules.control_outcome.of(roll.margin as f64) {
            ControlOutcome::Clean => {
                self.hold(r);
                true
            }
            ControlOutcome::HeavyTouch => {
                let d = self.rules.control_outcome.value(roll.margin as f64);
                let to = at + self.random_dir() * d;
                self.loose_at(to, t);
                true
            }
            ControlOutcome::Loose => {
                let (lo, hi) = (self.rules.params.loose_ball_min, self.rules.params.loose_ball_max);
                let to = at + self.random_dir() * self.play.dice.uniform(lo, hi);
                self.loose_at(to, t);
                false
            }
        }
    }

    // ---- crossing and the aerial duel (document §25, §31) ----

    /// Sets a cross's (or a set piece's delivery's) context towards `landing` and evaluates its
    /// test.
    pub(super) fn prepare_cross(&mut self, c: usize, landing: V2, pipe: usize) -> Resolution {
        let s = self.rules.slots;
        let from = self.play.state.players[c].pos;
        self.set(c, s.distance, from.dist(landing));
        self.set_orientation(c, landing);
        self.set_pressure(c, from);
        self.set_match_state(c);
        self.estimate(c, pipe)
    }

    fn cross(&mut self, c: usize, landing: V2, pipe: usize, zone: Option<u8>) {
        let t = self.play.state.players[c].team;
        let from = self.play.state.players[c].pos;
        let res = self.prepare_cross(c, landing, pipe);
        let roll = self.roll(c, pipe, &res, RollRole::Action);
        self.play.stats[t].crosses += 1;
        let (outcome, at) = self.arrival(roll.margin, landing);
        let cw = self.who(c);
        let zone = zone.and_then(|z| self.rules.set_pieces.as_ref()?.zone(z as usize)).map(|z| z.id.clone());
        let set_piece = self.set_piece_name();
        self.event(EventKind::Cross { by: cw, margin: roll.margin, x: round2(at.x), y: round2(at.y), set_piece, zone });
        if outcome == PassOutcome::Misplaced || !self.rules.pitch.in_bounds(at) {
            self.loose_at(at, t);
            return;
        }
        let Some(w) = self.aerial_duel(c, at) else {
            self.loose_at(at, t);
            return;
        };
        let wt = self.play.state.players[w].team;
        if wt == t {
            self.play.stats[t].crosses_completed += 1;
            let goal = self.frame(t, self.rules.pitch.goal());
            self.play.state.players[w].pos = at;
            if at.dist(goal) <= self.rules.params.header_max_distance {
                self.hold(w);
                if let Some((k, to)) = self.keeper_reset(t, from, at) {
                    self.play.state.players[k].pos = to;
                }
                self.shot(w, true, self.rules.pipes.header);
            } else {
                self.hold(w);
            }
        } else if self.play.state.players[w].line == Line::Goalkeeper {
            self.play.state.players[w].pos = at;
            self.hold(w);
        } else {
            // A headed clearance away from his own goal (0.6: sometimes behind, for a corner).
            if let Some(share) = self.rules.behaviours.clearance_behind_share
                && self.play.dice.unit() < share
            {
                self.corner_for(t, at);
                return;
            }
            let pr = self.rules.params;
            let spread = pr.clearance_spread;
            let away =
                (self.frame(wt, self.rules.pitch.goal()) - at).unit().rotated(self.play.dice.uniform(-spread, spread));
            let to = at + away * self.play.dice.uniform(pr.clearance_min, pr.clearance_max);
            self.loose_at(to, wt);
        }
    }

    /// Engine 0.5.9: where the keeper of the side defending against team `t`'s cross from `from`
    /// stands when it is headed at `at` — moved towards his spot for the header by
    /// `keeper_cross_reset` m per metre of the ball's flight. None when the content leaves the
    /// rule out, or when he came for the ball (within his claim radius of it, in his box) and
    /// is stranded where the duel left him.
    pub(super) fn keeper_reset(&self, t: usize, from: V2, at: V2) -> Option<(usize, V2)> {
        let per_metre = self.rules.behaviours.keeper_cross_reset?;
        let k = self.keeper(1 - t);
        if self.keeper_claims(k, at) {
            return None;
        }
        let ideal = self.rules.params.keeper_spot(self.frame(1 - t, self.rules.pitch.own_goal()), at);
        Some((k, self.play.state.players[k].pos.toward(ideal, per_metre * from.dist(at))))
    }

    /// Whether keeper `k` contests a high ball landing at `at`: near it, inside his own box.
    pub(super) fn keeper_claims(&self, k: usize, at: V2) -> bool {
        let pl = &self.play.state.players[k];
        pl.pos.dist(at) <= self.rules.params.keeper_claim_radius && self.rules.pitch.in_own_box(self.frame(pl.team, at))
    }

    /// Everyone within reach of the landing point contests it (a keeper near it inside his box
    /// claims with his hands); the highest margin wins, ties among opponents contest again.
    fn aerial_duel(&mut self, crosser: usize, at: V2) -> Option<usize> {
        let pr = self.rules.params;
        let mut contestants: Vec<usize> = (0..self.play.state.players.len())
            .filter(|&p| p != crosser)
            .filter(|&p| {
                let pl = &self.play.state.players[p];
                if pl.line == Line::Goalkeeper {
                    self.keeper_claims(p, at)
                } else {
                    pl.pos.dist(at) <= pr.aerial_contest_radius
                }
            })
            .collect();
        if contestants.is_empty() {
            return None;
        }
        let count = contestants.len() as u32;
        for _ in 0..8 {
            let mut best = i32::MIN;
            let mut leaders: Vec<usize> = Vec::new();
            for &p in &contestants {
                self.set_match_state(p);
                self.play.state.players[p].duel = true;
                let pipe = if self.play.state.players[p].line == Line::Goalkeeper {
                    self.rules.pipes.claim
                } else {
                    self.rules.pipes.aerial_duel
                };
                let (_, roll) = self.test(p, pipe, RollRole::Aerial);
                if roll.margin > best {
                    best = roll.margin;
                    leaders.clear();
                }
                if roll.margin == best {
                    leaders.push(p);
                }
            }
            let team = self.play.state.players[leaders[0]].team;
            if leaders.iter().all(|&p| self.play.state.players[p].team == team) {
                let w = leaders[0];
                let ww = self.who(w);
                self.event(EventKind::AerialDuel { won_by: ww, contestants: count });
                return Some(w);
            }
            contestants = leaders;
        }
        // Still level after repeated contests: the nearest takes it.
        let w = *contestants
            .iter()
            .min_by(|&&a, &&b| {
                self.play.state.players[a]
                    .pos
                    .dist(at)
                    .total_cmp(&self.play.state.players[b].pos.dist(at))
                    .then(a.cmp(&b))
            })
            .expect("non-empty");
        let ww = self.who(w);
        self.event(EventKind::AerialDuel { won_by: ww, contestants: count });
        Some(w)
    }

    // ---- shooting, blocks and the goalkeeper (document §26–§27, baseline §9) ----

    /// Sets the striker's context and evaluates his test (`pipe`: finishing, a header, a free
    /// kick); also returns the aimed point inside the goal mouth (the far side, inset from the
    /// post).
    pub(super) fn prepare_strike(&mut self, c: usize, pipe: usize) -> (Resolution, V2) {
        let t = self.play.state.players[c].team;
        let s = self.rules.slots;
        let pitch = self.rules.pitch;
        let pr = self.rules.params;
        let pos = self.play.state.players[c].pos;
        let f = self.frame(t, pos);
        let aim_y =
            if f.y < pitch.goal_y { pitch.post_high - pr.shot_post_inset } else { pitch.post_low + pr.shot_post_inset };
        let target = self.frame(t, V2::new(pitch.length, aim_y));
        let goal = self.frame(t, pitch.goal());
        self.set(c, s.distance, pos.dist(goal));
        self.set_scaled(c, s.angle, pitch.shot_angle(f, pr.shot_dx_floor));
        self.set_orientation(c, target);
        self.set_pressure(c, pos);
        self.set_match_state(c);
        (self.estimate(c, pipe), target)
    }

    /// Sets the keeper's context against a shot by `shooter` (position error from the ideal
    /// point on the ball–goal line, shot distance and speed); the shot margin is set by callers.
    pub(super) fn prepare_keeper(&mut self, k: usize, shooter: usize) {
        let s = self.rules.slots;
        let pr = self.rules.params;
        let kt = self.play.state.players[k].team;
        let goal = self.frame(kt, self.rules.pitch.own_goal());
        let ball = self.play.state.players[shooter].pos;
        let ideal = pr.keeper_spot(goal, ball);
        let error = self.play.state.players[k].pos.dist(ideal);
        let speed = self.get(shooter, s.ball_speed);
        self.set(k, s.gk_position_error, error);
        self.set(k, s.shot_distance, ball.dist(goal));
        self.set(k, s.shot_speed, speed);
        self.set_match_state(k);
    }

    pub(super) fn shot(&mut self, c: usize, header: bool, pipe: usize) {
        let t = self.play.state.players[c].team;
        let (res, target) = self.prepare_strike(c, pipe);
        let set_piece = self.set_piece_name();
        let wall = match self.set_piece_now() {
            Some(RestartKind::FreeKick) => Some(self.wall_size(c)),
            _ => None,
        };
        let roll = self.roll(c, pipe, &res, if header { RollRole::Header } else { RollRole::Action });
        let margin = roll.margin;
        self.play.stats[t].shots += 1;
        self.play.stats[t].shot_probability_sum += res.chance();
        let from = self.play.state.players[c].pos;
        let facts = ShotFacts {
            by: self.who(c),
            distance: round2(from.dist(self.frame(t, self.rules.pitch.goal()))),
            margin,
            probability: (res.chance() * 10_000.0).round() / 10_000.0,
            header,
            target_y: round2(self.frame(t, target).y),
            set_piece,
            aim: None,
            wall,
        };
        let penalty = self.play.penalty_kick;
        self.play.penalty_kick = false;
        if !penalty && !self.rules.pitch.in_attacking_box(self.frame(t, from)) {
            self.play.stats[t].shots_outside_box += 1;
        }
        if !penalty && let Some(b) = self.intercept(c, from, target, margin, Struck::Shot) {
            self.shot_blocked(t, b, &facts);
            return;
        }
        let outcome = if res.possible { self.rules.shot_outcome.of(margin as f64) } else { ShotOutcome::OffTarget };
        if outcome == ShotOutcome::OffTarget {
            self.shot_off_target(t, &facts);
            return;
        }
        self.play.stats[t].on_target += 1;
        self.shot_at_keeper(c, penalty, &facts);
    }

    /// Side `t`'s shot missed the target: a goal kick.
    pub(super) fn shot_off_target(&mut self, t: usize, facts: &ShotFacts) {
        self.event(facts.event("off_target", None));
        let spot_f = V2::new(self.rules.params.goal_kick_spot_x, self.rules.pitch.goal_y);
        let spot = self.frame(1 - t, spot_f);
        let keeper = self.keeper(1 - t);
        self.play.state.last_touch = t;
        self.dead(RestartKind::GoalKick, 1 - t, spot, Some(keeper));
    }

    /// Side `t`'s shot blocked by `b`: the ball deflects off him, loose.
    fn shot_blocked(&mut self, t: usize, b: usize, facts: &ShotFacts) {
        self.play.stats[1 - t].blocks += 1;
        self.event(facts.event("blocked", None));
        let bw = self.who(b);
        self.event(EventKind::Block { by: bw, shooter: facts.by });
        let pr = self.rules.params;
        let at = self.play.state.players[b].pos
            + self.random_dir() * self.play.dice.uniform(pr.deflection_min, pr.deflection_max);
        self.loose_at(at, 1 - t);
    }

    /// A shot on target against the keeper's save test: a goal, or a save he holds or parries.
    fn shot_at_keeper(&mut self, c: usize, penalty: bool, facts: &ShotFacts) {
        let t = self.play.state.players[c].team;
        let k = self.keeper(1 - t);
        self.prepare_keeper(k, c);
        self.set_scaled(k, self.rules.slots.shot_margin, facts.margin as f64);
        let (kres, kroll) = self.test(k, self.rules.pipes.save, RollRole::Save);
        let keeper = super::events::KeeperTest {
            value: kres.value,
            margin: kroll.margin,
            position_error: round2(self.get(k, self.rules.slots.gk_position_error)),
            guess: None,
        };
        let saved = if self.rules.params.save_rule == 0.0 { kroll.success } else { kroll.margin > facts.margin };
        if !saved {
            self.play.stats[t].penalty_goals += u32::from(penalty);
            self.event(facts.event("goal", Some(keeper)));
            self.goal(c);
            return;
        }
        self.play.stats[1 - t].saves += 1;
        self.event(facts.event("saved", Some(keeper)));
        self.after_save(c, k, kroll.margin);
    }

    /// Keeper `k` saved `c`'s shot by `margin`: he holds it, or parries it behind (0.6) or loose.
    fn after_save(&mut self, c: usize, k: usize, margin: i32) {
        let t = self.play.state.players[c].team;
        let kw = self.who(k);
        match self.rules.save_outcome.of(margin as f64) {
            SaveOutcome::Hold => {
                self.event(EventKind::Save { by: kw, margin, outcome: "hold".into() });
                self.hold(k);
            }
            SaveOutcome::Parry | SaveOutcome::Beaten => {
                self.event(EventKind::Save { by: kw, margin, outcome: "parry".into() });
                // 0.6: some parries go behind, for a corner.
                if let Some(share) = self.rules.behaviours.parry_behind_share
                    && self.play.dice.unit() < share
                {
                    let at = self.play.state.players[k].pos;
                    self.corner_for(t, at);
                    return;
                }
                let pr = self.rules.params;
                let goal = self.frame(1 - t, self.rules.pitch.own_goal());
                let spread = pr.parry_spread;
                let out =
                    (self.play.state.players[c].pos - goal).unit().rotated(self.play.dice.uniform(-spread, spread));
                let at = goal + out * self.play.dice.uniform(pr.rebound_min, pr.rebound_max);
                self.loose_at(at, 1 - t);
            }
        }
    }

    /// A corner for team `t`, at the flag on the side of `near` (world coordinates).
    fn corner_for(&mut self, t: usize, near: V2) {
        let pitch = self.rules.pitch;
        let f = self.frame(t, near);
        let flag = V2::new(pitch.length, if f.y < pitch.goal_y { 0.0 } else { pitch.width });
        let spot = self.frame(t, flag);
        self.play.state.last_touch = 1 - t;
        self.dead(RestartKind::Corner, t, spot, None);
    }

    pub(super) fn goal(&mut self, scorer: usize) {
        let t = self.play.state.players[scorer].team;
        self.play.state.score[t] += 1;
        self.play.stats[t].goals += 1;
        let w = self.who(scorer);
        self.event(EventKind::Goal { by: w, team: t as u8 });
        let centre = self.rules.pitch.centre();
        self.dead(RestartKind::KickOff, 1 - t, centre, None);
    }

    // ---- loose balls, restarts and the lines (document §34, baseline §5) ----

    /// Step 2 with a loose ball: players within reach gather it; from both sides it is contested
    /// (a neutral ball: a tie means the contest goes on next round).
    pub(super) fn gather_loose_ball(&mut self) {
        match self.nearest_to_loose_ball() {
            [None, None] => {}
            [Some(p), None] | [None, Some(p)] => self.gather_alone(p),
            [Some(a), Some(b)] => self.contest_loose_ball(a, b),
        }
    }

    /// Each side's nearest player within reach of the loose ball (the first of equals).
    fn nearest_to_loose_ball(&self) -> [Option<usize>; 2] {
        let ball = self.play.state.ball;
        let reach = self.rules.params.loose_ball_reach;
        let mut nearest = [None::<(f64, usize)>; 2];
        for (p, pl) in self.play.state.players.iter().enumerate() {
            let d = pl.pos.dist(ball);
            if d > reach {
                continue;
            }
            if nearest[pl.team].is_none_or(|(bd, _)| d < bd) {
                nearest[pl.team] = Some((d, p));
            }
        }
        nearest.map(|n| n.map(|(_, p)| p))
    }

    /// Player `p`'s control test to gather the loose ball.
    fn gather_roll(&mut self, p: usize) -> microfut_core::pipeline::Roll {
        let s = self.rules.slots;
        let ball = self.play.state.ball;
        self.set(p, s.q_rec, 0.0);
        self.set_pressure(p, ball);
        self.set_orientation(p, ball);
        self.set_match_state(p);
        self.test(p, self.rules.pipes.control, RollRole::Gather).1
    }

    /// Player `p`, unchallenged, gathers the loose ball, or it runs on from a heavy touch.
    fn gather_alone(&mut self, p: usize) {
        let ball = self.play.state.ball;
        let roll = self.gather_roll(p);
        let t = self.play.state.players[p].team;
        match self.rules.control_outcome.of(roll.margin as f64) {
            ControlOutcome::Clean => self.gathered(p),
            ControlOutcome::HeavyTouch => {
                let d = self.rules.control_outcome.value(roll.margin as f64);
                let to = ball + self.random_dir() * d;
                self.loose_at(to, t);
            }
            ControlOutcome::Loose => {
                let (lo, hi) = (self.rules.params.loose_ball_min, self.rules.params.loose_ball_max);
                let to = ball + self.random_dir() * self.play.dice.uniform(lo, hi);
                self.loose_at(to, t);
            }
        }
    }

    /// Both sides' nearest contest the loose ball by their control margins; a tie on a neutral
    /// ball leaves it loose to contest again.
    fn contest_loose_ball(&mut self, a: usize, b: usize) {
        use microfut_core::dice::{Holder, Opposed, opposed};
        let ra = self.gather_roll(a);
        let rb = self.gather_roll(b);
        self.play.state.players[a].duel = true;
        self.play.state.players[b].duel = true;
        match opposed(ra.margin, rb.margin, Holder::Neutral) {
            Opposed::First => self.gathered(a),
            Opposed::Second => self.gathered(b),
            Opposed::Recontest => {}
        }
    }

    /// Player `p` has the loose ball at his feet.
    fn gathered(&mut self, p: usize) {
        self.play.state.players[p].pos = self.play.state.ball;
        self.hold(p);
        let w = self.who(p);
        self.event(EventKind::Gathered { by: w });
    }

    /// A loose ball beyond a line becomes a throw-in, a goal kick or a corner.
    pub(super) fn check_out_of_play(&mut self) {
        if self.play.state.ball_state != Ball::Loose || self.rules.pitch.in_bounds(self.play.state.ball) {
            return;
        }
        let pitch = self.rules.pitch;
        let b = self.play.state.ball;
        let last = self.play.state.last_touch;
        if b.x >= 0.0 && b.x <= pitch.length {
            let spot = V2::new(b.x, if b.y < 0.0 { 0.0 } else { pitch.width });
            self.dead(RestartKind::ThrowIn, 1 - last, spot, None);
            return;
        }
        // Over a goal line: whose goal is it?
        let defending = if b.x > pitch.length {
            if self.play.state.attacks_right[0] { 1 } else { 0 }
        } else if self.play.state.attacks_right[0] {
            0
        } else {
            1
        };
        if last == defending {
            let corner = V2::new(b.x.clamp(0.0, pitch.length), if b.y < pitch.goal_y { 0.0 } else { pitch.width });
            self.dead(RestartKind::Corner, 1 - defending, corner, None);
        } else {
            let spot = self.frame(defending, V2::new(self.rules.params.goal_kick_spot_x, pitch.goal_y));
            let keeper = self.keeper(defending);
            self.dead(RestartKind::GoalKick, defending, spot, Some(keeper));
        }
    }

    /// Puts a restart into play: the dead time passes on the clock, players walk towards their
    /// places within what that time allows, and the taker has the ball at the spot.
    pub(super) fn take_restart(&mut self, r: Restart) {
        let dead_time = self.dead_time(r);
        if r.kind == RestartKind::KickOff && r.taker.is_none() {
            super::setup::line_up_for_kickoff(&self.rules, &self.play.teams, &mut self.play.state, r.team);
        }
        let taker = self.restart_taker_for(r);
        self.play.state.clock += dead_time;
        // 0.6: tired players come off at the stoppage.
        self.substitutions(Some(taker));
        self.play.state.players[taker].pos = r.spot;
        self.hold(taker);
        if dead_time > 0.0 {
            self.walk_during_dead_time(r, taker, dead_time);
        }
        self.clear_the_spot(r, taker);
        if r.kind == RestartKind::FreeKick && self.rules.set_pieces.is_some() && self.direct_shot_spot(r.team, r.spot) {
            self.form_wall(r.team, taker, r.spot);
        }
        self.play.penalty_kick = r.kind == RestartKind::Penalty && self.rules.set_pieces.is_none();
        self.play.taking = Some(r.kind);
        self.play.positioned_for = None;
        self.event(EventKind::Restart {
            restart: r.kind.name().into(),
            team: r.team as u8,
            x: round2(r.spot.x),
            y: round2(r.spot.y),
        });
    }

    /// The time the clock runs while the restart is taken.
    fn dead_time(&self, r: Restart) -> f64 {
        let clock = self.rules.clock;
        match r.kind {
            RestartKind::KickOff if r.taker.is_none() => clock.kickoff_after_goal,
            RestartKind::KickOff => 0.0,
            RestartKind::ThrowIn => clock.throw_in,
            RestartKind::GoalKick => clock.goal_kick,
            RestartKind::Corner => clock.corner,
            RestartKind::FreeKick | RestartKind::IndirectFreeKick | RestartKind::Penalty => clock.free_kick,
        }
    }

    /// Who takes the restart: the kick-off's line-up names him; 0.6's set pieces name who takes
    /// each restart; otherwise the player given, the best penalty taker or the nearest.
    fn restart_taker_for(&self, r: Restart) -> usize {
        let t = r.team;
        match (r.kind, r.taker) {
            (RestartKind::KickOff, _) => match self.play.state.ball_state {
                Ball::Dead(Restart { taker: Some(k), .. }) => k,
                _ => unreachable!("line-up names the kick-off taker"),
            },
            (kind, given) if self.rules.set_pieces.is_some() => match self.set_piece_taker(kind, t, r.spot) {
                Some(rule) => self.pick_taker(t, rule, r.spot),
                None => given.unwrap_or_else(|| self.pick_taker(t, Taker::Nearest, r.spot)),
            },
            (_, Some(k)) => k,
            (RestartKind::Penalty, None) => {
                let skill =
                    self.rules.penalty_skill_without_set_pieces.expect("revisions without set pieces name the skill");
                let players = &self.play.state.players;
                (0..players.len())
                    .filter(|&p| players[p].team == t && players[p].line != Line::Goalkeeper)
                    .max_by(|&a, &b| self.get(a, skill).total_cmp(&self.get(b, skill)).then(b.cmp(&a)))
                    .expect("outfield players")
            }
            (_, None) => self.pick_taker(t, Taker::Nearest, r.spot),
        }
    }

    /// During the dead time everyone but the taker walks towards his destination as far as his
    /// normal pace allows; at a delivery into the box runners attack it and markers go with them.
    fn walk_during_dead_time(&mut self, r: Restart, taker: usize, dead_time: f64) {
        if r.kind == RestartKind::Corner || self.delivery_spot(r.kind, r.team, r.spot) {
            let landing = match self.rules.set_pieces.as_ref() {
                Some(sp) => self.zones_centre(sp, r.team, r.spot),
                None => self.cross_landing(r.team, r.spot),
            };
            let cross = super::candidate::Candidate::aimed(Kind::Cross, landing);
            self.compute_targets(Some(&(taker, cross)));
        } else {
            self.compute_targets(None);
        }
        let rounds = dead_time / self.rules.clock.round_seconds;
        for p in 0..self.play.state.players.len() {
            if p == taker {
                continue;
            }
            let allowance = self.get(p, self.rules.slots.r_normal) * rounds;
            let to = self.play.state.players[p].pos.toward(self.scratch.targets[p], allowance);
            self.play.state.players[p].pos = to;
        }
    }

    /// Opponents give the taker room; at a penalty everyone but the two stands outside the box.
    fn clear_the_spot(&mut self, r: Restart, taker: usize) {
        let pr = self.rules.params;
        let pitch = self.rules.pitch;
        let t = r.team;
        for p in 0..self.play.state.players.len() {
            if p == taker {
                continue;
            }
            let pl_team = self.play.state.players[p].team;
            if r.kind == RestartKind::Penalty {
                let keeper = self.play.state.players[p].line == Line::Goalkeeper && pl_team != t;
                let f = self.frame(t, self.play.state.players[p].pos);
                let limit = pitch.length - pitch.box_depth - pr.penalty_box_clearance;
                let new_f = if keeper { V2::new(pitch.length, pitch.goal_y) } else { V2::new(f.x.min(limit), f.y) };
                self.play.state.players[p].pos = self.frame(t, new_f);
            } else if pl_team != t && r.kind != RestartKind::KickOff {
                let pos = self.play.state.players[p].pos;
                let d = pos.dist(r.spot);
                if d < pr.restart_distance {
                    let away = if d > 0.0 { (pos - r.spot).unit() } else { V2::new(0.0, 1.0) };
                    self.play.state.players[p].pos = pitch.clamp(r.spot + away * pr.restart_distance);
                }
            }
        }
    }
}

fn outcome_name(o: PassOutcome) -> &'static str {
    match o {
        PassOutcome::OnTarget => "on_target",
        PassOutcome::Imprecise => "imprecise",
        PassOutcome::Misplaced => "misplaced",
    }
}
