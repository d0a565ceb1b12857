//! The lab core as a library: exactness of aggregation whatever the threads, chunks and shards;
//! a second simulator plugged in without touching the core; interval coverage.

use microfut::catalog::{Catalog, ContentTree, Diagnostic, Labels, Revision};
use microfut::dice::Dice;
use microfut::lab::{
    self, Accumulator, Format, Kind, Layout, Metric, Part, Report, Request, Shard, Simulator, Unit, merge_patch,
};
use microfut::trilha::TrilhaSimulator;
use proptest::prelude::*;
use serde_json::{Value, json};

fn catalog() -> Catalog {
    Catalog::load(&ContentTree::embedded())
}

fn run_in_pool<S: Simulator>(sim: &S, req: &Request, threads: usize, shard: Shard) -> Vec<Accumulator> {
    let prepared = lab::prepare(sim, req).expect("prepares");
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .unwrap()
        .install(|| lab::run(sim, &prepared, shard, &|_| {}).unwrap())
}

#[test]
fn one_thread_many_threads_and_shards_give_the_same_bits() {
    let cat = catalog();
    let rev = cat.revision("trilha", None).unwrap();
    let req = Request { revision: rev, against: None, scenarios: &[], simulations: 5_000, seed: 11 };
    let one = run_in_pool(&TrilhaSimulator, &req, 1, Shard::ALL);
    for threads in [2, 3, 8] {
        assert_eq!(run_in_pool(&TrilhaSimulator, &req, threads, Shard::ALL), one, "{threads} threads");
    }
    for count in [2, 3, 7] {
        let mut merged: Option<Vec<Accumulator>> = None;
        // Shards merged in reverse order, each run on a different number of threads.
        for index in (0..count).rev() {
            let part = run_in_pool(&TrilhaSimulator, &req, 1 + index as usize % 3, Shard { index, count });
            match &mut merged {
                None => merged = Some(part),
                Some(m) => m.iter_mut().zip(&part).for_each(|(a, b)| a.merge(b)),
            }
        }
        assert_eq!(merged.unwrap(), one, "{count} shards");
    }
    assert_eq!(one.iter().map(|a| a.n).collect::<Vec<_>>(), vec![5_000; 8]);
}

fn labels(s: &str) -> Labels {
    Labels { pt_br: s.into(), en: s.into() }
}

/// A second "ruleset" plugged into the lab with no change to the core: ten coin flips per
/// simulation, measured as a ratio of sums (heads over flips) and a mean (one d6).
struct Coins;

impl Simulator for Coins {
    type Rules = ();
    fn ruleset(&self) -> &'static str {
        "coins"
    }
    fn unit(&self) -> Unit {
        Unit { id: "rounds".into(), label: labels("rounds") }
    }
    fn compile(&self, _: &Revision) -> Result<(), Vec<Diagnostic>> {
        Ok(())
    }
    fn metrics(&self, _: &()) -> Vec<Metric> {
        vec![
            Metric {
                id: "heads".into(),
                label: labels("heads"),
                kind: Kind::Ratio,
                scale: 1,
                format: Format::Percent,
                parts: vec![],
            },
            Metric {
                id: "die".into(),
                label: labels("die"),
                kind: Kind::Mean,
                scale: 1,
                format: Format::Number,
                parts: vec![Part { id: "d6".into(), label: labels("d6") }],
            },
        ]
    }
    fn simulate(&self, _: &(), _: u64, dice: &mut Dice, out: &mut [i64]) -> Result<(), String> {
        let flips = 10;
        out[0] = (0..flips).map(|_| i64::from(dice.below(2))).sum();
        out[1] = flips;
        out[2] = i64::from(dice.die(6));
        Ok(())
    }
}

#[test]
fn another_simulator_plugs_in_and_its_intervals_cover_the_truth() {
    let cat = catalog();
    let rev = cat.revision("trilha", None).unwrap();
    let (mut heads_in, mut die_in) = (0, 0);
    let runs = 200;
    for seed in 0..runs {
        let scenarios = ["G".to_string()];
        let req = Request { revision: rev, against: None, scenarios: &scenarios, simulations: 200, seed };
        let prepared = lab::prepare(&Coins, &req).unwrap();
        let accs = lab::run(&Coins, &prepared, Shard::ALL, &|_| {}).unwrap();
        let v = Report::new(prepared.identity, &accs).json();
        let ci = |key: &str| -> (f64, f64) {
            let c = &v["scenarios"][0][key];
            let c = if c[0].is_array() { &c[0] } else { c };
            (c[0].as_f64().unwrap(), c[1].as_f64().unwrap())
        };
        let (lo, hi) = ci("heads_ci95");
        heads_in += usize::from(lo <= 0.5 && 0.5 <= hi);
        let (lo, hi) = ci("die_ci95");
        die_in += usize::from(lo <= 3.5 && 3.5 <= hi);
    }
    // 95 % intervals: expect about 190 of 200; the bounds hold for these fixed seeds and would
    // catch a standard error off by a factor (coverage ~68 % at half, ~99.99 % at double).
    assert!((180..=198).contains(&heads_in), "ratio interval covered the truth {heads_in}/{runs} times");
    assert!((180..=198).contains(&die_in), "mean interval covered the truth {die_in}/{runs} times");
}

#[test]
fn ab_of_a_revision_with_itself_is_exactly_zero_for_ratios_too() {
    let cat = catalog();
    let rev = cat.revision("trilha", None).unwrap();
    let req = Request { revision: rev, against: Some(rev), scenarios: &[], simulations: 500, seed: 3 };
    let prepared = lab::prepare(&Coins, &req).unwrap();
    let accs = lab::run(&Coins, &prepared, Shard::ALL, &|_| {}).unwrap();
    let v = Report::new(prepared.identity, &accs).json();
    for s in v["scenarios"].as_array().unwrap() {
        assert_eq!(s["heads"]["difference"], 0.0);
        assert_eq!(s["heads"]["difference_ci95"], json!([0.0, 0.0]));
        assert_eq!(s["die"]["difference"], json!([0.0]));
    }
}

fn layout() -> Layout {
    Layout::new(&Coins.metrics(&()), 1)
}

proptest! {
    /// However observations are split into chunks and in whatever order the chunks are merged,
    /// the accumulator is identical to adding them one by one.
    #[test]
    fn aggregation_is_exactly_order_independent(
        obs in prop::collection::vec((-1_000_000i64..1_000_000, 1i64..1_000_000, -(1i64 << 31)..(1i64 << 31)), 1..300),
        cuts in prop::collection::vec(0usize..300, 0..10),
        order in any::<u64>(),
    ) {
        let l = layout();
        let mut sequential = Accumulator::new(&l);
        for (x, y, z) in &obs {
            sequential.add(&l, &[*x, *y, *z]);
        }
        let mut bounds: Vec<usize> = cuts.into_iter().map(|c| c % (obs.len() + 1)).collect();
        bounds.extend([0, obs.len()]);
        bounds.sort();
        let mut parts: Vec<Accumulator> = bounds
            .windows(2)
            .map(|w| {
                let mut a = Accumulator::new(&l);
                for (x, y, z) in &obs[w[0]..w[1]] {
                    a.add(&l, &[*x, *y, *z]);
                }
                a
            })
            .collect();
        // A scrambled merge order, as rayon or a merge of shard files might do.
        let mut total = Accumulator::new(&l);
        let mut state = order;
        while !parts.is_empty() {
            state = state.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            let i = (state >> 33) as usize % parts.len();
            total.merge(&parts.swap_remove(i));
        }
        prop_assert_eq!(total, sequential);
    }

    /// Any shard count over any N: the slices add up to the whole run.
    #[test]
    fn shards_add_up_to_the_whole_run(n in 1u64..120, count in 1u64..9, seed in any::<u64>()) {
        let cat = catalog();
        let rev = cat.revision("trilha", None).unwrap();
        let scenarios = ["D".to_string(), "G".to_string()];
        let req = Request { revision: rev, against: None, scenarios: &scenarios, simulations: n, seed };
        let prepared = lab::prepare(&TrilhaSimulator, &req).unwrap();
        let whole = lab::run(&TrilhaSimulator, &prepared, Shard::ALL, &|_| {}).unwrap();
        let mut merged: Vec<Accumulator> = prepared.layouts().iter().map(Accumulator::new).collect();
        for index in 0..count {
            let part = lab::run(&TrilhaSimulator, &prepared, Shard { index, count }, &|_| {}).unwrap();
            merged.iter_mut().zip(&part).for_each(|(a, b)| a.merge(b));
        }
        prop_assert_eq!(merged, whole);
    }

    /// RFC 7386 patches are idempotent, and an empty patch changes nothing.
    #[test]
    fn merge_patch_is_idempotent(target in json_value(), patch in json_value()) {
        let once = merge_patch::applied(&target, &patch);
        prop_assert_eq!(merge_patch::applied(&once, &patch), once);
        if target.is_object() {
            prop_assert_eq!(merge_patch::applied(&target, &json!({})), target);
        }
    }
}

fn json_value() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::from),
        (-5i64..5).prop_map(Value::from),
        "[a-c]{0,2}".prop_map(Value::from),
    ];
    leaf.prop_recursive(3, 24, 4, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..3).prop_map(Value::Array),
            prop::collection::btree_map("[a-d]", inner, 0..4).prop_map(|m| Value::Object(m.into_iter().collect())),
        ]
    })
}
