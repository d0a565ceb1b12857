//! A side that is behind pushes from the minute it falls behind (Microfut 0.6.16, published in
//! 0.6.20): two points more risk and three more of verticality a goal (verticality at most 6),
//! where before a side two goals down at half time played as if level. The tests read the
//! repository's content folder (or `MICROFUT_TEST_CONTENT`).

use crate::common;
use common::{resolve_json, revision_rules, sample_club as club, test_catalog};
use microfut::engine::{Match, Options};

const REFERENCE: &str = "sociedade_esportiva_serra_azul";

/// The match-state adaptation the revision writes, as (risk tolerance, security, verticality).
fn expected(goal_diff: i64, minute: f64) -> (f64, f64, f64) {
    let late = if minute >= 85.0 {
        2.0
    } else if minute >= 75.0 {
        1.0
    } else {
        0.0
    };
    if goal_diff < 0 {
        let down = -goal_diff as f64;
        ((2.0 * down).max(late), 0.0, (3.0 * down).min(6.0))
    } else if goal_diff > 0 {
        (0.0, if minute >= 75.0 { 1.0 } else { 0.0 }, 0.0)
    } else {
        (0.0, 0.0, 0.0)
    }
}

/// The adaptation as the resolver shows it, at the points the change note names.
#[test]
fn a_side_behind_pushes_from_the_first_minute() {
    for (goal_diff, minute) in
        [(-1, 10.0), (-2, 10.0), (-3, 50.0), (-1, 80.0), (-1, 86.0), (0, 88.0), (1, 80.0), (2, 10.0)]
    {
        let (risk, security, vertical) = expected(goal_diff, minute);
        let gd = format!("goal_diff={goal_diff}");
        let min = format!("minute={minute}");
        let r = resolve_json("adapt_risk_tolerance", &[&gd, &min], "0.6.20");
        assert_eq!(r["value"].as_f64().unwrap(), risk, "risk at {goal_diff}, {minute}'");
        let s = resolve_json("adapt_security", &[&gd, &min], "0.6.20");
        assert_eq!(s["value"].as_f64().unwrap(), security, "security at {goal_diff}, {minute}'");
        let v = resolve_json("adapt_verticality", &[&gd], "0.6.20");
        assert_eq!(v["value"].as_f64().unwrap(), vertical, "verticality at {goal_diff}");
    }
}

/// Every NPC decision of a played match logs the adaptation its own score and minute call for,
/// and a side behind early plays forward.
#[test]
fn the_decision_log_shows_the_side_behind_pushing() {
    let catalog = test_catalog();
    let c = club(REFERENCE);
    let mut pushed_early = 0;
    let rules = revision_rules(&catalog, "0.6.20");
    for seed in 1..=6u64 {
        let opts = Options { retention: Some(usize::MAX), ..Default::default() };
        let mut m = Match::new(rules.clone(), &c, &c, seed, opts).unwrap();
        m.run().unwrap();
        for d in m.decisions().decisions() {
            let d = serde_json::to_value(d).unwrap();
            let s = &d["match_state_summary"];
            let (gd, minute) = (s["goal_diff"].as_i64().unwrap(), s["minute"].as_f64().unwrap());
            let a = &d["adaptation"];
            let got = (
                a["risk_tolerance"].as_f64().unwrap(),
                a["security"].as_f64().unwrap(),
                a["verticality"].as_f64().unwrap(),
            );
            assert_eq!(got, expected(gd, minute), "seed {seed}, round {}", d["round"]);
            pushed_early += usize::from(gd < 0 && minute < 75.0 && got.2 > 0.0);
        }
    }
    assert!(pushed_early > 50, "a side behind before the 75th minute pushed in {pushed_early} decisions");
}
