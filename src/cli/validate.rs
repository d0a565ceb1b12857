use super::{CliError, CliResult, load_catalog, meaning_check};
use crate::catalog::Status;
use std::path::Path;

#[derive(Debug, clap::Args, Default)]
pub struct ValidateArgs {
    /// Print the problems as JSON.
    #[arg(long)]
    pub json: bool,
}

pub fn run(content: Option<&Path>, args: ValidateArgs) -> CliResult {
    let catalog = load_catalog(content)?;
    let mut problems = catalog.diagnostics.clone();
    let mut summary = Vec::new();
    for entry in catalog.rulesets.values() {
        for rev in entry.revisions.values() {
            let mut mine = rev.diagnostics.clone();
            if mine.is_empty() {
                mine.extend(meaning_check(rev));
            }
            if mine.is_empty()
                && let Err(e) = crate::catalog::check_engine(rev)
            {
                // Not an error of the content: another engine may run it.
                summary.push(format!("  {}  skipped: {e}", rev.label()));
                continue;
            }
            let status = match rev.status() {
                Some(Status::Published) => "published",
                Some(Status::Draft) => "draft",
                None => "?",
            };
            summary.push(format!(
                "  {:<18} {:<9} {}  {}",
                rev.label(),
                status,
                rev.fingerprint,
                if mine.is_empty() { "ok".to_string() } else { format!("{} problem(s)", mine.len()) }
            ));
            problems.extend(mine);
        }
    }
    problems.sort();
    problems.dedup();
    if args.json {
        let v = serde_json::json!({ "ok": problems.is_empty(), "problems": problems });
        println!("{}", serde_json::to_string_pretty(&v).expect("serializes"));
    } else {
        println!("validating {}", describe(content));
        for s in &summary {
            println!("{s}");
        }
        for p in &problems {
            println!("error: {p}");
        }
        if problems.is_empty() {
            println!("all content valid");
        }
    }
    if problems.is_empty() { Ok(()) } else { Err(CliError::Found(format!("{} problem(s) found", problems.len()))) }
}

fn describe(content: Option<&Path>) -> String {
    match content {
        Some(d) => format!("content folder {}", d.display()),
        None => "embedded content".into(),
    }
}
