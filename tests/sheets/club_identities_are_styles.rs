//! An identity is a style, not a tier (Microfut 0.6.9, published in 0.6.20): the generator's
//! `aerial` identity had bought strength (`st`), which is most of jumping and much of balance and
//! acceleration, so an aerial squad beat the same budget's other identities by 10–20 points of
//! win share; it buys heading and crossing instead. The tests read the repository's content
//! folder (or `MICROFUT_TEST_CONTENT`).

use crate::common;
use common::test_catalog as catalog;
use microfut::catalog::Catalog;
use microfut::club::{Club, ClubPersonality};

/// The elite preset's club of `seed` with `identity`, the personality held fixed so that only the
/// identity's share of the budget differs.
fn elite(catalog: &Catalog, revision: &str, seed: u64, identity: &str) -> Club {
    common::generated_club_as(catalog, revision, "elite", seed, Some(identity), Some(ClubPersonality::default()))
}

/// The mean of a sheet value (attribute, skill or training) over the squad's outfield players.
fn outfield(club: &Club, key: &str) -> f64 {
    let v: Vec<f64> = club
        .squad
        .iter()
        .filter(|s| s.role != "goalkeeper")
        .map(|s| {
            let from = |m: &std::collections::BTreeMap<String, i32>| m.get(key).copied();
            from(&s.attributes).or(from(&s.skills)).or(from(&s.training)).unwrap_or(0) as f64
        })
        .collect();
    v.iter().sum::<f64>() / v.len() as f64
}

/// An aerial squad is within half a point of strength of a possession squad of the same seed and
/// budget (it had been two to three points above), and it heads and crosses better (the style it
/// is for).
#[test]
fn an_aerial_squad_buys_its_style_not_strength() {
    let catalog = catalog();
    for seed in [301, 302, 303] {
        let (air, ball) = (elite(&catalog, "0.6.20", seed, "aerial"), elite(&catalog, "0.6.20", seed, "possession"));
        let st = outfield(&air, "st") - outfield(&ball, "st");
        assert!(st.abs() < 0.5, "seed {seed}: the aerial squad's strength edge {st:.2}");
        for (key, by) in [("heading", 1.0), ("crossing", 1.5)] {
            let edge = outfield(&air, key) - outfield(&ball, key);
            assert!(edge >= by, "seed {seed}: the aerial squad's {key} edge {edge:.2}");
        }
    }
}
