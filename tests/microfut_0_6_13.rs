//! Microfut 0.6.13 (issue 11), a draft from 0.6.12 for the same engine: the established budget
//! preset comes down from 260,000 to 215,000 XP. The presets were evenly spaced in XP, but in play
//! an established club sat next to an elite one (the elite side took 1.1–1.4 times its shots) and
//! far from a modest one (1.8–2.7 times) — docs/calibration-0.6.12.md, docs/calibration-0.6.13.md.
//! The tests read the repository's content folder (or `MICROFUT_TEST_CONTENT`, so a sabotaged copy
//! can show an assertion failing).

mod common;
use common::{generated_club, revision_rules, test_catalog};
use microfut::catalog::Catalog;
use microfut::engine::{Match, Options};

const SEEDS: u64 = 40;

/// The home side's shots over the away side's, over the same seeds, with each side generated
/// under `revision` from the calibration set's preset and seed.
fn shot_ratio(catalog: &Catalog, revision: &str, home: (&str, u64), away: (&str, u64)) -> f64 {
    let rules = revision_rules(catalog, revision);
    let (h, a) = (generated_club(catalog, revision, home.0, home.1), generated_club(catalog, revision, away.0, away.1));
    let (mut hs, mut aws) = (0u64, 0u64);
    for seed in 1..=SEEDS {
        let mut m = Match::new(rules.clone(), &h, &a, seed, Options::default()).unwrap();
        m.run().unwrap();
        let s = m.stats();
        hs += u64::from(s[0].shots);
        aws += u64::from(s[1].shots);
    }
    hs as f64 / aws.max(1) as f64
}

/// The elite club takes clearly more of the shots against an established club generated on the
/// smaller budget, and the established club stays well above a modest one.
#[test]
fn the_established_preset_sits_between_the_others() {
    let catalog = test_catalog();
    let elite_v_established = |r: &str| shot_ratio(&catalog, r, ("elite", 301), ("established", 201));
    let (old, new) = (elite_v_established("0.6.12"), elite_v_established("0.6.13"));
    eprintln!("elite 301 at home to established 201, shots: {old:.2} under 0.6.12, {new:.2} under 0.6.13");
    assert!(new >= old + 0.15, "the elite side's shot ratio {new:.2} under 0.6.13, {old:.2} under 0.6.12");
    let over_modest = shot_ratio(&catalog, "0.6.13", ("established", 201), ("modest", 101));
    eprintln!("established 201 at home to modest 101, shots: {over_modest:.2} under 0.6.13");
    assert!(over_modest >= 1.5, "the established side's shot ratio at home to a modest one: {over_modest:.2}");
}

/// Only the established preset moves: the modest and elite clubs of the calibration set are the
/// ones 0.6.12 generates, sheet for sheet.
#[test]
fn the_other_presets_generate_the_same_clubs() {
    let catalog = test_catalog();
    for (preset, seed) in [("modest", 101), ("modest", 102), ("elite", 301), ("elite", 302)] {
        let (old, new) =
            (generated_club(&catalog, "0.6.12", preset, seed), generated_club(&catalog, "0.6.13", preset, seed));
        assert_eq!(
            serde_json::to_value(&old.squad).unwrap(),
            serde_json::to_value(&new.squad).unwrap(),
            "{preset} {seed}"
        );
    }
    let (old, new) = (
        generated_club(&catalog, "0.6.12", "established", 201),
        generated_club(&catalog, "0.6.13", "established", 201),
    );
    assert_ne!(serde_json::to_value(&old.squad).unwrap(), serde_json::to_value(&new.squad).unwrap());
}
