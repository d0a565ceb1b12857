//! Off-ball positioning (document §32): destinations from role, phase, ball, team-mates,
//! opponents, club personality and match context — no individual instructions — and the
//! positioning test that decides how well each player reads his destination.

use super::Match;
use super::candidate::{Candidate, Kind};
use super::content::MAX_HELPERS;
use super::geometry::{V2, sqrt_le};
use super::state::{Ball, Line};

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
        let n = self.play.state.players.len();
        let holder = self.play.state.holder();
        let loose = self.play.state.ball_state == Ball::Loose;
        let pr = self.rules.params;
        let pitch = self.rules.pitch;
        let minute = self.play.state.minute(self.rules.clock.half_seconds);
        for u in self.scratch.urgent.iter_mut() {
            *u = false;
        }

        // Pressing: the nearest outfield defenders to the carrier close him down.
        let mut pressers = [usize::MAX; MAX_HELPERS];
        if let Some(c) = holder {
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
        }
        // A loose ball: the nearest player of each side goes for it.
        let mut chasers = [usize::MAX; 2];
        if loose {
            for (t, chaser) in chasers.iter_mut().enumerate() {
                *chaser = (0..n)
                    .filter(|&i| self.play.state.players[i].team == t)
                    .filter(|&i| {
                        self.play.state.players[i].line != Line::Goalkeeper || {
                            let b = self.frame(t, self.play.state.ball);
                            pitch.in_own_box(b)
                        }
                    })
                    .min_by(|&a, &b| {
                        let da = self.play.state.players[a].pos.dist(self.play.state.ball);
                        let db = self.play.state.players[b].pos.dist(self.play.state.ball);
                        da.total_cmp(&db).then(a.cmp(&b))
                    })
                    .unwrap_or(usize::MAX);
            }
        }
        let cross = action
            .filter(|(_, c)| c.kind == Kind::Cross)
            .map(|(c, cand)| (self.play.state.players[*c].team, cand.dest));
        // 0.6: runners attack the box while their carrier stands where he could cross.
        let rules = self.rules.clone();
        let content = rules.npc.cross.as_ref();
        let box_run = match (cross, holder, content) {
            (None, Some(c), Some(x)) if x.box_runs => {
                let ct = self.play.state.players[c].team;
                let cpos = self.play.state.players[c].pos;
                let f = self.frame(ct, cpos);
                let from_x = x.box_runs_from_x.unwrap_or(pr.cross_min_x);
                let wide = (f.y - pitch.goal_y).abs() >= pr.cross_min_wide;
                (f.x >= from_x && wide).then(|| (ct, self.cross_landing(ct, cpos)))
            }
            _ => None,
        };
        // Support: the carrier's nearest outfield team-mates offer him angles ahead.
        let mut supporters = [usize::MAX; MAX_HELPERS];
        if let Some(c) = holder {
            let ct = self.play.state.players[c].team;
            let cpos = self.play.state.players[c].pos;
            let mut near = std::mem::take(&mut self.scratch.near);
            near.clear();
            near.extend(
                (0..n)
                    .filter(|&i| {
                        i != c
                            && self.play.state.players[i].team == ct
                            && self.play.state.players[i].line != Line::Goalkeeper
                    })
                    .map(|i| (self.play.state.players[i].pos.dist(cpos), i)),
            );
            near.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
            for (k, (_, i)) in near.iter().take(pr.support_count as usize).enumerate() {
                supporters[k] = *i;
            }
            self.scratch.near = near;
        }

        // Per side: the opponents' outfield positions in its frame and their last line.
        let mut view = std::mem::take(&mut self.scratch.view);
        for (t, v) in view.iter_mut().enumerate() {
            v.clear();
            for o in 0..n {
                let pl = &self.play.state.players[o];
                if pl.team != t && pl.line != Line::Goalkeeper {
                    v.push(self.frame(t, pl.pos));
                }
            }
        }
        // 0.6: when the carrier has just beaten a defender, the beaten man's nearest team-mate
        // steps across, goal-side of the carrier.
        let cover = match (self.rules.behaviours.cover_distance, holder) {
            (Some(gap), Some(c)) => {
                let ct = self.play.state.players[c].team;
                let cpos = self.play.state.players[c].pos;
                let beaten = self.opponents(ct).find(|&o| self.still_beaten(o, c));
                beaten.and_then(|b| {
                    let coverer = self
                        .opponents(ct)
                        .filter(|&o| o != b && !pressers.contains(&o))
                        .filter(|&o| self.play.state.players[o].line != Line::Goalkeeper)
                        .min_by(|&x, &y| {
                            let dx = self.play.state.players[x].pos.dist2(cpos);
                            let dy = self.play.state.players[y].pos.dist2(cpos);
                            dx.total_cmp(&dy).then(x.cmp(&y))
                        })?;
                    let t = 1 - ct;
                    let cf = self.frame(t, cpos);
                    Some((coverer, cf + (pitch.own_goal() - cf).unit() * gap))
                })
            }
            _ => None,
        };
        // The intended receiver of a pass waits for it where he is.
        let receiver = action.filter(|(_, c)| matches!(c.kind, Kind::Pass | Kind::Throw)).and_then(|(_, c)| c.other);
        for p in 0..n {
            if Some(p) == holder || Some(p) == receiver {
                self.scratch.targets[p] = self.play.state.players[p].pos;
                continue;
            }
            let t = self.play.state.players[p].team;
            let b = self.frame(t, self.play.state.ball);
            let attacking = self.play.state.possession == t;
            let mut shaped = false;
            let target = if let Some((_, spot)) = cover.filter(|&(q, _)| q == p) {
                self.scratch.urgent[p] = true;
                spot
            } else if pressers.contains(&p) {
                self.scratch.urgent[p] = true;
                let c = holder.expect("pressers only with a holder");
                // Moving together through the round, a presser tracks where the carrier is going.
                let going = match action {
                    Some((_, cand)) if matches!(cand.kind, Kind::Carry | Kind::Dribble) => cand.dest,
                    _ => self.play.state.players[c].pos,
                };
                // He closes in to tackle when it is worth it (content `defending`), and otherwise
                // contains from the goal side at the content's distance.
                let moving = going != self.play.state.players[c].pos;
                let engage = self.would_tackle(c, p, going, moving);
                let cpos = self.frame(t, going);
                let gap = if engage { 0.0 } else { pr.press_goal_side };
                cpos + (pitch.own_goal() - cpos).unit() * gap
            } else if let Some(k) = supporters.iter().position(|&s| s == p).filter(|_| cross.is_none()) {
                let c = holder.expect("supporters only with a holder");
                let cpos = self.frame(t, self.play.state.players[c].pos);
                let side = if k % 2 == 0 { 1.0 } else { -1.0 };
                let ahead = V2::new(1.0, 0.0).rotated(side * pr.support_angle);
                let spot = cpos + ahead * pr.support_distance;
                // Stay on the pitch: mirror the angle when it would leave it.
                if spot.y < pr.touchline_margin || spot.y > pitch.width - pr.touchline_margin {
                    cpos + V2::new(1.0, 0.0).rotated(-side * pr.support_angle) * pr.support_distance
                } else {
                    spot
                }
            } else if chasers[t] == p {
                self.scratch.urgent[p] = true;
                b
            } else if let Some((ct, landing)) =
                cross.or(box_run).filter(|_| self.play.state.players[p].line != Line::Goalkeeper)
            {
                let l = self.frame(t, landing);
                let line = self.play.state.players[p].line;
                let (runs, marks) = match content {
                    Some(x) => (x.runners.contains(&line), x.markers.contains(&line)),
                    None => (matches!(line, Line::Attack | Line::Midfield), line == Line::Defence),
                };
                // Once the cross is struck they sprint; while the carrier only could cross (box
                // runs, 0.6) they make their runs at their own pace.
                let struck = cross.is_some();
                if ct == t && runs {
                    self.scratch.urgent[p] = struck;
                    // Runners spread across the landing zone.
                    let lanes = (pr.cross_runner_lanes as usize).max(1);
                    let k = (self.play.state.players[p].slot % lanes) as f64 - (lanes - 1) as f64 / 2.0;
                    self.landing_runner_spot(t, landing, k)
                } else if ct != t && marks {
                    self.scratch.urgent[p] = struck;
                    match content {
                        // 0.6: goal-side of the runner nearest him (the runners spread, so do
                        // their markers).
                        Some(x) => {
                            let me = self.play.state.players[p].pos;
                            let runner = self
                                .opponents(t)
                                .filter(|&o| x.runners.contains(&self.play.state.players[o].line))
                                .min_by(|&a, &b| {
                                    let da = self.play.state.players[a].pos.dist2(me);
                                    let db = self.play.state.players[b].pos.dist2(me);
                                    da.total_cmp(&db).then(a.cmp(&b))
                                });
                            let r = runner.map_or(l, |o| self.frame(t, self.play.state.players[o].pos));
                            r + (pitch.own_goal() - r).unit() * pr.mark_goal_side
                        }
                        // Between the landing point and the goal, goal side.
                        None => l + (pitch.own_goal() - l).unit() * pr.mark_goal_side,
                    }
                } else if self.keeps_shape(p) {
                    continue;
                } else {
                    shaped = true;
                    self.shape_target(p, b, attacking, minute, &view[t])
                }
            } else if self.keeps_shape(p) {
                continue;
            } else {
                shaped = true;
                self.shape_target(p, b, attacking, minute, &view[t])
            };
            // When his destination came from the team shape (lever `positioning_cadence`).
            self.play.shaped[p] = shaped.then_some((self.play.state.round, self.play.state.possession));
            // The positioning test measures how well a player reads where to stand; a chaser
            // goes for the ball itself, which he can see (else he may stop short of it for ever).
            let error = if chasers[t] == p { V2::ZERO } else { self.play.state.players[p].error };
            let target = pitch.clamp(target + error);
            self.scratch.targets[p] = self.frame(t, target);
        }
        self.scratch.view = view;
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
