//! Space Football's rules on hand-worked positions: every action, the edges of the field, the
//! loose ball, passes to the last row, suicide attacks on a carrier, goals, destruction, passes
//! of turn and draws, black's mirrored view, and the reasons an answer is refused.

use crate::space_support;
use microfut::space::moves::{self, classify};
use microfut::space::referee::{self, Answer, Fault, Player, Reason};
use microfut::space::{Action, Actions, Board, Effect, Kind, Side, Victory};
use space_support::*;
use std::collections::BTreeSet;
use std::time::Duration;

fn actions_of(b: &Board, side: Side, rules: &Actions, from: (u8, u8)) -> BTreeSet<Action> {
    let mut all = Vec::new();
    moves::legal(b, side, rules, &mut all);
    all.into_iter().filter(|a| a.from == sq(from.0, from.1)).collect()
}

fn set(list: &[Action]) -> BTreeSet<Action> {
    list.iter().copied().collect()
}

use Kind::{Attack, Move, Pass, Suicide};

#[test]
fn a_robot_without_the_ball_moves_one_or_two_rows_ahead_or_diagonally() {
    let b = board(
        "
        = = = = =
        . . . . B
        . . . . .
        . . . . .
        . . w . .
        . . . . .
        = = = = =",
    );
    let r = rules();
    assert_eq!(
        actions_of(&b, Side::White, &r.actions, (2, 3)),
        set(&[
            act(Move, (2, 3), (3, 2)),
            act(Move, (2, 3), (3, 3)),
            act(Move, (2, 3), (3, 4)),
            act(Move, (2, 3), (4, 2)),
            act(Move, (2, 3), (4, 3)),
            act(Move, (2, 3), (4, 4)),
        ])
    );
    // Black plays downwards; the carrier moves one row only, and column 6 is off the field.
    assert_eq!(
        actions_of(&b, Side::Black, &r.actions, (5, 5)),
        set(&[act(Move, (5, 5), (4, 4)), act(Move, (5, 5), (4, 5))])
    );
}

#[test]
fn the_field_has_edges() {
    let b = board(
        "
        = = = = =
        . . . . b
        . . . . .
        . . . . .
        . . . . .
        W . . . w
        = = = = =",
    );
    let r = rules();
    assert_eq!(
        actions_of(&b, Side::White, &r.actions, (1, 1)),
        set(&[act(Move, (1, 1), (2, 1)), act(Move, (1, 1), (2, 2))])
    );
    assert_eq!(
        actions_of(&b, Side::White, &r.actions, (1, 5)),
        set(&[
            act(Move, (1, 5), (2, 4)),
            act(Move, (1, 5), (2, 5)),
            act(Move, (1, 5), (3, 4)),
            act(Move, (1, 5), (3, 5)),
        ])
    );
    assert_eq!(classify(&b, Side::White, &r.actions, sq(1, 5), sq(2, 6), None).unwrap_err(), "(2, 6) is off the field");
}

#[test]
fn a_two_step_move_needs_only_its_destination_free_and_an_opponent_ahead_is_not_attacked() {
    let b = board(
        "
        = = = = =
        . . . . B
        . . . . .
        . b w b .
        . . w . .
        . . . . .
        = = = = =",
    );
    let r = rules();
    assert_eq!(
        actions_of(&b, Side::White, &r.actions, (2, 3)),
        set(&[
            act(Attack, (2, 3), (3, 2)),
            act(Attack, (2, 3), (3, 4)),
            act(Move, (2, 3), (4, 2)),
            act(Move, (2, 3), (4, 3)),
            act(Move, (2, 3), (4, 4)),
        ])
    );
    // (3, 3) holds a team-mate and the robot at (2, 3) has no ball to pass.
    assert_eq!(
        classify(&b, Side::White, &r.actions, sq(2, 3), sq(3, 3), None).unwrap_err(),
        "(3, 3) is taken by a team-mate (only the robot with the ball passes)"
    );
    let ahead = board(
        "
        = = = = =
        . . . . B
        . . . . .
        . . b . .
        . . w . .
        . . . . .
        = = = = =",
    );
    assert_eq!(
        classify(&ahead, Side::White, &r.actions, sq(2, 3), sq(3, 3), None).unwrap_err(),
        "(3, 3) holds an opponent straight ahead: attacks are on the diagonals"
    );
}

#[test]
fn an_attack_takes_the_square_and_the_ball() {
    let mut b = board(
        "
        = = = = =
        . . . . b
        . . . . .
        . . B . .
        . w . . .
        . . . . .
        = = = = =",
    );
    let r = rules();
    let a = act(Attack, (2, 2), (3, 3));
    assert_eq!(classify(&b, Side::White, &r.actions, a.from, a.to, None), Ok(Attack));
    assert_eq!(moves::apply(&mut b, Side::White, a), Effect::Continue);
    assert_eq!(b.at(sq(3, 3)), Some(Side::White));
    assert_eq!(b.at(sq(2, 2)), None);
    assert_eq!((b.ball(), b.holder()), (sq(3, 3), Some(Side::White)));
    assert_eq!((b.count(Side::White), b.count(Side::Black)), (1, 1));
}

#[test]
fn the_carrier_may_attack_and_keeps_the_ball() {
    let mut b = board(
        "
        = = = = =
        . . . . b
        . . . . .
        . . b . .
        . W . . .
        . . . . .
        = = = = =",
    );
    let r = rules();
    assert!(actions_of(&b, Side::White, &r.actions, (2, 2)).contains(&act(Attack, (2, 2), (3, 3))));
    moves::apply(&mut b, Side::White, act(Attack, (2, 2), (3, 3)));
    assert_eq!((b.ball(), b.holder()), (sq(3, 3), Some(Side::White)));
    // Under a variant where the carrier does not attack, it is refused with the reason.
    let mut variant = r.actions;
    variant.carrier_attacks = false;
    let before = board(
        "
        = = = = =
        . . . . b
        . . . . .
        . . b . .
        . W . . .
        . . . . .
        = = = = =",
    );
    assert!(!actions_of(&before, Side::White, &variant, (2, 2)).contains(&act(Attack, (2, 2), (3, 3))));
    assert_eq!(
        classify(&before, Side::White, &variant, sq(2, 2), sq(3, 3), None).unwrap_err(),
        "the robot with the ball may not attack under these rules"
    );
}

#[test]
fn a_suicide_attack_on_the_carrier_leaves_the_ball_loose_where_it_was() {
    let mut b = board(
        "
        = = = = =
        . . . b .
        . . . B .
        . . . . .
        . . w w .
        . . . . .
        = = = = =",
    );
    let r = rules();
    // Two rows ahead: the same column or either column beside it.
    assert!(actions_of(&b, Side::White, &r.actions, (2, 3)).contains(&act(Suicide, (2, 3), (4, 4))));
    assert!(actions_of(&b, Side::White, &r.actions, (2, 4)).contains(&act(Suicide, (2, 4), (4, 4))));
    assert_eq!(moves::apply(&mut b, Side::White, act(Suicide, (2, 3), (4, 4))), Effect::Continue);
    assert_eq!((b.at(sq(2, 3)), b.at(sq(4, 4))), (None, None));
    assert_eq!((b.ball(), b.holder()), (sq(4, 4), None), "loose on the target's square");
    assert_eq!((b.count(Side::White), b.count(Side::Black)), (1, 1));
    // Whoever moves onto the loose ball takes it: black from (5, 4) one row down…
    let mut black_takes = b.clone();
    moves::apply(&mut black_takes, Side::Black, act(Move, (5, 4), (4, 4)));
    assert_eq!(black_takes.holder(), Some(Side::Black));
    // …or white from (2, 4) with a two-step move.
    assert!(actions_of(&b, Side::White, &r.actions, (2, 4)).contains(&act(Move, (2, 4), (4, 4))));
    moves::apply(&mut b, Side::White, act(Move, (2, 4), (4, 4)));
    assert_eq!((b.ball(), b.holder()), (sq(4, 4), Some(Side::White)));
}

#[test]
fn the_carrier_neither_jumps_nor_makes_a_suicide_attack() {
    let b = board(
        "
        = = = = =
        . . . . b
        . . b . .
        . . . . .
        . . W . .
        . . . . .
        = = = = =",
    );
    let r = rules();
    assert_eq!(
        actions_of(&b, Side::White, &r.actions, (2, 3)),
        set(&[act(Move, (2, 3), (3, 2)), act(Move, (2, 3), (3, 3)), act(Move, (2, 3), (3, 4))])
    );
    assert_eq!(
        classify(&b, Side::White, &r.actions, sq(2, 3), sq(4, 3), None).unwrap_err(),
        "the robot with the ball acts only one row ahead"
    );
}

#[test]
fn a_pass_goes_to_a_team_mate_ahead_even_on_the_last_row_and_then_a_goal() {
    let b = board(
        "
        = = = = =
        . . . . b
        . . . . .
        . w w w .
        . . W . .
        . . . . .
        = = = = =",
    );
    let r = rules();
    assert_eq!(
        actions_of(&b, Side::White, &r.actions, (2, 3)),
        set(&[act(Pass, (2, 3), (3, 2)), act(Pass, (2, 3), (3, 3)), act(Pass, (2, 3), (3, 4))])
    );
    // To the last row (row n = 5), then from there into black's goal area (row 6).
    let mut b = board(
        "
        = = = = =
        b . . w .
        . . W . .
        . . . . .
        . . . . .
        . . . . .
        = = = = =",
    );
    assert_eq!(moves::apply(&mut b, Side::White, act(Pass, (4, 3), (5, 4))), Effect::Continue);
    assert_eq!((b.ball(), b.holder()), (sq(5, 4), Some(Side::White)));
    assert_eq!(moves::apply(&mut b, Side::White, act(Move, (5, 4), (6, 5))), Effect::Won(Side::White, Victory::Goal));
}

#[test]
fn a_robot_without_the_ball_entering_the_goal_area_is_destroyed() {
    let mut b = board(
        "
        = = = = =
        . w . . b
        . . . . .
        . . w . .
        . . . . .
        . B . . .
        = = = = =",
    );
    let r = rules();
    assert!(actions_of(&b, Side::White, &r.actions, (5, 2)).contains(&act(Move, (5, 2), (6, 2))));
    assert!(actions_of(&b, Side::White, &r.actions, (3, 3)).contains(&act(Move, (3, 3), (5, 3))));
    assert_eq!(moves::apply(&mut b, Side::White, act(Move, (5, 2), (6, 2))), Effect::Continue);
    assert_eq!(b.count(Side::White), 1);
    // Black's carrier scores in row 0.
    assert_eq!(moves::apply(&mut b, Side::Black, act(Move, (1, 2), (0, 1))), Effect::Won(Side::Black, Victory::Goal));
}

#[test]
fn destruction_wins_even_by_a_suicide_and_a_side_left_without_robots_loses() {
    let last = "
        = = = = =
        . . . . .
        . . b . .
        . . . . .
        . w . . .
        . W . . .
        = = = = =";
    let mut b = board(last);
    assert_eq!(
        moves::apply(&mut b, Side::White, act(Suicide, (2, 2), (4, 3))),
        Effect::Won(Side::White, Victory::Destruction)
    );
    // The attacker's own last robot: the win is still the attacker's.
    let mut b = board(
        "
        = = = = =
        . . . . .
        . . B . .
        . . . . .
        . w . . .
        . . . . .
        = = = = =",
    );
    assert_eq!(
        moves::apply(&mut b, Side::White, act(Suicide, (2, 2), (4, 3))),
        Effect::Won(Side::White, Victory::Destruction)
    );
    assert_eq!((b.ball(), b.holder()), (sq(4, 3), None));
    // White's last robot walks into black's goal area without the ball: black wins.
    let mut b = board(
        "
        = = = = =
        . w . . .
        . . . . .
        . . . . B
        . . . . .
        . . . . .
        = = = = =",
    );
    assert_eq!(
        moves::apply(&mut b, Side::White, act(Move, (5, 2), (6, 2))),
        Effect::Won(Side::Black, Victory::Destruction)
    );
    let mut b = board(
        "
        = = = = =
        . . . . .
        . . b . .
        . W . . .
        . . . . .
        . w . . .
        = = = = =",
    );
    assert_eq!(
        moves::apply(&mut b, Side::White, act(Attack, (3, 2), (4, 3))),
        Effect::Won(Side::White, Victory::Destruction)
    );
}

#[test]
fn under_the_course_rules_a_side_with_a_robot_always_has_an_action() {
    // Its frontmost robot's forward diagonals are free (a move), opponents (an attack) or the goal
    // area (a move): the pass-and-draw rule matters only under variants.
    let b = board(
        "
        = = = = =
        . . . . .
        b b b b b
        w w W w w
        b b b b b
        . . . . .
        = = = = =",
    );
    let r = rules();
    assert!(moves::has_legal(&b, Side::White, &r.actions));
    assert!(moves::has_legal(&b, Side::Black, &r.actions));
}

#[test]
fn a_side_with_no_action_passes_and_when_neither_can_act_it_is_a_draw() {
    let mut r = rules();
    r.actions =
        Actions { two_step_move: false, attack: false, carrier_attacks: false, suicide_attack: false, pass: true };
    let b = board(
        "
        = = = =
        b . . .
        . . . .
        b b b b
        w w w W
        = = = =",
    );
    assert!(!moves::has_legal(&b, Side::White, &r.actions));
    assert!(moves::has_legal(&b, Side::Black, &r.actions));
    // White is never asked. Black sees the board turned round and plays white in it: its robot
    // on (4, 1) is on (1, 4) in its view, and (1, 4) → (2, 4) there is (4, 1) → (3, 1) here.
    let mut white = Scripted::new(vec![]);
    let mut black = Scripted::new(vec![Ok(Answer::from(act(Move, (1, 4), (2, 4))))]);
    let opts = referee::Options { time_limit: Duration::from_secs(1), record: true };
    let players: [&mut dyn Player; 2] = [&mut white, &mut black];
    let f = referee::play(&r, b.clone(), players, &opts);
    assert_eq!(black.seen, vec![b.mirrored()]);
    assert!(white.seen.is_empty());
    assert_eq!(f.log.len(), 1);
    assert_eq!((f.log[0].side, f.log[0].action), (Side::Black, act(Move, (4, 1), (3, 1))));
    // Now neither side can act.
    assert_eq!(f.outcome.winner, None);
    assert_eq!(f.outcome.victory, Victory::Draw);
    assert_eq!(f.outcome.points, [r.points.draw, r.points.draw]);
    assert_eq!(f.outcome.points, [1, 1]);
    assert_eq!((f.outcome.valid, f.outcome.actions), ([true, true], 1));
}

#[test]
fn the_referee_mirrors_blacks_view_and_answer_and_an_invalid_answer_loses_for_that_bot_only() {
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
    let r = rules();
    let mut white = Scripted::new(vec![
        Ok(Answer::from(act(Move, (2, 2), (3, 2)))),
        Ok(Answer { from: sq(3, 2), to: sq(2, 2), kind: None, elapsed: None, line: None }),
    ]);
    // Black's robot on (4, 3) is on (2, 3) in its view; (2, 3) → (3, 3) there is (4, 3) → (3, 3).
    let mut black = Scripted::new(vec![Ok(Answer::from(act(Move, (2, 3), (3, 3))))]);
    let opts = referee::Options { time_limit: Duration::from_secs(1), record: true };
    let players: [&mut dyn Player; 2] = [&mut white, &mut black];
    let f = referee::play(&r, b.clone(), players, &opts);
    let mut after_white = b.clone();
    moves::apply(&mut after_white, Side::White, act(Move, (2, 2), (3, 2)));
    assert_eq!(black.seen, vec![after_white.mirrored()]);
    assert_eq!(f.log[1].action, act(Move, (4, 3), (3, 3)));
    let o = &f.outcome;
    assert_eq!((o.winner, o.victory), (Some(Side::Black), Victory::OpponentInvalid));
    assert_eq!((o.points, o.valid, o.actions), ([0, 3], [false, true], 2));
    let fault = &o.reasons[&Side::White];
    assert_eq!(fault.reason, Reason::IllegalAction);
    assert_eq!(fault.detail, "(3, 2) → (2, 2) does not go forward: robots never move back or sideways");
    assert_eq!(fault.answer.as_deref(), Some(r#"{"action":"move","from":[3,2],"to":[2,2]}"#));
}

#[test]
fn a_fault_of_any_kind_gives_the_opponent_the_invalid_opponent_points() {
    let r = rules();
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
    for reason in [Reason::Timeout, Reason::Malformed, Reason::Crash, Reason::OutputLimit] {
        let mut white = Scripted::new(vec![Ok(Answer::from(act(Move, (2, 2), (3, 2))))]);
        let mut black = Scripted::new(vec![Err(Fault::new(reason, "constructed"))]);
        let players: [&mut dyn Player; 2] = [&mut white, &mut black];
        let opts = referee::Options { time_limit: Duration::from_secs(1), record: false };
        let o = referee::play(&r, b.clone(), players, &opts).outcome;
        assert_eq!(
            (o.winner, o.victory, o.points, o.valid),
            (Some(Side::White), Victory::OpponentInvalid, [3, 0], [true, false])
        );
        assert_eq!(o.reasons[&Side::Black].reason, reason);
        assert_eq!(serde_json::to_value(&o).unwrap()["reasons"]["black"]["reason"], reason.name());
    }
}

#[test]
fn answers_are_refused_with_their_reason() {
    let b = board(
        "
        = = = = =
        . . . . .
        . . B b .
        . . . . .
        . w . w .
        . . . . .
        = = = = =",
    );
    let r = rules();
    let refuse = |from: (u8, u8), to: (u8, u8), claimed| {
        classify(&b, Side::White, &r.actions, sq(from.0, from.1), sq(to.0, to.1), claimed).unwrap_err()
    };
    assert_eq!(refuse((1, 1), (2, 1), None), "no robot of yours on (1, 1)");
    assert_eq!(refuse((4, 3), (3, 3), None), "(4, 3) holds a black robot, not one of yours");
    assert_eq!(refuse((2, 2), (2, 3), None), "(2, 2) → (2, 3) does not go forward: robots never move back or sideways");
    assert_eq!(
        refuse((2, 2), (5, 2), None),
        "(5, 2) is out of reach from (2, 2): one or two rows ahead, at most one column aside"
    );
    assert_eq!(
        refuse((2, 2), (3, 4), None),
        "(3, 4) is out of reach from (2, 2): one or two rows ahead, at most one column aside"
    );
    assert_eq!(refuse((2, 2), (3, 2), Some(Attack)), "(2, 2) → (3, 2) is a move, not an attack");
    assert_eq!(refuse((2, 2), (4, 3), Some(Move)), "(2, 2) → (4, 3) is a suicide, not a move");
    // The kind may be left out, and the board decides it.
    assert_eq!(classify(&b, Side::White, &r.actions, sq(2, 4), sq(4, 4), None), Ok(Suicide));
    let mut variant = r.actions;
    variant.suicide_attack = false;
    variant.two_step_move = false;
    assert_eq!(
        classify(&b, Side::White, &variant, sq(2, 4), sq(4, 4), None).unwrap_err(),
        "suicide attacks are not allowed under these rules"
    );
    assert_eq!(
        classify(&b, Side::White, &variant, sq(2, 2), sq(4, 2), None).unwrap_err(),
        "two-step moves are not allowed under these rules"
    );
}
