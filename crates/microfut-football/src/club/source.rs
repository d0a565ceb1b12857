//! A club as a command names it: a file, or a sample club of the content by id — read, not yet
//! checked (it is checked under the revision that plays it).

use super::Club;
use microfut_core::catalog::{self, Catalog};
use microfut_core::files::{FILE_LIMIT, read_input};
use microfut_core::ruleset::Ruleset;
use std::path::{Path, PathBuf};

/// A club read from a file or the content, before its checks.
pub struct ClubSource {
    /// How messages name it: the path given, or the sample's path in the content.
    pub file: String,
    /// The file, when it is one (so no output of the command overwrites it).
    pub path: Option<PathBuf>,
    value: serde_json::Value,
}

impl ClubSource {
    /// A club from a file path, or a sample club of the content by id.
    pub fn read(catalog: &Catalog, spec: &str) -> Result<ClubSource, String> {
        let path = Path::new(spec);
        // A name that exists is a file, even a link that leads nowhere or in a loop: reading it
        // says so.
        if std::fs::symlink_metadata(path).is_ok() {
            let file = path.display().to_string();
            let bytes = read_input("a club file", path, FILE_LIMIT).map_err(|e| e.to_string())?;
            let value =
                catalog::from_json(&bytes).map_err(|e| format!("{file}: {}", catalog::describe_json_error(&e)))?;
            return Ok(ClubSource { file, path: Some(path.to_path_buf()), value });
        }
        let entry = catalog.ruleset("microfut").map_err(|e| e.to_string())?;
        let key = format!("clubs/{spec}.json");
        match entry.extra.get(&key) {
            Some(v) => {
                Ok(ClubSource { file: catalog.display_path(&format!("microfut/{key}")), path: None, value: v.clone() })
            }
            None => {
                let known: Vec<&str> = entry
                    .extra
                    .keys()
                    .filter_map(|k| k.strip_prefix("clubs/").and_then(|k| k.strip_suffix(".json")))
                    .collect();
                Err(format!(
                    "club '{spec}' is neither a file nor a sample club (samples: {})",
                    if known.is_empty() { "none".to_string() } else { known.join(", ") }
                ))
            }
        }
    }

    /// The club, checked exactly as `club validate` checks it under `rs`: every command that
    /// plays a club refuses one that `club validate` would reject, naming the file and JSON
    /// pointer.
    pub fn checked(&self, rs: &Ruleset) -> Result<Club, String> {
        Club::check_value(&self.value, &self.file, "", rs).map_err(|e| e.to_string())
    }
}
