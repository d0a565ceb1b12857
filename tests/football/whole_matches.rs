//! Whole matches: determinism, replay, human intents, the decision log and bad input.

use crate::common;
use common::*;
use microfut::catalog::{Catalog, ContentTree};
use microfut::engine::{Intent, Kind, Match, Options, Step};
use microfut::run::{Replay, RunRecord, replay};

fn play(seed: u64) -> Match {
    let mut m =
        Match::new(engine_rules(), &fixture_club("test_home"), &fixture_club("test_away"), seed, Options::default())
            .unwrap();
    m.run().unwrap();
    m
}

#[test]
fn a_match_is_ninety_minutes_of_rounds_with_a_result() {
    let m = play(11);
    let rules = engine_rules();
    assert!(m.finished());
    let rounds = m.round_hashes().len() as f64;
    let full = rules.clock.halves as f64 * rules.clock.half_seconds / rules.clock.round_seconds;
    assert!(rounds > 0.6 * full && rounds <= full + 2.0, "{rounds} rounds of {full}");
    let s = m.stats();
    for (t, st) in s.iter().enumerate() {
        assert_eq!(st.goals, m.score()[t]);
        assert!(st.on_target <= st.shots && st.passes_completed <= st.passes);
        assert!(st.goals <= st.on_target);
        assert!((0.0..=100.0).contains(&st.mean_stamina));
    }
    assert!((s[0].possession + s[1].possession - 100.0).abs() < 1e-9);
    let kinds: Vec<&str> = m
        .events()
        .iter()
        .map(|e| serde_json::to_value(e).unwrap()["kind"].as_str().unwrap().to_string())
        .map(|k| match k.as_str() {
            "half_time" => "half_time",
            "full_time" => "full_time",
            _ => "other",
        })
        .collect();
    assert!(kinds.contains(&"half_time") && kinds.last() == Some(&"full_time"));
}

#[test]
fn the_same_seed_reproduces_the_same_match() {
    let (a, b) = (play(5), play(5));
    assert_eq!(a.round_hashes(), b.round_hashes());
    assert_eq!(a.events(), b.events());
    assert_ne!(a.round_hashes(), play(6).round_hashes());
}

#[test]
fn a_recorded_run_replays_identically_and_a_changed_one_is_caught() {
    let rules = engine_rules();
    let m = play(21);
    let record = RunRecord::of(&m, &rules, [None, None], None);
    let text = serde_json::to_vec(&record).unwrap();
    let parsed = RunRecord::parse(&text).unwrap();
    assert_eq!(replay(rules.clone(), &parsed).unwrap(), Replay::Identical { rounds: m.round_hashes().len() });
    let mut changed = parsed.clone();
    changed.round_hashes[100] = "0000000000000000".into();
    // One recorded hash edited, every later one agreeing: the record, not the match, changed.
    match replay(rules.clone(), &changed).unwrap() {
        Replay::RecordEdited { part: "round_hashes", at } => assert!(at.starts_with("round 100:"), "{at}"),
        other => panic!("{other:?}"),
    }
    // Two edited rounds that disagree from the first on are a divergence, found at the first.
    for r in 100..changed.round_hashes.len() {
        changed.round_hashes[r] = "0000000000000000".into();
    }
    assert!(matches!(replay(rules.clone(), &changed).unwrap(), Replay::Differs { round: 100, .. }));
    let mut reseeded = parsed.clone();
    reseeded.seed += 1;
    assert!(matches!(replay(rules.clone(), &reseeded).unwrap(), Replay::Differs { .. }));

    // The hashes agree but the record's account of the match was edited: caught, and located.
    let mut score = parsed.clone();
    score.score[0] += 1;
    assert!(matches!(replay(rules.clone(), &score).unwrap(), Replay::RecordEdited { part: "score", .. }));
    let mut stats = parsed.clone();
    stats.stats[1].passes += 1;
    assert!(matches!(replay(rules.clone(), &stats).unwrap(), Replay::RecordEdited { part: "stats", .. }));
    let mut events = parsed.clone();
    events.events[17].minute += 1.0;
    match replay(rules.clone(), &events).unwrap() {
        Replay::RecordEdited { part: "events", at } => assert!(at.starts_with("event 17 "), "{at}"),
        other => panic!("{other:?}"),
    }
    let mut shorter = parsed;
    shorter.events.pop();
    assert!(matches!(replay(rules, &shorter).unwrap(), Replay::RecordEdited { part: "events", .. }));
}

/// Plays with the home side human, declaring the first candidate of the given kind when there is
/// one (else the first candidate), for `decisions` decisions; then lets the NPC finish.
fn play_human(seed: u64, kind: Kind, decisions: usize) -> Match {
    let mut m = Match::new(
        engine_rules(),
        &fixture_club("test_home"),
        &fixture_club("test_away"),
        seed,
        Options { human: Some(0), ..Default::default() },
    )
    .unwrap();
    let mut made = 0;
    loop {
        match m.step() {
            Step::Finished => break,
            Step::Faulted => panic!("{:?}", m.fault()),
            Step::Round => {}
            Step::Decision if made < decisions => {
                let c = m.candidates().unwrap();
                let pick = c.iter().find(|c| c.kind == kind).unwrap_or(&c[0]).intent();
                m.decide(&pick).unwrap();
                made += 1;
            }
            Step::Decision => m.decide_npc().unwrap(),
        }
    }
    m
}

#[test]
fn human_intents_are_taken_recorded_and_replayed() {
    let m = play_human(3, Kind::Pass, 25);
    assert_eq!(m.intents().len(), 25);
    let rules = engine_rules();
    let record = RunRecord::of(&m, &rules, [None, None], Some(0));
    assert_eq!(record.human.as_deref(), Some("home"));
    assert_eq!(replay(rules, &record).unwrap(), Replay::Identical { rounds: m.round_hashes().len() });
    // Different intents make a different match.
    assert_ne!(play_human(3, Kind::Carry, 25).round_hashes(), m.round_hashes());
    // A recorded intent the match does not offer is reported as such, at its round.
    let mut edited = record.clone();
    let round = edited.intents[0].round;
    edited.intents[0].intent = Intent { kind: Kind::Pass, target: Some(99), zone: None };
    match replay(engine_rules(), &edited).unwrap() {
        Replay::IntentRefused { round: r, intent, reason } => {
            assert_eq!((r, intent.as_str()), (round, "pass #99"));
            assert!(reason.contains("not among the candidates"), "{reason}");
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn an_intent_that_is_not_a_candidate_is_refused_and_changes_nothing() {
    let mut m = Match::new(
        engine_rules(),
        &fixture_club("test_home"),
        &fixture_club("test_away"),
        9,
        Options { human: Some(0), ..Default::default() },
    )
    .unwrap();
    while m.step() != Step::Decision {}
    let before = (m.state().hash(0), m.round_hashes().len(), m.candidates().unwrap().len());
    let bogus = Intent { kind: Kind::Pass, target: Some(99), zone: None };
    let err = m.decide(&bogus).unwrap_err().to_string();
    assert!(err.contains("pass #99 is not among the candidates"), "{err}");
    assert_eq!((m.state().hash(0), m.round_hashes().len(), m.candidates().unwrap().len()), before);
    assert_eq!(m.step(), Step::Decision, "still waiting for a valid intent");
    let ok = m.candidates().unwrap()[0].intent();
    m.decide(&ok).unwrap();
    assert_eq!(m.intents().len(), 1);
}

#[test]
fn human_candidates_carry_exact_probabilities_and_explanations() {
    let mut m = Match::new(
        engine_rules(),
        &fixture_club("test_home"),
        &fixture_club("test_away"),
        4,
        Options { human: Some(0), ..Default::default() },
    )
    .unwrap();
    while m.step() != Step::Decision {}
    let c = m.candidates().unwrap().to_vec();
    assert!(!c.is_empty());
    for (i, cand) in c.iter().enumerate() {
        assert!((0.0..=1.0).contains(&cand.probability));
        assert!(cand.explain().contains('%'));
        // Probabilities are multiples of 1/216 for a single 3d6 test.
        if cand.kind == Kind::Pass {
            let n = cand.probability * 216.0;
            assert!((n - n.round()).abs() < 1e-9, "{n}");
            assert!(m.explain_candidate(i).unwrap().contributions.iter().any(|x| x.stage == "mod_pass_distance"));
        }
    }
}

#[test]
fn the_decision_log_keeps_what_retention_allows_and_counts_the_rest() {
    let mut m = Match::new(
        engine_rules(),
        &fixture_club("test_home"),
        &fixture_club("test_away"),
        2,
        Options { retention: Some(50), ..Default::default() },
    )
    .unwrap();
    m.run().unwrap();
    let log = m.decisions();
    assert_eq!(log.len(), 50);
    assert!(log.dropped() > 100);
    let d: Vec<_> = log.decisions().collect();
    assert!(d.windows(2).all(|w| w[0].round < w[1].round));
    let first = serde_json::to_value(d[0]).unwrap();
    for key in [
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
    ] {
        assert!(first.get(key).is_some(), "decision log lacks {key}");
    }
    let cand = &first["candidate_actions"][0];
    for key in [
        "kind",
        "target",
        "success_probability",
        "progression",
        "threat",
        "turnover_risk",
        "personality_modifier",
        "match_state_modifier",
        "noise",
        "final_score",
    ] {
        assert!(cand.get(key).is_some(), "candidate lacks {key}");
    }
    // Default retention comes from content.
    let m = play(2);
    assert_eq!(m.decisions().retention(), engine_rules().npc.retention);
}

#[test]
fn logging_more_or_fewer_decisions_never_shifts_the_dice() {
    let run = |retention| {
        let mut m = Match::new(
            engine_rules(),
            &fixture_club("test_home"),
            &fixture_club("test_away"),
            8,
            Options { retention: Some(retention), ..Default::default() },
        )
        .unwrap();
        m.run().unwrap();
        m.round_hashes().to_vec()
    };
    assert_eq!(run(0), run(5000));
}

/// Play never stalls on a loose ball: someone reaches it within a few rounds. Before engine
/// 0.5.1 a chaser aimed at the ball plus his positioning error and could wait beside it until
/// half time — e.g. Serra Azul v União Pedra Branca, seed 7, under 0.5.1 from round 1768.
#[test]
fn a_loose_ball_is_always_reached() {
    let catalog = microfut::catalog::Catalog::load(&microfut::catalog::ContentTree::embedded());
    let sample = |id: &str| {
        serde_json::from_value::<microfut::club::Club>(
            catalog.rulesets["microfut"].extra[&format!("clubs/{id}.json")].clone(),
        )
        .unwrap()
    };
    let (home, away) = (sample("sociedade_esportiva_serra_azul"), sample("uniao_pedra_branca"));
    for (revision, seeds) in [("0.5.1", 7..8), (ENGINE_REVISION, 0..6)] {
        let rules = microfut::run::rules_for(&catalog, Some(revision)).unwrap();
        for seed in seeds {
            let mut m = Match::new(rules.clone(), &home, &away, seed, Options::default()).unwrap();
            let (mut spell, mut longest) = (0, 0);
            while m.step() == Step::Round {
                spell = if m.state().ball_state == microfut::engine::state::Ball::Loose { spell + 1 } else { 0 };
                longest = longest.max(spell);
            }
            assert!(longest <= 30, "{revision} seed {seed}: the ball stayed loose for {longest} rounds");
        }
    }
}

/// 0.5.3 and 0.5.4 carry, as parameters, the values engine 0.5.1 kept in code; older revisions
/// are played with those values. Both facts at once: the same seed plays the same match under
/// 0.5.2, 0.5.3 and 0.5.4.
#[test]
fn revisions_play_with_the_values_later_ones_carry() {
    let catalog = Catalog::load(&ContentTree::embedded());
    let play_under = |v: &str| {
        let rules = microfut::run::rules_for(&catalog, Some(v)).expect("published revision compiles");
        let mut m =
            Match::new(rules, &fixture_club("test_home"), &fixture_club("test_away"), 21, Options::default()).unwrap();
        m.run().unwrap();
        (m.round_hashes().to_vec(), serde_json::to_value(m.summary()).unwrap())
    };
    let old = play_under("0.5.2");
    assert!(old.0.len() > 1000);
    assert_eq!(old, play_under("0.5.3"));
    assert_eq!(old, play_under("0.5.4"));
}

/// 0.5.5 only declares its parameters' domains (and widens two coordinates' scales to the
/// largest pitch they allow): on the same seeds it plays 0.5.4's matches — every round, event and
/// logged decision.
#[test]
fn revision_0_5_5_plays_exactly_like_0_5_4() {
    let catalog = Catalog::load(&ContentTree::embedded());
    let sample = |id: &str| {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("content/microfut/clubs/{id}.json"));
        microfut::club::Club::load(&path).unwrap()
    };
    let pairs = [
        (fixture_club("test_home"), fixture_club("test_away")),
        (sample("esporte_clube_mandacaru"), sample("uniao_pedra_branca")),
    ];
    let play_under = |v: &str, home: &microfut::club::Club, away: &microfut::club::Club, seed: u64| {
        let rules = microfut::run::rules_for(&catalog, Some(v)).expect("published revision compiles");
        let mut m = Match::new(rules, home, away, seed, Options::default()).unwrap();
        m.run().unwrap();
        let log = serde_json::to_value(m.decisions().decisions().collect::<Vec<_>>()).unwrap();
        (
            m.round_hashes().to_vec(),
            serde_json::to_value(m.events()).unwrap(),
            log,
            serde_json::to_value(m.summary()).unwrap(),
        )
    };
    for (home, away) in &pairs {
        for seed in [1, 7, 2026] {
            let before = play_under("0.5.4", home, away, seed);
            assert!(before.0.len() > 1000);
            assert!(before == play_under("0.5.5", home, away, seed), "{} v {} seed {seed}", home.id, away.id);
        }
    }
}

/// A revision newer than the one that introduced such a parameter must carry it itself: a draft
/// without one is refused, naming it, and nothing is written.
#[test]
fn a_revision_without_a_former_code_value_it_should_carry_is_refused() {
    let (tmp, content) = content_copy();
    let c = content.to_str().unwrap();
    let draft = draft_copy(&content, ENGINE_REVISION, "0.5.9");
    edit_json(&draft.join("params.json"), |p| {
        p["params"].as_array_mut().unwrap().retain(|e| e["id"] != "parry_spread");
    });
    let o = run(&["validate", "--content", c]);
    assert_eq!(o.status.code(), Some(1));
    let said = format!("{}{}", stdout(&o), stderr(&o));
    assert!(
        said.contains("microfut/0.5.9/params.json#/params: revision microfut 0.5.9 has no parameter 'parry_spread', which the match engine needs"),
        "{said}"
    );
    let out = tmp.path().join("run.json");
    let home = content.join("microfut/clubs/uniao_pedra_branca.json");
    let o = run(&[
        "match",
        "--home",
        home.to_str().unwrap(),
        "--away",
        home.to_str().unwrap(),
        "--seed",
        "1",
        "--revision",
        "0.5.9",
        "--content",
        c,
        "--out",
        out.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("parry_spread"), "{}", stderr(&o));
    assert!(!out.exists());
}

/// Angles read only through range tables are given to the pipelines by their bins (compared in
/// cosines, not `acos`): the match is the same, bit for bit, as with exact angles — round hashes,
/// events and every logged decision.
#[test]
fn angles_given_by_their_bins_play_the_exact_match() {
    let planned = engine_rules();
    assert!(planned.orientation_plan.is_some() && planned.direction_change_plan.is_some());
    let mut exact = microfut::engine::Rules::new(planned.rs.clone()).unwrap();
    exact.orientation_plan = None;
    exact.direction_change_plan = None;
    let exact = std::sync::Arc::new(exact);
    let (home, away) = (fixture_club("test_home"), fixture_club("test_away"));
    for seed in [3, 17] {
        let mut a = Match::new(planned.clone(), &home, &away, seed, Options::default()).unwrap();
        let mut b = Match::new(exact.clone(), &home, &away, seed, Options::default()).unwrap();
        a.run().unwrap();
        b.run().unwrap();
        assert_eq!(a.round_hashes(), b.round_hashes(), "seed {seed}");
        assert_eq!(serde_json::to_value(a.events()).unwrap(), serde_json::to_value(b.events()).unwrap());
        let log = |m: &Match| serde_json::to_value(m.decisions().decisions().collect::<Vec<_>>()).unwrap();
        assert_eq!(log(&a), log(&b), "seed {seed}");
    }
}

/// The engine revision's rules with its `mod_orientation` modifier edited (a draft 0.5.9 in a
/// private copy of the content).
fn rules_with_orientation_modifier(
    edit: impl FnOnce(&mut serde_json::Value),
) -> std::sync::Arc<microfut::engine::Rules> {
    let (_tmp, content) = content_copy();
    let draft = draft_copy(&content, ENGINE_REVISION, "0.5.9");
    edit_json(&draft.join("modifiers.json"), |m| {
        let list = m["modifiers"].as_array_mut().unwrap();
        edit(list.iter_mut().find(|x| x["id"] == "mod_orientation").unwrap());
    });
    let catalog = Catalog::load(&ContentTree::from_dir(&content).unwrap());
    microfut::run::rules_for(&catalog, Some("0.5.9")).expect("the draft compiles")
}

/// Which variables every pipeline reads only through range tables, and those tables' ends.
#[test]
fn table_bounds_name_the_variables_only_tables_read() {
    let rules = engine_rules();
    let rs = &rules.rs;
    let bounds = |v: &str| rs.table_bounds[rs.var(v).unwrap()].clone();
    assert_eq!(bounds("orientation"), Some(vec![45.0, 90.0, 135.0]));
    assert_eq!(bounds("direction_change"), Some(vec![45.0, 90.0, 135.0]));
    // Read as a number by a requirement (`distance <= range`).
    assert_eq!(bounds("distance"), None);

    // A revision whose modifier reads the orientation itself loses its plan.
    let rules = rules_with_orientation_modifier(|o| {
        o["expr"] = serde_json::json!(
            "if(neutral_orientation > 0, orientation_neutral, orientation_by_angle(orientation)) - orientation / 1000"
        );
    });
    assert_eq!(rules.rs.table_bounds[rules.rs.var("orientation").unwrap()], None);
    assert!(rules.orientation_plan.is_none() && rules.direction_change_plan.is_some());
}

/// An explanation shows the exact body angle as its table's input, even where play gives the
/// pipelines the angle's bin (a revision reading the orientation through a table stage).
#[test]
fn explanations_show_exact_angles() {
    let rules = rules_with_orientation_modifier(|o| {
        let o = o.as_object_mut().unwrap();
        o.remove("expr");
        o.insert("table".into(), serde_json::json!("orientation_by_angle"));
        o.insert("input".into(), serde_json::json!("orientation"));
    });
    assert!(rules.orientation_plan.is_some());
    let mut m = Match::new(
        rules,
        &fixture_club("test_home"),
        &fixture_club("test_away"),
        4,
        Options { human: Some(0), ..Default::default() },
    )
    .unwrap();
    let mut checked = 0;
    while checked < 10 {
        match m.step() {
            Step::Decision => {
                let carrier = &m.state().players[m.state().holder().unwrap()];
                let (pos, facing) = (carrier.pos, carrier.dir);
                for (i, c) in m.candidates().unwrap().to_vec().iter().enumerate() {
                    if c.kind != Kind::Pass {
                        continue;
                    }
                    let e = m.explain_candidate(i).unwrap();
                    let row = e.contributions.iter().find(|x| x.stage == "mod_orientation").unwrap();
                    let exact = microfut::engine::geometry::angle_between(facing, c.dest - pos);
                    assert_eq!(row.input.as_ref().unwrap().value, exact);
                    checked += 1;
                }
                m.decide_npc().unwrap();
            }
            Step::Round => {}
            Step::Finished | Step::Faulted => panic!("too few passes"),
        }
    }
}
