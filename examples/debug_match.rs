use microfut::catalog::{Catalog, ContentTree};
use microfut::club::Club;
use microfut::engine::{Match, Options};
use std::path::Path;
fn main() {
    let catalog = Catalog::load(&ContentTree::embedded());
    let rules = microfut::run::rules_for(&catalog, Some("0.5.1")).unwrap();
    let home = Club::load(Path::new("tests/fixtures/clubs/test_home.json")).unwrap();
    let away = Club::load(Path::new("tests/fixtures/clubs/test_away.json")).unwrap();
    let mut m = Match::new(rules, &home, &away, 1, Options::default()).unwrap();
    for _ in 0..40 {
        m.step();
        let s = m.state();
        let h = s.holder();
        let line: Vec<String> = s.players.iter().map(|p| format!("{:.0},{:.0}", p.pos.x, p.pos.y)).collect();
        let near = h.map(|c| {
            s.players
                .iter()
                .filter(|p| p.team != s.players[c].team)
                .map(|p| p.pos.dist(s.players[c].pos))
                .fold(f64::INFINITY, f64::min)
        });
        println!(
            "r{} ball {:.1},{:.1} {:?} holder {:?} nearest_opp {:?} st {:.1}",
            s.round, s.ball.x, s.ball.y, s.ball_state, h, near, s.players[5].stamina
        );
        if s.round.is_multiple_of(10) {
            println!("   {}", line.join(" "));
        }
    }
    for e in m.events().iter().take(30) {
        println!("{:?}", e);
    }
}
