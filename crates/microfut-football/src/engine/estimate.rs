//! Exact estimates (document §33): the probability that an action's own test succeeds and that
//! the team keeps the ball through it — interceptors, blockers, the keeper, duels and the
//! reception summed over every margin of the roll. No die is drawn.
//!
//! They are methods of the match rather than free functions over `&State` and `&Rules` because
//! they write the context they price (distance, orientation, pressure, stamina, Q_INT) into the
//! players' pipeline inputs, which live in the state, and reuse the match's scratch buffers and
//! duel cache: the inputs are the pipelines' calling convention, not a copy.

use super::content::{CrossNpc, MixedPlan, PassPlan};
use super::geometry::{V2, sqrt_le};
use super::state::{Line, Player, mix};
use super::{Match, Rules};
use microfut_core::dice::Difficulty;
use microfut_core::pipeline::Resolution;

impl Match {
    /// Probability that the carrier keeps the ball at `dest`: 1 unless an opponent can engage him
    /// there, else the exact chance of the duel ending with the carrier keeping it.
    pub(super) fn keep_probability(&mut self, c: usize, dest: V2, dribbling: bool, only: Option<usize>) -> f64 {
        let t = self.play.state.players[c].team;
        let reach = self.rules.params.tackle_reach;
        let engager = match only {
            Some(o) => Some(o),
            None => {
                // The nearest who can get there (the first of equals), each distance taken once.
                let mut best: Option<(f64, usize)> = None;
                for o in self.opponents(t) {
                    let pl = &self.play.state.players[o];
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
        let moving = dribbling || dest != self.play.state.players[c].pos;
        let (cv, dv) = self.duel_values(c, o, moving);
        let keep = self.keep_chance(cv, dv);
        let contain_risk = self.rules.npc.defending.contain_risk;
        // His chance of winning it is the duel just weighed: `would_tackle` would weigh it again.
        match contain_risk {
            Some(share) if only.is_none() && !self.tackles_with(c, o, dest, 1.0 - keep) => 1.0 - share * (1.0 - keep),
            _ => keep,
        }
    }

    /// Where along the ball's path from `from` to `to` (0..1) player `o` can reach it — within
    /// his interception radius of the line (document §30), strictly between its two ends — or
    /// `None`.
    pub(super) fn reaches_line(&self, o: usize, from: V2, to: V2) -> Option<f64> {
        let pos = self.play.state.players[o].pos;
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
        let pl = &self.play.state.players[o];
        pl.line != Line::Goalkeeper || self.rules.pitch.in_own_box(self.frame(pl.team, at))
    }

    /// Whether `o`, taken on and beaten by carrier `c`, is still beaten this round: for the round of
    /// the take-on and the content's `beaten_rounds` after it.
    pub(super) fn still_beaten(&self, o: usize, c: usize) -> bool {
        matches!(self.play.state.players[o].beaten_by, Some((b, r))
            if b == c && f64::from(self.play.state.round.saturating_sub(r)) <= self.rules.params.beaten_rounds)
    }

    /// The test a defender challenges with: a keeper smothers with his hands (his claim test),
    /// an outfield player tackles.
    pub(super) fn tackle_pipe(&self, o: usize) -> usize {
        if self.play.state.players[o].line == Line::Goalkeeper {
            self.rules.pipes.claim
        } else {
            self.rules.pipes.tackle
        }
    }

    /// A defender's choice (content `defending`): tackle when his chance of winning the ball is
    /// good enough, or when the carrier at `at` threatens enough that he cannot be let through.
    pub(super) fn would_tackle(&mut self, c: usize, o: usize, at: V2, moving: bool) -> bool {
        let (cv, dv) = self.duel_values(c, o, moving);
        let win = 1.0 - self.keep_chance(cv, dv);
        self.tackles_with(c, o, at, win)
    }

    /// [`Match::would_tackle`] for a defender whose chance of winning the duel is `win`.
    fn tackles_with(&mut self, c: usize, o: usize, at: V2, win: f64) -> bool {
        let d = self.rules.npc.defending;
        // 0.6: defenders differ in how much they dare — the threshold moves within ± half the
        // content's spread, by a hash of (seed, round, defender, carrier): deterministic, no die.
        let threshold = match d.tackle_spread {
            Some(spread) => {
                let h = mix(&[self.play.seed, self.play.state.round as u64, o as u64, c as u64, 0x7ac1e]);
                d.tackle_min_chance + spread * ((h >> 11) as f64 / (1u64 << 53) as f64 - 0.5)
            }
            None => d.tackle_min_chance,
        };
        if win >= threshold {
            return true;
        }
        let t = self.play.state.players[c].team;
        let spot = self.frame(t, at);
        self.map(c, self.rules.pipes.opportunity, spot) >= d.tackle_threat
    }

    /// Values of the carrier's dribble (or shielding) test and the defender's tackle.
    /// Difficulties of the carrier's dribble (or shielding) test and the defender's tackle,
    /// cached for the round: they depend on who and how, not on where.
    pub(super) fn duel_values(&mut self, c: usize, o: usize, moving: bool) -> (Difficulty, Difficulty) {
        if let Some(&(_, _, _, v)) = self.scratch.duel_cache.iter().find(|e| e.0 == c && e.1 == o && e.2 == moving) {
            return v;
        }
        self.set_match_state(c);
        self.set_match_state(o);
        let pipes = self.rules.pipes;
        let cp = if moving { pipes.dribble } else { pipes.protection };
        let v = (self.difficulty(c, cp), self.difficulty(o, self.tackle_pipe(o)));
        self.scratch.duel_cache.push((c, o, moving, v));
        v
    }

    /// Exact chance the carrier keeps the ball in a duel, from both difficulties.
    pub(super) fn keep_chance(&self, carrier_difficulty: Difficulty, defender_difficulty: Difficulty) -> f64 {
        self.rules.duels.keep_of(carrier_difficulty, defender_difficulty)
    }

    /// (pass test probability, exact probability the team keeps the ball through the pass):
    /// summed over the pass's margins — where it arrives, whether each interceptor on the line
    /// beats it (with that margin's Q_INT), whether the receiver controls it (with its Q_REC).
    pub(super) fn pass_estimate(&mut self, c: usize, r: usize, to: V2, pipe: usize) -> (f64, f64) {
        let (p_pass, difficulty) = self.pass_test(c, to, pipe);
        match difficulty {
            Some(d) => (p_pass, self.pass_keep(c, r, to, d)),
            None => (p_pass, 0.0),
        }
    }

    /// The pass's own test from the carrier to `to`: (its chance, its difficulty when the pass
    /// is possible; a pass that is not has chance 0). The cheap half of [`Match::pass_estimate`]:
    /// one pipeline on the carrier's inputs.
    pub(super) fn pass_test(&mut self, c: usize, to: V2, pipe: usize) -> (f64, Option<Difficulty>) {
        let s = self.rules.slots;
        let from = self.play.state.players[c].pos;
        self.set(c, s.distance, from.dist(to));
        self.set_orientation(c, to);
        let res = self.estimate(c, pipe);
        match res.diff().filter(|_| res.possible) {
            Some(d) => (res.chance(), Some(d)),
            None => (0.0, None),
        }
    }

    /// An upper bound of [`Match::pass_keep`] for a pass of this difficulty, from its plan
    /// alone: the chance of the margins that leave the ball within the receiver's reach. The
    /// exact keep weighs each of those margins by the chance it gets past every interceptor
    /// (a product of `1 − chance`, each in [0, 1]) and is controlled (a chance in [0, 1]), so
    /// it can only be lower (up to the rounding of sums of probabilities, ~1e-16, which the
    /// NPC's bound leaves room for).
    pub(super) fn pass_keep_bound(&self, difficulty: Difficulty) -> f64 {
        let rules = &*self.rules;
        let (odds, pr) = (&rules.rs.odds, &rules.params);
        let sum = |list: &[(i32, f64, usize)]| list.iter().map(|&(_, p, _)| p).sum::<f64>();
        if difficulty.f == 0.0 {
            match rules.pass_plans.get(difficulty.d) {
                Some(plan) => sum(&plan.reachable),
                None => sum(&PassPlan::build(difficulty.d, odds, &rules.margins, pr).reachable),
            }
        } else {
            let (lo, hi) = match rules.pass_plans.mixed(difficulty.d) {
                Some(plan) => (sum(&plan.lo), sum(&plan.hi)),
                None => {
                    let plan = MixedPlan::build(difficulty.d, odds, &rules.margins, pr);
                    (sum(&plan.lo), sum(&plan.hi))
                }
            };
            (1.0 - difficulty.f) * lo + difficulty.f * hi
        }
    }

    /// The expensive half of [`Match::pass_estimate`]: the exact probability the team keeps the
    /// ball through a pass of this difficulty (interceptors and the receiver's control). Reads
    /// and writes only the interceptors' and the receiver's inputs, so it may run after other
    /// candidates were priced (the NPC's lazy evaluation) and give the same value.
    pub(super) fn pass_keep(&mut self, c: usize, r: usize, to: V2, difficulty: Difficulty) -> f64 {
        let mut sc = std::mem::take(&mut self.scratch.pass);
        sc.clear();
        let out = self.pass_keep_with(&mut sc, c, r, to, difficulty);
        self.scratch.pass = sc;
        out
    }

    fn pass_keep_with(&mut self, sc: &mut PassScratch, c: usize, r: usize, to: V2, difficulty: Difficulty) -> f64 {
        self.set_pass_context(sc, c, r, to);
        // Borrowed field by field: the rules are read while the players' inputs are written.
        let rules = &*self.rules;
        let (mut built, mut built_mixed) = (None, None);
        let plans = pass_plans(rules, difficulty, &mut built, &mut built_mixed);
        if plans.q_ints.is_empty() {
            return 0.0;
        }
        let nonfinite = pass_tests(rules, &mut self.play.state.players, sc, r, &plans);
        if let Some((pipe, res)) = nonfinite {
            self.check_finite(pipe, &res);
        }
        pass_keep_sum(rules, sc, &plans)
    }

    /// The context of a pass from `c` to `r` at `to`: the interceptors on its line (noted in
    /// `sc`) and the receiver, each as the tests will read them.
    fn set_pass_context(&mut self, sc: &mut PassScratch, c: usize, r: usize, to: V2) {
        let from = self.play.state.players[c].pos;
        let t = self.play.state.players[c].team;
        for o in self.opponents(t) {
            if let Some(along) = self.reaches_line(o, from, to) {
                sc.on_line.push((o, from + (to - from) * along));
            }
        }
        for &(o, meet) in &sc.on_line {
            self.set_match_state(o);
            self.set_orientation(o, meet);
        }
        self.set_pressure(r, to);
        self.set_orientation(r, from);
        self.set_match_state(r);
    }

    /// (cross test probability, probability the attacking side wins the ball in the box,
    /// probability the cross is headed in by its best header, that probability as the NPC
    /// prices it — see [`Match::strike_estimate`]).
    pub(super) fn cross_estimate(&mut self, c: usize, landing: V2, pipe: usize) -> (f64, f64, f64, f64) {
        let s = self.rules.slots;
        let from = self.play.state.players[c].pos;
        self.set(c, s.distance, from.dist(landing));
        self.set_orientation(c, landing);
        let p_cross = self.estimate(c, pipe).chance();
        let (best, header) = self.aerial_contest(c, landing);
        let win = match best {
            [None, _] => 0.0,
            [Some(_), None] => 1.0,
            [Some(a), Some(b)] => self.rules.duels.win_of(a, b),
        };
        let keep = p_cross * win;
        // Where the best header of the attacking side would head from, if he wins it.
        let (goal, priced) = match header {
            Some((_, h)) if keep > 0.0 => {
                let (p_goal, p_priced) = self.header_goal(c, h, landing);
                (keep * p_goal, keep * p_priced)
            }
            _ => (0.0, 0.0),
        };
        (p_cross, keep, goal, priced)
    }

    /// The best header of each side within reach of `c`'s cross landing at `landing` after this
    /// round's runs — the easiest (lowest difficulty) of each — and the attacking side's
    /// header with who heads it.
    fn aerial_contest(&mut self, c: usize, landing: V2) -> AerialContest {
        let t = self.play.state.players[c].team;
        let mut best: [Option<Difficulty>; 2] = [None, None];
        let mut header: Option<(Difficulty, usize)> = None;
        let rules = self.rules.clone();
        let content = rules.npc.cross.as_ref();
        for p in 0..self.play.state.players.len() {
            let Some(pipe) = self.aerial_test(c, p, landing, content) else { continue };
            self.set_match_state(p);
            let Some(d) = self.estimate(p, pipe).diff() else { continue };
            let side = usize::from(self.play.state.players[p].team != t);
            best[side] = Some(best[side].map_or(d, |b: Difficulty| if d.real() < b.real() { d } else { b }));
            if side == 0 && header.is_none_or(|(hd, _): (Difficulty, usize)| d.real() < hd.real()) {
                header = Some((d, p));
            }
        }
        (best, header)
    }

    /// The test player `p` contests `c`'s cross with, if he gets there: a keeper claims near the
    /// landing point inside his own box (as in the duel itself; 0.5's estimate left keepers out);
    /// team-mates of the runners' lines run onto it this round (0.5: attackers and midfielders)
    /// and defenders track them, both reaching the landing zone at a sprint.
    fn aerial_test(&mut self, c: usize, p: usize, landing: V2, content: Option<&CrossNpc>) -> Option<usize> {
        let t = self.play.state.players[c].team;
        let pl = &self.play.state.players[p];
        let keeper = pl.line == Line::Goalkeeper;
        if p == c || (keeper && content.is_none()) {
            return None;
        }
        if keeper {
            return (pl.team != t && self.keeper_claims(p, landing)).then_some(self.rules.pipes.claim);
        }
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
            (true, None) => pl.inputs.get(self.rules.slots.r_sprint),
        };
        if self.play.state.players[p].pos.dist(landing) > self.rules.params.aerial_contest_radius + reach {
            return None;
        }
        Some(self.rules.pipes.aerial_duel)
    }

    /// The goal chance of `h` heading `c`'s cross from `landing` (as it is, and as the NPC
    /// prices it): he and the keeper are placed as they will be, then put back.
    fn header_goal(&mut self, c: usize, h: usize, landing: V2) -> (f64, f64) {
        let t = self.play.state.players[c].team;
        let from = self.play.state.players[c].pos;
        let at = self.play.state.players[h].pos;
        self.play.state.players[h].pos = landing;
        // The keeper sets himself during the flight as he will in play (engine 0.5.9).
        let reset = self
            .keeper_reset(t, from, landing)
            .map(|(k, to)| (k, std::mem::replace(&mut self.play.state.players[k].pos, to)));
        let (_, p_goal, p_priced) = self.strike_estimate(h, self.rules.pipes.header);
        if let Some((k, stood)) = reset {
            self.play.state.players[k].pos = stood;
        }
        self.play.state.players[h].pos = at;
        (p_goal, p_priced)
    }

    /// (strike test probability, probability of a goal, that probability as the NPC prices it),
    /// for a shot (`finishing`) or a header at goal (`header`) from where the striker stands:
    /// summed over the strike's margins — whether it is on target, whether each defender on its
    /// line blocks it (with that margin's Q_INT), whether the keeper saves it (with that margin's
    /// placement). Priced (engine 0.5.6): the same sum with the content's expected keeper in
    /// goal and its expected context on everyone in the strike; absent, the two are one.
    pub(super) fn strike_estimate(&mut self, c: usize, pipe: usize) -> (f64, f64, f64) {
        let (res, target) = self.prepare_strike(c, pipe);
        let p_success = res.chance();
        let Some(difficulty) = res.diff().filter(|_| res.possible) else { return (0.0, 0.0, 0.0) };
        let t = self.play.state.players[c].team;
        let from = self.play.state.players[c].pos;
        let keeper = self.keeper(1 - t);
        self.prepare_keeper(keeper, c);
        let mut sc = std::mem::take(&mut self.scratch.strike);
        sc.clear();
        if !self.play.penalty_kick {
            for o in self.opponents(t) {
                if self.play.state.players[o].line == Line::Goalkeeper {
                    continue;
                }
                if let Some(along) = self.reaches_line(o, from, target) {
                    sc.blockers.push((o, from + (target - from) * along));
                }
            }
        }
        for &(o, meet) in &sc.blockers {
            self.set_match_state(o);
            self.set_orientation(o, meet);
        }
        let goal = self.strike_goal(difficulty, keeper, &mut sc);
        let npc = &self.rules.npc;
        let priced = if npc.expected_keeper.is_empty()
            && npc.expected_context.is_empty()
            && npc.expected_shooter.is_empty()
        {
            goal
        } else {
            let rules = self.rules.clone();
            let mut own = std::mem::take(&mut self.planner.expected_own);
            own.clear();
            let keepers = rules.npc.expected_keeper.iter().map(|&(slot, v)| (keeper, slot, v));
            let everyone = [c, keeper].into_iter().chain(sc.blockers.iter().map(|b| b.0));
            let context =
                rules.npc.expected_context.iter().flat_map(|&(slot, v)| everyone.clone().map(move |p| (p, slot, v)));
            let shooter = rules.npc.expected_shooter.iter().map(|&(slot, v)| (c, slot, v));
            self.swap_in(&mut own, keepers.chain(context).chain(shooter));
            let again = if rules.npc.expected_context.is_empty() && rules.npc.expected_shooter.is_empty() {
                Some(difficulty)
            } else {
                let r = self.estimate(c, pipe);
                r.diff().filter(|_| r.possible)
            };
            // The blockers' tests read the context, not the keeper: kept unless it changed.
            if !rules.npc.expected_context.is_empty() {
                sc.q_ints.clear();
                sc.diffs.clear();
            }
            sc.keeper.clear();
            let g = again.map_or(0.0, |d| self.strike_goal(d, keeper, &mut sc));
            self.put_back(&own);
            self.planner.expected_own = own;
            g
        };
        self.scratch.strike = sc;
        (p_success, goal, priced)
    }

    /// The probability a strike of this difficulty ends in a goal, its blockers and keeper set.
    fn strike_goal(&mut self, difficulty: Difficulty, keeper: usize, sc: &mut StrikeScratch) -> f64 {
        let s = self.rules.slots;
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
                            sc.diffs.push(self.difficulty(o, self.rules.pipes.block));
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
                        let b = self.keeper_beaten(keeper, margin);
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
        goal
    }

    /// The chance a shot with this margin beats keeper `k` (his context already set).
    fn keeper_beaten(&mut self, k: usize, margin: i32) -> f64 {
        self.set_scaled(k, self.rules.slots.shot_margin, margin as f64);
        let save = self.estimate(k, self.rules.pipes.save);
        // A keeper who cannot reach the shot does not save it.
        match save.diff().filter(|_| save.possible) {
            Some(d) => self.beat_keeper(margin, d),
            None => 1.0,
        }
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

/// The (Q_INT, Q_REC) pairs a pass of some difficulty reaches and its margins over them: a
/// whole difficulty has one plan; a fractional one (0.6) both neighbours' margins, in
/// proportion, over one list of pairs.
struct PassPlans<'a> {
    q_ints: &'a [f64],
    q_recs: &'a [f64],
    /// (margin, probability, pair) lists with their weights.
    parts: [(Margins<'a>, f64); 2],
}

/// Each side's easiest header of a cross, and the attacking side's with who heads it.
type AerialContest = ([Option<Difficulty>; 2], Option<(Difficulty, usize)>);

/// A pass's reachable margins: (margin, probability, pair).
type Margins<'a> = &'a [(i32, f64, usize)];

/// The revision's plan for `difficulty`, or one built now into `built` / `built_mixed`.
fn pass_plans<'a>(
    rules: &'a Rules,
    difficulty: Difficulty,
    built: &'a mut Option<PassPlan>,
    built_mixed: &'a mut Option<MixedPlan>,
) -> PassPlans<'a> {
    let odds = &rules.rs.odds;
    if difficulty.f == 0.0 {
        let plan = match rules.pass_plans.get(difficulty.d) {
            Some(plan) => plan,
            None => built.insert(PassPlan::build(difficulty.d, odds, &rules.margins, &rules.params)),
        };
        return PassPlans { q_ints: &plan.q_ints, q_recs: &plan.q_recs, parts: [(&plan.reachable, 1.0), (&[], 0.0)] };
    }
    let plan = match rules.pass_plans.mixed(difficulty.d) {
        Some(plan) => plan,
        None => built_mixed.insert(MixedPlan::build(difficulty.d, odds, &rules.margins, &rules.params)),
    };
    PassPlans {
        q_ints: &plan.q_ints,
        q_recs: &plan.q_recs,
        parts: [(&plan.lo, 1.0 - difficulty.f), (&plan.hi, difficulty.f)],
    }
}

/// Every interceptor's difficulty at each pair's Q_INT (`sc.diffs[pair * n + i]`) and the
/// receiver `r`'s keep chance at each Q_REC (`sc.control`); the first non-finite evaluation.
fn pass_tests(
    rules: &Rules,
    players: &mut [Player],
    sc: &mut PassScratch,
    r: usize,
    plans: &PassPlans,
) -> Option<(usize, Resolution)> {
    let (s, pipes) = (rules.slots, rules.pipes);
    let pairs = plans.q_ints.len();
    let n = sc.on_line.len();
    sc.diffs.resize(pairs * n, Difficulty::whole(0));
    let interception = &rules.rs.pipelines[pipes.interception];
    let mut nonfinite = None;
    for (i, &(o, _)) in sc.on_line.iter().enumerate() {
        let diffs = &mut sc.diffs;
        interception.resolve_each(&mut players[o].inputs, s.q_int, plans.q_ints, |k, res| {
            if res.nonfinite.is_some() {
                nonfinite.get_or_insert((pipes.interception, res));
            }
            diffs[k * n + i] = res.diff().expect("the engine's action pipelines are checked at load");
        });
    }
    sc.control.resize(pairs, 0.0);
    let control = &mut sc.control;
    rules.rs.pipelines[pipes.control].resolve_each(&mut players[r].inputs, s.q_rec, plans.q_recs, |k, res| {
        if res.nonfinite.is_some() {
            nonfinite.get_or_insert((pipes.control, res));
        }
        let d = res.diff().expect("the engine's action pipelines are checked at load");
        control[k] = rules.margins.control_keep_of(d);
    });
    nonfinite
}

/// The chance the team keeps the ball: over the pass's margins, every interceptor failing and
/// the receiver controlling it.
fn pass_keep_sum(rules: &Rules, sc: &PassScratch, plans: &PassPlans) -> f64 {
    let compare = rules.params.interception_rule != 0.0;
    let odds = &rules.rs.odds;
    let n = sc.on_line.len();
    let mut keep = 0.0;
    for (list, w) in plans.parts {
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
    keep
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
