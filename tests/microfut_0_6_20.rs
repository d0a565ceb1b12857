//! Microfut 0.6.20 (issue 11), a draft from 0.6.19 for the same engine: a keeper's level in the
//! save, the claim and the penalty save weighs his execution 0.8 and his reading 0.2 (was 0.65
//! and 0.35), so goalkeeping — which reaches the save only through the execution — counts more,
//! while a keeper whose reading equals his execution stands where he stood
//! (docs/calibration-0.6.20.md). The tests read the repository's content folder (or
//! `MICROFUT_TEST_CONTENT`, so a sabotaged copy can show an assertion failing).

mod common;
use common::{only_named_changes, resolve_json, stage};
use serde_json::json;

const BASE_WAS: &str = "skill_anchor + skill_weight_save * ((0.65 * exec_gk + 0.35 * read_gk) - skill_anchor)";
const BASE_NOW: &str = "skill_anchor + skill_weight_save * ((0.8 * exec_gk + 0.2 * read_gk) - skill_anchor)";

/// Only what the change note names moves: the keeper's base in the three pipelines that read
/// his execution, and the golden match.
#[test]
fn only_the_keepers_base_changes() {
    only_named_changes("0.6.19", "0.6.20", ">=0.5.11, <0.6.0", |file, _old, new| {
        if file == "pipelines.json" {
            let mut changed = Vec::new();
            for p in new["pipelines"].as_array_mut().unwrap() {
                if p["base"]["expr"] == BASE_NOW {
                    p["base"]["expr"] = json!(BASE_WAS);
                    changed.push(p["id"].as_str().unwrap().to_string());
                }
            }
            assert_eq!(changed, ["save", "claim", "penalty_save"]);
        }
    });
}

/// The save's base for a keeper of this DX, goalkeeping and reading (IQ, positioning and
/// perception all `read`), as `resolve` shows it.
fn save_base(revision: &str, dx: i64, goalkeeping: i64, read: i64) -> f64 {
    let sets = [
        format!("dx={dx}"),
        format!("goalkeeping={goalkeeping}"),
        format!("iq={read}"),
        format!("positioning={read}"),
        format!("perception={read}"),
        "gk_position_error=0".into(),
        "shot_distance=12".into(),
        "shot_margin=0".into(),
        "shot_speed=1".into(),
    ];
    stage(&resolve_json("save", &sets, revision), "base")
}

/// Six levels of goalkeeping (execution 15 → 11) are worth 0.26 × 0.8 × 4 at the save's base,
/// a fifth more than 0.6.19's 0.26 × 0.65 × 4 — the keeper fact had missed its 0.30 floor by a
/// hundredth; a keeper whose reading equals his execution stands exactly where he stood, and the
/// reference club's keeper (DX 14, goalkeeping 16, reading 16) moves less than 0.05 of a point.
#[test]
fn goalkeeping_counts_more_and_a_balanced_keeper_stands_where_he_stood() {
    let gk_gap = |r: &str| save_base(r, 14, 16, 15) - save_base(r, 14, 10, 15);
    assert!((gk_gap("0.6.19") - 0.26 * 0.65 * 4.0).abs() < 1e-9, "{}", gk_gap("0.6.19"));
    assert!((gk_gap("0.6.20") - 0.26 * 0.8 * 4.0).abs() < 1e-9, "{}", gk_gap("0.6.20"));
    for (dx, gk, read) in [(14, 16, 15), (15, 18, 17), (12, 13, 13)] {
        let (was, now) = (save_base("0.6.19", dx, gk, read), save_base("0.6.20", dx, gk, read));
        assert!((now - was).abs() < 1e-9, "dx {dx} gk {gk} read {read}: {was} → {now}");
    }
    let (was, now) = (save_base("0.6.19", 14, 16, 16), save_base("0.6.20", 14, 16, 16));
    assert!(now < was && was - now < 0.05, "{was} → {now}");
}
