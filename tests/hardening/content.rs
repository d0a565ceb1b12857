//! Content that no designer would write on purpose, and what every command says about it
//! (issue 49): expressions too big or too deep to parse safely, documents nested too deep, and
//! names in the match engine's documents that nothing declares — each refused with the file and
//! JSON pointer where it is written, never a crash, and never stopping the check of the rest.

use crate::common;
use common::{content_copy, draft_copy, edit_json, run, stderr, stdout};
use microfut::catalog::{Catalog, ContentTree, Diagnostic, Revision, fingerprint};
use serde_json::{Value, json};
use std::path::Path;
use std::process::Output;

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// The three shapes that overflowed the stack before issue 49, and what refuses each.
fn monsters() -> Vec<(&'static str, String, &'static str)> {
    let sum = (0..200_000).map(|i| format!("x{i}")).collect::<Vec<_>>().join(" + ");
    vec![
        ("20,000 unary minus", format!("{}1", "-".repeat(20_000)), "levels deep"),
        ("100,000 nested parentheses", format!("{}1{}", "(".repeat(100_000), ")".repeat(100_000)), "levels deep"),
        ("a 200,000-term sum", sum, "levels deep"),
        ("5,000 terms of a call", format!("max({})", vec!["(1)"; 5_000].join(", ")), "more than 4096 tokens"),
    ]
}

/// A finished process that was not killed by a signal (a stack overflow aborts: 134).
fn code(o: &Output) -> i32 {
    o.status.code().unwrap_or_else(|| panic!("killed by a signal: {o:?}"))
}

#[test]
fn an_expression_too_deep_or_too_long_is_refused_where_it_is_written_and_the_rest_is_validated() {
    for (what, text, says) in monsters() {
        let (_tmp, content) = content_copy();
        let draft = draft_copy(&content, "0.6.21", "0.6.99");
        edit_json(&draft.join("derived.json"), |d| d["derived"][0]["base"]["expr"] = json!(text));
        let o = run(&["validate", "--content", s(&content)]);
        let out = stdout(&o);
        assert_eq!(code(&o), 1, "{what}: {out}{}", stderr(&o));
        let line = out
            .lines()
            .find(|l| l.contains("microfut/0.6.99/derived.json#/derived/0/base/expr"))
            .unwrap_or_else(|| panic!("{what}: the expression is not named: {out}"));
        assert!(line.contains(says), "{what}: {line}");
        assert!(line.len() < 400, "{what}: the message quotes the whole expression: {} bytes", line.len());
        // Every other revision was still checked.
        for other in ["microfut 0.6.20", "microfut 0.5.0", "effects 1.0.0", "space 1.0.0", "trilha 1.0.0"] {
            assert!(
                out.lines().any(|l| l.contains(other) && l.ends_with("ok")),
                "{what}: {other} not validated: {out}"
            );
        }
        assert!(out.lines().any(|l| l.contains("microfut 0.6.99") && l.ends_with("1 problem(s)")), "{what}: {out}");

        let o = run(&[
            "match",
            "--content",
            s(&content),
            "--revision",
            "0.6.99",
            "--home",
            "esporte_clube_mandacaru",
            "--away",
            "uniao_pedra_branca",
            "--seed",
            "1",
        ]);
        assert_eq!(code(&o), 2, "{what}: {}", stderr(&o));
        assert!(stderr(&o).contains("microfut/0.6.99/derived.json#/derived/0/base/expr"), "{what}: {}", stderr(&o));
        assert!(stderr(&o).contains(says), "{what}: {}", stderr(&o));
    }
}

/// Every ruleset whose content holds expressions goes through the same bound: a domain bound of
/// a parameter, an effects formula, a Space field formula.
#[test]
fn every_ruleset_with_expressions_bounds_them() {
    let deep = format!("{}1{}", "(".repeat(100_000), ")".repeat(100_000));
    let (_tmp, content) = content_copy();
    // Effects: a draft copy of 1.0.0 whose armor formula is the monster.
    let effects = content.join("effects/1.9.0");
    common::copy_dir(&content.join("effects/1.0.0"), &effects);
    edit_json(&effects.join("manifest.json"), |m| {
        m["version"] = json!("1.9.0");
        m["status"] = json!("draft");
    });
    edit_json(&effects.join("formulas.json"), |d| d["formulas"][0]["expr"] = json!(deep));
    // Space: a draft whose field formula is.
    let space = content.join("space/1.9.0");
    common::copy_dir(&content.join("space/1.0.0"), &space);
    edit_json(&space.join("manifest.json"), |m| {
        m["version"] = json!("1.9.0");
        m["status"] = json!("draft");
    });
    // (Its schema allows 200 characters: 95 levels fit.)
    edit_json(&space.join("game.json"), |d| {
        d["board"]["white_rows"]["to"] = json!(format!("{}n{}", "(".repeat(95), ")".repeat(95)))
    });
    // A value too long for its schema is quoted in part, not whole (another draft: a schema
    // problem stops the meaning check of its revision).
    let long = content.join("space/1.8.0");
    common::copy_dir(&content.join("space/1.0.0"), &long);
    edit_json(&long.join("manifest.json"), |m| {
        m["version"] = json!("1.8.0");
        m["status"] = json!("draft");
    });
    edit_json(&long.join("game.json"), |d| d["board"]["black_rows"]["to"] = json!(deep));
    // Microfut: a parameter's domain bound.
    let draft = draft_copy(&content, "0.6.21", "0.6.99");
    let mut at = 0;
    edit_json(&draft.join("params.json"), |d| {
        at = d["params"].as_array().unwrap().iter().position(|p| p["domain"]["max"].is_number()).unwrap();
        d["params"][at]["domain"]["max"] = json!(deep);
    });
    let o = run(&["validate", "--content", s(&content)]);
    let out = stdout(&o);
    assert_eq!(code(&o), 1, "{out}{}", stderr(&o));
    for needle in [
        "effects/1.9.0/formulas.json#/formulas/0/expr".to_string(),
        "space/1.9.0/game.json#/board/white_rows/to".to_string(),
        format!("microfut/0.6.99/params.json#/params/{at}/domain/max"),
    ] {
        let line = out.lines().find(|l| l.contains(&needle)).unwrap_or_else(|| panic!("{needle} not named: {out}"));
        assert!(line.contains("levels deep"), "{line}");
    }
    let line = out.lines().find(|l| l.contains("space/1.8.0/game.json#/board/black_rows/to")).unwrap();
    assert!(line.contains("longer than 200 characters") && line.len() < 500, "{} bytes: {line:.300}", line.len());
}

/// A document nested 100,000 arrays deep is refused by the JSON reader with its line and
/// column (serde_json stops at 128 levels), not a crash; the other revisions are checked.
#[test]
fn a_document_nested_too_deep_is_refused_with_its_place() {
    let (_tmp, content) = content_copy();
    let draft = draft_copy(&content, "0.6.21", "0.6.99");
    let npc = draft.join("npc.json");
    let text = std::fs::read_to_string(&npc).unwrap();
    let deep = format!("{}{}", "[".repeat(100_000), "]".repeat(100_000));
    let text = text.replacen('{', &format!("{{\"deep\": {deep},"), 1);
    std::fs::write(&npc, text).unwrap();
    let o = run(&["validate", "--content", s(&content)]);
    let out = stdout(&o);
    assert_eq!(code(&o), 1, "{out}{}", stderr(&o));
    assert!(
        out.lines()
            .any(|l| l.contains("microfut/0.6.99/npc.json") && l.contains("recursion limit") && l.contains("line")),
        "{out}"
    );
    assert!(out.lines().any(|l| l.contains("microfut 0.6.20") && l.ends_with("ok")), "{out}");
}

fn revision(version: &str) -> Revision {
    // The repository's folder: drafts are not embedded in the binary.
    let content = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("content");
    let catalog = Catalog::load(&ContentTree::from_dir(&content).unwrap());
    catalog.revision("microfut", Some(version)).unwrap().clone()
}

fn edited(rev: &Revision, doc: &str, edit: impl FnOnce(&mut Value)) -> Revision {
    let mut r = rev.clone();
    edit(r.documents.get_mut(doc).unwrap());
    r.fingerprint = fingerprint(&r.documents);
    r
}

/// Every pipeline, table and variable the NPC and set-piece documents name, renamed to a name
/// nothing declares: refused in that document at that key — it was blamed on
/// `pipelines.json#/pipelines` (15 names of 0.6.8, 17 of 0.6.21), where such names are
/// declared, as if the engine itself lacked them.
#[test]
fn a_name_the_npc_or_set_pieces_give_is_refused_where_it_is_written() {
    let rev = revision("0.6.21");
    let references = [
        ("npc.json", "/maps/opportunity"),
        ("npc.json", "/maps/danger"),
        ("npc.json", "/adaptation/risk_tolerance"),
        ("npc.json", "/adaptation/security"),
        ("npc.json", "/adaptation/verticality"),
        ("set_pieces.json", "/penalty/shot"),
        ("set_pieces.json", "/penalty/save"),
        ("set_pieces.json", "/corner/delivery"),
        ("set_pieces.json", "/free_kick/shot"),
        ("set_pieces.json", "/free_kick/delivery"),
        ("set_pieces.json", "/free_kick/wall"),
        ("set_pieces.json", "/throw_in/pipeline"),
        ("set_pieces.json", "/goal_kick/pipeline"),
        ("set_pieces.json", "/takers/penalty/rank"),
        ("set_pieces.json", "/takers/corner/rank"),
        ("set_pieces.json", "/takers/free_kick/rank"),
        ("set_pieces.json", "/aim_variable"),
    ];
    let mut all = rev.clone();
    for (doc, pointer) in references {
        let original = rev.documents[doc].pointer(pointer).and_then(Value::as_str).unwrap().to_string();
        let m = edited(&rev, doc, |d| *d.pointer_mut(pointer).unwrap() = json!("zz_unknown"));
        let problems: Vec<Diagnostic> = microfut::cli::revision_check(&m);
        let file = format!("microfut/0.6.21/{doc}");
        assert!(
            problems.iter().any(|p| p.file == file && p.pointer == pointer && p.message.contains("'zz_unknown'")),
            "{doc}#{pointer}: {problems:?}"
        );
        assert!(problems.iter().all(|p| !p.file.ends_with("pipelines.json")), "{doc}#{pointer}: {problems:?}");
        // A near miss gets the name it was meant to be.
        let typo = edited(&rev, doc, |d| *d.pointer_mut(pointer).unwrap() = json!(format!("{original}x")));
        let problems = microfut::cli::revision_check(&typo);
        assert!(
            problems.iter().any(|p| p.pointer == pointer && p.message.contains(&format!("did you mean '{original}'"))),
            "{doc}#{pointer}: {problems:?}"
        );
        all = edited(&all, doc, |d| *d.pointer_mut(pointer).unwrap() = json!("zz_unknown"));
    }
    // All of them at once: each named, none lost behind the first.
    let problems = microfut::cli::revision_check(&all);
    for (doc, pointer) in references {
        let file = format!("microfut/0.6.21/{doc}");
        assert!(problems.iter().any(|p| p.file == file && p.pointer == pointer), "{doc}#{pointer}: {problems:?}");
    }
}

/// A key a document does not have is named once, at the key (it was `…/zz_extra/zz_extra`).
#[test]
fn an_unknown_key_in_an_engine_document_is_named_once() {
    let rev = revision("0.6.21");
    for (doc, at) in [("set_pieces.json", "/zones/0"), ("npc.json", "/phases/1"), ("formations.json", "/substitutions")]
    {
        let m = edited(&rev, doc, |d| {
            d.pointer_mut(at).unwrap().as_object_mut().unwrap().insert("zz_extra".into(), json!(1));
        });
        let problems = microfut::cli::revision_check(&m);
        let pointer = format!("{at}/zz_extra");
        assert!(problems.iter().any(|p| p.pointer == pointer), "{doc}: {problems:?}");
        assert!(problems.iter().all(|p| !p.pointer.contains("zz_extra/zz_extra")), "{doc}: {problems:?}");
    }
}
