//! Microfut 0.6.19 (issue 11), a draft from 0.6.18 for the same engine: fouls in the box become
//! penalties from a margin of 10 (was 12) and fewer won duels are called fouls (0.63); the home
//! crowd presses harder (0.75) but a calm head relieves more of it (0.06 a point of willpower
//! above 10); a side's shooting bias is 1.04; and a keeper's save leans on goalkeeping — his
//! execution is (DX + 2 × goalkeeping) / 3 and a level counts 0.26 from the anchor (was 0.35 of
//! (DX + goalkeeping) / 2), so a level of goalkeeping is worth what it was while his dexterity and
//! reading count for less (docs/calibration-0.6.19.md). The tests read the repository's content
//! folder (or `MICROFUT_TEST_CONTENT`, so a sabotaged copy can show an assertion failing).

mod common;
use common::{only_named_changes, params_moved, save_base};
use serde_json::{Value, json};

/// The parameters 0.6.19 moves, as (id, 0.6.18's value, 0.6.19's).
const MOVED: [(&str, f64, f64); 5] = [
    ("foul_box_offset", 12.0, 10.0),
    ("tackle_foul_share", 0.65, 0.63),
    ("crowd_pressure", 0.6, 0.75),
    ("crowd_willpower_relief", 0.05, 0.06),
    ("skill_weight_save", 0.35, 0.26),
];

const EXEC_WAS: &str = "round((dx + goalkeeping) / 2)";
const EXEC_NOW: &str = "round((dx + 2 * goalkeeping) / 3)";

/// Only what the change note names moves: five parameters' values, the shooting bias, the
/// keeper's execution in the three pipelines that read it, and the golden match.
#[test]
fn only_five_values_the_shooting_bias_and_the_keepers_execution_change() {
    only_named_changes("0.6.18", "0.6.19", ">=0.5.11, <0.6.0", |file, old, new| match file {
        "params.json" => params_moved(old, new, &MOVED),
        "npc.json" => {
            assert_eq!((&old["bias"]["shoot"], &new["bias"]["shoot"]), (&json!(1.02), &json!(1.04)));
            new["bias"]["shoot"] = json!(1.02);
        }
        "pipelines.json" => {
            let mut changed = Vec::new();
            for p in new["pipelines"].as_array_mut().unwrap() {
                let id = p["id"].as_str().unwrap().to_string();
                // `get_mut`, not `p["let"]`: indexing a pipeline without lets would add one.
                for l in p.get_mut("let").and_then(Value::as_array_mut).into_iter().flatten() {
                    if l["id"] == "exec_gk" {
                        assert_eq!(l["expr"], EXEC_NOW, "{id}");
                        l["expr"] = json!(EXEC_WAS);
                        changed.push(id.clone());
                    }
                }
            }
            assert_eq!(changed, ["save", "claim", "penalty_save"]);
        }
        _ => {}
    });
}

/// Six levels of goalkeeping are worth what they were (0.26 × ⅔ ≈ 0.35 × ½ of a level, within a
/// hundredth of a point), so a much worse keeper still costs his side; six levels of DX, which
/// 0.6.18 counted as much as goalkeeping, are worth half as much; and every keeper here stands
/// closer to the anchor than he did — the compression that lowers the elite keepers' saves.
#[test]
fn a_level_of_goalkeeping_is_worth_what_it_was_and_dexterity_less() {
    let gk_gap = |r: &str| save_base(r, 14, 16, 15) - save_base(r, 14, 10, 15);
    let dx_gap = |r: &str| save_base(r, 17, 15, 15) - save_base(r, 11, 15, 15);
    assert!((gk_gap("0.6.18") - 0.35 * 0.65 * 3.0).abs() < 1e-9, "{}", gk_gap("0.6.18"));
    assert!((gk_gap("0.6.19") - 0.26 * 0.65 * 4.0).abs() < 1e-9, "{}", gk_gap("0.6.19"));
    assert!((gk_gap("0.6.19") - gk_gap("0.6.18")).abs() < 0.01);
    assert!(dx_gap("0.6.19") < 0.55 * dx_gap("0.6.18"), "{} v {}", dx_gap("0.6.19"), dx_gap("0.6.18"));
    for (dx, gk) in [(14, 16), (17, 15), (15, 18), (12, 13)] {
        let (was, now) = (save_base("0.6.18", dx, gk, 15), save_base("0.6.19", dx, gk, 15));
        assert!((now - 13.5).abs() <= (was - 13.5).abs() + 1e-9, "dx {dx} gk {gk}: {was} → {now}");
    }
}
