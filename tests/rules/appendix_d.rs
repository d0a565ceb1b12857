//! The rules document's Appendix D calibration facts, at match level on paired seeds (the same
//! seeds for both variants, so the difference comes from the change, not from the dice).

use crate::common;
use common::*;
use microfut::club::Club;
use microfut::engine::{Match, Options, TeamStats};

const SEEDS: u64 = 60;

fn season(home: &Club, away: &Club) -> Vec<(TeamStats, TeamStats)> {
    let rules = engine_rules();
    (0..SEEDS)
        .map(|seed| {
            let mut m =
                Match::new(rules.clone(), home, away, seed, Options { retention: Some(0), ..Default::default() })
                    .unwrap();
            m.run().unwrap();
            (m.stats()[0].clone(), m.stats()[1].clone())
        })
        .collect()
}

/// The club with every player of a line changed.
fn with(club: &Club, keepers: bool, f: impl Fn(&mut microfut::sheet::Sheet)) -> Club {
    let mut c = club.clone();
    for s in c.squad.iter_mut() {
        if (s.role == "goalkeeper") == keepers {
            f(s);
        }
    }
    c
}

#[test]
fn a_better_keeper_concedes_fewer_goals() {
    let home = fixture_club("test_home");
    let away = fixture_club("test_away");
    let keeper = |level: i32| {
        with(&away, true, |s| {
            for k in ["goalkeeping", "positioning"] {
                s.skills.insert(k.into(), level);
            }
            s.attributes.insert("dx".into(), level);
            s.attributes.insert("iq".into(), level);
        })
    };
    let conceded = |c: &Club| season(&home, c).iter().map(|(h, _)| h.goals).sum::<u32>();
    let (weak, strong) = (conceded(&keeper(7)), conceded(&keeper(17)));
    assert!(strong * 3 < weak * 2, "strong keeper conceded {strong}, weak keeper {weak}");
}

#[test]
fn better_dribbling_wins_more_duels_and_better_tackling_fewer() {
    let home = fixture_club("test_home");
    let away = fixture_club("test_away");
    let rate = |home: &Club, away: &Club| {
        let (won, lost) =
            season(home, away).iter().fold((0, 0), |(w, l), (h, _)| (w + h.dribbles_won, l + h.dribbles_lost));
        won as f64 / (won + lost).max(1) as f64
    };
    let base = rate(&home, &away);
    let dribblers = with(&home, false, |s| {
        s.skills.insert("dribbling".into(), 18);
    });
    let tacklers = with(&away, false, |s| {
        s.skills.insert("tackling".into(), 18);
    });
    let better_dribbling = rate(&dribblers, &away);
    let better_tackling = rate(&home, &tacklers);
    assert!(better_dribbling > base + 0.03, "dribbling 18: {better_dribbling:.3} vs {base:.3}");
    assert!(better_tackling < base - 0.03, "tackling 18: {better_tackling:.3} vs {base:.3}");
}

#[test]
fn the_same_seed_gives_the_same_season() {
    let (home, away) = (fixture_club("test_home"), fixture_club("test_away"));
    let a: Vec<u32> = season(&home, &away).iter().map(|(h, a)| h.goals * 100 + a.goals).collect();
    let b: Vec<u32> = season(&home, &away).iter().map(|(h, a)| h.goals * 100 + a.goals).collect();
    assert_eq!(a, b);
}

#[test]
fn exhaustion_shortens_movement_before_it_breaks_simple_passes() {
    // Sweep stamina from fresh to empty: movement must shrink at a higher stamina than the one at
    // which a simple, free, short pass first loses value.
    let rules = engine_rules();
    let rs = &rules.rs;
    let movement = rs.pipeline("movement_range").unwrap();
    let pass = rs.pipeline("pass").unwrap();
    let given = sets(&[
        ("dx", 12.0),
        ("passing", 12.0),
        ("control", 12.0),
        ("st", 12.0),
        ("kicking", 12.0),
        ("distance", 10.0),
        ("orientation", 20.0),
        ("nearest_opponent", 8.0),
        ("speed", 12.0),
        ("acceleration", 12.0),
        ("balance", 12.0),
    ]);
    let mut first_slower = None;
    let mut first_worse_pass = None;
    let fresh_move = movement.resolve(&rs.prepare(movement, &given).unwrap().inputs).value;
    let fresh_pass = pass.resolve(&rs.prepare(pass, &given).unwrap().inputs).value;
    for s in (0..=100).rev() {
        let mut g = given.clone();
        g.push(("stamina".into(), s as f64));
        let mv = movement.resolve(&rs.prepare(movement, &g).unwrap().inputs).value;
        let pv = pass.resolve(&rs.prepare(pass, &g).unwrap().inputs).value;
        if mv < fresh_move && first_slower.is_none() {
            first_slower = Some(s);
        }
        if pv < fresh_pass && first_worse_pass.is_none() {
            first_worse_pass = Some(s);
        }
    }
    let (m, p) = (first_slower.expect("fatigue slows movement"), first_worse_pass.expect("exhaustion hurts technique"));
    assert!(m > p + 20, "movement slows below {m} STA, the pass suffers below {p} STA");
}
