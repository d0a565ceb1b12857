//! World 1's policy and numbers that are not numbers (issue 49): a formula that leaves its
//! domain, values beyond the policy's declared domains, a policy declared twice, tags and
//! channels nothing declares, and damage over time against Block — each refused with the
//! formula, the binding or the pointer named, or said so, never an `inf` printed with exit 0.

use crate::common;
use common::{content_copy, copy_dir, edit_json, run, stderr, stdout};
use serde_json::{Value, json};
use std::path::{Path, PathBuf};
use std::process::Output;

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// An effects draft `version` copied from `from` in a content folder.
fn effects_draft(content: &Path, from: &str, version: &str) -> PathBuf {
    let dir = content.join("effects").join(version);
    copy_dir(&content.join("effects").join(from), &dir);
    edit_json(&dir.join("manifest.json"), |m| {
        m["version"] = json!(version);
        m["status"] = json!("draft");
    });
    dir
}

fn resolve(content: Option<&Path>, revision: &str, args: &[&str]) -> Output {
    // The repository's folder by default: the draft in progress (1.1.0) is not embedded.
    let repo = Path::new(env!("CARGO_MANIFEST_DIR")).join("content");
    let c = content.unwrap_or(&repo);
    let mut a = vec!["effects", "resolve", "--revision", revision, "--content", s(c)];
    a.extend(args);
    run(&a)
}

/// Exit 2 with every needle on stderr, nothing on stdout.
fn refused(o: &Output, needles: &[&str]) -> String {
    let err = stderr(o);
    assert_eq!(o.status.code(), Some(2), "{err}{}", stdout(o));
    for n in needles {
        assert!(err.contains(n), "expected '{n}' in: {err}");
    }
    assert!(stdout(o).is_empty(), "{}", stdout(o));
    assert_eq!(err.lines().count(), 1, "{err}");
    err
}

fn ok(o: &Output) -> String {
    assert!(o.status.success(), "{}", stderr(o));
    stdout(o)
}

/// The draft: the armor formula without its `max`, `K / (armor + K)`, gives an
/// infinity at armor −K. On a revision that declares the formula a share (1.1.0: result 0 to
/// 1, armor −1000 to 1000) `validate` refuses it, naming the formula; on one that declares
/// nothing (a copy of 1.0.0) sampling misses the singularity, and `resolve` refuses the
/// infinity, naming the stage, the formula and the inputs — it printed `inf`, exit 0.
#[test]
fn a_formula_that_leaves_its_domain_is_refused_naming_the_formula_and_inputs() {
    let (_tmp, content) = content_copy();
    for (from, version) in [("1.1.0", "1.9.0"), ("1.0.0", "1.8.0")] {
        let draft = effects_draft(&content, from, version);
        edit_json(&draft.join("formulas.json"), |d| d["formulas"][0]["expr"] = json!("K / (armor + K)"));
    }
    let o = run(&["validate", "--content", s(&content)]);
    let out = stdout(&o);
    assert_eq!(o.status.code(), Some(1), "{out}");
    let line = out
        .lines()
        .find(|l| l.contains("effects/1.9.0/pipelines.json#/derived/0/modifiers/2/expr"))
        .unwrap_or_else(|| panic!("{out}"));
    for needle in
        ["target_armor = -1000", "W1_ARMOR_REMAINING_AMOUNT(armor) = K / (armor + K)", "result declared 0 to 1"]
    {
        assert!(line.contains(needle), "{needle}: {line}");
    }
    assert!(out.lines().any(|l| l.contains("effects 1.8.0") && l.ends_with("ok")), "{out}");

    for json in [false, true] {
        let mut args = vec!["--set", "base=10", "--set", "armor=-100"];
        if json {
            args.push("--json");
        }
        let o = resolve(Some(&content), "1.8.0", &args);
        refused(
            &o,
            &[
                "pipeline 'w1_direct_damage': stage 'armor' (effects/1.8.0/pipelines.json#/derived/0/modifiers/2/expr)",
                "is not a finite number at",
                "target_armor = -100",
                "formula W1_ARMOR_REMAINING_AMOUNT(armor) = K / (armor + K) with K = 100",
            ],
        );
    }
    // 1.1.0 as it is: armor below 0 counts as 0, as seed 002 says.
    let v: Value =
        serde_json::from_str(&ok(&resolve(None, "1.1.0", &["--set", "base=10", "--set", "armor=-100", "--json"])))
            .unwrap();
    assert_eq!(v["outcomes"], json!([{"amount": 10, "probability": 1}]));
}

/// Inputs beyond the domains a revision declares are refused, naming the binding and the scale
/// (1.1.0 declares them); a revision that declares none (1.0.0) still refuses what no number
/// can be: an infinity, more tiers than the engine counts.
#[test]
fn values_beyond_the_policys_domain_are_refused() {
    let base = ["--set", "base=10"];
    let with = |extra: &[&'static str]| -> Vec<&'static str> { base.iter().chain(extra).copied().collect() };
    refused(
        &resolve(None, "1.1.0", &["--set", "base=1e308"]),
        &[
            "effect_amount = 1e308 is outside the policy's domain, 0 to 1000",
            "effects/1.1.0/vocabulary.json#/variables/0/scale",
        ],
    );
    refused(
        &resolve(None, "1.1.0", &with(&["--set", "crit_bonus=1e308", "--set", "crit_chance=300"])),
        &[
            "source_crit_bonus = 1e306 is outside the policy's domain, 0 to 10",
            "binding w1_critical_bonus",
            "crit_bonus",
        ],
    );
    refused(
        &resolve(None, "1.1.0", &with(&["--set", "crit_chance=1e12"])),
        &["source_crit_chance = 1e12 is outside the policy's domain, -1000 to 1000", "binding w1_critical_chance"],
    );
    refused(
        &resolve(None, "1.1.0", &with(&["--set", "armor=-2000"])),
        &["target_armor = -2000 is outside the policy's domain, -1000 to 1000", "binding w1_armor"],
    );
    // The edges of a domain are in it.
    ok(&resolve(
        None,
        "1.1.0",
        &with(&["--set", "crit_chance=1000", "--set", "crit_bonus=1000", "--set", "armor=1000"]),
    ));

    // 1.0.0 declares no domain: what is finite resolves (and prints as a number), what is not
    // is refused.
    refused(
        &resolve(None, "1.0.0", &with(&["--set", "crit_chance=1e12"])),
        &["formula W1_CRITICAL_TIERS gives 1e10 tiers for a chance of 1e12, more than 4294967294"],
    );
    refused(
        &resolve(None, "1.0.0", &["--set", "base=1e308", "--set", "crit_bonus=1e308", "--set", "crit_chance=300"]),
        &["stage 'critical'", "is not a finite number at effect_amount = 1e308, crit_tier = 3"],
    );
    let out = ok(&resolve(None, "1.0.0", &with(&["--set", "crit_bonus=1e308", "--set", "crit_chance=300"])));
    assert!(out.contains("bonus 1e308 % per tier"), "{out}");
    assert!(!out.contains("9223372036854775807") && !out.contains("inf"), "{out}");
}

/// Two policies of one id: a mode selects a policy by id, so `validate` refuses the second —
/// it validated, and `effects resolve` then asked to choose between two identical names.
#[test]
fn a_policy_declared_twice_is_refused_where_it_is_declared_again() {
    let (_tmp, content) = content_copy();
    let draft = effects_draft(&content, "1.1.0", "1.9.0");
    edit_json(&draft.join("policies.json"), |d| {
        let p = d["policies"][0].clone();
        d["policies"].as_array_mut().unwrap().push(p);
    });
    let o = run(&["validate", "--content", s(&content)]);
    let out = stdout(&o);
    assert_eq!(o.status.code(), Some(1), "{out}");
    assert!(
        out.lines().any(|l| l.contains("effects/1.9.0/policies.json#/policies/1/id")
            && l.contains("policy 'w1_global_effect_rules' declared twice")),
        "{out}"
    );
}

/// A binding's default is read whenever an actor lacks the attribute: outside its input's
/// declared scale it is refused where it is written.
#[test]
fn a_binding_default_outside_its_domain_is_refused() {
    let (_tmp, content) = content_copy();
    let draft = effects_draft(&content, "1.1.0", "1.9.0");
    edit_json(&draft.join("policies.json"), |d| d["policies"][0]["bindings"][2]["default"] = json!(5000));
    let o = run(&["validate", "--content", s(&content)]);
    let out = stdout(&o);
    assert_eq!(o.status.code(), Some(1), "{out}");
    assert!(
        out.lines().any(|l| l.contains("effects/1.9.0/policies.json#/policies/0/bindings/2/default")
            && l.contains("outside the scale of 'source_crit_bonus'")),
        "{out}"
    );
}

/// A tag or a channel the revision writes nowhere is a typo: refused, with the closest name.
/// One it writes but no rule selects resolves to the authored amount — and says so.
#[test]
fn a_tag_or_channel_nothing_declares_is_refused_and_an_unselected_effect_is_said_so() {
    for revision in ["1.0.0", "1.1.0"] {
        refused(
            &resolve(None, revision, &["--set", "base=10", "--tags", "nope.tag"]),
            &["--tags nope.tag", "declares no tag 'nope.tag'", "effect.damage"],
        );
        refused(
            &resolve(None, revision, &["--set", "base=10", "--tags", "effect.damage,effect.damgae"]),
            &["did you mean 'effect.damage'?"],
        );
        refused(
            &resolve(None, revision, &["--set", "base=10", "--channel", "w1_dott"]),
            &["--channel w1_dott", "declares no channel 'w1_dott' (did you mean 'w1_dot'?)"],
        );
        // Declared, but no rule selects a heal paid as a cost.
        let args = ["--set", "base=10", "--tags", "effect.heal", "--channel", "cost"];
        let out = ok(&resolve(None, revision, &args));
        assert!(
            out.contains("warning: no rule of policy w1_global_effect_rules selects an effect tagged [effect.heal] on channel cost: its authored amount 10 applies unchanged"),
            "{out}"
        );
        let v: Value = serde_json::from_str(&ok(&resolve(None, revision, &[&args[..], &["--json"]].concat()))).unwrap();
        assert_eq!(v["resolutionPolicy"]["rule"], Value::Null);
        assert!(v["warnings"][0].as_str().unwrap().contains("no rule of policy w1_global_effect_rules"), "{v}");
        // A selected effect has no warning.
        let v: Value = serde_json::from_str(&ok(&resolve(None, revision, &["--set", "base=10", "--json"]))).unwrap();
        assert_eq!(v["warnings"], json!([]));
        let pt = ok(&resolve(None, revision, &[&args[..], &["--lang", "pt-BR"]].concat()));
        assert!(pt.contains("aviso: nenhuma regra da política"), "{pt}");
    }
}

/// Seed 002 takes only the automatic critical away from damage over time, and names Block in
/// the order of damage: from 1.1.0 block absorbs it (and is consumed), piercing and an override
/// `block: false` skip it. 1.0.0, published without the stage, keeps resolving as it did.
#[test]
fn damage_over_time_meets_block_from_1_1_0_and_not_before() {
    let dot = ["--set", "base=10", "--set", "block=3", "--channel", "w1_dot", "--tags", "effect.damage,effect.dot"];
    let amount = |revision: &str, extra: &[&str]| -> (Value, Value) {
        let v: Value =
            serde_json::from_str(&ok(&resolve(None, revision, &[&dot[..], extra, &["--json"]].concat()))).unwrap();
        (v["outcomes"][0]["amount"].clone(), v["settlements"][0]["branches"][0]["consumed"].clone())
    };
    assert_eq!(amount("1.0.0", &[]), (json!(10), json!(0)));
    assert_eq!(amount("1.1.0", &[]), (json!(7), json!(3)));
    let v: Value = serde_json::from_str(&ok(&resolve(None, "1.1.0", &[&dot[..], &["--json"]].concat()))).unwrap();
    assert_eq!(v["resolutionPolicy"]["rule"], json!("w1_damage_over_time"));
    assert_eq!(v["critical"], Value::Null, "no automatic critical on damage over time");
    let piercing = ["--set", "base=10", "--set", "block=3", "--channel", "w1_dot", "--tags", "effect.damage,piercing"];
    let v: Value = serde_json::from_str(&ok(&resolve(None, "1.1.0", &[&piercing[..], &["--json"]].concat()))).unwrap();
    assert_eq!(v["outcomes"][0]["amount"], json!(10));
    assert_eq!(amount("1.1.0", &["--override", "block=false"]).0, json!(10));
    // 1.0.0's damage over time has no block to bypass: the override is refused, as before.
    refused(&resolve(None, "1.0.0", &[&dot[..], &["--override", "block=false"]].concat()), &["blockBypassTag"]);
    // The decision is written in the policy's content.
    let policies: Value = serde_json::from_slice(
        &std::fs::read(Path::new(env!("CARGO_MANIFEST_DIR")).join("content/effects/1.1.0/policies.json")).unwrap(),
    )
    .unwrap();
    let rule = &policies["policies"][0]["rules"][1];
    assert_eq!(rule["id"], json!("w1_damage_over_time"));
    assert_eq!(rule["blockBypassTag"], json!("piercing"));
    assert!(rule["description"].as_str().unwrap().contains("block"), "{rule}");
}
