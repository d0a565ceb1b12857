//! Issue 17, items 4-7 and 15, at the command line: content that `validate` calls valid must
//! play, so `validate` refuses — at the JSON pointer where it is written — parameters outside
//! their domains (also through a scenario overlay), dice it cannot count, expressions that can be
//! NaN or infinite, nonsense coordinates and directions; the engine's own checks name their real
//! document; and a value that still turns non-finite at run time is an error naming the pipeline
//! and the stage. Every case edits a draft copied from 0.5.5, the first revision with domains.

use crate::common;
use common::*;
use serde_json::{Value, json};
use std::path::{Path, PathBuf};

const DRAFT: &str = "0.5.9";

/// A content copy with a draft of 0.5.5; `edit` changes its documents.
fn draft_with(edit: impl FnOnce(&Path)) -> (tempfile::TempDir, PathBuf) {
    let (tmp, content) = content_copy();
    let dir = draft_copy(&content, "0.5.5", DRAFT);
    edit_json(&dir.join("manifest.json"), |m| m["parent"] = json!("0.5.5"));
    edit(&dir);
    (tmp, content)
}

fn set_params(dir: &Path, values: &[(&str, Value)]) {
    edit_json(&dir.join("params.json"), |d| {
        for p in d["params"].as_array_mut().unwrap() {
            if let Some((_, v)) = values.iter().find(|(id, _)| p["id"] == json!(id)) {
                p["value"] = v.clone();
            }
        }
    });
}

/// `params.json#/params/N/value` of a parameter of 0.5.5.
fn value_pointer(id: &str) -> String {
    let doc: Value = serde_json::from_slice(&std::fs::read("content/microfut/0.5.5/params.json").unwrap()).unwrap();
    let i = doc["params"].as_array().unwrap().iter().position(|p| p["id"] == json!(id)).unwrap();
    format!("microfut/{DRAFT}/params.json#/params/{i}/value")
}

/// `validate` on the content: exit 1, and the problems it prints (the `error:` lines).
fn problems(content: &Path) -> Vec<String> {
    let o = run(&["validate", "--content", content.to_str().unwrap()]);
    let out = stdout(&o);
    assert!(!stderr(&o).contains("panicked"), "{}", stderr(&o));
    assert_eq!(o.status.code(), Some(1), "validate accepted it:\n{out}");
    out.lines().filter_map(|l| l.strip_prefix("error: ")).map(str::to_string).collect()
}

fn assert_has(problems: &[String], at: &str, words: &str) {
    assert!(
        problems.iter().any(|p| p.starts_with(&format!("{at}: ")) && p.contains(words)),
        "no «{at}: …{words}…» in {problems:#?}"
    );
}

#[test]
fn parameters_outside_their_domains_are_refused_at_their_values() {
    let cases: &[(&str, Value, &str)] = &[
        ("pitch_length", json!(-105), "below its minimum"),
        ("halves", json!(1e9), "above its maximum 4"),
        ("half_minutes", json!(1e12), "above its maximum"),
        ("halves", json!(1.5), "whole"),
        ("xp_attribute_free_level", json!(1e9), "above its maximum"),
        ("stamina_start", json!(-1), "below its minimum"),
        ("keeper_reach", json!(-1), "below its minimum"),
        ("pos_min_x", json!(1e9), "above its maximum"),
        ("goal_center_y", json!(1e9), "above its maximum"),
    ];
    for (id, v, words) in cases {
        let (_tmp, content) = draft_with(|d| set_params(d, &[(id, v.clone())]));
        assert_has(&problems(&content), &value_pointer(id), words);
    }
}

#[test]
fn relations_between_parameters_are_domains_too() {
    let (_tmp, content) =
        draft_with(|d| set_params(d, &[("loose_ball_min", json!(50)), ("pass_misplaced_offset_min", json!(30))]));
    let p = problems(&content);
    assert_has(&p, &value_pointer("loose_ball_min"), "above its maximum loose_ball_max");
    assert_has(&p, &value_pointer("pass_misplaced_offset_min"), "above its maximum pass_misplaced_offset_max");
}

#[test]
fn a_scenario_overlay_outside_a_domain_is_refused_where_the_overlay_writes_it() {
    let (_tmp, content) = draft_with(|d| {
        edit_json(&d.join("scenarios.json"), |s| {
            s["scenarios"][1]["overlay"]["params.json"]["params"]["halves"] = json!({"value": 1e9})
        })
    });
    let p = problems(&content);
    assert_has(
        &p,
        &format!("microfut/{DRAFT}/scenarios.json#/scenarios/1/overlay/params.json/params/halves/value"),
        "'halves' is 1000000000, above its maximum 4",
    );
}

#[test]
fn dice_are_bounded_by_the_schema_and_large_ones_are_counted_quickly() {
    let (_tmp, content) =
        draft_with(|d| edit_json(&d.join("pipelines.json"), |p| p["resolution"]["dice"]["sides"] = json!(100_000)));
    assert_has(
        &problems(&content),
        &format!("microfut/{DRAFT}/pipelines.json#/resolution/dice/sides"),
        "maximum of 100",
    );
    // 3d100 is allowed, and counted exactly (it took minutes by convolution and the duel table).
    let (_tmp, content) =
        draft_with(|d| edit_json(&d.join("pipelines.json"), |p| p["resolution"]["dice"]["sides"] = json!(100)));
    let r = run(&[
        "resolve",
        "pass",
        "--revision",
        DRAFT,
        "--content",
        content.to_str().unwrap(),
        "--json",
        "--set",
        "dx=14",
        "--set",
        "passing=15",
        "--set",
        "control=13",
        "--set",
        "st=11",
        "--set",
        "kicking=12",
        "--set",
        "distance=18",
        "--set",
        "orientation=30",
        "--set",
        "nearest_opponent=4",
    ]);
    assert!(r.status.success(), "{}", stderr(&r));
    let v: Value = serde_json::from_slice(&r.stdout).unwrap();
    assert_eq!(v["revision"], DRAFT);
}

#[test]
fn expressions_that_can_be_non_finite_are_refused_at_their_pointers() {
    for (i, expr) in ["passing / (dx - dx)", "10 ^ 400", "sqrt(-dx)"].into_iter().enumerate() {
        let (_tmp, content) =
            draft_with(|d| edit_json(&d.join("pipelines.json"), |p| p["pipelines"][1]["base"]["expr"] = json!(expr)));
        let p = problems(&content);
        assert_has(&p, &format!("microfut/{DRAFT}/pipelines.json#/pipelines/1/base/expr"), "NaN or infinite");
        assert_eq!(p.len(), 1, "case {i}: {p:#?}");
    }
}

#[test]
fn nonsense_directions_and_coordinates_are_refused() {
    let (_tmp, content) = draft_with(|d| {
        edit_json(&d.join("npc.json"), |n| n["carry"]["directions"][0] = json!(720));
    });
    assert_has(&problems(&content), &format!("microfut/{DRAFT}/npc.json#/carry/directions/0"), "maximum of 180");
    let (_tmp, content) = draft_with(|d| {
        edit_json(&d.join("formations.json"), |f| f["formations"][0]["slots"][1]["x"] = json!(500));
    });
    assert_has(
        &problems(&content),
        &format!("microfut/{DRAFT}/formations.json#/formations/0/slots/1/x"),
        "off the pitch",
    );
}

/// Item 15: engine checks name the document they are about, and a bad resolution clamp is one
/// problem where it is written (not one per pipeline, at a pointer that does not exist).
#[test]
fn engine_content_problems_name_their_document_and_a_bad_clamp_is_reported_once() {
    let (_tmp, content) = draft_with(|d| edit_json(&d.join("formations.json"), |f| f["default"] = json!("9-9-9")));
    let p = problems(&content);
    assert_has(&p, &format!("microfut/{DRAFT}/formations.json#/default"), "'9-9-9'");
    assert!(p.iter().all(|p| !p.contains("manifest.json")), "{p:#?}");
    let (_tmp, content) =
        draft_with(|d| edit_json(&d.join("pipelines.json"), |p| p["resolution"]["clamp"] = json!([10, -10])));
    let p = problems(&content);
    assert_eq!(p, [format!("microfut/{DRAFT}/pipelines.json#/resolution/clamp: clamp minimum above maximum")]);
}

/// At run time, a value that turns non-finite — here an input outside the scale `validate`
/// checked, as a library caller can hand in — is a fault naming the pipeline, the stage and
/// where the expression is written; never a silent value.
#[test]
fn a_non_finite_value_at_run_time_names_the_pipeline_and_the_stage() {
    let catalog = microfut::catalog::Catalog::load(&microfut::catalog::ContentTree::embedded());
    let mut rev = catalog.revision("microfut", Some("0.5.5")).unwrap().clone();
    rev.documents.get_mut("pipelines.json").unwrap()["pipelines"][1]["base"]["expr"] = json!("passing / (dx - 30)");
    let rs = microfut::ruleset::compile(&rev).expect("finite over dx's scale 3..18");
    let pass = rs.pipeline("pass").unwrap();
    let given = sets(&[
        ("dx", 14.0),
        ("passing", 15.0),
        ("control", 13.0),
        ("st", 11.0),
        ("kicking", 12.0),
        ("distance", 18.0),
        ("orientation", 30.0),
        ("nearest_opponent", 4.0),
    ]);
    let mut prepared = rs.prepare(pass, &given).unwrap();
    assert_eq!(pass.fault(&pass.resolve(&prepared.inputs)), None);
    prepared.inputs.set(rs.var("dx").unwrap(), 30.0);
    let r = pass.resolve(&prepared.inputs);
    let fault = pass.fault(&r).expect("a non-finite base is a fault");
    let msg = fault.to_string();
    assert!(
        msg.contains("pipeline 'pass'")
            && msg.contains("stage 'base'")
            && msg.contains("microfut/0.5.5/pipelines.json#/pipelines/1/base/expr"),
        "{msg}"
    );
}
