//! What the API shows of a pending decision's candidates and of the tests rolled: the engine's
//! odds and roll journal as DTOs. Every number is the engine's; these only name players,
//! pipelines and zones.

use super::dto::{CandidateView, RollView, Side, TestView};
use microfut_football::engine::projection::{RollRecord, RollRole};
use microfut_football::engine::{Candidate, Match, Rules, TestOdds};
use serde::{Deserialize, Serialize};

/// A roll as the store keeps it: [player, pipeline, difficulty, total, margin, success,
/// probability, role]; rows written before the role was recorded have seven items.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(untagged)]
pub enum StoredRoll {
    WithRole(String, String, i32, u32, i32, bool, f64, String),
    Before(String, String, i32, u32, i32, bool, f64),
}

fn side_of(player: &str) -> Side {
    if player.starts_with("home") { Side::Home } else { Side::Away }
}

fn dice_of(rules: &Rules, pipeline: usize) -> String {
    let spec = rules.rs.pipelines[pipeline].odds.spec();
    format!("{}d{}", spec.count, spec.sides)
}

pub fn roll_view(m: &Match, r: &RollRecord) -> RollView {
    let pipe = &m.rules().rs.pipelines[r.pipeline];
    let player = player_id(m, r.player);
    RollView {
        team: side_of(&player),
        player,
        pipeline: pipe.id.clone(),
        label: pipe.label.clone(),
        role: Some(r.role.name().to_string()),
        dice: Some(dice_of(m.rules(), r.pipeline)),
        difficulty: r.difficulty,
        total: r.total,
        margin: r.margin,
        success: r.success,
        probability: r.probability,
    }
}

pub fn stored_roll(m: &Match, r: &RollRecord) -> StoredRoll {
    StoredRoll::WithRole(
        player_id(m, r.player),
        m.rules().rs.pipelines[r.pipeline].id.clone(),
        r.difficulty,
        r.total,
        r.margin,
        r.success,
        r.probability,
        r.role.name().to_string(),
    )
}

/// A stored roll, labelled from the run's pinned revision when it is known.
pub fn stored_roll_view(rules: Option<&Rules>, row: StoredRoll) -> RollView {
    let ((player, pipeline, difficulty, total, margin, success, probability), role) = match row {
        StoredRoll::WithRole(a, b, c, d, e, f, g, role) => ((a, b, c, d, e, f, g), RollRole::from_name(&role)),
        StoredRoll::Before(a, b, c, d, e, f, g) => ((a, b, c, d, e, f, g), None),
    };
    let index = rules.and_then(|r| r.rs.pipelines.iter().position(|p| p.id == pipeline));
    RollView {
        label: match (rules, index) {
            (Some(r), Some(i)) => r.rs.pipelines[i].label.clone(),
            _ => microfut_core::catalog::Labels { pt_br: pipeline.clone(), en: pipeline.clone() },
        },
        dice: rules.zip(index).map(|(r, i)| dice_of(r, i)),
        team: side_of(&player),
        role: role.map(|r| r.name().to_string()),
        player,
        pipeline,
        difficulty,
        total,
        margin,
        success,
        probability,
    }
}

fn test_view(m: &Match, t: &TestOdds) -> TestView {
    let pipe = &m.rules().rs.pipelines[t.pipeline];
    TestView {
        player: player_id(m, t.player),
        pipeline: pipe.id.clone(),
        label: pipe.label.clone(),
        difficulty: t.difficulty,
        fraction: t.fraction,
        probability: t.probability,
    }
}

/// Candidate `i` of the pending decision as a person reads it: its exact odds, the NPC's
/// estimates named as such, and its explanation. A read: no die, nothing changed.
pub fn candidate_view(m: &mut Match, i: usize, c: &Candidate) -> CandidateView {
    let explanation = m.explain_pending(i).map(|e| serde_json::to_value(e).expect("explanations"));
    let intent = c.intent();
    let odds = c.odds.clone().expect("a person's candidates are priced");
    let keep_exact =
        matches!(c.kind, microfut_football::engine::Kind::Carry | microfut_football::engine::Kind::Dribble);
    CandidateView {
        index: i,
        kind: c.kind.name().to_string(),
        target: intent.target,
        zone_label: m.zone_label(c).cloned(),
        zone: intent.zone.clone(),
        intent: intent.to_string(),
        branch: odds.branch.name().to_string(),
        headline: odds.headline,
        probability: odds.test.map(|t| t.probability),
        test: odds.test.as_ref().map(|t| test_view(m, t)),
        opponent: odds.opponent.as_ref().map(|t| test_view(m, t)),
        wins_duel: odds.wins,
        foul_share: odds.foul_share,
        keep_probability: keep_exact.then_some(odds.headline),
        keep_estimate: c.success,
        goal_chance: odds.goal,
        goal_estimate: c.goal_chance,
        gain: odds.gain,
        threat: c.threat,
        turnover_risk: c.turnover_risk,
        npc_score: c.score,
        dest: [c.dest.x, c.dest.y],
        summary: c.explain(),
        explanation,
    }
}

/// `home-9` for player index `p`.
pub fn player_id(m: &Match, p: usize) -> String {
    let pl = &m.state().players[p];
    format!("{}-{}", if pl.team == 0 { "home" } else { "away" }, pl.shirt)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Rolls stored before the role was recorded (seven items) still read, with no role; rows
    /// written now carry it.
    #[test]
    fn stored_rolls_read_with_and_without_their_role() {
        let rows: Vec<StoredRoll> = serde_json::from_str(
            r#"[["home-9","pass",8,12,4,true,0.9],["away-3","tackle",9,7,-2,false,0.74,"tackle"]]"#,
        )
        .unwrap();
        let views: Vec<RollView> = rows.into_iter().map(|r| stored_roll_view(None, r)).collect();
        assert_eq!((views[0].role.as_deref(), views[0].team), (None, Side::Home));
        assert_eq!((views[1].role.as_deref(), views[1].team), (Some("tackle"), Side::Away));
        assert_eq!(views[1].probability, 0.74);
        let again = serde_json::to_string(&StoredRoll::WithRole(
            "home-9".into(),
            "pass".into(),
            8,
            12,
            4,
            true,
            0.9,
            "action".into(),
        ))
        .unwrap();
        assert_eq!(again, r#"["home-9","pass",8,12,4,true,0.9,"action"]"#);
    }
}
