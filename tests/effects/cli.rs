//! `microfut effects`: seed 002's worked example on the command line, and bad input refused with
//! exit 2 and a message naming what is wrong.

use std::process::{Command, Output};

fn run(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_microfut")).args(args).output().expect("microfut runs")
}

const EXAMPLE: [&str; 14] = [
    "effects",
    "resolve",
    "--policy",
    "w1_global_effect_rules",
    "--set",
    "base=10",
    "--set",
    "crit_chance=250",
    "--set",
    "crit_bonus=100",
    "--set",
    "armor=100",
    "--set",
    "block=5",
];

#[test]
fn resolve_prints_the_exact_outcomes_and_every_stage() {
    let o = run(&[&EXAMPLE[..], &["--json"]].concat());
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(
        v["outcomes"],
        serde_json::json!([{"amount": 10, "probability": 0.5}, {"amount": 15, "probability": 0.5}])
    );
    let stages: Vec<&str> = v["stages"].as_array().unwrap().iter().filter_map(|s| s["stage"].as_str()).collect();
    assert!(stages.starts_with(&["base", "critical", "vulnerability", "armor", "block", "rounding"]), "{stages:?}");
    assert_eq!(v["resolutionPolicy"]["policyId"], "w1_global_effect_rules");
    let table = String::from_utf8(run(&EXAMPLE).stdout).unwrap();
    assert!(table.contains("50 %") && table.contains("armor"), "{table}");
}

#[test]
fn bad_input_exits_2_and_names_it() {
    for (args, names) in [
        (&["effects", "resolve", "--policy", "nope", "--set", "base=10"][..], "nope"),
        (&["effects", "resolve", "--policy", "w1_global_effect_rules", "--set", "base=ten"][..], "base"),
        (&["effects", "replay", "/nonexistent/run.json"][..], "/nonexistent/run.json"),
    ] {
        let o = run(args);
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
        assert!(err.contains(names), "{args:?}: {err}");
        assert!(o.stdout.is_empty(), "{args:?}");
    }
}
