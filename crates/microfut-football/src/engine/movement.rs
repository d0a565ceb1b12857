//! Movement within physical ranges (document §21) and the stamina it costs; body orientation.

use super::Match;
use super::candidate::{Candidate, Kind};
use super::content::{MEMO_KEY, RANGE_KEY};
use super::geometry::{V2, angle_between};

/// A pipeline's value per context key for one player, direct-mapped: a key has one place, a
/// hit compares one key, a new key takes its place from whatever was there. Exact — an entry is
/// the pipeline's own result for its whole key — and of fixed size, so a key that changes
/// every round (a value keyed by its bits) only costs a miss. `N` is a power of two.
/// (A small LRU list was searched linearly before: the key comparisons were most of the cost
/// of a hit, and a dozen live keys — three paces × four turns — overflowed it.)
#[derive(Debug, Clone, Copy)]
pub(super) struct Memo<const K: usize, const N: usize> {
    entries: [([u64; K], f64); N],
    filled: [bool; N],
}

impl<const K: usize, const N: usize> Default for Memo<K, N> {
    fn default() -> Self {
        Memo { entries: [([0; K], 0.0); N], filled: [false; N] }
    }
}

impl<const K: usize, const N: usize> Memo<K, N> {
    fn place(key: &[u64; K]) -> usize {
        // Fx-style mixing; the top bits pick the place.
        let h = key.iter().fold(0u64, |h, &k| (h.rotate_left(5) ^ k).wrapping_mul(0x517c_c1b7_2722_0a95));
        (h >> (64 - N.trailing_zeros())) as usize
    }

    fn get(&self, key: &[u64; K]) -> Option<f64> {
        let i = Self::place(key);
        (self.filled[i] && self.entries[i].0 == *key).then_some(self.entries[i].1)
    }

    fn put(&mut self, key: [u64; K], v: f64) {
        let i = Self::place(&key);
        self.entries[i] = (key, v);
        self.filled[i] = true;
    }
}

/// A player's stamina recovery per context (it reads little besides the pace, so the same few
/// values repeat all match).
pub(super) type RecoveryMemo = Memo<MEMO_KEY, 8>;

/// A player's movement ranges per context, keyed by what the range reads: a value read only
/// through range tables by its bin (two values in the same bin give the same range, bit for
/// bit), any other by its bits.
pub(super) type RangeMemo = Memo<RANGE_KEY, 64>;

/// The key of a value read only through range tables whose sorted bin ends are `ends`: twice
/// the number of ends below it, plus one when it lies exactly on an end (a closed end may
/// belong to either bin). NaN keys by its bits.
fn bin_key(v: f64, ends: Option<&[f64]>) -> u64 {
    match ends {
        Some(ends) if !v.is_nan() => {
            let k = ends.partition_point(|&e| e < v);
            2 * k as u64 + u64::from(ends.get(k) == Some(&v))
        }
        _ => v.to_bits(),
    }
}

impl Match {
    /// The range a player covers this round at a pace, with or without the ball, turning towards
    /// `dir` (content's `movement_range`).
    pub(super) fn movement_range(&mut self, p: usize, pace: usize, with_ball: bool, dir: V2) -> f64 {
        let s = self.rules.slots;
        let from = self.play.state.players[p].dir;
        let turn = match &self.rules.direction_change_plan {
            Some(plan) => plan.angle(from, dir),
            None => angle_between(from, dir),
        };
        let paces = self.rules.paces;
        self.set_match_state(p);
        self.set(p, s.pace, paces[pace]);
        self.set(p, s.with_ball, if with_ball { 1.0 } else { 0.0 });
        self.set(p, s.direction_change, turn);
        let pipe = self.rules.pipes.movement_range;
        let Some(ctx) = self.rules.range_memo.as_deref() else {
            return self.estimate(p, pipe).value.max(0.0);
        };
        let mut key = [0u64; RANGE_KEY];
        for (k, (slot, ends)) in key.iter_mut().zip(ctx) {
            *k = bin_key(self.play.state.players[p].inputs.get(*slot), ends.as_deref());
        }
        if let Some(v) = self.scratch.range_memo[p].get(&key) {
            return v;
        }
        let v = self.estimate(p, pipe).value.max(0.0);
        self.scratch.range_memo[p].put(key, v);
        v
    }

    /// Step 4: every player moves towards his destination within his range; the carrier moves as
    /// his intent says (a carry or a dribble) or stands to pass, cross or shoot.
    pub(super) fn move_players(&mut self, action: Option<&(usize, Candidate)>) {
        let pr = self.rules.params;
        let carrier = action.map(|(c, _)| *c);
        for p in 0..self.play.state.players.len() {
            if Some(p) == carrier {
                continue;
            }
            let pos = self.play.state.players[p].pos;
            let target = self.scratch.targets[p];
            let gap = pos.dist(target);
            if gap < pr.arrival_tolerance {
                continue;
            }
            let run = self.get(p, self.rules.slots.r_normal);
            let pace = if self.scratch.urgent[p] && gap > run * pr.urgent_sprint_share {
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
            let pos = self.play.state.players[*c].pos;
            let pace = self.rules.npc.carry.with_ball_pace as usize;
            let range = self.movement_range(*c, pace, true, cand.dest - pos);
            let to = self.rules.pitch.clamp(pos.toward(cand.dest, range));
            self.step_to(*c, to, pace);
            self.play.state.ball = to;
        }
    }

    fn step_to(&mut self, p: usize, to: V2, pace: usize) {
        let pl = &mut self.play.state.players[p];
        let d = pl.pos.dist(to);
        if d > 0.0 {
            // `unit()` of the same vector, its length already known (bit for bit the same).
            pl.dir = (to - pl.pos) * (1.0 / d);
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
        let still = self.rules.params.still_threshold;
        let paces = self.rules.paces;
        for p in 0..self.play.state.players.len() {
            let (moved, pace, with_ball, duel) = {
                let pl = &self.play.state.players[p];
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
            let recovery = self.recovery(p, rec_pipe);
            let pl = &mut self.play.state.players[p];
            pl.stamina = (pl.stamina - cost + recovery).clamp(0.0, max);
            pl.distance_covered += moved;
            if moved < still {
                pl.still = pl.still.saturating_add(1);
            } else {
                pl.still = 0;
            }
        }
    }

    /// Stamina recovery of player `p` in his current context, remembered per context value
    /// (bit for bit) when the revision's recovery reads few of them.
    fn recovery(&mut self, p: usize, pipe: usize) -> f64 {
        let Some(ctx) = self.rules.recovery_memo.as_deref() else {
            return self.estimate(p, pipe).value;
        };
        let mut key = [0u64; MEMO_KEY];
        for (k, &slot) in key.iter_mut().zip(ctx) {
            *k = self.play.state.players[p].inputs.get(slot).to_bits();
        }
        if let Some(v) = self.scratch.recovery_memo[p].get(&key) {
            return v;
        }
        let v = self.estimate(p, pipe).value;
        self.scratch.recovery_memo[p].put(key, v);
        v
    }
}

#[cfg(test)]
mod tests {
    use super::super::geometry::V2;
    use super::super::{Match, Options, Rules};
    use crate::club::Club;
    use microfut_core::catalog::{Catalog, ContentTree};
    use std::sync::Arc;

    fn rules_with_recovery(expr: Option<&str>) -> (Arc<Rules>, Club) {
        let catalog = Catalog::load(&ContentTree::embedded());
        let mut rev = catalog.revision("microfut", Some("0.5.4")).unwrap().clone();
        if let Some(expr) = expr {
            let doc = rev.documents.get_mut("derived.json").unwrap();
            let p = doc["derived"].as_array_mut().unwrap().iter_mut().find(|p| p["id"] == "stamina_recovery").unwrap();
            p["base"]["expr"] = serde_json::json!(expr);
        }
        let rs = microfut_core::ruleset::compile(&rev).expect("compiles");
        let club =
            Club::from_value(catalog.rulesets["microfut"].extra["clubs/sociedade_esportiva_serra_azul.json"].clone())
                .unwrap();
        (Arc::new(Rules::new(Arc::new(rs)).unwrap()), club)
    }

    /// The remembered movement range is the pipeline's own result, bit for bit, for every
    /// pace, with and without the ball, across direction changes and staminas on both sides of
    /// and exactly on its fatigue table's ends — keyed by stamina's bin, not its value.
    #[test]
    fn remembered_movement_range_is_the_pipelines_result() {
        for version in ["0.5.4", "0.6.0"] {
            let catalog = Catalog::load(&ContentTree::embedded());
            let rules = crate::run::rules_for(&catalog, Some(version)).unwrap();
            let club = Club::from_value(
                catalog.rulesets["microfut"].extra["clubs/sociedade_esportiva_serra_azul.json"].clone(),
            )
            .unwrap();
            let key = rules.range_memo.as_ref().expect("movement range is memoised");
            let s = rules.slots;
            let stamina_ends = key.iter().find(|k| k.0 == s.stamina).and_then(|k| k.1.clone());
            let ends = stamina_ends.expect("stamina is read only through its table");
            let mut staminas: Vec<f64> = ends.iter().flat_map(|&e| [e - 0.5, e, e + 1e-9, e + 0.5]).collect();
            staminas.extend([0.0, 100.0, 37.25]);
            let mut memo = Match::new(rules.clone(), &club, &club, 1, Options::default()).unwrap();
            let mut plain = Match::new(rules.clone(), &club, &club, 1, Options::default()).unwrap();
            let dirs = [V2::new(1.0, 0.0), V2::new(0.0, 1.0), V2::new(-1.0, 0.2), V2::new(0.3, -1.0)];
            for _ in 0..2 {
                for p in [0, 5, 13] {
                    for &st in &staminas {
                        for pace in 0..3 {
                            for with_ball in [false, true] {
                                for d in dirs {
                                    memo.play.state.players[p].stamina = st;
                                    plain.play.state.players[p].stamina = st;
                                    let got = memo.movement_range(p, pace, with_ball, d);
                                    plain.movement_range(p, pace, with_ball, d);
                                    let want = plain.estimate(p, rules.pipes.movement_range).value.max(0.0);
                                    assert_eq!(got.to_bits(), want.to_bits(), "{version} player {p} stamina {st}");
                                }
                            }
                        }
                    }
                }
            }
        }
    }

    /// A memo answers a key only with what was put under that same key: with many more keys
    /// than places, some share one, and a shared place must miss, not answer another key's value.
    #[test]
    fn a_memo_answers_only_its_own_key() {
        let mut memo = super::Memo::<3, 8>::default();
        let keys: Vec<[u64; 3]> = (0..200u64).map(|i| [i % 7, i / 7, (i * 31) % 5]).collect();
        let mut misses = 0;
        for (i, k) in keys.iter().enumerate() {
            memo.put(*k, i as f64);
            assert_eq!(memo.get(k), Some(i as f64), "the latest key is always found");
            for (j, other) in keys[..i].iter().enumerate() {
                match memo.get(other) {
                    Some(v) => assert_eq!(v, j as f64, "key {other:?} answered another key's value"),
                    None => misses += 1,
                }
            }
        }
        assert!(misses > 0, "200 keys in 8 places must share places");
    }

    /// The remembered recovery is the pipeline's own result, bit for bit, in every context it is
    /// asked in — also when a revision's recovery reads more than the pace (the memo keys on
    /// every context value it reads, or stands aside when they are too many).
    #[test]
    fn remembered_recovery_is_the_pipelines_result() {
        for (expr, memo) in [
            (None, Some(1)),
            (Some("0.25 + 0.02 * res_practical + 0.001 * stamina"), Some(2)),
            (Some("0.2 + 0.001 * stamina + 0.01 * distance + 0.01 * with_ball + 0.01 * minute"), None),
        ] {
            let (rules, club) = rules_with_recovery(expr);
            assert_eq!(rules.recovery_memo.as_ref().map(Vec::len), memo, "{expr:?}");
            let pipe = rules.pipes.stamina_recovery;
            let s = rules.slots;
            let mut m = Match::new(rules.clone(), &club, &club, 1, Options::default()).unwrap();
            for round in 0..3 {
                for p in 0..m.play.state.players.len() {
                    for pace in 0..3 {
                        for stamina in [100.0, 61.5, 12.0] {
                            m.set(p, s.pace, rules.paces[pace]);
                            m.set(p, s.stamina, stamina);
                            m.set(p, s.distance, round as f64);
                            let want = m.estimate(p, pipe).value;
                            assert_eq!(m.recovery(p, pipe).to_bits(), want.to_bits(), "{expr:?} player {p}");
                        }
                    }
                }
            }
        }
    }
}
