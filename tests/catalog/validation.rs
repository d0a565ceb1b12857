//! `microfut validate`: schema and meaning, every problem reported with file and JSON pointer.

use crate::common;
use common::*;
use serde_json::json;
use std::fs;

#[test]
fn repository_content_is_valid() {
    let o = run(&["validate", "--content", concat!(env!("CARGO_MANIFEST_DIR"), "/content")]);
    assert!(o.status.success(), "{}{}", stdout(&o), stderr(&o));
    assert!(stdout(&o).contains("all content valid"));
    let embedded = run(&["validate"]);
    assert!(embedded.status.success());
}

/// Breaks a copy of 0.5.0 in several ways at once; validate must report every one.
#[test]
fn reports_all_meaning_errors_with_file_and_pointer() {
    let (_tmp, content) = content_copy();
    let rev = content.join("microfut/0.5.0");
    // Edit a draft copy so fingerprint checks of the published revision do not mask meaning errors.
    let draft = content.join("microfut/0.9.0");
    copy_dir(&rev, &draft);
    edit_json(&draft.join("manifest.json"), |m| {
        m["version"] = json!("0.9.0");
        m["status"] = json!("draft");
        m["parent"] = json!("0.5.0");
    });
    edit_json(&draft.join("modifiers.json"), |m| {
        m["modifiers"][1]["expr"] = json!("max(pressure_floor, pressure_by_distance(nearest_oponent))");
    });
    edit_json(&draft.join("tables.json"), |t| {
        // gap: (1.5, 3] becomes (2, 3]
        t["tables"][0]["bins"][1]["range"] = json!("(2, 3]");
        // overlap: stamina technique [10, 25) becomes [5, 25)
        t["tables"][3]["bins"][1]["range"] = json!("[5, 25)");
        // value outside the declared scale
        t["tables"][4]["bins"][0]["value"] = json!(9);
    });
    edit_json(&draft.join("pipelines.json"), |p| {
        p["pipelines"][0]["modifiers"][0] =
            json!({"id": "mod_x", "label": {"pt-BR": "x", "en": "x"}, "table": "no_such_table", "input": "dx"});
    });
    edit_json(&draft.join("derived.json"), |d| {
        // speed now reads r_normal, which reads speed: a cycle.
        d["derived"][1]["base"]["expr"] = json!("round(0.45 * dx + 0.55 * res_practical) + 0 * r_normal");
    });
    let o = run(&["validate", "--content", content.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1), "{}", stdout(&o));
    let out = stdout(&o);
    let expect = [
        "microfut/0.9.0/modifiers.json#/modifiers/1/expr: (in pipeline 'control') unknown variable 'nearest_oponent' (did you mean 'nearest_opponent'?)",
        "microfut/0.9.0/tables.json#/tables/0/bins/1: gap between [0, 1.5] and (2, 3]",
        "microfut/0.9.0/tables.json#/tables/3/bins/1: bin [5, 25) overlaps (-inf, 10)",
        "microfut/0.9.0/tables.json#/tables/4/bins/0/value: value 9 is outside the table's declared scale [-4, 1]",
        "microfut/0.9.0/pipelines.json#/pipelines/0/modifiers/0/table: stage names missing table 'no_such_table'",
        "cycle between derived values:",
    ];
    for e in expect {
        assert!(out.contains(e), "missing «{e}» in:\n{out}");
    }
    assert!(out.contains("microfut 0.5.0") && out.contains("ok"), "the intact revision still validates");
}

#[test]
fn schema_violations_are_reported_with_pointers() {
    let (_tmp, content) = content_copy();
    let draft = draft_copy(&content, "0.5.0", "0.9.0");
    edit_json(&draft.join("params.json"), |p| {
        p["params"][0]["value"] = json!("one hundred and five");
    });
    edit_json(&draft.join("vocabulary.json"), |v| {
        v["variables"][0]["colour"] = json!("red");
    });
    let o = run(&["validate", "--content", content.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1));
    let out = stdout(&o);
    assert!(out.contains("microfut/0.9.0/params.json#/params/0/value: schema:"), "{out}");
    assert!(out.contains("microfut/0.9.0/vocabulary.json#/variables/0/colour: schema:"), "{out}");
}

#[test]
fn malformed_json_is_named_and_a_command_on_it_is_refused() {
    let (_tmp, content) = content_copy();
    let draft = draft_copy(&content, "0.5.0", "0.9.0");
    fs::write(draft.join("tables.json"), "{ \"tables\": [ ").unwrap();
    let o = run(&["validate", "--content", content.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stdout(&o).contains("microfut/0.9.0/tables.json: malformed JSON at line 1"), "{}", stdout(&o));
    assert!(!stdout(&o).contains("not in the folder"), "a malformed document is reported once: {}", stdout(&o));
    let r = run(&["resolve", "pass", "--revision", "0.9.0", "--content", content.to_str().unwrap()]);
    assert_eq!(r.status.code(), Some(2));
    assert!(stderr(&r).contains("tables.json: malformed JSON"), "{}", stderr(&r));
}

#[test]
fn a_revision_for_another_engine_is_refused_naming_both_versions() {
    let (_tmp, content) = content_copy();
    let draft = draft_copy(&content, "0.5.0", "0.8.0");
    edit_json(&draft.join("manifest.json"), |m| {
        m["engine"] = json!(">=0.8.0, <0.9.0");
    });
    let r = run(&["resolve", "pass", "--revision", "0.8.0", "--content", content.to_str().unwrap()]);
    assert_eq!(r.status.code(), Some(2));
    let err = stderr(&r);
    assert!(
        err.contains("requires engine >=0.8.0, <0.9.0")
            && err.contains(&format!("this is engine {}", env!("CARGO_PKG_VERSION"))),
        "{err}"
    );
}

/// The sample clubs are content the engine plays: validate checks each one under the newest
/// published revision and names the club file and the field.
#[test]
fn a_broken_sample_club_is_reported_with_file_and_pointer() {
    let (_tmp, content) = content_copy();
    edit_json(&content.join("microfut/clubs/uniao_pedra_branca.json"), |c| {
        let shirt = c["squad"][0]["shirt"].clone();
        c["squad"][1]["shirt"] = shirt;
        c["squad"][2]["skills"]["passing"] = json!(19);
    });
    let o = run(&["validate", "--content", content.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1), "{}", stdout(&o));
    let out = stdout(&o);
    assert!(out.contains("error: microfut/clubs/uniao_pedra_branca.json#/squad/1/shirt"), "{out}");
    assert!(out.contains("error: microfut/clubs/uniao_pedra_branca.json#/squad/2/skills/passing"), "{out}");
    assert!(out.contains("sample clubs       4 of 5 valid under microfut 0.6.20"), "{out}");
}

/// The drafts between published revisions leave the tree once published (the tag
/// `history/drafts-0.6` keeps them): a published revision's frozen manifest may name a parent that
/// is no longer there (0.6.5's 0.6.4, 0.6.20's 0.6.19), while a draft still needs its parent.
#[test]
fn a_published_revision_keeps_a_parent_that_left_the_tree() {
    let (_tmp, content) = content_copy();
    let c = content.to_str().unwrap();
    let parent = |v: &str| -> serde_json::Value {
        let m: serde_json::Value =
            serde_json::from_slice(&std::fs::read(content.join(format!("microfut/{v}/manifest.json"))).unwrap())
                .unwrap();
        m["parent"].clone()
    };
    for (published, gone) in [("0.6.5", "0.6.4"), ("0.6.20", "0.6.19")] {
        assert_eq!(parent(published), json!(gone));
        assert!(!content.join("microfut").join(gone).exists(), "{gone} left the tree");
    }
    let o = run(&["validate", "--content", c]);
    assert_eq!(o.status.code(), Some(0), "{}", stdout(&o));
    assert!(!stdout(&o).contains("#/parent"), "{}", stdout(&o));

    edit_json(&content.join("microfut/0.6.21/manifest.json"), |m| m["parent"] = json!("0.6.19"));
    let o = run(&["validate", "--content", c]);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        stdout(&o).contains("microfut/0.6.21/manifest.json#/parent: parent 0.6.19 is not a revision of microfut"),
        "{}",
        stdout(&o)
    );
}

/// A parent that is not an older revision of the ruleset is reported on the manifest; an empty
/// content folder is not "all content valid".
#[test]
fn a_missing_parent_and_an_empty_folder_are_problems() {
    let (_tmp, content) = content_copy();
    let draft = draft_copy(&content, "0.5.2", "0.9.0");
    edit_json(&draft.join("manifest.json"), |m| {
        m["parent"] = json!("0.8.7");
    });
    let o = run(&["validate", "--content", content.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        stdout(&o).contains("microfut/0.9.0/manifest.json#/parent: parent 0.8.7 is not a revision of microfut"),
        "{}",
        stdout(&o)
    );
    let empty = tempfile::tempdir().unwrap();
    let o = run(&["validate", "--content", empty.path().to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stdout(&o).contains("no ruleset found"), "{}", stdout(&o));
}

/// A UTF-8 byte order mark (Windows Notepad writes one) is not an error, and does not change a
/// revision's fingerprint: fingerprints are over parsed JSON.
#[test]
fn a_byte_order_mark_is_ignored() {
    let (_tmp, content) = content_copy();
    let file = content.join("microfut/0.5.2/params.json");
    let mut bytes = b"\xEF\xBB\xBF".to_vec();
    bytes.extend(fs::read(&file).unwrap());
    fs::write(&file, bytes).unwrap();
    let o = run(&["validate", "--content", content.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(0), "{}", stdout(&o));
    let sheet = content.join("bom-sheet.json");
    let mut bytes = b"\xEF\xBB\xBF".to_vec();
    bytes.extend(fs::read(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/sheets/youth.json")).unwrap());
    fs::write(&sheet, bytes).unwrap();
    let o = run(&["sheet", sheet.to_str().unwrap()]);
    assert!(o.status.success(), "{}", stderr(&o));
}

/// One edit, two problems: an unknown variable in a derived value does not hide the cycle that
/// derived value closes.
#[test]
fn a_cycle_is_reported_beside_an_unknown_variable() {
    let (_tmp, content) = content_copy();
    let draft = draft_copy(&content, "0.5.2", "0.9.0");
    edit_json(&draft.join("derived.json"), |d| {
        for p in d["derived"].as_array_mut().unwrap() {
            let base = p["base"]["expr"].as_str().unwrap().to_string();
            match p["output"].as_str() {
                Some("speed") => p["base"]["expr"] = json!(base.replacen("dx", "acceleration", 1)),
                Some("acceleration") => p["base"]["expr"] = json!(base.replacen("dx", "speed + dxx", 1)),
                _ => {}
            }
        }
    });
    let o = run(&["validate", "--content", content.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1));
    let out = stdout(&o);
    assert!(out.contains("unknown variable 'dxx'"), "{out}");
    assert!(out.contains("cycle between derived values: speed → acceleration → speed"), "{out}");
}

/// serde_json keeps the last of two equal keys; content must not mean something its author did
/// not see. A key written twice is refused with its pointer and position, in content and in a club.
#[test]
fn a_key_written_twice_is_refused_by_pointer() {
    let (_tmp, content) = content_copy();
    let draft = draft_copy(&content, "0.5.0", "0.9.0");
    let params = draft.join("params.json");
    let text = fs::read_to_string(&params).unwrap().replacen("\"value\": 105,", "\"value\": 105, \"value\": 100,", 1);
    fs::write(&params, text).unwrap();
    let o = run(&["validate", "--content", content.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        stdout(&o).contains("microfut/0.9.0/params.json: duplicate key: /params/0/value is written twice"),
        "{}",
        stdout(&o)
    );
    let club = content.join("club.json");
    let text = fs::read_to_string(content.join("microfut/clubs/uniao_pedra_branca.json")).unwrap();
    fs::write(&club, text.replacen("{", "{\"id\": \"a\",", 1)).unwrap();
    let o = run(&["club", "validate", club.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2), "{}", stdout(&o));
    assert!(stderr(&o).contains("duplicate key: /id is written twice"), "{}", stderr(&o));
}

/// A schema problem in one manifest field does not hide a problem in another.
#[test]
fn a_manifest_schema_error_does_not_hide_its_other_problems() {
    let (_tmp, content) = content_copy();
    let draft = draft_copy(&content, "0.5.0", "0.9.0");
    edit_json(&draft.join("manifest.json"), |m| {
        m["change_note"] = json!(5);
        m["engine"] = json!(">=banana");
        m["documents"].as_array_mut().unwrap().push(json!("nothing.json"));
    });
    let o = run(&["validate", "--content", content.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1));
    let out = stdout(&o);
    for said in [
        "microfut/0.9.0/manifest.json#/change_note: schema: 5 is not of type \"string\"",
        "microfut/0.9.0/manifest.json#/engine: '>=banana' is not a semver requirement",
        "lists nothing.json, which is not in the folder",
    ] {
        assert!(out.contains(said), "{said}: {out}");
    }
}
