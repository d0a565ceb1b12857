//! The options of `microfut lab` and its subcommands: read by the lab's runner (`lab.rs`) and by
//! what it writes for a cluster and a report (`lab_report.rs`), so both depend on this file.

use super::render::Lang;
use std::path::PathBuf;

#[derive(Debug, clap::Args)]
#[command(args_conflicts_with_subcommands = true, subcommand_negates_reqs = true)]
pub struct LabArgs {
    #[command(subcommand)]
    pub command: Option<LabCommand>,
    /// The ruleset to simulate, e.g. trilha.
    #[arg(required = true)]
    pub ruleset: Option<String>,
    /// Run only these scenarios (repeat, or separate with commas); all by default.
    #[arg(long = "scenario", value_name = "ID", value_delimiter = ',', num_args = 1..)]
    pub scenarios: Vec<String>,
    /// Simulations per scenario (`--matches` is the same option).
    #[arg(long = "games", visible_alias = "matches", value_name = "N", required = true, allow_negative_numbers = true, value_parser = parse_count)]
    pub games: Option<u64>,
    /// Seed of every simulation's dice: the same command with the same seed prints the same numbers.
    #[arg(long, value_name = "S", required = true)]
    pub seed: Option<u64>,
    /// The revision to run (default: the newest published).
    #[arg(long, value_name = "VERSION")]
    pub revision: Option<String>,
    /// A/B mode: also run this revision on the same seeds and report each metric's difference.
    #[arg(long, value_name = "VERSION")]
    pub against: Option<String>,
    /// Microfut: the home club (a club file or a sample club id).
    #[arg(long)]
    pub home: Option<String>,
    /// Microfut: the away club (a club file or a sample club id).
    #[arg(long)]
    pub away: Option<String>,
    /// Space Football: the two built-in bots (random, greedy, search), each playing both colours on
    /// every board (default: the revision's lab.bots).
    #[arg(long, value_name = "A,B", value_delimiter = ',', num_args = 1..)]
    pub bots: Vec<String>,
    /// Print JSON instead of the table.
    #[arg(long, conflicts_with = "shard")]
    pub json: bool,
    /// Also write the results as CSV to FILE (`-`: standard output).
    #[arg(long, value_name = "FILE", conflicts_with = "shard")]
    pub csv: Option<PathBuf>,
    /// Also write the report as one self-contained HTML page to FILE (plots, table, identity; `-`: standard output).
    #[arg(long, value_name = "FILE", conflicts_with = "shard")]
    pub html: Option<PathBuf>,
    /// No progress bar and no timing line.
    #[arg(long)]
    pub quiet: bool,
    /// Run only slice i of n (0-based) and write a shard file for `microfut lab merge`; `env`
    /// takes i and n from a Slurm array task (SLURM_ARRAY_TASK_ID) or a Kubernetes Indexed Job
    /// (JOB_COMPLETION_INDEX), n from MICROFUT_SHARD_COUNT (or Slurm's SLURM_ARRAY_TASK_COUNT).
    #[arg(long, value_name = "i/n|env")]
    pub shard: Option<String>,
    /// Where --shard writes its file (default: lab-shard-<i>-of-<n>.json, in the folder given
    /// here if it is one or ends with /; `-`: standard output).
    #[arg(long, value_name = "FILE", requires = "shard")]
    pub out: Option<PathBuf>,
    /// Worker threads (default: all cores, or RAYON_NUM_THREADS). Results do not depend on it.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u16).range(1..))]
    pub threads: Option<u16>,
    /// Language of labels in the table and CSV.
    #[arg(long, value_enum, default_value_t)]
    pub lang: Lang,
}

#[derive(Debug, clap::Subcommand)]
pub enum LabCommand {
    /// Combine the shard files of one `lab --shard` command into the table one machine would print.
    Merge(MergeArgs),
    /// Measure the rules document's Appendix D facts and league averages on a Microfut revision;
    /// each prints pass or fail with its figure (exit 1 when any fails).
    Calibrate(CalibrateArgs),
    /// How much every calibration figure moves per unit of each parameter (central
    /// differences on common random numbers, 95 % intervals): the levers, before any edit.
    Sensitivity(SensitivityArgs),
}

#[derive(Debug, clap::Args)]
pub struct SensitivityArgs {
    /// The revision to measure (default: the newest published).
    #[arg(long)]
    pub revision: Option<String>,
    /// The parameters to move (params.json ids, separated with commas).
    #[arg(long, value_name = "A,B", value_delimiter = ',', num_args = 1.., required = true)]
    pub params: Vec<String>,
    /// Matches per fixture and order in each calibration run.
    #[arg(long, default_value_t = 48, value_parser = parse_count)]
    pub matches: u64,
    /// Independent replicates (seeds derived from --seed), each playing v-h, v and v+h on one
    /// seed; the intervals are Student t intervals over them.
    #[arg(long, default_value_t = 5, value_parser = parse_replicates)]
    pub replicates: u64,
    /// The step h relative to |v| (of the domain's width when v is 0), kept inside the domain.
    #[arg(long, default_value_t = 0.1, allow_negative_numbers = true)]
    pub step: f64,
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Only these fixtures of the calibration document (all by default; facts never run).
    #[arg(long = "fixture", value_name = "ID", value_delimiter = ',', num_args = 1..)]
    pub fixtures: Vec<String>,
    /// Leagues per league fixture (default: the document's).
    #[arg(long, value_parser = clap::value_parser!(u16).range(1..))]
    pub leagues: Option<u16>,
    /// Also write a heat map (metrics × parameters) as one HTML page to FILE.
    #[arg(long, value_name = "FILE")]
    pub html: Option<PathBuf>,
    /// Worker threads (default: all cores, or RAYON_NUM_THREADS). Results do not depend on it.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u16).range(1..))]
    pub threads: Option<u16>,
    /// No progress lines.
    #[arg(long)]
    pub quiet: bool,
    /// Print JSON instead of the table.
    #[arg(long)]
    pub json: bool,
}

fn parse_replicates(text: &str) -> Result<u64, String> {
    let n = parse_count(text)?;
    if n < 2 {
        return Err("at least 2 replicates are needed for an interval".into());
    }
    Ok(n)
}

#[derive(Debug, clap::Args)]
pub struct CalibrateArgs {
    /// The revision to measure (default: the newest published).
    #[arg(long)]
    pub revision: Option<String>,
    /// Matches per fixture and order, and per variant of the match-level facts (default: the
    /// calibration document's, else 200).
    #[arg(long, value_parser = parse_count)]
    pub matches: Option<u64>,
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Run only these fixtures of the calibration document (repeat, or separate with commas).
    #[arg(long = "fixture", value_name = "ID", value_delimiter = ',', num_args = 1..)]
    pub fixtures: Vec<String>,
    /// Play this club where the calibration names its reference club: a sample club id or a
    /// club file, checked under the revision as `club validate` checks it.
    #[arg(long)]
    pub club: Option<String>,
    /// Leave out the Appendix D facts (constructed situations, variants, squads, same seed).
    #[arg(long)]
    pub no_facts: bool,
    /// A short run for CI: the calibration document's `short` matches and leagues (else 100
    /// matches a fixture and order, 3 leagues), judged by interval unless --judge says.
    #[arg(long)]
    pub short: bool,
    /// How a figure is judged: `point` (its estimate lies in the target; the default) or
    /// `interval` (its 95 % interval overlaps the target; the default with --short).
    #[arg(long, value_enum)]
    pub judge: Option<Judge>,
    /// Worker threads (default: all cores, or RAYON_NUM_THREADS). Results do not depend on it.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u16).range(1..))]
    pub threads: Option<u16>,
    /// Write the calibration set's clubs (the reference club and every generated one, as the
    /// checks play them) to this folder as `<name>.json`, and stop without simulating: the clubs
    /// to play with `match`, `lab microfut` or `season`. `club generate` with the same preset and
    /// seed gives a different club unless it is also given the calibration's name.
    #[arg(long, value_name = "DIR")]
    pub export_clubs: Option<PathBuf>,
    /// Print JSON instead of the table.
    #[arg(long)]
    pub json: bool,
}

#[derive(Debug, Clone, Copy, clap::ValueEnum)]
pub enum Judge {
    Point,
    Interval,
}

#[derive(Debug, clap::Args)]
pub struct MergeArgs {
    /// Shard files written by `microfut lab … --shard i/n`, all n of them.
    #[arg(required = true, value_name = "FILES")]
    pub files: Vec<PathBuf>,
    /// Print JSON instead of the table.
    #[arg(long)]
    pub json: bool,
    /// Also write the results as CSV to FILE (`-`: standard output).
    #[arg(long, value_name = "FILE")]
    pub csv: Option<PathBuf>,
    /// Also write the report as one self-contained HTML page to FILE (`-`: standard output).
    #[arg(long, value_name = "FILE")]
    pub html: Option<PathBuf>,
    /// Language of labels in the table and CSV.
    #[arg(long, value_enum, default_value_t)]
    pub lang: Lang,
}

fn parse_count(text: &str) -> Result<u64, String> {
    let n: i128 = text.trim().parse().map_err(|_| format!("'{text}' is not a whole number"))?;
    if n < 1 {
        return Err(format!("must be at least 1, got {n}"));
    }
    u64::try_from(n).map_err(|_| format!("{n} is too large"))
}
