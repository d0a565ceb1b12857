//! Issue 50: the play-by-play tells the truth about order. A pass that ends loose (misplaced,
//! out of its man's reach, a heavy touch, not controlled) is written before the loose ball it
//! left — engines before wrote the loose ball first, since the pass went out once its completion
//! was known — and records written that way still replay identical, while an edit is caught.

use crate::common;

use microfut::engine::{Event, EventKind, Match, Options};
use microfut::run::{Replay, RunRecord, replay};

fn is_pass(e: &Event) -> bool {
    matches!(e.kind, EventKind::Pass { .. })
}

fn is_loose(e: &Event) -> bool {
    matches!(e.kind, EventKind::LooseBall { .. })
}

fn played(seed: u64) -> (std::sync::Arc<microfut::engine::Rules>, Match) {
    let catalog = common::test_catalog();
    let rules = microfut::run::rules_for(&catalog, None).unwrap();
    let (home, away) = (common::sample_club("esporte_clube_mandacaru"), common::sample_club("uniao_pedra_branca"));
    let mut m = Match::new(rules.clone(), &home, &away, seed, Options::default()).unwrap();
    m.run().unwrap();
    (rules, m)
}

#[test]
fn a_pass_is_written_before_the_loose_ball_it_left() {
    let (_, m) = played(3);
    let ev = m.events();
    let same_round = |w: &[Event]| w[0].round == w[1].round;
    let before = ev.windows(2).filter(|w| same_round(w) && is_loose(&w[0]) && is_pass(&w[1])).count();
    let after = ev.windows(2).filter(|w| same_round(w) && is_pass(&w[0]) && is_loose(&w[1])).count();
    assert_eq!(before, 0, "a loose ball written before the pass that left it");
    assert!(after > 20, "passes that end loose are written first ({after} in the match)");
    // Each of those passes is one that did not reach its man cleanly.
    for w in ev.windows(2).filter(|w| same_round(w) && is_pass(&w[0]) && is_loose(&w[1])) {
        let EventKind::Pass { completed, outcome, .. } = &w[0].kind else { unreachable!() };
        assert!(!completed || outcome != "misplaced", "{w:?}");
    }
}

#[test]
fn a_record_written_in_the_old_order_replays_identical_and_an_edit_is_caught() {
    let (rules, m) = played(4);
    let mut record = RunRecord::of(&m, &rules, [None, None], None);
    // As an engine before issue 50 wrote it: each such loose ball before its pass.
    let mut swapped = 0;
    let mut i = 0;
    while i + 1 < record.events.len() {
        let (a, b) = (&record.events[i], &record.events[i + 1]);
        if a.round == b.round && is_pass(a) && is_loose(b) {
            record.events.swap(i, i + 1);
            swapped += 1;
            i += 2;
        } else {
            i += 1;
        }
    }
    assert!(swapped > 20);
    assert!(matches!(replay(rules.clone(), &record).unwrap(), Replay::Identical { .. }));
    // Anything else out of place is still an edited record.
    let k = record.events.iter().position(is_loose).unwrap();
    if let EventKind::LooseBall { x, .. } = &mut record.events[k].kind {
        *x += 1.0;
    }
    match replay(rules, &record).unwrap() {
        Replay::RecordEdited { part: "events", .. } => {}
        other => panic!("{other:?}"),
    }
}
