//! A full match with NPC decisions on both sides: the established sample club against itself,
//! with the decision log at its default retention, and without it for comparison; and the lab
//! playing 40 such matches on one core and on all cores, to show how matches scale with cores.

use criterion::{Criterion, criterion_group, criterion_main};
use microfut::catalog::{Catalog, ContentTree};
use microfut::club::Club;
use microfut::engine::{Match, MatchSimulator, Options};
use microfut::lab::{self, Request, Shard};
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
            m.run().unwrap();
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
            m.run().unwrap();
            black_box(m.score())
        })
    });
    g.finish();
}

/// 0.6.0 (the default) with issue 15's lever parameters added in memory: the speed each gives.
fn rules_with(set: &[(&str, f64)]) -> std::sync::Arc<microfut::engine::Rules> {
    let catalog = Catalog::load(&ContentTree::embedded());
    let mut rev = catalog.revision("microfut", Some("0.6.0")).unwrap().clone();
    let params = rev.documents.get_mut("params.json").unwrap()["params"].as_array_mut().unwrap();
    for (id, value) in set {
        params.push(serde_json::json!({"id": id, "value": value, "domain": {"min": 0, "max": 1000}, "label": {"pt-BR": id, "en": id}}));
    }
    let rs = microfut::ruleset::compile(&rev).unwrap();
    std::sync::Arc::new(microfut::engine::Rules::new(std::sync::Arc::new(rs)).unwrap())
}

/// `full_match/npc_both_sides_default_retention` under each lever (MICROFUT_BENCH_LEVERS=1 to
/// run them; they are slow to run all).
fn levers(c: &mut Criterion) {
    if std::env::var_os("MICROFUT_BENCH_LEVERS").is_none() {
        return;
    }
    let (_, club) = setup();
    let mut g = c.benchmark_group("full_match_levers");
    g.sample_size(20).measurement_time(Duration::from_secs(20));
    let variants: [(&str, &[(&str, f64)]); 5] = [
        ("off", &[]),
        ("pass_reach_30", &[("npc_pass_reach", 30.0)]),
        ("map_grid_1", &[("npc_map_grid", 1.0)]),
        ("positioning_cadence_2_r25", &[("positioning_cadence", 2.0), ("positioning_near_radius", 25.0)]),
        (
            "all",
            &[
                ("npc_pass_reach", 30.0),
                ("npc_map_grid", 1.0),
                ("positioning_cadence", 2.0),
                ("positioning_near_radius", 25.0),
            ],
        ),
    ];
    for (name, set) in variants {
        let rules = rules_with(set);
        let mut seed = 0u64;
        g.bench_function(name, |b| {
            b.iter(|| {
                seed += 1;
                let mut m = Match::new(rules.clone(), &club, &club, seed, Options::default()).unwrap();
                m.run().unwrap();
                black_box(m.score())
            })
        });
    }
    g.finish();
}

fn lab_matches(threads: usize, club: &Club) -> impl FnMut() {
    let catalog = Catalog::load(&ContentTree::embedded());
    let rev = catalog.revision("microfut", None).unwrap().clone();
    let sim = MatchSimulator { home: club.clone(), away: club.clone() };
    let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().unwrap();
    let only_base = ["base".to_string()];
    move || {
        let req = Request { revision: &rev, against: None, scenarios: &only_base, simulations: 40, seed: 1 };
        let prepared = lab::prepare(&sim, &req).unwrap();
        black_box(pool.install(|| lab::run(&sim, &prepared, Shard::ALL, &|_| {}).unwrap()));
    }
}

fn lab_scaling(c: &mut Criterion) {
    let (_, club) = setup();
    let mut g = c.benchmark_group("microfut_lab");
    g.sample_size(10).measurement_time(Duration::from_secs(15));
    let mut one = lab_matches(1, &club);
    g.bench_function("40_matches_one_core", |b| b.iter(&mut one));
    let mut all = lab_matches(rayon::current_num_threads(), &club);
    g.bench_function("40_matches_all_cores", |b| b.iter(&mut all));
    g.finish();
}

criterion_group!(benches, full_match, levers, lab_scaling);
criterion_main!(benches);
