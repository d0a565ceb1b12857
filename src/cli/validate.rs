use super::content::meaning_check_in;
use super::{CliError, CliResult, load_catalog};
use crate::catalog::{Catalog, Diagnostic, Status};
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
    if catalog.rulesets.is_empty() {
        // An empty or mistyped --content folder is not "all valid".
        problems.push(Diagnostic::new(
            describe(content),
            "",
            "no ruleset found: expected folders such as microfut/ with a catalog.json and revision folders",
        ));
    }
    let mut summary = Vec::new();
    for entry in catalog.rulesets.values() {
        for rev in entry.revisions.values() {
            let mut mine = rev.diagnostics.clone();
            if mine.is_empty()
                && rev.status() == Some(Status::Draft)
                && let (Some(m), Err(_)) = (&rev.manifest, crate::catalog::check_engine(rev))
            {
                // A draft is validated to be published, and only by an engine that accepts it.
                mine.push(Diagnostic::new(
                    rev.file("manifest.json"),
                    "/engine",
                    format!(
                        "this draft requires engine {}, but this is engine {}: this engine cannot check its meaning, play it or publish it (tools/publish refuses it); widen the requirement, or validate it with an engine it accepts",
                        m.engine,
                        crate::catalog::ENGINE_VERSION
                    ),
                ));
            }
            if mine.is_empty() {
                mine.extend(meaning_check_in(entry, rev));
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
    problems.extend(sample_clubs(&catalog, &mut summary));
    problems.sort();
    problems.dedup();
    let warnings = content.map(stray_warnings).unwrap_or_default();
    if args.json {
        let v = serde_json::json!({ "ok": problems.is_empty(), "problems": problems, "warnings": warnings });
        outln!("{}", serde_json::to_string_pretty(&v).expect("serializes"));
    } else {
        outln!("validating {}", describe(content));
        for s in &summary {
            outln!("{s}");
        }
        for w in &warnings {
            outln!("warning: {w}");
        }
        for p in &problems {
            outln!("error: {p}");
        }
        if problems.is_empty() {
            outln!("all content valid");
        }
    }
    if problems.is_empty() { Ok(()) } else { Err(CliError::Found(format!("{} problem(s) found", problems.len()))) }
}

/// Temporary and backup files an interrupted write left in a content folder. A warning, not a
/// problem: nothing reads them (they are not `*.json`) and they change no fingerprint; what an
/// interrupted publish leaves half-done is a problem of its own, named with the revision. The
/// next `publish` removes them.
fn stray_warnings(dir: &Path) -> Vec<Diagnostic> {
    crate::catalog::stray_files(dir)
        .into_iter()
        .map(|(path, pid)| {
            let rel = path.strip_prefix(dir).unwrap_or(&path).to_string_lossy().into_owned();
            let by = if crate::files::is_running(pid) {
                format!("process {pid}, still running: a command writing here now?")
            } else {
                format!("process {pid}, which no longer runs")
            };
            Diagnostic::new(
                rel,
                "",
                format!("a temporary file of an interrupted write ({by}); nothing reads it, and the next `tools/publish` removes it"),
            )
        })
        .collect()
}

fn describe(content: Option<&Path>) -> String {
    match content {
        Some(d) => format!("content folder {}", d.display()),
        None => "embedded content".into(),
    }
}

/// The sample clubs shipped beside Microfut's revisions (`microfut/clubs/*.json`) are content
/// too: the main job, the lab and the tests play them, so each must be a legal club under the
/// newest published revision.
fn sample_clubs(catalog: &Catalog, summary: &mut Vec<String>) -> Vec<Diagnostic> {
    let Some(entry) = catalog.rulesets.get("microfut") else { return Vec::new() };
    let clubs: Vec<(&String, &serde_json::Value)> =
        entry.extra.iter().filter(|(k, _)| k.starts_with("clubs/") && k.ends_with(".json")).collect();
    if clubs.is_empty() {
        return Vec::new();
    }
    // A revision that does not load is already reported above.
    let Ok(rs) = super::content::microfut_ruleset(catalog, None) else { return Vec::new() };
    let mut problems = Vec::new();
    let mut valid = 0;
    for (key, value) in &clubs {
        let file = format!("microfut/{key}");
        let bytes = serde_json::to_vec(value).expect("serializes");
        let (club, schema) = match crate::sheet::read_document::<crate::club::Club>(&bytes, &file, "club.schema.json") {
            Ok(read) => read,
            Err(crate::sheet::SheetFileError::Unreadable(d)) => {
                problems.extend(d);
                continue;
            }
            Err(e) => {
                problems.push(Diagnostic::new(file.as_str(), "", e.to_string()));
                continue;
            }
        };
        match club.validate(&rs, schema) {
            Ok(report) if report.is_valid() => valid += 1,
            Ok(report) => problems.extend(report.problems.iter().map(|p| {
                let who = p.player.as_ref().map(|w| format!("{w}: ")).unwrap_or_default();
                Diagnostic::new(file.as_str(), p.pointer.as_str(), format!("{who}{}", p.message))
            })),
            // The revision carries no club rules: nothing to check the samples against.
            Err(e) => {
                summary.push(format!("  sample clubs       skipped: {e}"));
                return problems;
            }
        }
    }
    summary.push(format!("  sample clubs       {valid} of {} valid under {}", clubs.len(), rs.revision.label()));
    problems
}
