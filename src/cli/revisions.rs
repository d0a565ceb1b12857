//! `microfut revisions`: each revision of each ruleset as its manifest and catalog.json describe
//! it. The README points here instead of restating every revision's history.

use super::{CliError, CliResult, load_catalog};
use crate::catalog::{Catalog, Revision, RulesetEntry, Status};
use serde_json::{Value, json};
use std::path::Path;

#[derive(Debug, clap::Args, Default)]
pub struct RevisionsArgs {
    /// Only this ruleset (microfut, trilha, space, effects).
    #[arg(long, value_name = "R")]
    pub ruleset: Option<String>,
    /// Print every revision as JSON, with its whole change note.
    #[arg(long)]
    pub json: bool,
    /// Print the whole change note instead of its first sentence.
    #[arg(long)]
    pub full: bool,
}

pub fn run(content: Option<&Path>, args: RevisionsArgs) -> CliResult {
    let catalog = load_catalog(content)?;
    let entries = chosen(&catalog, args.ruleset.as_deref())?;
    if args.json {
        let list: Vec<Value> = entries.iter().map(|e| ruleset_json(&catalog, e)).collect();
        outln!("{}", serde_json::to_string_pretty(&json!({ "rulesets": list })).expect("serializes"));
        return Ok(());
    }
    for (i, entry) in entries.iter().enumerate() {
        if i > 0 {
            outln!("");
        }
        print_ruleset(&catalog, entry, args.full);
    }
    Ok(())
}

/// The rulesets to list: all, or the one asked for (an unknown name is a usage error).
fn chosen<'a>(catalog: &'a Catalog, ruleset: Option<&str>) -> Result<Vec<&'a RulesetEntry>, CliError> {
    match ruleset {
        Some(id) => Ok(vec![catalog.ruleset(id).map_err(CliError::input)?]),
        None if catalog.rulesets.is_empty() => Err(CliError::input(
            "no ruleset found in the content: expected folders such as microfut/ with a catalog.json",
        )),
        None => Ok(catalog.rulesets.values().collect()),
    }
}

/// The revision a command plays when none is named: the newest published.
fn default_version(entry: &RulesetEntry) -> Option<String> {
    entry.revisions.values().rev().find(|r| r.status() == Some(Status::Published)).map(|r| r.version.to_string())
}

fn print_ruleset(catalog: &Catalog, entry: &RulesetEntry, full: bool) {
    let default = default_version(entry);
    outln!("{} ({})", entry.id, catalog.display_path(&entry.id));
    for rev in entry.revisions.values().rev() {
        let version = rev.version.to_string();
        let marker = if default.as_deref() == Some(version.as_str()) { " (default)" } else { "" };
        outln!("  {version}{marker}  {}", status_text(entry, rev));
        if let Some(parent) = rev.manifest.as_ref().and_then(|m| m.parent.as_deref()) {
            outln!("    parent {parent}");
        }
        if rev.status() == Some(Status::Published) {
            outln!("    fingerprint {}", rev.fingerprint);
        }
        let note = note(rev);
        outln!("    {}", if full { note.to_string() } else { first_sentence(note) });
        if !rev.diagnostics.is_empty() {
            outln!("    {} problem(s): run `microfut validate` for them", rev.diagnostics.len());
        }
    }
}

fn status_text(entry: &RulesetEntry, rev: &Revision) -> String {
    match rev.status() {
        Some(Status::Published) => match published_on(entry, rev) {
            Some(date) => format!("published {date}"),
            None => "published (not recorded in catalog.json)".to_string(),
        },
        Some(Status::Draft) => "draft".to_string(),
        None => "unreadable manifest".to_string(),
    }
}

fn published_on<'a>(entry: &'a RulesetEntry, rev: &Revision) -> Option<&'a str> {
    let catalog = entry.catalog.as_ref()?;
    catalog.entry(&rev.version.to_string()).map(|e| e.published_on.as_str())
}

fn note(rev: &Revision) -> &str {
    rev.manifest.as_ref().map_or("", |m| m.change_note.trim())
}

/// The change note up to its first full stop followed by a space (decimals such as 0.65 and
/// versions such as 0.6.20 do not end a sentence).
pub fn first_sentence(note: &str) -> String {
    let cut = note.char_indices().find(|&(i, c)| c == '.' && note[i + 1..].starts_with(char::is_whitespace));
    match cut {
        Some((i, _)) => note[..=i].to_string(),
        None => note.to_string(),
    }
}

fn ruleset_json(catalog: &Catalog, entry: &RulesetEntry) -> Value {
    let revisions: Vec<Value> = entry
        .revisions
        .values()
        .rev()
        .map(|rev| {
            let status = match rev.status() {
                Some(Status::Published) => json!("published"),
                Some(Status::Draft) => json!("draft"),
                None => Value::Null,
            };
            let published = rev.status() == Some(Status::Published);
            json!({
                "version": rev.version.to_string(),
                "status": status,
                "published_on": published_on(entry, rev),
                "parent": rev.manifest.as_ref().and_then(|m| m.parent.clone()),
                "fingerprint": if published { json!(rev.fingerprint) } else { Value::Null },
                "summary": first_sentence(note(rev)),
                "change_note": note(rev),
                "problems": rev.diagnostics.len(),
            })
        })
        .collect();
    json!({
        "ruleset": entry.id,
        "path": catalog.display_path(&entry.id),
        "default": default_version(entry),
        "revisions": revisions,
    })
}
