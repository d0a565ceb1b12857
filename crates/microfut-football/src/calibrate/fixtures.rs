//! Match-level figures, run on the lab: every fixture of the calibration set (equal clubs in
//! both orders, a stronger and a weaker club each at home) and the facts that compare a variant
//! of a club with itself on the very same dice (a worse keeper, better dribblers or tacklers).

use super::doc::{Fixture, Targets};
use super::{Check, Clubs, Settings, pct};
use crate::club::Club;
use crate::engine::{Match, MatchSimulator, Options, Rules, TeamStats};
use microfut_core::catalog::{Catalog, Diagnostic, Labels, Revision};
use microfut_core::dice::Dice;
use microfut_core::lab::stats::{Estimate, Z95};
use microfut_core::lab::{self, Format, Kind, Metric, Report, Request, Shard, Simulator, Unit};
use std::sync::Arc;

/// Runs a simulator on the revision's base scenario and returns the report.
fn lab_run<S: Simulator>(sim: &S, rev: &Revision, s: &Settings) -> Result<Report, String> {
    lab_run_on(sim, rev, s.matches, s.seed)
}

/// Runs `simulations` of a simulator on the revision's base scenario, dice from `seed`.
pub(super) fn lab_run_on<S: Simulator>(sim: &S, rev: &Revision, simulations: u64, seed: u64) -> Result<Report, String> {
    let scenarios = vec!["base".to_string()];
    let req = Request { revision: rev, against: None, scenarios: &scenarios, simulations, seed };
    let prepared = lab::prepare(sim, &req).map_err(|e| e.to_string())?;
    let accs = lab::run(sim, &prepared, Shard::ALL, &|_| {}).map_err(|e| e.to_string())?;
    Ok(Report::new(prepared.identity, &accs))
}

/// A metric's estimate by id.
pub(super) fn est(r: &Report, id: &str) -> Option<Estimate> {
    let s = &r.identity.scenarios[0];
    let i = s.metrics.iter().position(|m| m.id == id)?;
    r.results[0].metrics[i].first().map(|v| v.arms[0])
}

/// One figure: its estimate, a transformation of it (monotone, so the interval's ends map to
/// the transformed interval's), a way to show it, and the range it is held to.
pub(super) struct Figure {
    pub id: String,
    pub fact: String,
    pub value: f64,
    pub ci: Option<(f64, f64)>,
    pub percent: bool,
}

impl Figure {
    pub fn of(id: &str, fact: &str, e: Estimate, percent: bool, f: impl Fn(f64) -> f64) -> Option<Figure> {
        let v = e.value?;
        let ci = e.ci95().map(|(a, b)| {
            let (x, y) = (f(a), f(b));
            (x.min(y), x.max(y))
        });
        Some(Figure { id: id.into(), fact: fact.into(), value: f(v), ci, percent })
    }

    pub fn show(&self, x: f64) -> String {
        if self.percent { pct(x) } else { format!("{x:.2}") }
    }

    pub fn check(self, group: &str, order: Option<String>, range: [f64; 2]) -> Check {
        let figure = match self.ci {
            Some((a, b)) => format!("{} [{}, {}]", self.show(self.value), self.show(a), self.show(b)),
            None => self.show(self.value),
        };
        Check {
            group: group.into(),
            order,
            target: format!("{}–{}", self.show(range[0]), self.show(range[1])),
            pass: self.value >= range[0] && self.value <= range[1],
            range: Some(range),
            value: Some(self.value),
            ci95: self.ci.map(|(a, b)| [a, b]),
            id: self.id,
            fact: self.fact,
            figure,
            orders: Vec::new(),
        }
    }
}

/// What each lab metric is called in a report.
pub(super) fn fact_of(id: &str) -> &str {
    match id {
        "goals_per_match" => "goals per match",
        "shots_per_match" => "shots per match",
        "shots_on_target_share" => "shots on target",
        "saves_per_match" => "saves per match",
        "shot_conversion" => "shots scored",
        "pass_completion" => "pass completion",
        "passes_per_match" => "passes per match",
        "crosses_per_match" => "crosses per match",
        "cross_completion" => "crosses reaching a team-mate",
        "take_ons_per_match" => "dribbles attempted per match",
        "dribble_success" => "dribbles won",
        "tackles_per_match" => "tackles per match",
        "fouls_per_match" => "fouls per match",
        "corners_per_match" => "corners per match",
        "penalties_per_match" => "penalties per match",
        "penalty_conversion" => "penalties scored",
        "home_win_share" => "home wins",
        "draw_share" => "draws",
        "away_win_share" => "away wins",
        "stronger_win_share" => "the stronger side wins",
        "weaker_win_share" => "the weaker side wins",
        "stronger_possession" => "the stronger side's possession",
        "stronger_shots_ratio" => "the stronger side's shots, to the weaker's",
        "goalless_share" => "goalless draws",
        "goals_dispersion" => "variance of goals a match over its mean",
        "champion_points" => "the champion's points",
        "last_points" => "the last club's points",
        "best_attack_goals" => "the best attack's goals",
        "worst_attack_goals" => "the worst attack's goals",
        "shots_outside_box_share" => "shots from outside the box",
        "blocked_shot_share" => "shots blocked",
        "header_goal_share" => "goals headed",
        "set_piece_goal_share" => "goals from set pieces other than penalties",
        other => other,
    }
}

pub(super) fn percent(id: &str) -> bool {
    matches!(
        id,
        "shots_on_target_share"
            | "shot_conversion"
            | "pass_completion"
            | "cross_completion"
            | "dribble_success"
            | "penalty_conversion"
            | "home_win_share"
            | "draw_share"
            | "away_win_share"
            | "stronger_win_share"
            | "weaker_win_share"
            | "stronger_possession"
            | "home_possession"
            | "home_shots_share"
            | "goalless_share"
            | "shots_outside_box_share"
            | "blocked_shot_share"
            | "header_goal_share"
            | "set_piece_goal_share"
    )
}

/// A figure of one order of a fixture; `stronger_home` says which side is the stronger one
/// (fixtures of a stronger and a weaker club).
fn figure(r: &Report, id: &str, stronger_home: Option<bool>) -> Result<Option<Figure>, String> {
    let f = fact_of(id);
    let p = percent(id);
    let get = |m: &str| est(r, m).ok_or_else(|| format!("the lab does not measure '{m}'"));
    Ok(match (id, stronger_home) {
        ("stronger_win_share", Some(true)) | ("weaker_win_share", Some(false)) => {
            Figure::of(id, f, get("home_win_share")?, p, |x| x)
        }
        ("stronger_win_share", Some(false)) | ("weaker_win_share", Some(true)) => {
            Figure::of(id, f, get("away_win_share")?, p, |x| x)
        }
        ("stronger_possession", Some(h)) => {
            Figure::of(id, f, get("home_possession")?, p, |x| if h { x } else { 1.0 - x })
        }
        ("stronger_shots_ratio", Some(h)) => Figure::of(id, f, get("home_shots_share")?, p, |x| {
            let s = if h { x } else { 1.0 - x };
            s / (1.0 - s).max(1e-9)
        }),
        (m, _) => Figure::of(id, f, get(m)?, p, |x| x),
    })
}

/// The checks of every fixture the settings select (and, for 0.5 documents, the reference club
/// against itself held to the league averages).
pub fn run(
    catalog: &Catalog,
    rules: &Arc<Rules>,
    t: &Targets,
    clubs: &Clubs,
    s: &Settings,
) -> Result<Vec<Check>, String> {
    let _ = catalog;
    let rev = &rules.rs.revision;
    let mut fixtures: Vec<(Fixture, super::doc::Ranges)> = Vec::new();
    for f in &t.fixtures {
        fixtures.push((f.clone(), t.ranges[&f.ranges].clone()));
    }
    if let Some(l) = &t.league {
        let ranges = [
            ("goals_per_match", l.goals_per_match),
            ("shots_per_match", l.shots_per_match),
            ("pass_completion", l.pass_completion),
            ("shot_conversion", l.shot_conversion),
        ]
        .into_iter()
        .map(|(k, v)| (k.to_string(), v))
        .collect();
        let f = Fixture {
            id: "league".into(),
            label: Labels {
                pt_br: "clube de referência contra si mesmo".into(),
                en: "reference club against itself".into(),
            },
            home: Some("reference".into()),
            away: Some("reference".into()),
            clubs: None,
            stronger: None,
            weaker: None,
            draw: None,
            ranges: String::new(),
            pooled: Vec::new(),
            draws: Vec::new(),
        };
        fixtures.push((f, ranges));
    }
    let mut out = Vec::new();
    for (f, ranges) in fixtures {
        if !s.fixtures.is_empty() && !s.fixtures.contains(&f.id) {
            continue;
        }
        // The orders to play, each with its pairs of clubs (home, away): more than one when the
        // fixture names further draws of the same presets; and whether the stronger side is at home.
        let orders: Vec<(Pairs, Option<bool>)> = match (&f.home, &f.away, &f.clubs, &f.stronger, &f.weaker) {
            (Some(h), Some(a), _, _, _) => vec![(vec![(h, a)], None)],
            (_, _, Some([a, b]), _, _) => vec![(vec![(a, b)], None), (vec![(b, a)], None)],
            (_, _, _, Some(st), Some(w)) => {
                let pairs: Pairs = std::iter::once((st.as_str(), w.as_str()))
                    .chain(f.draws.iter().map(|[s, w]| (s.as_str(), w.as_str())))
                    .collect();
                vec![(pairs.clone(), Some(true)), (pairs.iter().map(|&(s, w)| (w, s)).collect(), Some(false))]
            }
            (_, _, _, _, _) if f.draw.is_some() => {
                out.extend(drawn(rules, &f, &ranges, s)?);
                continue;
            }
            _ => unreachable!("checked when the document was read"),
        };
        // One report per pair of each order, each pair with its own `matches`.
        let mut played: Vec<Order> = Vec::new();
        for (pairs, stronger_home) in &orders {
            let mut reports = Vec::new();
            for &(h, a) in pairs {
                let sim = MatchSimulator { home: clubs.get(h).clone(), away: clubs.get(a).clone() };
                reports.push((format!("{h} v {a}"), lab_run(&sim, rev, s)?));
            }
            let label = reports.iter().map(|(l, _)| l.as_str()).collect::<Vec<_>>().join(" · ");
            played.push(Order { label, reports, stronger_home: *stronger_home });
        }
        out.extend(judge_orders(&f, &ranges, &played)?);
    }
    Ok(out)
}

/// Every range of a fixture judged on the orders played: a metric the fixture pools on both
/// orders together (the mean of the two), any other on each order on its own; either way the
/// mean over the order's pairs' reports.
fn judge_orders(f: &Fixture, ranges: &super::doc::Ranges, played: &[Order]) -> Result<Vec<Check>, String> {
    let mut out = Vec::new();
    for (metric, range) in ranges {
        let groups: Vec<(Option<String>, Vec<&Order>)> = if f.pooled.contains(metric) && played.len() > 1 {
            vec![(Some("both orders".into()), played.iter().collect())]
        } else {
            played.iter().map(|o| (Some(o.label.clone()), vec![o])).collect()
        };
        for (order, group) in groups {
            let mut parts = Vec::new();
            for o in &group {
                for (pair, r) in &o.reports {
                    parts.push((pair.clone(), figure(r, metric, o.stronger_home)?));
                }
            }
            out.push(pooled_check(&f.id, order, metric, parts, *range));
        }
    }
    Ok(out)
}

/// A fixture of clubs drawn from presets (0.6.21): `pairs` pairs drawn from the run's seed, each
/// order one lab run over all of them (the matches spread evenly over the pairs, on dice of the
/// fixture and order's own), its figure pooled over every pair's matches.
fn drawn(rules: &Arc<Rules>, f: &Fixture, ranges: &super::doc::Ranges, s: &Settings) -> Result<Vec<Check>, String> {
    let d = f.draw.as_ref().expect("a drawn fixture");
    let [p, q] = &d.presets;
    let at = format!("calibration.json fixture '{}'", f.id);
    let mut pairs = Vec::with_capacity(d.pairs);
    for k in 0..d.pairs {
        let home =
            super::population::draw(rules, p, s.seed, &format!("fixture/{}/{k}/0", f.id), &format!("{p} {k}a"), &at)?;
        let away =
            super::population::draw(rules, q, s.seed, &format!("fixture/{}/{k}/1", f.id), &format!("{q} {k}b"), &at)?;
        pairs.push((home, away));
    }
    let unequal = p != q;
    let per_pair = s.matches.div_ceil(d.pairs as u64);
    let simulations = per_pair * d.pairs as u64;
    let mut played = Vec::new();
    for (o, home_first) in [true, false].into_iter().enumerate() {
        let sims: Vec<MatchSimulator> = pairs
            .iter()
            .map(|(a, b)| {
                let (h, w) = if home_first { (a, b) } else { (b, a) };
                MatchSimulator { home: h.clone(), away: w.clone() }
            })
            .collect();
        let sim = super::population::PopulationSimulator { pairs: sims };
        let seed = super::population::derive_seed(s.seed, &format!("fixture/{}/order/{o}", f.id));
        let report = lab_run_on(&sim, &rules.rs.revision, simulations, seed)?;
        // Clubs of one preset are told apart by their side of the pair as drawn.
        let (x, y) = if unequal { (p.clone(), q.clone()) } else { (format!("{p} a"), format!("{q} b")) };
        let (h, a) = if home_first { (x, y) } else { (y, x) };
        let label = format!("{h} v {a}, {} drawn pairs × {per_pair} matches", d.pairs);
        played.push(Order {
            label: label.clone(),
            reports: vec![(label, report)],
            stronger_home: unequal.then_some(home_first),
        });
    }
    judge_orders(f, ranges, &played)
}

/// The pairs of clubs (home, away) that play one order of a fixture.
type Pairs<'a> = Vec<(&'a str, &'a str)>;

/// One order of a fixture as played: its pairs' reports and which side is the stronger.
struct Order {
    label: String,
    reports: Vec<(String, Report)>,
    stronger_home: Option<bool>,
}

/// The check of figures measured on one or more pairs of clubs: one pair's figure as it is; for
/// several, their mean, the variances added, each pair's own figure printed beside it (a pooled
/// reading must not hide how far apart the orders or the draws are). A pair with nothing to
/// count leaves the figure undefined.
fn pooled_check(
    group: &str,
    order: Option<String>,
    metric: &str,
    mut parts: Vec<(String, Option<Figure>)>,
    range: [f64; 2],
) -> Check {
    let undefined = || Check {
        group: group.into(),
        order: order.clone(),
        id: metric.into(),
        fact: fact_of(metric).into(),
        figure: "undefined (nothing to count)".into(),
        value: None,
        ci95: None,
        target: format!("{}–{}", range[0], range[1]),
        range: Some(range),
        pass: false,
        orders: Vec::new(),
    };
    if parts.iter().any(|(_, f)| f.is_none()) {
        return undefined();
    }
    if parts.len() == 1 {
        let (_, one) = parts.pop().expect("one part");
        return one.expect("defined").check(group, order, range);
    }
    let figs: Vec<&Figure> = parts.iter().filter_map(|(_, f)| f.as_ref()).collect();
    let n = figs.len() as f64;
    let value = figs.iter().map(|p| p.value).sum::<f64>() / n;
    let se2: Option<f64> = figs.iter().map(|p| p.ci.map(|(a, b)| ((b - a) / (2.0 * Z95)).powi(2))).sum();
    let ci = se2.map(|v| {
        let h = Z95 * v.sqrt() / n;
        (value - h, value + h)
    });
    let fig = Figure { id: metric.into(), fact: fact_of(metric).into(), value, ci, percent: percent(metric) };
    let each: Vec<super::OrderFigure> = parts
        .iter()
        .zip(&figs)
        .map(|((pair, _), p)| super::OrderFigure { order: pair.clone(), value: p.value })
        .collect();
    let shown = each.iter().map(|o| format!("{} {}", o.order, fig.show(o.value))).collect::<Vec<_>>().join(", ");
    let mut check = fig.check(group, order, range);
    check.figure = format!("{} ({shown})", check.figure);
    check.orders = each;
    check
}

/// Two variants of a fixture played on the same dice: what the home side scores and how its
/// duels go, in each (and the difference in goals, paired).
pub struct VariantSimulator {
    pub base: (Club, Club),
    pub variant: (Club, Club),
}

/// The keeper check of 0.6 is one of these: the away side's keepers made worse.
pub type KeeperSimulator = VariantSimulator;

fn labels(pt: &str, en: &str) -> Labels {
    Labels { pt_br: pt.into(), en: en.into() }
}

fn metric(id: &str, pt: &str, en: &str, kind: Kind) -> Metric {
    let format = if kind == Kind::Ratio { Format::Percent } else { Format::Number };
    Metric { id: id.into(), label: labels(pt, en), kind, scale: 1, format, parts: vec![] }
}

impl Simulator for VariantSimulator {
    type Rules = Arc<Rules>;

    fn ruleset(&self) -> &'static str {
        "microfut"
    }

    fn unit(&self) -> Unit {
        Unit { id: "matches".into(), label: labels("pares de partidas", "pairs of matches") }
    }

    fn compile(&self, revision: &Revision) -> Result<Self::Rules, Vec<Diagnostic>> {
        let rules = MatchSimulator { home: self.base.0.clone(), away: self.base.1.clone() }.compile(revision)?;
        for club in [&self.variant.0, &self.variant.1] {
            if let Err(e) = crate::engine::setup::select(&rules, club, None) {
                return Err(vec![Diagnostic::new(format!("club {}", club.id), "", e.to_string())]);
            }
        }
        Ok(rules)
    }

    fn setup(&self) -> Option<String> {
        Some(format!("{} v {} against a variant", self.base.0.id, self.base.1.id))
    }

    fn metrics(&self, _rules: &Self::Rules) -> Vec<Metric> {
        use Kind::{Mean, Ratio};
        vec![
            metric("base_home_goals", "gols do mandante", "home goals", Mean),
            metric("variant_home_goals", "gols do mandante, variante", "home goals, variant", Mean),
            metric("extra_home_goals", "gols a mais do mandante na variante", "home goals the variant adds", Mean),
            metric("base_duels_won", "duelos vencidos pelo mandante", "home duels won", Ratio),
            metric("variant_duels_won", "duelos vencidos pelo mandante, variante", "home duels won, variant", Ratio),
        ]
    }

    fn simulate(&self, rules: &Self::Rules, index: u64, dice: &mut Dice, out: &mut [i64]) -> Result<(), String> {
        let play = |(home, away): &(Club, Club), dice: Dice| -> Result<TeamStats, String> {
            let mut m = Match::with_dice(
                rules.clone(),
                home,
                away,
                dice,
                index,
                Options { retention: Some(0), ..Default::default() },
            )
            .expect("clubs were checked when the revision was compiled");
            m.run().map_err(|e| e.to_string())?;
            Ok(m.stats()[0].clone())
        };
        let (b, v) = (play(&self.base, dice.clone())?, play(&self.variant, dice.clone())?);
        out[..7].copy_from_slice(&[
            b.goals as i64,
            v.goals as i64,
            v.goals as i64 - b.goals as i64,
            b.dribbles_won as i64,
            (b.dribbles_won + b.dribbles_lost) as i64,
            v.dribbles_won as i64,
            (v.dribbles_won + v.dribbles_lost) as i64,
        ]);
        Ok(())
    }
}

/// Every player of a side (keepers or outfield) with the given skills and attributes at `level`,
/// or (`by`) moved by that many levels within the scale.
fn with_level(
    rules: &Rules,
    club: &Club,
    keepers: bool,
    skills: &[&str],
    attributes: &[&str],
    level: i32,
    by: bool,
) -> Club {
    let rs = &rules.rs;
    let scale =
        |name: &str| rs.var(name).map_or((i32::MIN, i32::MAX), |v| (rs.vars[v].min as i32, rs.vars[v].max as i32));
    let mut c = club.clone();
    for s in c.squad.iter_mut().filter(|s| (rules.roles.line_of(&s.role) == Some("goalkeeper")) == keepers) {
        for k in skills {
            let (lo, hi) = scale(k);
            let now = s.skills.get(*k).copied().unwrap_or(lo);
            s.skills.insert(k.to_string(), if by { (now + level).clamp(lo, hi) } else { level });
        }
        for a in attributes {
            let (lo, hi) = scale(a);
            let now = s.attributes.get(*a).copied().unwrap_or(lo);
            s.attributes.insert(a.to_string(), if by { (now + level).clamp(lo, hi) } else { level });
        }
    }
    c
}

/// Appendix D's comparisons (a better keeper, better dribblers, better tacklers) and the 0.6
/// keeper check, each a variant against its base on the same dice.
pub fn paired_facts(
    catalog: &Catalog,
    rules: &Arc<Rules>,
    t: &Targets,
    clubs: &Clubs,
    s: &Settings,
) -> Result<Vec<Check>, String> {
    let _ = catalog;
    let rev = &rules.rs.revision;
    let club = clubs.get("reference");
    let (lo, hi) = (t.levels.low, t.levels.high);
    // A direction, judged on the difference variant − base: its interval adds the two
    // estimates' variances, as if they were independent (wider than the paired one, so the
    // interval judging leans to passing), and the range is the half-line of the direction.
    let fact = |id: &str, fact: &str, figure: String, target: String, r: &Report, (b, v): (&str, &str), up: bool| {
        let (base, variant) = (est(r, b), est(r, v));
        let diff = match (base.and_then(|e| e.value), variant.and_then(|e| e.value)) {
            (Some(x), Some(y)) => Some(y - x),
            _ => None,
        };
        let half = |e: Option<Estimate>| e.and_then(|e| e.ci95()).map(|(a, b)| (b - a) / 2.0);
        let ci = match (diff, half(base), half(variant)) {
            (Some(d), Some(x), Some(y)) => Some([d - x.hypot(y), d + x.hypot(y)]),
            _ => None,
        };
        let range = if up { [0.0, f64::INFINITY] } else { [f64::NEG_INFINITY, 0.0] };
        Check {
            group: "facts".into(),
            order: None,
            id: id.into(),
            fact: fact.into(),
            figure,
            value: diff,
            ci95: ci,
            range: Some(range),
            target,
            pass: diff.is_some_and(|d| if up { d > 0.0 } else { d < 0.0 }),
            orders: Vec::new(),
        }
    };
    let value = |r: &Report, id: &str| est(r, id).and_then(|e| e.value).unwrap_or(f64::NAN);
    let mut out = Vec::new();

    // A better, well-placed keeper concedes fewer goals: the away side's keepers at `low` against
    // at `high`, the home side shooting at them.
    let keeper = |level| with_level(rules, club, true, &["goalkeeping", "positioning"], &["dx", "iq"], level, false);
    let r =
        lab_run(&VariantSimulator { base: (club.clone(), keeper(lo)), variant: (club.clone(), keeper(hi)) }, rev, s)?;
    let (weak, strong) = (value(&r, "base_home_goals"), value(&r, "variant_home_goals"));
    out.push(fact(
        "keeper_levels",
        "a better, well-placed keeper concedes fewer goals",
        format!("keeper at {lo}: {weak:.2} conceded per match; at {hi}: {strong:.2}"),
        "fewer with the better keeper".into(),
        &r,
        ("base_home_goals", "variant_home_goals"),
        false,
    ));
    let dribblers = |level| with_level(rules, club, false, &["dribbling"], &[], level, false);
    let r = lab_run(
        &VariantSimulator { base: (dribblers(lo), club.clone()), variant: (dribblers(hi), club.clone()) },
        rev,
        s,
    )?;
    let (d_lo, d_hi) = (value(&r, "base_duels_won"), value(&r, "variant_duels_won"));
    out.push(fact(
        "dribbling_levels",
        "better dribbling wins more duels",
        format!("dribbling {lo}: {} of duels won; {hi}: {}", pct(d_lo), pct(d_hi)),
        "more with better dribbling".into(),
        &r,
        ("base_duels_won", "variant_duels_won"),
        true,
    ));
    let tacklers = |level| with_level(rules, club, false, &["tackling"], &[], level, false);
    let r = lab_run(
        &VariantSimulator { base: (club.clone(), tacklers(lo)), variant: (club.clone(), tacklers(hi)) },
        rev,
        s,
    )?;
    let (t_lo, t_hi) = (value(&r, "base_duels_won"), value(&r, "variant_duels_won"));
    out.push(fact(
        "tackling_levels",
        "better tackling lets fewer dribbles through",
        format!("opponents' tackling {lo}: {} of duels won; {hi}: {}", pct(t_lo), pct(t_hi)),
        "fewer against better tackling".into(),
        &r,
        ("base_duels_won", "variant_duels_won"),
        false,
    ));

    // 0.6: a side's keepers `drop` levels worse in one skill concede a bounded number more.
    if let Some(k) = &t.keeper {
        let base = clubs.get(&k.club);
        let worse = with_level(rules, base, true, &[k.skill.as_str()], &[], -k.drop, true);
        let sim = VariantSimulator { base: (base.clone(), base.clone()), variant: (base.clone(), worse) };
        let r = lab_run(&sim, rev, s)?;
        let e = est(&r, "extra_home_goals").ok_or("the keeper check measured nothing")?;
        let fig = Figure::of(
            "keeper_drop",
            &format!("keepers {} levels worse in {} concede more, within reason", k.drop, k.skill),
            e,
            false,
            |x| x,
        )
        .ok_or("the keeper check measured nothing")?;
        let mut c = fig.check("facts", Some(format!("{} v {} (keepers worse)", k.club, k.club)), k.extra_conceded);
        c.figure = format!("{} more goals conceded per match", c.figure);
        out.push(c);
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fig(value: f64, half: f64) -> Option<Figure> {
        Some(Figure {
            id: "draw_share".into(),
            fact: "draws".into(),
            value,
            ci: Some((value - half, value + half)),
            percent: true,
        })
    }

    fn parts(figs: Vec<Option<Figure>>) -> Vec<(String, Option<Figure>)> {
        figs.into_iter().enumerate().map(|(i, f)| (format!("pair {i}"), f)).collect()
    }

    #[test]
    fn one_part_is_judged_as_it_is() {
        let c = pooled_check("g", Some("a v b".into()), "draw_share", parts(vec![fig(0.25, 0.02)]), [0.22, 0.3]);
        assert_eq!((c.value, c.ci95, c.pass), (Some(0.25), Some([0.25 - 0.02, 0.25 + 0.02]), true));
        assert_eq!(c.figure, "25.0% [23.0%, 27.0%]");
        assert!(c.orders.is_empty());
    }

    #[test]
    fn several_parts_are_their_mean_with_the_variances_added_and_each_named() {
        let c = pooled_check(
            "g",
            None,
            "draw_share",
            parts(vec![fig(0.2, 0.03), fig(0.3, 0.04), fig(0.4, 0.0)]),
            [0.22, 0.3],
        );
        assert!((c.value.unwrap() - 0.3).abs() < 1e-12);
        // Half-widths 0.03 and 0.04 (and 0): the mean's is √(0.03² + 0.04²) / 3.
        let [lo, hi] = c.ci95.unwrap();
        assert!((hi - lo - 2.0 * 0.05 / 3.0).abs() < 1e-12, "{lo} {hi}");
        let names: Vec<(&str, f64)> = c.orders.iter().map(|o| (o.order.as_str(), o.value)).collect();
        assert_eq!(names, [("pair 0", 0.2), ("pair 1", 0.3), ("pair 2", 0.4)]);
        assert!(c.figure.ends_with("(pair 0 20.0%, pair 1 30.0%, pair 2 40.0%)"), "{}", c.figure);
        assert!(c.pass);
    }

    /// A pooled figure one of whose parts counted nothing is reported, undefined, and fails
    /// (it used to be left out of the report).
    #[test]
    fn a_part_with_nothing_to_count_leaves_the_figure_undefined() {
        let c = pooled_check("g", None, "draw_share", parts(vec![fig(0.25, 0.02), None]), [0.22, 0.3]);
        assert_eq!((c.value, c.pass), (None, false));
        assert_eq!(c.figure, "undefined (nothing to count)");
    }
}
