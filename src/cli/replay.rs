//! `microfut replay`: any game's record, replayed by the game of the registry it belongs to
//! (`game::of_record`: the format it declares, else the ruleset it names). `space replay` and
//! `effects replay` take the same path with their game given.

use super::content::{content_tree, load_catalog_for};
use super::{CliError, CliResult};
use crate::files::{RECORD_LIMIT, read_input};
use crate::game::Game;
use crate::record::ReplayReport;
use std::path::{Path, PathBuf};

#[derive(Debug, clap::Args)]
pub struct ReplayArgs {
    /// A record: a match's (`microfut match --out`, the API's export), a Space Football match's
    /// (`space match --out`) or a World 1 journey's (`effects journey --out`).
    pub run: PathBuf,
    /// Print the report every game shares as JSON: ruleset, revision, fingerprint, steps and
    /// their unit, the verdict (identical, differs, refused) and where.
    #[arg(long)]
    pub json: bool,
}

pub fn run(content: Option<&Path>, args: ReplayArgs) -> CliResult {
    let name = args.run.display().to_string();
    let value = read_record_json(content, &args.run, "a run record", "a run record")?;
    let game = match crate::game::of_record(&crate::GAMES, &name, &value) {
        Ok(g) => g,
        Err(refusal) => return Err(refused(content, refusal)),
    };
    let report = replay(content, game, &name, value)?;
    print(&report, args.json)
}

/// A record file read whole (at most [`RECORD_LIMIT`]; `what` names it in the refusal of a
/// larger file) and parsed strictly (BOM, duplicate keys). One that is no JSON is "not
/// `kind`", refused after the content is read, as it always was (a content problem first).
pub fn read_record_json(
    content: Option<&Path>,
    path: &Path,
    what: &str,
    kind: &str,
) -> Result<serde_json::Value, CliError> {
    let bytes = read_input(what, path, RECORD_LIMIT).map_err(CliError::input)?;
    crate::catalog::from_json(&bytes).or_else(|e| {
        content_tree(content)?;
        let why = crate::catalog::describe_json_error(&e);
        Err(CliError::input(format!("{}: not {kind} ({why})", path.display())))
    })
}

/// Reads `value` as `game`'s record, loads only the revision it pins and replays it.
pub fn replay(
    content: Option<&Path>,
    game: &dyn Game,
    name: &str,
    value: serde_json::Value,
) -> Result<ReplayReport, CliError> {
    let record = match game.read_record(name, value) {
        Ok(r) => r,
        Err(refusal) => return Err(refused(content, refusal)),
    };
    let (ruleset, revision) = record.pin();
    let catalog = load_catalog_for(content, ruleset, Some(revision))?;
    record.replay(&catalog).map_err(|r| CliError::input(r.message))
}

/// A record that cannot be read: the content's own problem first, if it has one.
fn refused(content: Option<&Path>, refusal: crate::record::Refusal) -> CliError {
    match content_tree(content) {
        Err(e) => e,
        Ok(_) => CliError::input(refusal.message),
    }
}

/// The verdict's line (stdout when identical, stderr otherwise), or the report as JSON on
/// stdout; exit 1 when the replay differs.
pub fn print(report: &ReplayReport, json: bool) -> CliResult {
    if json {
        let text = serde_json::to_string_pretty(report).expect("reports serialise") + "\n";
        super::lab::print_out(&text)?;
        return if report.identical() { Ok(()) } else { Err(CliError::Found(String::new())) };
    }
    if report.identical() {
        outln!("{}", report.message);
        Ok(())
    } else {
        Err(CliError::Found(report.message.clone()))
    }
}
