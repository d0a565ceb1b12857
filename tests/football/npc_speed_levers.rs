//! Issue 15's speed levers: content parameters that let the NPC weigh less. Each must be off
//! when its parameter is absent — a match plays exactly as before, round hash for round hash
//! (the published 0.6.0's same-seed golden match, recorded before the levers existed) — and do
//! what it says when a revision sets it. Revisions here are in-memory copies of 0.6.0 with
//! parameters added; the published content is never touched.

use microfut::catalog::{Catalog, ContentTree};
use microfut::club::Club;
use microfut::engine::{Candidate, Kind, Match, Options, Rules, Step};
use std::path::Path;
use std::sync::Arc;

const REFERENCE: &str = "sociedade_esportiva_serra_azul";

fn club(id: &str) -> Club {
    Club::load(&Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("content/microfut/clubs/{id}.json"))).unwrap()
}

/// 0.6.0 with these parameters added (or replaced), compiled.
fn rules_with(set: &[(&str, f64)]) -> Result<Arc<Rules>, String> {
    let catalog = Catalog::load(&ContentTree::embedded());
    let mut rev = catalog.revision("microfut", Some("0.6.0")).unwrap().clone();
    let params = rev.documents.get_mut("params.json").unwrap()["params"].as_array_mut().unwrap();
    for (id, value) in set {
        params.retain(|p| p["id"] != *id);
        params.push(serde_json::json!({
            "id": id, "value": value, "domain": {"min": 0, "max": 1000}, "label": {"pt-BR": id, "en": id}
        }));
    }
    let rs = microfut::ruleset::compile(&rev).map_err(|d| format!("{d:?}"))?;
    Rules::new(Arc::new(rs)).map(Arc::new).map_err(|e| e.to_string())
}

fn play(rules: &Arc<Rules>, seed: u64) -> Match {
    let c = club(REFERENCE);
    let mut m = Match::new(rules.clone(), &c, &c, seed, Options::default()).unwrap();
    m.run().unwrap();
    m
}

/// The published 0.6.0's same-seed golden match (calibration.json: seed 1, 2,351 rounds, last
/// state 45f60fd23d36fcfe), recorded before the levers existed.
fn assert_golden(m: &Match, what: &str) {
    let hashes = m.round_hashes();
    assert_eq!(hashes.len(), 2351, "{what}: rounds");
    assert_eq!(format!("{:016x}", hashes.last().unwrap()), "45f60fd23d36fcfe", "{what}: last state");
}

#[test]
fn without_their_parameters_the_levers_are_off() {
    let rules = rules_with(&[]).unwrap();
    assert!(rules.levers.pass_reach.is_none() && rules.levers.positioning.is_none() && rules.levers.map_grid.is_none());
    assert_golden(&play(&rules, 1), "0.6.0 as published");
}

/// Values that cannot bind play exactly as the lever's absence: a reach beyond every passer's
/// range, a cadence of one round, and a cadence whose radius covers the whole pitch.
#[test]
fn levers_that_cannot_bind_change_nothing() {
    for set in [
        &[("npc_pass_reach", 1000.0)][..],
        &[("positioning_cadence", 1.0), ("positioning_near_radius", 0.0)][..],
        &[("positioning_cadence", 3.0), ("positioning_near_radius", 1000.0)][..],
    ] {
        assert_golden(&play(&rules_with(set).unwrap(), 1), &format!("{set:?}"));
    }
}

/// Plays the reference club against itself with the home side "human" and lets the NPC take
/// every decision, calling `check` with the match, the carrier's position and whether the
/// decision is in open play (restarts offer passes by their own content ranges).
fn each_home_decision(
    rules: &Arc<Rules>,
    seed: u64,
    mut check: impl FnMut(&[Candidate], microfut::engine::geometry::V2, bool),
) {
    let c = club(REFERENCE);
    let options = Options { human: Some(0), ..Default::default() };
    let mut m = Match::new(rules.clone(), &c, &c, seed, options).unwrap();
    loop {
        match m.step() {
            Step::Round => {}
            Step::Decision => {
                let carrier = m.state().holder().expect("a decision has a carrier");
                let at = m.state().players[carrier].pos;
                let before: Vec<Candidate> = m.candidates().unwrap().to_vec();
                m.decide_npc().unwrap();
                let phase = m.decisions().decisions().last().unwrap().match_state_summary.phase.to_string();
                let open_play = ["build_up", "progression", "final_third"].contains(&phase.as_str());
                check(&before, at, open_play);
            }
            Step::Finished => break,
            Step::Faulted => panic!("faulted: {:?}", m.fault()),
        }
    }
}

/// `npc_pass_reach`: in open play no pass is offered to a team-mate beyond it (restarts keep
/// their own content ranges) — while without it passes
/// that long are offered (so the check can fail), and play changes.
#[test]
fn pass_reach_drops_the_passes_beyond_it() {
    let reach = 20.0;
    let longest = |rules: &Arc<Rules>| {
        let mut longest: f64 = 0.0;
        each_home_decision(rules, 2, |candidates, at, open_play| {
            for c in candidates.iter().filter(|c| open_play && c.kind == Kind::Pass) {
                longest = longest.max(c.dest.dist(at));
            }
        });
        longest
    };
    let off = longest(&rules_with(&[]).unwrap());
    assert!(off > reach + 5.0, "without the lever passes beyond {reach} m are offered (longest {off})");
    let on_rules = rules_with(&[("npc_pass_reach", reach)]).unwrap();
    let on = longest(&on_rules);
    assert!(on > 0.0 && on <= reach, "with a {reach} m reach the longest pass offered is {on} m");
    assert_ne!(play(&on_rules, 1).round_hashes().last(), play(&rules_with(&[]).unwrap(), 1).round_hashes().last());
}

/// `npc_map_grid`: the maps read from the grid agree with the pipelines exactly at the nodes
/// and closely between them; play changes (choices near a tie may flip), and still plays.
#[test]
fn map_grid_reads_the_maps_from_their_table() {
    let rules = rules_with(&[("npc_map_grid", 1.0)]).unwrap();
    let grid = rules.levers.map_grid.as_ref().expect("the lever is on");
    let s = rules.slots;
    let mut inputs = microfut::ruleset::Inputs { values: vec![0.0; rules.rs.vars.len()] };
    let (len, wid) = (rules.pitch.length, rules.pitch.width);
    for (m, pipe) in [rules.pipes.opportunity, rules.pipes.danger].into_iter().enumerate() {
        assert_eq!(grid.which(pipe), Some(m));
        let exact = |inputs: &mut microfut::ruleset::Inputs, x: f64, y: f64| {
            inputs.set(s.spot_x, x);
            inputs.set(s.spot_y, y);
            rules.rs.pipelines[pipe].resolve(inputs).value
        };
        // Nodes: 105 m in 105 cells, 68 m in 68.
        for (x, y) in [(0.0, 0.0), (60.0, 20.0), (104.0, 34.0), (len, wid)] {
            assert_eq!(grid.value(m, x, y), exact(&mut inputs, x, y), "map {m} at node ({x}, {y})");
        }
        let mut worst: f64 = 0.0;
        for i in 0..400 {
            let (x, y) = (len * ((i * 37 % 400) as f64 + 0.5) / 400.0, wid * ((i * 91 % 400) as f64 + 0.5) / 400.0);
            worst = worst.max((grid.value(m, x, y) - exact(&mut inputs, x, y)).abs());
        }
        assert!(worst < 0.01, "map {m}: worst error {worst} between nodes");
    }
    assert_eq!(grid.which(rules.pipes.pass), None, "only the two maps are tabulated");
    // The grid's values are close: some matches play exactly as without it, not all.
    let off = rules_with(&[]).unwrap();
    let changed = (1..=6).filter(|&seed| play(&rules, seed).round_hashes() != play(&off, seed).round_hashes()).count();
    assert!(changed > 0, "the grid is read: some seed's match changes");
}

/// `positioning_cadence`: with a radius shorter than the pitch, far players keep their shape
/// destinations between turns, and play changes.
#[test]
fn positioning_cadence_changes_play_only_when_it_binds() {
    let rules = rules_with(&[("positioning_cadence", 2.0), ("positioning_near_radius", 20.0)]).unwrap();
    assert_eq!(rules.levers.positioning, Some((2, 20.0)));
    let m = play(&rules, 1);
    assert_ne!(format!("{:016x}", m.round_hashes().last().unwrap()), "45f60fd23d36fcfe", "play changes");
}

/// A lever's value the engine cannot play is refused when the revision loads, naming it.
#[test]
fn unplayable_lever_values_are_refused() {
    for (set, says) in [
        (&[("npc_pass_reach", 0.0)][..], "npc_pass_reach"),
        (&[("npc_map_grid", 0.0)][..], "npc_map_grid"),
        (&[("npc_map_grid", 0.001)][..], "too fine"),
        (&[("positioning_cadence", 2.5)][..], "positioning_cadence"),
        (&[("positioning_cadence", 0.0)][..], "positioning_cadence"),
    ] {
        let e = rules_with(set).err().unwrap_or_else(|| panic!("{set:?} was accepted"));
        assert!(e.contains(says), "{set:?}: {e}");
    }
}
