//! Development harness: average match statistics over many seeds (the lab replaces it).
use microfut::catalog::{Catalog, ContentTree};
use microfut::club::Club;
use microfut::engine::{Match, Options};
use std::path::Path;
fn main() {
    let n: u64 = std::env::args().nth(1).map(|s| s.parse().unwrap()).unwrap_or(40);
    let content = std::env::args().nth(2);
    let tree = match content {
        Some(d) => ContentTree::from_dir(Path::new(&d)).unwrap(),
        None => ContentTree::embedded(),
    };
    let catalog = Catalog::load(&tree);
    let rules = microfut::run::rules_for(&catalog, Some("0.5.1")).unwrap();
    let home = Club::load(Path::new("tests/fixtures/clubs/test_home.json")).unwrap();
    let away = Club::load(Path::new("tests/fixtures/clubs/test_away.json")).unwrap();
    let mut acc = [0.0f64; 16];
    let t0 = std::time::Instant::now();
    for seed in 0..n {
        let mut m = Match::new(rules.clone(), &home, &away, seed, Options::default()).unwrap();
        m.run();
        let s = m.stats();
        let both = |f: &dyn Fn(&microfut::engine::TeamStats) -> f64| f(&s[0]) + f(&s[1]);
        let v = [
            both(&|x| x.goals as f64),
            both(&|x| x.shots as f64),
            both(&|x| x.on_target as f64),
            both(&|x| x.passes as f64),
            both(&|x| x.passes_completed as f64),
            both(&|x| x.crosses as f64),
            both(&|x| (x.dribbles_won + x.dribbles_lost) as f64),
            both(&|x| x.tackles as f64),
            both(&|x| x.interceptions as f64),
            both(&|x| x.blocks as f64),
            both(&|x| x.saves as f64),
            both(&|x| x.fouls as f64),
            both(&|x| x.distance_km) / 2.0,
            both(&|x| x.mean_stamina) / 2.0,
            s[0].possession,
            m.round_hashes().len() as f64,
        ];
        for i in 0..16 {
            acc[i] += v[i];
        }
    }
    let el = t0.elapsed();
    let a: Vec<f64> = acc.iter().map(|x| x / n as f64).collect();
    println!("{n} matches, {:.1} ms/match", el.as_secs_f64() * 1000.0 / n as f64);
    println!(
        "goals {:.2}  shots {:.1}  on target {:.1} ({:.0}%)  conversion {:.1}%",
        a[0],
        a[1],
        a[2],
        100.0 * a[2] / a[1],
        100.0 * a[0] / a[1]
    );
    println!(
        "passes {:.0}  completed {:.0} ({:.1}%)  crosses {:.1}  dribbles {:.1}",
        a[3],
        a[4],
        100.0 * a[4] / a[3],
        a[5],
        a[6]
    );
    println!(
        "tackles {:.1}  interceptions {:.1}  blocks {:.1}  saves {:.1}  fouls {:.1}",
        a[7], a[8], a[9], a[10], a[11]
    );
    println!("distance/team {:.1} km  stamina {:.1}  home possession {:.1}%  rounds {:.0}", a[12], a[13], a[14], a[15]);
}
