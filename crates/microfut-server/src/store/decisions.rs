//! The decision log's rows, stored compactly.
//!
//! Problem: an NPC decision as the decisions endpoint shows it is ~4 KB of JSON — a dozen
//! candidates, each naming its eleven fields — and one is written on most rounds: under a
//! hundred concurrent runs these rows were most of the bytes every group commit wrote to the
//! WAL, and each overflowed a 4 KB page.
//!
//! Decision: a row holds the decision as positional JSON arrays (the same values in a fixed
//! order, no field names, the numbers written exactly as the endpoint writes them), ~45 % of the
//! size; `expand` rebuilds the endpoint's object, field for field and in the same order, when
//! the row is read. A test checks `expand(compact(d)) == serde_json::to_value(d)` over a whole
//! match's decisions, pruned candidates included. Rows written before this (full objects) are
//! returned as they are, so no migration rewrites them.
//!
//! Limits: the layout is positional — a field added to `engine::log::Decision` must be added
//! here too (the round-trip test fails until it is).

use super::StoreError;
use microfut_football::engine::log::{BOUND_BELOW_CHOSEN, CandidateLog, Decision, Personality};
use serde::{Serialize, Serializer};
use serde_json::{Map, Value, json};

struct AsText<'a, T: std::fmt::Display>(&'a T);

impl<T: std::fmt::Display> Serialize for AsText<'_, T> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self.0)
    }
}

/// `[kind, target, success_probability, progression, threat, turnover_risk,
/// personality_modifier, match_state_modifier, bias, noise, final_score (the bound when pruned),
/// pruned]`; the three terms a pruned candidate did not weigh are `null`.
struct Candidate<'a>(&'a CandidateLog);

impl Serialize for Candidate<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let c = self.0;
        let weighed = |x: f64| (!c.pruned).then_some(x);
        (
            c.kind,
            AsText(&c.target),
            c.success_probability,
            c.progression,
            c.threat,
            weighed(c.turnover_risk),
            weighed(c.personality_modifier),
            weighed(c.match_state_modifier),
            c.bias,
            c.noise,
            c.final_score,
            c.pruned,
        )
            .serialize(s)
    }
}

struct Candidates<'a>(&'a [CandidateLog]);

impl Serialize for Candidates<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(self.0.iter().map(Candidate))
    }
}

fn personality(p: &Personality) -> (f64, f64, f64) {
    (p.verticality, p.security, p.risk_tolerance)
}

/// The row of one decision: `[engine_version, seed, round, club_id, club_personality,
/// adaptation, player_id, [minute, score, goal_diff, ball, phase], candidates, selected_action,
/// human]`, and a twelfth item, the value of possession, when the revision declares one (0.6.4
/// on) — rows written before it had none and read back as they were.
pub fn compact(d: &Decision) -> String {
    let s = &d.match_state_summary;
    let row = (
        d.engine_version,
        d.seed,
        d.round,
        &*d.club_id,
        personality(&d.club_personality),
        personality(&d.adaptation),
        &*d.player_id,
        (s.minute, s.score, s.goal_diff, s.ball, &s.phase),
        Candidates(&d.candidate_actions),
        d.selected_action,
        d.human,
    );
    match d.possession_value {
        None => serde_json::to_string(&row),
        Some(pv) => {
            let (a, b, c, e, f, g, h, i, j, k, l) = row;
            serde_json::to_string(&(a, b, c, e, f, g, h, i, j, k, l, pv))
        }
    }
    .expect("decisions serialise")
}

fn bad(what: &str) -> StoreError {
    StoreError::Corrupt(format!("a stored decision's {what} is not as written"))
}

fn items(v: Value, n: usize, what: &str) -> Result<Vec<Value>, StoreError> {
    match v {
        Value::Array(a) if a.len() == n => Ok(a),
        _ => Err(bad(what)),
    }
}

fn object<const N: usize>(keys: [&str; N], values: Vec<Value>) -> Value {
    Value::Object(keys.iter().map(|k| k.to_string()).zip(values).collect::<Map<_, _>>())
}

fn expand_candidate(v: Value) -> Result<Value, StoreError> {
    let mut it = items(v, 12, "candidate")?.into_iter();
    let mut next = || it.next().expect("length checked");
    let mut m = Map::new();
    for key in [
        "kind",
        "target",
        "success_probability",
        "progression",
        "threat",
        "turnover_risk",
        "personality_modifier",
        "match_state_modifier",
    ] {
        m.insert(key.into(), next());
    }
    let bias = next();
    if !bias.as_f64().is_some_and(|b| b == 0.0) {
        m.insert("bias".into(), bias);
    }
    m.insert("noise".into(), next());
    let score = next();
    let pruned = next().as_bool().ok_or_else(|| bad("pruned flag"))?;
    if pruned {
        m.insert("final_score".into(), Value::Null);
        m.insert("pruned".into(), json!({ "bound": score, "reason": BOUND_BELOW_CHOSEN }));
    } else {
        m.insert("final_score".into(), score);
    }
    Ok(Value::Object(m))
}

/// The decision as the endpoint shows it (`serde_json::to_value` of the engine's `Decision`),
/// from its stored row; a row stored as a full object is returned as it is.
pub fn expand(row: Value) -> Result<Value, StoreError> {
    if row.is_object() {
        return Ok(row);
    }
    let mut it = match row {
        Value::Array(a) if a.len() == 11 || a.len() == 12 => a.into_iter(),
        _ => return Err(bad("row")),
    };
    let mut next = || it.next().expect("length checked");
    let (engine_version, seed, round, club_id) = (next(), next(), next(), next());
    let traits = ["verticality", "security", "risk_tolerance"];
    let club_personality = object(traits, items(next(), 3, "club personality")?);
    let adaptation = object(traits, items(next(), 3, "adaptation")?);
    let player_id = next();
    let summary = object(["minute", "score", "goal_diff", "ball", "phase"], items(next(), 5, "state summary")?);
    let candidates = match next() {
        Value::Array(a) => a.into_iter().map(expand_candidate).collect::<Result<Vec<_>, _>>()?,
        _ => return Err(bad("candidates")),
    };
    let (selected, human) = (next(), next());
    let possession_value = it.next();
    let mut decision = object(
        [
            "engine_version",
            "seed",
            "round",
            "club_id",
            "club_personality",
            "adaptation",
            "player_id",
            "match_state_summary",
            "candidate_actions",
            "selected_action",
            "human",
        ],
        vec![
            engine_version,
            seed,
            round,
            club_id,
            club_personality,
            adaptation,
            player_id,
            summary,
            Value::Array(candidates),
            selected,
            human,
        ],
    );
    if let (Some(pv), Value::Object(m)) = (possession_value, &mut decision) {
        if !pv.is_number() {
            return Err(bad("value of possession"));
        }
        m.insert("possession_value".into(), pv);
    }
    Ok(decision)
}

#[cfg(test)]
mod tests {
    use super::*;
    use microfut_football::engine::candidate::{Intent, Kind};
    use microfut_football::engine::log::StateSummary;

    const ROW: &str = r#"["0.5.4",5,268,"club",[-2.0,2.0,-3.0],[0.0,0.0,0.0],"club#8",[11.15,[1,0],-1,[18.66,42.48],"build_up"],[],0,false"#;

    /// Rows written before revisions had a value of possession (eleven items) read back without
    /// one; a twelfth item is the value, and anything but a number there is a corrupt row.
    #[test]
    fn the_value_of_possession_is_the_optional_twelfth_item() {
        let old = expand(serde_json::from_str(&format!("{ROW}]")).unwrap()).unwrap();
        assert!(old.get("possession_value").is_none(), "{old}");
        assert_eq!(old["human"], false);
        let new = expand(serde_json::from_str(&format!("{ROW},0.327]")).unwrap()).unwrap();
        assert_eq!(new["possession_value"], 0.327);
        let bad = expand(serde_json::from_str(&format!(r#"{ROW},"x"]"#)).unwrap());
        assert!(matches!(bad, Err(StoreError::Corrupt(_))), "{bad:?}");
        assert!(expand(serde_json::from_str(&format!("{ROW},1,2]")).unwrap()).is_err());
    }

    fn candidate(kind: Kind, target: Option<i32>, zone: Option<&str>, bias: f64, pruned: bool) -> CandidateLog {
        CandidateLog {
            kind: kind.name(),
            target: Intent { kind, target, zone: zone.map(str::to_string) },
            success_probability: 0.6875,
            progression: 0.125,
            threat: 0.3,
            turnover_risk: 0.21,
            personality_modifier: -0.0375,
            match_state_modifier: 0.05,
            bias,
            noise: -0.0123,
            final_score: 1.4375,
            pruned,
        }
    }

    /// The whole-match round-trip in tests/api/endpoints.rs sees only the fields the default
    /// revision writes; this one sets every optional one (a value of possession, a human
    /// decision, a bias, a pruned candidate, a zone, a set-piece phase) whatever the content
    /// says. Built with struct literals, so a field added to the log does not compile here
    /// until it is set — and then fails until the compact row carries it.
    #[test]
    fn every_field_survives_the_compact_row() {
        let d = Decision {
            engine_version: "9.9.9",
            seed: u64::MAX,
            round: 2_375,
            club_id: "ferroviario_juazeiro".into(),
            club_personality: Personality { verticality: 2.0, security: -2.0, risk_tolerance: 2.0 },
            adaptation: Personality { verticality: 0.5, security: -0.25, risk_tolerance: 1.0 },
            player_id: "ferroviario_juazeiro#10".into(),
            match_state_summary: StateSummary {
                minute: 88.47,
                score: [2, 3],
                goal_diff: -1,
                ball: [93.5, 0.0],
                phase: "corner".into(),
            },
            candidate_actions: vec![
                candidate(Kind::Cross, None, Some("far_post"), -0.4, false),
                candidate(Kind::Pass, Some(9), None, 0.0, true),
                candidate(Kind::Carry, Some(-30), None, 0.0, false),
                candidate(Kind::Shoot, None, Some("left"), 0.75, true),
            ],
            selected_action: 2,
            human: true,
            possession_value: Some(0.287),
        };
        let expected = serde_json::to_value(&d).unwrap();
        assert!(expected.get("possession_value").is_some() && expected["candidate_actions"][1]["pruned"].is_object());
        assert_eq!(expand(serde_json::from_str(&compact(&d)).unwrap()).unwrap(), expected);
        let without = Decision { possession_value: None, human: false, ..d };
        assert_eq!(
            expand(serde_json::from_str(&compact(&without)).unwrap()).unwrap(),
            serde_json::to_value(&without).unwrap()
        );
    }
}
