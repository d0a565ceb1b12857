//! What `microfut lab` needs to run on a cluster and to be looked at: the shard a task gets
//! (`--shard i/n` or `--shard env`), where its file goes (`--out FILE` or a folder), and the
//! one-machine command a report names.
//!
//! The command is rebuilt from the options that decide the numbers — ruleset, revision (as the
//! version actually run, so it still means the same after a newer one is published), against,
//! clubs, scenarios, N, seed, content folder — and never from those that do not (threads,
//! shards, output files). Shard files record it, so the report of merged shards names the same
//! command and is byte for byte the one-machine report.

use super::lab_args::LabArgs;
use crate::lab::Shard;
use std::path::{Path, PathBuf};

/// The slice this task runs, if any: `i/n`, or `env` read from the cluster's variables.
pub(super) fn shard(args: &LabArgs) -> Result<Option<Shard>, crate::lab::LabError> {
    args.shard.as_deref().map(|t| Shard::from_spec(t, |k| std::env::var(k).ok())).transpose()
}

/// Where a shard's file goes: `--out FILE`, `lab-shard-<i>-of-<n>.json` in the folder `--out`
/// names (an existing folder, or a path ending in `/`), or in the current folder.
pub(super) fn shard_path(out: Option<&Path>, s: Shard) -> PathBuf {
    let name = format!("lab-shard-{}-of-{}.json", s.index, s.count);
    match out {
        Some(p) if p.is_dir() || p.as_os_str().to_string_lossy().ends_with('/') => p.join(name),
        Some(p) => p.to_path_buf(),
        None => PathBuf::from(name),
    }
}

/// A word as a POSIX shell reads it back.
fn quote(word: &str) -> String {
    let plain = !word.is_empty() && word.chars().all(|c| c.is_ascii_alphanumeric() || "_-./,:=@%+".contains(c));
    if plain { word.to_string() } else { format!("'{}'", word.replace('\'', r"'\''")) }
}

/// The one-machine command that gives these numbers.
pub(super) fn study_command(
    args: &LabArgs,
    content: Option<&Path>,
    revision: &str,
    against: Option<&str>,
    unit: &str,
) -> String {
    let mut words: Vec<String> = vec!["microfut".into(), "lab".into()];
    words.push(args.ruleset.clone().unwrap_or_default());
    words.extend(["--revision".into(), revision.into()]);
    if let Some(b) = against {
        words.extend(["--against".into(), b.into()]);
    }
    for (flag, club) in [("--home", &args.home), ("--away", &args.away)] {
        if let Some(c) = club {
            words.extend([flag.into(), c.clone()]);
        }
    }
    if !args.scenarios.is_empty() {
        words.extend(["--scenario".into(), args.scenarios.join(",")]);
    }
    let count = if unit == "matches" { "--matches" } else { "--games" };
    words.extend([count.into(), args.games.unwrap_or_default().to_string()]);
    words.extend(["--seed".into(), args.seed.unwrap_or_default().to_string()]);
    if let Some(c) = content {
        words.extend(["--content".into(), c.display().to_string()]);
    }
    words.iter().map(|w| quote(w)).collect::<Vec<_>>().join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_are_quoted_only_when_the_shell_needs_it() {
        assert_eq!(quote("esporte_clube_mandacaru"), "esporte_clube_mandacaru");
        assert_eq!(quote("A,B"), "A,B");
        assert_eq!(quote("my club.json"), "'my club.json'");
        assert_eq!(quote("it's"), r"'it'\''s'");
        assert_eq!(quote(""), "''");
    }

    #[test]
    fn a_shard_file_goes_into_a_folder_named_by_out() {
        let s = Shard { index: 2, count: 8 };
        assert_eq!(shard_path(None, s), PathBuf::from("lab-shard-2-of-8.json"));
        assert_eq!(shard_path(Some(Path::new("results/")), s), PathBuf::from("results/lab-shard-2-of-8.json"));
        assert_eq!(shard_path(Some(Path::new("x.json")), s), PathBuf::from("x.json"));
    }
}
