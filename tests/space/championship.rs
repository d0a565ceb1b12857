//! The course's championship scoring on constructed outcomes: points, validity and groups,
//! group A's linear grades, group B's 5 × valid share, and the final grade over C championships.

use crate::space_support;
use microfut::space::championship::{Group, final_grades, schedule, standings};
use microfut::space::referee::{Fault, Outcome, Reason};
use microfut::space::{Side, Victory};
use space_support::*;

fn won(winner: Side, v: Victory) -> Outcome {
    Outcome::new(&rules(), Some(winner), v, None, 20)
}

fn invalid(side: Side) -> Outcome {
    Outcome::new(
        &rules(),
        Some(side.other()),
        Victory::OpponentInvalid,
        Some((side, Fault::new(Reason::Timeout, "late"))),
        7,
    )
}

fn draw() -> Outcome {
    Outcome::new(&rules(), None, Victory::Draw, None, 30)
}

const A: usize = 0;
const B: usize = 1;
const C: usize = 2;
const D: usize = 3;

#[test]
fn standings_points_groups_and_grades_of_a_constructed_championship() {
    use Side::{Black, White};
    let results = vec![
        (A, B, won(White, Victory::Goal)),        // A 3
        (B, A, won(Black, Victory::Destruction)), // A 2
        (A, C, draw()),                           // 1 each
        (C, A, won(White, Victory::Goal)),        // C 3
        (A, D, invalid(Black)),                   // A 3, D invalid
        (D, A, won(Black, Victory::Goal)),        // A 3
        (B, C, won(Black, Victory::Destruction)), // C 2
        (C, B, draw()),                           // 1 each
        (B, D, won(White, Victory::Goal)),        // B 3
        (D, B, invalid(White)),                   // B 3, D invalid
        (C, D, won(Black, Victory::Goal)),        // D 3
        (D, C, won(Black, Victory::Goal)),        // C 3
    ];
    let refs: Vec<(usize, usize, &Outcome)> = results.iter().map(|(w, b, o)| (*w, *b, o)).collect();
    let s = standings(&rules(), 4, &refs);
    let row = |i: usize| (s[i].points, s[i].matches, s[i].wins, s[i].draws, s[i].losses, s[i].valid, s[i].group);
    assert_eq!(row(A), (12, 6, 4, 1, 1, 6, Group::A));
    assert_eq!(row(B), (7, 6, 2, 1, 3, 6, Group::A));
    assert_eq!(row(C), (10, 6, 3, 2, 1, 6, Group::A));
    assert_eq!(row(D), (3, 6, 1, 0, 5, 4, Group::B));
    // Group A: 12 points → 10, 7 → 5, 10 → 5 + (10 − 7)/(12 − 7) × 5 = 8. Group B: 5 × 4/6.
    let grades: Vec<f64> = s.iter().map(|x| x.grade).collect();
    assert_eq!(grades[..3], [10.0, 5.0, 8.0]);
    assert!((grades[3] - 5.0 * 4.0 / 6.0).abs() < 1e-12, "{grades:?}");
    assert!((s[D].valid_share - 4.0 / 6.0).abs() < 1e-12);
}

#[test]
fn the_validity_threshold_is_inclusive() {
    // Six bots, ten matches each; white always scores. Bot 4 is invalid once (90 %), bot 5 twice (80 %).
    let mut results = Vec::new();
    let mut faults = [0, 0, 0, 0, 1, 2];
    for (w, b) in schedule(6, 1).into_iter().map(|f| (f.white, f.black)) {
        let o = if faults[b] > 0 {
            faults[b] -= 1;
            invalid(Side::Black)
        } else {
            won(Side::White, Victory::Goal)
        };
        results.push((w, b, o));
    }
    let refs: Vec<(usize, usize, &Outcome)> = results.iter().map(|(w, b, o)| (*w, *b, o)).collect();
    let s = standings(&rules(), 6, &refs);
    assert_eq!((s[4].valid, s[4].matches, s[4].group), (9, 10, Group::A));
    assert_eq!((s[5].valid, s[5].matches, s[5].group), (8, 10, Group::B));
    assert_eq!(s[5].grade, 4.0);
}

#[test]
fn group_a_all_tied_all_get_ten() {
    let results = [(A, B, won(Side::White, Victory::Goal)), (B, A, won(Side::White, Victory::Goal))];
    let refs: Vec<(usize, usize, &Outcome)> = results.iter().map(|(w, b, o)| (*w, *b, o)).collect();
    let s = standings(&rules(), 2, &refs);
    assert_eq!((s[0].points, s[1].points), (3, 3));
    assert_eq!((s[0].grade, s[1].grade), (10.0, 10.0));
}

#[test]
fn the_final_grade_over_several_championships() {
    // S = grade / 10; Min = C / 2 = 1; Max = 1.8 (bot C).
    let g = final_grades(&rules(), &[vec![10.0, 5.0, 8.0, 10.0 / 3.0], vec![5.0, 10.0, 10.0, 0.0]]);
    let totals: Vec<f64> = g.iter().map(|f| f.total).collect();
    let grades: Vec<f64> = g.iter().map(|f| f.grade).collect();
    let close = |a: f64, b: f64| (a - b).abs() < 1e-9;
    assert!(close(totals[0], 1.5) && close(totals[2], 1.8) && close(totals[3], 1.0 / 3.0), "{totals:?}");
    // From Min up: (P − Min)/(Max − Min) × 5 + 5; below Min: P/Min × 5.
    assert!(close(grades[0], 0.5 / 0.8 * 5.0 + 5.0), "{grades:?}");
    assert!(close(grades[1], grades[0]));
    assert!(close(grades[2], 10.0));
    assert!(close(grades[3], 5.0 / 3.0), "{grades:?}");
}

#[test]
fn the_final_grade_when_the_best_total_is_the_minimum() {
    // Everyone got 5 twice: P = 1 = Min = Max; the top total earns the top grade.
    let g = final_grades(&rules(), &[vec![5.0, 5.0], vec![5.0, 5.0]]);
    assert_eq!(g.iter().map(|f| f.grade).collect::<Vec<_>>(), [10.0, 10.0]);
    // Nobody reaches Min: every grade is below 5.
    let g = final_grades(&rules(), &[vec![2.0, 4.0], vec![0.0, 4.0]]);
    assert_eq!(g.iter().map(|f| f.grade).collect::<Vec<_>>(), [1.0, 4.0]);
}

#[test]
fn every_pair_plays_twice_with_the_colours_swapped() {
    let f = schedule(30, 1);
    assert_eq!(f.len(), 870);
    let pairs: std::collections::BTreeSet<(usize, usize)> = f.iter().map(|x| (x.white, x.black)).collect();
    assert_eq!(pairs.len(), 870);
    assert!(pairs.iter().all(|&(w, b)| w != b && pairs.contains(&(b, w))));
    assert_eq!(schedule(3, 2).len(), 12);
}
