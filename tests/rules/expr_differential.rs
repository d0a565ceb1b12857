//! Our compiled evaluator against evalexpr's own evaluation of the same text, for many random
//! inputs. evalexpr gets the same `round`, `floor`, `ceil`, `clamp`, `atan2` and tables as
//! context functions, so the test compares evaluation machinery, not library semantics.
//! Variables are given as floats (content never divides integer literals by each other; that
//! is the one place evalexpr's integer arithmetic would differ from ours).

use crate::common;
use evalexpr::{ContextWithMutableFunctions, ContextWithMutableVariables, Function, HashMapContext, Value};
use microfut::expr::{self, Frame, Lookup, Scope, Slot};
use microfut::ruleset::Ruleset;
use proptest::prelude::*;
use std::collections::BTreeMap;
use std::sync::Arc;

struct TestScope<'a> {
    names: Vec<String>,
    params: BTreeMap<String, f64>,
    rs: &'a Ruleset,
}

impl Scope for TestScope<'_> {
    fn variable(&self, name: &str) -> Option<Slot> {
        if let Some(i) = self.names.iter().position(|n| n == name) {
            return Some(Slot::Input(i));
        }
        self.params.get(name).map(|&v| Slot::Const(v))
    }
    fn function(&self, name: &str) -> Option<Arc<dyn Lookup>> {
        self.rs.table(name).map(|t| t.lookup())
    }
    fn variable_names(&self) -> Vec<String> {
        self.names.clone()
    }
    fn function_names(&self) -> Vec<String> {
        Vec::new()
    }
}

fn nums(v: &Value, n: usize) -> Result<Vec<f64>, evalexpr::EvalexprError> {
    if n == 1 {
        return Ok(vec![v.as_number()?]);
    }
    v.as_fixed_len_tuple(n)?.iter().map(|x| x.as_number()).collect()
}

fn context(rs: &Ruleset) -> HashMapContext {
    let mut ctx = HashMapContext::new();
    let f1 = |f: fn(f64) -> f64| Function::new(move |a| Ok(Value::Float(f(nums(a, 1)?[0]))));
    ctx.set_function("round".into(), f1(expr::round)).unwrap();
    ctx.set_function("floor".into(), f1(expr::floor)).unwrap();
    ctx.set_function("ceil".into(), f1(expr::ceil)).unwrap();
    ctx.set_function("abs".into(), f1(f64::abs)).unwrap();
    ctx.set_function("sqrt".into(), f1(libm::sqrt)).unwrap();
    ctx.set_function(
        "atan2".into(),
        Function::new(|a| {
            let v = nums(a, 2)?;
            Ok(Value::Float(expr::atan2_deg(v[0], v[1])))
        }),
    )
    .unwrap();
    ctx.set_function(
        "hypot".into(),
        Function::new(|a| {
            let v = nums(a, 2)?;
            Ok(Value::Float(libm::hypot(v[0], v[1])))
        }),
    )
    .unwrap();
    ctx.set_function(
        "clamp".into(),
        Function::new(|a| {
            let v = nums(a, 3)?;
            Ok(Value::Float(expr::clamp(v[0], v[1], v[2])))
        }),
    )
    .unwrap();
    for t in &rs.tables {
        let lookup = t.lookup();
        ctx.set_function(t.id.clone(), Function::new(move |a| Ok(Value::Float(lookup.lookup(nums(a, 1)?[0])))))
            .unwrap();
    }
    for p in &rs.params {
        ctx.set_value(p.id.clone(), Value::Float(p.value)).unwrap();
    }
    ctx
}

/// Every Microfut revision of the embedded catalog, compiled once per thread (proptest runs a
/// property's cases on one): loading and compiling them is most of a case's cost otherwise.
fn revisions() -> &'static [Ruleset] {
    thread_local! {
        static REVISIONS: &'static [Ruleset] = {
            let catalog = common::embedded_catalog();
            let versions: Vec<String> = catalog.rulesets["microfut"].revisions.keys().map(|v| v.to_string()).collect();
            assert!(versions.len() >= 6, "{versions:?}");
            Box::leak(versions.iter().map(|v| common::ruleset(v)).collect())
        };
    }
    REVISIONS.with(|r| *r)
}

/// Every expression of a revision's documents, plus texts exercising each operator and builtin.
fn expressions(rs: &Ruleset) -> Vec<String> {
    let mut texts = Vec::new();
    for doc in rs.revision.documents.values() {
        collect_exprs(doc, &mut texts);
    }
    texts.extend(
        [
            "a + b * c - d / (e + 40)",
            "-a + (b - c) % 7",
            "a ^ 2 + sqrt(abs(b)) - hypot(c, d)",
            "min(a, b, c) + max(d, e) * 2",
            "clamp(3, 17, a + b - c)",
            "clamp(a, a + 5, b)",
            "if(a > b && c <= d || !(e >= 3), a, b)",
            "if(a != b, round(a / 3), floor(b / 7) + ceil(c / 5))",
            "atan2(abs(a - 34), max(0.1, 105 - b))",
            "round(0.45 * a + 0.55 * b) + round(-2.5) + round(2.5)",
            "pressure_by_distance(a / 3) + pass_range_use(100 * b / (c + 1))",
            "age_cap(a + 15) / 1000",
            "a > b || c == d",
        ]
        .map(String::from),
    );
    texts.sort();
    texts.dedup();
    texts
}

fn collect_exprs(v: &serde_json::Value, out: &mut Vec<String>) {
    match v {
        serde_json::Value::Object(m) => {
            for (k, x) in m {
                match (k.as_str(), x) {
                    ("expr" | "input" | "difficulty", serde_json::Value::String(s)) => out.push(s.clone()),
                    _ => collect_exprs(x, out),
                }
            }
        }
        serde_json::Value::Array(a) => a.iter().for_each(|x| collect_exprs(x, out)),
        _ => {}
    }
}

fn variables_of(text: &str) -> Vec<String> {
    expr::parse(text).unwrap().variables().into_iter().map(String::from).collect()
}

fn same(a: f64, b: f64) -> bool {
    (a.is_nan() && b.is_nan()) || a == b || (a - b).abs() <= 1e-9 * a.abs().max(b.abs()).max(1.0)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(common::cases(64)))]
    #[test]
    fn compiled_equals_evalexpr(values in proptest::collection::vec(-40.0f64..140.0, 64)) {
        for rs in revisions() {
        let params: BTreeMap<String, f64> = rs.params.iter().map(|p| (p.id.clone(), p.value)).collect();
        let base_ctx = context(rs);
        for text in expressions(rs) {
            let names: Vec<String> = variables_of(&text).into_iter().filter(|n| !params.contains_key(n)).collect();
            let scope = TestScope { names: names.clone(), params: params.clone(), rs };
            let ast = expr::parse(&text).unwrap();
            let inputs: Vec<f64> = names.iter().enumerate().map(|(i, _)| (values[i] * 4.0).round() / 4.0).collect();
            let mut ctx = base_ctx.clone();
            for (n, v) in names.iter().zip(&inputs) {
                ctx.set_value(n.clone(), Value::Float(*v)).unwrap();
            }
            let frame = Frame { inputs: &inputs, locals: &[] };
            let theirs = evalexpr::build_operator_tree(&text).unwrap().eval_with_context(&ctx).unwrap_or_else(|e| panic!("{text}: {e}"));
            match theirs {
                Value::Boolean(b) => {
                    let cond = expr::compile_condition(&ast, &scope).unwrap_or_else(|e| panic!("{text}: {e}"));
                    prop_assert_eq!(cond.holds(&frame), b, "{} with {:?}", text, inputs);
                }
                other => {
                    let compiled = expr::compile(&ast, &scope).unwrap_or_else(|e| panic!("{text}: {e}"));
                    let ours = compiled.eval(&frame);
                    let theirs = other.as_number().unwrap_or_else(|_| panic!("{text} gave {other:?}"));
                    prop_assert!(same(ours, theirs), "{} with {:?}: ours {} vs evalexpr {}", text, inputs, ours, theirs);
                }
            }
        }
    }
    }
}

/// Every stage, requirement and difficulty the compiler built, in every revision, is one of the
/// texts the differential test evaluates: found through the stage's own content address, so a
/// new kind of document (or a key the collector misses) fails here.
#[test]
fn covers_every_content_expression() {
    for rs in revisions() {
        let tested = expressions(rs);
        let text_at = |source: &str| -> String {
            let (file, pointer) = source.split_once('#').unwrap_or_else(|| panic!("source {source}"));
            let name = file.rsplit('/').next().unwrap();
            let node =
                rs.revision.document(name).and_then(|d| d.pointer(pointer)).unwrap_or_else(|| panic!("{source}"));
            let text = node.get("expr").or(node.get("input")).unwrap_or(node);
            text.as_str().unwrap_or_else(|| panic!("{source}: {node}")).to_string()
        };
        let mut checked = 0;
        for p in &rs.pipelines {
            let stages = p.lets.iter().chain(std::iter::once(&p.base)).chain(&p.modifiers);
            let sources = stages.map(|s| s.source.clone()).chain(p.requires.iter().map(|r| r.source.clone()));
            for source in sources {
                let text = text_at(&source);
                assert!(
                    tested.contains(&text),
                    "{} {source}: '{text}' is not evaluated by the differential test",
                    rs.label()
                );
                checked += 1;
            }
        }
        let difficulty = rs.revision.document("pipelines.json").and_then(|d| d.pointer("/resolution/difficulty"));
        if let Some(d) = difficulty.and_then(|d| d.as_str()) {
            assert!(tested.contains(&d.to_string()), "{}: the difficulty '{d}' is not evaluated", rs.label());
        }
        assert!(checked > 40, "{}: only {checked} stages", rs.label());
    }
}
