//! The `microfut` command line. Thin: it parses, calls the library, renders, and maps errors to
//! exit codes (0 ok, 1 content problems found by `validate`, 2 usage or input errors).

/// `print!` that survives a reader who stopped early (`microfut … | head`): the rest of the
/// output is dropped and the command still finishes its work (files it writes, its exit code).
macro_rules! out {
    ($($arg:tt)*) => { $crate::cli::write_stdout(format_args!($($arg)*), false) };
}

/// `println!` with the same tolerance as [`out!`].
macro_rules! outln {
    ($($arg:tt)*) => { $crate::cli::write_stdout(format_args!($($arg)*), true) };
}

mod club;
mod content;
mod demo;
mod effects;
mod lab;
mod lab_args;
mod lab_report;
mod lab_sensitivity;
pub mod matchday;
mod odds;
mod play;
mod play_view;
mod publish;
mod render;
mod replay;
mod resolve;
mod revisions;
mod season;
mod serve;
pub mod sheet;
mod space;
mod store;
mod trilha;
mod validate;

use clap::{Parser, Subcommand};
use std::path::PathBuf;

pub use content::{load_catalog, meaning_check, revision_check};

#[derive(Debug, Parser)]
#[command(name = "microfut", version, about = "Microfut rules engine: resolve plays, validate and publish content")]
pub struct Cli {
    /// Read content from this folder instead of the copy embedded in the binary.
    #[arg(long, global = true, value_name = "DIR")]
    pub content: Option<PathBuf>,
    #[command(subcommand)]
    pub command: Option<Command>,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Resolve the rules document's worked examples and explain every number (the default job).
    Demo(demo::DemoArgs),
    /// Validate every ruleset and revision: schemas, meaning, fingerprints. Exit 1 on any problem.
    Validate(validate::ValidateArgs),
    /// Evaluate one pipeline with the given inputs and show value, difficulty, odds and contributions.
    Resolve(resolve::ResolveArgs),
    /// Print the success probability for every difficulty (the document's Appendix B).
    Odds(odds::OddsArgs),
    /// Publish a draft revision: validate, fingerprint, mark published, record in catalog.json.
    Publish(publish::PublishArgs),
    /// Play a full match between two clubs and print the score and statistics.
    Match(matchday::MatchArgs),
    /// Replay any game's record under its pinned revision: "identical" or the first step that differs.
    Replay(replay::ReplayArgs),
    /// Play a double round-robin among clubs: the league table, results by round, top scorers.
    Season(season::SeasonArgs),
    /// Simulate rule scenarios many times: win shares, lengths, confidence intervals, A/B, shards.
    Lab(lab::LabArgs),
    /// Trilha do Mandacaru tools: the printable board.
    Trilha(trilha::TrilhaArgs),
    /// Space Football: boards, matches between bot processes, championships and grades, replays, built-in bots.
    Space(space::SpaceArgs),
    /// Show a player sheet: RES practical, characteristics, skills, the itemised XP ledger, the age cap and the band.
    Sheet(sheet::SheetArgs),
    /// Award raw XP to a sheet's channels: applied XP, support XP, levels bought under the age cap.
    Train(sheet::TrainArgs),
    /// Age a sheet: RES practical penalty, characteristics recalculated.
    Age(sheet::AgeArgs),
    /// Validate or generate clubs.
    Club(club::ClubArgs),
    /// World 1 and its effect-resolution policy: resolve an effect, play or replay a journey, read attributes.
    Effects(effects::EffectsArgs),
    /// Serve the web page, the HTTP API (/api/v1) and the run store: play a match in a browser.
    Serve(serve::ServeArgs),
    /// Play a match at the terminal prompt: the candidates with their odds at each of your decisions.
    Play(play::PlayArgs),
    /// Look after a run store: `prune` deletes finished runs older than a given age.
    Store(store::StoreArgs),
    /// List each revision of each ruleset: status, date, parent, fingerprint, its change note.
    Revisions(revisions::RevisionsArgs),
}

/// A failure with its exit code.
#[derive(Debug)]
pub enum CliError {
    /// Bad usage or bad input: exit 2.
    Input(String),
    /// The command ran and found problems (validation): exit 1.
    Found(String),
}

impl CliError {
    pub fn input(msg: impl std::fmt::Display) -> Self {
        // Control characters an input echoed in the message may hold are escaped; a newline stays
        // (a few errors list their problems one per line, each naming its file).
        let text = msg.to_string();
        CliError::Input(
            text.split('\n').map(|l| crate::catalog::printable(l).into_owned()).collect::<Vec<_>>().join("\n"),
        )
    }
}

pub type CliResult = Result<(), CliError>;

/// Entry point; returns the process exit code.
pub fn main() -> i32 {
    let cli = match Cli::try_parse() {
        Ok(c) => c,
        Err(e) => {
            let code = if e.use_stderr() { 2 } else { 0 };
            let _ = e.print();
            return code;
        }
    };
    match run(cli) {
        // Output that could not be written (other than to a reader who left) is an I/O error.
        Ok(()) if STDOUT_FAILED.load(std::sync::atomic::Ordering::Relaxed) => 2,
        Ok(()) => 0,
        Err(CliError::Input(msg)) => {
            eprintln!("error: {msg}");
            2
        }
        Err(CliError::Found(msg)) => {
            if !msg.is_empty() {
                eprintln!("{msg}");
            }
            1
        }
    }
}

pub fn run(cli: Cli) -> CliResult {
    let content = cli.content.as_deref();
    match cli.command.unwrap_or(Command::Demo(demo::DemoArgs::default())) {
        Command::Demo(a) => demo::run(content, a),
        Command::Validate(a) => validate::run(content, a),
        Command::Resolve(a) => resolve::run(content, a),
        Command::Odds(a) => odds::run(content, a),
        Command::Publish(a) => publish::run(content, a),
        Command::Match(a) => matchday::run_match(content, a),
        Command::Replay(a) => replay::run(content, a),
        Command::Season(a) => season::run(content, a),
        Command::Lab(a) => lab::run(content, a),
        Command::Trilha(a) => trilha::run(content, a),
        Command::Space(a) => space::run(content, a),
        Command::Sheet(a) => sheet::run_sheet(content, a),
        Command::Train(a) => sheet::run_train(content, a),
        Command::Age(a) => sheet::run_age(content, a),
        Command::Club(a) => club::run(content, a),
        Command::Effects(a) => effects::run(content, a),
        Command::Serve(a) => serve::run(content, a),
        Command::Play(a) => play::run(content, a),
        Command::Store(a) => store::run(a),
        Command::Revisions(a) => revisions::run(content, a),
    }
}

static STDOUT_CLOSED: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);
static STDOUT_FAILED: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// Writes to stdout; a closed pipe silences every later write instead of panicking, and any
/// other failure is reported once on stderr.
pub(crate) fn write_stdout(args: std::fmt::Arguments<'_>, newline: bool) {
    use std::io::Write;
    use std::sync::atomic::Ordering;
    if STDOUT_CLOSED.load(Ordering::Relaxed) {
        return;
    }
    let mut out = std::io::stdout().lock();
    let written = out.write_fmt(args).and_then(|()| if newline { out.write_all(b"\n") } else { Ok(()) });
    if let Err(e) = written.and_then(|()| out.flush()) {
        STDOUT_CLOSED.store(true, Ordering::Relaxed);
        if e.kind() != std::io::ErrorKind::BrokenPipe {
            STDOUT_FAILED.store(true, Ordering::Relaxed);
            eprintln!("error: cannot write to standard output: {e}");
        }
    }
}
