//! Microfut 0.6.5 (issue 11): the ball stays with the side that plays it better. 0.6.4 showed that
//! the NPC's value of possession cuts shot volume but leaves possession where the home crowd puts
//! it; the spell a side keeps the ball for is decided by the pass, control and interception
//! tests, and in 0.6.4 a skill margin moved those by a quarter (passes, interceptions) or a
//! seventh (control) of itself. 0.6.5 (content only) lets a margin count four times as much in
//! them, and less in the tackle and the save, where it fed routs and the pressing clubs' low
//! scores. Pinned here: those gaps as the revision writes them, and what they are for — a
//! generated elite club keeps the ball longer against a generated modest one than under 0.6.4, at
//! home and away, and the reference club tries dribbles again. The tests read the repository's
//! content folder (or `MICROFUT_TEST_CONTENT`, so a sabotaged copy can show an assertion failing).

mod common;
use common::{resolve_json as resolve, revision_rules as rules, sample_club, stage, test_catalog as catalog};
use microfut::catalog::Catalog;
use microfut::club::Club;
use microfut::engine::{Match, Options, Rules, Summary};
use std::sync::Arc;

const REFERENCE: &str = "sociedade_esportiva_serra_azul";

/// Each pipeline's inputs, fixed; the skill under study is set over them.
fn context(pipeline: &str) -> &'static [(&'static str, f64)] {
    match pipeline {
        "pass" => &[
            ("dx", 13.0),
            ("iq", 12.0),
            ("control", 13.0),
            ("passing", 12.0),
            ("st", 11.0),
            ("kicking", 12.0),
            ("distance", 18.0),
            ("orientation", 30.0),
            ("nearest_opponent", 4.0),
        ],
        "control" => &[("dx", 13.0), ("iq", 12.0), ("control", 12.0), ("orientation", 30.0), ("nearest_opponent", 4.0)],
        "interception" => &[("dx", 13.0), ("iq", 12.0), ("positioning", 12.0), ("orientation", 30.0)],
        "tackle" => &[("dx", 13.0), ("iq", 12.0), ("tackling", 12.0), ("positioning", 12.0)],
        "save" => &[
            ("dx", 13.0),
            ("iq", 12.0),
            ("positioning", 12.0),
            ("goalkeeping", 12.0),
            ("gk_position_error", 0.0),
            ("shot_distance", 16.0),
            ("shot_margin", 0.0),
            ("shot_speed", 20.0),
        ],
        other => panic!("no context for {other}"),
    }
}

/// How far the base of `pipeline` moves when `skill` goes from 12 to 16, in `revision`.
fn gap(pipeline: &str, skill: &str, revision: &str) -> f64 {
    let at = |level: f64| {
        let sets: Vec<String> =
            context(pipeline).iter().map(|&(k, v)| format!("{k}={}", if k == skill { level } else { v })).collect();
        stage(&resolve(pipeline, &sets, revision), "base")
    };
    at(16.0) - at(12.0)
}

/// The tests that decide how long a spell lasts answer a skill margin four times as strongly as
/// in 0.6.4 (the pass, a player's own control, the defender's interception); the tackle and the
/// save, where a margin decided chances rather than possession, answer half and about three
/// quarters as strongly. A margin of 4 points in the skill.
#[test]
fn a_skill_margin_counts_more_in_keeping_the_ball_and_less_in_the_tackle_and_the_save() {
    for (pipeline, skill) in [("pass", "passing"), ("control", "control"), ("interception", "positioning")] {
        let (before, now) = (gap(pipeline, skill, "0.6.4"), gap(pipeline, skill, "0.6.5"));
        assert!(before > 0.0, "{pipeline}: 0.6.4 gap {before}");
        assert!(now >= 3.0 * before, "{pipeline}: a 4-point {skill} margin moves the base {now} (0.6.4: {before})");
    }
    for (pipeline, skill) in [("tackle", "tackling"), ("save", "goalkeeping")] {
        let (before, now) = (gap(pipeline, skill, "0.6.4"), gap(pipeline, skill, "0.6.5"));
        assert!(now > 0.0 && now < 0.8 * before, "{pipeline}: {now} (0.6.4: {before})");
    }
}

fn generated(catalog: &Catalog, preset: &str, seed: u64) -> Club {
    common::generated_club(catalog, "0.6.5", preset, seed)
}

fn play(rules: &Arc<Rules>, home: &Club, away: &Club, seeds: std::ops::RangeInclusive<u64>) -> Vec<Summary> {
    seeds
        .map(|seed| {
            let mut m = Match::new(rules.clone(), home, away, seed, Options::default()).unwrap();
            m.run().unwrap();
            m.summary()
        })
        .collect()
}

fn mean(xs: impl Iterator<Item = f64>) -> f64 {
    let v: Vec<f64> = xs.collect();
    v.iter().sum::<f64>() / v.len() as f64
}

/// What the gaps are for: the calibration set's elite club (seed 301) keeps the ball longer
/// against its modest club (seed 101) than under 0.6.4, at home and away, by at least two points
/// of possession on the same seeds (1,000 matches: 55.2 → 60.4 % at home, 51.0 → 56.2 % away), and
/// holds it more than the weaker side even away from home.
#[test]
fn the_stronger_side_keeps_the_ball_longer_at_home_and_away() {
    let catalog = catalog();
    let (elite, modest) = (generated(&catalog, "elite", 301), generated(&catalog, "modest", 101));
    let share = |revision: &str, elite_home: bool| {
        let r = rules(&catalog, revision);
        let (h, a) = if elite_home { (&elite, &modest) } else { (&modest, &elite) };
        mean(
            play(&r, h, a, 1..=12)
                .iter()
                .map(|s| if elite_home { s.stats.home.possession } else { s.stats.away.possession }),
        )
    };
    for elite_home in [true, false] {
        let (before, now) = (share("0.6.4", elite_home), share("0.6.5", elite_home));
        assert!(now >= before + 2.0, "elite at home {elite_home}: possession {now:.1} % (0.6.4 {before:.1} %)");
        assert!(now > 53.0, "elite at home {elite_home}: possession {now:.1} %");
    }
}

/// The dribble bias is raised against the value of possession, which had priced a dribble's lost
/// ball and brought the reference club's dribbles under the range (0.6.4: 18.9 a match at 1,000
/// matches; 0.6.5: 26.1, target 25–55).
#[test]
fn the_reference_club_tries_dribbles_again() {
    let catalog = catalog();
    let c = sample_club(REFERENCE);
    let dribbles = |revision: &str| {
        let r = rules(&catalog, revision);
        mean(play(&r, &c, &c, 1..=10).iter().map(|s| f64::from(s.stats.home.take_ons + s.stats.away.take_ons)))
    };
    let (before, now) = (dribbles("0.6.4"), dribbles("0.6.5"));
    assert!(now >= before + 4.0 && now >= 22.0, "dribbles a match: {now:.1} (0.6.4: {before:.1})");
}

/// Penalties: about three in four scored (issue 11 §2). 0.6.4's kick was built too sure (85–94 %
/// scored in the equal fixtures at 1,000 matches); 0.6.5 lowers the spot's constant. Read from
/// the engine's exact estimate (no die): the reference club's taker against its keeper, every side
/// he may aim at, weighted as the NPC chooses — the best side's goal chance is what he takes.
#[test]
fn about_three_penalties_in_four_are_scored() {
    let catalog = catalog();
    let c = sample_club(REFERENCE);
    let best = |revision: &str| {
        let mut m = Match::new(rules(&catalog, revision), &c, &c, 1, Options::default()).unwrap();
        let sides = m.penalty_chances(0);
        assert!(!sides.is_empty(), "{revision}: no penalty sides");
        sides.iter().map(|s| s.2).fold(0.0, f64::max)
    };
    let (before, now) = (best("0.6.4"), best("0.6.5"));
    assert!((0.65..=0.85).contains(&now), "0.6.5: the best side scores {now:.3}");
    assert!(now < before - 0.03, "0.6.5 {now:.3}, 0.6.4 {before:.3}");
}

/// 0.6.5's weights give most tests a fractional difficulty, and with one the dice face the next
/// difficulty up when the fraction's draw says so. What a reader is shown of each roll (the API,
/// the page, the terminal) must add up whichever way it fell: margin = total − difficulty, the
/// difficulty being the one the dice faced — the integer part or the next one. A whole match.
#[test]
fn every_roll_shown_adds_up_with_fractional_difficulties() {
    let catalog = catalog();
    let c = sample_club(REFERENCE);
    let mut m = Match::new(rules(&catalog, "0.6.5"), &c, &c, 2, Options::default()).unwrap();
    let mut rolls = 0;
    while !m.finished() {
        m.step();
        for r in m.round_rolls() {
            rolls += 1;
            assert_eq!(r.margin, r.total as i32 - r.difficulty, "{r:?}");
            if r.probability > 0.0 {
                assert_eq!(r.success, r.margin >= 0, "{r:?}");
            }
        }
    }
    assert!(rolls > 1000, "{rolls} rolls");
}
