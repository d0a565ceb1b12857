//! The NPC's invariants (document §33) on constructed situations: a dangerous chance near goal
//! prefers finishing; a speculative long shot loses value; an easy short pass beats an equivalent
//! harder one; a free carrier advances instead of recycling sideways for ever.

use crate::common;
use common::*;
use microfut::engine::geometry::V2;
use microfut::engine::{Candidate, Kind, Match, Options, Step, Target};

/// A match with every player moved out of the way — along the touchlines of the home half — so
/// each test places only the players it is about. The away side keeps goal with an ordinary
/// keeper (12 across the board): against an elite one a chance is, rightly, less dangerous.
fn empty_scene() -> Match {
    let rules = engine_rules();
    let mut away = fixture_club("test_away");
    for s in away.squad.iter_mut().filter(|s| s.role == "goalkeeper") {
        for k in ["goalkeeping", "positioning"] {
            s.skills.insert(k.into(), 12);
        }
        for a in ["dx", "iq"] {
            s.attributes.insert(a.into(), 12);
        }
    }
    let mut m = Match::new(rules, &fixture_club("test_home"), &away, 1, Options::default()).unwrap();
    clear_the_pitch(&mut m);
    m
}

fn best(c: &[Candidate]) -> &Candidate {
    &c[0]
}

fn find(c: &[Candidate], kind: Kind) -> Option<&Candidate> {
    c.iter().find(|x| x.kind == kind)
}

#[test]
fn a_dangerous_chance_near_goal_prefers_finishing() {
    let mut m = empty_scene();
    let striker = m.player_in_slot(0, 9).unwrap();
    let mate = m.player_in_slot(0, 10).unwrap();
    m.place(striker, V2::new(95.0, 34.0), V2::new(1.0, 0.0));
    m.place(mate, V2::new(93.0, 44.0), V2::new(1.0, 0.0));
    m.give_ball(striker);
    let c = m.scored_candidates();
    assert_eq!(best(&c).kind, Kind::Shoot, "{:#?}", &c[..3]);
}

#[test]
fn a_speculative_long_shot_loses_value() {
    let rules = engine_rules();
    let longest = rules.params.shot_max_distance - 0.5;
    let shot_at = |distance: f64| {
        let mut m = empty_scene();
        let carrier = m.player_in_slot(0, 6).unwrap();
        let mate = m.player_in_slot(0, 9).unwrap();
        m.place(carrier, V2::new(105.0 - distance, 34.0), V2::new(1.0, 0.0));
        // The keeper well placed for each shot (on the ball–goal line at the content's depth), so
        // only the distance changes.
        let depth =
            (rules.params.gk_depth + rules.params.gk_depth_per_ball_metre * distance).min(rules.params.gk_max_depth);
        let keeper = m.player_in_slot(1, 0).unwrap();
        m.place(keeper, V2::new(105.0 - depth, 34.0), V2::new(-1.0, 0.0));
        m.place(mate, V2::new(105.0 - distance + 8.0, 44.0), V2::new(1.0, 0.0));
        m.give_ball(carrier);
        let c = m.scored_candidates();
        (find(&c, Kind::Shoot).cloned().expect("a shot within the content's range is a candidate"), best(&c).clone())
    };
    // Speculative: from the longest range, with a defender closing in front.
    let (long, chosen) = {
        let mut m = empty_scene();
        let carrier = m.player_in_slot(0, 6).unwrap();
        let mate = m.player_in_slot(0, 9).unwrap();
        let defender = m.player_in_slot(1, 3).unwrap();
        m.place(carrier, V2::new(105.0 - longest, 34.0), V2::new(1.0, 0.0));
        m.place(mate, V2::new(105.0 - longest + 8.0, 44.0), V2::new(1.0, 0.0));
        m.place(defender, V2::new(105.0 - longest + 2.5, 34.0), V2::new(-1.0, 0.0));
        m.give_ball(carrier);
        let c = m.scored_candidates();
        (find(&c, Kind::Shoot).cloned().expect("a shot within range is a candidate"), best(&c).clone())
    };
    assert_ne!(chosen.kind, Kind::Shoot, "a contested shot from {longest} m is not taken");
    assert!(long.score < chosen.score);
    // The same shot never gains value as it gets longer (the content's tables are steps), and
    // from the longest range it is worth clearly less than from close in.
    let scores: Vec<f64> = [8.0, 10.0, 14.0, 18.0, 22.0, longest]
        .iter()
        .map(|&d| {
            let s = shot_at(d).0;
            s.score - s.noise
        })
        .collect();
    for w in scores.windows(2) {
        assert!(w[1] <= w[0] + 1e-12, "{scores:?}");
    }
    assert!(scores[scores.len() - 1] < scores[0] - 0.3, "{scores:?}");
}

#[test]
fn an_easy_short_pass_beats_an_equivalent_harder_one() {
    let mut m = empty_scene();
    let carrier = m.player_in_slot(0, 6).unwrap();
    let (a, b) = (m.player_in_slot(0, 7).unwrap(), m.player_in_slot(0, 5).unwrap());
    m.place(carrier, V2::new(50.0, 34.0), V2::new(1.0, 0.0));
    // Two team-mates at mirror-image spots: same progress, same threat.
    m.place(a, V2::new(60.0, 44.0), V2::new(1.0, 0.0));
    m.place(b, V2::new(60.0, 24.0), V2::new(1.0, 0.0));
    // An opponent stands by the lane to b.
    let marker = m.player_in_slot(1, 6).unwrap();
    m.place(marker, V2::new(55.5, 28.0), V2::new(-1.0, 0.0));
    m.give_ball(carrier);
    let c = m.scored_candidates();
    let shirt = |p: usize| m.state().players[p].shirt;
    let pass_to = |p: usize| c.iter().find(|x| x.kind == Kind::Pass && x.target == Target::Player(shirt(p))).unwrap();
    let (easy, hard) = (pass_to(a), pass_to(b));
    assert!((easy.progression - hard.progression).abs() < 1e-9 && (easy.threat - hard.threat).abs() < 1e-9);
    assert!(easy.success > hard.success, "{} vs {}", easy.success, hard.success);
    assert!(easy.score > hard.score);
}

#[test]
fn a_free_carrier_advances_instead_of_recycling_sideways() {
    let mut m = empty_scene();
    let carrier = m.player_in_slot(0, 6).unwrap();
    let (l, r) = (m.player_in_slot(0, 5).unwrap(), m.player_in_slot(0, 7).unwrap());
    m.place(carrier, V2::new(35.0, 34.0), V2::new(1.0, 0.0));
    m.place(l, V2::new(35.0, 22.0), V2::new(1.0, 0.0));
    m.place(r, V2::new(35.0, 46.0), V2::new(1.0, 0.0));
    m.give_ball(carrier);
    let c = m.scored_candidates();
    let chosen = best(&c);
    assert!(chosen.progression > 0.0, "{chosen:#?}");
    assert!(matches!(chosen.kind, Kind::Carry | Kind::Pass));
    // Left to play, the side keeps moving the ball forward.
    let start = m.state().ball.x;
    for _ in 0..6 {
        assert_eq!(m.step(), Step::Round);
    }
    assert!(m.state().ball.x > start + 15.0, "ball went from {start} to {}", m.state().ball.x);
}

#[test]
fn reading_candidates_never_draws_dice() {
    let mut m = empty_scene();
    let carrier = m.player_in_slot(0, 6).unwrap();
    m.place(carrier, V2::new(60.0, 30.0), V2::new(1.0, 0.0));
    m.give_ball(carrier);
    let draws = m.dice_draws();
    let before = m.state().hash(draws);
    let a = m.scored_candidates();
    let b = m.scored_candidates();
    assert_eq!(a.len(), b.len());
    for (x, y) in a.iter().zip(&b) {
        assert_eq!(x.score, y.score);
    }
    // No die was drawn; positions, stamina and the ball are untouched (context slots are scratch).
    assert_eq!(m.dice_draws(), draws, "reading candidates drew dice");
    assert_eq!(m.state().hash(m.dice_draws()), before);
}
