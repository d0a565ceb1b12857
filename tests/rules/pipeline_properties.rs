//! Properties of the baseline pipelines (ranges, monotonicity) and the pure-pipeline facts of the
//! rules document's Appendix D.

use crate::common;
use common::*;
use microfut::ruleset::{PipelineKind, Ruleset, VarKind};
use proptest::prelude::*;

/// Random but valid inputs for every vocabulary variable.
fn arb_inputs(rs: &Ruleset) -> impl Strategy<Value = Vec<f64>> + use<> {
    let specs: Vec<(f64, f64, bool)> = rs
        .vars
        .iter()
        .map(|v| {
            let lo = if v.min.is_finite() { v.min } else { -50.0 };
            let hi = if v.max.is_finite() { v.max } else { lo.max(0.0) + 60.0 };
            (lo, hi, v.integer)
        })
        .collect();
    specs
        .into_iter()
        .map(
            |(lo, hi, int)| {
                if int { (lo as i64..=hi as i64).prop_map(|x| x as f64).boxed() } else { (lo..=hi).boxed() }
            },
        )
        .collect::<Vec<_>>()
}

fn with(rs: &Ruleset, values: &[f64], pairs: &[(&str, f64)]) -> microfut::ruleset::Inputs {
    let mut inputs = rs.inputs();
    inputs.values.copy_from_slice(values);
    for (k, v) in pairs {
        inputs.set(rs.var(k).unwrap(), *v);
    }
    inputs
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(common::cases(256)))]

    #[test]
    fn action_values_and_difficulties_stay_in_range(values in arb_inputs(&baseline())) {
        let rs = baseline();
        let inputs = with(&rs, &values, &[]);
        for p in rs.pipelines.iter().filter(|p| p.kind == PipelineKind::Action) {
            let r = p.resolve(&inputs);
            prop_assert!((3.0..=17.0).contains(&r.value), "{}: value {}", p.id, r.value);
            let d = r.difficulty.unwrap();
            prop_assert!((4..=18).contains(&d), "{}: difficulty {}", p.id, d);
            prop_assert_eq!(r.value.fract(), 0.0, "{}: action values are whole", p.id);
        }
    }

    #[test]
    fn probability_never_falls_as_value_rises(a in arb_inputs(&baseline()), b in arb_inputs(&baseline())) {
        let rs = baseline();
        for p in rs.pipelines.iter().filter(|p| p.kind == PipelineKind::Action) {
            let (ra, rb) = (p.resolve(&with(&rs, &a, &[])), p.resolve(&with(&rs, &b, &[])));
            let (pa, pb) = (ra.probability.unwrap(), rb.probability.unwrap());
            if ra.value <= rb.value {
                prop_assert!(pa <= pb, "{}: value {} → {}, value {} → {}", p.id, ra.value, pa, rb.value, pb);
            }
        }
    }

    #[test]
    fn a_longer_pass_is_never_easier(values in arb_inputs(&baseline()), d1 in 1.0f64..60.0, extra in 0.0f64..40.0) {
        let rs = baseline();
        let pass = rs.pipeline("pass").unwrap();
        let near = pass.resolve(&with(&rs, &values, &[("distance", d1)]));
        let far = pass.resolve(&with(&rs, &values, &[("distance", d1 + extra)]));
        prop_assert!(far.chance() <= near.chance(), "{} m: {} vs {} m: {}", d1, near.chance(), d1 + extra, far.chance());
    }

    #[test]
    fn central_finishing_close_beats_long_range(values in arb_inputs(&baseline()), near in 6.0f64..=10.0, far in 25.0f64..=40.0) {
        let rs = baseline();
        let shot = rs.pipeline("finishing").unwrap();
        let close = shot.resolve(&with(&rs, &values, &[("distance", near), ("angle", 0.0)]));
        let long = shot.resolve(&with(&rs, &values, &[("distance", far), ("angle", 0.0)]));
        prop_assert!(close.chance() >= long.chance());
        if long.raw < 17.0 && close.raw > 3.0 && close.possible {
            prop_assert!(close.chance() > long.chance(), "{} m {} vs {} m {}", near, close.chance(), far, long.chance());
        }
    }

    #[test]
    fn interceptors_chance_falls_as_pass_quality_rises(values in arb_inputs(&baseline())) {
        let rs = baseline();
        let p = rs.pipeline("interception").unwrap();
        let chances: Vec<f64> = (0..=3).map(|q| p.resolve(&with(&rs, &values, &[("q_int", q as f64)])).chance()).collect();
        for w in chances.windows(2) {
            prop_assert!(w[1] <= w[0], "{:?}", chances);
        }
        let raw = p.resolve(&with(&rs, &values, &[("q_int", 0.0)])).raw;
        if (6.0..=17.0).contains(&raw) {
            prop_assert!(chances[3] < chances[0], "{:?}", chances);
        }
    }

    #[test]
    fn derived_characteristics_stay_on_the_3_to_18_scale(values in arb_inputs(&baseline())) {
        let rs = baseline();
        let inputs = with(&rs, &values, &[]);
        for p in rs.pipelines.iter().filter(|p| p.output.is_some_and(|o| rs.vars[o].kind == VarKind::Characteristic)) {
            let v = p.resolve(&inputs).value;
            prop_assert!((3.0..=18.0).contains(&v), "{} = {}", p.id, v);
        }
    }
}

#[test]
fn a_free_short_pass_is_very_reliable_and_an_interceptor_on_the_line_makes_it_worse() {
    // Appendix D: "passe curto livre deve ser muito confiável e interceptador na linha deve piorá-lo".
    let rs = baseline();
    let ordinary =
        [("dx", 11.0), ("passing", 11.0), ("control", 11.0), ("st", 11.0), ("kicking", 11.0), ("orientation", 20.0)];
    let free: Vec<(&str, f64)> = [&ordinary[..], &[("distance", 10.0), ("nearest_opponent", 8.0)]].concat();
    let (r, _) = resolve(&rs, "pass", &free);
    assert!(r.chance() >= 0.9, "an ordinary player's free 10 m pass: {}", r.chance());
    // An interceptor on the line contests it: the pass must also beat his test.
    let interceptor = [("positioning", 12.0), ("perception", 12.0), ("dx", 12.0), ("orientation", 20.0)];
    let (i, _) = resolve(&rs, "interception", &[&interceptor[..], &[("q_int", 1.0)]].concat());
    assert!(r.chance() * (1.0 - i.chance()) < r.chance() - 0.2);
}

/// `resolve_each` must be `resolve`, bit for bit, for every value of the swept slot: the NPC's
/// pass estimates rely on it, and recorded matches replay through them.
fn each_matches_resolve(rs: &Ruleset, values: &[f64], sweep: &[f64]) -> Result<(), TestCaseError> {
    let base = with(rs, values, &[]);
    for p in &rs.pipelines {
        for &slot in &p.inputs {
            let v = &rs.vars[slot];
            let lo = if v.min.is_finite() { v.min } else { -50.0 };
            let hi = if v.max.is_finite() { v.max } else { lo.max(0.0) + 60.0 };
            let points: Vec<f64> = sweep
                .iter()
                .map(|f| lo + f * (hi - lo))
                .map(|x| if v.integer { x.round().clamp(lo, hi) } else { x })
                .collect();
            let mut swept = base.clone();
            let mut got = Vec::new();
            p.resolve_each(&mut swept, slot, &points, |k, r| got.push((k, r)));
            prop_assert_eq!(got.len(), points.len());
            for (k, r) in got {
                let mut one = base.clone();
                one.set(slot, points[k]);
                let want = p.resolve(&one);
                let same = r.value.to_bits() == want.value.to_bits()
                    && r.raw.to_bits() == want.raw.to_bits()
                    && r.difficulty == want.difficulty
                    && r.probability == want.probability
                    && r.possible == want.possible
                    && r.blocked_by == want.blocked_by;
                prop_assert!(same, "{} swept over {} at {}: {:?} vs {:?}", p.id, v.id, points[k], r, want);
            }
            prop_assert_eq!(swept.get(slot).to_bits(), points.last().unwrap().to_bits(), "slot left at the last value");
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(common::cases(64)))]

    #[test]
    fn resolving_each_value_of_a_slot_is_resolving_each_alone(
        values in arb_inputs(&ruleset("0.5.1")),
        sweep in proptest::collection::vec(0.0f64..=1.0, 1..6),
    ) {
        each_matches_resolve(&ruleset("0.5.1"), &values, &sweep)?;
    }

    #[test]
    fn resolving_each_value_holds_for_the_baseline_too(
        values in arb_inputs(&baseline()),
        sweep in proptest::collection::vec(0.0f64..=1.0, 1..6),
    ) {
        each_matches_resolve(&baseline(), &values, &sweep)?;
    }
}
