//! Interpreter speed: a compiled formula against the same formula in Rust and in evalexpr, and the
//! full pass pipeline with and without contributions.

use criterion::{Criterion, criterion_group, criterion_main};
use evalexpr::{ContextWithMutableFunctions, ContextWithMutableVariables, HashMapContext, Value};
use microfut::catalog::{Catalog, ContentTree};
use microfut::expr::{self, Frame, Lookup, Scope, Slot};
use microfut::ruleset::{Ruleset, compile};
use std::hint::black_box;
use std::sync::Arc;

const SPEED: &str = "clamp(3, 18, round(0.45 * dx + 0.55 * res_practical) + training_speed)";

struct Slots(&'static [&'static str]);
impl Scope for Slots {
    fn variable(&self, name: &str) -> Option<Slot> {
        self.0.iter().position(|n| *n == name).map(Slot::Input)
    }
    fn function(&self, _: &str) -> Option<Arc<dyn Lookup>> {
        None
    }
    fn variable_names(&self) -> Vec<String> {
        Vec::new()
    }
    fn function_names(&self) -> Vec<String> {
        Vec::new()
    }
}

/// The same formula written in Rust, reading the same frame.
#[inline(never)]
fn speed_in_rust(f: &Frame) -> f64 {
    let (dx, res, training) = (f.inputs[0], f.inputs[1], f.inputs[2]);
    expr::clamp(3.0, 18.0, expr::round(0.45 * dx + 0.55 * res) + training)
}

fn ruleset() -> Ruleset {
    let catalog = Catalog::load(&ContentTree::embedded());
    compile(catalog.revision("microfut", Some("0.5.0")).unwrap()).unwrap()
}

fn formula(c: &mut Criterion) {
    let compiled =
        expr::compile(&expr::parse(SPEED).unwrap(), &Slots(&["dx", "res_practical", "training_speed"])).unwrap();
    let inputs = [14.0, 13.0, 1.0];
    let mut g = c.benchmark_group("formula_speed_characteristic");
    // The frame is built once: building it inside the timed loop costs more than the formula.
    let frame = Frame { inputs: &inputs, locals: &[] };
    g.bench_function("rust", |b| b.iter(|| speed_in_rust(black_box(&frame))));
    g.bench_function("compiled", |b| b.iter(|| compiled.eval(black_box(&frame))));
    let tree = evalexpr::build_operator_tree(SPEED).unwrap();
    let mut ctx = HashMapContext::new();
    ctx.set_value("dx".into(), Value::Float(14.0)).unwrap();
    ctx.set_value("res_practical".into(), Value::Float(13.0)).unwrap();
    ctx.set_value("training_speed".into(), Value::Float(1.0)).unwrap();
    ctx.set_function(
        "clamp".into(),
        evalexpr::Function::new(|a| {
            let t = a.as_fixed_len_tuple(3)?;
            Ok(Value::Float(expr::clamp(t[0].as_number()?, t[1].as_number()?, t[2].as_number()?)))
        }),
    )
    .unwrap();
    ctx.set_function("round".into(), evalexpr::Function::new(|a| Ok(Value::Float(expr::round(a.as_number()?)))))
        .unwrap();
    g.bench_function("evalexpr", |b| b.iter(|| tree.eval_with_context(black_box(&ctx)).unwrap()));
    g.finish();
}

fn pass_pipeline(c: &mut Criterion) {
    let rs = ruleset();
    let pass = rs.pipeline("pass").unwrap();
    let given: Vec<(String, f64)> = [
        ("dx", 14.0),
        ("passing", 15.0),
        ("control", 13.0),
        ("st", 11.0),
        ("kicking", 12.0),
        ("distance", 18.0),
        ("orientation", 30.0),
        ("nearest_opponent", 4.0),
    ]
    .iter()
    .map(|(k, v)| (k.to_string(), *v))
    .collect();
    let inputs = rs.prepare(pass, &given).unwrap().inputs;
    let mut g = c.benchmark_group("pass_pipeline");
    g.bench_function("resolve", |b| b.iter(|| pass.resolve(black_box(&inputs))));
    let mut trace = Vec::with_capacity(16);
    g.bench_function("resolve_traced", |b| b.iter(|| pass.resolve_traced(black_box(&inputs), &mut trace)));
    g.bench_function("resolve_traced_and_explained", |b| {
        b.iter(|| {
            let r = pass.resolve_traced(black_box(&inputs), &mut trace);
            pass.explain(&trace, &r)
        })
    });
    g.finish();
}

criterion_group!(benches, formula, pass_pipeline);
criterion_main!(benches);
