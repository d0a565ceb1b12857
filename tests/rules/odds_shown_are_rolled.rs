//! Issue 50: the odds a person is shown are the odds that are rolled. A seeded sweep over whole
//! matches a person plays — sample and generated clubs, both sides, every kind of candidate the
//! engine offers: open play, kick-offs, throw-ins, corners, free kicks (shot, delivery, pass),
//! penalties, goal kicks — declares candidates (a random one, or the NPC's pick on the way to a
//! penalty a seed is known to give) and checks, for the declared action's own test, that the
//! chance shown is the chance rolled, bit for bit; that a carry's or a dribble's figures are
//! those of the duel that follows (or of none); and that every headline is what its parts make.
//!
//! `MICROFUT_ODDS_SEEDS=N` plays N random-declaration seeds (default 20) for a deeper sweep;
//! `--nocapture` prints the counts by kind.

use crate::common;

use microfut::club::Club;
use microfut::dice::Difficulty;
use microfut::engine::projection::{RollRecord, RollRole};
use microfut::engine::{Branch, Candidate, Kind, Match, Odds, Options, Rules, Step};
use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;

#[derive(Default)]
struct Tally {
    decisions: u64,
    /// "<restart or open_play> <kind>" → declared decisions.
    by_kind: BTreeMap<String, u64>,
    /// A carry's or a dribble's branch → declared decisions.
    by_branch: BTreeMap<String, u64>,
    seeds: BTreeSet<u64>,
    pairs: BTreeSet<(String, String)>,
    max_delta: f64,
    /// "<restart or open_play> <kind>" → candidates priced (offered, declared or not).
    offered: BTreeMap<String, u64>,
}

/// How the person declares: a random candidate at every decision; the NPC's pick in open play
/// and a random one at every restart (the NPC's play reaches the lines, so throw-ins and corners
/// come as in a match); or the NPC's pick until the given round (a penalty a seed gives) and
/// random ones from there.
#[derive(Clone, Copy)]
enum Policy {
    Random,
    RandomRestarts,
    NpcUntil(u32),
}

/// A small seeded generator for the person's choices (the match's own dice are untouched).
struct Choices(u64);

impl Choices {
    fn below(&mut self, n: usize) -> usize {
        self.0 = self.0.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        ((self.0 >> 33) % n as u64) as usize
    }
}

/// The NPC's pick among the candidates: the first of the best scores (`Match::decide_npc`).
fn npc_pick(list: &[Candidate]) -> usize {
    let mut best = 0;
    for (i, c) in list.iter().enumerate() {
        if c.score > list[best].score {
            best = i;
        }
    }
    best
}

/// Every candidate's odds are there and its headline is what its parts make.
fn check_parts(rules: &Rules, c: &Candidate, at: &str) {
    let o = c.odds.as_ref().unwrap_or_else(|| panic!("{at}: a person's candidate without odds: {c:?}"));
    assert!(o.gain.is_finite(), "{at}");
    match o.branch {
        Branch::Test => {
            let t = o.test.expect("a test");
            assert_eq!(o.headline.to_bits(), t.probability.to_bits(), "{at}: headline");
            assert!(o.opponent.is_none() && o.wins.is_none(), "{at}");
            assert!(matches!(c.kind, Kind::Pass | Kind::Throw | Kind::Cross | Kind::Shoot), "{at}: {:?}", c.kind);
            match c.kind {
                Kind::Shoot => {
                    // A failed test may still be on target (a weak shot, a penalty the keeper
                    // dives away from): the goal chance is not bounded by the test's.
                    let g = o.goal.expect("a shot's goal chance is exact");
                    assert!((0.0..=1.0).contains(&g), "{at}: goal {g}");
                }
                _ => assert!(o.goal.is_none(), "{at}"),
            }
        }
        Branch::Duel => {
            assert!(matches!(c.kind, Kind::Carry | Kind::Dribble), "{at}");
            let (t, d) = (o.test.expect("carrier"), o.opponent.expect("defender"));
            let (wins, share) = (o.wins.expect("wins"), o.foul_share.expect("share"));
            assert_eq!(o.headline.to_bits(), Odds::duel_keep(wins, share).to_bits(), "{at}: keep = wins + fouled");
            assert!((0.0..=1.0).contains(&wins) && (0.0..=1.0).contains(&share), "{at}");
            // The exact sum over both margins agrees with the NPC's integer-count table where
            // that table is exact (difficulties within its span).
            let spec = rules.rs.odds.spec();
            let (lo, hi) = (spec.min_total() as i32 - 2, spec.max_total() as i32 + 2);
            let within = |x: Option<i32>| x.is_some_and(|x| x >= lo && x < hi);
            if within(t.difficulty) && within(d.difficulty) {
                let diff = |x: Option<i32>, f: f64| Difficulty { d: x.unwrap(), f };
                let table = rules.duels.keep_of(diff(t.difficulty, t.fraction), diff(d.difficulty, d.fraction));
                assert!((table - wins).abs() < 1e-12, "{at}: duel {wins} against the table's {table}");
            }
        }
        Branch::Unchallenged | Branch::Contained | Branch::OutOfReach => {
            assert!(matches!(c.kind, Kind::Carry | Kind::Dribble), "{at}");
            assert_eq!(o.headline, 1.0, "{at}");
            assert!(o.test.is_none() && o.opponent.is_none(), "{at}");
            assert_eq!(o.branch == Branch::OutOfReach, c.kind == Kind::Dribble, "{at}: only a dribble aims at a man");
        }
    }
}

/// The declared candidate's shown odds against the tests its round rolled.
fn check_rolled(c: &Candidate, carrier: usize, rolls: &[RollRecord], at: &str, tally: &mut Tally) {
    let o = c.odds.as_ref().unwrap();
    let own = |role: RollRole| -> Vec<&RollRecord> {
        rolls.iter().filter(|r| r.role == role && (role == RollRole::Tackle || r.player == carrier)).collect()
    };
    let mut same = |shown: f64, r: &RollRecord| {
        let delta = (shown - r.probability).abs();
        tally.max_delta = tally.max_delta.max(delta);
        assert_eq!(shown.to_bits(), r.probability.to_bits(), "{at}: shown {shown}, rolled {} ({r:?})", r.probability);
    };
    match o.branch {
        Branch::Test => {
            let t = o.test.unwrap();
            let action = own(RollRole::Action);
            assert_eq!(action.len(), 1, "{at}: one roll of the action: {rolls:?}");
            assert_eq!(action[0].pipeline, t.pipeline, "{at}");
            same(t.probability, action[0]);
            let d = t.difficulty.unwrap_or(0);
            assert!(action[0].difficulty == d || (t.fraction > 0.0 && action[0].difficulty == d + 1), "{at}");
            assert!(own(RollRole::Duel).is_empty(), "{at}");
        }
        Branch::Duel => {
            let (t, d) = (o.test.unwrap(), o.opponent.unwrap());
            let (mine, theirs) = (own(RollRole::Duel), own(RollRole::Tackle));
            assert_eq!((mine.len(), theirs.len()), (1, 1), "{at}: the duel that was shown: {rolls:?}");
            assert_eq!((mine[0].pipeline, theirs[0].pipeline, theirs[0].player), (t.pipeline, d.pipeline, d.player));
            same(t.probability, mine[0]);
            same(d.probability, theirs[0]);
        }
        _ => {
            let rolled: Vec<_> = rolls
                .iter()
                .filter(|r| matches!(r.role, RollRole::Duel | RollRole::Tackle | RollRole::Action))
                .collect();
            assert!(rolled.is_empty(), "{at}: {:?} shown, yet {rolled:?} rolled", o.branch);
        }
    }
}

#[allow(clippy::too_many_arguments)]
fn play(
    rules: &Arc<Rules>,
    (hn, home): (&str, &Club),
    (an, away): (&str, &Club),
    seed: u64,
    side: usize,
    policy: Policy,
    tally: &mut Tally,
) {
    let options = Options { human: Some(side), retention: Some(0), ..Default::default() };
    let mut m = Match::new(rules.clone(), home, away, seed, options).unwrap();
    let mut choices = Choices(seed ^ 0x5eed_0dd5);
    tally.seeds.insert(seed);
    tally.pairs.insert((hn.to_string(), an.to_string()));
    let mut reached = false;
    loop {
        match m.step() {
            Step::Finished => break,
            Step::Round => {}
            Step::Faulted => panic!("{:?}", m.fault()),
            Step::Decision => {
                let list = m.candidates().unwrap().to_vec();
                let round = m.state().round;
                let carrier = m.state().holder().unwrap();
                let restart = m.restart_taken().map_or("open_play", |r| r.name());
                let at = format!("{hn} v {an}, seed {seed}, side {side}, round {round} ({restart})");
                for c in &list {
                    check_parts(rules, c, &format!("{at}: {}", c.intent()));
                    *tally.offered.entry(format!("{restart} {}", c.kind.name())).or_default() += 1;
                }
                let npc = match policy {
                    Policy::NpcUntil(r) if !reached => {
                        reached = round >= r;
                        !reached
                    }
                    Policy::RandomRestarts => m.restart_taken().is_none(),
                    _ => false,
                };
                let i = if npc { npc_pick(&list) } else { choices.below(list.len()) };
                let c = &list[i];
                let before = m.round_rolls().len();
                if npc {
                    m.decide_npc().unwrap();
                } else {
                    m.decide(&c.intent()).unwrap();
                }
                check_rolled(c, carrier, &m.round_rolls()[before..], &format!("{at}: {}", c.intent()), tally);
                tally.decisions += 1;
                *tally.by_kind.entry(format!("{restart} {}", c.kind.name())).or_default() += 1;
                if matches!(c.kind, Kind::Carry | Kind::Dribble) {
                    let branch = c.odds.as_ref().unwrap().branch.name();
                    *tally.by_branch.entry(format!("{} {branch}", c.kind.name())).or_default() += 1;
                }
            }
        }
    }
    if let Policy::NpcUntil(r) = policy {
        assert!(reached, "{hn} v {an}, seed {seed}: the decision at round {r} was never reached");
    }
}

#[test]
fn the_odds_shown_for_every_kind_of_candidate_are_the_odds_rolled() {
    let catalog = common::test_catalog();
    let rules = microfut::run::rules_for(&catalog, None).unwrap();
    let version = rules.rs.version.to_string();
    let clubs: BTreeMap<&str, Club> = [
        ("mandacaru", common::sample_club("esporte_clube_mandacaru")),
        ("vale", common::sample_club("atletico_vale_do_sol")),
        ("serra", common::sample_club("sociedade_esportiva_serra_azul")),
        ("ferro", common::sample_club("ferroviario_juazeiro")),
        ("pedra", common::sample_club("uniao_pedra_branca")),
        ("elite 301", common::generated_club(&catalog, &version, "elite", 301)),
        ("modest 101", common::generated_club(&catalog, &version, "modest", 101)),
        ("established 7", common::generated_club(&catalog, &version, "established", 7)),
    ]
    .into_iter()
    .collect();
    let pairs = [
        ("mandacaru", "vale"),
        ("serra", "ferro"),
        ("elite 301", "modest 101"),
        ("pedra", "established 7"),
        ("modest 101", "serra"),
    ];
    let seeds: u64 = std::env::var("MICROFUT_ODDS_SEEDS").ok().and_then(|s| s.parse().ok()).unwrap_or(20);
    let mut tally = Tally::default();
    let pair = |k: usize| pairs[k % pairs.len()];
    for seed in 1..=seeds {
        let (h, a) = pair(seed as usize);
        let policy = if seed % 3 == 0 { Policy::RandomRestarts } else { Policy::Random };
        play(&rules, (h, &clubs[h]), (a, &clubs[a]), seed, (seed % 2) as usize, policy, &mut tally);
    }
    // Penalties are rare: these seeds give the person's side one when the NPC plays it there.
    for (h, a, side, seed, round) in [
        ("mandacaru", "vale", 0, 2, 864),
        ("elite 301", "modest 101", 0, 7, 719),
        ("elite 301", "modest 101", 0, 9, 375),
        ("established 7", "elite 301", 1, 9, 375),
        ("modest 101", "serra", 0, 5, 841),
        ("ferro", "pedra", 0, 11, 851),
    ] {
        play(&rules, (h, &clubs[h]), (a, &clubs[a]), seed, side, Policy::NpcUntil(round), &mut tally);
    }
    eprintln!(
        "{} decisions declared ({} candidates priced) on {} seeds and {} club pairs; largest |shown − rolled| {:e}",
        tally.decisions,
        tally.offered.values().sum::<u64>(),
        tally.seeds.len(),
        tally.pairs.len(),
        tally.max_delta
    );
    eprintln!("  {:<28} {:>9} {:>9}", "kind", "declared", "offered");
    for (k, n) in &tally.offered {
        eprintln!("  {k:<28} {:>9} {n:>9}", tally.by_kind.get(k).copied().unwrap_or(0));
    }
    for (k, n) in &tally.by_branch {
        eprintln!("  {k:<28} {n:>9}");
    }
    assert!(tally.decisions >= 2000, "{} decisions", tally.decisions);
    assert!(tally.seeds.len() >= 20 && tally.pairs.len() >= 5);
    // Every kind the engine offers, declared and rolled. (A corner may also be played short to a
    // team-mate within its range; in these matches none ever stood there.)
    for (kind, least) in [
        ("open_play carry", 100),
        ("open_play pass", 100),
        ("open_play cross", 20),
        ("open_play shoot", 20),
        ("open_play dribble", 20),
        ("kick_off pass", 5),
        ("kick_off carry", 5),
        ("throw_in throw", 3),
        ("goal_kick pass", 20),
        ("corner cross", 20),
        ("free_kick shoot", 5),
        ("free_kick cross", 10),
        ("free_kick pass", 20),
        ("indirect_free_kick cross", 3),
        ("indirect_free_kick pass", 10),
        ("penalty shoot", 6),
    ] {
        let n = tally.by_kind.get(kind).copied().unwrap_or(0);
        assert!(n >= least, "{kind}: {n} declared, at least {least} wanted");
    }
    for branch in ["carry duel", "carry unchallenged", "carry contained", "dribble duel", "dribble out_of_reach"] {
        assert!(tally.by_branch.get(branch).copied().unwrap_or(0) > 0, "no {branch}");
    }
    assert_eq!(tally.max_delta, 0.0);
}

/// Most tests have a fractional difficulty (since Microfut 0.6.5's weights), and with one the dice
/// face the next difficulty up when the fraction's draw says so. What a reader is shown of each
/// roll (the API, the page, the terminal) must add up whichever way it fell: margin = total −
/// difficulty, the difficulty being the one the dice faced — the integer part or the next one. A
/// whole match under the default revision.
#[test]
fn every_roll_shown_adds_up_with_fractional_difficulties() {
    let catalog = common::test_catalog();
    let c = common::sample_club("sociedade_esportiva_serra_azul");
    let default = catalog.revision("microfut", None).unwrap().version.to_string();
    let mut m = Match::new(common::revision_rules(&catalog, &default), &c, &c, 2, Options::default()).unwrap();
    let mut rolls = 0;
    while !m.finished() {
        m.step();
        for r in m.round_rolls() {
            rolls += 1;
            assert_eq!(r.margin, r.total as i32 - r.difficulty, "{r:?}");
            if r.probability > 0.0 {
                assert_eq!(r.success, r.margin >= 0, "{r:?}");
            }
        }
    }
    assert!(rolls > 1000, "{rolls} rolls");
}
