//! Whole matches: determinism, replay, human intents, the decision log and bad input.

mod common;
use common::*;
use microfut::engine::{Intent, Kind, Match, Options, Step};
use microfut::run::{Replay, RunRecord, replay};

fn play(seed: u64) -> Match {
    let mut m =
        Match::new(engine_rules(), &fixture_club("test_home"), &fixture_club("test_away"), seed, Options::default())
            .unwrap();
    m.run();
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
    assert!(matches!(replay(rules.clone(), &changed).unwrap(), Replay::Differs { round: 100, .. }));
    let mut reseeded = parsed;
    reseeded.seed += 1;
    assert!(matches!(replay(rules, &reseeded).unwrap(), Replay::Differs { .. }));
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
    let bogus = Intent { kind: Kind::Pass, target: Some(99) };
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
    m.run();
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
        m.run();
        m.round_hashes().to_vec()
    };
    assert_eq!(run(0), run(5000));
}
