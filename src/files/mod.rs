//! Writing the files a command produces, so that a failed command changes nothing, and reading
//! the files it is given, so that no input is read without a bound.
//!
//! The problem: a command that writes more than one file (a run record and a decision log, a
//! manifest and a catalog) or replaces a file the user cares about (a sheet trained in place) can
//! fail half-way — a folder where a file was meant, a full disk, two options naming one file — and
//! leave a half-written target or a stray temporary file behind; a naive "write a temporary file
//! and rename it" replaces a symbolic link with a plain file and resets the file's permissions.
//!
//! The decision: outputs are *planned* before the work starts ([`Plan::new`]): each target is
//! resolved through symbolic links to the real file, its folder must exist, it must not be a
//! folder, no two outputs may be the same file, and no output may be one of the command's own
//! inputs (a run record written over the club it was played with). Once the work is done,
//! [`Plan::write`] writes every output to a hidden temporary file beside its real target, with
//! the target's permission bits, and only when all of them are written renames each over its
//! target; on any failure every temporary file is removed. Messages name the file the user gave,
//! never a temporary one.
//!
//! Limits: the renames of several outputs are separate steps (a crash between two renames leaves
//! the first one replaced); the owner, extended attributes and other hard links of a replaced file
//! are not carried over.
//!
//! Inputs are read by [`read_input`] with a documented limit ([`FILE_LIMIT`], [`RECORD_LIMIT`]):
//! at most one byte past it is read.

mod read;

pub use read::{FILE_LIMIT, LINE_LIMIT, RECORD_LIMIT, ReadError, bounded_lines, describe_io, read_input};

use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};

#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum WriteError {
    #[error("cannot write {path}: {reason}")]
    Cannot { path: String, reason: String },
    #[error("{first} {path} and {second} {other} are the same file: give each output its own file")]
    SameFile { first: String, path: String, second: String, other: String },
    #[error(
        "{output} {path} is also this command's {input} {other}: writing it would destroy an input; write elsewhere"
    )]
    OverInput { output: String, path: String, input: String, other: String },
}

/// One planned output.
#[derive(Debug, Clone)]
struct Target {
    /// The option that names it (`--out`), or a description (`the sheet`).
    what: String,
    given: PathBuf,
    real: PathBuf,
}

/// The outputs of one command, checked before the work; see the module comment.
#[derive(Debug, Clone, Default)]
pub struct Plan {
    targets: Vec<Target>,
}

impl Plan {
    /// Checks `outputs` (what names each, and its path) against each other and against the
    /// command's `inputs` (files it reads that must survive it).
    pub fn new(outputs: &[(&str, &Path)], inputs: &[(&str, &Path)]) -> Result<Plan, WriteError> {
        let mut targets: Vec<Target> = Vec::new();
        for (what, given) in outputs {
            let cannot = |reason: String| WriteError::Cannot { path: given.display().to_string(), reason };
            let real = real_path(given).map_err(cannot)?;
            if real.is_dir() {
                return Err(cannot("it is a folder".into()));
            }
            if let Some(t) = targets.iter().find(|t| same_file(&t.real, &real)) {
                return Err(WriteError::SameFile {
                    first: t.what.clone(),
                    path: t.given.display().to_string(),
                    second: what.to_string(),
                    other: given.display().to_string(),
                });
            }
            targets.push(Target { what: what.to_string(), given: given.to_path_buf(), real });
        }
        for (what, input) in inputs {
            let Ok(real) = real_path(input) else { continue };
            if let Some(t) = targets.iter().find(|t| same_file(&t.real, &real)) {
                return Err(WriteError::OverInput {
                    output: t.what.clone(),
                    path: t.given.display().to_string(),
                    input: what.to_string(),
                    other: input.display().to_string(),
                });
            }
        }
        Ok(Plan { targets })
    }

    /// A plan of one output that is no input.
    pub fn single(what: &str, path: &Path) -> Result<Plan, WriteError> {
        Plan::new(&[(what, path)], &[])
    }

    /// What names each planned output (`--out`, `the sheet`), in the order `write` takes them.
    pub fn outputs(&self) -> impl Iterator<Item = &str> {
        self.targets.iter().map(|t| t.what.as_str())
    }

    pub fn is_empty(&self) -> bool {
        self.targets.is_empty()
    }

    /// Writes `contents[k]` to output `k`: all of them, or none (see the module comment).
    ///
    /// # Panics
    /// When `contents` does not hold one entry per planned output (a caller bug).
    pub fn write(&self, contents: &[&[u8]]) -> Result<(), WriteError> {
        assert_eq!(contents.len(), self.targets.len(), "one content per planned output");
        let mut temps: Vec<PathBuf> = Vec::new();
        let clean = |temps: &[PathBuf]| {
            for t in temps {
                let _ = fs::remove_file(t);
            }
        };
        for (k, (t, bytes)) in self.targets.iter().zip(contents).enumerate() {
            match write_temp(&t.real, k, bytes) {
                Ok(tmp) => temps.push(tmp),
                Err(e) => {
                    clean(&temps);
                    return Err(WriteError::Cannot { path: t.given.display().to_string(), reason: e.to_string() });
                }
            }
        }
        // What can be foreseen is checked again before the first rename (a folder made since
        // the plan), so that one output is not replaced while another is refused.
        if let Some(t) = self.targets.iter().find(|t| t.real.is_dir()) {
            clean(&temps);
            return Err(WriteError::Cannot { path: t.given.display().to_string(), reason: "it is a folder".into() });
        }
        for (k, (t, tmp)) in self.targets.iter().zip(&temps).enumerate() {
            if let Err(e) = fs::rename(tmp, &t.real) {
                clean(&temps[k..]);
                return Err(WriteError::Cannot { path: t.given.display().to_string(), reason: e.to_string() });
            }
        }
        Ok(())
    }
}

/// Writes one file all-or-nothing, through a symbolic link, keeping its permissions.
pub fn write_one(what: &str, path: &Path, bytes: &[u8]) -> Result<(), WriteError> {
    Plan::single(what, path)?.write(&[bytes])
}

/// The file a path writes to: symbolic links of the last component followed (a dangling link
/// writes its target), the folder made absolute. Refuses a missing folder.
fn real_path(path: &Path) -> Result<PathBuf, String> {
    let mut p = path.to_path_buf();
    for _ in 0..40 {
        match fs::symlink_metadata(&p) {
            Ok(m) if m.file_type().is_symlink() => {
                let to = fs::read_link(&p).map_err(|e| e.to_string())?;
                p = if to.is_absolute() { to } else { parent_of(&p).join(to) };
            }
            _ => break,
        }
    }
    let Some(name) = p.file_name() else {
        return Err("not a file name".into());
    };
    let dir = parent_of(&p);
    let dir = fs::canonicalize(&dir).map_err(|_| format!("folder {} does not exist", dir.display()))?;
    if !dir.is_dir() {
        return Err(format!("{} is not a folder", dir.display()));
    }
    Ok(dir.join(name))
}

fn parent_of(p: &Path) -> PathBuf {
    match p.parent() {
        Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
        _ => PathBuf::from("."),
    }
}

/// Two resolved paths name the same file: equal, or (for existing files) the same inode.
fn same_file(a: &Path, b: &Path) -> bool {
    if a == b {
        return true;
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        if let (Ok(x), Ok(y)) = (fs::metadata(a), fs::metadata(b)) {
            return x.dev() == y.dev() && x.ino() == y.ino();
        }
    }
    false
}

/// A hidden temporary file beside `real` holding `bytes`, with `real`'s permissions when it
/// exists. Removed again when anything fails.
fn write_temp(real: &Path, k: usize, bytes: &[u8]) -> std::io::Result<PathBuf> {
    let name = real.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    let tmp = real.with_file_name(format!(".{name}.{}-{k}.microfut-tmp", std::process::id()));
    // A leftover of a killed process with the same id is ours to replace.
    let _ = fs::remove_file(&tmp);
    let result = (|| {
        let mut f = fs::OpenOptions::new().write(true).create_new(true).open(&tmp)?;
        if let Ok(m) = fs::metadata(real) {
            f.set_permissions(m.permissions())?;
        }
        f.write_all(bytes)?;
        f.sync_all()
    })();
    match result {
        Ok(()) => Ok(tmp),
        Err(e) => {
            let _ = fs::remove_file(&tmp);
            Err(e)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn leftovers(dir: &Path) -> Vec<String> {
        fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .filter(|n| n.contains("tmp"))
            .collect()
    }

    #[test]
    fn writes_every_output_or_none_and_leaves_no_temporary_file() {
        let d = tempfile::tempdir().unwrap();
        let (a, b) = (d.path().join("a.json"), d.path().join("b"));
        fs::create_dir(&b).unwrap();
        // A folder as a target is refused before any work.
        let e = Plan::new(&[("--out", &a), ("--decisions", &b)], &[]).unwrap_err();
        assert_eq!(e.to_string(), format!("cannot write {}: it is a folder", b.display()));
        // It becomes a folder after planning: nothing is written, nothing is left.
        fs::remove_dir(&b).unwrap();
        let plan = Plan::new(&[("--out", &a), ("--decisions", &b)], &[]).unwrap();
        fs::create_dir(&b).unwrap();
        let e = plan.write(&[b"1", b"2"]).unwrap_err().to_string();
        assert!(e.starts_with(&format!("cannot write {}:", b.display())), "{e}");
        assert!(!a.exists());
        assert!(leftovers(d.path()).is_empty(), "{:?}", leftovers(d.path()));
    }

    #[test]
    fn the_same_file_twice_or_over_an_input_is_refused() {
        let d = tempfile::tempdir().unwrap();
        let a = d.path().join("a.json");
        let dotted = d.path().join(".").join("a.json");
        let e = Plan::new(&[("--out", &a), ("--decisions", &dotted)], &[]).unwrap_err();
        assert!(matches!(e, WriteError::SameFile { .. }), "{e}");
        fs::write(&a, "{}").unwrap();
        let link = d.path().join("link.json");
        std::os::unix::fs::symlink(&a, &link).unwrap();
        let e = Plan::new(&[("--out", &link)], &[("--home", &a)]).unwrap_err().to_string();
        assert!(e.contains("--out") && e.contains("--home") && e.contains("destroy an input"), "{e}");
        let missing = d.path().join("nowhere/x.json");
        let e = Plan::single("--out", &missing).unwrap_err().to_string();
        assert!(e.contains("does not exist"), "{e}");
    }

    #[test]
    fn a_symbolic_link_is_written_through_and_the_mode_is_kept() {
        use std::os::unix::fs::PermissionsExt;
        let d = tempfile::tempdir().unwrap();
        let real = d.path().join("real.json");
        fs::write(&real, "old").unwrap();
        fs::set_permissions(&real, fs::Permissions::from_mode(0o600)).unwrap();
        let link = d.path().join("link.json");
        std::os::unix::fs::symlink("real.json", &link).unwrap();
        write_one("the sheet", &link, b"new").unwrap();
        assert!(fs::symlink_metadata(&link).unwrap().file_type().is_symlink());
        assert_eq!(fs::read_to_string(&real).unwrap(), "new");
        assert_eq!(fs::metadata(&real).unwrap().permissions().mode() & 0o777, 0o600);
        assert!(leftovers(d.path()).is_empty());
    }
}
