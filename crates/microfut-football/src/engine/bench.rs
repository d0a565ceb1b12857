//! Substitutions (0.6): the bench comes on for tired players at stoppages.
//!
//! The problem: setup named a bench that nothing used, and a whole side could finish a match on
//! its last legs. The decision: a revision may declare `substitutions` in its formations document
//! (from which minute, how tired a player must be, how many a side may make and how many at one
//! stoppage). At each stoppage — whenever a restart is taken — each side replaces its most tired
//! outfield players below the threshold with the best bench player of the same line (the bench
//! is ordered by quality when it is named); the substitute starts fresh where the tired man
//! stood. No dice are drawn. Limits: no injuries, no tactical changes, keepers are not replaced.
//! Revisions without the rule name no bench and replace nobody.

use super::Match;
use super::events::EventKind;
use super::state::Line;
use std::sync::Arc;

impl Match {
    /// Makes the substitutions the content's rule calls for at this stoppage; `taker` (the
    /// player about to take the restart) stays on.
    pub(super) fn substitutions(&mut self, taker: Option<usize>) {
        let Some(rule) = self.rules.substitutions else { return };
        if self.play.state.minute(self.rules.clock.half_seconds) < rule.from_minute {
            return;
        }
        for t in 0..2 {
            let mut now = 0;
            while self.play.stats[t].substitutions < rule.max && now < rule.per_stoppage {
                let tired = self.play.sides[t]
                    .clone()
                    .filter(|&p| Some(p) != taker && self.play.state.holder() != Some(p))
                    .filter(|&p| self.play.state.players[p].line != Line::Goalkeeper)
                    .filter(|&p| self.play.state.players[p].stamina < rule.stamina_below)
                    .min_by(|&a, &b| {
                        self.play.state.players[a]
                            .stamina
                            .total_cmp(&self.play.state.players[b].stamina)
                            .then(a.cmp(&b))
                    });
                let Some(p) = tired else { break };
                if !self.bring_on(t, p) {
                    break;
                }
                now += 1;
            }
        }
    }

    /// Replaces player `p` of side `t` with the best bench player of his line (or, failing one,
    /// the best outfield one); false when the bench has nobody to send on.
    fn bring_on(&mut self, t: usize, p: usize) -> bool {
        let line = self.play.state.players[p].line;
        let rules = self.rules.clone();
        let line_of = |k: usize| rules.roles.line_of(&self.play.teams[t].club.squad[k].role).and_then(Line::from_id);
        let bench = &self.play.teams[t].bench;
        let Some(i) = bench
            .iter()
            .position(|&k| line_of(k) == Some(line))
            .or_else(|| bench.iter().position(|&k| line_of(k) != Some(Line::Goalkeeper)))
        else {
            return false;
        };
        let k = self.play.teams[t].bench.remove(i);
        let sheet = &self.play.teams[t].club.squad[k];
        // Bench sheets were checked with the squad when the match was set up.
        let Ok(mut inputs) = sheet.values(&rules.rs) else { return false };
        if let Some(away) = rules.slots.away_side {
            inputs.set(away, t as f64);
        }
        let off = self.who(p);
        let slot = self.play.state.players[p].slot;
        self.play.teams[t].lineup[slot] = k;
        let club_id = self.play.teams[t].club.id.clone();
        let id: Arc<str> = Arc::from(format!("{club_id}#{} {}", sheet.shirt, sheet.name));
        let shirt = sheet.shirt;
        let pl = &mut self.play.state.players[p];
        pl.sheet = k;
        pl.shirt = shirt;
        pl.inputs = inputs;
        pl.stamina = rules.params.stamina_start;
        pl.still = 0;
        pl.error = super::geometry::V2::ZERO;
        pl.beaten_by = None;
        self.scratch.recovery_memo[p] = super::movement::RecoveryMemo::default();
        self.scratch.range_memo[p] = super::movement::RangeMemo::default();
        self.chronicle.log_ids[p].1 = id;
        self.play.stats[t].substitutions += 1;
        let on = self.who(p);
        self.event(EventKind::Substitution { off, on });
        true
    }
}
