//! `microfut play`: a match at a terminal prompt. At each decision of your side it shows the
//! situation (score, clock, a compact pitch), the numbered candidates with their exact odds
//! (worded in `play_view`: siblings told apart by restart and zone, estimates marked); you
//! type a number to declare one, `?N` for its explanation, `n` to let the NPC choose, `s` to let
//! the NPC play to full time, `q` to stop. The NPC plays everything else. Standard input may be a
//! pipe (one answer a line; when it ends the NPC plays on), so a match can be scripted and tested;
//! `--out` writes the run record `microfut replay` reads.

use super::matchday::load_club;
use super::play_view::{
    branch_words, intent_words, odds_words, outcome_words, pass_outcome, restart_words, roll_words, shown_for, who_name,
};
use super::render::{Lang, label, trim};
use super::{CliError, CliResult};
use crate::engine::{Event, EventKind, Match, Options, Step, Who};
use crate::run::{RunRecord, rules_for, side_index};
use std::path::{Path, PathBuf};

#[derive(Debug, clap::Args)]
pub struct PlayArgs {
    /// Home club (file or sample id).
    #[arg(long)]
    pub home: String,
    /// Away club (file or sample id).
    #[arg(long)]
    pub away: String,
    /// The side you play: home or away.
    #[arg(long)]
    pub side: String,
    /// Seed of the dice (default: from the clock).
    #[arg(long)]
    pub seed: Option<u64>,
    /// Content revision (default: the newest published).
    #[arg(long)]
    pub revision: Option<String>,
    /// Write the run record here at full time (for `microfut replay`; `-`: standard output).
    #[arg(long)]
    pub out: Option<PathBuf>,
    #[arg(long, value_enum, default_value_t = Lang::En)]
    pub lang: Lang,
}

struct Words {
    prompt: &'static str,
    help: &'static str,
    not_understood: &'static str,
    no_candidate: &'static str,
    no_test: &'static str,
    stopped: &'static str,
    full_time: &'static str,
    has_ball: &'static str,
    npc_chose: &'static str,
    input_ended: &'static str,
    to_end: &'static str,
    scorers: &'static str,
    no_goals: &'static str,
    legend: &'static str,
    attacks: &'static str,
    you_play: &'static str,
    seed: &'static str,
}

fn words(lang: Lang) -> &'static Words {
    const EN: Words = Words {
        prompt: "your choice (number, ?N explains, n = NPC chooses, s = NPC plays to the end, q = stop)",
        help: "type the number of a candidate, ?N for its explanation, n, s (S: with every event) or q",
        not_understood: "not understood",
        no_candidate: "there is no candidate",
        no_test: "no test will be rolled:",
        stopped: "stopped: the run is unfinished, so no record is written",
        full_time: "full time",
        has_ball: "has the ball",
        npc_chose: "the NPC chose",
        input_ended: "standard input ended: the NPC plays your side to full time",
        to_end: "the NPC plays your side to full time (goals only; `S` instead of `s` shows every event)",
        scorers: "scorers",
        no_goals: "no goals",
        legend: "@ = ball, o = yours, x = theirs",
        attacks: "you attack",
        you_play: "you play",
        seed: "seed",
    };
    const PT_BR: Words = Words {
        prompt: "sua escolha (número, ?N explica, n = o NPC escolhe, s = o NPC joga até o fim, q = parar)",
        help: "digite o número de um candidato, ?N para a explicação, n, s (S: com todos os lances) ou q",
        not_understood: "não entendi",
        no_candidate: "não há o candidato",
        no_test: "nenhum teste será rolado:",
        stopped: "parado: a partida não terminou, então nenhum registro é escrito",
        full_time: "fim de jogo",
        has_ball: "está com a bola",
        npc_chose: "o NPC escolheu",
        input_ended: "a entrada padrão acabou: o NPC joga pelo seu lado até o fim",
        to_end: "o NPC joga pelo seu lado até o fim (só os gols; `S` em vez de `s` mostra todos os lances)",
        scorers: "gols",
        no_goals: "nenhum gol",
        legend: "@ = bola, o = seus, x = deles",
        attacks: "você ataca",
        you_play: "você joga com",
        seed: "semente",
    };
    match lang {
        Lang::En => &EN,
        Lang::PtBr => &PT_BR,
    }
}

pub fn run(content: Option<&Path>, args: PlayArgs) -> CliResult {
    let catalog = super::content::load_catalog_for(content, "microfut", args.revision.as_deref())?;
    let rules = rules_for(&catalog, args.revision.as_deref()).map_err(CliError::input)?;
    let home = load_club(&catalog, &args.home, &rules.rs)?;
    let away = load_club(&catalog, &args.away, &rules.rs)?;
    let side = side_index(&args.side)
        .ok_or_else(|| CliError::input(format!("--side {}: expected home or away", args.side)))?;
    // The record's file is checked before the match: a person does not play 90 minutes to
    // learn that it cannot be written.
    let outputs: Vec<(&str, &Path)> = args.out.iter().map(|p| ("--out", p.as_path())).collect();
    let inputs: Vec<(&str, &Path)> = [("--home", &args.home), ("--away", &args.away)]
        .into_iter()
        .filter(|(_, s)| std::fs::symlink_metadata(s).is_ok())
        .map(|(w, s)| (w, Path::new(s.as_str())))
        .collect();
    let plan = crate::files::Plan::new(&outputs, &inputs).map_err(CliError::input)?;
    let seed = args.seed.unwrap_or_else(|| {
        std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_nanos() as u64) >> 11
    });
    let options = Options { human: Some(side), retention: Some(0), formations: [None, None] };
    let mut m = Match::new(rules.clone(), &home, &away, seed, options).map_err(CliError::input)?;
    let w = words(args.lang);
    outln!(
        "{} – {}   ({} {}, {} {seed}; {} {})",
        m.teams()[0].club.name,
        m.teams()[1].club.name,
        rules.rs.id,
        rules.rs.version,
        w.seed,
        w.you_play,
        m.teams()[side].club.name
    );
    let stdin = std::io::stdin();
    let mut lines = crate::files::bounded_lines(stdin.lock(), crate::files::LINE_LIMIT);
    let mut npc_to_end = false;
    // After `s` only goals and the half-time whistle are printed; `S` prints every event.
    let mut quiet = false;
    let mut shown = 0;
    loop {
        let step = m.step();
        shown = print_events(&m, shown, args.lang, quiet);
        match step {
            Step::Finished => break,
            Step::Faulted => return Err(super::CliError::input(m.fault().expect("a faulted match says why"))),
            Step::Round => {}
            Step::Decision if npc_to_end => m.decide_npc().expect("pending"),
            Step::Decision => {
                situation(&m, side, args.lang);
                loop {
                    out!("{}> ", w.prompt);
                    let line = match lines.next() {
                        Some(Ok(line)) => line,
                        // A line with no end in sight (`< /dev/zero`) is not a person typing.
                        Some(Err(e)) if e.kind() == std::io::ErrorKind::InvalidData => {
                            return Err(CliError::input(format!("standard input: {e}")));
                        }
                        _ => {
                            // Input ended: the NPC plays on, and the person is told so.
                            outln!("");
                            outln!("{}", w.input_ended);
                            npc_to_end = true;
                            npc_decides(&mut m, side, args.lang);
                            break;
                        }
                    };
                    let line = line.trim();
                    let n = m.candidates().map_or(0, |c| c.len());
                    if line == "q" {
                        outln!("{}", w.stopped);
                        return Ok(());
                    } else if line == "n" {
                        npc_decides(&mut m, side, args.lang);
                        break;
                    } else if line == "s" || line == "S" {
                        outln!("{}", w.to_end);
                        npc_to_end = true;
                        quiet = line == "s";
                        npc_decides(&mut m, side, args.lang);
                        break;
                    } else if let Some(k) = line.strip_prefix('?').and_then(|k| k.trim().parse::<usize>().ok()) {
                        if k >= 1 && k <= n {
                            explain(&mut m, k - 1, args.lang);
                        } else {
                            outln!("{} {k} (1–{n})", w.no_candidate);
                        }
                    } else if let Ok(k) = line.parse::<usize>()
                        && k >= 1
                        && k <= n
                    {
                        let chosen = m.candidates().expect("pending")[k - 1].clone();
                        let (intent, words) = (chosen.intent(), intent_words(&m, &chosen, args.lang));
                        let before = m.round_rolls().len();
                        m.decide(&intent).map_err(CliError::input)?;
                        outln!("→ {words}{}", intent_echo(&intent, args.lang));
                        for r in &m.round_rolls()[before..] {
                            outln!("  {}", roll_words(&m, r, side, shown_for(&chosen, r), args.lang));
                        }
                        break;
                    } else if let Ok(k) = line.parse::<usize>() {
                        outln!("{} {k} (1–{n})", w.no_candidate);
                    } else if !line.is_empty() {
                        outln!("{}: {line} ({})", w.not_understood, w.help);
                    }
                }
            }
        }
    }
    print_events(&m, shown, args.lang, quiet);
    outln!(
        "{}: {} {} – {} {}",
        w.full_time,
        m.teams()[0].club.name,
        m.score()[0],
        m.score()[1],
        m.teams()[1].club.name
    );
    full_time_summary(&m, args.lang);
    if !plan.is_empty() {
        let record = RunRecord::of(&m, &rules, [None, None], Some(side));
        plan.write(&[serde_json::to_string(&record).expect("serializes").as_bytes()]).map_err(CliError::input)?;
    }
    Ok(())
}

fn by(m: &Match, w: &Who) -> String {
    m.state()
        .players
        .iter()
        .position(|p| p.team == w.team as usize && p.shirt == w.shirt)
        .map_or_else(|| format!("#{}", w.shirt), |p| who_name(m, p))
}

/// The NPC takes the pending decision, and says what it chose and what it rolled.
fn npc_decides(m: &mut Match, side: usize, lang: Lang) {
    let list = m.candidates().expect("pending");
    // The NPC's choice is the best-scored candidate (as the API's `npcChoice`).
    let best = (0..list.len()).fold(0, |b, i| if list[i].score > list[b].score { i } else { b });
    let chosen = list[best].clone();
    let (intent, said) = (chosen.intent(), intent_words(m, &chosen, lang));
    let before = m.round_rolls().len();
    m.decide_npc().expect("pending");
    outln!("→ {}: {said}{}", words(lang).npc_chose, intent_echo(&intent, lang));
    for r in &m.round_rolls()[before..] {
        outln!("  {}", roll_words(m, r, side, shown_for(&chosen, r), lang));
    }
}

/// The intent as the engine's record writes it (`[pass #14]`), beside its words in English; a
/// Portuguese page shows the words alone, no English key.
fn intent_echo(intent: &crate::engine::Intent, lang: Lang) -> String {
    if lang == Lang::PtBr { String::new() } else { format!("  [{intent}]") }
}

/// Full time: who scored, and the two sides' statistics.
fn full_time_summary(m: &Match, lang: Lang) {
    let w = words(lang);
    let pt = lang == Lang::PtBr;
    let goals: Vec<String> = m
        .events()
        .iter()
        .filter_map(|e| match &e.kind {
            EventKind::Goal { by: b, team } => {
                Some(format!("{}' {} ({})", e.minute.floor() as u32, by(m, b), m.teams()[*team as usize].club.name))
            }
            _ => None,
        })
        .collect();
    outln!("{}: {}", w.scorers, if goals.is_empty() { w.no_goals.to_string() } else { goals.join(", ") });
    let [h, a] = m.stats();
    let rows: [(&str, &str, String, String); 10] = [
        ("shots", "finalizações", h.shots.to_string(), a.shots.to_string()),
        ("on target", "no alvo", h.on_target.to_string(), a.on_target.to_string()),
        (
            "sum of shot chances",
            "soma das chances de chute",
            format!("{:.2}", h.shot_probability_sum),
            format!("{:.2}", a.shot_probability_sum),
        ),
        ("possession %", "posse %", format!("{:.0}", h.possession), format!("{:.0}", a.possession)),
        (
            "passes completed",
            "passes certos",
            format!("{}/{}", h.passes_completed, h.passes),
            format!("{}/{}", a.passes_completed, a.passes),
        ),
        (
            "crosses completed",
            "cruzamentos certos",
            format!("{}/{}", h.crosses_completed, h.crosses),
            format!("{}/{}", a.crosses_completed, a.crosses),
        ),
        (
            "dribbles won",
            "dribles certos",
            format!("{}/{}", h.take_ons_won, h.take_ons),
            format!("{}/{}", a.take_ons_won, a.take_ons),
        ),
        ("tackles", "desarmes", h.tackles.to_string(), a.tackles.to_string()),
        ("saves", "defesas", h.saves.to_string(), a.saves.to_string()),
        ("fouls", "faltas", h.fouls.to_string(), a.fouls.to_string()),
    ];
    let (home, away) = (&m.teams()[0].club.name, &m.teams()[1].club.name);
    let width = home.chars().count().max(away.chars().count()).max(8);
    outln!("  {:<26} {home:>width$} {away:>width$}", "");
    for (en, pt_word, x, y) in rows {
        outln!("  {:<26} {x:>width$} {y:>width$}", if pt { pt_word } else { en });
    }
}

/// Prints the events from `from` on (only goals and the whistles when `quiet`); returns how
/// many there are in all.
fn print_events(m: &Match, from: usize, lang: Lang, quiet: bool) -> usize {
    let pt = lang == Lang::PtBr;
    for e in &m.events()[from..] {
        let kept =
            !quiet || matches!(e.kind, EventKind::Goal { .. } | EventKind::HalfTime | EventKind::FullTime { .. });
        if !kept {
            continue;
        }
        if let Some(text) = describe(m, e, pt) {
            outln!("  {:>3}' {text}", e.minute.floor() as u32);
        }
    }
    m.events().len()
}

fn describe(m: &Match, e: &Event, pt: bool) -> Option<String> {
    let team = |t: u8| m.teams()[t as usize].club.name.clone();
    Some(match &e.kind {
        EventKind::Goal { by: b, team: t } => {
            format!("{} {} ({})", if pt { "GOL!" } else { "GOAL!" }, by(m, b), team(*t))
        }
        EventKind::Shot { by: b, distance, margin, outcome, .. } => {
            format!(
                "{} {} {distance:.0} m ({margin:+}): {}",
                by(m, b),
                if pt { "chuta de" } else { "shoots from" },
                outcome_words(outcome, pt)
            )
        }
        EventKind::Save { by: b, outcome, .. } => format!("{}: {}", by(m, b), outcome_words(outcome, pt)),
        EventKind::Pass { by: b, to, margin, outcome, completed, .. } => {
            format!("{} → {} ({margin:+}): {}", by(m, b), by(m, to), pass_outcome(outcome, *completed, pt))
        }
        EventKind::Interception { by: b, .. } => {
            format!("{} {}", by(m, b), if pt { "intercepta" } else { "intercepts" })
        }
        EventKind::Duel { carrier, defender, outcome, .. } => {
            format!(
                "{} {} {}: {}",
                by(m, carrier),
                if pt { "x" } else { "vs" },
                by(m, defender),
                outcome_words(outcome, pt)
            )
        }
        EventKind::Cross { by: b, margin, .. } => {
            format!("{} {} ({margin:+})", by(m, b), if pt { "cruza" } else { "crosses" })
        }
        EventKind::Foul { by: b, on, penalty, indirect } => format!(
            "{} {} {}{}",
            if pt { "falta de" } else { "foul by" },
            by(m, b),
            if pt { "em" } else { "on" },
            format_args!(
                " {}{}",
                by(m, on),
                match (*penalty, *indirect, pt) {
                    (true, _, true) => " — pênalti!",
                    (true, _, false) => " — penalty!",
                    (false, true, true) => " (tiro livre indireto)",
                    (false, true, false) => " (indirect free kick)",
                    _ => "",
                }
            )
        ),
        EventKind::Restart { restart, team: t, .. } => format!("{} ({})", restart_words(restart, pt), team(*t)),
        EventKind::Substitution { off, on } => {
            format!("{}: {} ⇄ {}", if pt { "substituição" } else { "substitution" }, by(m, on), by(m, off))
        }
        EventKind::HalfTime => (if pt { "intervalo" } else { "half time" }).into(),
        EventKind::FullTime { score } => {
            format!("{} {}–{}", if pt { "fim de jogo" } else { "full time" }, score[0], score[1])
        }
        _ => return None,
    })
}

/// Score, clock, a compact pitch (your side's players as letters of their shirt, opponents as
/// digits' marks) and the numbered candidates.
fn situation(m: &Match, side: usize, lang: Lang) {
    let st = m.state();
    let rules = m.rules();
    let w = words(lang);
    let holder = st.holder().expect("a decision has a carrier");
    outln!("");
    outln!(
        "{}' {} {} – {} {}   ({} {})",
        st.minute(rules.clock.half_seconds).floor() as u32,
        m.teams()[0].club.name,
        st.score[0],
        st.score[1],
        m.teams()[1].club.name,
        who_name(m, holder),
        w.has_ball
    );
    // 1 character = 2.5 m across, 1 line = 5 m down: the pitch to scale, attacking right-left as it is.
    let (cols, rows) = ((rules.pitch.length / 2.5).ceil() as usize, (rules.pitch.width / 5.0).ceil() as usize);
    let mut grid = vec![vec![' '; cols]; rows];
    let cell = |x: f64, y: f64| (((y / 5.0) as usize).min(rows - 1), ((x / 2.5) as usize).min(cols - 1));
    let half = cols / 2;
    for row in grid.iter_mut() {
        row[half] = '|';
    }
    for (i, p) in st.players.iter().enumerate() {
        let (r, c) = cell(p.pos.x, p.pos.y);
        grid[r][c] = if i == holder {
            '@'
        } else if p.team == side {
            'o'
        } else {
            'x'
        };
    }
    let border = format!("+{}+", "-".repeat(cols));
    outln!("  {border}");
    for row in grid {
        outln!("  |{}|", row.into_iter().collect::<String>());
    }
    outln!("  {border}   {}; {} {}", w.legend, w.attacks, if st.attacks_right[side] { "→" } else { "←" });
    for (k, c) in m.candidates().expect("pending").iter().enumerate() {
        outln!("  {:>2}. {} — {}", k + 1, intent_words(m, c, lang), odds_words(m, c, lang));
    }
}

fn explain(m: &mut Match, i: usize, lang: Lang) {
    let Some(e) = m.explain_pending(i) else {
        let branch = m.candidates().and_then(|c| c.get(i)).and_then(|c| c.odds.as_ref()).map(|o| o.branch);
        outln!("  {} {}", words(lang).no_test, branch.map_or("", |b| branch_words(b, lang == Lang::PtBr)));
        return;
    };
    match lang {
        Lang::En => outln!("  {} — {}", e.pipeline, label(&e.label, lang)),
        Lang::PtBr => outln!("  {}", label(&e.label, lang)),
    }
    for r in e.working.iter().chain(e.requires.iter()).chain(e.contributions.iter()) {
        let amount = match (r.op, r.kind) {
            ("mul", _) => format!("×{}", trim(r.amount)),
            (_, "base") | (_, "let") | (_, "requires") => trim(r.amount),
            _ if r.amount >= 0.0 => format!("+{}", trim(r.amount)),
            _ => trim(r.amount),
        };
        let input = r.input.as_ref().map(|i| format!(" [{} {}]", i.table, trim(i.value))).unwrap_or_default();
        outln!("    {:<34} {:>7} → {:>6}  {}{input}", label(&r.label, lang), amount, trim(r.running), r.source);
    }
}
