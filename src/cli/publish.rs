use super::{CliError, CliResult, meaning_check};
use std::path::{Path, PathBuf};

#[derive(Debug, clap::Args)]
pub struct PublishArgs {
    /// Ruleset id, e.g. microfut.
    pub ruleset: String,
    /// The draft version to publish, e.g. 0.5.1.
    pub version: String,
}

pub fn run(content: Option<&Path>, args: PublishArgs) -> CliResult {
    let dir: PathBuf = content.map(Path::to_path_buf).unwrap_or_else(|| PathBuf::from("content"));
    let report =
        crate::catalog::publish(&dir, &args.ruleset, &args.version, &crate::catalog::today_utc(), &meaning_check)
            .map_err(CliError::input)?;
    match report.finished {
        None => outln!("published {} — {}", report.revision, report.fingerprint),
        Some(what) => {
            outln!("published {} — {} (finished an interrupted publish: {what})", report.revision, report.fingerprint)
        }
    }
    outln!("recorded in {}", report.catalog_file.display());
    for p in &report.removed {
        outln!("removed {}, left by an interrupted write", p.display());
    }
    Ok(())
}
