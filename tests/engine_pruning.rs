//! Lazy exact evaluation (issue 15): the NPC stops weighing passes exactly once no remaining
//! bound can beat the best exact score. This must never change play: whole matches, several
//! seeds and pairs of clubs, under the default revision and a 0.5 one, are played with the
//! shortcut on and off and must agree round hash for round hash and choice for choice — and
//! every pruned candidate's bound must lie above the exact score it stood for.

use microfut::catalog::{Catalog, ContentTree};
use microfut::club::Club;
use microfut::engine::log::Decision;
use microfut::engine::{Match, Options, Rules};
use std::path::Path;
use std::sync::Arc;

fn rules(version: &str) -> Arc<Rules> {
    let catalog = Catalog::load(&ContentTree::embedded());
    microfut::run::rules_for(&catalog, Some(version)).unwrap_or_else(|e| panic!("{version}: {e}"))
}

fn club(id: &str) -> Club {
    Club::load(&Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("content/microfut/clubs/{id}.json"))).unwrap()
}

fn play(rules: &Arc<Rules>, home: &Club, away: &Club, seed: u64, every: bool) -> Match {
    // Retention large enough to keep every decision of the match.
    let options = Options { retention: Some(100_000), ..Default::default() };
    let mut m = Match::new(rules.clone(), home, away, seed, options).unwrap();
    m.weigh_every_candidate(every);
    m.run().unwrap();
    m
}

/// Plays one match both ways and compares; returns (decisions, candidates, pruned candidates).
fn compare(version: &str, home: &str, away: &str, seed: u64) -> (usize, usize, usize) {
    let r = rules(version);
    let (h, a) = (club(home), club(away));
    let lazy = play(&r, &h, &a, seed, false);
    let full = play(&r, &h, &a, seed, true);
    let at = format!("{version} {home}–{away} seed {seed}");
    assert_eq!(lazy.round_hashes(), full.round_hashes(), "{at}: round hashes");
    assert_eq!(lazy.score(), full.score(), "{at}: score");
    let (l, f): (Vec<&Decision>, Vec<&Decision>) =
        (lazy.decisions().decisions().collect(), full.decisions().decisions().collect());
    assert_eq!(lazy.decisions().dropped(), 0, "{at}: the log kept every decision");
    assert_eq!(l.len(), f.len(), "{at}: decisions");
    let (mut candidates, mut pruned) = (0, 0);
    for (dl, df) in l.iter().zip(&f) {
        let at = format!("{at} round {}", dl.round);
        assert_eq!(dl.round, df.round, "{at}");
        assert_eq!(dl.selected_action, df.selected_action, "{at}: chosen candidate");
        assert_eq!(dl.candidate_actions.len(), df.candidate_actions.len(), "{at}: candidates");
        let chosen = &df.candidate_actions[df.selected_action];
        let chosen_score = chosen.final_score.expect("weighed");
        let lazy_chosen = &dl.candidate_actions[dl.selected_action];
        assert_eq!(lazy_chosen.final_score.map(f64::to_bits), Some(chosen_score.to_bits()), "{at}: chosen score");
        for (k, (cl, cf)) in dl.candidate_actions.iter().zip(&df.candidate_actions).enumerate() {
            candidates += 1;
            assert!(cf.pruned.is_none(), "{at}: weighing every candidate prunes none");
            match &cl.pruned {
                None => assert_eq!(
                    serde_json::to_value(cl).unwrap(),
                    serde_json::to_value(cf).unwrap(),
                    "{at}: candidate {k} weighed exactly is the same"
                ),
                Some(p) => {
                    pruned += 1;
                    let exact = cf.final_score.expect("weighed");
                    assert_eq!(cl.kind, "pass", "{at}: only passes are weighed lazily");
                    assert_eq!(p.reason, "bound below chosen");
                    assert!(
                        p.bound >= exact,
                        "{at}: candidate {k}'s bound {} is below its exact score {exact}",
                        p.bound
                    );
                    assert!(p.bound < chosen_score, "{at}: candidate {k} pruned though its bound reaches the chosen");
                    assert!(
                        cl.final_score.is_none() && cl.turnover_risk.is_none(),
                        "{at}: a pruned score is not shown"
                    );
                    assert_eq!(cl.threat.to_bits(), cf.threat.to_bits(), "{at}: its threat is exact");
                    assert_eq!(
                        cl.success_probability.to_bits(),
                        cf.success_probability.to_bits(),
                        "{at}: its test is exact"
                    );
                }
            }
        }
    }
    (l.len(), candidates, pruned)
}

#[test]
fn pruning_never_changes_a_choice_under_the_default_revision() {
    let mut total = (0, 0, 0);
    for (home, away, seed) in [
        ("sociedade_esportiva_serra_azul", "sociedade_esportiva_serra_azul", 1),
        ("sociedade_esportiva_serra_azul", "esporte_clube_mandacaru", 7),
        ("ferroviario_juazeiro", "atletico_vale_do_sol", 3),
        ("uniao_pedra_branca", "esporte_clube_mandacaru", 12),
    ] {
        let (d, c, p) = compare("0.6.0", home, away, seed);
        total = (total.0 + d, total.1 + c, total.2 + p);
    }
    // Not vacuous: the shortcut does skip work in a match.
    assert!(total.2 * 10 > total.1, "0.6.0: {} of {} candidates pruned over {} decisions", total.2, total.1, total.0);
}

#[test]
fn pruning_never_changes_a_choice_under_0_5() {
    let mut total = (0, 0, 0);
    for (home, away, seed) in [
        ("sociedade_esportiva_serra_azul", "sociedade_esportiva_serra_azul", 2),
        ("esporte_clube_mandacaru", "uniao_pedra_branca", 5),
        ("atletico_vale_do_sol", "ferroviario_juazeiro", 9),
    ] {
        let (d, c, p) = compare("0.5.5", home, away, seed);
        total = (total.0 + d, total.1 + c, total.2 + p);
    }
    assert!(total.2 * 10 > total.1, "0.5.5: {} of {} candidates pruned over {} decisions", total.2, total.1, total.0);
}
