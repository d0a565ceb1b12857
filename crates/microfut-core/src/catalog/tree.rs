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
    #[error("cannot read {}: {reason}", .path.display())]
    Io { path: PathBuf, reason: String },
    #[error(transparent)]
    Read(#[from] crate::files::ReadError),
    #[error("cannot read {}: it leads back to {}, a folder that holds it (a loop of folders)", .path.display(), .ancestor.display())]
    FolderLoop { path: PathBuf, ancestor: PathBuf },
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
        match fs::metadata(dir) {
            Ok(m) if m.is_dir() => {}
            Err(e) if crate::files::errno(&e) == Some(nix::errno::Errno::ELOOP) => {
                return Err(TreeError::Io { path: dir.to_path_buf(), reason: crate::files::describe_io(&e) });
            }
            _ => return Err(TreeError::Missing(dir.to_path_buf())),
        }
        let mut files = BTreeMap::new();
        read_dir(dir, dir, &mut Vec::new(), &mut files)?;
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

/// Reads the JSON files under `dir`; `above` holds the folders (device, inode, path) it is in, so
/// a symbolic link to one of them is refused instead of read again and again.
fn read_dir(
    root: &Path,
    dir: &Path,
    above: &mut Vec<(u64, u64, PathBuf)>,
    out: &mut BTreeMap<String, Vec<u8>>,
) -> Result<(), TreeError> {
    use std::os::unix::fs::MetadataExt;
    let io =
        |path: &Path, e: std::io::Error| TreeError::Io { path: path.into(), reason: crate::files::describe_io(&e) };
    let meta = fs::metadata(dir).map_err(|e| io(dir, e))?;
    if let Some((_, _, ancestor)) = above.iter().find(|(d, i, _)| (*d, *i) == (meta.dev(), meta.ino())) {
        return Err(TreeError::FolderLoop { path: dir.into(), ancestor: ancestor.clone() });
    }
    above.push((meta.dev(), meta.ino(), dir.to_path_buf()));
    let entries = fs::read_dir(dir).map_err(|e| io(dir, e))?;
    for entry in entries {
        let entry = entry.map_err(|e| io(dir, e))?;
        let path = entry.path();
        if path.is_dir() {
            read_dir(root, &path, above, out)?;
        } else if path.extension().is_some_and(|e| e == "json") {
            let bytes = crate::files::read_input("a content document", &path, crate::files::FILE_LIMIT)?;
            let rel = path.strip_prefix(root).expect("under root").to_string_lossy().replace('\\', "/");
            out.insert(rel, bytes);
        }
    }
    above.pop();
    Ok(())
}
