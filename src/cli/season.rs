//! `microfut season`: a double round-robin among clubs, the league table, results by round and
//! the top scorers.

use super::matchday::load_club;
use super::{CliError, CliResult};
use crate::catalog::Catalog;
use crate::club::Club;
use std::path::Path;

#[derive(Debug, clap::Args)]
pub struct SeasonArgs {
    /// The clubs: a folder of club files, club files or sample club ids (repeat, or separate
    /// with commas), or `samples` for every sample club of the content.
    #[arg(long, value_delimiter = ',', num_args = 1.., required = true)]
    pub clubs: Vec<String>,
    #[arg(long)]
    pub seed: u64,
    /// Content revision (default: the newest published).
    #[arg(long)]
    pub revision: Option<String>,
    /// Print the season as JSON: {"table": [...], "rounds": [[...]], "scorers": [...]}.
    #[arg(long)]
    pub json: bool,
    /// Top scorers to list.
    #[arg(long, default_value_t = 10)]
    pub scorers: usize,
}

/// Every club, checked under the revision the season plays (as `club validate` checks it).
fn clubs_of(catalog: &Catalog, specs: &[String], rs: &crate::ruleset::Ruleset) -> Result<Vec<Club>, CliError> {
    let mut out = Vec::new();
    for spec in specs {
        let path = Path::new(spec);
        if spec == "samples" {
            let entry = catalog.ruleset("microfut").map_err(CliError::input)?;
            for key in entry.extra.keys().filter(|k| k.starts_with("clubs/") && k.ends_with(".json")) {
                let id = &key["clubs/".len()..key.len() - ".json".len()];
                out.push(load_club(catalog, id, rs)?);
            }
        } else if path.is_dir() {
            let mut files: Vec<_> = std::fs::read_dir(path)
                .map_err(|e| CliError::input(format!("cannot read {}: {e}", path.display())))?
                .filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|p| p.extension().is_some_and(|x| x == "json"))
                .collect();
            files.sort();
            if files.is_empty() {
                return Err(CliError::input(format!("{}: no club files (*.json) in the folder", path.display())));
            }
            for f in files {
                out.push(load_club(catalog, &f.display().to_string(), rs)?);
            }
        } else {
            out.push(load_club(catalog, spec, rs)?);
        }
    }
    Ok(out)
}

pub fn run(content: Option<&Path>, args: SeasonArgs) -> CliResult {
    let catalog = super::content::load_catalog_for(content, "microfut", args.revision.as_deref())?;
    let rules = crate::run::rules_for(&catalog, args.revision.as_deref()).map_err(CliError::input)?;
    let clubs = clubs_of(&catalog, &args.clubs, &rules.rs)?;
    let season = crate::season::play(rules.clone(), &clubs, args.seed).map_err(CliError::input)?;
    if args.json {
        let v = serde_json::json!({
            "revision": rules.rs.version.to_string(),
            "seed": season.seed,
            "table": season.table,
            "rounds": season.rounds,
            "scorers": season.scorers.iter().take(args.scorers).collect::<Vec<_>>(),
        });
        outln!("{}", serde_json::to_string_pretty(&v).expect("serializes"));
        return Ok(());
    }
    let name = |id: &str| clubs.iter().find(|c| c.id == id).map_or(id.to_string(), |c| c.name.clone());
    outln!(
        "Season of {} clubs · {} ({}) · seed {}\n",
        clubs.len(),
        rules.rs.label(),
        super::render::short(&rules.rs.fingerprint),
        args.seed
    );
    let w = season.table.iter().map(|r| r.name.chars().count()).max().unwrap_or(4).max(4);
    outln!(
        "  {:>2}  {:<w$}  {:>2} {:>2} {:>2} {:>2}  {:>3}:{:<3} {:>4}  {:>3}",
        "#",
        "club",
        "P",
        "W",
        "D",
        "L",
        "GF",
        "GA",
        "GD",
        "Pts"
    );
    for (i, r) in season.table.iter().enumerate() {
        outln!(
            "  {:>2}  {:<w$}  {:>2} {:>2} {:>2} {:>2}  {:>3}:{:<3} {:>+4}  {:>3}",
            i + 1,
            r.name,
            r.played,
            r.won,
            r.drawn,
            r.lost,
            r.goals_for,
            r.goals_against,
            r.goal_difference,
            r.points
        );
    }
    outln!("\nResults by round (seed of each match in brackets: `microfut match --seed` plays it again)");
    for round in &season.rounds {
        let Some(first) = round.first() else { continue };
        let line = round
            .iter()
            .map(|f| format!("{} {}–{} {} [{}]", name(&f.home), f.score[0], f.score[1], name(&f.away), f.seed))
            .collect::<Vec<_>>()
            .join(" · ");
        outln!("  {:>2}. {line}", first.round);
    }
    if !season.scorers.is_empty() && args.scorers > 0 {
        outln!("\nTop scorers");
        for s in season.scorers.iter().take(args.scorers) {
            outln!("  {:>3}  {} (#{}, {})", s.goals, s.name, s.shirt, name(&s.club));
        }
    }
    Ok(())
}
