//! The league fixture (0.6.21): several leagues of clubs drawn from a preset mix, each a double
//! round-robin, judged on their tables and on where their goals come from.
//!
//! The problem: real data describes whole leagues well (goals, home / draw / away, the
//! champion's points, the best and worst attacks) and pairs of clubs badly; a football that
//! holds up for a few pairs can still give leagues of routs. The decision: every match of every
//! league is one lab simulation (`lab::run`, its own derived dice, both cores, exact sums), and
//! the tables are rebuilt from the sums of each club's points and goals (metrics with one part a
//! club). Per-match figures are pooled over all the leagues' matches with the lab's interval
//! (given the clubs drawn); a table figure (the champion's points…) is one number a league, so
//! its estimate is the mean over the leagues and its interval Student's t over them (none for a
//! single league). Headed and set-piece goals are read from the match's events, so the run
//! record's statistics do not change.

use super::doc::{LeagueFixture, Targets};
use super::fixtures::{Figure, est, fact_of, lab_run_on, percent};
use super::population::{derive_seed, draw};
use super::{Check, OrderFigure, Settings};
use crate::club::Club;
use crate::engine::{Event, EventKind, Match, MatchSimulator, Options, Rules, TeamStats};
use microfut_core::catalog::{Diagnostic, Labels, Revision};
use microfut_core::dice::Dice;
use microfut_core::lab::stats::Z95;
use microfut_core::lab::{Format, Kind, Metric, Part, Report, Simulator, Unit};
use std::sync::Arc;

/// The most clubs a league of the document may have (its matches grow with the square).
pub const MAX_CLUBS: usize = 40;
/// The most leagues a league fixture may play.
pub const MAX_LEAGUES: usize = 100;
/// Table figures are quoted for a season of this many matches a club (20 clubs).
const SEASON: f64 = 38.0;

/// Per-match metrics pooled over every league, in the order `simulate` writes them.
const POOLED: [(&str, Kind); 10] = [
    ("goals_per_match", Kind::Mean),
    ("home_win_share", Kind::Mean),
    ("draw_share", Kind::Mean),
    ("away_win_share", Kind::Mean),
    ("goalless_share", Kind::Mean),
    ("penalties_per_match", Kind::Mean),
    ("penalty_conversion", Kind::Ratio),
    ("shots_outside_box_share", Kind::Ratio),
    ("blocked_shot_share", Kind::Ratio),
    ("header_goal_share", Kind::Ratio),
];
/// … then the set-piece goals, then per league (goals, goals², home, draw, away, goalless),
/// then per club of every league (points, goals scored).
const SET_PIECES: &str = "set_piece_goal_share";
const PER_LEAGUE: [&str; 6] =
    ["league_goals", "league_goals_sq", "league_home", "league_draw", "league_away", "league_goalless"];
const PER_CLUB: [&str; 2] = ["club_points", "club_goals"];

/// Every match of every league: simulation `i` is `matches[i]`, (league, home, away).
pub struct LeagueSimulator {
    pub leagues: Vec<Vec<Club>>,
    pub matches: Vec<(usize, usize, usize)>,
}

impl LeagueSimulator {
    fn new(leagues: Vec<Vec<Club>>) -> LeagueSimulator {
        let mut matches = Vec::new();
        for (l, clubs) in leagues.iter().enumerate() {
            for round in crate::season::schedule(clubs.len()) {
                matches.extend(round.into_iter().map(|(h, a)| (l, h, a)));
            }
        }
        LeagueSimulator { leagues, matches }
    }

    fn size(&self) -> usize {
        self.leagues[0].len()
    }
}

fn labels(pt: &str, en: &str) -> Labels {
    Labels { pt_br: pt.into(), en: en.into() }
}

fn metric(id: &str, kind: Kind, parts: Vec<Part>) -> Metric {
    let format = if percent(id) { Format::Percent } else { Format::Number };
    let name = fact_of(id);
    Metric { id: id.into(), label: labels(name, name), kind, scale: 1, format, parts }
}

impl Simulator for LeagueSimulator {
    type Rules = Arc<Rules>;

    fn ruleset(&self) -> &'static str {
        "microfut"
    }

    fn unit(&self) -> Unit {
        Unit { id: "matches".into(), label: labels("partidas", "matches") }
    }

    fn compile(&self, revision: &Revision) -> Result<Self::Rules, Vec<Diagnostic>> {
        let first = &self.leagues[0];
        let rules = MatchSimulator { home: first[0].clone(), away: first[1].clone() }.compile(revision)?;
        for club in self.leagues.iter().flatten() {
            if let Err(e) = crate::engine::setup::select(&rules, club, None) {
                return Err(vec![Diagnostic::new(format!("club {}", club.id), "", e.to_string())]);
            }
        }
        Ok(rules)
    }

    fn setup(&self) -> Option<String> {
        let clubs: std::collections::BTreeMap<String, serde_json::Value> = self
            .leagues
            .iter()
            .enumerate()
            .map(|(l, c)| (format!("{l:04}"), serde_json::to_value(c).expect("clubs serialise")))
            .collect();
        let fp = microfut_core::catalog::fingerprint(&clubs);
        let short = &fp[..fp.len().min("sha256:".len() + 12)];
        Some(format!("{} leagues of {} drawn clubs (clubs {short})", self.leagues.len(), self.size()))
    }

    fn metrics(&self, _rules: &Self::Rules) -> Vec<Metric> {
        let leagues: Vec<Part> = (0..self.leagues.len())
            .map(|l| Part { id: format!("league_{l}"), label: labels(&format!("liga {l}"), &format!("league {l}")) })
            .collect();
        let clubs: Vec<Part> = self
            .leagues
            .iter()
            .enumerate()
            .flat_map(|(l, cs)| cs.iter().map(move |c| (l, c)))
            .map(|(l, c)| Part { id: format!("{l}/{}", c.id), label: labels(&c.name, &c.name) })
            .collect();
        let mut m: Vec<Metric> = POOLED.iter().map(|&(id, kind)| metric(id, kind, vec![])).collect();
        m.push(metric(SET_PIECES, Kind::Ratio, vec![]));
        m.extend(PER_LEAGUE.iter().map(|id| metric(id, Kind::Mean, leagues.clone())));
        m.extend(PER_CLUB.iter().map(|id| metric(id, Kind::Mean, clubs.clone())));
        m
    }

    fn simulate(&self, rules: &Self::Rules, index: u64, dice: &mut Dice, out: &mut [i64]) -> Result<(), String> {
        let (l, h, a) = self.matches[index as usize];
        let clubs = &self.leagues[l];
        let mut m = Match::with_dice(
            rules.clone(),
            &clubs[h],
            &clubs[a],
            dice.clone(),
            index,
            Options { retention: Some(0), ..Default::default() },
        )
        .expect("clubs were checked when the revision was compiled");
        m.run().map_err(|e| e.to_string())?;
        let [hs, as_]: &[TeamStats; 2] = m.stats();
        let sum = |f: fn(&TeamStats) -> u32| i64::from(f(hs) + f(as_));
        let [gh, ga] = m.score();
        let goals = i64::from(gh + ga);
        let outcome = [gh > ga, gh == ga, gh < ga].map(i64::from);
        let goalless = i64::from(goals == 0);
        let sources = goal_sources(m.events());
        let pooled = [
            goals,
            outcome[0],
            outcome[1],
            outcome[2],
            goalless,
            sum(|s| s.penalties),
            sum(|s| s.penalty_goals),
            sum(|s| s.penalties),
            sum(|s| s.shots_outside_box),
            sum(|s| s.shots),
            sum(|s| s.blocks),
            sum(|s| s.shots),
            sources.headed,
            goals,
            sources.set_piece,
            goals,
        ];
        out[..pooled.len()].copy_from_slice(&pooled);
        let n_leagues = self.leagues.len();
        let mut at = pooled.len();
        for v in [goals, goals * goals, outcome[0], outcome[1], outcome[2], goalless] {
            out[at + l] = v;
            at += n_leagues;
        }
        let club = |i: usize| at + l * self.size() + i;
        let points = |f: u32, g: u32| match f.cmp(&g) {
            std::cmp::Ordering::Greater => 3,
            std::cmp::Ordering::Equal => 1,
            std::cmp::Ordering::Less => 0,
        };
        out[club(h)] = points(gh, ga);
        out[club(a)] = points(ga, gh);
        let per_club = n_leagues * self.size();
        out[per_club + club(h)] = i64::from(gh);
        out[per_club + club(a)] = i64::from(ga);
        Ok(())
    }
}

/// Goals of a match by how they came.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Sources {
    pub headed: i64,
    /// From a corner or a free kick (direct or indirect): the shot straight from it, or within
    /// [`SET_PIECE_TOUCHES`] passes and crosses of the side that took it, the opponents never
    /// having had the ball in between. Penalties are counted apart.
    pub set_piece: i64,
}

/// Passes and crosses after a set piece that still make its goal a set-piece goal (the first
/// phase of play, as the data providers count it).
pub const SET_PIECE_TOUCHES: u32 = 3;

/// Reads where a match's goals came from out of its events.
pub fn goal_sources(events: &[Event]) -> Sources {
    let mut out = Sources::default();
    // The set piece in play: its side and the passes and crosses made since.
    let mut phase: Option<(u8, u32)> = None;
    // The last shot: its side, whether headed, whether from a set piece.
    let mut shot: Option<(u8, bool, bool)> = None;
    for e in events {
        match &e.kind {
            EventKind::Restart { restart, team, .. } => {
                let set_piece = matches!(restart.as_str(), "corner" | "free_kick" | "indirect_free_kick");
                phase = set_piece.then_some((*team, 0));
            }
            EventKind::Pass { by, .. } | EventKind::Cross { by, .. } => {
                phase = phase.filter(|&(t, _)| t == by.team).map(|(t, n)| (t, n + 1));
            }
            EventKind::Shot { by, header, set_piece, .. } => {
                let penalty = set_piece.as_deref() == Some("penalty");
                let from_set_piece = !penalty && phase.is_some_and(|(t, n)| t == by.team && n <= SET_PIECE_TOUCHES);
                shot = Some((by.team, *header, from_set_piece));
            }
            EventKind::Goal { team, .. } => {
                if let Some((_, header, from_set_piece)) = shot.filter(|s| s.0 == *team) {
                    out.headed += i64::from(header);
                    out.set_piece += i64::from(from_set_piece);
                }
                shot = None;
            }
            // The opponents have the ball: the set piece's phase is over.
            EventKind::Interception { by, .. } | EventKind::Gathered { by } => {
                phase = phase.filter(|&(t, _)| t == by.team);
            }
            EventKind::AerialDuel { won_by, .. } => phase = phase.filter(|&(t, _)| t == won_by.team),
            EventKind::Save { by, outcome, .. } if outcome == "hold" => phase = phase.filter(|&(t, _)| t == by.team),
            EventKind::Duel { defender, outcome, .. } if outcome == "steal" => {
                phase = phase.filter(|&(t, _)| t == defender.team);
            }
            EventKind::HalfTime | EventKind::KickOff { .. } | EventKind::FullTime { .. } => phase = None,
            _ => {}
        }
    }
    out
}

/// Student's t at 97.5 % for `df` degrees of freedom (df ≥ 1): a table to 30, then near z.
fn t975(df: usize) -> f64 {
    const T: [f64; 30] = [
        12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.160, 2.145, 2.131,
        2.120, 2.110, 2.101, 2.093, 2.086, 2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042,
    ];
    match df {
        0 => f64::NAN,
        1..=30 => T[df - 1],
        31..=60 => 2.021,
        61..=120 => 2.000,
        _ => Z95,
    }
}

/// The mean of one figure a league and its 95 % interval over the leagues (none for one).
fn over_leagues(values: &[f64]) -> (f64, Option<(f64, f64)>) {
    let n = values.len() as f64;
    let mean = values.iter().sum::<f64>() / n;
    if values.len() < 2 {
        return (mean, None);
    }
    let var = values.iter().map(|v| (v - mean).powi(2)).sum::<f64>() / (n - 1.0);
    let h = t975(values.len() - 1) * (var / n).sqrt();
    (mean, Some((mean - h, mean + h)))
}

/// The part values of a per-part mean metric, as sums over the run (mean × simulations).
fn part_sums(r: &Report, id: &str) -> Result<Vec<f64>, String> {
    let s = &r.identity.scenarios[0];
    let i = s.metrics.iter().position(|m| m.id == id).ok_or_else(|| format!("the lab does not measure '{id}'"))?;
    let n = r.identity.simulations as f64;
    Ok(r.results[0].metrics[i].iter().map(|v| v.arms[0].value.unwrap_or(0.0) * n).collect())
}

/// Every league fixture the settings select.
pub fn run(rules: &Arc<Rules>, t: &Targets, s: &Settings) -> Result<Vec<Check>, String> {
    let mut out = Vec::new();
    for (i, f) in t.leagues.iter().enumerate() {
        if !s.fixtures.is_empty() && !s.fixtures.contains(&f.id) {
            continue;
        }
        let count = s.leagues.unwrap_or(f.leagues).min(f.leagues.max(1));
        out.extend(league(rules, t, f, count, s, &format!("calibration.json#/leagues/{i}"))?);
    }
    Ok(out)
}

fn league(
    rules: &Arc<Rules>,
    t: &Targets,
    f: &LeagueFixture,
    count: usize,
    s: &Settings,
    at: &str,
) -> Result<Vec<Check>, String> {
    if f.size() > MAX_CLUBS || f.leagues > MAX_LEAGUES {
        return Err(format!("{at}: at most {MAX_LEAGUES} leagues of {MAX_CLUBS} clubs"));
    }
    let mut leagues = Vec::with_capacity(count);
    for l in 0..count {
        let mut clubs = Vec::with_capacity(f.size());
        for (preset, n) in &f.mix {
            for k in 0..*n {
                let label = format!("league/{}/{l}/{preset}/{k}", f.id);
                clubs.push(draw(rules, preset, s.seed, &label, &format!("{preset} {l} {k}"), at)?);
            }
        }
        leagues.push(clubs);
    }
    let sim = LeagueSimulator::new(leagues);
    let size = sim.size();
    let per_league = sim.matches.len() / count;
    let seed = derive_seed(s.seed, &format!("league/{}/dice", f.id));
    let r = lab_run_on(&sim, &rules.rs.revision, sim.matches.len() as u64, seed)?;
    let order = Some(format!("{count} leagues of {size} clubs, {per_league} matches each"));
    let mut out = Vec::new();
    let ranges = &t.ranges[&f.ranges];
    // Each league's own figure of a per-match metric, printed beside the pooled one.
    let each = |id: &str| -> Result<Option<Vec<f64>>, String> {
        let part = match id {
            "goals_per_match" => "league_goals",
            "home_win_share" => "league_home",
            "draw_share" => "league_draw",
            "away_win_share" => "league_away",
            "goalless_share" => "league_goalless",
            _ => return Ok(None),
        };
        Ok(Some(part_sums(&r, part)?.into_iter().map(|x| x / per_league as f64).collect()))
    };
    let tables = tables(&r, count, size, per_league)?;
    for (id, range) in ranges {
        let (fig, parts) = match tables.iter().find(|(k, _)| k == id) {
            Some((_, values)) => {
                let (value, ci) = over_leagues(values);
                let fig = Figure { id: id.clone(), fact: fact_of(id).into(), value, ci, percent: percent(id) };
                (Some(fig), Some(values.clone()))
            }
            None => {
                let e = est(&r, id).ok_or_else(|| {
                    format!("{at}: ranges '{}' names '{id}', which a league does not measure", f.ranges)
                })?;
                (Figure::of(id, fact_of(id), e, percent(id), |x| x), each(id)?)
            }
        };
        let Some(fig) = fig else {
            let mut c = Figure { id: id.clone(), fact: fact_of(id).into(), value: f64::NAN, ci: None, percent: false }
                .check(&f.id, order.clone(), *range);
            c.value = None;
            c.figure = "undefined (nothing to count)".into();
            c.pass = false;
            out.push(c);
            continue;
        };
        let shown: Vec<String> = parts.iter().flatten().map(|v| fig.show(*v)).collect();
        let mut c = fig.check(&f.id, order.clone(), *range);
        if let Some(values) = parts {
            c.figure = format!("{} (each league: {})", c.figure, shown.join(", "));
            c.orders = values
                .iter()
                .enumerate()
                .map(|(l, v)| OrderFigure { order: format!("league {l}"), value: *v })
                .collect();
        }
        out.push(c);
    }
    Ok(out)
}

/// The table figures of each league: the champion's and the last club's points, the best and
/// the worst attack's goals (each per 38 matches a club), and the variance of goals a match
/// over its mean.
fn tables(r: &Report, count: usize, size: usize, per_league: usize) -> Result<Vec<(String, Vec<f64>)>, String> {
    let points = part_sums(r, "club_points")?;
    let scored = part_sums(r, "club_goals")?;
    let goals = part_sums(r, "league_goals")?;
    let squares = part_sums(r, "league_goals_sq")?;
    let per_club = SEASON / (2.0 * (size as f64 - 1.0));
    let mut figures: Vec<(String, Vec<f64>)> =
        ["champion_points", "last_points", "best_attack_goals", "worst_attack_goals", "goals_dispersion"]
            .iter()
            .map(|id| (id.to_string(), Vec::with_capacity(count)))
            .collect();
    let max = |v: &[f64]| v.iter().copied().fold(f64::MIN, f64::max);
    let min = |v: &[f64]| v.iter().copied().fold(f64::MAX, f64::min);
    let n = per_league as f64;
    for l in 0..count {
        let (p, g) = (&points[l * size..(l + 1) * size], &scored[l * size..(l + 1) * size]);
        let mean = goals[l] / n;
        // The sample variance of goals a match (n − 1), over the mean.
        let var = (squares[l] - n * mean * mean) / (n - 1.0);
        let values = [max(p) * per_club, min(p) * per_club, max(g) * per_club, min(g) * per_club, var / mean];
        for ((_, v), x) in figures.iter_mut().zip(values) {
            v.push(x);
        }
    }
    Ok(figures)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::Who;

    fn at(kind: EventKind) -> Event {
        Event { round: 0, minute: 0.0, kind }
    }

    fn who(team: u8) -> Who {
        Who { team, shirt: 9 }
    }

    fn restart(kind: &str, team: u8) -> Event {
        at(EventKind::Restart { restart: kind.into(), team, x: 0.0, y: 0.0 })
    }

    fn pass(team: u8) -> Event {
        at(EventKind::Pass {
            by: who(team),
            to: who(team),
            distance: 10.0,
            margin: 1,
            outcome: "on_target".into(),
            completed: true,
            set_piece: None,
        })
    }

    fn shot(team: u8, header: bool, set_piece: Option<&str>) -> Event {
        at(EventKind::Shot {
            by: who(team),
            distance: 10.0,
            margin: 1,
            probability: 0.5,
            header,
            target_y: 34.0,
            outcome: "goal".into(),
            keeper: None,
            set_piece: set_piece.map(Into::into),
            aim: None,
            wall: None,
        })
    }

    fn goal(team: u8) -> Event {
        at(EventKind::Goal { by: who(team), team })
    }

    #[test]
    fn a_corner_headed_in_is_a_headed_set_piece_goal() {
        let e = [
            restart("corner", 0),
            at(EventKind::Cross { by: who(0), margin: 1, x: 0.0, y: 0.0, set_piece: None, zone: None }),
            shot(0, true, None),
            goal(0),
        ];
        assert_eq!(goal_sources(&e), Sources { headed: 1, set_piece: 1 });
    }

    #[test]
    fn a_penalty_and_open_play_are_not_set_pieces() {
        let e = [
            restart("penalty", 1),
            shot(1, false, Some("penalty")),
            goal(1),
            restart("throw_in", 0),
            shot(0, false, None),
            goal(0),
        ];
        assert_eq!(goal_sources(&e), Sources { headed: 0, set_piece: 0 });
    }

    #[test]
    fn the_phase_ends_when_the_opponents_win_the_ball_or_after_three_touches() {
        let won = [
            restart("free_kick", 0),
            at(EventKind::Gathered { by: who(1) }),
            pass(1),
            at(EventKind::Interception { by: who(0), from: who(1), margin: 0 }),
            shot(0, false, None),
            goal(0),
        ];
        assert_eq!(goal_sources(&won).set_piece, 0);
        let long = [restart("corner", 0), pass(0), pass(0), pass(0), pass(0), shot(0, false, None), goal(0)];
        assert_eq!(goal_sources(&long).set_piece, 0);
        let short = [restart("corner", 0), pass(0), pass(0), pass(0), shot(0, false, None), goal(0)];
        assert_eq!(goal_sources(&short).set_piece, 1);
    }

    #[test]
    fn a_league_figure_is_the_mean_over_leagues_with_students_interval() {
        let (m, ci) = over_leagues(&[80.0, 90.0]);
        assert_eq!(m, 85.0);
        let (lo, hi) = ci.unwrap();
        // s = 7.07, s/√2 = 5, t(1) = 12.706.
        assert!((hi - 85.0 - 12.706 * 5.0).abs() < 1e-9 && (85.0 - lo - 12.706 * 5.0).abs() < 1e-9);
        assert_eq!(over_leagues(&[80.0]), (80.0, None));
    }
}
