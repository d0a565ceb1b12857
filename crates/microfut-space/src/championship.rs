//! The course's championship: one board for all its matches, every pair of bots twice with the
//! colours swapped, points per match, validity, groups and grades; over several championships,
//! the course's final grade.
//!
//! Scoring is pure (outcomes in, standings out) so it is tested on constructed outcomes; running
//! the matches is separate. Parallelism and fairness: matches run `jobs` at a time (default: the
//! machine's cores). A bot runs only on its own turn — the referee freezes its process group
//! otherwise — so each running match has at most one bot process on a core, and `jobs` ≤ cores
//! gives every bot a core of its own while its clock runs; more jobs than cores would make bots
//! share cores and lose wall-clock time to each other's matches.

use super::board::{Board, Side};
use super::compile::Rules;
use super::moves::Victory;
use super::protocol::{ProcessBot, limits};
use super::record::{Entrant, MatchRecord};
use super::referee::{self, Outcome, Player, Reason};
use microfut_core::bot_process::Program;
use microfut_core::dice::Dice;
use serde::Serialize;
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

/// A bot entered in a championship.
#[derive(Debug, Clone)]
pub struct Entry {
    pub name: String,
    /// As the user wrote it (shown and recorded).
    pub command: String,
    pub program: Program,
}

/// One match of a schedule.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Fixture {
    /// 0-based championship.
    pub championship: usize,
    pub white: usize,
    pub black: usize,
}

/// Every match of `c` championships of `bots` bots: per championship, each pair (i < j) as i
/// white against j black, then j white against i black.
pub fn schedule(bots: usize, c: usize) -> Vec<Fixture> {
    let mut out = Vec::with_capacity(c * bots * bots.saturating_sub(1));
    for championship in 0..c {
        for i in 0..bots {
            for j in i + 1..bots {
                out.push(Fixture { championship, white: i, black: j });
                out.push(Fixture { championship, white: j, black: i });
            }
        }
    }
    out
}

/// The board of championship `index` (0-based) for a seed.
pub fn board(rules: &Rules, seed: u64, index: usize) -> Board {
    let mut dice = Dice::derived(seed, format!("space/championship/{index}").as_bytes());
    Board::draw(rules, &mut dice, None).expect("n drawn from the revision's range")
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum Group {
    A,
    B,
}

/// A bot's line in one championship's standings.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Standing {
    pub bot: usize,
    pub points: u32,
    pub matches: u32,
    pub wins: u32,
    pub draws: u32,
    pub losses: u32,
    pub valid: u32,
    pub valid_share: f64,
    pub group: Group,
    pub grade: f64,
}

/// One championship's standings from its outcomes (`(white, black, outcome)`), in bot order.
/// Group A: valid share ≥ the threshold; its grades run linearly from `fewest_points` (the
/// fewest points in group A) to `most_points` (the most), `all_tied` when all have the same
/// points. Group B: `per_valid_share` × valid share.
pub fn standings(rules: &Rules, bots: usize, results: &[(usize, usize, &Outcome)]) -> Vec<Standing> {
    let c = &rules.championship;
    let mut s: Vec<Standing> = (0..bots)
        .map(|bot| Standing {
            bot,
            points: 0,
            matches: 0,
            wins: 0,
            draws: 0,
            losses: 0,
            valid: 0,
            valid_share: 0.0,
            group: Group::B,
            grade: 0.0,
        })
        .collect();
    for &(white, black, o) in results {
        for (side, bot) in [(Side::White, white), (Side::Black, black)] {
            let st = &mut s[bot];
            st.matches += 1;
            st.points += o.points[side.index()];
            st.valid += u32::from(o.valid[side.index()]);
            match o.winner {
                None => st.draws += 1,
                Some(w) if w == side => st.wins += 1,
                Some(_) => st.losses += 1,
            }
        }
    }
    for st in &mut s {
        st.valid_share = if st.matches == 0 { 0.0 } else { f64::from(st.valid) / f64::from(st.matches) };
        st.group = if st.matches > 0 && st.valid_share >= c.validity_threshold { Group::A } else { Group::B };
    }
    let a: Vec<u32> = s.iter().filter(|st| st.group == Group::A).map(|st| st.points).collect();
    let (lo, hi) = (a.iter().copied().min().unwrap_or(0), a.iter().copied().max().unwrap_or(0));
    for st in &mut s {
        st.grade = match st.group {
            Group::A if hi == lo => c.group_a.all_tied,
            Group::A => {
                let t = f64::from(st.points - lo) / f64::from(hi - lo);
                c.group_a.fewest_points + t * (c.group_a.most_points - c.group_a.fewest_points)
            }
            Group::B => c.group_b.per_valid_share * st.valid_share,
        };
    }
    s
}

/// A bot's final grade over C championships.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct FinalGrade {
    pub bot: usize,
    /// P = Σ Sᵢ, Sᵢ = grade / normaliser.
    pub total: f64,
    pub grade: f64,
}

/// The course's final grades from each bot's grade in each championship (`grades[i][bot]`):
/// P = Σ grade/normaliser, Min = C × min_share, Max the highest P; below Min, N = P/Min ×
/// grade_at_min; from Min, N = (P − Min)/(Max − Min) × (grade_at_max − grade_at_min) +
/// grade_at_min — and grade_at_max when Max = Min.
pub fn final_grades(rules: &Rules, grades: &[Vec<f64>]) -> Vec<FinalGrade> {
    let f = &rules.championship.final_grade;
    let bots = grades.first().map_or(0, Vec::len);
    let totals: Vec<f64> = (0..bots).map(|b| grades.iter().map(|g| g[b] / f.normaliser).sum()).collect();
    let min = grades.len() as f64 * f.min_share;
    let max = totals.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    totals
        .iter()
        .enumerate()
        .map(|(bot, &p)| {
            let grade = if p < min {
                p / min * f.grade_at_min
            } else if max - min <= 1e-12 {
                f.grade_at_max
            } else {
                (p - min) / (max - min) * (f.grade_at_max - f.grade_at_min) + f.grade_at_min
            };
            FinalGrade { bot, total: p, grade }
        })
        .collect()
}

/// A played match of a championship.
#[derive(Debug, Clone)]
pub struct Played {
    pub fixture: Fixture,
    pub outcome: Outcome,
    /// Each side's longest and total thinking time, ms.
    pub think_ms: [(f64, f64); 2],
    pub record: Option<MatchRecord>,
    /// A timeout in the first playing, played again alone: this is the second playing.
    pub rechecked: bool,
}

/// How to run a championship's matches.
pub struct Run<'a> {
    pub rules: &'a Rules,
    pub entries: &'a [Entry],
    /// The board of each championship.
    pub boards: &'a [Board],
    pub time_limit: Duration,
    /// Matches at once.
    pub jobs: usize,
    /// Keep each match's full record.
    pub records: bool,
}

/// Plays one fixture: both bots as processes, the referee between them.
fn play_one(run: &Run, fx: Fixture) -> Played {
    let limits = limits(run.rules);
    let (w, b) = (&run.entries[fx.white], &run.entries[fx.black]);
    let board = &run.boards[fx.championship];
    let mut white = ProcessBot::start(&w.program, limits, run.rules.actions);
    let mut black = ProcessBot::start(&b.program, limits, run.rules.actions);
    let opts = referee::Options { time_limit: run.time_limit, record: true };
    let players: [&mut dyn Player; 2] = [&mut white, &mut black];
    let finished = referee::play(run.rules, board.clone(), players, &opts);
    let mut think = [(0.0f64, 0.0f64); 2];
    for p in &finished.log {
        let t = &mut think[p.side.index()];
        let ms = p.ms.unwrap_or(0.0);
        t.0 = t.0.max(ms);
        t.1 += ms;
    }
    let record = run.records.then(|| {
        let entrant = |e: &Entry| Entrant { name: e.name.clone(), command: e.command.clone() };
        MatchRecord::new(run.rules, None, board, [entrant(w), entrant(b)], run.time_limit.as_millis() as u64, &finished)
    });
    Played { fixture: fx, outcome: finished.outcome, think_ms: think, record, rechecked: false }
}

fn timed_out(p: &Played) -> bool {
    p.outcome.reasons.values().any(|f| f.reason == Reason::Timeout)
}

/// Plays every fixture, `jobs` at a time; results come back in fixture order. `done` is called
/// after each match (from the worker threads), for progress.
///
/// Timing fairness: a bot is frozen outside its turn, so with `jobs` ≤ cores each bot on the
/// clock has a core of its own. A machine loaded by others can still steal a bot's wall-clock
/// time, so a match lost on a timeout is not ruled on that playing: once every match is played,
/// each one with a timeout is played again alone — nothing else of the championship running —
/// and that playing is the result (`rechecked`). A bot that is really too slow times out again;
/// one that was starved by its neighbours does not.
pub fn play(run: &Run, fixtures: &[Fixture], done: &(dyn Fn(&Played) + Sync)) -> Vec<Played> {
    let next = AtomicUsize::new(0);
    let results: Mutex<Vec<Option<Played>>> = Mutex::new(vec![None; fixtures.len()]);
    std::thread::scope(|scope| {
        for _ in 0..run.jobs.max(1).min(fixtures.len().max(1)) {
            scope.spawn(|| {
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    let Some(&fx) = fixtures.get(i) else { break };
                    let played = play_one(run, fx);
                    if !(run.jobs > 1 && timed_out(&played)) {
                        done(&played);
                    }
                    results.lock().expect("no worker panics")[i] = Some(played);
                }
            });
        }
    });
    let mut out: Vec<Played> =
        results.into_inner().expect("no worker panics").into_iter().map(|p| p.expect("every fixture played")).collect();
    if run.jobs > 1 {
        for p in out.iter_mut().filter(|p| timed_out(p)) {
            *p = Played { rechecked: true, ..play_one(run, p.fixture) };
            done(p);
        }
    }
    out
}

/// Counts of how matches ended, for a summary line.
pub fn victories(played: &[Played]) -> [(Victory, usize); 4] {
    let count = |v: Victory| played.iter().filter(|p| p.outcome.victory == v).count();
    [Victory::Goal, Victory::Destruction, Victory::OpponentInvalid, Victory::Draw].map(|v| (v, count(v)))
}
