//! Golden fingerprint: a fixed small revision hashes to a known value, and the value is exactly
//! SHA-256 over the RFC 8785 canonical form of its documents.

use microfut::catalog::{Catalog, ContentTree};
use semver::Version;
use sha2::{Digest, Sha256};
use std::path::Path;

const CANONICAL: &str = concat!(
    r#"{"manifest.json":{"$schema":"../../../../../schemas/manifest.schema.json","change_note":"A fixed revision whose fingerprint is frozen by a test.","#,
    r#""documents":["params.json"],"engine":">=0.5.0, <0.6.0","id":"mini","label":{"en":"Minimal","pt-BR":"Mínima"},"parent":null,"status":"draft","version":"0.1.0"},"#,
    r#""params.json":{"$schema":"../../../../../schemas/params.schema.json","params":[{"id":"pitch_length","label":{"en":"Length","pt-BR":"Comprimento"},"unit":"m","value":105},"#,
    r#"{"id":"round_seconds","label":{"en":"Round","pt-BR":"Rodada"},"value":2}]}}"#
);

const GOLDEN: &str = "sha256:279890561ff77a462ef6f7b511db79c713da60acbc62b2df52fc6a7553011968";

#[test]
fn fixed_revision_has_a_known_fingerprint() {
    let tree = ContentTree::from_dir(&Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/golden")).unwrap();
    let catalog = Catalog::load(&tree);
    let rev = &catalog.rulesets["mini"].revisions[&Version::new(0, 1, 0)];
    let by_hand = format!(
        "sha256:{}",
        Sha256::digest(CANONICAL.as_bytes()).iter().map(|b| format!("{b:02x}")).collect::<String>()
    );
    assert_eq!(rev.fingerprint, by_hand, "fingerprint = SHA-256 of the canonical JSON");
    assert_eq!(rev.fingerprint, GOLDEN);
}
