//! The rules document's worked examples are tests (document "Exemplos rápidos", baseline §1).

use crate::common;
use common::*;
use microfut::dice::{DiceSpec, Odds};
use microfut::pipeline::Part;

const PASS_18M: &[(&str, f64)] = &[
    ("dx", 14.0),
    ("passing", 15.0),
    ("control", 13.0),
    ("st", 11.0),
    ("kicking", 12.0),
    ("distance", 18.0),
    ("orientation", 30.0),
    ("nearest_opponent", 4.0),
];

const FINISH_9M: &[(&str, f64)] = &[
    ("dx", 15.0),
    ("finishing", 16.0),
    ("control", 14.0),
    ("st", 13.0),
    ("kicking", 15.0),
    ("distance", 9.0),
    ("angle", 0.0),
    ("orientation", 0.0),
    ("nearest_opponent", 10.0),
];

#[test]
fn pass_of_18_metres() {
    let rs = baseline();
    let (r, trace) = resolve(&rs, "pass", PASS_18M);
    assert_eq!(r.value, 17.0);
    assert_eq!(r.difficulty, Some(4));
    let p = r.probability.unwrap();
    assert_eq!((p.favourable, p.outcomes), (215, 216));
    assert!(r.possible);
    assert_eq!(r.with_total(12).margin, 8, "a roll of 12 gives margin +8");

    // POT 12, range 36.8 m, 49 % of range → 0; Domínio +1; orientation +1; pressure 0; base 15.
    let pipeline = rs.pipeline("pass").unwrap();
    let amount = |id: &str| {
        let e = pipeline.explain(&trace, &r);
        e.contributions.iter().find(|c| c.stage == id).map(|c| c.amount).unwrap()
    };
    assert_eq!(amount("base"), 15.0);
    assert_eq!(amount("mod_control"), 1.0);
    assert_eq!(amount("mod_pass_distance"), 0.0);
    assert_eq!(amount("mod_orientation"), 1.0);
    assert_eq!(amount("mod_pressure"), 0.0);
    let e = pipeline.explain(&trace, &r);
    let distance = e.contributions.iter().find(|c| c.stage == "mod_pass_distance").unwrap();
    assert_eq!(distance.input.as_ref().unwrap().value.round(), 49.0);
    assert!(!trace.iter().any(|e| e.part == Part::Clamp), "no clamp: 17 is reached exactly");
    insta::assert_yaml_snapshot!("pass_18m_contributions", e.contributions);
}

#[test]
fn pass_derives_power_and_range_from_st_and_kicking() {
    let rs = baseline();
    let p = rs.pipeline("pass").unwrap();
    let prepared = rs.prepare(p, &sets(PASS_18M)).unwrap();
    let power = rs.var("power").unwrap();
    let range = rs.var("range").unwrap();
    assert_eq!(prepared.inputs.get(power), 12.0);
    assert!((prepared.inputs.get(range) - 36.8).abs() < 1e-12);
}

#[test]
fn face_to_face_finish_saturates() {
    let rs = baseline();
    let (r, trace) = resolve(&rs, "finishing", FINISH_9M);
    assert_eq!(r.value, 17.0);
    assert_eq!(r.difficulty, Some(4));
    assert_eq!(r.with_total(10).margin, 6);
    let e = rs.pipeline("finishing").unwrap().explain(&trace, &r);
    let get = |id: &str| e.contributions.iter().find(|c| c.stage == id).map(|c| c.amount);
    assert_eq!(get("base"), Some(16.0));
    assert_eq!(get("mod_shot_distance"), Some(1.0), "9 m: +1");
    assert_eq!(get("mod_angle"), Some(1.0), "central: +1");
    assert_eq!(get("mod_pressure"), Some(1.0), "free: +1");
    assert_eq!(get("mod_control"), Some(2.0), "Domínio 14: +2");
    let clamp = e.contributions.iter().find(|c| c.kind == "clamp").expect("the clamp is visible");
    assert!(clamp.amount < 0.0 && clamp.running == 17.0);
    insta::assert_yaml_snapshot!("finish_9m_contributions", e.contributions);
}

#[test]
fn old_target_13_is_difficulty_8_at_83_80_percent() {
    let p = Odds::new(DiceSpec::D3D6).success(8);
    assert_eq!((p.favourable, p.outcomes), (181, 216));
    assert_eq!(format!("{:.2}", p.as_f64() * 100.0), "83.80");
}

#[test]
fn characteristics_follow_section_10() {
    let rs = baseline();
    // DX 14, ST 12, IQ 13, RES 15 at 27 (no age penalty), no training.
    let base = [("dx", 14.0), ("st", 12.0), ("iq", 13.0), ("res", 15.0), ("age", 27.0)];
    let value = |name: &str| resolve(&rs, name, &base).0.value;
    assert_eq!(value("res_practical"), 15.0);
    assert_eq!(value("speed"), 15.0, "round(0.45*14 + 0.55*15) = round(14.55)");
    assert_eq!(value("acceleration"), 14.0, "round(9.1 + 3 + 1.8) = round(13.9)");
    assert_eq!(value("balance"), 13.0, "round(8.4 + 4.8) = round(13.2)");
    assert_eq!(value("perception"), 13.0);
    assert_eq!(value("jumping"), 13.0, "round(7.8 + 4.9) = round(12.7)");
}

#[test]
fn res_practical_follows_the_age_penalty_and_never_drops_below_3() {
    let rs = baseline();
    let rp = |res: f64, age: f64| resolve(&rs, "res_practical", &[("res", res), ("age", age)]).0.value;
    assert_eq!(rp(12.0, 30.0), 12.0);
    assert_eq!(rp(12.0, 31.0), 11.0);
    assert_eq!(rp(12.0, 36.0), 7.0);
    assert_eq!(rp(12.0, 37.0), 5.0);
    assert_eq!(rp(18.0, 40.0), 4.0);
    assert_eq!(rp(16.0, 40.0), 3.0, "16 − 14 = 2 → clamped to 3");
    assert_eq!(rp(18.0, 41.0), 3.0, "18 − 14 − 2 = 2 → 3");
    assert_eq!(rp(18.0, 42.0), 3.0, "18 − 14 − 2×2 = 0 → 3");
}

#[test]
fn movement_and_stamina_follow_section_21() {
    let rs = baseline();
    let speed = [("speed", 12.0), ("acceleration", 12.0), ("balance", 12.0)];
    let r_normal = 2.0 + 0.45 * 12.0;
    let r_sprint = 3.0 + 0.65 * 12.0;
    let range = |extra: &[(&str, f64)]| {
        let mut all: Vec<(&str, f64)> = speed.to_vec();
        all.extend_from_slice(extra);
        resolve(&rs, "movement_range", &all).0.value
    };
    assert!((range(&[("pace", 1.0)]) - r_normal).abs() < 1e-9);
    assert!((range(&[("pace", 2.0)]) - r_sprint).abs() < 1e-9);
    assert!((range(&[("pace", 1.0), ("with_ball", 1.0)]) - 0.75 * r_normal).abs() < 1e-9);
    assert!((range(&[("pace", 2.0), ("with_ball", 1.0)]) - 0.90 * r_sprint).abs() < 1e-9);
    // A 100° turn costs 20 %, eased by the athletic reducer (12+12−20)/32 = 0.125.
    let turned = range(&[("pace", 1.0), ("direction_change", 100.0)]);
    assert!((turned - r_normal * (1.0 - 0.20 * (1.0 - 0.125))).abs() < 1e-9);
    // Fatigue reduces movement first: 50 STA → ×0.90.
    assert!((range(&[("pace", 1.0), ("stamina", 50.0)]) - 0.9 * r_normal).abs() < 1e-9);

    let cost = |pairs: &[(&str, f64)]| resolve(&rs, "stamina_cost", pairs).0.value;
    // RES practical 12: factor 1.0. Sprint with the ball 0.21/m vs sprint 0.16/m.
    let with_ball = cost(&[("distance", 10.0), ("res_practical", 12.0), ("pace", 2.0), ("with_ball", 1.0)]);
    let without = cost(&[("distance", 10.0), ("res_practical", 12.0), ("pace", 2.0)]);
    assert!((with_ball - 2.1).abs() < 1e-9 && (without - 1.6).abs() < 1e-9);
    // RES 3 → factor clamps at 1.35; RES 18 → 0.76.
    assert!((cost(&[("distance", 10.0), ("res_practical", 3.0), ("pace", 1.0)]) - 1.35).abs() < 1e-9);
    assert!((cost(&[("distance", 10.0), ("res_practical", 18.0), ("pace", 1.0)]) - 0.76).abs() < 1e-9);
    // A physical duel adds 0.8 STA.
    assert!((cost(&[("distance", 0.0), ("res_practical", 12.0), ("physical_duel", 1.0)]) - 0.8).abs() < 1e-9);
}

/// Exact (P(test succeeds), P(goal)) of a shot against a keeper, over all 216 × 216 outcomes,
/// with the content's shot-outcome and placement tables (no block).
fn shot_vs_keeper(rs: &microfut::ruleset::Ruleset, shot_value: i32, keeper_base: f64) -> (f64, f64) {
    let odds = Odds::new(DiceSpec::D3D6);
    let outcome = rs.table("shot_outcome").unwrap().range().unwrap().clone();
    let placement = rs.table("gk_placement").unwrap();
    let (mut success, mut goals) = (0u64, 0u64);
    for (total, p) in odds.totals() {
        let margin = total as i32 - (21 - shot_value);
        if margin >= 0 {
            success += p.favourable;
        }
        if outcome.tag(margin as f64) == Some("off_target") {
            continue;
        }
        let keeper_value = (keeper_base + placement.value(margin as f64)).clamp(3.0, 17.0);
        let saves = odds.success(21 - keeper_value as i32).favourable;
        goals += p.favourable * (216 - saves);
    }
    (success as f64 / 216.0, goals as f64 / (216.0 * 216.0))
}

#[test]
fn goalkeeper_baseline_figures_hold_exactly() {
    // Baseline §9: value 11 vs keeper 13 → on target 62 %, scores 13 % (21 % of those on target);
    // a 1-v-1 shot of value 17 vs keeper 13 scores 32 %.
    let rs = baseline();
    let (on_target, goals) = shot_vs_keeper(&rs, 11, 13.0);
    let percent = |x: f64| (x * 100.0).floor();
    assert_eq!(on_target, 135.0 / 216.0);
    assert_eq!(percent(on_target), 62.0);
    assert_eq!(percent(goals), 13.0, "{goals}");
    assert_eq!(percent(goals / on_target), 21.0);
    let (_, one_v_one) = shot_vs_keeper(&rs, 17, 13.0);
    assert_eq!(percent(one_v_one), 32.0, "{one_v_one}");
}
