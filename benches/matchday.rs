//! A full match with NPC decisions on both sides: the established sample club against itself,
//! with the decision log at its default retention, and without it for comparison.

use criterion::{Criterion, criterion_group, criterion_main};
use microfut::catalog::{Catalog, ContentTree};
use microfut::club::Club;
use microfut::engine::{Match, Options};
use std::hint::black_box;
use std::time::Duration;

fn setup() -> (std::sync::Arc<microfut::engine::Rules>, Club) {
    let catalog = Catalog::load(&ContentTree::embedded());
    let rules = microfut::run::rules_for(&catalog, None).expect("the default revision plays");
    let club: Club =
        serde_json::from_value(catalog.rulesets["microfut"].extra["clubs/sociedade_esportiva_serra_azul.json"].clone())
            .unwrap();
    (rules, club)
}

fn full_match(c: &mut Criterion) {
    let (rules, club) = setup();
    let mut g = c.benchmark_group("full_match");
    g.sample_size(20).measurement_time(Duration::from_secs(20));
    let mut seed = 0u64;
    g.bench_function("npc_both_sides_default_retention", |b| {
        b.iter(|| {
            seed += 1;
            let mut m = Match::new(rules.clone(), &club, &club, seed, Options::default()).unwrap();
            m.run();
            black_box(m.score())
        })
    });
    let mut seed = 0u64;
    g.bench_function("npc_both_sides_no_log", |b| {
        b.iter(|| {
            seed += 1;
            let mut m =
                Match::new(rules.clone(), &club, &club, seed, Options { retention: Some(0), ..Default::default() })
                    .unwrap();
            m.run();
            black_box(m.score())
        })
    });
    g.finish();
}

criterion_group!(benches, full_match);
criterion_main!(benches);
