//! Microfut 0.6.10 (issue 11), a draft from 0.6.9: the NPC's value of possession leans half as
//! much on the passing lead (`possession_value.lead.per_point` 0.15 → 0.075). Under 0.6.9 the
//! lead made every lost ball — shots included — cost the better-passing side more, so the elite
//! side, whose budget buys passing, shot less than the established side it should beat
//! (docs/calibration-0.6.10.md). The tests read the repository's content folder (or
//! `MICROFUT_TEST_CONTENT`, so a sabotaged copy can show an assertion failing).

mod common;
use common::{revision_rules as rules, test_catalog as catalog};
use microfut::club::Club;
use microfut::engine::{Match, Options};

/// Plays `home` v `away` on seeds `1..=n` under `revision`: per match, each side's shots.
fn shots(revision: &str, home: &Club, away: &Club, n: u64) -> Vec<[u32; 2]> {
    let rules = rules(&catalog(), revision);
    (1..=n)
        .map(|seed| {
            let mut m = Match::new(rules.clone(), home, away, seed, Options::default()).unwrap();
            m.run().unwrap();
            let s = m.stats();
            [s[0].shots, s[1].shots]
        })
        .collect()
}

/// The calibration's elite club against its established one, each at home on the same 60 seeds:
/// the elite side's share of the shots. Under 0.6.9 the elite side took fewer shots than the
/// weaker side over the two orders (1,000 matches: 1.29 times the established side's at home,
/// 0.74 away); under 0.6.10 it takes more of them than before (1.46 and 0.86).
#[test]
fn the_better_passing_side_is_not_held_back_from_shooting() {
    let catalog = catalog();
    let (elite, established) = (
        common::generated_club(&catalog, "0.6.9", "elite", 301),
        common::generated_club(&catalog, "0.6.9", "established", 201),
    );
    let share = |revision: &str| {
        let (mut mine, mut all) = (0u32, 0u32);
        for [h, a] in shots(revision, &elite, &established, 60) {
            (mine, all) = (mine + h, all + h + a);
        }
        for [h, a] in shots(revision, &established, &elite, 60) {
            (mine, all) = (mine + a, all + h + a);
        }
        f64::from(mine) / f64::from(all)
    };
    let (old, new) = (share("0.6.9"), share("0.6.10"));
    eprintln!("the elite side's share of the shots: 0.6.9 {old:.4}, 0.6.10 {new:.4}");
    assert!(old < 0.5, "0.6.9: the elite side took {:.1} % of the shots", old * 100.0);
    assert!(new >= old + 0.015, "0.6.10: {:.1} % of the shots (0.6.9: {:.1} %)", new * 100.0, old * 100.0);
}

/// Between equal squads the lead is nothing while the same players are on (a substitute who
/// passes better or worse than the man he replaces opens one): on these ten seeds 0.6.10 plays
/// the established club's matches against itself as 0.6.9 did, shot for shot.
#[test]
fn equal_squads_play_as_they_did() {
    let catalog = catalog();
    let club = common::generated_club(&catalog, "0.6.9", "established", 201);
    assert_eq!(shots("0.6.9", &club, &club, 10), shots("0.6.10", &club, &club, 10));
}
