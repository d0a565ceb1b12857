//! Pricing a person's candidates (issue 50): the odds shown are the odds rolled.
//!
//! The problem: candidates are generated at step 3 of the round, on where the players stand
//! when the carrier gets the ball; the action is rolled after step 4, when everyone has moved —
//! pressers closed in, runners reached the box, the carrier ran with the ball. The NPC weighs
//! its choice on the earlier positions (an estimate, which it keeps: recorded runs replay its
//! choices bit for bit), but a person shown 58 % for a shot that is rolled at 22 % has been
//! misled.
//!
//! The decision: for each candidate of a pending human decision, step 4 is played for that
//! candidate on the match as it stands (`Match::step_four`, the code `finish_round` runs; it
//! draws no die, so what follows the declaration up to the roll is known exactly), the action's
//! test inputs are set by the functions the action itself rolls with (`prepare_pass`,
//! `prepare_cross`, `prepare_strike`, `prepare_penalty`, `prepare_duel`, and the choice of
//! challenger `challenger` / `would_tackle`), and the same pipeline is evaluated: the chance
//! shown is the `probability` of the roll, bit for bit. Then everything step 4 and the setters
//! wrote is put back (`Saved`): the state with every player's inputs, destinations, the round's
//! duel cache, the movement memos and the fault cell; no die is drawn. A carry or a dribble has
//! no test of its own: after the run either nobody can reach the carrier, the man who can holds
//! off, or a duel is fought — its odds are both tests' chances and the exact chance the carrier
//! wins it over both margins, and the headline is the chance his side keeps the ball (or is
//! given a free kick) through it. A shot's and a penalty's goal chance are exact on the same
//! geometry (blockers, the keeper, the keeper's dive). What stays an estimate — a pass's or a
//! cross's chance to keep the ball, a header's goal — is the NPC's, labelled so by every front
//! end.
//!
//! `explain_candidate` explains the same evaluation, traced.

use super::Match;
use super::candidate::{Branch, Candidate, Kind, Odds, TestOdds};
use super::content::DuelOutcome;
use super::geometry::V2;
use super::state::{RestartKind, State};
use microfut_core::pipeline::Resolution;

/// What a declared candidate comes to after step 4, with its tests' inputs set as the action
/// sets them before rolling.
enum Prepared {
    /// The action's own test (pipeline, its evaluation).
    Test(usize, Resolution),
    /// A duel: the carrier's test, the defender and his test.
    Duel { carrier: (usize, Resolution), defender: usize, tackle: (usize, Resolution) },
    /// No test will be rolled.
    None(Branch),
}

/// Everything step 4 and a test's setters write, to be put back after a read.
struct Saved {
    state: State,
    targets: Vec<V2>,
    urgent: Vec<bool>,
    shaped: Vec<Option<(u32, usize)>>,
    duel_cache: super::scratch::DuelCache,
    range_memo: Vec<super::movement::RangeMemo>,
    recovery_memo: Vec<super::movement::RecoveryMemo>,
    fault: Option<(usize, microfut_core::pipeline::Part, u32)>,
    exact_angles: bool,
    draws: u64,
}

impl Saved {
    fn of(m: &Match) -> Saved {
        Saved {
            state: m.play.state.clone(),
            targets: m.scratch.targets.clone(),
            urgent: m.scratch.urgent.clone(),
            shaped: m.play.shaped.clone(),
            duel_cache: m.scratch.duel_cache.clone(),
            range_memo: m.scratch.range_memo.clone(),
            recovery_memo: m.scratch.recovery_memo.clone(),
            fault: m.chronicle.fault.get(),
            exact_angles: m.scratch.exact_angles,
            draws: m.play.dice.draws(),
        }
    }

    fn restore(&self, m: &mut Match) {
        assert_eq!(m.play.dice.draws(), self.draws, "a read drew a die");
        m.play.state.clone_from(&self.state);
        m.scratch.targets.clone_from(&self.targets);
        m.scratch.urgent.clone_from(&self.urgent);
        m.play.shaped.clone_from(&self.shaped);
        m.scratch.duel_cache.clone_from(&self.duel_cache);
        m.scratch.range_memo.clone_from(&self.range_memo);
        m.scratch.recovery_memo.clone_from(&self.recovery_memo);
        m.chronicle.fault.set(self.fault);
        m.scratch.exact_angles = self.exact_angles;
    }
}

fn test_odds(m: &Match, player: usize, pipeline: usize, r: &Resolution) -> TestOdds {
    let shirt = m.play.state.players[player].shirt;
    TestOdds { player, shirt, pipeline, difficulty: r.difficulty, fraction: r.fraction, probability: r.chance() }
}

impl Match {
    /// Fills `odds` of every candidate of the pending decision of carrier `c` (a person's): each
    /// priced on the geometry its roll will use. A read: everything is put back, no die drawn.
    pub(super) fn price_for_person(&mut self, c: usize) {
        let saved = Saved::of(self);
        for i in 0..self.scratch.candidates.len() {
            let cand = self.scratch.candidates[i].clone();
            let odds = self.odds_after_step_four(c, &cand);
            saved.restore(self);
            self.scratch.candidates[i].odds = Some(odds);
        }
    }

    fn odds_after_step_four(&mut self, c: usize, cand: &Candidate) -> Odds {
        let t = self.play.state.players[c].team;
        let from = self.frame(t, self.play.state.players[c].pos);
        self.step_four(Some(&(c, cand.clone())));
        let gain_to = |m: &Match, at: V2| m.frame(t, at).x - from.x;
        let prepared = self.prepare_declared(c, cand);
        let mut odds = Odds {
            branch: Branch::Test,
            test: None,
            opponent: None,
            wins: None,
            foul_share: None,
            headline: 1.0,
            goal: None,
            gain: 0.0,
        };
        match prepared {
            Prepared::Test(pipe, res) => {
                odds.test = Some(test_odds(self, c, pipe, &res));
                odds.headline = res.chance();
                match cand.kind {
                    Kind::Shoot if self.penalty_now() => {
                        let (_, goal) = self.penalty_estimate(c, cand.zone_index.unwrap_or(0) as usize);
                        odds.goal = Some(goal);
                    }
                    Kind::Shoot => {
                        let (_, goal, _) = self.strike_estimate(c, pipe);
                        odds.goal = Some(goal);
                    }
                    Kind::Pass | Kind::Throw => {
                        let r = cand.other.expect("a pass has a receiver");
                        odds.gain = gain_to(self, self.play.state.players[r].pos);
                    }
                    _ => odds.gain = gain_to(self, cand.dest),
                }
            }
            Prepared::Duel { carrier: (cp, cres), defender, tackle: (op, ores) } => {
                let wins = self.duel_wins(cp, &cres, op, &ores);
                let share = self.tackle_foul_share(c).unwrap_or(0.0);
                odds.branch = Branch::Duel;
                odds.test = Some(test_odds(self, c, cp, &cres));
                odds.opponent = Some(test_odds(self, defender, op, &ores));
                (odds.wins, odds.foul_share) = (Some(wins), Some(share));
                odds.headline = Odds::duel_keep(wins, share);
                odds.gain = gain_to(self, self.play.state.players[c].pos);
            }
            Prepared::None(branch) => {
                odds.branch = branch;
                odds.gain = gain_to(self, self.play.state.players[c].pos);
            }
        }
        odds
    }

    /// A penalty is being taken under the set pieces (0.6): the shot is `penalty`, not `shot`.
    fn penalty_now(&self) -> bool {
        self.set_piece_now() == Some(RestartKind::Penalty)
    }

    /// After step 4, sets what the declared candidate's action sets before it rolls and
    /// evaluates its tests — the functions `resolve` calls, in its order.
    fn prepare_declared(&mut self, c: usize, cand: &Candidate) -> Prepared {
        let pipes = self.rules.pipes;
        match cand.kind {
            Kind::Pass | Kind::Throw => {
                let pipe = cand.pipe.unwrap_or(pipes.pass);
                let to = self.play.state.players[cand.other.expect("a pass has a receiver")].pos;
                Prepared::Test(pipe, self.prepare_pass(c, to, pipe))
            }
            Kind::Cross => {
                let pipe = cand.pipe.unwrap_or(pipes.cross);
                Prepared::Test(pipe, self.prepare_cross(c, cand.dest, pipe))
            }
            Kind::Shoot if self.penalty_now() => {
                let sp = self.rules.set_pieces.clone().expect("penalties with set pieces");
                Prepared::Test(sp.penalty.shot, self.prepare_penalty(c, cand.zone_index.unwrap_or(0) as usize))
            }
            Kind::Shoot => {
                let pipe = cand.pipe.unwrap_or(pipes.finishing);
                Prepared::Test(pipe, self.prepare_strike(c, pipe).0)
            }
            Kind::Carry | Kind::Dribble => {
                let only = if cand.kind == Kind::Dribble { cand.other } else { None };
                let Some(o) = self.challenger(c, only) else {
                    return Prepared::None(if only.is_some() { Branch::OutOfReach } else { Branch::Unchallenged });
                };
                let cpos = self.play.state.players[c].pos;
                // As `after_carry`: the ball is where the run ended when the defender chooses.
                self.play.state.ball = cpos;
                let moving = self.carrier_moving(c);
                if only.is_none() && !self.would_tackle(c, o, cpos, moving) {
                    return Prepared::None(Branch::Contained);
                }
                let (carrier, tackle) = self.prepare_duel(c, o, moving);
                Prepared::Duel { carrier, defender: o, tackle }
            }
        }
    }

    /// The exact chance the carrier wins a duel (the content's duel table says he keeps the
    /// ball), over every pair of totals of both tests and, for fractional difficulties, both
    /// whole difficulties each is rolled against — as `duel` rolls them.
    fn duel_wins(&self, cp: usize, carrier: &Resolution, op: usize, defender: &Resolution) -> f64 {
        let rs = &self.rules.rs;
        let (ca, da) = (&rs.pipelines[cp].odds, &rs.pipelines[op].odds);
        let whole = |r: &Resolution| {
            let d = r.difficulty.unwrap_or(0);
            [(d, 1.0 - r.fraction), (d + 1, r.fraction)]
        };
        let mut wins = 0.0;
        for (dc, wc) in whole(carrier).into_iter().filter(|&(_, w)| w > 0.0) {
            for (dd, wd) in whole(defender).into_iter().filter(|&(_, w)| w > 0.0) {
                let mut keeps: u128 = 0;
                for (tc, pc) in ca.totals() {
                    for (td, pd) in da.totals() {
                        let diff = (td as i32 - dd) - (tc as i32 - dc);
                        if self.rules.tackle_outcome.of(diff as f64) == DuelOutcome::CarrierKeeps {
                            keeps += u128::from(pc.favourable) * u128::from(pd.favourable);
                        }
                    }
                }
                let all = u128::from(ca.exactly(ca.spec().min_total()).outcomes)
                    * u128::from(da.exactly(da.spec().min_total()).outcomes);
                let p = keeps as f64 / all as f64;
                wins += if wc == 1.0 && wd == 1.0 { p } else { wc * wd * p };
            }
        }
        wins
    }

    /// The content's label of a candidate's zone: a delivery's (`far post`) or a penalty's side.
    pub fn zone_label(&self, cand: &Candidate) -> Option<&microfut_core::catalog::Labels> {
        let sp = self.rules.set_pieces.as_ref()?;
        let i = cand.zone_index? as usize;
        match cand.kind {
            Kind::Shoot => sp.penalty.aims.get(i).map(|a| &a.label),
            _ => sp.zones.get(i).map(|z| &z.label),
        }
    }

    /// The contributions behind a candidate's own test as it will be rolled if declared now:
    /// after the round's movement for it (step 4), its inputs set by the action's own setters
    /// (a carry's or a dribble's: the carrier's test in the duel he will fight; none when nobody
    /// will challenge him). Read-only: no die is drawn and everything is put back.
    pub fn explain_candidate(&mut self, i: usize) -> Option<microfut_core::pipeline::Explanation> {
        let carrier = self.play.state.holder()?;
        let cand = self.scratch.candidates.get(i)?.clone();
        let saved = Saved::of(self);
        self.step_four(Some(&(carrier, cand.clone())));
        // Explanations show inputs: exact angles, not their bins' stand-ins (the same bins, so
        // the same chance).
        self.scratch.exact_angles = true;
        let (player, pipe) = match self.prepare_declared(carrier, &cand) {
            Prepared::Test(pipe, _) => (carrier, pipe),
            Prepared::Duel { carrier: (pipe, _), .. } => (carrier, pipe),
            Prepared::None(_) => {
                saved.restore(self);
                return None;
            }
        };
        let pl = &self.rules.rs.pipelines[pipe];
        let mut trace = Vec::new();
        let r = pl.resolve_traced(&self.play.state.players[player].inputs, &mut trace);
        let e = pl.explain(&trace, &r);
        saved.restore(self);
        Some(e)
    }
}

#[cfg(test)]
mod tests {
    use super::super::{Match, Options};
    use crate::club::Club;
    use microfut_core::catalog::{Catalog, ContentTree};

    /// Everything a round reads, as bits (`{:?}` of a float tells every value apart).
    fn snapshot(m: &Match) -> String {
        format!(
            "{:?}",
            (
                &m.play.state,
                &m.scratch.targets,
                &m.scratch.urgent,
                &m.play.shaped,
                &m.scratch.duel_cache,
                &m.scratch.range_memo,
                &m.scratch.recovery_memo,
                m.chronicle.fault.get(),
                m.scratch.exact_angles,
                m.play.dice.draws(),
                &m.scratch.candidates,
                &m.chronicle.rolls,
            )
        )
    }

    /// Pricing a person's candidates again, and explaining each, leaves the state (every
    /// player's inputs), the destinations, the round's duel cache, the movement and recovery
    /// memos, the fault cell, the dice and the candidates exactly as they were.
    #[test]
    fn reading_a_persons_odds_leaves_no_trace() {
        let catalog = Catalog::load(&ContentTree::embedded());
        let rules = crate::run::rules_for(&catalog, None).unwrap();
        let club = |id: &str| {
            Club::from_value(catalog.rulesets["microfut"].extra[&format!("clubs/{id}.json")].clone()).unwrap()
        };
        let (home, away) = (club("esporte_clube_mandacaru"), club("atletico_vale_do_sol"));
        let mut m = Match::new(rules, &home, &away, 2, Options { human: Some(0), ..Default::default() }).unwrap();
        let mut read = 0;
        while read < 80 {
            match m.step() {
                super::super::Step::Decision => {
                    // Emptied (they are exact at any size), so a read that left entries shows.
                    m.scratch.duel_cache.clear();
                    m.scratch.range_memo.iter_mut().for_each(|memo| *memo = Default::default());
                    m.scratch.recovery_memo.iter_mut().for_each(|memo| *memo = Default::default());
                    let before = snapshot(&m);
                    let n = m.candidates().unwrap().len();
                    for i in 0..n {
                        m.explain_pending(i);
                    }
                    let carrier = m.play.state.holder().unwrap();
                    m.price_for_person(carrier);
                    assert_eq!(snapshot(&m), before, "round {}", m.play.state.round);
                    read += 1;
                    let pick = (m.play.state.round as usize * 7) % n;
                    let intent = m.candidates().unwrap()[pick].intent();
                    m.decide(&intent).unwrap();
                }
                super::super::Step::Round => {}
                other => panic!("{other:?}"),
            }
        }
    }
}
