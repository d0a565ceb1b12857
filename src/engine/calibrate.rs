//! `microfut lab calibrate`: the rules document's Appendix D facts and league season averages,
//! each measured on the pinned revision and checked against the targets in its
//! `calibration.json`. Facts about single actions are exact projections on constructed
//! situations; facts about matches use paired seeds (the same dice for both variants).

use super::geometry::V2;
use super::{Match, Options, Rules, TeamStats};
use crate::catalog::declared_schema;
use crate::club::Club;
use crate::club::generate::{Request, generate};
use rayon::prelude::*;
use serde::{Deserialize, Serialize};
use std::sync::Arc;

#[derive(Debug, Clone, Deserialize)]
pub struct Targets {
    pub reference_club: String,
    pub league: League,
    pub pass: PassTargets,
    pub finishing: FinishingTargets,
    pub levels: Levels,
    pub squads: Squads,
}

#[derive(Debug, Clone, Deserialize)]
pub struct League {
    pub goals_per_match: [f64; 2],
    pub shots_per_match: [f64; 2],
    pub pass_completion: [f64; 2],
    pub shot_conversion: [f64; 2],
}

#[derive(Debug, Clone, Deserialize)]
pub struct PassTargets {
    pub distances: Vec<f64>,
    pub free_short_min: f64,
}

#[derive(Debug, Clone, Deserialize)]
pub struct FinishingTargets {
    pub close: f64,
    pub far: f64,
    pub min_gap: f64,
    pub open_goal_distance: f64,
    pub open_goal_min: f64,
    pub typical_distance: f64,
    pub typical_max: f64,
}

#[derive(Debug, Clone, Deserialize)]
pub struct Levels {
    pub low: i32,
    pub high: i32,
}

#[derive(Debug, Clone, Deserialize)]
pub struct Squads {
    pub preset: String,
    pub count: u64,
    pub max_share_of_18: f64,
}

impl Targets {
    /// The revision's calibration targets.
    pub fn of(rules: &Rules) -> Result<Targets, String> {
        let rev = &rules.rs.revision;
        let (name, doc) =
            rev.documents.iter().find(|(_, d)| declared_schema(d) == Some("calibration.schema.json")).ok_or_else(
                || format!("revision {} has no calibration targets (calibration.json)", rules.rs.label()),
            )?;
        serde_json::from_value(doc.clone()).map_err(|e| format!("{}: {e}", rev.file(name)))
    }
}

/// One measured fact.
#[derive(Debug, Clone, Serialize)]
pub struct Check {
    pub id: &'static str,
    pub fact: &'static str,
    pub figure: String,
    pub target: String,
    pub pass: bool,
}

#[derive(Debug, Clone, Copy)]
pub struct Settings {
    /// Matches per variant for the match-level facts.
    pub matches: u64,
    pub seed: u64,
}

fn pct(x: f64) -> String {
    format!("{:.1}%", 100.0 * x)
}

/// A match whose players are all parked on the touchlines, keepers in goal: a stage for
/// constructed situations.
fn stage(rules: &Arc<Rules>, home: &Club, away: &Club) -> Result<Match, super::EngineError> {
    let mut m = Match::new(rules.clone(), home, away, 0, Options { retention: Some(0), ..Default::default() })?;
    for slot in 0..11 {
        if let (Some(h), Some(a)) = (m.player_in_slot(0, slot), m.player_in_slot(1, slot)) {
            m.place(h, V2::new(4.0 + 4.0 * slot as f64, 0.5), V2::new(1.0, 0.0));
            m.place(a, V2::new(4.0 + 4.0 * slot as f64, 67.5), V2::new(-1.0, 0.0));
        }
    }
    let pitch = rules.pitch;
    let (hk, ak) = (m.player_in_slot(0, 0).expect("keeper slot"), m.player_in_slot(1, 0).expect("keeper slot"));
    m.place(hk, V2::new(1.0, pitch.goal_y), V2::new(1.0, 0.0));
    m.place(ak, V2::new(pitch.length - 1.0, pitch.goal_y), V2::new(-1.0, 0.0));
    Ok(m)
}

/// The keeper well placed for a shot from `from`: on the ball–goal line at the content's depth.
fn place_keeper(m: &mut Match, rules: &Rules, from: V2) {
    let pr = rules.params;
    let goal = rules.pitch.goal();
    let depth = (pr.gk_depth + pr.gk_depth_per_metre * from.dist(goal)).min(pr.gk_max_depth);
    let k = m.player_in_slot(1, 0).expect("keeper slot");
    m.place(k, goal + (from - goal).unit() * depth, V2::new(-1.0, 0.0));
}

/// Every player of a side (keepers or outfield) with the given values.
fn with_level(club: &Club, keepers: bool, skills: &[&str], attributes: &[&str], level: i32) -> Club {
    let mut c = club.clone();
    for s in c.squad.iter_mut().filter(|s| (s.role == "goalkeeper") == keepers) {
        for k in skills {
            s.skills.insert(k.to_string(), level);
        }
        for a in attributes {
            s.attributes.insert(a.to_string(), level);
        }
    }
    c
}

/// Plays `n` matches on paired seeds, returning each match's (home, away) statistics; refused
/// when one stops on a non-finite value.
fn matches(rules: &Arc<Rules>, home: &Club, away: &Club, s: Settings) -> Result<Vec<(TeamStats, TeamStats)>, String> {
    (0..s.matches)
        .into_par_iter()
        .map(|i| {
            let mut m = Match::new(
                rules.clone(),
                home,
                away,
                s.seed.wrapping_add(i),
                Options { retention: Some(0), ..Default::default() },
            )
            .expect("the reference club takes the field");
            m.run().map_err(|e| e.to_string())?;
            Ok((m.stats()[0].clone(), m.stats()[1].clone()))
        })
        .collect()
}

fn dribble_rate(stats: &[(TeamStats, TeamStats)]) -> f64 {
    let (w, l) = stats.iter().fold((0u32, 0u32), |(w, l), (h, _)| (w + h.dribbles_won, l + h.dribbles_lost));
    w as f64 / (w + l).max(1) as f64
}

pub fn calibrate(rules: Arc<Rules>, club: &Club, targets: &Targets, s: Settings) -> Result<Vec<Check>, String> {
    let mut out = Vec::new();
    let err = |e: super::EngineError| e.to_string();
    let pitch = rules.pitch;
    let (lo, hi) = (targets.levels.low, targets.levels.high);

    // Passes: longer is never easier; a free short pass is very reliable; an interceptor on the
    // line makes it worse.
    {
        let mut chances = Vec::new();
        for &d in &targets.pass.distances {
            let mut m = stage(&rules, club, club).map_err(err)?;
            let (passer, receiver) = (m.player_in_slot(0, 6).expect("slot"), m.player_in_slot(0, 7).expect("slot"));
            m.place(passer, V2::new(30.0, pitch.goal_y), V2::new(1.0, 0.0));
            m.place(receiver, V2::new(30.0 + d, pitch.goal_y), V2::new(-1.0, 0.0));
            m.give_ball(passer);
            let shirt = m.state().players[receiver].shirt;
            let c = m.scored_candidates();
            let pass = c.iter().find(|c| c.kind == super::Kind::Pass && c.target == super::Target::Player(shirt));
            chances.push(pass.map_or(0.0, |c| c.success));
        }
        let monotone = chances.windows(2).all(|w| w[1] <= w[0] + 1e-12);
        let figure = targets
            .pass
            .distances
            .iter()
            .zip(&chances)
            .map(|(d, c)| format!("{d} m {}", pct(*c)))
            .collect::<Vec<_>>()
            .join(", ");
        out.push(Check {
            id: "pass_distance",
            fact: "a longer distance never raises the same pass's chance",
            figure: figure.clone(),
            target: "non-increasing".into(),
            pass: monotone,
        });
        out.push(Check {
            id: "pass_free_short",
            fact: "a free short pass is very reliable",
            figure: format!("{} m free: {}", targets.pass.distances[0], pct(chances[0])),
            target: format!("≥ {}", pct(targets.pass.free_short_min)),
            pass: chances[0] >= targets.pass.free_short_min,
        });
        let d = targets.pass.distances[0];
        let mut m = stage(&rules, club, club).map_err(err)?;
        let (passer, receiver, marker) = (
            m.player_in_slot(0, 6).expect("slot"),
            m.player_in_slot(0, 7).expect("slot"),
            m.player_in_slot(1, 2).expect("slot"),
        );
        m.place(passer, V2::new(30.0, pitch.goal_y), V2::new(1.0, 0.0));
        m.place(receiver, V2::new(30.0 + d, pitch.goal_y), V2::new(-1.0, 0.0));
        m.place(marker, V2::new(30.0 + d / 2.0, pitch.goal_y + 0.5), V2::new(-1.0, 0.0));
        m.give_ball(passer);
        let shirt = m.state().players[receiver].shirt;
        let c = m.scored_candidates();
        let with = c
            .iter()
            .find(|c| c.kind == super::Kind::Pass && c.target == super::Target::Player(shirt))
            .map_or(0.0, |c| c.success);
        out.push(Check {
            id: "pass_interceptor",
            fact: "an interceptor on the line makes the pass worse",
            figure: format!("{d} m: {} free, {} with an interceptor", pct(chances[0]), pct(with)),
            target: "lower with the interceptor".into(),
            pass: with < chances[0],
        });
    }

    // Finishing: central 6–10 m much better than 25–40 m; an open goal nearly certain without
    // every shot being certain.
    {
        let f = &targets.finishing;
        let shot = |distance: f64, keeper_in_goal: bool| -> Result<(f64, f64), String> {
            let mut m = stage(&rules, club, club).map_err(err)?;
            let striker = m.player_in_slot(0, 9).expect("slot");
            let from = V2::new(pitch.length - distance, pitch.goal_y);
            m.place(striker, from, V2::new(1.0, 0.0));
            if keeper_in_goal {
                place_keeper(&mut m, &rules, from);
            } else {
                let k = m.player_in_slot(1, 0).expect("slot");
                m.place(k, V2::new(pitch.length - 30.0, 2.0), V2::new(-1.0, 0.0));
            }
            m.give_ball(striker);
            Ok(m.strike_chances(striker, false))
        };
        let (close, far) = (shot(f.close, true)?, shot(f.far, true)?);
        out.push(Check {
            id: "finishing_close_vs_far",
            fact: "central finishing at 6–10 m is much better than at 25–40 m",
            figure: format!(
                "test {} at {} m vs {} at {} m; goal {} vs {}",
                pct(close.0),
                f.close,
                pct(far.0),
                f.far,
                pct(close.1),
                pct(far.1)
            ),
            target: format!("goal chance gap ≥ {}", pct(f.min_gap)),
            pass: close.1 - far.1 >= f.min_gap,
        });
        let (open, typical) = (shot(f.open_goal_distance, false)?, shot(f.typical_distance, true)?);
        out.push(Check {
            id: "open_goal",
            fact: "an open goal close in is almost certain, without every shot being certain",
            figure: format!(
                "open goal at {} m: {}; a {} m shot at a placed keeper: {}",
                f.open_goal_distance,
                pct(open.1),
                f.typical_distance,
                pct(typical.1)
            ),
            target: format!("≥ {} and ≤ {}", pct(f.open_goal_min), pct(f.typical_max)),
            pass: open.1 >= f.open_goal_min && typical.1 <= f.typical_max,
        });
    }

    // Stamina: sprinting with the ball costs more than the same sprint without it; exhaustion
    // shortens movement before it breaks a simple pass.
    {
        let m = stage(&rules, club, club).map_err(err)?;
        let rs = &rules.rs;
        let p = m.player_in_slot(0, 6).expect("slot");
        let mut inputs = m.state().players[p].inputs.clone();
        let sl = rules.slots;
        let cost = rs.pipeline("stamina_cost").ok_or("no stamina_cost pipeline")?;
        inputs.set(sl.distance, 20.0);
        inputs.set(sl.pace, rules.paces[2]);
        inputs.set(sl.physical_duel, 0.0);
        inputs.set(sl.with_ball, 1.0);
        let with = cost.resolve(&inputs).value;
        inputs.set(sl.with_ball, 0.0);
        let without = cost.resolve(&inputs).value;
        out.push(Check {
            id: "sprint_with_ball",
            fact: "sprinting with the ball costs more stamina than the same sprint without it",
            figure: format!("20 m sprint: {with:.2} STA with the ball, {without:.2} without"),
            target: "more with the ball".into(),
            pass: with > without,
        });
        let movement = &rs.pipelines[rules.pipes.movement_range];
        let pass = &rs.pipelines[rules.pipes.pass];
        inputs.set(sl.pace, rules.paces[1]);
        inputs.set(sl.distance, 10.0);
        inputs.set(sl.nearest_opponent, 10.0);
        inputs.set(sl.opponents_within_3m, 0.0);
        inputs.set(sl.orientation, 0.0);
        inputs.set(sl.neutral_orientation, 0.0);
        let at = |inputs: &mut crate::ruleset::Inputs, stamina: f64| {
            inputs.set(sl.stamina, stamina);
            (movement.resolve(inputs).value, pass.resolve(inputs).value)
        };
        let fresh = at(&mut inputs, rules.params.stamina_max);
        let (mut slower, mut worse) = (None, None);
        for k in (0..=100).rev() {
            let st = rules.params.stamina_max * k as f64 / 100.0;
            let (mv, pv) = at(&mut inputs, st);
            if mv < fresh.0 && slower.is_none() {
                slower = Some(st);
            }
            if pv < fresh.1 && worse.is_none() {
                worse = Some(st);
            }
        }
        out.push(Check {
            id: "exhaustion_order",
            fact: "exhaustion reduces movement before it breaks simple passes",
            figure: format!(
                "movement shrinks below {}; a simple pass suffers {}",
                slower.map_or("never".into(), |s| format!("{s:.0} STA")),
                worse.map_or("at no stamina".into(), |s| format!("below {s:.0} STA"))
            ),
            target: "movement first".into(),
            pass: match (slower, worse) {
                (Some(m), Some(p)) => m > p,
                (Some(_), None) => true,
                _ => false,
            },
        });
    }

    // Matches on paired seeds.
    {
        let base = matches(&rules, club, club, s)?;
        let n = base.len().max(1) as f64;
        let sum = |f: &dyn Fn(&TeamStats) -> f64| base.iter().map(|(h, a)| f(h) + f(a)).sum::<f64>();
        let goals = sum(&|t| t.goals as f64);
        let shots = sum(&|t| t.shots as f64);
        let passes = sum(&|t| t.passes as f64);
        let completed = sum(&|t| t.passes_completed as f64);
        let l = &targets.league;
        let within = |x: f64, r: [f64; 2]| x >= r[0] && x <= r[1];
        for (id, fact, value, range, as_pct) in [
            ("league_goals", "goals per match near league averages", goals / n, l.goals_per_match, false),
            ("league_shots", "shots per match near league averages", shots / n, l.shots_per_match, false),
            (
                "league_pass_completion",
                "pass completion near league averages",
                completed / passes.max(1.0),
                l.pass_completion,
                true,
            ),
            (
                "league_conversion",
                "share of shots scored near league averages",
                goals / shots.max(1.0),
                l.shot_conversion,
                true,
            ),
        ] {
            let show = |x: f64| if as_pct { pct(x) } else { format!("{x:.2}") };
            out.push(Check {
                id,
                fact,
                figure: format!("{} over {} matches", show(value), s.matches),
                target: format!("{}–{}", show(range[0]), show(range[1])),
                pass: within(value, range),
            });
        }

        let keeper = |level| with_level(club, true, &["goalkeeping", "positioning"], &["dx", "iq"], level);
        let conceded = |away: &Club| {
            let st = matches(&rules, club, away, s)?;
            Ok::<f64, String>(st.iter().map(|(h, _)| h.goals as f64).sum::<f64>() / st.len().max(1) as f64)
        };
        let (weak, strong) = (conceded(&keeper(lo))?, conceded(&keeper(hi))?);
        out.push(Check {
            id: "keeper_levels",
            fact: "a better, well-placed keeper concedes fewer goals",
            figure: format!("keeper at {lo}: {weak:.2} conceded per match; at {hi}: {strong:.2}"),
            target: "fewer with the better keeper".into(),
            pass: strong < weak,
        });
        let dribblers = |level| with_level(club, false, &["dribbling"], &[], level);
        let (d_lo, d_hi) = (
            dribble_rate(&matches(&rules, &dribblers(lo), club, s)?),
            dribble_rate(&matches(&rules, &dribblers(hi), club, s)?),
        );
        out.push(Check {
            id: "dribbling_levels",
            fact: "better dribbling wins more duels",
            figure: format!("dribbling {lo}: {} of duels won; {hi}: {}", pct(d_lo), pct(d_hi)),
            target: "more with better dribbling".into(),
            pass: d_hi > d_lo,
        });
        let tacklers = |level| with_level(club, false, &["tackling"], &[], level);
        let (t_lo, t_hi) = (
            dribble_rate(&matches(&rules, club, &tacklers(lo), s)?),
            dribble_rate(&matches(&rules, club, &tacklers(hi), s)?),
        );
        out.push(Check {
            id: "tackling_levels",
            fact: "better tackling lets fewer dribbles through",
            figure: format!("opponents' tackling {lo}: {} of dribbles won; {hi}: {}", pct(t_lo), pct(t_hi)),
            target: "fewer against better tackling".into(),
            pass: t_hi < t_lo,
        });
        let replayed = |seed| {
            let mut m =
                Match::new(rules.clone(), club, club, seed, Options { retention: Some(0), ..Default::default() })
                    .expect("plays");
            m.run().map(|_| m.round_hashes().to_vec()).map_err(|e| e.to_string())
        };
        let same = replayed(s.seed)? == replayed(s.seed)?;
        out.push(Check {
            id: "same_seed",
            fact: "the same seed reproduces the same match",
            figure: if same { "identical round hashes".into() } else { "round hashes differ".into() },
            target: "identical".into(),
            pass: same,
        });
    }

    // Squads: 18s are rare by economics, not by a lock.
    {
        let sq = &targets.squads;
        let rs = &rules.rs;
        let rules_club = crate::club::rules::ClubRules::need(rs, "calibration").map_err(|e| e.to_string())?;
        let budget = rules_club.preset(&sq.preset).ok_or_else(|| format!("no budget preset '{}'", sq.preset))?.xp;
        let (eighteens, values) = (0..sq.count)
            .into_par_iter()
            .map(|seed| {
                let req = Request { budget, identity: None, personality: None, seed, name: None, id: None };
                match generate(rs, &req) {
                    Ok(c) => c
                        .squad
                        .iter()
                        .flat_map(|p| p.skills.values())
                        .fold((0u64, 0u64), |(e, v), &x| (e + u64::from(x == 18), v + 1)),
                    Err(_) => (0, 0),
                }
            })
            .reduce(|| (0, 0), |a, b| (a.0 + b.0, a.1 + b.1));
        let share = eighteens as f64 / values.max(1) as f64;
        out.push(Check {
            id: "share_of_18s",
            fact: "level 18 is rare by economics, not by a lock",
            figure: format!("{} of skill values at 18 across {} generated {} squads", pct(share), sq.count, sq.preset),
            target: format!("≤ {}", pct(sq.max_share_of_18)),
            pass: values > 0 && share <= sq.max_share_of_18,
        });
    }
    Ok(out)
}
