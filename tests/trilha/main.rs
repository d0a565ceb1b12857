//! Trilha do Mandacaru: the rules compiled from content, their meaning checks, the game, the
//! balance the authors claimed, and the printable board.

#[path = "../common/mod.rs"]
mod common;
use common::*;
use microfut::catalog::{Catalog, ContentTree, Revision};
use microfut::dice::Dice;
use microfut::lab::{self, Report, Request, Shard};
use microfut::trilha::{self, EndRule, TrilhaSimulator, board};
use proptest::prelude::*;
use serde_json::{Value, json};

/// Trilha 1.0.0, loaded once (loading validates every revision of the catalog).
fn revision() -> Revision {
    static REV: std::sync::OnceLock<Revision> = std::sync::OnceLock::new();
    REV.get_or_init(|| {
        Catalog::load(&ContentTree::embedded()).revision("trilha", Some("1.0.0")).expect("trilha 1.0.0").clone()
    })
    .clone()
}

fn rules() -> trilha::Rules {
    trilha::compile(&revision()).expect("compiles")
}

/// Trilha 1.0.0 with one document edited in memory, compiled; the problems as text.
fn problems(doc: &str, edit: impl FnOnce(&mut Value)) -> Vec<String> {
    let mut rev = revision();
    edit(rev.documents.get_mut(doc).expect("document"));
    match trilha::compile(&rev) {
        Ok(_) => panic!("expected problems"),
        Err(d) => d.iter().map(ToString::to_string).collect(),
    }
}

#[test]
fn the_rules_file_as_compiled() {
    let r = rules();
    assert_eq!((r.first, r.finish), (0, 30));
    assert_eq!((r.dice_count, r.dice_sides), (2, 6));
    assert_eq!(r.end, EndRule::CompleteTheRound);
    let starts: Vec<i32> = r.seats.iter().map(|s| s.start).collect();
    assert_eq!(starts, [0, 0, 0]);
    let order: Vec<&str> = r.seats.iter().map(|s| s.id.as_str()).collect();
    assert_eq!(order, ["p1", "p2", "p3"]);
    // Droughts: back 3. Reservoirs: forward 2, and the drought they lead onto has no effect.
    for (square, lands) in [(7, 4), (14, 11), (21, 18), (28, 25), (5, 7), (12, 14), (19, 21), (26, 28)] {
        assert_eq!(r.land(square), lands, "landing on {square}");
    }
    for plain in [1, 4, 6, 29, 30, 35] {
        assert_eq!(r.land(plain), plain);
    }
}

#[test]
fn a_special_square_off_the_track() {
    let p = problems("board.json", |b| b["specials"]["drought"]["squares"][3] = json!(31));
    assert_eq!(
        p,
        [
            "trilha/1.0.0/board.json#/specials/drought/squares/3: square 31 is off the track for specials: they lie strictly between the first square 0 and the finish 30"
        ]
    );
}

#[test]
fn a_start_square_beyond_the_finish() {
    let p = problems("play.json", |b| b["seats"]["p2"]["start"] = json!(30));
    assert_eq!(p, ["trilha/1.0.0/play.json#/seats/p2/start: start square 30 is at or beyond the finish 30"]);
}

#[test]
fn every_problem_is_reported_at_once() {
    let p = problems("play.json", |b| {
        b["seats"]["p1"]["strategy"] = json!("clever");
        b["seats"]["p3"]["order"] = json!(2);
        b["seats"]["p3"]["start"] = json!(-1);
    });
    assert_eq!(p.len(), 3, "{p:#?}");
    assert!(p[0].contains("#/seats/p1/strategy: unknown strategy 'clever' (strategies: random, smart)"));
    assert!(p[1].contains("#/seats/p3/order: order 2 is also p2's"));
    assert!(p[2].contains("#/seats/p3/start: start square -1 is before the first square 0"));
}

#[test]
fn one_square_one_kind_and_no_effect_before_the_start() {
    let p = problems("board.json", |b| {
        b["specials"]["reservoir"]["squares"][0] = json!(14);
        b["specials"]["drought"]["squares"][0] = json!(2);
    });
    assert!(p.iter().any(|m| m.contains("#/specials/drought/move: moves a pawn from square 2 to -1")), "{p:#?}");
    assert!(
        p.iter().any(|m| m.contains("#/specials/reservoir/squares/0: square 14 is already a drought square")),
        "{p:#?}"
    );
}

#[test]
fn chained_effects_that_loop() {
    let p = problems("board.json", |b| {
        b["specials"]["drought"]["chain"] = json!(true);
        b["specials"]["reservoir"]["chain"] = json!(true);
        b["specials"]["reservoir"]["squares"] = json!([4]);
        b["specials"]["reservoir"]["move"] = json!(3);
    });
    assert_eq!(p, ["trilha/1.0.0/board.json#/specials: chained effects loop forever: 4 → 7 → 4"]);
}

#[test]
fn a_board_where_a_game_could_never_end() {
    let p = problems("board.json", |b| {
        b["specials"] = json!({"pit": {"label": {"pt-BR": "Buraco", "en": "Pit"}, "squares": [1, 2, 3, 4, 5, 6], "move": -1, "chain": true}});
    });
    assert_eq!(
        p,
        ["trilha/1.0.0/board.json#/specials: from square 0 no roll moves a pawn forward, so a game could never end"]
    );
}

#[test]
fn the_authors_claims_hold_at_100_000_games() {
    let rev = revision();
    let req = Request { revision: &rev, against: None, scenarios: &[], simulations: 100_000, seed: 1 };
    let prepared = lab::prepare(&TrilhaSimulator, &req).unwrap();
    let accs = lab::run(&TrilhaSimulator, &prepared, Shard::ALL, &|_| {}).unwrap();
    let v = Report::new(prepared.identity, &accs).json();
    let shares = |i: usize| -> Vec<f64> {
        v["scenarios"][i]["win_share"].as_array().unwrap().iter().map(|x| x.as_f64().unwrap()).collect()
    };
    // G, the final rules: fair within half a percentage point.
    for s in shares(6) {
        assert!((s - 1.0 / 3.0).abs() < 0.005, "G: {:?}", shares(6));
    }
    // D: the only smart player wins far more often than the two random ones together.
    let d = shares(3);
    assert!(d[1] > 0.6 && d[1] > d[0] + d[2], "D: {d:?}");
    // C: without completing the round, playing first is a big advantage.
    let c = shares(2);
    assert!(c[0] > c[1] && c[1] > c[2] && c[0] - c[2] > 0.2, "C: {c:?}");
    // Two dice well chosen make the race shorter than one die.
    let rounds = |i: usize| v["scenarios"][i]["mean_rounds"].as_f64().unwrap();
    assert!(rounds(6) < rounds(7), "G {} vs H {}", rounds(6), rounds(7));
}

proptest! {
    /// Any game under the final rules: someone wins, a win is shared only by pawns equally far
    /// along, and nobody can finish faster than 30 squares at 6 + 2 a turn allow.
    #[test]
    fn every_game_ends_with_a_winner(seed in any::<u64>()) {
        let r = rules();
        let o = trilha::play(&r, &mut Dice::new(seed));
        prop_assert!(o.winners != 0 && o.winners < 1 << r.seats.len());
        prop_assert!(o.rounds >= 4, "{} rounds", o.rounds);
        // The same dice play the same game.
        prop_assert_eq!(trilha::play(&r, &mut Dice::new(seed)), o);
    }

    /// First to finish: exactly one winner, always.
    #[test]
    fn first_to_finish_has_one_winner(seed in any::<u64>()) {
        let mut rev = revision();
        rev.documents.get_mut("play.json").unwrap()["end"]["rule"] = json!("first_to_finish");
        let r = trilha::compile(&rev).unwrap();
        prop_assert_eq!(trilha::play(&r, &mut Dice::new(seed)).winner_count(), 1);
    }
}

#[test]
fn tie_rules_settle_a_shared_finish_differently() {
    // Find a game of the final rules that ends in a tie, then replay it under the other rules.
    let base = rules();
    let seed = (0..).find(|s| trilha::play(&base, &mut Dice::new(*s)).winner_count() > 1).unwrap();
    let tied = trilha::play(&base, &mut Dice::new(seed)).winners;
    for (rule, expected) in
        [("earlier_seat", tied & tied.wrapping_neg()), ("later_seat", 1 << (31 - tied.leading_zeros()))]
    {
        let mut rev = revision();
        rev.documents.get_mut("play.json").unwrap()["ties"] = json!(rule);
        let r = trilha::compile(&rev).unwrap();
        assert_eq!(trilha::play(&r, &mut Dice::new(seed)).winners, expected, "{rule}");
    }
}

#[test]
fn the_board_is_an_a4_landscape_svg_of_the_content() {
    let svg = board::svg(&rules(), board::Lang::En);
    assert!(svg.starts_with("<?xml"));
    assert!(svg.contains(r#"width="297mm" height="210mm" viewBox="0 0 297 210""#));
    assert_eq!(svg.matches(r#"class="square""#).count(), 31);
    for sq in [7, 14, 21, 28] {
        assert!(svg.contains(&format!(r#"data-square="{sq}" data-kind="drought""#)), "{sq}");
    }
    for sq in [5, 12, 19, 26] {
        assert!(svg.contains(&format!(r#"data-square="{sq}" data-kind="reservoir""#)), "{sq}");
    }
    assert!(svg.contains(">START<") && svg.contains(">FINISH<"));
    assert!(svg.trim_end().ends_with("</svg>"));
    insta::assert_snapshot!("trilha_board_en", svg);
}

#[test]
fn the_board_command_draws_in_portuguese_and_per_scenario() {
    let o = run(&["trilha", "board", "--lang", "pt-BR"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let svg = stdout(&o);
    assert!(svg.contains(">SECA<") && svg.contains(">AÇUDE<") && svg.contains(">−3<") && svg.contains(">+2<"));
    assert!(svg.contains(">INÍCIO<") && svg.contains(">CHEGADA<"));
    assert!(svg.contains("Empatados dividem a vitória."));
    // Scenario F starts players 2 and 3 on squares 2 and 4; A is a one-die race.
    let f = stdout(&run(&["trilha", "board", "--scenario", "F"]));
    assert!(f.contains(">Player 2<") && f.contains(">Player 3<"));
    let a = stdout(&run(&["trilha", "board", "--scenario", "A"]));
    assert!(a.contains("Roll one die (d6) and move.") && a.contains("The first to reach square 30 wins."));
    let o = run(&["trilha", "board", "--scenario", "Z"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("unknown scenario 'Z'"));
    assert!(stdout(&o).is_empty());
}
