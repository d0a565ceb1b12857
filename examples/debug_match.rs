use microfut::catalog::{Catalog, ContentTree};
use microfut::club::Club;
use microfut::engine::{Kind, Match, Options, Step};
use std::path::Path;
fn main() {
    let catalog = Catalog::load(&ContentTree::embedded());
    let rules = microfut::run::rules_for(&catalog, Some("0.5.1")).unwrap();
    let home = Club::load(Path::new("tests/fixtures/clubs/test_home.json")).unwrap();
    let away = Club::load(Path::new("tests/fixtures/clubs/test_away.json")).unwrap();
    let mut m = Match::new(rules, &home, &away, 2, Options { human: Some(0), ..Default::default() }).unwrap();
    let mut shown = 0;
    while shown < 3 {
        match m.step() {
            Step::Decision => {
                if m.state().round > 200 && m.state().round % 7 == 0 {
                    let n = m.candidates().unwrap().len();
                    for i in 0..n {
                        let c = m.candidates().unwrap()[i].clone();
                        if c.kind != Kind::Pass {
                            continue;
                        }
                        let e = m.explain_candidate(i).unwrap();
                        let parts: Vec<String> = e
                            .contributions
                            .iter()
                            .map(|x| {
                                format!(
                                    "{}={}{}",
                                    x.stage,
                                    x.amount,
                                    x.input.as_ref().map(|i| format!("({:.0})", i.value)).unwrap_or_default()
                                )
                            })
                            .collect();
                        println!("{} p={:.2} keep={:.2} :: {}", c.intent(), c.probability, c.success, parts.join(" "));
                    }
                    println!("---");
                    shown += 1;
                }
                m.decide_npc().unwrap();
            }
            Step::Finished => break,
            Step::Round => {}
        }
    }
}
