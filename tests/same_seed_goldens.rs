//! Every Microfut revision's `calibration.json` records, under `same_seed`, how many rounds the
//! reference club's match against itself lasts on a seed and the hash of its last state: `lab
//! calibrate` checks that the same seed reproduces that match. Drafts 0.6.11 and 0.6.12 had kept
//! 0.6.10's record (copied with the folder), so the check failed for them whatever the engine did
//! and hid a real drift behind a known failure. This plays each recorded match once, as the check
//! does, and compares it with its record.

mod common;
use common::{revision_rules, sample_club, test_catalog};
use microfut::engine::{Match, Options};

#[test]
fn every_revision_records_its_own_same_seed_match() {
    let catalog = test_catalog();
    let entry = catalog.ruleset("microfut").unwrap();
    let mut checked = Vec::new();
    let mut wrong = Vec::new();
    for (version, rev) in &entry.revisions {
        let Some(cal) = rev.document("calibration.json") else { continue };
        let Some(golden) = cal.get("same_seed") else { continue };
        assert_eq!(golden["club"], "reference", "{version}: same_seed names a club other than the reference");
        let club = sample_club(cal["reference_club"].as_str().unwrap());
        let seed = golden["seed"].as_u64().unwrap();
        let version = version.to_string();
        let rules = revision_rules(&catalog, &version);
        let mut m =
            Match::new(rules, &club, &club, seed, Options { retention: Some(0), ..Default::default() }).unwrap();
        m.run().unwrap();
        let hashes = m.round_hashes();
        let last = hashes.last().map(|h| format!("{h:016x}")).unwrap_or_default();
        let (rounds, hash) = (golden["rounds"].as_u64().unwrap(), golden["hash"].as_str().unwrap());
        if hashes.len() as u64 != rounds || last != hash {
            wrong.push(format!("{version}: played {} rounds, last {last}; recorded {rounds}, {hash}", hashes.len()));
        }
        checked.push(version);
    }
    assert!(checked.len() >= 14, "too few revisions record a same-seed match: {checked:?}");
    assert!(wrong.is_empty(), "same-seed records that are not their revision's match:\n{}", wrong.join("\n"));
}
