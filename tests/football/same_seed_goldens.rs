//! Every Microfut revision's `calibration.json` records, under `same_seed`, how many rounds the
//! reference club's match against itself lasts on a seed and the hash of its last state: `lab
//! calibrate` checks that the same seed reproduces that match. Two drafts (0.6.11, 0.6.12) had kept
//! their parent's record (copied with the folder), so the check failed for them whatever the engine did
//! and hid a real drift behind a known failure. This runs the check itself on every revision that
//! records a match.

use crate::common;
use common::{revision_rules, test_catalog};
use microfut::calibrate::{Clubs, Targets, same_seed};

#[test]
fn every_revision_records_its_own_same_seed_match() {
    let catalog = test_catalog();
    let entry = catalog.ruleset("microfut").unwrap();
    let mut checked = Vec::new();
    let mut wrong = Vec::new();
    for (version, rev) in &entry.revisions {
        if rev.document("calibration.json").and_then(|c| c.get("same_seed")).is_none() {
            continue;
        }
        let version = version.to_string();
        let rules = revision_rules(&catalog, &version);
        let targets = Targets::of(&rules).unwrap();
        let clubs = Clubs::of(&catalog, &rules, &targets, None).unwrap();
        let check = same_seed(&rules, &targets, &clubs).unwrap();
        if !check.pass {
            wrong.push(format!("{version}: played {}; recorded {}", check.figure, check.target));
        }
        checked.push(version);
    }
    assert!(checked.len() >= 4, "too few revisions record a same-seed match: {checked:?}");
    assert!(wrong.is_empty(), "same-seed records that are not their revision's match:\n{}", wrong.join("\n"));
}
