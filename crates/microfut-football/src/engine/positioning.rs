//! Off-ball positioning (document §32): destinations from role, phase, ball, team-mates,
//! opponents, club personality and match context — no individual instructions — and the
//! positioning test that decides how well each player reads his destination.

use super::Match;
use super::candidate::{Candidate, Kind};
use super::content::CrossNpc;
use super::content::MAX_HELPERS;
use super::geometry::{V2, sqrt_le};
use super::state::{Ball, Line};

/// Who does what off the ball this round (`Match::off_ball_roles`); `usize::MAX` fills an
/// empty place.
struct OffBall {
    holder: Option<usize>,
    pressers: [usize; MAX_HELPERS],
    /// Per side, the player who goes for a loose ball.
    chasers: [usize; 2],
    supporters: [usize; MAX_HELPERS],
    /// The cross struck this round: the crossing side and where it lands.
    cross: Option<(usize, V2)>,
    /// The cross the carrier could make, its runners making their runs (0.6).
    box_run: Option<(usize, V2)>,
    /// The team-mate covering for a beaten defender and his spot.
    cover: Option<(usize, V2)>,
    receiver: Option<usize>,
}

impl Match {
    /// One positioning test per off-ball player when possession changes hands (baseline §10):
    /// a failure places the destination |margin| × error-per-margin away from the ideal point.
    pub(super) fn positioning_tests(&mut self) {
        let holder = self.play.state.holder();
        let pipe = self.rules.pipes.positioning;
        let per_margin = self.rules.params.positioning_error_per_margin;
        for p in 0..self.play.state.players.len() {
            if Some(p) == holder {
                self.play.state.players[p].error = V2::ZERO;
                continue;
            }
            self.set_match_state(p);
            let (_, roll) = self.test(p, pipe, super::projection::RollRole::Positioning);
            self.play.state.players[p].error = if roll.margin < 0 {
                self.random_dir() * (roll.margin.unsigned_abs() as f64 * per_margin)
            } else {
                V2::ZERO
            };
        }
    }

    /// Every player's destination this round, in world coordinates, and whether he hurries.
    pub(super) fn compute_targets(&mut self, action: Option<&(usize, Candidate)>) {
        self.scratch.urgent.fill(false);
        let roles = self.off_ball_roles(action);
        let mut view = std::mem::take(&mut self.scratch.view);
        self.opponents_seen(&mut view);
        let rules = self.rules.clone();
        let minute = self.play.state.minute(rules.clock.half_seconds);
        let pitch = rules.pitch;
        for p in 0..self.play.state.players.len() {
            if Some(p) == roles.holder || Some(p) == roles.receiver {
                self.scratch.targets[p] = self.play.state.players[p].pos;
                continue;
            }
            let t = self.play.state.players[p].team;
            let Some((target, shaped)) =
                self.destination(p, &roles, action, rules.npc.cross.as_ref(), minute, &view[t])
            else {
                continue;
            };
            // When his destination came from the team shape (lever `positioning_cadence`).
            self.play.shaped[p] = shaped.then_some((self.play.state.round, self.play.state.possession));
            // The positioning test measures how well a player reads where to stand; a chaser
            // goes for the ball itself, which he can see (else he may stop short of it for ever).
            let error = if roles.chasers[t] == p { V2::ZERO } else { self.play.state.players[p].error };
            let target = pitch.clamp(target + error);
            self.scratch.targets[p] = self.frame(t, target);
        }
        self.scratch.view = view;
    }

    /// Who does what off the ball this round: pressers, chasers, supporters, the cross's (or the
    /// box runs') landing, the cover and the pass's receiver.
    fn off_ball_roles(&mut self, action: Option<&(usize, Candidate)>) -> OffBall {
        let holder = self.play.state.holder();
        let pressers = self.pressers(holder);
        let chasers = self.chasers();
        let cross = action
            .filter(|(_, c)| c.kind == Kind::Cross)
            .map(|(c, cand)| (self.play.state.players[*c].team, cand.dest));
        let box_run = if cross.is_none() { holder.and_then(|c| self.box_run(c)) } else { None };
        let supporters = self.supporters(holder);
        let cover = holder.and_then(|c| self.cover(c, &pressers));
        // The intended receiver of a pass waits for it where he is.
        let receiver = action.filter(|(_, c)| matches!(c.kind, Kind::Pass | Kind::Throw)).and_then(|(_, c)| c.other);
        OffBall { holder, pressers, chasers, supporters, cross, box_run, cover, receiver }
    }

    /// Pressing: the nearest outfield defenders to the carrier close him down.
    fn pressers(&mut self, holder: Option<usize>) -> [usize; MAX_HELPERS] {
        let mut pressers = [usize::MAX; MAX_HELPERS];
        let Some(c) = holder else { return pressers };
        let pr = self.rules.params;
        let ct = self.play.state.players[c].team;
        let cpos = self.play.state.players[c].pos;
        let mut near = std::mem::take(&mut self.scratch.near);
        near.clear();
        near.extend(
            self.opponents(ct)
                .filter(|&o| self.play.state.players[o].line != Line::Goalkeeper)
                .map(|o| (self.play.state.players[o].pos.dist(cpos), o))
                .filter(|(d, _)| *d <= pr.press_radius),
        );
        near.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
        for (k, (_, o)) in near.iter().take(pr.press_count as usize).enumerate() {
            pressers[k] = *o;
        }
        self.scratch.near = near;
        pressers
    }

    /// A loose ball: the nearest player of each side goes for it (a keeper only in his box).
    fn chasers(&self) -> [usize; 2] {
        let mut chasers = [usize::MAX; 2];
        if self.play.state.ball_state != Ball::Loose {
            return chasers;
        }
        let st = &self.play.state;
        for (t, chaser) in chasers.iter_mut().enumerate() {
            *chaser = (0..st.players.len())
                .filter(|&i| st.players[i].team == t)
                .filter(|&i| {
                    st.players[i].line != Line::Goalkeeper || self.rules.pitch.in_own_box(self.frame(t, st.ball))
                })
                .min_by(|&a, &b| {
                    let da = st.players[a].pos.dist(st.ball);
                    let db = st.players[b].pos.dist(st.ball);
                    da.total_cmp(&db).then(a.cmp(&b))
                })
                .unwrap_or(usize::MAX);
        }
        chasers
    }

    /// 0.6: runners attack the box while their carrier `c` stands where he could cross: his
    /// side and where the cross would land.
    fn box_run(&self, c: usize) -> Option<(usize, V2)> {
        let x = self.rules.npc.cross.as_ref().filter(|x| x.box_runs)?;
        let pr = self.rules.params;
        let ct = self.play.state.players[c].team;
        let cpos = self.play.state.players[c].pos;
        let f = self.frame(ct, cpos);
        let from_x = x.box_runs_from_x.unwrap_or(pr.cross_min_x);
        let wide = (f.y - self.rules.pitch.goal_y).abs() >= pr.cross_min_wide;
        (f.x >= from_x && wide).then(|| (ct, self.cross_landing(ct, cpos)))
    }

    /// Support: the carrier's nearest outfield team-mates offer him angles ahead.
    fn supporters(&mut self, holder: Option<usize>) -> [usize; MAX_HELPERS] {
        let mut supporters = [usize::MAX; MAX_HELPERS];
        let Some(c) = holder else { return supporters };
        let ct = self.play.state.players[c].team;
        let cpos = self.play.state.players[c].pos;
        let mut near = std::mem::take(&mut self.scratch.near);
        near.clear();
        let players = &self.play.state.players;
        near.extend(
            (0..players.len())
                .filter(|&i| i != c && players[i].team == ct && players[i].line != Line::Goalkeeper)
                .map(|i| (players[i].pos.dist(cpos), i)),
        );
        near.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
        for (k, (_, i)) in near.iter().take(self.rules.params.support_count as usize).enumerate() {
            supporters[k] = *i;
        }
        self.scratch.near = near;
        supporters
    }

    /// Per side: the opponents' outfield positions in its frame.
    fn opponents_seen(&self, view: &mut [Vec<V2>; 2]) {
        for (t, v) in view.iter_mut().enumerate() {
            v.clear();
            for pl in &self.play.state.players {
                if pl.team != t && pl.line != Line::Goalkeeper {
                    v.push(self.frame(t, pl.pos));
                }
            }
        }
    }

    /// 0.6: when the carrier `c` has just beaten a defender, the beaten man's nearest team-mate
    /// (not a presser) steps across, goal-side of the carrier: who, and where in his frame.
    fn cover(&self, c: usize, pressers: &[usize]) -> Option<(usize, V2)> {
        let gap = self.rules.behaviours.cover_distance?;
        let players = &self.play.state.players;
        let ct = players[c].team;
        let cpos = players[c].pos;
        let b = self.opponents(ct).find(|&o| self.still_beaten(o, c))?;
        let coverer = self
            .opponents(ct)
            .filter(|&o| o != b && !pressers.contains(&o))
            .filter(|&o| players[o].line != Line::Goalkeeper)
            .min_by(|&x, &y| {
                let dx = players[x].pos.dist2(cpos);
                let dy = players[y].pos.dist2(cpos);
                dx.total_cmp(&dy).then(x.cmp(&y))
            })?;
        let cf = self.frame(1 - ct, cpos);
        Some((coverer, cf + (self.rules.pitch.own_goal() - cf).unit() * gap))
    }

    /// Player `p`'s destination in his side's frame by his role this round, and whether it came
    /// from the team shape; `None` when he keeps the one he has (lever `positioning_cadence`).
    /// Sets whether he hurries.
    fn destination(
        &mut self,
        p: usize,
        roles: &OffBall,
        action: Option<&(usize, Candidate)>,
        content: Option<&CrossNpc>,
        minute: f64,
        view: &[V2],
    ) -> Option<(V2, bool)> {
        let t = self.play.state.players[p].team;
        let b = self.frame(t, self.play.state.ball);
        if let Some((_, spot)) = roles.cover.filter(|&(q, _)| q == p) {
            self.scratch.urgent[p] = true;
            return Some((spot, false));
        }
        if roles.pressers.contains(&p) {
            self.scratch.urgent[p] = true;
            let c = roles.holder.expect("pressers only with a holder");
            return Some((self.press_target(p, c, action), false));
        }
        if let Some(k) = roles.supporters.iter().position(|&s| s == p).filter(|_| roles.cross.is_none()) {
            let c = roles.holder.expect("supporters only with a holder");
            return Some((self.support_target(t, c, k), false));
        }
        if roles.chasers[t] == p {
            self.scratch.urgent[p] = true;
            return Some((b, false));
        }
        let landing = roles.cross.or(roles.box_run).filter(|_| self.play.state.players[p].line != Line::Goalkeeper);
        if let Some((ct, landing)) = landing
            && let Some(spot) = self.box_target(p, ct, landing, roles.cross.is_some(), content)
        {
            return Some((spot, false));
        }
        if self.keeps_shape(p) {
            return None;
        }
        let attacking = self.play.state.possession == t;
        Some((self.shape_target(p, b, attacking, minute, view), true))
    }

    /// Where presser `p` goes for carrier `c`: moving together through the round, he tracks
    /// where the carrier is going; he closes in to tackle when it is worth it (content
    /// `defending`), and otherwise contains from the goal side at the content's distance.
    fn press_target(&mut self, p: usize, c: usize, action: Option<&(usize, Candidate)>) -> V2 {
        let t = self.play.state.players[p].team;
        let going = match action {
            Some((_, cand)) if matches!(cand.kind, Kind::Carry | Kind::Dribble) => cand.dest,
            _ => self.play.state.players[c].pos,
        };
        let moving = going != self.play.state.players[c].pos;
        let engage = self.would_tackle(c, p, going, moving);
        let cpos = self.frame(t, going);
        let gap = if engage { 0.0 } else { self.rules.params.press_goal_side };
        cpos + (self.rules.pitch.own_goal() - cpos).unit() * gap
    }

    /// The `k`th supporter's spot ahead of carrier `c`, on alternate sides, in side `t`'s frame.
    fn support_target(&self, t: usize, c: usize, k: usize) -> V2 {
        let pr = self.rules.params;
        let cpos = self.frame(t, self.play.state.players[c].pos);
        let side = if k.is_multiple_of(2) { 1.0 } else { -1.0 };
        let ahead = V2::new(1.0, 0.0).rotated(side * pr.support_angle);
        let spot = cpos + ahead * pr.support_distance;
        // Stay on the pitch: mirror the angle when it would leave it.
        if spot.y < pr.touchline_margin || spot.y > self.rules.pitch.width - pr.touchline_margin {
            cpos + V2::new(1.0, 0.0).rotated(-side * pr.support_angle) * pr.support_distance
        } else {
            spot
        }
    }

    /// A runner's or a marker's spot for a cross of side `ct` landing at `landing` (struck, or
    /// only possible: box runs); `None` for a player who neither runs nor marks.
    fn box_target(&mut self, p: usize, ct: usize, landing: V2, struck: bool, content: Option<&CrossNpc>) -> Option<V2> {
        let pr = self.rules.params;
        let t = self.play.state.players[p].team;
        let line = self.play.state.players[p].line;
        let (runs, marks) = match content {
            Some(x) => (x.runners.contains(&line), x.markers.contains(&line)),
            None => (matches!(line, Line::Attack | Line::Midfield), line == Line::Defence),
        };
        // Once the cross is struck they sprint; while the carrier only could cross (box runs,
        // 0.6) they make their runs at their own pace.
        if ct == t && runs {
            self.scratch.urgent[p] = struck;
            // Runners spread across the landing zone.
            let lanes = (pr.cross_runner_lanes as usize).max(1);
            let k = (self.play.state.players[p].slot % lanes) as f64 - (lanes - 1) as f64 / 2.0;
            return Some(self.landing_runner_spot(t, landing, k));
        }
        if ct == t || !marks {
            return None;
        }
        self.scratch.urgent[p] = struck;
        let l = self.frame(t, landing);
        let goal_side = |r: V2| r + (self.rules.pitch.own_goal() - r).unit() * pr.mark_goal_side;
        let Some(x) = content else {
            // Between the landing point and the goal, goal side.
            return Some(goal_side(l));
        };
        // 0.6: goal-side of the runner nearest him (the runners spread, so do their markers).
        let me = self.play.state.players[p].pos;
        let players = &self.play.state.players;
        let runner = self.opponents(t).filter(|&o| x.runners.contains(&players[o].line)).min_by(|&a, &b| {
            let da = players[a].pos.dist2(me);
            let db = players[b].pos.dist2(me);
            da.total_cmp(&db).then(a.cmp(&b))
        });
        Some(goal_side(runner.map_or(l, |o| self.frame(t, players[o].pos))))
    }

    /// Lever `positioning_cadence` (issue 15): an off-ball player far from the ball, whose
    /// destination last came from the team shape under the same possession less than `cadence`
    /// rounds ago, keeps it this round unless it is his turn (staggered by player, so a
    /// cadence of 2 places half of them each round). Off without the lever.
    fn keeps_shape(&self, p: usize) -> bool {
        let Some((cadence, radius)) = self.rules.levers.positioning else { return false };
        let Some((at, possession)) = self.play.shaped[p] else { return false };
        let round = self.play.state.round;
        possession == self.play.state.possession
            && round.wrapping_sub(at) < cadence
            && !(round as usize + p).is_multiple_of(cadence as usize)
            && !sqrt_le(self.play.state.players[p].pos.dist2(self.play.state.ball), radius)
    }

    /// Where a runner attacks a cross, in his team's frame: spread around the landing point.
    fn landing_runner_spot(&self, t: usize, landing: V2, k: f64) -> V2 {
        let pr = self.rules.params;
        let l = self.frame(t, landing);
        V2::new(l.x + k * pr.cross_runner_step_x, l.y + k * pr.cross_runner_step_y)
    }

    /// The team shape: the formation slot moved with the ball, the phase, the club's personality
    /// and the score; marking when out of possession; attackers held at the last line.
    fn shape_target(&self, p: usize, b: V2, attacking: bool, minute: f64, opponents: &[V2]) -> V2 {
        let pr = self.rules.params;
        let pitch = self.rules.pitch;
        let pl = &self.play.state.players[p];
        let t = pl.team;
        let team = &self.play.teams[t];
        let slot = &self.rules.formations[team.formation].slots[pl.slot];
        let (cx, cy) = (pitch.length / 2.0, pitch.width / 2.0);
        if pl.line == Line::Goalkeeper {
            let goal = pitch.own_goal();
            return pr.keeper_spot(goal, b);
        }
        let personality = team.personality;
        let goal_diff = self.play.state.score[t] as i32 - self.play.state.score[1 - t] as i32;
        let mut x = slot.x + pr.pos_follow_x * (b.x - cx);
        let width = if attacking { pr.pos_width_attack } else { pr.pos_width_defence };
        let y = cy + (slot.y - cy) * width + pr.pos_follow_y * (b.y - cy);
        if attacking {
            x += pr.pos_attack_shift + pr.pos_verticality_push * personality.verticality as f64;
        } else {
            x += pr.pos_defence_shift - pr.pos_security_drop * personality.security as f64;
        }
        if goal_diff < 0 && minute >= pr.pos_late_minute {
            x += pr.pos_late_push;
        }
        let mut target = V2::new(x.max(pr.pos_min_x), y);
        if attacking {
            // Attackers stay level with the opponents' last outfield line.
            let last_line = opponents.iter().map(|o| o.x).fold(f64::NEG_INFINITY, f64::max);
            if last_line.is_finite() {
                target.x = target.x.min(last_line.max(b.x) + pr.pos_last_line_margin);
            }
        } else {
            if pl.line == Line::Defence {
                // Defenders stay between the ball and their goal.
                target.x = target.x.min((b.x - pr.mark_goal_side).max(pr.pos_min_x));
            }
            // Mark the nearest opponent near the zone, from the goal side.
            let nearest = opponents
                .iter()
                .enumerate()
                .filter(|(_, op)| sqrt_le(op.dist2(target), pr.mark_radius))
                .map(|(i, op)| (op.dist(target), *op, i))
                .min_by(|a, b| a.0.total_cmp(&b.0).then(a.2.cmp(&b.2)));
            if let Some((_, op, _)) = nearest {
                let guard = op + (pitch.own_goal() - op).unit() * pr.mark_goal_side;
                target = target + (guard - target) * pr.mark_weight;
            }
        }
        target
    }
}
