//! The recorded runs in tests/runs/ replay bit for bit under their pinned revisions. A change
//! that alters any of them must come with a new content revision, or an explicit, reviewed
//! re-record (tools/rerecord-runs).

use microfut::catalog::{Catalog, ContentTree};
use microfut::run::{Replay, RunRecord, pinned_rules, replay};
use std::path::Path;

#[test]
fn every_recorded_run_replays_identically() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/runs");
    let corpus: serde_json::Value = serde_json::from_slice(&std::fs::read(dir.join("corpus.json")).unwrap()).unwrap();
    let catalog = Catalog::load(&ContentTree::embedded());
    let runs = corpus["runs"].as_array().unwrap();
    assert!(runs.len() >= 3);
    let mut with_intents = 0;
    for r in runs {
        let file = r["file"].as_str().unwrap();
        let record =
            RunRecord::parse(&std::fs::read(dir.join(file)).unwrap()).unwrap_or_else(|e| panic!("{file}: {e}"));
        with_intents += usize::from(!record.intents.is_empty());
        let rules = pinned_rules(&catalog, &record).unwrap_or_else(|e| panic!("{file}: {e}"));
        match replay(rules, &record).unwrap() {
            Replay::Identical { rounds } => assert_eq!(rounds, record.round_hashes.len()),
            other => panic!(
                "{file} no longer replays: {other:?}. If the change is intended, publish a new revision or re-record with tools/rerecord-runs and review the diff"
            ),
        }
    }
    assert!(with_intents >= 1, "the corpus keeps a run with human intents");
}

#[test]
fn the_corpus_lists_every_recorded_run() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/runs");
    let corpus: serde_json::Value = serde_json::from_slice(&std::fs::read(dir.join("corpus.json")).unwrap()).unwrap();
    let listed: Vec<&str> = corpus["runs"].as_array().unwrap().iter().map(|r| r["file"].as_str().unwrap()).collect();
    for e in std::fs::read_dir(&dir).unwrap() {
        let name = e.unwrap().file_name().into_string().unwrap();
        if name.ends_with(".run.json") {
            assert!(listed.contains(&name.as_str()), "{name} is not in corpus.json");
        }
    }
}
