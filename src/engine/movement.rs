//! Movement within physical ranges (document §21) and the stamina it costs; body orientation.

use super::Match;
use super::geometry::{V2, angle_between};
use super::npc::{Candidate, Kind};

impl Match {
    /// The range a player covers this round at a pace, with or without the ball, turning towards
    /// `dir` (content's `movement_range`).
    pub(super) fn movement_range(&mut self, p: usize, pace: usize, with_ball: bool, dir: V2) -> f64 {
        let s = self.rules.slots;
        let turn = angle_between(self.state.players[p].dir, dir);
        let paces = self.rules.paces;
        self.set_stamina(p);
        self.set(p, s.pace, paces[pace]);
        self.set(p, s.with_ball, if with_ball { 1.0 } else { 0.0 });
        self.set(p, s.direction_change, turn);
        self.estimate(p, self.rules.pipes.movement_range).value.max(0.0)
    }

    /// Step 4: every player moves towards his destination within his range; the carrier moves as
    /// his intent says (a carry or a dribble) or stands to pass, cross or shoot.
    pub(super) fn move_players(&mut self, action: Option<&(usize, Candidate)>) {
        let pr = self.rules.params;
        let carrier = action.map(|(c, _)| *c);
        for p in 0..self.state.players.len() {
            if Some(p) == carrier {
                continue;
            }
            let pos = self.state.players[p].pos;
            let target = self.targets[p];
            let gap = pos.dist(target);
            if gap < 0.05 {
                continue;
            }
            let run = self.get(p, self.rules.slots.r_normal);
            let pace = if self.urgent[p] && gap > run * 0.5 {
                2
            } else if gap <= pr.pace_reposition_gap {
                0
            } else if gap > run + pr.pace_sprint_gap {
                2
            } else {
                1
            };
            let range = self.movement_range(p, pace, false, target - pos);
            self.step_to(p, pos.toward(target, range), pace);
        }
        if let Some((c, cand)) = action
            && matches!(cand.kind, Kind::Carry | Kind::Dribble)
        {
            let pos = self.state.players[*c].pos;
            let pace = self.rules.npc.carry.with_ball_pace as usize;
            let range = self.movement_range(*c, pace, true, cand.dest - pos);
            let to = self.rules.pitch.clamp(pos.toward(cand.dest, range));
            self.step_to(*c, to, pace);
            self.state.ball = to;
        }
    }

    fn step_to(&mut self, p: usize, to: V2, pace: usize) {
        let pl = &mut self.state.players[p];
        let d = pl.pos.dist(to);
        if d > 0.0 {
            pl.dir = (to - pl.pos).unit();
        }
        pl.pos = to;
        pl.moved = d;
        pl.pace = pace;
    }

    /// Step 10: stamina costs and recovery, stillness for orientation, distance covered.
    pub(super) fn update_bodies(&mut self) {
        let s = self.rules.slots;
        let (cost_pipe, rec_pipe) = (self.rules.pipes.stamina_cost, self.rules.pipes.stamina_recovery);
        let max = self.rules.params.stamina_max;
        let paces = self.rules.paces;
        for p in 0..self.state.players.len() {
            let (moved, pace, with_ball, duel) = {
                let pl = &self.state.players[p];
                (pl.moved, pl.pace, pl.with_ball, pl.duel)
            };
            self.set(p, s.pace, paces[pace]);
            self.set(p, s.with_ball, if with_ball && moved > 0.0 { 1.0 } else { 0.0 });
            let cost = if moved > 0.0 || duel {
                self.set(p, s.distance, moved);
                self.set(p, s.physical_duel, if duel { 1.0 } else { 0.0 });
                self.estimate(p, cost_pipe).value
            } else {
                0.0
            };
            let recovery = self.estimate(p, rec_pipe).value;
            let pl = &mut self.state.players[p];
            pl.stamina = (pl.stamina - cost + recovery).clamp(0.0, max);
            pl.distance_covered += moved;
            if moved < 0.1 {
                pl.still = pl.still.saturating_add(1);
            } else {
                pl.still = 0;
            }
        }
    }
}
