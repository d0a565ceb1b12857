//! `microfut match` (`microfut replay` is in `replay.rs`).

use super::{CliError, CliResult};
use crate::catalog::Catalog;
use crate::club::Club;
use crate::engine::{Intent, Match, Options, Step, TeamStats};
use crate::files::{FILE_LIMIT, read_input};
use crate::run::{RunRecord, rules_for, side_index};
use std::path::{Path, PathBuf};

#[derive(Debug, clap::Args)]
pub struct MatchArgs {
    /// Home club: a club JSON file, or the id of a sample club in content (microfut/clubs/<id>.json).
    #[arg(long)]
    pub home: String,
    /// Away club (file or sample id).
    #[arg(long)]
    pub away: String,
    #[arg(long)]
    pub seed: u64,
    /// Content revision (default: the newest published).
    #[arg(long)]
    pub revision: Option<String>,
    /// Write the run record here (for `microfut replay`; `-`: standard output).
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Print {"score": [home, away], "stats": {...}} as JSON.
    #[arg(long)]
    pub json: bool,
    /// The side a person plays: home or away. Its decisions come from --intents.
    #[arg(long, requires = "intents")]
    pub human: Option<String>,
    /// JSON array of intents, used in order at each of the human side's decisions
    /// (e.g. [{"kind": "pass", "target": 9}, {"kind": "shoot"}]); when they run out the NPC decides.
    #[arg(long, requires = "human")]
    pub intents: Option<PathBuf>,
    /// Write the NPC decision log (the retained decisions) to this JSON file (`-`: standard output).
    #[arg(long)]
    pub decisions: Option<PathBuf>,
    /// Decisions the log keeps (default: the content's retention).
    #[arg(long)]
    pub retention: Option<usize>,
    #[arg(long)]
    pub home_formation: Option<String>,
    #[arg(long)]
    pub away_formation: Option<String>,
}

pub use crate::club::source::ClubSource;

/// A club from a file path, or a sample club of the content by id, read but not yet checked.
pub fn club_source(catalog: &Catalog, spec: &str) -> Result<ClubSource, CliError> {
    ClubSource::read(catalog, spec).map_err(CliError::input)
}

/// A club (file or sample id) checked under `rs`; see [`ClubSource::checked`].
pub fn load_club(catalog: &Catalog, spec: &str, rs: &crate::ruleset::Ruleset) -> Result<Club, CliError> {
    club_source(catalog, spec)?.checked(rs).map_err(CliError::input)
}

/// The intents file: a JSON array of intents, each problem named by the file and the intent's
/// JSON pointer.
pub fn read_intents(path: &Path) -> Result<Vec<Intent>, CliError> {
    let file = path.display();
    let bytes = read_input("an intents file", path, FILE_LIMIT).map_err(CliError::input)?;
    let value: serde_json::Value = crate::catalog::from_json(&bytes)
        .map_err(|e| CliError::input(format!("{file}: {}", crate::catalog::describe_json_error(&e))))?;
    let serde_json::Value::Array(items) = value else {
        return Err(CliError::input(format!(
            "{file}: expected a JSON array of intents (e.g. [{{\"kind\": \"pass\", \"target\": 9}}, {{\"kind\": \"shoot\"}}]), found {}",
            crate::catalog::json_kind(&value)
        )));
    };
    items
        .into_iter()
        .enumerate()
        .map(|(k, v)| {
            let kind = crate::catalog::json_kind(&v);
            crate::catalog::from_value_located::<Intent>(v, "an intent").map_err(|e| {
                let message = if e.pointer.is_empty() && kind != "an object" {
                    format!("expected an intent ({{\"kind\": …, \"target\": …}}), found {kind}")
                } else {
                    e.message
                };
                CliError::input(format!("{file}#/{k}{}: not an intent: {message}", e.pointer))
            })
        })
        .collect()
}

/// Plays a match to the end, the human side's decisions from `intents` in order (then the NPC's);
/// an intent that is not among the candidates is refused naming `intents_file` and its index.
pub fn play(
    rules: std::sync::Arc<crate::engine::Rules>,
    home: &Club,
    away: &Club,
    seed: u64,
    options: Options,
    intents: &[Intent],
    intents_file: &str,
) -> Result<Match, CliError> {
    let mut m = Match::new(rules, home, away, seed, options).map_err(CliError::input)?;
    let mut next = intents.iter().enumerate();
    loop {
        match m.step() {
            Step::Finished => break,
            Step::Faulted => return Err(CliError::input(m.fault().expect("a faulted match says why"))),
            Step::Round => {}
            Step::Decision => match next.next() {
                Some((k, intent)) => {
                    let round = m.state().round;
                    m.decide(intent).map_err(|e| {
                        CliError::input(format!("{intents_file}#/{k}: intent '{intent}' refused at round {round}: {e}"))
                    })?;
                }
                None => m.decide_npc().expect("pending"),
            },
        }
    }
    let unused = next.len();
    if unused > 0 {
        eprintln!(
            "note: {intents_file}: the last {unused} intent(s) (from #/{}) were not used: the match ended first",
            intents.len() - unused
        );
    }
    Ok(m)
}

pub fn run_match(content: Option<&Path>, args: MatchArgs) -> CliResult {
    let catalog = super::content::load_catalog_for(content, "microfut", args.revision.as_deref())?;
    let rules = rules_for(&catalog, args.revision.as_deref()).map_err(CliError::input)?;
    let (home_source, away_source) = (club_source(&catalog, &args.home)?, club_source(&catalog, &args.away)?);
    let home = home_source.checked(&rules.rs).map_err(CliError::input)?;
    let away = away_source.checked(&rules.rs).map_err(CliError::input)?;
    // The rules are compiled and the clubs checked: the catalog (the played revision's parsed
    // documents; the others' were dropped as they were checked) is not read again, and freeing
    // it before the match lets the match's memory reuse it (peak memory, issue 15).
    drop(catalog);
    let human = match args.human.as_deref() {
        None => None,
        Some(s) => Some(side_index(s).ok_or_else(|| CliError::input(format!("--human {s}: expected home or away")))?),
    };
    let intents_file = args.intents.as_ref().map(|p| p.display().to_string()).unwrap_or_default();
    let intents = match &args.intents {
        Some(p) => read_intents(p)?,
        None => Vec::new(),
    };
    // Every output is checked before the match is played: no folder, no file named twice, no
    // input overwritten.
    let mut outputs: Vec<(&str, &Path)> = Vec::new();
    if let Some(p) = &args.decisions {
        outputs.push(("--decisions", p));
    }
    if let Some(p) = &args.out {
        outputs.push(("--out", p));
    }
    let mut inputs: Vec<(&str, &Path)> = Vec::new();
    for (what, source) in [("--home", &home_source), ("--away", &away_source)] {
        if let Some(p) = &source.path {
            inputs.push((what, p));
        }
    }
    if let Some(p) = &args.intents {
        inputs.push(("--intents", p));
    }
    let plan = crate::files::Plan::new(&outputs, &inputs).map_err(CliError::input)?;

    let formations = [args.home_formation.clone(), args.away_formation.clone()];
    let options = Options { human, retention: args.retention, formations: formations.clone() };
    let m = play(rules.clone(), &home, &away, args.seed, options, &intents, &intents_file)?;
    // Everything validated and played: now write.
    let mut texts: Vec<String> = Vec::new();
    if args.decisions.is_some() {
        let log = m.decisions();
        let v = serde_json::json!({
            "retention": log.retention(),
            "dropped": log.dropped(),
            "decisions": log.decisions().collect::<Vec<_>>(),
        });
        texts.push(serde_json::to_string(&v).expect("serializes"));
    }
    if args.out.is_some() {
        let record = RunRecord::of(&m, &rules, formations, human);
        texts.push(serde_json::to_string(&record).expect("serializes"));
    }
    let bytes: Vec<&[u8]> = texts.iter().map(String::as_bytes).collect();
    plan.write(&bytes).map_err(CliError::input)?;
    let summary = m.summary();
    if args.json {
        outln!("{}", serde_json::to_string_pretty(&summary).expect("serializes"));
    } else {
        out!("{}", table(&m, m.stats()));
    }
    Ok(())
}

fn table(m: &Match, s: &[TeamStats; 2]) -> String {
    let teams = m.teams();
    let mut out = format!(
        "{} {} – {} {}   (seed {}, {} rounds)\n\n",
        teams[0].club.name,
        m.score()[0],
        m.score()[1],
        teams[1].club.name,
        m.seed(),
        m.round_hashes().len()
    );
    let rows: Vec<(&str, String, String)> = vec![
        ("goals", s[0].goals.to_string(), s[1].goals.to_string()),
        ("shots", s[0].shots.to_string(), s[1].shots.to_string()),
        ("on target", s[0].on_target.to_string(), s[1].on_target.to_string()),
        ("shots from outside the box", s[0].shots_outside_box.to_string(), s[1].shots_outside_box.to_string()),
        (
            "sum of shot probabilities",
            format!("{:.2}", s[0].shot_probability_sum),
            format!("{:.2}", s[1].shot_probability_sum),
        ),
        (
            "passes completed / attempted",
            format!("{}/{} ({:.0}%)", s[0].passes_completed, s[0].passes, 100.0 * s[0].pass_completion()),
            format!("{}/{} ({:.0}%)", s[1].passes_completed, s[1].passes, 100.0 * s[1].pass_completion()),
        ),
        (
            "crosses completed / attempted",
            format!("{}/{}", s[0].crosses_completed, s[0].crosses),
            format!("{}/{}", s[1].crosses_completed, s[1].crosses),
        ),
        // The dribble (the intent to beat the man ahead) is stored as `take_ons`, a wire name
        // frozen in run records; the duels a carrier fights on the move are `dribbles_won/lost`.
        (
            "dribbles won / attempted",
            format!("{}/{}", s[0].take_ons_won, s[0].take_ons),
            format!("{}/{}", s[1].take_ons_won, s[1].take_ons),
        ),
        (
            "duels on the ball won / lost",
            format!("{}/{}", s[0].dribbles_won, s[0].dribbles_lost),
            format!("{}/{}", s[1].dribbles_won, s[1].dribbles_lost),
        ),
        ("tackles", s[0].tackles.to_string(), s[1].tackles.to_string()),
        ("interceptions", s[0].interceptions.to_string(), s[1].interceptions.to_string()),
        ("blocks", s[0].blocks.to_string(), s[1].blocks.to_string()),
        ("saves", s[0].saves.to_string(), s[1].saves.to_string()),
        ("fouls", s[0].fouls.to_string(), s[1].fouls.to_string()),
        ("corners", s[0].corners.to_string(), s[1].corners.to_string()),
        ("free kicks", s[0].free_kicks.to_string(), s[1].free_kicks.to_string()),
        (
            "penalties scored / awarded",
            format!("{}/{}", s[0].penalty_goals, s[0].penalties),
            format!("{}/{}", s[1].penalty_goals, s[1].penalties),
        ),
        ("substitutions", s[0].substitutions.to_string(), s[1].substitutions.to_string()),
        ("possession %", format!("{:.1}", s[0].possession), format!("{:.1}", s[1].possession)),
        ("distance covered (km)", format!("{:.1}", s[0].distance_km), format!("{:.1}", s[1].distance_km)),
        ("mean stamina at full time", format!("{:.1}", s[0].mean_stamina), format!("{:.1}", s[1].mean_stamina)),
    ];
    let w0 = rows.iter().map(|r| r.0.len()).max().unwrap_or(0);
    let w1 = rows.iter().map(|r| r.1.len()).max().unwrap_or(0).max(teams[0].club.id.len());
    let w2 = rows.iter().map(|r| r.2.len()).max().unwrap_or(0).max(teams[1].club.id.len());
    out.push_str(&format!("  {:<w0$}  {:>w1$}  {:>w2$}\n", "", teams[0].club.id, teams[1].club.id));
    for (k, a, b) in rows {
        out.push_str(&format!("  {k:<w0$}  {a:>w1$}  {b:>w2$}\n"));
    }
    out
}

/// Reads a run record and replays it under its pinned revision, with the football verdict
/// (`microfut replay` reports every game's; the fuzz tests read this one). A problem of the
/// record names the record and the field (by JSON pointer); one of the content names the content.
pub fn replay_file(catalog: &Catalog, path: &Path) -> Result<(RunRecord, crate::run::Replay), CliError> {
    let name = path.display().to_string();
    let bytes = read_input("a run record", path, crate::files::RECORD_LIMIT).map_err(CliError::input)?;
    let record = RunRecord::parse(&bytes).map_err(|e| CliError::input(crate::run::refusal(&name, e).message))?;
    let read = crate::run::ReadRecord { name, record };
    let result = read.replay_run(catalog).map_err(|r| CliError::input(r.message))?;
    Ok((read.record, result))
}
