//! Engine 0.5.6 (issue 11): the NPC decides against what it expects, the player executes against
//! what is there. Under 0.6.6 the NPC shot when `goal_value × P(goal)` beat its other options, and
//! P(goal) carried the keeper in goal and the crowd — so a weaker keeper was shot at more, not
//! only scored past more (one point of a keeper's execution took 11 % of a match's shots), and
//! the crowd's small push on the away side's finishing became a 60/40 split of shots. Content
//! may now name, in `npc.shot`, the keeper's sheet (`expected_keeper`) and the context
//! (`expected_context`) a shot is priced under; the true chance is still what a person is shown.
//! Absent, the two are one and play is as before, bit for bit (the replay corpus and the golden
//! matches of every earlier revision). The tests read the repository's content folder (or
//! `MICROFUT_TEST_CONTENT`).

use crate::common;
use common::{clear_the_pitch, sample_club as club, test_catalog, with_weaker_keepers};
use microfut::club::Club;
use microfut::engine::geometry::V2;
use microfut::engine::{Candidate, Kind, Match, Options, Rules};
use std::sync::Arc;

const REFERENCE: &str = "sociedade_esportiva_serra_azul";
const REVISION: &str = "0.6.20";

fn compiled(revision: &str, edit: impl FnOnce(&mut serde_json::Value)) -> Result<Rules, String> {
    let catalog = test_catalog();
    let mut rev = catalog.revision("microfut", Some(revision)).unwrap().clone();
    edit(rev.documents.get_mut("npc.json").unwrap());
    let rs = microfut::ruleset::compile(&rev).unwrap_or_else(|d| panic!("{revision}: {d:?}"));
    Rules::new(Arc::new(rs)).map_err(|e| e.to_string())
}

/// The revision without the shot's expectations (`expected_keeper`, `expected_context` and
/// 0.5.11's `expected_shooter`), then `edit`: each expectation is switched on alone.
fn rules_with(edit: impl FnOnce(&mut serde_json::Value)) -> Arc<Rules> {
    Arc::new(
        compiled(REVISION, |npc| {
            let shot = npc["shot"].as_object_mut().unwrap();
            for key in ["expected_keeper", "expected_context", "expected_shooter"] {
                shot.remove(key);
            }
            edit(npc)
        })
        .unwrap(),
    )
}

fn goal_value() -> f64 {
    test_catalog().revision("microfut", Some(REVISION)).unwrap().documents["npc.json"]["shot"]["goal_value"]
        .as_f64()
        .unwrap()
}

/// The reference club's first keeper's sheet, as the expected keeper.
fn reference_keeper() -> serde_json::Value {
    serde_json::json!({"dx": 14, "goalkeeping": 16, "iq": 15, "positioning": 16, "perception": 16})
}

/// Everyone out of the way but the keepers; side `team`'s striker `d` m straight in front of the
/// goal it attacks, with the ball: his shot's candidate, scored.
fn shot(rules: &Arc<Rules>, away: &Club, team: usize, d: f64) -> Candidate {
    let home = club(REFERENCE);
    let mut m = Match::new(rules.clone(), &home, away, 1, Options::default()).unwrap();
    clear_the_pitch(&mut m);
    let striker = m.player_in_slot(team, 9).unwrap();
    let (at, dir) = if team == 0 { (105.0 - d, 1.0) } else { (d, -1.0) };
    m.place(striker, V2::new(at, 34.0), V2::new(dir, 0.0));
    m.give_ball(striker);
    m.scored_candidates().into_iter().find(|c| c.kind == Kind::Shoot).expect("a shot on offer")
}

/// With the reference club's keeper as the expected one, a side's striker weighs a shot the same
/// whether the keeper in goal is the reference club's or one 6 points of goalkeeping (3 of DX)
/// worse — while the true chance (what a person is shown) rises against the weaker keeper. The
/// revision without it prices the weaker keeper's goal higher: the volume of shots followed it.
#[test]
fn a_shot_is_priced_against_the_expected_keeper() {
    let gv = goal_value();
    let priced = rules_with(|npc| npc["shot"]["expected_keeper"] = reference_keeper());
    let plain = rules_with(|_| {});
    let (good, weak) = (club(REFERENCE), with_weaker_keepers(REFERENCE, 6));
    for d in [8.0, 12.0, 16.0, 20.0] {
        let (g, w) = (shot(&priced, &good, 0, d), shot(&priced, &weak, 0, d));
        assert!(w.goal_chance > g.goal_chance * 1.05, "{d} m: true chance {} v {}", w.goal_chance, g.goal_chance);
        assert_eq!(w.threat, g.threat, "{d} m: the NPC's price moved with the keeper in goal");
        // The keeper in goal is the expected one: priced and true agree.
        assert!((g.threat - gv * g.goal_chance).abs() < 1e-12, "{d} m: {} v {}", g.threat, gv * g.goal_chance);
        let (g0, w0) = (shot(&plain, &good, 0, d), shot(&plain, &weak, 0, d));
        assert_eq!(g0.goal_chance, g.goal_chance, "{d} m: the true chance is the same rule");
        assert_eq!(w0.goal_chance, w.goal_chance, "{d} m: the true chance is the same rule");
        assert!(w0.threat > g0.threat * 1.05, "{d} m: without it the price follows the keeper");
    }
}

/// Each name and value is checked when the revision loads, and every problem is named at once
/// with its JSON pointer: an unknown name, a context value given as the keeper's sheet, a sheet
/// value given as context, a value outside its scale — both fields' problems together.
#[test]
fn expected_values_are_checked_all_at_once() {
    let err = compiled(REVISION, |npc| {
        npc["shot"]["expected_keeper"] = serde_json::json!({"nonsense": 1, "away_side": 0, "goalkeeping": 99});
        npc["shot"]["expected_context"] = serde_json::json!({"dx": 12});
    })
    .err()
    .expect("refused");
    for needle in [
        "/shot/expected_keeper/nonsense",
        "unknown variable 'nonsense'",
        "/shot/expected_keeper/away_side",
        "not a value of a player's sheet",
        "/shot/expected_keeper/goalkeeping",
        "must lie in its scale",
        "/shot/expected_context/dx",
        "not a context value",
    ] {
        assert!(err.contains(needle), "no '{needle}' in: {err}");
    }
    // A valid expected keeper loads.
    assert!(compiled(REVISION, |npc| npc["shot"]["expected_keeper"] = reference_keeper()).is_ok());
}
