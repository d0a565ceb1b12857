//! Space Football's properties: boards drawn from seeds (frozen by golden boards), mirroring,
//! every match ends, replays reproduce outcomes and catch edited records, the lab is
//! deterministic.

use crate::common;
use crate::space_support;
use microfut::catalog::{Catalog, ContentTree};
use microfut::dice::Dice;
use microfut::lab::{self, Request, Shard};
use microfut::space::bots::{BotKind, Builtin, Thinking};
use microfut::space::record::{self, Entrant, MatchRecord, Verdict};
use microfut::space::referee::{self, Player};
use microfut::space::{BOARD_LABEL, Board, Kind, Side, SpaceSimulator, Square, Victory, moves};
use proptest::prelude::*;
use space_support::*;
use std::collections::BTreeSet;
use std::time::Duration;

fn catalog() -> &'static Catalog {
    static C: std::sync::OnceLock<Catalog> = std::sync::OnceLock::new();
    C.get_or_init(|| Catalog::load(&ContentTree::embedded()))
}

fn drawn(seed: u64, n: Option<u8>) -> Board {
    Board::draw(&rules(), &mut Dice::derived(seed, BOARD_LABEL), n).expect("draws")
}

#[test]
fn golden_boards_freeze_the_draw() {
    let json = |b: &Board| serde_json::to_string(&b.to_json()).unwrap();
    assert_eq!(
        json(&drawn(1, None)),
        r#"{"n":7,"white":[[1,1],[1,3],[1,5],[2,2],[2,4],[3,2],[3,4]],"black":[[5,5],[6,1],[6,2],[6,4],[7,4],[7,5],[7,7]],"ball":[1,3],"holder":"white"}"#
    );
    assert_eq!(
        json(&drawn(2, Some(5))),
        r#"{"n":5,"white":[[1,1],[1,2],[1,4],[1,5],[2,1],[2,2],[2,3],[2,5]],"black":[[4,1],[4,2],[4,3],[4,4],[4,5],[5,2],[5,3],[5,4]],"ball":[1,4],"holder":"white"}"#
    );
}

#[test]
fn a_board_outside_the_column_range_is_refused() {
    let err = Board::draw(&rules(), &mut Dice::new(1), Some(4)).unwrap_err();
    assert_eq!(err, "n = 4 is outside space 1.0.0's column range 5..=12");
}

#[test]
fn every_n_of_the_range_draws_the_course_fields() {
    let r = rules();
    // White on rows 1..⌊(n−1)/2⌋, black on ⌈(n+1)/2⌉+1..n, n..2n robots a side.
    for n in 5..=12u8 {
        let s = r.setup(n).unwrap();
        assert_eq!(s.white_rows, (1, (n - 1) / 2), "n = {n}");
        assert_eq!(s.black_rows, ((n + 1).div_ceil(2) + 1, n), "n = {n}");
        assert_eq!(s.robots, (n, 2 * n), "n = {n}");
    }
    assert_eq!(r.setup(4), None);
    assert_eq!(r.setup(13), None);
}

/// The bound on a match's length: every action but a pass advances a robot a row or removes
/// one, and passes alternate with the other side's actions.
fn length_bound(b: &Board) -> u32 {
    let robots = b.count(Side::White) + b.count(Side::Black);
    2 * robots * (u32::from(b.n()) + 2) + 2
}

fn play(b: &Board, kinds: [BotKind; 2], seed: u64) -> referee::Finished {
    let r = rules();
    let mut w = Builtin::new(kinds[0], &r, Dice::derived(seed, b"w"), Thinking::Nodes).with_nodes(Some(300));
    let mut k = Builtin::new(kinds[1], &r, Dice::derived(seed, b"b"), Thinking::Nodes).with_nodes(Some(300));
    let players: [&mut dyn Player; 2] = [&mut w, &mut k];
    referee::play(&r, b.clone(), players, &referee::Options { time_limit: Duration::from_secs(1), record: true })
}

fn entrants() -> [Entrant; 2] {
    [Entrant { name: "w".into(), command: "@x".into() }, Entrant { name: "b".into(), command: "@y".into() }]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(common::cases(64)))]

    #[test]
    fn a_drawn_board_follows_the_setup(seed in any::<u64>()) {
        let r = rules();
        let b = drawn(seed, None);
        let s = r.setup(b.n()).unwrap();
        let k = b.count(Side::White);
        prop_assert_eq!(k, b.count(Side::Black));
        prop_assert!((u32::from(s.robots.0)..=u32::from(s.robots.1)).contains(&k));
        prop_assert!(b.robots(Side::White).all(|q| (s.white_rows.0..=s.white_rows.1).contains(&q.row)));
        prop_assert!(b.robots(Side::Black).all(|q| (s.black_rows.0..=s.black_rows.1).contains(&q.row)));
        prop_assert!(b.holder().is_some(), "the ball starts with a robot");
    }

    #[test]
    fn mirroring_twice_is_the_identity_and_black_plays_as_white_in_the_mirror(seed in any::<u64>(), steps in 0usize..30) {
        let r = rules();
        let mut b = drawn(seed, None);
        // Also positions from the middle of a match.
        let mut list = Vec::new();
        let mut side = Side::White;
        let mut dice = Dice::new(seed);
        for _ in 0..steps {
            moves::legal(&b, side, &r.actions, &mut list);
            if list.is_empty() { break; }
            let a = list[dice.below(list.len() as u32) as usize];
            let mut next = b.clone();
            if moves::apply(&mut next, side, a) != microfut::space::Effect::Continue { break; }
            b = next;
            side = side.other();
        }
        prop_assert_eq!(b.mirrored().mirrored(), b.clone());
        prop_assert_eq!(Board::from_json(&b.to_json()).unwrap(), b.clone());
        let n = b.n();
        let mut black = Vec::new();
        moves::legal(&b, Side::Black, &r.actions, &mut black);
        let mut white_in_mirror = Vec::new();
        moves::legal(&b.mirrored(), Side::White, &r.actions, &mut white_in_mirror);
        let black: BTreeSet<_> = black.into_iter().collect();
        let mirrored: BTreeSet<_> = white_in_mirror.into_iter().map(|a| a.mirrored(n)).collect();
        prop_assert_eq!(black, mirrored);
    }

    #[test]
    fn every_match_ends_and_its_replay_gives_the_same_outcome(seed in any::<u64>(), a in 0usize..3, k in 0usize..3) {
        let kinds = [BotKind::ALL[a], BotKind::ALL[k]];
        let b = drawn(seed, None);
        let f = play(&b, kinds, seed);
        prop_assert!(f.outcome.actions <= length_bound(&b), "{} actions", f.outcome.actions);
        prop_assert_ne!(f.outcome.victory, Victory::OpponentInvalid, "built-in bots answer legally");
        let rec = MatchRecord::new(&rules(), Some(seed), &b, entrants(), 1000, &f);
        prop_assert_eq!(record::replay(catalog(), &rec).unwrap(), Verdict::Identical(f.outcome.clone()));
    }
}

#[test]
fn a_replay_catches_an_edited_record() {
    let b = drawn(11, None);
    let f = play(&b, [BotKind::Greedy, BotKind::Random], 11);
    let rec = MatchRecord::new(&rules(), Some(11), &b, entrants(), 1000, &f);
    assert!(matches!(record::replay(catalog(), &rec).unwrap(), Verdict::Identical(_)));

    let mut points = rec.clone();
    points.result.points = [points.result.points[1], points.result.points[0]];
    let Verdict::Differs(why) = record::replay(catalog(), &points).unwrap() else { panic!("edited points") };
    assert!(why.starts_with("the outcome is {"), "{why}");

    let mut backwards = rec.clone();
    let first = backwards.actions[0].action;
    backwards.actions[0].action.to = Square::new(first.from.row - 1, first.from.col);
    let Verdict::Differs(why) = record::replay(catalog(), &backwards).unwrap() else { panic!("edited action") };
    assert!(why.starts_with("action 1 (move "), "{why}");
    assert!(why.contains("does not go forward"), "{why}");

    let mut short = rec.clone();
    short.actions.pop();
    let Verdict::Differs(why) = record::replay(catalog(), &short).unwrap() else { panic!("cut record") };
    assert!(why.contains("but the match was not over"), "{why}");

    let mut turn = rec.clone();
    turn.actions[1].side = Side::White;
    let Verdict::Differs(why) = record::replay(catalog(), &turn).unwrap() else { panic!("wrong side") };
    assert_eq!(why, "action 2 is white's, but it was black's turn");

    let mut fp = rec.clone();
    fp.fingerprint = "sha256:00".into();
    let err = record::replay(catalog(), &fp).unwrap_err().to_string();
    assert!(err.contains("changed since the run was made"), "{err}");
}

#[test]
fn a_recorded_illegal_answer_must_be_illegal() {
    let b = board(
        "
        = = = = =
        . . . . .
        . . B . .
        . . . . .
        . w . . .
        . . . . .
        = = = = =",
    );
    let mut white = Scripted::new(vec![Ok(microfut::space::Answer {
        from: sq(2, 2),
        to: sq(1, 2),
        kind: None,
        elapsed: None,
        line: Some(r#"{"from":[2,2],"to":[1,2]}"#.into()),
    })]);
    let mut black = Scripted::new(vec![]);
    let players: [&mut dyn Player; 2] = [&mut white, &mut black];
    let r = rules();
    let f =
        referee::play(&r, b.clone(), players, &referee::Options { time_limit: Duration::from_secs(1), record: true });
    let rec = MatchRecord::new(&r, None, &b, entrants(), 1000, &f);
    assert!(matches!(record::replay(catalog(), &rec).unwrap(), Verdict::Identical(_)));
    let mut legal = rec.clone();
    legal.result.reasons.get_mut(&Side::White).unwrap().answer = Some(r#"{"from":[2,2],"to":[3,2]}"#.into());
    assert_eq!(
        record::replay(catalog(), &legal).unwrap(),
        Verdict::Differs("white's answer recorded as illegal is a legal move from (2, 2) to (3, 2)".into())
    );
}

#[test]
fn the_lab_gives_the_same_numbers_for_the_same_seed() {
    let rev = revision();
    let sim = SpaceSimulator { bots: [BotKind::Greedy, BotKind::Random] };
    let scenarios = vec!["course".to_string(), "no_suicide".to_string()];
    let req = Request { revision: &rev, against: None, scenarios: &scenarios, simulations: 24, seed: 5 };
    let once = || {
        let p = lab::prepare(&sim, &req).unwrap();
        let accs = lab::run(&sim, &p, Shard::ALL, &|_| {}).unwrap();
        lab::Report::new(p.identity, &accs).json()
    };
    let a = once();
    assert_eq!(a, once());
    // Greedy beats random by a distance: at least 2.5 points a match on average.
    let pts = &a["scenarios"][0]["points_per_match"][0];
    assert!(pts.as_f64().unwrap() > 2.5, "{a:#}");
}

#[test]
fn a_suicide_free_variant_has_no_suicides() {
    let mut r = rules();
    r.actions.suicide_attack = false;
    let b = drawn(3, None);
    let mut list = Vec::new();
    for side in Side::BOTH {
        moves::legal(&b, side, &r.actions, &mut list);
        assert!(list.iter().all(|a| a.kind != Kind::Suicide));
    }
}
