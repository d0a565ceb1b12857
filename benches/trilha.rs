//! Trilha in the lab: one game, the dice derivation every game pays for, the authors' full study
//! (8 scenarios × 100,000 games) on one and on all cores, and the plain Python simulator of the
//! same rules (tools/trilha_baseline.py) run side by side as the baseline.

use criterion::{Criterion, criterion_group, criterion_main};
use microfut::catalog::{Catalog, ContentTree};
use microfut::dice::Dice;
use microfut::lab::{self, Request, Shard};
use microfut::trilha::{self, TrilhaSimulator};
use std::hint::black_box;
use std::process::Command;
use std::time::Duration;

fn catalog() -> Catalog {
    Catalog::load(&ContentTree::embedded())
}

fn game(c: &mut Criterion) {
    let cat = catalog();
    let rules = trilha::compile(cat.revision("trilha", Some("1.0.0")).unwrap()).unwrap();
    let mut g = c.benchmark_group("trilha_game");
    let mut dice = Dice::new(1);
    g.bench_function("play_final_rules", |b| b.iter(|| trilha::play(black_box(&rules), &mut dice)));
    let mut i = 0u64;
    g.bench_function("derive_dice", |b| {
        b.iter(|| {
            i += 1;
            Dice::derived(1, black_box(&i.to_le_bytes()))
        })
    });
    g.finish();
}

fn study(games: u64, threads: usize) -> impl FnMut() {
    let cat = catalog();
    let rev = cat.revision("trilha", Some("1.0.0")).unwrap().clone();
    let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().unwrap();
    move || {
        let req = Request { revision: &rev, against: None, scenarios: &[], simulations: games, seed: 1 };
        let prepared = lab::prepare(&TrilhaSimulator, &req).unwrap();
        black_box(pool.install(|| lab::run(&TrilhaSimulator, &prepared, Shard::ALL, &|_| {}).unwrap()));
    }
}

fn lab_runs(c: &mut Criterion) {
    let mut g = c.benchmark_group("trilha_lab");
    g.sample_size(10).measurement_time(Duration::from_secs(8)).warm_up_time(Duration::from_secs(2));
    let mut all_cores = study(100_000, rayon::current_num_threads());
    g.bench_function("8x100k_all_cores", |b| b.iter(&mut all_cores));
    let mut one_core = study(100_000, 1);
    g.bench_function("8x100k_one_core", |b| b.iter(&mut one_core));
    let mut small = study(10_000, 1);
    g.bench_function("8x10k_one_core", |b| b.iter(&mut small));

    // The baseline: the same rules, content and overlays in plain Python, one process.
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/tools/trilha_baseline.py");
    let python = Command::new("python3").arg("--version").output().is_ok_and(|o| o.status.success());
    if python {
        g.bench_function("8x10k_python_baseline", |b| {
            b.iter(|| {
                let o = Command::new("python3").args([script, "--games", "10000", "--seed", "1"]).output().unwrap();
                assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
            })
        });
    } else {
        eprintln!("python3 not found: skipping the Python baseline");
    }
    g.finish();
}

criterion_group!(benches, game, lab_runs);
criterion_main!(benches);
