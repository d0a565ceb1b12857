//! Microfut 0.6.7 (issue 11), a draft for engine 0.5.6: the NPC prices a shot against the keeper
//! it expects (the reference club's) and without the crowd, so that a weaker keeper or the home
//! crowd is scored past more, not shot at more. Pinned here on the revision: what the prices do to
//! a match's shots, against 0.6.6 on the same seeds. The mechanism itself is pinned on
//! constructed content in `tests/engine_0_5_6.rs`. The tests read the repository's content folder
//! (or `MICROFUT_TEST_CONTENT`, so a sabotaged copy can show an assertion failing).

mod common;
use common::{revision_rules as rules, sample_club, test_catalog as catalog, with_weaker_keepers};
use microfut::club::Club;
use microfut::engine::{Match, Options, Rules};
use std::sync::Arc;

const REFERENCE: &str = "sociedade_esportiva_serra_azul";

/// Shots a match by each side, over `seeds`.
fn shots(rules: &Arc<Rules>, home: &Club, away: &Club, seeds: std::ops::RangeInclusive<u64>) -> [f64; 2] {
    let n = seeds.clone().count() as f64;
    let mut sum = [0u32; 2];
    for seed in seeds {
        let mut m =
            Match::new(rules.clone(), home, away, seed, Options { retention: Some(0), ..Default::default() }).unwrap();
        m.run().unwrap();
        for (t, s) in m.stats().iter().enumerate() {
            sum[t] += s.shots;
        }
    }
    [f64::from(sum[0]) / n, f64::from(sum[1]) / n]
}

/// The reference club at home to itself and to itself with keepers 6 levels worse, 40 seeds:
/// under 0.6.6 the home side shot at the weaker keeper a good deal more often (the NPC's price of
/// a shot carried the keeper); under 0.6.7 its shots change by less than half as much (42 % and
/// 7 % when this was written).
#[test]
fn a_weaker_keeper_is_not_shot_at_much_more() {
    let catalog = catalog();
    let (same, weaker) = (sample_club(REFERENCE), with_weaker_keepers(REFERENCE, 6));
    let rise = |revision: &str| {
        let r = rules(&catalog, revision);
        let (before, after) = (shots(&r, &same, &same, 1..=40)[0], shots(&r, &same, &weaker, 1..=40)[0]);
        after / before - 1.0
    };
    let (old, new) = (rise("0.6.6"), rise("0.6.7"));
    assert!(old >= 0.10, "0.6.6: shots rose by {:.1} % only", 100.0 * old);
    assert!(new.abs() <= old / 2.0, "0.6.7: shots rose by {:.1} % (0.6.6: {:.1} %)", 100.0 * new, 100.0 * old);
}

/// The calibration set's elite club at home to its modest one (presets and seeds of
/// `calibration.json`): 0.6.6 had the elite side take 4.7 times the modest side's shots over
/// 1,000 matches (the range: 1.5–2.5); 0.6.7 3.2. On the same 40 seeds, at least 0.6 lower (4.9
/// and 2.9 when this was written).
#[test]
fn the_elite_side_at_home_outshoots_the_modest_one_less() {
    let catalog = catalog();
    let elite = common::generated_club(&catalog, "0.6.7", "elite", 301);
    let modest = common::generated_club(&catalog, "0.6.7", "modest", 101);
    let ratio = |revision: &str| {
        let [h, a] = shots(&rules(&catalog, revision), &elite, &modest, 1..=40);
        h / a
    };
    let (old, new) = (ratio("0.6.6"), ratio("0.6.7"));
    assert!(new <= old - 0.6, "shots ratio {new:.2} (0.6.6: {old:.2})");
}
