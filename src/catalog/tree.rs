//! The files of a content folder, read from disk or from the copy embedded at build time.

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};

mod embedded {
    include!(concat!(env!("OUT_DIR"), "/embedded.rs"));
}

/// Where content came from; shown in messages.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Origin {
    Embedded,
    Dir(PathBuf),
}

/// Every JSON file of a content root, keyed by its path relative to the root with `/` separators.
#[derive(Debug, Clone)]
pub struct ContentTree {
    pub origin: Origin,
    pub files: BTreeMap<String, Vec<u8>>,
}

#[derive(Debug, thiserror::Error)]
pub enum TreeError {
    #[error("content folder {0} does not exist or is not a folder")]
    Missing(PathBuf),
    #[error("cannot read {path}: {source}")]
    Io { path: PathBuf, source: std::io::Error },
}

impl ContentTree {
    /// The content compiled into this binary.
    pub fn embedded() -> Self {
        let files = embedded::FILES
            .iter()
            .filter_map(|(p, b)| p.strip_prefix("content/").map(|p| (p.to_string(), b.to_vec())))
            .collect();
        ContentTree { origin: Origin::Embedded, files }
    }

    pub fn from_dir(dir: &Path) -> Result<Self, TreeError> {
        if !dir.is_dir() {
            return Err(TreeError::Missing(dir.to_path_buf()));
        }
        let mut files = BTreeMap::new();
        read_dir(dir, dir, &mut files)?;
        Ok(ContentTree { origin: Origin::Dir(dir.to_path_buf()), files })
    }

    pub fn describe(&self) -> String {
        match &self.origin {
            Origin::Embedded => "embedded content".into(),
            Origin::Dir(d) => format!("content folder {}", d.display()),
        }
    }
}

/// The schemas compiled into this binary, by file name.
pub fn embedded_schemas() -> impl Iterator<Item = (&'static str, &'static [u8])> {
    embedded::FILES.iter().filter_map(|(p, b)| p.strip_prefix("schemas/").map(|p| (p, *b)))
}

fn read_dir(root: &Path, dir: &Path, out: &mut BTreeMap<String, Vec<u8>>) -> Result<(), TreeError> {
    let entries = fs::read_dir(dir).map_err(|source| TreeError::Io { path: dir.into(), source })?;
    for entry in entries {
        let entry = entry.map_err(|source| TreeError::Io { path: dir.into(), source })?;
        let path = entry.path();
        if path.is_dir() {
            read_dir(root, &path, out)?;
        } else if path.extension().is_some_and(|e| e == "json") {
            let bytes = fs::read(&path).map_err(|source| TreeError::Io { path: path.clone(), source })?;
            let rel = path.strip_prefix(root).expect("under root").to_string_lossy().replace('\\', "/");
            out.insert(rel, bytes);
        }
    }
    Ok(())
}
