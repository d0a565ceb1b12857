//! The pipeline machinery's general extensions, on a tiny revision built in memory: formulas
//! with constrained parameters, the `set` operation and the `running` value modifiers read.

use microfut::catalog::{Catalog, ContentTree, Origin};
use microfut::ruleset::{Ruleset, compile};
use serde_json::{Value, json};
use std::collections::BTreeMap;

fn labels(en: &str) -> Value {
    json!({"pt-BR": en, "en": en})
}

fn revision(formulas: Value, derived: Value) -> Result<Ruleset, Vec<String>> {
    let mut files: BTreeMap<String, Vec<u8>> = BTreeMap::new();
    let mut put = |name: &str, v: Value| {
        files.insert(format!("toy/1.0.0/{name}"), serde_json::to_vec(&v).unwrap());
    };
    put(
        "manifest.json",
        json!({"$schema": "../../../schemas/manifest.schema.json", "id": "toy", "version": "1.0.0",
               "engine": ">=0.5.0, <0.6.0", "parent": null, "status": "draft", "change_note": "test",
               "label": labels("toy"), "documents": ["formulas.json", "pipelines.json", "vocabulary.json"]}),
    );
    let var = |id: &str| json!({"id": id, "kind": "context", "scale": [null, null], "label": labels(id)});
    put(
        "vocabulary.json",
        json!({"$schema": "../../../schemas/vocabulary.schema.json",
               "variables": [var("amount"), var("target_armor"), var("target_block"), var("tier")]}),
    );
    put("formulas.json", json!({"$schema": "../../../schemas/formulas.schema.json", "formulas": formulas}));
    put("pipelines.json", json!({"$schema": "../../../schemas/pipelines.schema.json", "derived": derived}));
    let mut tree_files = files;
    tree_files.insert(
        "toy/catalog.json".into(),
        serde_json::to_vec(&json!({"$schema": "../../schemas/catalog.schema.json", "ruleset": "toy",
                                    "label": labels("toy"), "published": []}))
        .unwrap(),
    );
    let tree = ContentTree { origin: Origin::Embedded, files: tree_files };
    let catalog = Catalog::load(&tree);
    let rev = catalog.revision("toy", Some("1.0.0")).map_err(|e| vec![e.to_string()])?;
    compile(rev).map_err(|d| d.iter().map(|d| d.to_string()).collect())
}

fn armor_formula(k: f64) -> Value {
    json!([{"id": "ARMOR_LEFT", "label": labels("armor"), "arguments": ["a"],
            "parameters": {"K": {"value": k, "label": labels("K"), "minimumExclusive": 0}},
            "expr": "K / (max(a, 0) + K)"},
           {"id": "SCALE2", "label": labels("two"), "arguments": ["x", "y"], "expr": "x * y + ARMOR_LEFT(x)"}])
}

fn damage() -> Value {
    json!([{"id": "damage", "label": labels("damage"),
    "base": {"label": labels("origin"), "expr": "amount"},
    "modifiers": [
        {"id": "critical", "label": labels("crit"), "op": "mul", "expr": "1 + tier"},
        {"id": "armor", "label": labels("armor"), "op": "mul", "expr": "ARMOR_LEFT(target_armor)"},
        {"id": "block", "label": labels("block"), "expr": "-min(max(target_block, 0), max(running, 0))"},
        {"id": "rounding", "label": labels("round"), "op": "set", "expr": "round(running)"}
    ]}])
}

fn eval(rs: &Ruleset, pipeline: &str, given: &[(&str, f64)]) -> f64 {
    let p = rs.pipeline(pipeline).unwrap();
    let given: Vec<(String, f64)> = given.iter().map(|(k, v)| (k.to_string(), *v)).collect();
    let prepared = rs.prepare(p, &given).unwrap();
    p.resolve(&prepared.inputs).value
}

#[test]
fn a_formula_with_a_parameter_is_called_from_a_pipeline() {
    let rs = revision(armor_formula(100.0), damage()).unwrap();
    let f = rs.formula("ARMOR_LEFT").unwrap();
    assert_eq!(f.call(&[100.0]), 0.5);
    assert_eq!(f.call(&[-30.0]), 1.0, "negative armor counts as none");
    assert_eq!(rs.formula("SCALE2").unwrap().call(&[100.0, 2.0]), 200.5);
    // 10 × 3 × ½ = 15, block 5 → 10; and the rounding is the last word: 10 × 2 × 0.5 − 2.5 → 7.5 → 8.
    assert_eq!(
        eval(&rs, "damage", &[("amount", 10.0), ("tier", 2.0), ("target_armor", 100.0), ("target_block", 5.0)]),
        10.0
    );
    assert_eq!(
        eval(&rs, "damage", &[("amount", 10.0), ("tier", 1.0), ("target_armor", 100.0), ("target_block", 2.5)]),
        8.0
    );
    // Block absorbs at most what is left.
    assert_eq!(
        eval(&rs, "damage", &[("amount", 3.0), ("tier", 0.0), ("target_armor", 0.0), ("target_block", 50.0)]),
        0.0
    );
    let k50 = revision(armor_formula(50.0), damage()).unwrap();
    assert_eq!(
        eval(&k50, "damage", &[("amount", 30.0), ("tier", 0.0), ("target_armor", 100.0), ("target_block", 0.0)]),
        10.0
    );
}

#[test]
fn the_trace_shows_set_and_the_value_each_stage_saw() {
    let rs = revision(armor_formula(100.0), damage()).unwrap();
    let p = rs.pipeline("damage").unwrap();
    let given = [("amount", 10.0), ("tier", 2.0), ("target_armor", 100.0), ("target_block", 4.5)];
    let given: Vec<(String, f64)> = given.iter().map(|(k, v)| (k.to_string(), *v)).collect();
    let prepared = rs.prepare(p, &given).unwrap();
    let mut trace = Vec::new();
    let res = p.resolve_traced(&prepared.inputs, &mut trace);
    let ex = p.explain(&trace, &res);
    let rows: Vec<(String, &str, f64, f64)> =
        ex.contributions.iter().map(|c| (c.stage.clone(), c.op, c.amount, c.running)).collect();
    assert_eq!(
        rows,
        vec![
            ("base".into(), "add", 10.0, 10.0),
            ("critical".into(), "mul", 3.0, 30.0),
            ("armor".into(), "mul", 0.5, 15.0),
            ("block".into(), "add", -4.5, 10.5),
            ("rounding".into(), "set", 11.0, 11.0),
        ]
    );
}

/// `resolve_each` re-evaluates only stages that depend on the swept input; a stage reading
/// `running` depends on every stage before it, so sweeping the tier still moves the block.
#[test]
fn sweeping_an_input_agrees_with_fresh_resolutions_when_stages_read_running() {
    let rs = revision(armor_formula(100.0), damage()).unwrap();
    let p = rs.pipeline("damage").unwrap();
    let given: Vec<(String, f64)> = [("amount", 7.0), ("tier", 0.0), ("target_armor", 35.0), ("target_block", 6.0)]
        .iter()
        .map(|(k, v)| (k.to_string(), *v))
        .collect();
    let mut inputs = rs.prepare(p, &given).unwrap().inputs;
    let slot = rs.var("tier").unwrap();
    let tiers = [0.0, 1.0, 2.0, 3.0, 7.0];
    let mut swept = Vec::new();
    p.resolve_each(&mut inputs, slot, &tiers, |_, r| swept.push(r));
    for (t, r) in tiers.iter().zip(&swept) {
        inputs.set(slot, *t);
        assert_eq!(*r, p.resolve(&inputs), "tier {t}");
    }
    assert_eq!(swept.iter().map(|r| r.value).collect::<Vec<_>>(), vec![0.0, 4.0, 10.0, 15.0, 35.0]);
}

#[test]
fn bad_formulas_and_misplaced_running_are_reported_with_pointers() {
    let mut formulas = armor_formula(0.0);
    formulas.as_array_mut().unwrap().push(json!({"id": "READS_VOCAB", "label": labels("x"), "arguments": ["x"],
                                                  "expr": "x + target_armor"}));
    let mut derived = damage();
    derived.as_array_mut().unwrap().push(json!({"id": "early", "label": labels("early"),
        "base": {"label": labels("b"), "expr": "running"},
        "modifiers": [{"id": "m", "label": labels("m"), "expr": "running + SCALE2(amount)"}]}));
    let Err(errors) = revision(formulas, derived) else { panic!("the revision must be refused") };
    let text = errors.join("\n");
    for expected in [
        "toy/1.0.0/formulas.json#/formulas/0/parameters/K/value: K of formula ARMOR_LEFT is 0, but must be greater than 0 (minimumExclusive: 0)",
        "toy/1.0.0/formulas.json#/formulas/2/expr: 'target_armor' is a vocabulary variable",
        "toy/1.0.0/pipelines.json#/derived/1/base: 'running' (the value before a modifier) is only defined in modifiers",
        "toy/1.0.0/pipelines.json#/derived/1/modifiers/0/expr: SCALE2() takes 2 argument(s), got 1",
    ] {
        assert!(text.contains(expected), "missing «{expected}» in:\n{text}");
    }
}
