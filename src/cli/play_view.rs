//! How `microfut play` words a decision's candidates and the tests rolled (issue 50): every
//! candidate told apart from its siblings (the restart it takes, a delivery's zone, a penalty's
//! side), its exact odds first and the NPC's estimates marked as such; a roll as "needs 9+ on
//! 3d6 (74%) — rolled 7: failed", the roller's side named.

use super::render::{Lang, label};
use crate::engine::projection::RollRecord;
use crate::engine::{Branch, Candidate, Kind, Match, TestOdds};

/// A chance in per cent: one decimal near the ends, so a chance that is not certain never reads
/// 100 % (nor a possible one 0 %), and below 10 %.
pub fn percent(p: f64) -> String {
    if p > 0.0 && p < 1.0 && !(0.1..=0.995).contains(&p) {
        format!("{:.1}%", (p * 100.0).clamp(0.1, 99.9))
    } else {
        format!("{:.0}%", p * 100.0)
    }
}

pub fn restart_words(restart: &str, pt: bool) -> &str {
    match (restart, pt) {
        ("kick_off", false) => "Kick-off",
        ("kick_off", true) => "Saída",
        ("throw_in", false) => "Throw-in",
        ("throw_in", true) => "Lateral",
        ("goal_kick", false) => "Goal kick",
        ("goal_kick", true) => "Tiro de meta",
        ("corner", false) => "Corner",
        ("corner", true) => "Escanteio",
        ("free_kick", false) => "Free kick",
        ("free_kick", true) => "Falta",
        ("indirect_free_kick", false) => "Indirect free kick",
        ("indirect_free_kick", true) => "Falta indireta",
        ("penalty", false) => "Penalty",
        ("penalty", true) => "Pênalti",
        (other, _) => other,
    }
}

/// `H#9 Name`: side and shirt, then the name.
pub fn who_name(m: &Match, p: usize) -> String {
    let pl = &m.state().players[p];
    let sheet = &m.teams()[pl.team].club.squad[pl.sheet];
    format!("{}#{} {}", if pl.team == 0 { "H" } else { "A" }, pl.shirt, sheet.name)
}

fn player_of(m: &Match, team: usize, shirt: i32) -> String {
    m.state()
        .players
        .iter()
        .position(|p| p.team == team && p.shirt as i32 == shirt)
        .map_or_else(|| format!("#{shirt}"), |p| who_name(m, p))
}

/// What the candidate tries, in the person's words: `Corner: cross → far post`, `pass to H#9 …`.
pub fn intent_words(m: &Match, c: &Candidate, lang: Lang) -> String {
    let pt = lang == Lang::PtBr;
    let carrier = m.state().holder().map_or(0, |h| m.state().players[h].team);
    let zone = m.zone_label(c).map(|l| format!(" → {}", label(l, lang))).unwrap_or_default();
    let target = c.intent().target.unwrap_or_default();
    let what = match (c.kind, pt) {
        (Kind::Carry, false) => format!("carry {target}°"),
        (Kind::Carry, true) => format!("conduzir {target}°"),
        (Kind::Pass, false) => format!("pass to {}", player_of(m, carrier, target)),
        (Kind::Pass, true) => format!("passe para {}", player_of(m, carrier, target)),
        (Kind::Throw, false) => format!("throw to {}", player_of(m, carrier, target)),
        (Kind::Throw, true) => format!("arremesso para {}", player_of(m, carrier, target)),
        (Kind::Dribble, false) => format!("take on {}", player_of(m, 1 - carrier, target)),
        (Kind::Dribble, true) => format!("driblar {}", player_of(m, 1 - carrier, target)),
        (Kind::Shoot, false) => format!("shoot{zone}"),
        (Kind::Shoot, true) => format!("chutar{zone}"),
        (Kind::Cross, false) => format!("cross{zone}"),
        (Kind::Cross, true) => format!("cruzar{zone}"),
    };
    match m.restart_taken() {
        Some(r) => format!("{}: {what}", restart_words(r.name(), pt)),
        None => what,
    }
}

fn test_words(m: &Match, t: &TestOdds, lang: Lang) -> String {
    format!("{} {}", label(&m.rules().rs.pipelines[t.pipeline].label, lang), percent(t.probability))
}

/// Why no test will be rolled for a carry or a dribble, in words.
pub fn branch_words(branch: Branch, pt: bool) -> &'static str {
    match (branch, pt) {
        (Branch::Unchallenged, false) => "nobody can reach him after his run",
        (Branch::Unchallenged, true) => "ninguém o alcança depois da corrida",
        (Branch::Contained, false) => "the man who can reach him holds off",
        (Branch::Contained, true) => "quem pode alcançá-lo só o acompanha",
        (Branch::OutOfReach, false) => "the man he takes on is out of reach after the run: no duel",
        (Branch::OutOfReach, true) => "o adversário que ele encara fica fora de alcance depois da corrida: sem duelo",
        (_, false) => "a test is rolled",
        (_, true) => "um teste é rolado",
    }
}

/// A candidate's odds in words: the exact figures (after this round's movement for it), then
/// the NPC's estimates named as such.
pub fn odds_words(m: &Match, c: &Candidate, lang: Lang) -> String {
    let pt = lang == Lang::PtBr;
    let Some(o) = &c.odds else { return c.explain() };
    let keeps = if pt { "mantém a bola" } else { "keeps the ball" };
    let estimate = if pt { "estimativa do NPC" } else { "NPC estimate" };
    let goal = if pt { "gol" } else { "goal" };
    let mut parts = Vec::new();
    match (o.branch, &o.test, &o.opponent, o.wins) {
        (Branch::Duel, Some(t), Some(d), Some(wins)) => {
            let fouled = match o.foul_share {
                Some(s) if s > 0.0 && pt => format!(" + sofre falta em {} do resto", percent(s)),
                Some(s) if s > 0.0 => format!(" + fouled in {} of the rest", percent(s)),
                _ => String::new(),
            };
            let duel = if pt { "vence o duelo com" } else { "wins the duel with" };
            let opponent = who_name(m, d.player);
            parts.push(format!("{keeps} {} = {duel} {opponent} {}{fouled}", percent(o.headline), percent(wins)));
            parts.push(format!(
                "{} {} {}",
                test_words(m, t, lang),
                if pt { "x" } else { "vs" },
                test_words(m, d, lang)
            ));
        }
        (Branch::Test, Some(t), ..) => parts.push(test_words(m, t, lang)),
        (branch, ..) => parts.push(format!("{keeps} 100% ({})", branch_words(branch, pt))),
    }
    match (c.kind, o.goal) {
        (_, Some(g)) => parts.push(format!("{goal} {}", percent(g))),
        (Kind::Pass | Kind::Throw | Kind::Cross, None) => {
            parts.push(format!("{keeps} ≈{} ({estimate})", percent(c.success)));
            if c.kind == Kind::Cross {
                parts.push(format!("{goal} ≈{} ({estimate})", percent(c.goal_chance)));
            }
        }
        _ => {}
    }
    if c.kind != Kind::Shoot {
        // Rounded first, so a few centimetres back do not read "-0 m".
        parts.push(format!("{} {:+} m", if pt { "ganho" } else { "gain" }, o.gain.round() as i64));
    }
    parts.join(", ")
}

/// The test of the declared candidate that a roll resolves, if it is that roll: its chance as
/// the person was shown it.
pub fn shown_for(c: &Candidate, r: &RollRecord) -> Option<f64> {
    use crate::engine::projection::RollRole;
    let t = c.odds.as_ref()?.test?;
    (matches!(r.role, RollRole::Action | RollRole::Duel) && r.player == t.player && r.pipeline == t.pipeline)
        .then_some(t.probability)
}

/// `H#9 Name (yours) — Pass: needs 9+ on 3d6 (74%) — rolled 7: failed (margin -2)`.
pub fn roll_words(m: &Match, r: &RollRecord, side: usize, shown: Option<f64>, lang: Lang) -> String {
    let pt = lang == Lang::PtBr;
    let pipe = &m.rules().rs.pipelines[r.pipeline];
    let spec = pipe.odds.spec();
    let mine = m.state().players[r.player].team == side;
    let whose = match (mine, pt) {
        (true, false) => "yours",
        (false, false) => "theirs",
        (true, true) => "seu",
        (false, true) => "deles",
    };
    let (needs, rolled, outcome) = match (pt, r.success) {
        (false, s) => ("needs", "rolled", if s { "succeeded" } else { "failed" }),
        (true, s) => ("precisa de", "tirou", if s { "conseguiu" } else { "falhou" }),
    };
    let shown = shown
        .map(|p| format!(" · {} {}", if pt { "você viu" } else { "you were shown" }, percent(p)))
        .unwrap_or_default();
    format!(
        "{} ({whose}) — {}: {needs} {}+ {} {}d{} ({}) — {rolled} {}: {outcome} ({} {:+}){shown}",
        who_name(m, r.player),
        label(&pipe.label, lang),
        r.difficulty,
        if pt { "em" } else { "on" },
        spec.count,
        spec.sides,
        percent(r.probability),
        r.total,
        if pt { "margem" } else { "margin" },
        r.margin
    )
}

/// An engine's outcome key (`on_target`, `carrier_keeps`) in words; an unknown one without its
/// underscores rather than raw.
pub fn outcome_words(outcome: &str, pt: bool) -> String {
    let known = match (outcome, pt) {
        ("on_target", false) => "on target",
        ("on_target", true) => "no alvo",
        ("off_target", false) => "off target",
        ("off_target", true) => "para fora",
        ("imprecise", false) => "imprecise",
        ("imprecise", true) => "impreciso",
        ("misplaced", false) => "misplaced",
        ("misplaced", true) => "errado",
        ("blocked", false) => "blocked",
        ("blocked", true) => "bloqueado",
        ("goal", false) => "goal",
        ("goal", true) => "gol",
        ("saved", false) => "saved",
        ("saved", true) => "defendido",
        ("hold", false) => "holds it",
        ("hold", true) => "segura",
        ("parry", false) => "parries it",
        ("parry", true) => "espalma",
        ("carrier_keeps", false) => "keeps the ball",
        ("carrier_keeps", true) => "mantém a bola",
        ("loose", false) => "the ball runs loose",
        ("loose", true) => "a bola fica solta",
        ("steal", false) => "wins the ball",
        ("steal", true) => "rouba a bola",
        (other, _) => return other.replace('_', " "),
    };
    known.to_string()
}

/// A pass's outcome as a watcher reads it: one that did not reach its man (intercepted, not
/// controlled) was not "on target".
pub fn pass_outcome(outcome: &str, completed: bool, pt: bool) -> String {
    let word = outcome_words(outcome, pt);
    let not = if pt { "não completado" } else { "not completed" };
    match (completed, outcome) {
        (true, _) => word,
        (false, "on_target") => not.to_string(),
        (false, _) => format!("{word}, {not}"),
    }
}
