//! Engine 0.5.11 (issue 11): the NPC chooses a shot from the chance the situation offers a typical
//! striker. Under 0.6.17 a side priced its shots with its own striker's sheet, so a side of better
//! finishers took more shots, not only scored more of them: over sixteen generated clubs of each
//! preset playing themselves, the elite clubs took 35 shots a match and the modest ones 26, and the
//! calibration's established pair ran to 32–33. Content may now name, in `npc.shot`, the sheet the
//! striker is priced with (`expected_shooter`); where he stands, who is in the way and the keeper
//! stay as they are, and the true chance is still what a person is shown and what the dice meet.
//! Absent, play is as before, bit for bit (the replay corpus and the golden matches of every
//! earlier revision). The tests read the repository's content folder (or `MICROFUT_TEST_CONTENT`).

use crate::common;
use common::{clear_the_pitch, edited_sample_club, sample_club as club, test_catalog};
use microfut::club::Club;
use microfut::engine::geometry::V2;
use microfut::engine::{Candidate, Kind, Match, Options, Rules};
use std::sync::Arc;

const REFERENCE: &str = "sociedade_esportiva_serra_azul";
/// The newest revision without the field: its own expected keeper and context stay in force.
const REVISION: &str = "0.6.20";

fn compiled(edit: impl FnOnce(&mut serde_json::Value)) -> Result<Rules, String> {
    let catalog = test_catalog();
    let mut rev = catalog.revision("microfut", Some(REVISION)).unwrap().clone();
    edit(rev.documents.get_mut("npc.json").unwrap());
    let rs = microfut::ruleset::compile(&rev).unwrap_or_else(|d| panic!("{REVISION}: {d:?}"));
    Rules::new(Arc::new(rs)).map_err(|e| e.to_string())
}

fn typical_striker() -> serde_json::Value {
    serde_json::json!({"dx": 13, "finishing": 14, "control": 14, "heading": 13, "jumping": 12, "st": 12})
}

/// The reference club with every player's finishing `worse` levels lower (nothing else changed).
fn with_weaker_finishers(worse: i64) -> Club {
    edited_sample_club(REFERENCE, |v| {
        for p in v["squad"].as_array_mut().unwrap() {
            let f = p["skills"]["finishing"].as_i64().unwrap();
            p["skills"]["finishing"] = serde_json::json!((f - worse).max(3));
        }
    })
}

/// Everyone out of the way but the keepers; the home side's striker `d` m straight in front of the
/// goal it attacks, with the ball: his shot's candidate, scored.
fn shot(rules: &Arc<Rules>, home: &Club, d: f64) -> Candidate {
    let away = club(REFERENCE);
    let mut m = Match::new(rules.clone(), home, &away, 1, Options::default()).unwrap();
    clear_the_pitch(&mut m);
    let striker = m.player_in_slot(0, 9).unwrap();
    m.place(striker, V2::new(105.0 - d, 34.0), V2::new(1.0, 0.0));
    m.give_ball(striker);
    m.scored_candidates().into_iter().find(|c| c.kind == Kind::Shoot).expect("a shot on offer")
}

/// With a typical striker as the expected one, a side weighs a shot the same whether its striker
/// finishes well or 4 levels worse — while the true chance of a goal and of the test (what a
/// person is shown, what the dice meet) fall with his finishing. Without it, the price follows
/// the striker.
#[test]
fn a_shot_is_priced_as_a_typical_striker_would_take_it() {
    let priced = Arc::new(compiled(|npc| npc["shot"]["expected_shooter"] = typical_striker()).unwrap());
    let plain = Arc::new(
        compiled(|npc| {
            npc["shot"].as_object_mut().unwrap().remove("expected_shooter");
        })
        .unwrap(),
    );
    let (good, weak) = (club(REFERENCE), with_weaker_finishers(4));
    for d in [8.0, 12.0, 16.0, 20.0] {
        let (g, w) = (shot(&priced, &good, d), shot(&priced, &weak, d));
        assert!(g.goal_chance > w.goal_chance * 1.02, "{d} m: true chance {} v {}", g.goal_chance, w.goal_chance);
        assert!(g.probability > w.probability, "{d} m: the test's odds {} v {}", g.probability, w.probability);
        assert_eq!(g.threat, w.threat, "{d} m: the NPC's price moved with the striker's finishing");
        let (g0, w0) = (shot(&plain, &good, d), shot(&plain, &weak, d));
        assert_eq!(g0.goal_chance, g.goal_chance, "{d} m: the true chance is the same rule");
        assert_eq!(w0.goal_chance, w.goal_chance, "{d} m: the true chance is the same rule");
        assert_eq!(g0.probability, g.probability, "{d} m: the odds shown are the same rule");
        assert!(g0.threat > w0.threat * 1.02, "{d} m: without it the price follows the striker");
    }
}

/// A striker whose sheet is the expected one is priced at his true chance: the price changes the
/// sheet, not the situation (where he stands, the keeper, the geometry).
#[test]
fn the_expected_striker_himself_is_priced_at_his_true_chance() {
    let expected = serde_json::json!({"dx": 13, "finishing": 14, "control": 14});
    let gv = test_catalog().revision("microfut", Some(REVISION)).unwrap().documents["npc.json"]["shot"]["goal_value"]
        .as_f64()
        .unwrap();
    let priced = Arc::new(compiled(|npc| npc["shot"]["expected_shooter"] = expected.clone()).unwrap());
    let ordinary = edited_sample_club(REFERENCE, |v| {
        for p in v["squad"].as_array_mut().unwrap() {
            if p["role"] != "goalkeeper" {
                p["attributes"]["dx"] = expected["dx"].clone();
                p["skills"]["finishing"] = expected["finishing"].clone();
                p["skills"]["control"] = expected["control"].clone();
            }
        }
    });
    let own = club(REFERENCE);
    for d in [6.0, 10.0, 15.0, 20.0] {
        let c = shot(&priced, &ordinary, d);
        assert!(
            (c.threat - gv * c.goal_chance).abs() < 1e-12,
            "{d} m: priced {} for a true {}",
            c.threat,
            c.goal_chance
        );
        // The reference club's own striker (finishing 17) is priced as the ordinary one.
        assert_eq!(shot(&priced, &own, d).threat, c.threat, "{d} m");
    }
}

/// Each name and value is checked when the revision loads, every problem named at once with its
/// JSON pointer: an unknown name, a context value given as a sheet value, a value off its scale.
#[test]
fn the_expected_shooter_is_checked_all_at_once() {
    let err = compiled(|npc| {
        npc["shot"]["expected_shooter"] = serde_json::json!({"nonsense": 1, "away_side": 0, "finishing": 99});
    })
    .err()
    .expect("refused");
    for needle in [
        "/shot/expected_shooter/nonsense",
        "unknown variable 'nonsense'",
        "/shot/expected_shooter/away_side",
        "not a value of a player's sheet",
        "/shot/expected_shooter/finishing",
        "must lie in its scale",
    ] {
        assert!(err.contains(needle), "no '{needle}' in: {err}");
    }
    assert!(compiled(|npc| npc["shot"]["expected_shooter"] = typical_striker()).is_ok());
}
