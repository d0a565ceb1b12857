//! Space Football: the referee with in-process bots (actions per second on one core), the
//! search's speed, and a small championship of bot processes (the 30-bot, 870-match run is timed
//! by `tools/space-championship-bench`; see BENCHMARKS.md).

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use microfut::catalog::{Catalog, ContentTree};
use microfut::dice::Dice;
use microfut::space::bots::{BotKind, Builtin, Thinking, search};
use microfut::space::referee::{self, Player};
use microfut::space::{BOARD_LABEL, Board, Rules, Side, compile};
use std::hint::black_box;
use std::process::Command;
use std::time::Duration;

fn rules() -> Rules {
    let cat = Catalog::load(&ContentTree::embedded());
    compile(cat.revision("space", Some("1.0.0")).unwrap()).unwrap()
}

fn boards(r: &Rules, k: u64) -> Vec<Board> {
    (0..k).map(|s| Board::draw(r, &mut Dice::derived(s, BOARD_LABEL), None).unwrap()).collect()
}

/// Plays one match per board; returns the actions played.
fn matches(r: &Rules, boards: &[Board], kinds: [BotKind; 2]) -> u64 {
    let opts = referee::Options { time_limit: Duration::from_secs(1), record: false };
    let mut total = 0;
    for (i, b) in boards.iter().enumerate() {
        let mut w = Builtin::new(kinds[0], r, Dice::derived(i as u64, b"w"), Thinking::Nodes);
        let mut k = Builtin::new(kinds[1], r, Dice::derived(i as u64, b"b"), Thinking::Nodes);
        let players: [&mut dyn Player; 2] = [&mut w, &mut k];
        total += u64::from(referee::play(r, b.clone(), players, &opts).outcome.actions);
    }
    total
}

fn referee_bench(c: &mut Criterion) {
    let r = rules();
    let bs = boards(&r, 200);
    let mut g = c.benchmark_group("space_referee");
    for kinds in [[BotKind::Random, BotKind::Random], [BotKind::Greedy, BotKind::Greedy]] {
        let actions = matches(&r, &bs, kinds);
        g.throughput(Throughput::Elements(actions));
        g.bench_function(format!("200_matches_{}_v_{}", kinds[0].name(), kinds[1].name()), |b| {
            b.iter(|| black_box(matches(&r, &bs, kinds)))
        });
    }
    g.finish();
}

fn search_bench(c: &mut Criterion) {
    let r = rules();
    let b = Board::draw(&r, &mut Dice::derived(2, BOARD_LABEL), Some(8)).unwrap();
    let budget = search::Budget { max_depth: 64, nodes: 20_000, deadline: None };
    let mut g = c.benchmark_group("space_search");
    g.throughput(Throughput::Elements(20_000));
    g.bench_function("20k_nodes", |bch| {
        bch.iter(|| black_box(search::search(&b, Side::White, &r.actions, &r.evaluation, &budget)))
    });
    g.finish();
}

fn championship_bench(c: &mut Criterion) {
    let exe = env!("CARGO_BIN_EXE_microfut");
    let mut g = c.benchmark_group("space_championship");
    g.sample_size(10).measurement_time(Duration::from_secs(20));
    // Six process bots, 30 matches, as many at once as there are cores.
    let bots: Vec<String> = ["@random", "@greedy", "@search --nodes 300", "@random", "@greedy", "@search --nodes 300"]
        .iter()
        .enumerate()
        .map(|(i, b)| format!("b{i}={b}"))
        .collect();
    g.bench_function("6_process_bots_30_matches", |bch| {
        bch.iter(|| {
            let mut cmd = Command::new(exe);
            cmd.args(["space", "championship", "--seed", "1", "--quiet", "--json"]);
            for b in &bots {
                cmd.args(["--bot", b]);
            }
            let o = cmd.output().unwrap();
            assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        })
    });
    g.finish();
}

criterion_group!(benches, referee_bench, search_bench, championship_bench);
criterion_main!(benches);
