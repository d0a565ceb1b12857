//! A season: every club plays every other twice, once at home (a double round-robin), and the
//! league table, the results by round and the top scorers come out of it.
//!
//! The problem: a match between two clubs says little about whether the football holds up
//! across the range of clubs the rules allow; a league of them does — a table should look like a
//! league's (spread points, upsets), not a ladder of routs. The decision: the circle method
//! schedules the rounds (a bye when the number of clubs is odd; the second half mirrors the
//! first with venues swapped), each match plays on its own dice derived from the season's seed
//! and the fixture (so the season is the same whatever the threads, and any one match can be
//! replayed with `microfut match` from the seed it reports), matches run in parallel, and the
//! table ranks by points (3 a win, 1 a draw), goal difference, goals scored, then name. Limits:
//! no fixture congestion, fatigue or injuries carried between matches; every club fields its
//! default formation.

use crate::club::Club;
use crate::engine::{EventKind, Match, Options, Rules};
use rayon::prelude::*;
use serde::Serialize;
use sha2::{Digest, Sha256};
use std::sync::Arc;

#[derive(Debug, thiserror::Error)]
pub enum SeasonError {
    #[error("a season needs at least two clubs (got {0})")]
    TooFewClubs(usize),
    #[error("club id '{0}' appears twice; every club of a league needs its own id")]
    DuplicateClub(String),
    #[error("{club}: {message}")]
    Club { club: String, message: String },
}

/// One match of the season.
#[derive(Debug, Clone, Serialize)]
pub struct Fixture {
    pub round: usize,
    pub home: String,
    pub away: String,
    /// The seed of the match: `microfut match --home … --away … --seed S` plays it again.
    pub seed: u64,
    pub score: [u32; 2],
}

#[derive(Debug, Clone, Default, Serialize)]
pub struct Row {
    pub club: String,
    pub name: String,
    pub played: u32,
    pub won: u32,
    pub drawn: u32,
    pub lost: u32,
    pub goals_for: u32,
    pub goals_against: u32,
    pub goal_difference: i64,
    pub points: u32,
}

#[derive(Debug, Clone, Serialize)]
pub struct Scorer {
    pub club: String,
    pub shirt: u32,
    pub name: String,
    pub goals: u32,
}

#[derive(Debug, Clone, Serialize)]
pub struct Season {
    pub seed: u64,
    pub rounds: Vec<Vec<Fixture>>,
    pub table: Vec<Row>,
    pub scorers: Vec<Scorer>,
}

/// The rounds of a double round-robin among `n` clubs, as (home, away) indices.
pub fn schedule(n: usize) -> Vec<Vec<(usize, usize)>> {
    // The circle method: club 0 stays, the others rotate; a bye pads an odd number of clubs.
    let m = n + n % 2;
    let bye = (n % 2 == 1).then_some(n);
    let mut ring: Vec<usize> = (0..m).collect();
    let mut first = Vec::new();
    for r in 0..m - 1 {
        let mut round = Vec::new();
        for i in 0..m / 2 {
            let (a, b) = (ring[i], ring[m - 1 - i]);
            if Some(a) == bye || Some(b) == bye {
                continue;
            }
            // Alternate venues so that no club stays at home (or away) round after round.
            round.push(if (r + i) % 2 == 0 { (a, b) } else { (b, a) });
        }
        first.push(round);
        ring[1..].rotate_right(1);
    }
    let second: Vec<Vec<(usize, usize)>> = first.iter().map(|r| r.iter().map(|&(h, a)| (a, h)).collect()).collect();
    first.into_iter().chain(second).collect()
}

/// The seed of one fixture: a hash of the season's seed, the round and both clubs.
fn fixture_seed(seed: u64, round: usize, home: &str, away: &str) -> u64 {
    let mut h = Sha256::new();
    h.update(b"microfut/season/v1");
    h.update(seed.to_le_bytes());
    h.update((round as u64).to_le_bytes());
    h.update((home.len() as u64).to_le_bytes());
    h.update(home.as_bytes());
    h.update(away.as_bytes());
    let d: [u8; 32] = h.finalize().into();
    u64::from_le_bytes(d[..8].try_into().expect("8 bytes"))
}

/// Plays a whole season among `clubs` under `rules`.
pub fn play(rules: Arc<Rules>, clubs: &[Club], seed: u64) -> Result<Season, SeasonError> {
    if clubs.len() < 2 {
        return Err(SeasonError::TooFewClubs(clubs.len()));
    }
    for (i, c) in clubs.iter().enumerate() {
        if clubs[..i].iter().any(|o| o.id == c.id) {
            return Err(SeasonError::DuplicateClub(c.id.clone()));
        }
        // Every club must take the field under these rules before a ball is kicked.
        crate::engine::setup::select(&rules, c, None)
            .map_err(|e| SeasonError::Club { club: c.id.clone(), message: e.to_string() })?;
    }
    let rounds = schedule(clubs.len());
    let jobs: Vec<(usize, usize, usize)> =
        rounds.iter().enumerate().flat_map(|(r, ms)| ms.iter().map(move |&(h, a)| (r, h, a))).collect();
    // (round, home, away, hash, score, per-player figures)
    type Played = (usize, usize, usize, u64, [u32; 2], Vec<(usize, u32)>);
    let played: Vec<Played> = jobs
        .par_iter()
        .map(|&(r, h, a)| {
            let s = fixture_seed(seed, r, &clubs[h].id, &clubs[a].id);
            let mut m = Match::new(
                rules.clone(),
                &clubs[h],
                &clubs[a],
                s,
                Options { retention: Some(0), ..Default::default() },
            )
            .map_err(|e| SeasonError::Club {
                club: format!("{} v {}", clubs[h].id, clubs[a].id),
                message: e.to_string(),
            })?;
            // A match that meets a non-finite value stops the season, naming the fixture.
            m.run().map_err(|e| SeasonError::Club {
                club: format!("{} v {}", clubs[h].id, clubs[a].id),
                message: e.to_string(),
            })?;
            let goals = m
                .events()
                .iter()
                .filter_map(|e| match &e.kind {
                    EventKind::Goal { by, team } => Some((*team as usize, by.shirt)),
                    _ => None,
                })
                .map(|(t, shirt)| (if t == 0 { h } else { a }, shirt))
                .collect();
            Ok((r, h, a, s, m.score(), goals))
        })
        .collect::<Result<_, SeasonError>>()?;

    let mut table: Vec<Row> =
        clubs.iter().map(|c| Row { club: c.id.clone(), name: c.name.clone(), ..Default::default() }).collect();
    let mut out_rounds: Vec<Vec<Fixture>> = vec![Vec::new(); rounds.len()];
    let mut goals: std::collections::BTreeMap<(usize, u32), u32> = std::collections::BTreeMap::new();
    for (r, h, a, s, score, scorers) in played {
        out_rounds[r].push(Fixture {
            round: r + 1,
            home: clubs[h].id.clone(),
            away: clubs[a].id.clone(),
            seed: s,
            score,
        });
        for (club, gf, ga) in [(h, score[0], score[1]), (a, score[1], score[0])] {
            let row = &mut table[club];
            row.played += 1;
            row.goals_for += gf;
            row.goals_against += ga;
            match gf.cmp(&ga) {
                std::cmp::Ordering::Greater => {
                    row.won += 1;
                    row.points += 3;
                }
                std::cmp::Ordering::Equal => {
                    row.drawn += 1;
                    row.points += 1;
                }
                std::cmp::Ordering::Less => row.lost += 1,
            }
        }
        for k in scorers {
            *goals.entry(k).or_default() += 1;
        }
    }
    for row in table.iter_mut() {
        row.goal_difference = row.goals_for as i64 - row.goals_against as i64;
    }
    table.sort_by(|x, y| {
        y.points
            .cmp(&x.points)
            .then(y.goal_difference.cmp(&x.goal_difference))
            .then(y.goals_for.cmp(&x.goals_for))
            .then(x.name.cmp(&y.name))
    });
    let mut scorers: Vec<Scorer> = goals
        .into_iter()
        .map(|((club, shirt), n)| {
            let c = &clubs[club];
            let name = c.squad.iter().find(|p| p.shirt == shirt).map_or_else(String::new, |p| p.name.clone());
            Scorer { club: c.id.clone(), shirt, name, goals: n }
        })
        .collect();
    scorers.sort_by(|x, y| y.goals.cmp(&x.goals).then(x.club.cmp(&y.club)).then(x.shirt.cmp(&y.shirt)));
    Ok(Season { seed, rounds: out_rounds, table, scorers })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every pair meets exactly twice, once at each ground, and nobody plays twice in a round.
    #[test]
    fn a_double_round_robin_pairs_every_club_twice_once_at_home() {
        for n in 2..=9 {
            let rounds = schedule(n);
            let per_round = n / 2;
            assert_eq!(rounds.len(), 2 * (n + n % 2 - 1), "{n} clubs");
            let mut met = std::collections::BTreeMap::new();
            for r in &rounds {
                assert_eq!(r.len(), per_round, "{n} clubs: a round with {} matches", r.len());
                let mut seen = std::collections::BTreeSet::new();
                for &(h, a) in r {
                    assert!(h != a && h < n && a < n);
                    assert!(seen.insert(h) && seen.insert(a), "{n} clubs: a club twice in one round");
                    *met.entry((h, a)).or_insert(0) += 1;
                }
            }
            for h in 0..n {
                for a in 0..n {
                    if h != a {
                        assert_eq!(met.get(&(h, a)), Some(&1), "{n} clubs: {h} at home to {a}");
                    }
                }
            }
        }
    }
}
