//! `microfut match` and `microfut replay`.

use super::{CliError, CliResult, load_catalog};
use crate::catalog::{Catalog, ENGINE_VERSION};
use crate::club::Club;
use crate::engine::{Intent, Match, Options, Step, TeamStats};
use crate::run::{Replay, RunRecord, pinned_rules, replay, rules_for, side_index};
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
    /// Write the run record here (for `microfut replay`).
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
    /// Write the NPC decision log (the retained decisions) to this JSON file.
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

#[derive(Debug, clap::Args)]
pub struct ReplayArgs {
    /// A run record written by `microfut match --out`.
    pub run: PathBuf,
}

/// A club from a file path, or a sample club of the content by id.
pub fn load_club(catalog: &Catalog, spec: &str) -> Result<Club, CliError> {
    let path = Path::new(spec);
    if path.exists() {
        return Club::load(path).map_err(CliError::input);
    }
    let entry = catalog.ruleset("microfut").map_err(CliError::input)?;
    let key = format!("clubs/{spec}.json");
    match entry.extra.get(&key) {
        Some(v) => {
            serde_json::from_value(v.clone()).map_err(|e| CliError::input(format!("content microfut/{key}: {e}")))
        }
        None => {
            let known: Vec<&str> = entry
                .extra
                .keys()
                .filter_map(|k| k.strip_prefix("clubs/").and_then(|k| k.strip_suffix(".json")))
                .collect();
            Err(CliError::input(format!(
                "club '{spec}' is neither a file nor a sample club (samples: {})",
                if known.is_empty() { "none".to_string() } else { known.join(", ") }
            )))
        }
    }
}

fn read_intents(path: &Path) -> Result<Vec<Intent>, CliError> {
    let bytes =
        std::fs::read(path).map_err(|e| CliError::input(format!("cannot read intents {}: {e}", path.display())))?;
    crate::catalog::from_json(&bytes)
        .map_err(|e| CliError::input(format!("{}: not a list of intents: {e}", path.display())))
}

/// Writes every output or none: each goes to a temporary file beside its target first, and the
/// targets are replaced only once all were written (a failure removes the temporaries).
fn write_all(outputs: &[(&Path, String)]) -> Result<(), CliError> {
    let temp = |p: &Path| {
        let mut name = p.file_name().map(|n| n.to_os_string()).unwrap_or_default();
        name.push(".microfut-tmp");
        p.with_file_name(name)
    };
    for (k, (path, text)) in outputs.iter().enumerate() {
        if let Err(e) = std::fs::write(temp(path), text) {
            for (done, _) in &outputs[..=k] {
                let _ = std::fs::remove_file(temp(done));
            }
            return Err(CliError::input(format!("cannot write {}: {e}", path.display())));
        }
    }
    for (path, _) in outputs {
        std::fs::rename(temp(path), path)
            .map_err(|e| CliError::input(format!("cannot write {}: {e}", path.display())))?;
    }
    Ok(())
}

pub fn run_match(content: Option<&Path>, args: MatchArgs) -> CliResult {
    let catalog = load_catalog(content)?;
    let rules = rules_for(&catalog, args.revision.as_deref()).map_err(CliError::input)?;
    let home = load_club(&catalog, &args.home)?;
    let away = load_club(&catalog, &args.away)?;
    let human = match args.human.as_deref() {
        None => None,
        Some(s) => Some(side_index(s).ok_or_else(|| CliError::input(format!("--human {s}: expected home or away")))?),
    };
    let mut intents = match &args.intents {
        Some(p) => read_intents(p)?.into_iter(),
        None => Vec::new().into_iter(),
    };
    let formations = [args.home_formation.clone(), args.away_formation.clone()];
    let options = Options { human, retention: args.retention, formations: formations.clone() };
    let mut m = Match::new(rules.clone(), &home, &away, args.seed, options).map_err(CliError::input)?;
    loop {
        match m.step() {
            Step::Finished => break,
            Step::Round => {}
            Step::Decision => match intents.next() {
                Some(intent) => {
                    let round = m.state().round;
                    m.decide(&intent).map_err(|e| CliError::input(format!("intent at round {round}: {e}")))?;
                }
                None => m.decide_npc().expect("pending"),
            },
        }
    }
    // Everything validated and played: now write.
    let mut outputs: Vec<(&Path, String)> = Vec::new();
    if let Some(path) = &args.decisions {
        let log = m.decisions();
        let v = serde_json::json!({
            "retention": log.retention(),
            "dropped": log.dropped(),
            "decisions": log.decisions().collect::<Vec<_>>(),
        });
        outputs.push((path, serde_json::to_string(&v).expect("serializes")));
    }
    if let Some(path) = &args.out {
        let record = RunRecord::of(&m, &rules, formations, human);
        outputs.push((path, serde_json::to_string(&record).expect("serializes")));
    }
    write_all(&outputs)?;
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
        ("crosses", s[0].crosses.to_string(), s[1].crosses.to_string()),
        (
            "dribbles won / lost",
            format!("{}/{}", s[0].dribbles_won, s[0].dribbles_lost),
            format!("{}/{}", s[1].dribbles_won, s[1].dribbles_lost),
        ),
        ("tackles", s[0].tackles.to_string(), s[1].tackles.to_string()),
        ("interceptions", s[0].interceptions.to_string(), s[1].interceptions.to_string()),
        ("blocks", s[0].blocks.to_string(), s[1].blocks.to_string()),
        ("saves", s[0].saves.to_string(), s[1].saves.to_string()),
        ("fouls", s[0].fouls.to_string(), s[1].fouls.to_string()),
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

pub fn run_replay(content: Option<&Path>, args: ReplayArgs) -> CliResult {
    let bytes =
        std::fs::read(&args.run).map_err(|e| CliError::input(format!("cannot read {}: {e}", args.run.display())))?;
    if crate::effects::record::JourneyRecord::claims(&bytes) {
        return super::effects::replay_file(content, &args.run);
    }
    let record = RunRecord::parse(&bytes).map_err(|e| CliError::input(format!("{}: {e}", args.run.display())))?;
    let catalog = load_catalog(content)?;
    let rules = pinned_rules(&catalog, &record)
        .map_err(|e| CliError::input(format!("cannot replay {}: {e}", args.run.display())))?;
    // A run made by another engine version may be played differently by this one: say so.
    let engine_note = if record.engine_version == ENGINE_VERSION {
        String::new()
    } else {
        format!(" (recorded with engine {}; this is engine {ENGINE_VERSION})", record.engine_version)
    };
    match replay(rules, &record).map_err(CliError::input)? {
        Replay::Identical { rounds } => {
            outln!("identical ({rounds} rounds, {} {}){engine_note}", record.ruleset, record.revision);
            Ok(())
        }
        Replay::Differs { round, expected, actual } => Err(CliError::Found(format!(
            "differs at round {round}: recorded state {}, replayed {}{engine_note}",
            expected.unwrap_or_else(|| "nothing".into()),
            actual.unwrap_or_else(|| "nothing".into())
        ))),
        Replay::IntentRefused { round, intent, reason } => Err(CliError::Found(format!(
            "differs at round {round}: the recorded intent '{intent}' is refused by the replay ({reason}){engine_note}"
        ))),
        Replay::RecordEdited { part, at } => Err(CliError::Found(format!(
            "differs: every round's state replays identically, but what the record says about {part} differs \
             from the replay (first at {at}); the run file was edited after it was written"
        ))),
    }
}
