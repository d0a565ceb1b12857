//! Sheet ledgers computed by hand, number by number, for three players; and sheets refused field
//! by field.

use crate::common;
use common::*;
use microfut::sheet::{Sheet, SheetView, TraitKind};
use std::path::Path;

/// The draft revision that holds the sheet rules.
const DRAFT: &str = "0.5.1";

fn fixture(name: &str) -> Sheet {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/sheets").join(format!("{name}.json"));
    let (sheet, schema) = Sheet::load(&path).expect("fixture reads");
    assert!(schema.is_empty(), "{schema:?}");
    sheet
}

fn view(name: &str) -> SheetView {
    fixture(name).view(&ruleset(DRAFT)).expect("fixture is valid")
}

/// (item, from, to, XP) of every ledger line.
fn lines(v: &SheetView) -> Vec<(&str, i32, i32, f64)> {
    v.ledger.lines.iter().map(|l| (l.item.as_str(), l.from, l.to, l.xp)).collect()
}

fn characteristic(v: &SheetView, id: &str) -> (f64, i32, i32, f64) {
    let c = v.characteristics.iter().find(|c| c.id == id).unwrap();
    (c.base, c.training, c.value, c.cost)
}

/// A 17-year-old striker: credits below the free levels, cheap purchases, cap 8,000.
#[test]
fn youth_ledger_by_hand() {
    let v = view("youth");
    // Attributes: ST 10 free; DX 10→12 = 2 × (100 + 100); IQ 9 = −2 × 100; RES 10→11 = 100.
    // Training: speed +1 = 200, acceleration +1 = 200, willpower −1 = −50.
    // Skills (free at 8): control 11 = 50+50+100, passing 9 = 50, kicking 11 = 200,
    // dribbling 12 = 300, finishing 13 = 500, crossing 7 = −25, heading 8 free,
    // tackling 5 = −75, positioning 10 = 100, goalkeeping 3 = −125.
    assert_eq!(
        lines(&v),
        [
            ("dx", 10, 12, 400.0),
            ("iq", 10, 9, -200.0),
            ("res", 10, 11, 100.0),
            ("speed", 0, 1, 200.0),
            ("acceleration", 0, 1, 200.0),
            ("willpower", 0, -1, -50.0),
            ("control", 8, 11, 200.0),
            ("passing", 8, 9, 50.0),
            ("kicking", 8, 11, 200.0),
            ("dribbling", 8, 12, 300.0),
            ("finishing", 8, 13, 500.0),
            ("crossing", 8, 7, -25.0),
            ("tackling", 8, 5, -75.0),
            ("positioning", 8, 10, 100.0),
            ("goalkeeping", 8, 3, -125.0),
        ]
    );
    let dx = &v.ledger.lines[0];
    assert_eq!((dx.factor, dx.steps.clone()), (2.0, vec![200.0, 200.0]));
    assert!(dx.sources[0].ends_with("tables.json#/tables/25") && dx.sources[1].contains("params.json#/params/"));
    assert_eq!(v.ledger.lines[1].steps, [-200.0], "IQ 9 is one DX/IQ credit of 2 × 100");
    assert_eq!(v.ledger.lines.iter().find(|l| l.item == "goalkeeping").unwrap().steps, [-25.0; 5]);
    assert_eq!((v.ledger.positive, v.ledger.credits, v.ledger.net), (2250.0, -475.0, 1775.0));
    assert_eq!((v.ledger.cap, v.ledger.within_cap, v.ledger.cap_anchors), (8000.0, true, None));
    assert_eq!(v.ledger.band.tag, "base");
    // RES practical: no penalty at 17. Speed = round(0.45·12 + 0.55·11) + 1 = round(11.45) + 1.
    assert_eq!((v.res_practical.base, v.res_practical.age_penalty, v.res_practical.value), (11, 0.0, 11));
    assert_eq!(characteristic(&v, "speed"), (11.0, 1, 12, 200.0));
    // Acceleration = round(0.65·12 + 0.20·11 + 0.15·10) = round(11.5) = 12 (half up), +1.
    assert_eq!(characteristic(&v, "acceleration"), (12.0, 1, 13, 200.0));
    assert_eq!(characteristic(&v, "balance"), (11.0, 0, 11, 0.0));
    assert_eq!(characteristic(&v, "willpower"), (9.0, -1, 8, -50.0));
    assert_eq!(characteristic(&v, "jumping"), (11.0, 0, 11, 0.0));
    insta::assert_yaml_snapshot!("youth_ledger", v.ledger);
}

/// A 27-year-old elite winger 100 XP under the document's own anchor (27 → 26,000).
#[test]
fn star_near_his_cap_by_hand() {
    let v = view("star");
    // ST 12 = 200; DX 17 = 2 × 1,450; IQ 16 = 2 × 1,050; RES 17 = 1,450.
    // Training: +3 = 1,000 twice, +2 = 500, +1 = 200.
    // Skills: 17 = 2,450 (control, passing, finishing, positioning), 18 = 3,650 (dribbling),
    // 16 = 1,650 (kicking), 15 = 1,150 (crossing), 12 = 300 (heading), 7 = −25, 4 = −100.
    let expect = [
        ("st", 10, 12, 200.0),
        ("dx", 10, 17, 2900.0),
        ("iq", 10, 16, 2100.0),
        ("res", 10, 17, 1450.0),
        ("speed", 0, 3, 1000.0),
        ("acceleration", 0, 3, 1000.0),
        ("balance", 0, 2, 500.0),
        ("perception", 0, 1, 200.0),
        ("control", 8, 17, 2450.0),
        ("passing", 8, 17, 2450.0),
        ("kicking", 8, 16, 1650.0),
        ("dribbling", 8, 18, 3650.0),
        ("finishing", 8, 17, 2450.0),
        ("crossing", 8, 15, 1150.0),
        ("heading", 8, 12, 300.0),
        ("tackling", 8, 7, -25.0),
        ("positioning", 8, 17, 2450.0),
        ("goalkeeping", 8, 4, -100.0),
    ];
    assert_eq!(lines(&v), expect);
    let dribbling = v.ledger.lines.iter().find(|l| l.item == "dribbling").unwrap();
    assert_eq!(dribbling.steps, [50.0, 50.0, 100.0, 100.0, 200.0, 250.0, 400.0, 500.0, 800.0, 1200.0]);
    assert_eq!((v.ledger.positive, v.ledger.credits, v.ledger.net), (25_900.0, -125.0, 25_775.0));
    assert_eq!((v.ledger.cap, v.ledger.within_cap), (26_000.0, true));
    assert_eq!(v.ledger.band.tag, "elite");
    // Speed = round(0.45·17 + 0.55·17) + 3 = 20, clamped to 18; acceleration likewise.
    assert_eq!(characteristic(&v, "speed"), (17.0, 3, 18, 1000.0));
    assert_eq!(characteristic(&v, "acceleration"), (16.0, 3, 18, 1000.0));
    assert_eq!(characteristic(&v, "balance"), (15.0, 2, 17, 500.0));
    assert_eq!(characteristic(&v, "jumping"), (14.0, 0, 14, 0.0));
    insta::assert_yaml_snapshot!("star_ledger", v.ledger);
}

/// A 36-year-old centre-back: RES practical 14 − 5, characteristics follow, cap interpolated.
#[test]
fn veteran_of_36_by_hand() {
    let v = view("veteran");
    assert_eq!(
        lines(&v),
        [
            ("st", 10, 15, 750.0),
            ("dx", 10, 12, 400.0),
            ("iq", 10, 15, 1500.0),
            ("res", 10, 14, 500.0),
            ("speed", 0, -2, -100.0),
            ("perception", 0, 2, 500.0),
            ("jumping", 0, 1, 200.0),
            ("control", 8, 11, 200.0),
            ("passing", 8, 13, 500.0),
            ("kicking", 8, 12, 300.0),
            ("dribbling", 8, 6, -50.0),
            ("finishing", 8, 5, -75.0),
            ("crossing", 8, 6, -50.0),
            ("heading", 8, 17, 2450.0),
            ("tackling", 8, 17, 2450.0),
            ("positioning", 8, 16, 1650.0),
            ("goalkeeping", 8, 3, -125.0),
        ]
    );
    assert_eq!((v.ledger.positive, v.ledger.credits, v.ledger.net), (11_400.0, -400.0, 11_000.0));
    assert_eq!((v.ledger.cap, v.ledger.within_cap), (29_500.0, true), "36 is an anchor");
    assert_eq!(v.ledger.band.tag, "starter");
    assert_eq!((v.res_practical.base, v.res_practical.age_penalty, v.res_practical.value), (14, -5.0, 9));
    // Speed = round(0.45·12 + 0.55·9) − 2 = round(10.35) − 2 = 8.
    assert_eq!(characteristic(&v, "speed"), (10.0, -2, 8, -100.0));
    // Acceleration = round(0.65·12 + 0.20·9 + 0.15·15) = round(11.85) = 12.
    assert_eq!(characteristic(&v, "acceleration"), (12.0, 0, 12, 0.0));
    assert_eq!(characteristic(&v, "perception"), (15.0, 2, 17, 500.0));
    assert_eq!(characteristic(&v, "jumping"), (14.0, 1, 15, 200.0));
    insta::assert_yaml_snapshot!("veteran_ledger", v.ledger);
}

#[test]
fn cap_between_anchors_is_interpolated() {
    let mut s = fixture("veteran");
    s.age = 28;
    let v = s.view(&ruleset(DRAFT)).unwrap();
    // 27 → 26,000 and 30 → 28,000: 28 is a third of the way.
    assert!((v.ledger.cap - (26_000.0 + 2_000.0 / 3.0)).abs() < 1e-9);
    assert_eq!(v.ledger.cap_anchors, Some([27.0, 26_000.0, 30.0, 28_000.0]));
    assert_eq!(v.res_practical.value, 14, "no penalty before 31");
}

#[test]
fn res_practical_beyond_the_table_keeps_falling_to_3() {
    let rs = ruleset(DRAFT);
    let mut s = fixture("veteran");
    for (age, penalty, value) in [(40, -14.0, 3), (41, -16.0, 3)] {
        s.age = age;
        let v = s.view(&rs).unwrap();
        assert_eq!((v.res_practical.age_penalty, v.res_practical.value), (penalty, value), "age {age}");
    }
    s.attributes.insert("res".into(), 18);
    s.age = 40;
    assert_eq!(s.view(&rs).unwrap().res_practical.value, 4, "18 − 14");
}

fn problems(sheet: &Sheet) -> Vec<String> {
    sheet.problems(&ruleset(DRAFT)).unwrap().iter().map(|p| p.to_string()).collect()
}

#[test]
fn every_bad_field_is_named() {
    let mut s = fixture("youth");
    s.age = 14;
    s.attributes.insert("dx".into(), 19);
    s.training.insert("speed".into(), 4);
    s.skills.insert("shooting".into(), 12);
    s.skills.remove("heading");
    s.role = "libero".into();
    s.shirt = 0;
    s.personality.integrity = 6;
    let p = problems(&s);
    for needle in [
        "/age: 14 is outside 15..60",
        "/attributes/dx: 19 is outside 3..18",
        "/training/speed: 4 is outside -3..3",
        "/skills/shooting: unknown skill",
        "/skills/heading: missing",
        "/role: unknown role 'libero'",
        "/shirt: 0 is outside 1..99",
        "/personality/integrity: 6 is outside -5..5",
    ] {
        assert!(p.iter().any(|x| x.contains(needle)), "expected '{needle}' in {p:#?}");
    }
    assert!(!p.iter().any(|x| x.contains("cap")), "the cap is judged only on valid levels");
}

#[test]
fn unknown_names_get_a_hint() {
    let mut s = fixture("youth");
    s.skills.insert("pasing".into(), 12);
    s.training.insert("sped".into(), 1);
    let p = problems(&s);
    assert!(p.iter().any(|x| x.contains("/skills/pasing: unknown skill (did you mean 'passing'?)")), "{p:?}");
    assert!(p.iter().any(|x| x.contains("/training/sped: unknown characteristic (did you mean 'speed'?)")), "{p:?}");
}

#[test]
fn over_the_cap_names_the_largest_purchases() {
    let mut s = fixture("star");
    s.skills.insert("heading".into(), 13); // +200 positive: 26,100 > 26,000
    let p = problems(&s);
    assert_eq!(p.len(), 1, "{p:?}");
    assert_eq!(
        p[0],
        "positive XP 26,100 exceeds the age cap at 27 (26,000) by 100; largest purchases: /skills/dribbling 3,650, /attributes/dx 2,900, /skills/control 2,450"
    );
    let v = s.view(&ruleset(DRAFT)).expect("a sheet over its cap is still shown");
    assert!(!v.ledger.within_cap);
    assert_eq!(v.problems.len(), 1);
}

#[test]
fn a_field_problem_stops_the_view() {
    let mut s = fixture("youth");
    s.skills.insert("passing".into(), 2);
    let e = s.view(&ruleset(DRAFT)).unwrap_err().to_string();
    assert!(e.contains("/skills/passing: 2 is outside 3..18"), "{e}");
}

#[test]
fn the_ledger_works_on_the_published_revision_too() {
    // 0.5.0 has the XP tables but no sheet rules or roles: the ledger needs only the former.
    let v = fixture("veteran").view(&ruleset(BASELINE)).unwrap();
    assert_eq!(v.ledger.net, 11_000.0);
    assert!(v.role_label.is_none());
}

#[test]
fn schema_violations_are_located() {
    let bad = br#"{"name": "X", "age": 20, "shirt": 7, "role": "winger", "foot": "left",
        "archetype": "a", "attributes": {"st": 10, "dx": 10, "iq": 10, "res": 10},
        "skills": {"control": 8, "passing": 8, "kicking": 8, "dribbling": 8, "finishing": 8,
        "crossing": 8, "heading": 8, "tackling": 8, "positioning": 8, "goalkeeping": 30}}"#;
    let (sheet, schema) = Sheet::parse(bad, "x.json").unwrap();
    assert_eq!(schema.len(), 1);
    assert_eq!(schema[0].pointer, "/skills/goalkeeping");
    let merged = microfut::sheet::merge(schema, sheet.problems(&ruleset(DRAFT)).unwrap());
    assert_eq!(merged.len(), 1, "reported once: {merged:?}");
    let e = Sheet::parse(br#"{"name": "X", "age": -3}"#, "x.json").unwrap_err().to_string();
    assert!(e.contains("x.json#/age") && e.contains("-3"), "{e}");
    let e = Sheet::parse(b"{not json", "x.json").unwrap_err().to_string();
    assert!(e.contains("x.json: malformed JSON at line 1"), "{e}");
}

#[test]
fn training_lines_read_both_ways() {
    let v = view("veteran");
    let speed = v.ledger.lines.iter().find(|l| l.item == "speed").unwrap();
    assert_eq!((speed.kind, speed.steps.clone()), (TraitKind::Training, vec![-50.0, -50.0]));
    let perception = v.ledger.lines.iter().find(|l| l.item == "perception").unwrap();
    assert_eq!(perception.steps, [200.0, 300.0]);
}
