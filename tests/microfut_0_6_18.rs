//! Microfut 0.6.18 (issue 11), a draft from 0.6.17 for engine 0.5.11: a side chooses its shots
//! as a typical striker would take them (`npc.shot.expected_shooter`), so better finishers score
//! more of their shots without taking more of them; the modest budget preset moves to 150,000 XP
//! and the established one to 230,000, the packed box's slope to 0.3 and the share of won duels
//! called as fouls to 0.65 (docs/calibration-0.6.18.md). The tests read the repository's content
//! folder (or `MICROFUT_TEST_CONTENT`, so a sabotaged copy can show an assertion failing).

mod common;
use common::{budgets_moved, only_named_changes, params_moved, test_content_dir};
use serde_json::Value;

fn read(rev: &str, file: &str) -> Value {
    let p = test_content_dir().join("microfut").join(rev).join(file);
    serde_json::from_str(&std::fs::read_to_string(&p).unwrap()).unwrap_or_else(|e| panic!("{p:?}: {e}"))
}

/// Only what the change note names moves: the expected striker, two budgets, two parameters'
/// values and the golden match; every other document is 0.6.17's.
#[test]
fn only_the_expected_striker_two_budgets_and_two_values_change() {
    only_named_changes("0.6.17", "0.6.18", ">=0.5.11, <0.6.0", |file, old, new| match file {
        "npc.json" => {
            assert!(old["shot"].get("expected_shooter").is_none());
            assert_eq!(
                new["shot"]["expected_shooter"],
                serde_json::json!({"dx": 13, "finishing": 14, "control": 14, "heading": 13, "jumping": 12, "st": 12})
            );
            new["shot"].as_object_mut().unwrap().remove("expected_shooter");
        }
        "club_rules.json" => budgets_moved(
            old,
            new,
            [("modest", 180_000), ("established", 235_000), ("elite", 360_000)],
            [("modest", 150_000), ("established", 230_000), ("elite", 360_000)],
        ),
        "params.json" => params_moved(old, new, &[("outplayed_k", 0.25, 0.3), ("tackle_foul_share", 0.68, 0.65)]),
        _ => {}
    });
}

/// The expected striker is an ordinary one: every value inside the range the generated squads'
/// attackers span, so the price is neither a star's nor a defender's.
#[test]
fn the_expected_striker_is_an_ordinary_attacker() {
    let npc = read("0.6.18", "npc.json");
    for (name, v) in npc["shot"]["expected_shooter"].as_object().unwrap() {
        let v = v.as_f64().unwrap();
        assert!((11.0..=15.0).contains(&v), "{name} {v}: not an ordinary attacker's");
    }
}
