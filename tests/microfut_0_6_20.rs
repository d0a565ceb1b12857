//! Microfut 0.6.20 (issue 11), a draft from 0.6.19 for the same engine: a keeper's level in the
//! save, the claim and the penalty save weighs his execution 0.8 and his reading 0.2 (was 0.65
//! and 0.35), so goalkeeping — which reaches the save only through the execution — counts more
//! against the dice than his reading; a level above the anchor counts 0.23 (0.26), so the good
//! keepers of the reference club and the established and elite clubs stand nearer it; and a
//! side's shooting bias is 1.01 (1.04); a composed side away feels a little less of the crowd
//! (0.065 a point of willpower above 10) (docs/calibration-0.6.20.md). The tests read the
//! repository's content folder (or `MICROFUT_TEST_CONTENT`, so a sabotaged copy can show an
//! assertion failing).

mod common;
use common::{only_named_changes, params_moved, save_base};
use serde_json::json;

const BASE_WAS: &str = "skill_anchor + skill_weight_save * ((0.65 * exec_gk + 0.35 * read_gk) - skill_anchor)";
const BASE_NOW: &str = "skill_anchor + skill_weight_save * ((0.8 * exec_gk + 0.2 * read_gk) - skill_anchor)";

/// Only what the change note names moves: the save's weight, the crowd's relief, the shooting
/// bias, the keeper's base in the three pipelines that read his execution, and the golden match.
#[test]
fn only_two_values_the_shooting_bias_and_the_keepers_base_change() {
    only_named_changes("0.6.19", "0.6.20", ">=0.5.11, <0.6.0", |file, old, new| match file {
        "params.json" => {
            params_moved(old, new, &[("skill_weight_save", 0.26, 0.23), ("crowd_willpower_relief", 0.06, 0.065)])
        }
        "npc.json" => {
            assert_eq!((&old["bias"]["shoot"], &new["bias"]["shoot"]), (&json!(1.04), &json!(1.01)));
            new["bias"]["shoot"] = json!(1.04);
        }
        "pipelines.json" => {
            let mut changed = Vec::new();
            for p in new["pipelines"].as_array_mut().unwrap() {
                if p["base"]["expr"] == BASE_NOW {
                    p["base"]["expr"] = json!(BASE_WAS);
                    changed.push(p["id"].as_str().unwrap().to_string());
                }
            }
            assert_eq!(changed, ["save", "claim", "penalty_save"]);
        }
        _ => {}
    });
}

/// Six levels of goalkeeping (execution 15 → 11) are worth 0.23 × 0.8 × 4 at the save's base,
/// more than 0.6.19's 0.26 × 0.65 × 4 — the keeper fact had missed its 0.30 floor by a
/// hundredth; a keeper whose reading equals his execution keeps his level, only nearer the anchor
/// by the weight (0.23 / 0.26 of his distance from it); and the reference club's keeper (DX 14,
/// goalkeeping 16, reading 16) stands nearer the anchor than he did, by less than a tenth of a
/// point — a good keeper's saves become goals without the goalkeeping level counting less.
#[test]
fn goalkeeping_counts_more_and_a_good_keeper_stands_nearer_the_anchor() {
    const ANCHOR: f64 = 13.5;
    let gk_gap = |r: &str| save_base(r, 14, 16, 15) - save_base(r, 14, 10, 15);
    assert!((gk_gap("0.6.19") - 0.26 * 0.65 * 4.0).abs() < 1e-9, "{}", gk_gap("0.6.19"));
    assert!((gk_gap("0.6.20") - 0.23 * 0.8 * 4.0).abs() < 1e-9, "{}", gk_gap("0.6.20"));
    for (dx, gk, read) in [(14, 16, 15), (15, 18, 17), (12, 13, 13)] {
        let (was, now) = (save_base("0.6.19", dx, gk, read), save_base("0.6.20", dx, gk, read));
        assert!(
            (now - ANCHOR - (was - ANCHOR) * 0.23 / 0.26).abs() < 1e-9,
            "dx {dx} gk {gk} read {read}: {was} → {now}"
        );
    }
    let (was, now) = (save_base("0.6.19", 14, 16, 16), save_base("0.6.20", 14, 16, 16));
    assert!(ANCHOR < now && now < was && was - now < 0.1, "{was} → {now}");
}
