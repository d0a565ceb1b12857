//! Appendix D facts about single actions, as exact projections on constructed situations (no
//! die is drawn), the squad generator's share of top levels, and the golden same-seed match.

use super::doc::{Stage, Targets};
use super::{Check, Clubs, pct};
use crate::club::Club;
use crate::club::generate::{Request, generate};
use crate::engine::geometry::V2;
use crate::engine::{Kind, Match, Options, Rules, Target};
use rayon::prelude::*;
use std::sync::Arc;

fn fact(id: &str, fact: &str, figure: String, target: String, pass: bool) -> Check {
    Check {
        group: "facts".into(),
        order: None,
        id: id.into(),
        fact: fact.into(),
        figure,
        value: None,
        ci95: None,
        range: None,
        target,
        pass,
        orders: Vec::new(),
    }
}

struct Staging<'a> {
    rules: &'a Arc<Rules>,
    club: &'a Club,
    st: &'a Stage,
}

impl Staging<'_> {
    /// A match whose players all stand on the touchlines, keepers in goal: a stage.
    fn stage(&self) -> Result<Match, String> {
        let st = self.st;
        let mut m = Match::new(
            self.rules.clone(),
            self.club,
            self.club,
            0,
            Options { retention: Some(0), ..Default::default() },
        )
        .map_err(|e| e.to_string())?;
        let slots = self.rules.formation(None).map_or(0, |f| f.slots.len());
        for slot in 0..slots {
            if let (Some(h), Some(a)) = (m.player_in_slot(0, slot), m.player_in_slot(1, slot)) {
                let x = st.bench_x + st.bench_step * slot as f64;
                m.place(h, V2::new(x, st.bench_y[0]), V2::new(1.0, 0.0));
                m.place(a, V2::new(x, st.bench_y[1]), V2::new(-1.0, 0.0));
            }
        }
        let pitch = self.rules.pitch;
        let (hk, ak) = (self.slot(&m, 0, st.keeper_slot)?, self.slot(&m, 1, st.keeper_slot)?);
        m.place(hk, V2::new(st.keeper_depth, pitch.goal_y), V2::new(1.0, 0.0));
        m.place(ak, V2::new(pitch.length - st.keeper_depth, pitch.goal_y), V2::new(-1.0, 0.0));
        Ok(m)
    }

    fn slot(&self, m: &Match, team: usize, slot: usize) -> Result<usize, String> {
        m.player_in_slot(team, slot)
            .ok_or_else(|| format!("calibration stage: the formation has no slot {slot} for side {team}"))
    }

    /// The chance the team keeps the ball through a pass of `d` metres, optionally with an
    /// interceptor on its line.
    fn pass(&self, d: f64, interceptor: bool) -> Result<f64, String> {
        let (st, pitch) = (self.st, self.rules.pitch);
        let mut m = self.stage()?;
        let (passer, receiver) = (self.slot(&m, 0, st.passer_slot)?, self.slot(&m, 0, st.receiver_slot)?);
        m.place(passer, V2::new(st.passer_x, pitch.goal_y), V2::new(1.0, 0.0));
        m.place(receiver, V2::new(st.passer_x + d, pitch.goal_y), V2::new(-1.0, 0.0));
        if interceptor {
            let marker = self.slot(&m, 1, st.marker_slot)?;
            m.place(marker, V2::new(st.passer_x + d / 2.0, pitch.goal_y + st.marker_offset), V2::new(-1.0, 0.0));
        }
        m.give_ball(passer);
        let shirt = m.state().players[receiver].shirt;
        let c = m.scored_candidates();
        Ok(c.iter().find(|c| c.kind == Kind::Pass && c.target == Target::Player(shirt)).map_or(0.0, |c| c.success))
    }

    /// (the finishing test's chance, the goal chance) of a central shot from `distance` metres:
    /// the keeper well placed (or away from goal), the nearest opponent `pressure` metres away.
    fn shot(&self, distance: f64, keeper_in_goal: bool, pressure: Option<f64>) -> Result<(f64, f64), String> {
        let (st, pitch) = (self.st, self.rules.pitch);
        let pr = self.rules.params;
        let mut m = self.stage()?;
        let striker = self.slot(&m, 0, st.striker_slot)?;
        let from = V2::new(pitch.length - distance, pitch.goal_y);
        m.place(striker, from, V2::new(1.0, 0.0));
        let k = self.slot(&m, 1, st.keeper_slot)?;
        if keeper_in_goal {
            let goal = pitch.goal();
            m.place(k, pr.keeper_spot(goal, from), V2::new(-1.0, 0.0));
        } else {
            m.place(k, V2::new(pitch.length - st.keeper_away[0], st.keeper_away[1]), V2::new(-1.0, 0.0));
        }
        if let Some(d) = pressure {
            // Beside him, off the line of the shot.
            let marker = self.slot(&m, 1, st.marker_slot)?;
            m.place(marker, V2::new(from.x, from.y + d), V2::new(-1.0, 0.0));
        }
        m.give_ball(striker);
        Ok(m.strike_chances(striker, false))
    }
}

/// Passing, finishing and stamina facts on constructed situations.
pub fn exact(rules: &Arc<Rules>, t: &Targets, club: &Club) -> Result<Vec<Check>, String> {
    let st = t.stage.clone().ok_or_else(|| {
        format!("{}: calibration.json has no stage, and upgrades.json gives none for it", rules.rs.label())
    })?;
    let s = Staging { rules, club, st: &st };
    let mut out = Vec::new();

    // Passes: longer is never easier; a free short pass is very reliable; an interceptor on
    // the line makes it worse.
    let chances = t.pass.distances.iter().map(|&d| s.pass(d, false)).collect::<Result<Vec<_>, _>>()?;
    let first = *t.pass.distances.first().ok_or("calibration: pass.distances is empty")?;
    let figure = t.pass.distances.iter().zip(&chances).map(|(d, c)| format!("{d} m {}", pct(*c))).collect::<Vec<_>>();
    out.push(fact(
        "pass_distance",
        "a longer distance never raises the same pass's chance",
        figure.join(", "),
        "non-increasing".into(),
        chances.windows(2).all(|w| w[1] <= w[0] + 1e-12),
    ));
    out.push(fact(
        "pass_free_short",
        "a free short pass is very reliable",
        format!("{first} m free: {}", pct(chances[0])),
        format!("≥ {}", pct(t.pass.free_short_min)),
        chances[0] >= t.pass.free_short_min,
    ));
    let with = s.pass(first, true)?;
    out.push(fact(
        "pass_interceptor",
        "an interceptor on the line makes the pass worse",
        format!("{first} m: {} free, {} with an interceptor", pct(chances[0]), pct(with)),
        "lower with the interceptor".into(),
        with < chances[0],
    ));

    // Finishing: central 6–10 m much better than 25–40 m; an open goal nearly certain without
    // every shot being certain; the finishing test itself in its ranges.
    let f = &t.finishing;
    let (close, far) = (s.shot(f.close, true, None)?, s.shot(f.far, true, None)?);
    out.push(fact(
        "finishing_close_vs_far",
        "central finishing at 6–10 m is much better than at 25–40 m",
        format!(
            "test {} at {} m vs {} at {} m; goal {} vs {}",
            pct(close.0),
            f.close,
            pct(far.0),
            f.far,
            pct(close.1),
            pct(far.1)
        ),
        format!("goal chance gap ≥ {}", pct(f.min_gap)),
        close.1 - far.1 >= f.min_gap,
    ));
    let open = s.shot(f.open_goal_distance, false, None)?;
    match (f.typical_test, f.typical_max) {
        (Some([lo, hi]), _) => {
            let pressure = f.typical_pressure;
            let typical = s.shot(f.typical_distance, true, pressure)?;
            out.push(fact(
                "open_goal",
                "an open goal close in is almost certain",
                format!("open goal at {} m: goal {}", f.open_goal_distance, pct(open.1)),
                format!("≥ {}", pct(f.open_goal_min)),
                open.1 >= f.open_goal_min,
            ));
            out.push(fact(
                "finishing_typical",
                "a typical shot under light pressure is far from certain",
                format!(
                    "{} m, nearest opponent {}: test {}",
                    f.typical_distance,
                    pressure.map_or("far".into(), |p| format!("{p} m")),
                    pct(typical.0)
                ),
                format!("{}–{}", pct(lo), pct(hi)),
                (lo..=hi).contains(&typical.0),
            ));
            if let Some(max) = f.long_test_max {
                let long = f
                    .long_distances
                    .iter()
                    .map(|&d| s.shot(d, true, pressure).map(|c| (d, c.0)))
                    .collect::<Result<Vec<_>, _>>()?;
                out.push(fact(
                    "finishing_long",
                    "a long shot rarely finds the target",
                    long.iter().map(|(d, c)| format!("{d} m {}", pct(*c))).collect::<Vec<_>>().join(", "),
                    format!("each ≤ {}", pct(max)),
                    !long.is_empty() && long.iter().all(|(_, c)| *c <= max),
                ));
            }
        }
        (None, Some(max)) => {
            let typical = s.shot(f.typical_distance, true, None)?;
            out.push(fact(
                "open_goal",
                "an open goal close in is almost certain, without every shot being certain",
                format!(
                    "open goal at {} m: {}; a {} m shot at a placed keeper: {}",
                    f.open_goal_distance,
                    pct(open.1),
                    f.typical_distance,
                    pct(typical.1)
                ),
                format!("≥ {} and ≤ {}", pct(f.open_goal_min), pct(max)),
                open.1 >= f.open_goal_min && typical.1 <= max,
            ));
        }
        (None, None) => return Err("calibration: finishing needs typical_test (0.6) or typical_max (0.5)".into()),
    }

    // Stamina: sprinting with the ball costs more than the same sprint without it; exhaustion
    // shortens movement before it breaks a simple pass.
    let m = s.stage()?;
    let rs = &rules.rs;
    let p = s.slot(&m, 0, st.passer_slot)?;
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
    out.push(fact(
        "sprint_with_ball",
        "sprinting with the ball costs more stamina than the same sprint without it",
        format!("20 m sprint: {with:.2} STA with the ball, {without:.2} without"),
        "more with the ball".into(),
        with > without,
    ));
    let movement = &rs.pipelines[rules.pipes.movement_range];
    let pass = &rs.pipelines[rules.pipes.pass];
    inputs.set(sl.pace, rules.paces[1]);
    inputs.set(sl.distance, 10.0);
    inputs.set(sl.nearest_opponent, 10.0);
    inputs.set(sl.opponents_within_3m, 0.0);
    inputs.set(sl.orientation, 0.0);
    inputs.set(sl.neutral_orientation, 0.0);
    let at = |inputs: &mut microfut_core::ruleset::Inputs, stamina: f64| {
        inputs.set(sl.stamina, stamina);
        (movement.resolve(inputs).value, pass.resolve(inputs).value)
    };
    let fresh = at(&mut inputs, rules.params.stamina_max);
    let (mut slower, mut worse) = (None, None);
    for k in (0..=100).rev() {
        let stamina = rules.params.stamina_max * k as f64 / 100.0;
        let (mv, pv) = at(&mut inputs, stamina);
        if mv < fresh.0 && slower.is_none() {
            slower = Some(stamina);
        }
        if pv < fresh.1 && worse.is_none() {
            worse = Some(stamina);
        }
    }
    out.push(fact(
        "exhaustion_order",
        "exhaustion reduces movement before it breaks simple passes",
        format!(
            "movement shrinks below {}; a simple pass suffers {}",
            slower.map_or("never".into(), |s| format!("{s:.0} STA")),
            worse.map_or("at no stamina".into(), |s| format!("below {s:.0} STA"))
        ),
        "movement first".into(),
        match (slower, worse) {
            (Some(m), Some(p)) => m > p,
            (Some(_), None) => true,
            _ => false,
        },
    ));
    Ok(out)
}

/// Level 18 is rare by economics, not by a lock: the share of skill values at the top of their
/// scale across generated squads (a squad the generator cannot make is an error, not a zero).
pub fn squads(rules: &Arc<Rules>, t: &Targets) -> Result<Vec<Check>, String> {
    let sq = &t.squads;
    let rs = &rules.rs;
    let club_rules = crate::club::rules::ClubRules::need(rs, "calibration").map_err(|e| e.to_string())?;
    let budget = club_rules.preset(&sq.preset).ok_or_else(|| format!("no budget preset '{}'", sq.preset))?.xp;
    let top = |skill: &str| rs.var(skill).map(|v| rs.vars[v].max);
    let counts = (0..sq.count)
        .into_par_iter()
        .map(|seed| {
            let req = Request { budget, identity: None, personality: None, seed, name: None, id: None };
            let c = generate(rs, &req).map_err(|e| format!("squad generator, {} seed {seed}: {e}", sq.preset))?;
            let mut at_top = 0u64;
            let mut values = 0u64;
            for (skill, &level) in c.squad.iter().flat_map(|p| p.skills.iter()) {
                let max = top(skill).ok_or_else(|| format!("skill '{skill}' is not in the vocabulary"))?;
                at_top += u64::from(f64::from(level) >= max);
                values += 1;
            }
            Ok((at_top, values))
        })
        .collect::<Result<Vec<(u64, u64)>, String>>()?;
    let (at_top, values) = counts.iter().fold((0, 0), |a, b| (a.0 + b.0, a.1 + b.1));
    let share = at_top as f64 / values.max(1) as f64;
    Ok(vec![fact(
        "share_of_18s",
        "level 18 is rare by economics, not by a lock",
        format!(
            "{} of skill values at the top of their scale across {} generated {} squads",
            pct(share),
            sq.count,
            sq.preset
        ),
        format!("≤ {}", pct(sq.max_share_of_18)),
        values > 0 && share <= sq.max_share_of_18,
    )])
}

/// The same seed reproduces the same match: against the golden match the document recorded
/// (0.6), or — for revisions recorded before — a match played twice, once keeping its whole
/// decision log and once none (logging must not move the dice).
pub fn same_seed(rules: &Arc<Rules>, t: &Targets, clubs: &Clubs) -> Result<Check, String> {
    let play = |club: &Club, seed: u64, retention: usize| -> Result<Vec<u64>, String> {
        let mut m =
            Match::new(rules.clone(), club, club, seed, Options { retention: Some(retention), ..Default::default() })
                .map_err(|e| e.to_string())?;
        m.run().map_err(|e| e.to_string())?;
        Ok(m.round_hashes().to_vec())
    };
    Ok(match &t.same_seed {
        Some(g) => {
            let hashes = play(clubs.get(&g.club), g.seed, 0)?;
            let last = hashes.last().map(|h| format!("{h:016x}")).unwrap_or_default();
            let pass = hashes.len() == g.rounds && last == g.hash;
            fact(
                "same_seed",
                "the same seed reproduces the same match",
                format!("seed {}: {} rounds, last state {last}", g.seed, hashes.len()),
                format!("{} rounds, last state {}", g.rounds, g.hash),
                pass,
            )
        }
        None => {
            let club = clubs.get("reference");
            let (a, b) = (play(club, 1, 0)?, play(club, 1, usize::MAX)?);
            fact(
                "same_seed",
                "the same seed reproduces the same match, however much of it is logged",
                if a == b { "identical round hashes".into() } else { "round hashes differ".into() },
                "identical".into(),
                a == b,
            )
        }
    })
}
