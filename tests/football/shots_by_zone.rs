//! Engine 0.5.7 (issue 11): where a side shoots from. A match's shots were counted, not placed,
//! so a revision whose NPC works every attack into a crowded box (half its shots blocked, almost
//! none from outside the area, where real sides take about two in five) looked like football in
//! the lab's totals. Each side now counts its shots struck from outside the box it attacks
//! (`shots_outside_box`; penalties are not), and the lab reports `shots_outside_box_share` and
//! `blocked_shot_share`. Play is unchanged; a record written by an older engine, which has no
//! such count, still replays as identical.

use crate::common;
use common::*;
use microfut::engine::{EventKind, Match, Options};
use std::fs;

const REVISION: &str = "0.6.20";

/// Every shot's distance bounds where it was struck from: nearer than the box's depth is inside
/// it, farther than its far corner is outside. The count sits between the two tallies, side by
/// side, and is not zero — counting from the wrong end, or the defending side's frame, breaks one
/// bound or the other.
#[test]
fn each_side_counts_the_shots_it_strikes_from_outside_the_box() {
    let catalog = test_catalog();
    let rules = revision_rules(&catalog, REVISION);
    let (depth, half) = (rules.pitch.box_depth, rules.pitch.box_half_width);
    let corner = (depth * depth + half * half).sqrt();
    let (home, away) = (sample_club("sociedade_esportiva_serra_azul"), sample_club("esporte_clube_mandacaru"));
    let mut outside_total = 0;
    for seed in 1..=6 {
        let mut m = Match::new(rules.clone(), &home, &away, seed, Options::default()).unwrap();
        m.run().unwrap();
        for t in 0..2 {
            let (mut surely_outside, mut maybe_outside) = (0, 0);
            for e in m.events() {
                if let EventKind::Shot { by, distance, set_piece, .. } = &e.kind
                    && by.team as usize == t
                    && set_piece.as_deref() != Some("penalty")
                {
                    surely_outside += u32::from(*distance > corner + 0.01);
                    maybe_outside += u32::from(*distance >= depth - 0.01);
                }
            }
            let counted = m.stats()[t].shots_outside_box;
            assert!(
                surely_outside <= counted && counted <= maybe_outside,
                "seed {seed}, side {t}: {counted} counted, {surely_outside}–{maybe_outside} by distance"
            );
            outside_total += counted;
        }
    }
    assert!(outside_total > 0, "six matches without a shot from outside the box");
}

/// A record written before 0.5.7 has no `shots_outside_box`: its replay leaves the count out of
/// the comparison and is identical. The same record claiming to come from this engine is not —
/// the count is compared, so deleting it is an edit.
#[test]
fn an_older_record_without_the_count_replays_as_identical() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("run.json");
    // The first seed whose match has a shot from outside the box, so the count is not zero.
    let original = (1..=12u64)
        .map(|seed| {
            let seed = seed.to_string();
            let o = run(&[
                "match",
                "--home",
                "sociedade_esportiva_serra_azul",
                "--away",
                "esporte_clube_mandacaru",
                "--seed",
                &seed,
                "--revision",
                "0.6.5",
                "--out",
                out.to_str().unwrap(),
            ]);
            assert!(o.status.success(), "{}", stderr(&o));
            serde_json::from_slice::<serde_json::Value>(&fs::read(&out).unwrap()).unwrap()
        })
        .find(|v| (0..2).any(|t| v["stats"][t]["shots_outside_box"].as_u64().unwrap() > 0))
        .expect("a match with a shot from outside the box in 12 seeds");
    let replay = |engine: &str| {
        let mut v = original.clone();
        v["engine_version"] = serde_json::json!(engine);
        // An engine that old wrote no seal; a sealed record would name the edit instead.
        v.as_object_mut().unwrap().remove("seal");
        for t in 0..2 {
            v["stats"][t].as_object_mut().unwrap().remove("shots_outside_box");
        }
        let p = tmp.path().join(format!("{engine}.json"));
        fs::write(&p, serde_json::to_vec(&v).unwrap()).unwrap();
        run(&["replay", p.to_str().unwrap()])
    };
    let older = replay("0.5.6");
    assert!(older.status.success() && stdout(&older).starts_with("identical"), "{}", stderr(&older));
    let current = replay(env!("CARGO_PKG_VERSION"));
    assert_eq!(current.status.code(), Some(1), "{}", stdout(&current));
    assert!(stderr(&current).contains("stats"), "{}", stderr(&current));
}

/// The lab reports both shares beside the other metrics, each a share of the shots with its
/// interval.
#[test]
fn the_lab_reports_where_shots_come_from() {
    let o = run(&["lab", "microfut", "--matches", "8", "--seed", "3", "--revision", REVISION, "--quiet", "--json"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let metrics = &v["scenarios"][0]["metrics"];
    for k in ["shots_outside_box_share", "blocked_shot_share"] {
        let mean = metrics[k]["mean"].as_f64().unwrap_or_else(|| panic!("no {k}: {metrics}"));
        assert!(mean > 0.0 && mean < 1.0, "{k}: {mean}");
    }
}
