//! `Catalog::load_one` (issue 15, peak memory): a command that plays one revision keeps only
//! that revision's documents, and sees the same catalog as `Catalog::load` otherwise — the same
//! revision chosen, the same fingerprints and problems everywhere. `Catalog::load_some` (the
//! lab's A/B mode) does the same for two revisions.

use microfut::catalog::{Catalog, CatalogError, ContentTree};

#[test]
fn loading_one_revision_keeps_it_alone_and_changes_nothing_else() {
    // The repository's folder: the draft in progress is not embedded in the binary.
    let content = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("content");
    let tree = ContentTree::from_dir(&content).unwrap();
    let all = Catalog::load(&tree);
    let sets: [&[Option<&str>]; 5] =
        [&[None], &[Some("0.5.4")], &[Some("0.6.21")], &[Some("0.6.21"), Some("0.5.4")], &[None, Some("0.5.3")]];
    for versions in sets {
        let one = match versions {
            [version] => Catalog::load_one(&tree, "microfut", *version),
            _ => Catalog::load_some(&tree, "microfut", versions),
        };
        let mut wanted = Vec::new();
        for &version in versions {
            let want = all.revision("microfut", version).unwrap();
            let got = one.revision("microfut", version).unwrap();
            assert_eq!(got.version, want.version, "{version:?}");
            assert_eq!(got.fingerprint, want.fingerprint);
            assert_eq!(got.documents, want.documents);
            wanted.push(got.version.clone());
        }
        assert_eq!(format!("{:?}", one.diagnostics), format!("{:?}", all.diagnostics));
        assert_eq!(one.rulesets.keys().collect::<Vec<_>>(), all.rulesets.keys().collect::<Vec<_>>());
        let mut trimmed = 0;
        for (ruleset, entry) in &one.rulesets {
            let whole = &all.rulesets[ruleset];
            assert_eq!(entry.extra, whole.extra, "{ruleset}");
            assert_eq!(entry.revisions.keys().collect::<Vec<_>>(), whole.revisions.keys().collect::<Vec<_>>());
            for (v, rev) in &entry.revisions {
                let a = &whole.revisions[v];
                assert_eq!(rev.fingerprint, a.fingerprint, "{ruleset} {v}");
                assert_eq!(format!("{:?}", rev.diagnostics), format!("{:?}", a.diagnostics), "{ruleset} {v}");
                let kept = ruleset == "microfut" && wanted.contains(v);
                assert_eq!(rev.trimmed, !kept, "{ruleset} {v}");
                assert_eq!(rev.documents.is_empty(), !kept, "{ruleset} {v}");
                if !kept && ruleset == "microfut" {
                    trimmed += 1;
                    let refused = one.revision("microfut", Some(&v.to_string()));
                    assert!(matches!(refused, Err(CatalogError::NotLoaded { .. })), "{v}: {refused:?}");
                }
            }
        }
        assert!(trimmed >= 5, "the other Microfut revisions are not kept ({trimmed}, {versions:?})");
    }
}
