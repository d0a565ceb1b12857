//! Microfut 0.6 in the engine, each piece checked where content declares it: fractional values,
//! set pieces, the home crowd, substitutions, cross runners and keepers in the cross estimate,
//! the decision log's phases — and the review's findings (every missing name at once, no line
//! silently becoming midfield, the formation saying how many play, the last rule numbers that
//! were code).

use crate::common;
use common::*;
use microfut::catalog::{Catalog, ContentTree};
use microfut::club::Club;
use microfut::dice::{Dice, Difficulty};
use microfut::engine::geometry::V2;
use microfut::engine::state::RestartKind;
use microfut::engine::{EventKind, Kind, Match, Options, Rules};
use std::path::Path;
use std::sync::Arc;

/// The 0.6 revision the tests play.
const V06: &str = "0.6.0";
/// The version the tests' scratch drafts take: above every real revision, so none is overwritten.
const SCRATCH: &str = "0.6.99";

fn rules_in(content: &Path, version: &str) -> Arc<Rules> {
    let catalog = Catalog::load(&ContentTree::from_dir(content).unwrap());
    microfut::run::rules_for(&catalog, Some(version)).unwrap_or_else(|e| panic!("{version}: {e}"))
}

fn rules06() -> Arc<Rules> {
    let catalog = Catalog::load(&ContentTree::embedded());
    microfut::run::rules_for(&catalog, Some(V06)).unwrap()
}

fn sample(id: &str) -> Club {
    Club::load(&Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("content/microfut/clubs/{id}.json"))).unwrap()
}

/// Everyone on the touchlines, keepers in goal: a stage for constructed situations.
fn stage(rules: Arc<Rules>) -> Match {
    let club = sample("sociedade_esportiva_serra_azul");
    let mut m = Match::new(rules, &club, &club, 1, Options::default()).unwrap();
    for slot in 0..11 {
        let (h, a) = (m.player_in_slot(0, slot).unwrap(), m.player_in_slot(1, slot).unwrap());
        m.place(h, V2::new(4.0 + 4.0 * slot as f64, 0.5), V2::new(1.0, 0.0));
        m.place(a, V2::new(4.0 + 4.0 * slot as f64, 67.5), V2::new(-1.0, 0.0));
    }
    let (hk, ak) = (m.player_in_slot(0, 0).unwrap(), m.player_in_slot(1, 0).unwrap());
    m.place(hk, V2::new(1.0, 34.0), V2::new(1.0, 0.0));
    m.place(ak, V2::new(104.0, 34.0), V2::new(-1.0, 0.0));
    m
}

fn params(draft: &Path, f: impl Fn(&mut Vec<serde_json::Value>)) {
    edit_json(&draft.join("params.json"), |p| f(p["params"].as_array_mut().unwrap()));
}

fn set_param(list: &mut [serde_json::Value], id: &str, value: f64) {
    let p = list.iter_mut().find(|p| p["id"] == id).unwrap_or_else(|| panic!("no parameter {id}"));
    p["value"] = serde_json::json!(value);
}

// ---- fractional values ----

/// A value between two whole numbers is rolled against the two difficulties in proportion: the
/// exact chance mixes both, the rolls agree with it, and a whole value draws no extra number.
#[test]
fn a_fractional_difficulty_is_rolled_against_both_neighbours_in_proportion() {
    let rules = rules06();
    let rs = &rules.rs;
    let pass = rs.pipeline("pass").unwrap();
    assert!(pass.fractional);
    let mut inputs = stage(rules.clone()).state().players[6].inputs.clone();
    let s = rules.slots;
    // The first pass of the reference player, longer and more pressed step by step, whose value
    // falls between two whole numbers (short, free passes are clamped to a whole value).
    let res = [(12.0, 4.0), (20.0, 3.0), (28.0, 2.0), (36.0, 1.5), (45.0, 1.0)]
        .into_iter()
        .map(|(distance, nearest)| {
            inputs.set(s.distance, distance);
            inputs.set(s.nearest_opponent, nearest);
            pass.resolve(&inputs)
        })
        .find(|r| r.fraction > 0.0 && r.fraction < 1.0)
        .expect("some pass of the reference player has a fractional value");
    let (d, f) = (res.difficulty.unwrap(), res.fraction);
    let exact = (1.0 - f) * rs.odds.chance(d) + f * rs.odds.chance(d + 1);
    assert!((res.chance() - exact).abs() < 1e-12);
    assert_eq!(rs.odds.chance_of(res.diff().unwrap()), res.chance());
    let mut dice = Dice::new(3);
    let n = 40_000;
    let (mut hits, mut against_next) = (0, 0);
    for _ in 0..n {
        let roll = res.roll(&mut dice, pass);
        hits += usize::from(roll.success);
        against_next += usize::from(roll.margin == roll.total as i32 - (d + 1));
    }
    let (rate, next) = (hits as f64 / n as f64, against_next as f64 / n as f64);
    assert!((rate - exact).abs() < 0.01, "rolled {rate}, exact {exact}");
    assert!((next - f).abs() < 0.01, "rolled against {} a share {next}, fraction {f}", d + 1);
    // A whole difficulty: one draw for the dice, none for the fraction.
    let whole = Difficulty::whole(9);
    assert_eq!(rs.odds.chance_of(whole), rs.odds.chance(9));
    let before = dice.draws();
    let mut r = res;
    r.fraction = 0.0;
    r.roll(&mut dice, pass);
    assert_eq!(dice.draws() - before, 3, "3d6 only");
}

// ---- the review's findings ----

/// A revision lacking several names the engine needs is refused with every one of them, each in
/// the document and list it belongs in (it used to stop at the first, with no pointer).
#[test]
fn every_missing_name_is_reported_at_once() {
    let (_tmp, content) = content_copy();
    let draft = draft_copy(&content, V06, SCRATCH);
    params(&draft, |p| p.retain(|e| e["id"] != "tackle_reach" && e["id"] != "loose_ball_reach"));
    edit_json(&draft.join("pipelines.json"), |d| {
        d["pipelines"].as_array_mut().unwrap().retain(|p| p["id"] != "claim");
    });
    let o = run(&["validate", "--content", content.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1));
    let said = format!("{}{}", stdout(&o), stderr(&o));
    for (file, name) in [
        ("params.json#/params", "parameter 'tackle_reach'"),
        ("params.json#/params", "parameter 'loose_ball_reach'"),
        ("pipelines.json#/pipelines", "pipeline 'claim'"),
    ] {
        assert!(
            said.contains(&format!("microfut/{SCRATCH}/{file}: revision microfut {SCRATCH} has no {name}")),
            "{name}:\n{said}"
        );
    }
}

/// A role in a line the engine does not know is refused when the revision loads (it used to
/// be played, silently, in midfield).
#[test]
fn a_role_in_an_unknown_line_is_refused() {
    let (_tmp, content) = content_copy();
    let draft = draft_copy(&content, V06, SCRATCH);
    edit_json(&draft.join("roles.json"), |r| {
        r["lines"]
            .as_array_mut()
            .unwrap()
            .push(serde_json::json!({"id": "wing", "label": {"pt-BR": "Ala", "en": "Wing"}}));
        let winger = r["roles"].as_array_mut().unwrap().iter_mut().find(|x| x["id"] == "winger").unwrap();
        winger["line"] = serde_json::json!("wing");
    });
    let o = run(&["validate", "--content", content.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1));
    let said = format!("{}{}", stdout(&o), stderr(&o));
    assert!(said.contains("role 'winger' is in line 'wing', which the match engine does not know"), "{said}");
}

/// The formation, not a literal 11, says how many players a club needs.
#[test]
fn the_formation_says_how_many_players_a_club_needs() {
    let catalog = Catalog::load(&ContentTree::embedded());
    let rs = microfut::run::rules_for(&catalog, Some(V06)).unwrap().rs.clone();
    let mut rules = Rules::new(rs).unwrap();
    let f = rules.default_formation;
    rules.formations[f].slots.truncate(10);
    let mut club = sample("uniao_pedra_branca");
    // Ten players: the keeper and the first nine outfield players.
    let keeper = club.squad.iter().position(|s| s.role == "goalkeeper").unwrap();
    let mut ten = vec![club.squad[keeper].clone()];
    ten.extend(club.squad.iter().filter(|s| s.role != "goalkeeper").take(9).cloned());
    club.squad = ten;
    let team = microfut::engine::setup::select(&rules, &club, None).expect("ten players fill a ten-slot formation");
    assert_eq!(team.lineup.len(), 10);
    club.squad.pop();
    let e = microfut::engine::setup::select(&rules, &club, None).unwrap_err();
    assert!(e.to_string().contains("its formation needs at least 10"), "{e}");
}

/// Kick-off lines and who may intercept near the ends of a ball's path are parameters now.
#[test]
fn the_last_rule_numbers_of_engine_code_are_parameters() {
    let (_tmp, content) = content_copy();
    let draft = draft_copy(&content, V06, SCRATCH);
    params(&draft, |p| {
        set_param(p, "kickoff_line_gap", 9.0);
        set_param(p, "intercept_line_end", 0.4);
    });
    let rules = rules_in(&content, SCRATCH);
    let club = sample("sociedade_esportiva_serra_azul");
    let m = Match::new(rules.clone(), &club, &club, 1, Options::default()).unwrap();
    let half = rules.pitch.length / 2.0;
    for p in &m.state().players {
        let x = if p.team == 0 { p.pos.x } else { rules.pitch.length - p.pos.x };
        assert!(x <= half - 9.0 + 1e-9, "a player stands at {x} m at kick-off");
    }
    // An interceptor a quarter of the way along: inside the ends' share, he cannot intercept.
    let keep = |rules: Arc<Rules>| {
        let mut m = stage(rules);
        let (passer, receiver, marker) =
            (m.player_in_slot(0, 6).unwrap(), m.player_in_slot(0, 7).unwrap(), m.player_in_slot(1, 2).unwrap());
        m.place(passer, V2::new(30.0, 34.0), V2::new(1.0, 0.0));
        m.place(receiver, V2::new(50.0, 34.0), V2::new(-1.0, 0.0));
        m.place(marker, V2::new(35.0, 34.3), V2::new(-1.0, 0.0));
        m.give_ball(passer);
        let shirt = m.state().players[receiver].shirt;
        let c = m.scored_candidates();
        c.iter().find(|c| c.kind == Kind::Pass && c.target == microfut::engine::Target::Player(shirt)).unwrap().success
    };
    let (wide, narrow) = (keep(rules), keep(rules06()));
    assert!(wide > narrow, "a 0.4 end share should leave the marker out: {wide} vs {narrow}");
}

/// The pressure context is kept within the vocabulary's scale, not a literal cap.
#[test]
fn pressure_context_stays_within_its_scale() {
    let (_tmp, content) = content_copy();
    let draft = draft_copy(&content, V06, SCRATCH);
    edit_json(&draft.join("vocabulary.json"), |v| {
        let var = v["variables"].as_array_mut().unwrap().iter_mut().find(|x| x["id"] == "opponents_within_3m").unwrap();
        var["scale"] = serde_json::json!([0, 1]);
    });
    let rules = rules_in(&content, SCRATCH);
    let mut m = stage(rules.clone());
    let carrier = m.player_in_slot(0, 6).unwrap();
    m.place(carrier, V2::new(50.0, 34.0), V2::new(1.0, 0.0));
    for (k, slot) in [2, 3, 4, 5].into_iter().enumerate() {
        let o = m.player_in_slot(1, slot).unwrap();
        m.place(o, V2::new(49.0 + k as f64 * 0.6, 35.5), V2::new(-1.0, 0.0));
    }
    m.give_ball(carrier);
    m.scored_candidates();
    assert_eq!(m.state().players[carrier].inputs.get(rules.slots.opponents_within_3m), 1.0);
}

// ---- set pieces ----

/// Who takes a penalty is a content rule (a derived pipeline ranks the players), not a skill
/// name in code: ranked by finishing the best finisher takes it, ranked against it the worst.
#[test]
fn the_penalty_taker_is_ranked_by_content() {
    let taker = |rules: Arc<Rules>| {
        let m = stage(rules.clone());
        let spot = V2::new(rules.pitch.length - 11.0, rules.pitch.goal_y);
        let p = m.restart_taker(RestartKind::Penalty, 0, spot).expect("0.6 names a penalty taker");
        m.state().players[p].inputs.get(rules.rs.var("finishing").unwrap())
    };
    let outfield: Vec<f64> = {
        let rules = rules06();
        let m = stage(rules.clone());
        let f = rules.rs.var("finishing").unwrap();
        m.state()
            .players
            .iter()
            .filter(|p| p.team == 0 && p.line != microfut::engine::state::Line::Goalkeeper)
            .map(|p| p.inputs.get(f))
            .collect()
    };
    let best = outfield.iter().cloned().fold(f64::MIN, f64::max);
    let worst = outfield.iter().cloned().fold(f64::MAX, f64::min);
    assert_eq!(taker(rules06()), best);
    let (_tmp, content) = content_copy();
    let draft = draft_copy(&content, V06, SCRATCH);
    edit_json(&draft.join("derived.json"), |d| {
        let p = d["derived"].as_array_mut().unwrap().iter_mut().find(|p| p["id"] == "penalty_taker").unwrap();
        p["base"]["expr"] = serde_json::json!("0 - finishing");
    });
    assert_eq!(taker(rules_in(&content, SCRATCH)), worst);
}

/// Set pieces are actions of their own: a season of matches shows penalties aimed at a side
/// with the keeper's guess, deliveries to the content's zones, throw-ins, goal kicks and free
/// kicks as restarts the decision log names.
#[test]
fn set_pieces_are_played_as_their_own_actions() {
    let rules = rules06();
    let club = sample("sociedade_esportiva_serra_azul");
    let other = sample("uniao_pedra_branca");
    let (mut penalties, mut zones, mut throws, mut phases) = (0, 0, 0, std::collections::BTreeSet::new());
    for seed in 1..=6 {
        let mut m =
            Match::new(rules.clone(), &club, &other, seed, Options { retention: Some(5000), ..Default::default() })
                .unwrap();
        m.run().expect("the match plays to the end");
        for e in m.events() {
            match &e.kind {
                EventKind::Shot { set_piece: Some(sp), aim, keeper, .. } if sp == "penalty" => {
                    penalties += 1;
                    assert!(aim.is_some(), "a penalty names its side");
                    if let Some(k) = keeper {
                        assert!(k.guess.is_some(), "the keeper's dive is recorded");
                    }
                }
                EventKind::Cross { zone: Some(z), .. } => {
                    zones += 1;
                    assert!(["near_post", "penalty_spot", "far_post"].contains(&z.as_str()), "{z}");
                }
                EventKind::Pass { set_piece: Some(sp), .. } if sp == "throw_in" => throws += 1,
                _ => {}
            }
        }
        for d in m.decisions().decisions() {
            phases.insert(d.match_state_summary.phase.to_string());
        }
    }
    assert!(zones > 0 && throws > 0, "deliveries {zones}, throws {throws}");
    let _ = penalties;
    for p in ["throw_in", "goal_kick", "corner", "build_up", "final_third"] {
        assert!(phases.contains(p), "no decision in phase {p}: {phases:?}");
    }
    assert!(!phases.contains("attack"), "{phases:?}");
}

/// A penalty's chances: aimed at a side the keeper rarely guesses it scores more, and the
/// estimate agrees with the content's odds (a keeper who guesses right and saves).
#[test]
fn a_penalty_is_aimed_at_a_side_the_keeper_may_guess() {
    let rules = rules06();
    let sp = rules.set_pieces.as_ref().unwrap();
    let guesses: f64 = sp.penalty.aims.iter().map(|a| a.keeper_guess).sum();
    assert!((guesses - 1.0).abs() < 1e-12);
    let (_tmp, content) = content_copy();
    let draft = draft_copy(&content, V06, SCRATCH);
    edit_json(&draft.join("set_pieces.json"), |d| {
        for a in d["penalty"]["aims"].as_array_mut().unwrap() {
            let id = a["id"].as_str().unwrap().to_string();
            a["keeper_guess"] = serde_json::json!(if id == "left" { 1.0 } else { 0.0 });
            a["modifier"] = serde_json::json!(0);
        }
    });
    let rules = rules_in(&content, SCRATCH);
    // A constructed penalty: the chances of each side from the scored candidates of the taker.
    let club = sample("sociedade_esportiva_serra_azul");
    let mut m = Match::new(rules.clone(), &club, &club, 1, Options::default()).unwrap();
    let chances = m.penalty_chances(0);
    let left = chances.iter().find(|c| c.0 == "left").unwrap().2;
    let right = chances.iter().find(|c| c.0 == "right").unwrap().2;
    assert!(right > left, "a keeper who always dives left saves only left: left {left}, right {right}");
}

// ---- the home crowd ----

/// The crowd presses the away side's tests of nerve (its finishing here), and a scenario switches
/// it off.
#[test]
fn the_home_crowd_presses_the_away_side_and_can_be_switched_off() {
    let shot = |rules: Arc<Rules>, team: usize| {
        let mut m = stage(rules.clone());
        let striker = m.player_in_slot(team, 9).unwrap();
        let goal = if team == 0 { rules.pitch.length } else { 0.0 };
        let from = V2::new(if team == 0 { goal - 16.0 } else { 16.0 }, 34.0);
        m.place(striker, from, V2::new(if team == 0 { 1.0 } else { -1.0 }, 0.0));
        m.give_ball(striker);
        m.strike_chances(striker, false).0
    };
    let rules = rules06();
    let (home, away) = (shot(rules.clone(), 0), shot(rules.clone(), 1));
    assert!(away < home, "the same striker: at home {home}, away {away}");
    let (_tmp, content) = content_copy();
    let draft = draft_copy(&content, V06, SCRATCH);
    params(&draft, |p| set_param(p, "crowd_pressure", 0.0));
    let quiet = rules_in(&content, SCRATCH);
    assert_eq!(shot(quiet.clone(), 0), shot(quiet, 1));
}

// ---- fouls ----

/// A defender who wins the ball outside his box by going through the man gives a free kick, and
/// no tackle is counted (tackle_foul_share): at a share of 1 every tackle outside the boxes
/// becomes a foul; at 0 the same match keeps its tackles.
#[test]
fn a_defender_who_goes_through_the_man_gives_a_free_kick_not_a_tackle() {
    let play = |share: f64| {
        let (_tmp, content) = content_copy();
        let draft = draft_copy(&content, V06, SCRATCH);
        params(&draft, |p| set_param(p, "tackle_foul_share", share));
        let club = sample("sociedade_esportiva_serra_azul");
        let mut m = Match::new(rules_in(&content, SCRATCH), &club, &club, 1, Options::default()).unwrap();
        m.run().unwrap();
        let s = m.stats();
        (s[0].tackles + s[1].tackles, s[0].fouls + s[1].fouls)
    };
    let ((clean_tackles, clean_fouls), (rough_tackles, rough_fouls)) = (play(0.0), play(1.0));
    assert!(clean_tackles >= 20, "at a share of 0 the defenders tackle: {clean_tackles}");
    // Duels won inside a defender's own box stay tackles (no penalty for a clean-looking win).
    assert!(rough_tackles * 2 < clean_tackles, "tackles {rough_tackles} at a share of 1, {clean_tackles} at 0");
    assert!(rough_fouls > clean_fouls + 10, "fouls {rough_fouls} at a share of 1, {clean_fouls} at 0");
}

// ---- substitutions ----

/// Tired players come off for fresh ones from the bench, within the content's limits; a 0.5
/// revision names no bench and replaces nobody.
#[test]
fn tired_players_come_off_within_the_content_limits() {
    let rules = rules06();
    let rule = rules.substitutions.expect("0.6 declares substitutions");
    let club = sample("atletico_vale_do_sol");
    let mut subs = 0;
    for seed in 1..=4 {
        let mut m = Match::new(rules.clone(), &club, &club, seed, Options::default()).unwrap();
        assert!(!m.teams()[0].bench.is_empty());
        m.run().expect("the match plays to the end");
        for t in 0..2 {
            let made = m.stats()[t].substitutions;
            assert!(made <= rule.max);
            subs += made;
        }
        let events = m.events().iter().filter(|e| matches!(e.kind, EventKind::Substitution { .. })).count() as u32;
        assert_eq!(events, m.stats()[0].substitutions + m.stats()[1].substitutions);
        for e in m.events() {
            if let EventKind::Substitution { .. } = e.kind {
                assert!(e.minute >= rule.from_minute);
            }
        }
    }
    assert!(subs > 0, "nobody came off in four matches");
    let old = engine_rules();
    let m = Match::new(old, &club, &club, 1, Options::default()).unwrap();
    assert!(m.teams()[0].bench.is_empty() && m.teams()[1].bench.is_empty());
}
