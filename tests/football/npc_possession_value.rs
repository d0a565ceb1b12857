//! The NPC values possession (`npc.possession_value`, since Microfut 0.6.4, published in 0.6.5):
//! losing the ball costs, besides the danger where it is lost, `weight × K`, K the holder's best
//! pass-test chance among the decision's passes — so a poor shot in the opponent's half, where the
//! danger map is near zero, is no longer nearly free, and a side that passes well values the ball
//! more. Pinned here on the default revision: the risk term as the design writes it, the choice it
//! changes, the value growing with the passer. The tests read the repository's content folder (or
//! `MICROFUT_TEST_CONTENT`, so a sabotaged copy can show that an assertion fails).

use crate::common;
use common::{clear_the_pitch, sample_club as club, test_catalog};
use microfut::club::Club;
use microfut::engine::geometry::V2;
use microfut::engine::{Candidate, Kind, Match, Options, Rules};
use std::sync::Arc;

/// A revision's rules, its NPC document edited by `edit` first (a copy: the catalog is not).
fn rules_with(revision: &str, edit: impl FnOnce(&mut serde_json::Value)) -> Arc<Rules> {
    let catalog = test_catalog();
    let mut rev = catalog.revision("microfut", Some(revision)).unwrap().clone();
    let npc = rev.documents.get_mut("npc.json").unwrap();
    // A shot's risk weighs its true chance: without the shot's expectations (0.5.6, 0.5.11) the
    // NPC prices it at the chance the risk term is checked against.
    let shot = npc["shot"].as_object_mut().unwrap();
    for key in ["expected_keeper", "expected_context", "expected_shooter"] {
        shot.remove(key);
    }
    edit(npc);
    let rs = microfut::ruleset::compile(&rev).unwrap_or_else(|d| panic!("{revision}: {d:?}"));
    Arc::new(Rules::new(Arc::new(rs)).unwrap())
}

fn rules(revision: &str) -> Arc<Rules> {
    rules_with(revision, |_| {})
}

/// the revision's weight of the value of possession.
fn weight() -> f64 {
    let catalog = test_catalog();
    let rev = catalog.revision("microfut", Some("0.6.20")).unwrap();
    rev.documents["npc.json"]["possession_value"]["weight"]
        .as_f64()
        .expect("the revision declares possession_value.weight")
}

const REFERENCE: &str = "sociedade_esportiva_serra_azul";

/// The reference club against itself with every player moved out of the way along the touchlines
/// of the home half and the keepers in goal; the home striker `d` m straight in front of the away
/// goal, in the opponent's half, and a free team-mate at `mate`: a long shot or a safe pass.
fn scene(rules: &Arc<Rules>, d: f64, mate: V2) -> Match {
    let c = club(REFERENCE);
    let mut m = Match::new(rules.clone(), &c, &c, 1, Options::default()).unwrap();
    clear_the_pitch(&mut m);
    let striker = m.player_in_slot(0, 9).unwrap();
    m.place(striker, V2::new(105.0 - d, 34.0), V2::new(1.0, 0.0));
    m.place(m.player_in_slot(0, 10).unwrap(), mate, V2::new(1.0, 0.0));
    m.give_ball(striker);
    m
}

fn key(c: &Candidate) -> String {
    format!("{:?} {:?}", c.kind, c.target)
}

/// The risk term as designed, candidate by candidate: with the value, every non-shot candidate's
/// risk is (1 − keep) × (danger + pv) and a shot's (1 − goal chance) × (danger at the restart +
/// pv), pv = weight × the best pass-test chance on offer (× 1: equal sides lead nobody) — against
/// the same content with weight 0, which weighs the danger alone. And the choice it changes: a
/// striker 17–19 m out, whose shot scores a goal under 10 % of the time, shoots without the value
/// and, for a team-mate somewhere on a line across the box, passes with it — each by a margin of
/// at least 0.03 of score, which a token value cannot give; never the reverse.
#[test]
fn losing_the_ball_costs_its_value_and_a_long_shot_gives_way_to_a_safe_pass() {
    let w = weight();
    assert!(w > 0.0, "the revision's weight {w}");
    let (with, without) =
        (rules("0.6.20"), rules_with("0.6.20", |npc| npc["possession_value"]["weight"] = serde_json::json!(0.0)));
    let mut flipped = Vec::new();
    for d in [17.0, 19.0] {
        for k in 0..=40 {
            let mate = V2::new(105.0 - d - 6.0 + 0.5 * k as f64, 46.0);
            let (a, b) = (scene(&with, d, mate).scored_candidates(), scene(&without, d, mate).scored_candidates());
            let at = format!("{d} m, team-mate at {mate:?}");
            assert_eq!(a.len(), b.len(), "{at}");
            let k = a.iter().filter(|c| c.kind == Kind::Pass).map(|c| c.probability).fold(0.0, f64::max);
            assert!(k > 0.5, "{at}: the free team-mate is offered a pass ({k})");
            let pv = w * k;
            for ca in &a {
                let cb = b.iter().find(|cb| key(cb) == key(ca)).unwrap_or_else(|| panic!("{at}: {}", key(ca)));
                let lost = if ca.kind == Kind::Shoot { 1.0 - ca.goal_chance } else { 1.0 - ca.success };
                let extra = ca.turnover_risk - cb.turnover_risk;
                assert!(
                    (extra - lost * pv).abs() < 1e-9,
                    "{at}, {}: risk {} v {} without the value; expected + {lost} × {pv}",
                    key(ca),
                    ca.turnover_risk,
                    cb.turnover_risk,
                );
            }
            // The value never makes a striker shoot who would otherwise not.
            assert!(!(a[0].kind == Kind::Shoot && b[0].kind != Kind::Shoot), "{at}: shoots only with the value");
            // A flip by a clear margin both ways (not a knife-edge any tiny value would tip).
            let score = |c: &[Candidate], k: &str| c.iter().find(|x| key(x) == k).map_or(f64::NAN, |x| x.score);
            if b[0].kind == Kind::Shoot
                && a[0].kind == Kind::Pass
                && score(&b, &key(&b[0])) - score(&b, &key(&a[0])) >= 0.03
                && score(&a, &key(&a[0])) - score(&a, &key(&b[0])) >= 0.03
            {
                let shot = b.iter().find(|c| c.kind == Kind::Shoot).unwrap();
                assert!(shot.goal_chance < 0.1, "{at}: a long, low-chance shot ({})", shot.goal_chance);
                assert!(a[0].success > 0.9, "{at}: a safe pass ({})", a[0].success);
                flipped.push(at);
            }
        }
    }
    assert!(!flipped.is_empty(), "nowhere does the value turn a long shot into a safe pass");
}

/// The reference club as another club (`worse_passers`) whose players pass `by` points worse.
fn worse_passers(by: i32) -> Club {
    let mut c = club(REFERENCE);
    c.id = "worse_passers".into();
    for p in c.squad.iter_mut() {
        let s = p.skills.get_mut("passing").expect("a passing skill");
        *s = (*s - by).max(3);
    }
    c
}

/// The value grows with K: without the lead (a copy of the revision with `lead` removed) every logged
/// decision's value is the weight times the best pass-test chance among its candidates, and the
/// side whose players pass 6 points worse values the ball less on average. With the revision's lead on
/// passing, the better passers' value is scaled up (× more than 1) and the worse passers' down.
#[test]
fn a_better_passer_values_the_ball_more() {
    let w = weight();
    let (good, poor) = (club(REFERENCE), worse_passers(6));
    let play = |rules: Arc<Rules>| {
        let options = Options { retention: Some(100_000), ..Default::default() };
        let mut m = Match::new(rules, &good, &poor, 3, options).unwrap();
        m.run().unwrap();
        assert_eq!(m.decisions().dropped(), 0);
        // Per side: (Σ value, Σ weight × K, decisions).
        let mut sums = [(0.0, 0.0, 0usize); 2];
        for d in m.decisions().decisions() {
            let pv = d.possession_value.unwrap_or_else(|| panic!("round {}: no value logged", d.round));
            let k = d
                .candidate_actions
                .iter()
                .filter(|c| c.kind == "pass" || c.kind == "throw")
                .map(|c| c.success_probability)
                .fold(0.0, f64::max);
            let side = usize::from(d.club_id.as_ref() == "worse_passers");
            sums[side] = (sums[side].0 + pv, sums[side].1 + w * k, sums[side].2 + 1);
        }
        assert!(sums[0].2 > 100 && sums[1].2 > 100, "{sums:?}");
        sums
    };
    let no_lead = play(rules_with("0.6.20", |npc| {
        npc["possession_value"].as_object_mut().unwrap().remove("lead");
    }));
    for (side, s) in no_lead.iter().enumerate() {
        assert!((s.0 - s.1).abs() < 1e-9 * s.2 as f64, "side {side}: Σ value {} v Σ weight × K {}", s.0, s.1);
    }
    let mean = |s: (f64, f64, usize)| s.0 / s.2 as f64;
    assert!(mean(no_lead[0]) > mean(no_lead[1]), "good passers {} v poor {}", mean(no_lead[0]), mean(no_lead[1]));

    let lead = play(rules("0.6.20"));
    assert!(lead[0].0 > lead[0].1 * 1.2, "the better passers' value is scaled up: {:?}", lead[0]);
    assert!(lead[1].0 < lead[1].1 * 0.8, "the worse passers' value is scaled down: {:?}", lead[1]);
}
