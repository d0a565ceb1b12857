//! `microfut store …`: looking after a run store. `prune` deletes finished runs (and World 1
//! journeys) older than a given age, safely beside a server running on the same file
//! (`crate::store::prune`).

use super::{CliError, CliResult};
use std::path::PathBuf;
use std::time::Duration;

#[derive(Debug, clap::Args)]
pub struct StoreArgs {
    #[command(subcommand)]
    pub command: StoreCommand,
}

#[derive(Debug, clap::Subcommand)]
pub enum StoreCommand {
    /// Delete the finished runs and journeys that finished longer ago than --older-than; runs in
    /// progress are kept. Safe while `microfut serve` runs on the same file.
    Prune(PruneArgs),
}

#[derive(Debug, clap::Args)]
pub struct PruneArgs {
    /// The run store (`microfut serve --db`); it must exist.
    #[arg(long)]
    pub db: PathBuf,
    /// How long ago a run must have finished: a number and a unit, s, m, h, d or w (`30d`,
    /// `12h`, `1d12h`; `0s`: every finished run).
    #[arg(long, value_name = "DURATION", value_parser = parse_duration, allow_hyphen_values = true)]
    pub older_than: Duration,
    /// List what would be deleted; delete nothing.
    #[arg(long)]
    pub dry_run: bool,
}

/// `30d`, `12h`, `1d12h`, `90m`, `45s`, `2w`: whole numbers, each with its unit.
pub fn parse_duration(text: &str) -> Result<Duration, String> {
    let usage =
        || format!("'{text}' is not a duration: write a whole number and a unit (s, m, h, d, w), e.g. 30d or 1d12h");
    let mut total: u64 = 0;
    let mut digits = String::new();
    for ch in text.trim().chars() {
        if ch.is_ascii_digit() {
            digits.push(ch);
            continue;
        }
        let unit: u64 = match ch {
            's' => 1,
            'm' => 60,
            'h' => 3_600,
            'd' => 86_400,
            'w' => 604_800,
            _ => return Err(usage()),
        };
        let n: u64 = digits.parse().map_err(|_| usage())?;
        total = n
            .checked_mul(unit)
            .and_then(|s| total.checked_add(s))
            .ok_or_else(|| format!("'{text}' is too long a duration"))?;
        digits.clear();
    }
    if !digits.is_empty() || text.trim().is_empty() {
        return Err(usage());
    }
    Ok(Duration::from_secs(total))
}

pub fn run(args: StoreArgs) -> CliResult {
    match args.command {
        StoreCommand::Prune(a) => prune(a),
    }
}

fn prune(a: PruneArgs) -> CliResult {
    let out = crate::store::prune::prune(&a.db, a.older_than, a.dry_run).map_err(CliError::input)?;
    let verb = if a.dry_run { "would delete" } else { "deleted" };
    for r in &out.runs {
        outln!("{verb} run {}  finished {} UTC  {}", r.id, r.finished, r.what);
    }
    for j in &out.journeys {
        outln!("{verb} journey {}  finished {} UTC  {}", j.id, j.finished, j.what);
    }
    let (runs, journeys) = (out.runs.len(), out.journeys.len());
    let plural = |n: usize, one: &str, many: &str| format!("{n} {}", if n == 1 { one } else { many });
    let counted = format!("{} and {}", plural(runs, "run", "runs"), plural(journeys, "journey", "journeys"));
    if a.dry_run {
        outln!("{counted} would be deleted from {} (dry run: nothing was deleted)", a.db.display());
    } else {
        outln!(
            "{counted} deleted from {}; {:.1} MB of the file are free for new runs (the file keeps its size)",
            a.db.display(),
            out.freed_bytes as f64 / 1e6
        );
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::parse_duration;
    use std::time::Duration;

    #[test]
    fn durations_read_as_people_write_them_and_nothing_else() {
        assert_eq!(parse_duration("30d"), Ok(Duration::from_secs(30 * 86_400)));
        assert_eq!(parse_duration("1d12h"), Ok(Duration::from_secs(86_400 + 12 * 3_600)));
        assert_eq!(parse_duration("0s"), Ok(Duration::ZERO));
        assert_eq!(parse_duration("2w"), Ok(Duration::from_secs(14 * 86_400)));
        for bad in ["", "30", "d", "3x", "-1d", "1.5h", "1d 2h", "99999999999999999999s"] {
            assert!(parse_duration(bad).is_err(), "{bad}");
        }
        assert!(parse_duration("99999999999999999w").unwrap_err().contains("too long"));
    }
}
