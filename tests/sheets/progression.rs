//! Progression (document §15–§17): applied XP, support XP, one level at a time under the age
//! cap, exact fractions, ageing.

use crate::common;
use common::*;
use microfut::sheet::progression::Event;
use microfut::sheet::{Progression, ProgressionError, Sheet, Trainer, Xp};
use std::path::Path;

const DRAFT: &str = "0.5.1";

fn fixture(name: &str) -> Sheet {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/sheets").join(format!("{name}.json"));
    Sheet::load(&path).expect("fixture reads").0
}

fn xp(s: &str) -> Xp {
    Xp::parse(s).unwrap()
}

fn award(name: &str, given: &[(&str, &str)]) -> (Sheet, microfut::sheet::progression::Outcome) {
    let rs = ruleset(DRAFT);
    let t = Trainer::new(&rs).unwrap();
    let mut s = fixture(name);
    let awards: Vec<(String, Xp)> = given.iter().map(|(k, v)| (k.to_string(), xp(v))).collect();
    let o = t.award(&mut s, &awards).unwrap();
    (s, o)
}

fn channel(s: &Sheet, id: &str) -> (Xp, Xp, Xp) {
    let c = &Progression::of(s).unwrap().channels[id];
    (c.raw, c.applied, c.banked)
}

/// Passing 9 on a youth: 400 raw pays 9→10 at ×1.25 (40 raw), 10→11 and 11→12 at ×1 (100 raw
/// each), and banks the last 160 raw at ×0.85. Support: DX 25 %, perception 15 %, control 10 %.
#[test]
fn support_xp_and_levels_by_hand() {
    let (s, o) = award("youth", &[("passing", "400")]);
    assert_eq!(s.skills["passing"], 12);
    assert_eq!(channel(&s, "passing"), (xp("400"), xp("386"), xp("136")));
    let levels: Vec<(&str, i32, i32, Xp)> =
        o.levels.iter().map(|l| (l.channel.as_str(), l.from, l.to, l.cost)).collect();
    assert_eq!(levels, [("passing", 9, 10, xp("50")), ("passing", 10, 11, xp("100")), ("passing", 11, 12, xp("100"))]);
    let direct = &o.flows[0];
    assert_eq!(direct.multipliers, [xp("1.25"), xp("1"), xp("0.85")]);
    // DX 12: 100 raw × 0.85; perception is 9: 60 raw × 1.25; control 11: 40 raw × 1.
    assert_eq!(channel(&s, "dx"), (xp("100"), xp("85"), xp("85")));
    assert_eq!(channel(&s, "perception"), (xp("60"), xp("75"), xp("75")));
    assert_eq!(channel(&s, "control"), (xp("40"), xp("40"), xp("40")));
    let from: Vec<(&str, Option<&str>)> = o.flows.iter().map(|f| (f.channel.as_str(), f.from.as_deref())).collect();
    assert_eq!(
        from,
        [("passing", None), ("dx", Some("passing")), ("perception", Some("passing")), ("control", Some("passing"))]
    );
    assert_eq!(o.channels["passing"].next_cost, Some(xp("200")));
    // Finishing is modified by control; heading is not, and its characteristic is jumping.
    let (s, _) = award("youth", &[("heading", "100")]);
    let p = Progression::of(&s).unwrap();
    assert!(p.channels.contains_key("jumping") && !p.channels.contains_key("control"));
}

/// DX 12 → 13 costs 2 × 150 at ×0.85: 400 raw leaves 400 − 6000/17 raw, which at ×0.85 is
/// exactly 40 applied. Speed and balance are recalculated.
#[test]
fn an_attribute_level_recalculates_characteristics() {
    let (s, o) = award("youth", &[("dx", "400")]);
    assert_eq!(s.attributes["dx"], 13);
    assert_eq!(channel(&s, "dx"), (xp("400"), xp("340"), xp("40")));
    assert_eq!(o.levels.len(), 1);
    let rec: Vec<(&str, [i32; 2])> = o.levels[0].recalculated.iter().map(|(k, v)| (k.as_str(), *v)).collect();
    assert_eq!(rec, [("balance", [11, 12]), ("speed", [12, 13])]);
    let history = Progression::of(&s).unwrap().history;
    assert!(
        matches!(&history[1], Event::Level { channel, recalculated, .. } if channel == "dx" && recalculated.len() == 2)
    );
}

/// The multiplier of a characteristic's channel is the characteristic's value; training costs
/// are the differences of the cumulative table.
#[test]
fn training_channels() {
    let (s, o) = award("youth", &[("speed", "200")]);
    // Speed is 12: ×0.85 → 170, short of the 300 that +1 → +2 costs.
    assert_eq!(channel(&s, "speed"), (xp("200"), xp("170"), xp("170")));
    assert_eq!(s.training["speed"], 1);
    assert_eq!(o.channels["speed"].next_cost, Some(xp("300")));
    let (s, _) = award("youth", &[("willpower", "40")]);
    // Willpower 8 (×1.25): 40 raw = 50 applied pays −1 → 0.
    assert_eq!(s.training["willpower"], 0);
    assert_eq!(channel(&s, "willpower").2, Xp::ZERO);
}

#[test]
fn a_trait_at_the_top_banks_what_it_receives() {
    let (s, o) = award("star", &[("dribbling", "100")]);
    assert_eq!(s.skills["dribbling"], 18);
    assert_eq!(channel(&s, "dribbling"), (xp("100"), xp("40"), xp("40")));
    assert_eq!(o.channels["dribbling"].next_cost, None);
}

/// The star is 100 XP under his cap: heading 12 → 13 (200 positive XP) is held, the XP stays
/// banked, and a birthday (27 → 28 raises the cap to 26,666.67) pays it.
#[test]
fn the_cap_holds_a_level_until_ageing_allows_it() {
    let rs = ruleset(DRAFT);
    let t = Trainer::new(&rs).unwrap();
    let mut s = fixture("star");
    let o = t.award(&mut s, &[("heading".into(), xp("300"))]).unwrap();
    assert_eq!(s.skills["heading"], 12);
    assert_eq!(o.held.len(), 1);
    assert_eq!((o.held[0].next, o.held[0].positive_xp_after, o.held[0].cap), (13, 26_100.0, 26_000.0));
    assert_eq!(channel(&s, "heading"), (xp("300"), xp("255"), xp("255")));
    assert!(s.problems(&rs).unwrap().is_empty(), "training never takes a sheet over its cap");
    // More XP while held stays banked, at the current level's multiplier.
    t.award(&mut s, &[("heading".into(), xp("20"))]).unwrap();
    assert_eq!(channel(&s, "heading").2, xp("272"));
    let a = t.age(&mut s, 1).unwrap();
    assert_eq!((a.from, a.to), (27, 28));
    assert_eq!(s.skills["heading"], 13);
    assert_eq!(channel(&s, "heading").2, xp("72"));
    assert_eq!(a.settled.levels.len(), 1);
    let h = Progression::of(&s).unwrap().history;
    let kinds: Vec<&str> = h
        .iter()
        .map(|e| match e {
            Event::Award { .. } => "award",
            Event::Level { .. } => "level",
            Event::Capped { .. } => "capped",
            Event::Aged { .. } => "aged",
        })
        .collect();
    assert_eq!(kinds, ["award", "capped", "award", "aged", "level"], "held once, then paid after the birthday");
}

/// Ten thousand awards of 0.1 XP end exactly where one award of 1,000 does: no float drift, and
/// paying a level mid-award continues at the new level's multiplier.
#[test]
fn ten_thousand_small_awards_equal_one_large() {
    let rs = ruleset(DRAFT);
    let t = Trainer::new(&rs).unwrap();
    let mut season = t.session(&fixture("youth")).unwrap();
    for _ in 0..10_000 {
        season.award(&[("passing".into(), xp("0.1"))]).unwrap();
    }
    let small = season.finish();
    let mut large = fixture("youth");
    t.award(&mut large, &[("passing".into(), xp("1000"))]).unwrap();
    let (ps, pl) = (Progression::of(&small).unwrap(), Progression::of(&large).unwrap());
    assert_eq!(ps.channels, pl.channels);
    assert_eq!(
        (&small.attributes, &small.skills, &small.training),
        (&large.attributes, &large.skills, &large.training)
    );
    assert_eq!(ps.channels["passing"].raw, xp("1000"));
    assert_eq!(ps.channels["dx"].raw, xp("250"));
    assert_eq!(ps.channels["perception"].raw, xp("150"));
    assert_eq!(ps.channels["control"].raw, xp("100"));
    // Passing 9 → 12 takes 40 + 100 + 100 raw; 12 → 13 and 13 → 14 at ×0.85 take 4000/17 and
    // 5000/17; the last 3920/17 raw is banked at 14's ×0.7: 2744/17 applied, not a decimal.
    assert_eq!(small.skills["passing"], 14);
    assert_eq!(ps.channels["passing"].banked, xp("2744/17"));
    let levels = |p: &Progression| p.history.iter().filter(|e| matches!(e, Event::Level { .. })).count();
    assert_eq!(levels(&ps), levels(&pl));
}

#[test]
fn ageing_applies_the_res_penalty_and_recalculates() {
    let rs = ruleset(DRAFT);
    let t = Trainer::new(&rs).unwrap();
    let mut s = fixture("veteran");
    let a = t.age(&mut s, 1).unwrap();
    assert_eq!(s.age, 37);
    assert_eq!(a.res_practical, [9, 7], "penalty −5 at 36, −7 at 37");
    assert_eq!(a.cap, [29_500.0, 29_625.0]);
    assert_eq!(a.recalculated.get("speed"), Some(&[8, 7]));
    assert_eq!(a.recalculated.get("acceleration"), Some(&[12, 11]));
    assert_eq!(s.attributes["res"], 14, "RES base is not touched");
    let mut young = fixture("youth");
    let a = t.age(&mut young, 3).unwrap();
    assert_eq!((a.res_practical, a.cap), ([11, 11], [8_000.0, 14_000.0]));
    assert!(a.recalculated.is_empty());
}

#[test]
fn bad_awards_change_nothing() {
    let rs = ruleset(DRAFT);
    let t = Trainer::new(&rs).unwrap();
    let before = fixture("youth");
    let mut s = before.clone();
    let e = t.award(&mut s, &[("passing".into(), xp("10")), ("pasing".into(), xp("10"))]).unwrap_err();
    assert!(e.to_string().contains("unknown XP channel 'pasing' (did you mean 'passing'?)"), "{e}");
    assert_eq!(s, before);
    let e = t.award(&mut s, &[("passing".into(), xp("0"))]).unwrap_err();
    assert!(matches!(e, ProgressionError::NotPositive { .. }));
    let e = t.age(&mut s, 50).unwrap_err().to_string();
    assert!(e.contains("/age: 17 + 50 year(s) is 67, outside the age scale 15..60"), "{e}");
    assert!(matches!(t.age(&mut s, 0), Err(ProgressionError::NoYears)));
    let mut over = fixture("star");
    over.skills.insert("heading".into(), 13);
    let e = t.award(&mut over, &[("passing".into(), xp("1"))]).unwrap_err().to_string();
    assert!(e.contains("exceeds the age cap at 27"), "{e}");
    let mut broken = fixture("youth");
    broken.progression = serde_json::json!({"channels": {"passing": {"raw": "x"}}});
    assert!(
        t.award(&mut broken, &[("passing".into(), xp("1"))])
            .unwrap_err()
            .to_string()
            .starts_with("/progression/channels/passing/raw: not a progression record")
    );
    assert_eq!(s, before);
}

#[test]
fn the_record_round_trips_through_the_sheet_file() {
    let (s, _) = award("youth", &[("finishing", "333.3"), ("speed", "17/3")]);
    let text = serde_json::to_string_pretty(&s).unwrap();
    let (back, schema) = Sheet::parse(text.as_bytes(), "trained.json").unwrap();
    assert!(schema.is_empty(), "a trained sheet matches the sheet schema: {schema:?}");
    assert_eq!(back, s);
    let p = Progression::of(&back).unwrap();
    assert_eq!(p.channels["speed"].raw, xp("17/3"));
    assert!(text.contains("\"banked\": \""), "amounts are exact strings");
}

#[test]
fn progression_needs_the_sheet_rules() {
    let rs = ruleset(BASELINE);
    let e = Trainer::new(&rs).err().unwrap().to_string();
    assert_eq!(
        e,
        "revision microfut 0.5.0 has no document with schema 'sheet_rules.schema.json', which the progression needs; name a revision that has it with --revision"
    );
}
