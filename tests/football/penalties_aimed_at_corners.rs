//! Penalties as they are taken (Microfut 0.6.8, published in 0.6.20): a keeper who guesses a
//! corner saves about two in five of those on target, so a corner is the better aim and the NPC
//! goes to one, about three penalties in four scored. Under the draft before it a guessed corner
//! was saved 87 % of the time, the middle was the better aim and the NPC went down it five times
//! in six. The tests read the repository's content folder (or `MICROFUT_TEST_CONTENT`).

use crate::common;
use common::{generated_club, revision_rules as rules, sample_club, test_catalog as catalog};
use microfut::club::Club;
use microfut::engine::{Match, Options};

const REFERENCE: &str = "sociedade_esportiva_serra_azul";

/// (aim, chance of a goal) for each side a penalty may be aimed at, for the home side's taker
/// (`team` 0) or the away side's (1), the club against itself at kick-off.
fn chances(revision: &str, club: &Club, team: usize) -> Vec<(String, f64)> {
    let mut m = Match::new(rules(&catalog(), revision), club, club, 1, Options::default()).unwrap();
    let c = m.penalty_chances(team);
    assert_eq!(c.len(), 3, "{revision}: left, centre, right");
    c.into_iter().map(|(aim, _, goal)| (aim, goal)).collect()
}

fn of(c: &[(String, f64)], aim: &str) -> f64 {
    c.iter().find(|(a, _)| a == aim).unwrap_or_else(|| panic!("no aim {aim}")).1
}

/// The reference club: a corner is the better aim, scored about four times in five at kick-off (a
/// keeper who guesses it saves about two in five of those on target), the middle lower.
#[test]
fn a_corner_is_the_better_aim_and_a_guessed_one_is_saved_less_often() {
    let club = sample_club(REFERENCE);
    let new = chances("0.6.20", &club, 0);
    let (corner, centre) = (of(&new, "left"), of(&new, "centre"));
    assert_eq!(corner, of(&new, "right"), "the two corners are alike: {new:?}");
    assert!((0.76..=0.84).contains(&corner), "corner: {new:?}");
    assert!(centre < corner - 0.05, "the middle {centre:.3} against a corner {corner:.3}");
}

/// Every club of the calibration set (presets and seeds of `calibration.json`), home and away:
/// a corner is the better aim and its chance inside 70–88 % — the weakest taker against the
/// weakest keeper and the strongest against the strongest alike. Over a match, tiring, the
/// clubs score about 77 % (CALIBRATION.md, History).
#[test]
fn every_calibration_club_aims_at_a_corner() {
    let catalog = catalog();
    for (preset, seed) in
        [("modest", 101), ("modest", 102), ("established", 201), ("established", 202), ("elite", 301), ("elite", 302)]
    {
        let club = generated_club(&catalog, "0.6.20", preset, seed);
        for team in 0..2 {
            let c = chances("0.6.20", &club, team);
            let (corner, centre) = (of(&c, "left"), of(&c, "centre"));
            assert!(centre < corner, "{preset} {seed}, side {team}: {c:?}");
            assert!((0.70..=0.88).contains(&corner), "{preset} {seed}, side {team}: {c:?}");
        }
    }
}
