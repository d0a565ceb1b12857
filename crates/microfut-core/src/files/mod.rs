//! Writing the files a command produces, so that a failed command changes nothing, and reading
//! the files it is given, so that no input is read without a bound.
//!
//! The problem: a command that writes more than one file (a run record and a decision log, a
//! catalog and a manifest) or replaces a file the user cares about (a sheet trained in place) can
//! fail half-way — a folder where a file was meant, a full disk, two options naming one file, an
//! immutable file — and leave a half-written target or a stray temporary file behind; a naive
//! "write a temporary file and rename it" replaces a symbolic link with a plain file, resets the
//! file's permissions, and, run as root, replaces `/dev/null` or a FIFO with a regular file and
//! loses what was sent to `/dev/stdout`.
//!
//! The decision: outputs are *planned* before the work starts ([`Plan::new`]). Each target is
//! resolved through symbolic links (a loop is named as one) and classified:
//! - `-`, `/dev/stdout`, `/dev/stderr`, `/dev/fd/N` (anything leading into `/proc/<our pid>/fd`)
//!   are this process's descriptors: written through them at their offset, never renamed over
//!   (a redirection to a file keeps the rest of what the command prints), and ended with a
//!   newline when the output lacks one, so what is printed next starts on its own line;
//! - a character device or a FIFO is opened and written in place (a FIFO waits for its reader
//!   before anything else is replaced);
//! - a regular file, or no file yet, is written to a hidden temporary beside it, with its
//!   permission bits, and renamed over it;
//! - a folder, a block device, a socket, a file with no write permission bit (even for root),
//!   an immutable or append-only file, a file this user may not write, and a missing folder are
//!   refused, as are two outputs naming one file and an output naming one of the command's inputs.
//!
//! [`Plan::write`] writes every temporary, checks every target again (a rename never replaces
//! anything that is not a regular file; a target that did not exist is created with
//! `RENAME_NOREPLACE`, so nothing that appeared meanwhile is replaced), and — when the plan has
//! more than one output — keeps each replaced file's original as a hidden hard link until every
//! output is written: a rename or a stream that fails later puts the earlier ones back, so
//! "nothing was written" stays true. Messages name the file the user gave, never a temporary one;
//! a failure that could not be undone says what was changed ([`WriteError::Partial`]).
//!
//! Limits: a process killed between two renames leaves the first one done, and its backup and
//! temporaries behind (their names are [`leftover`]s, which `validate` reports and `publish`
//! removes in a content folder); bytes already sent to a stream cannot be taken back; the owner,
//! extended attributes and other hard links of a replaced file are not carried over.
//!
//! Inputs are read by [`read_input`] with a documented limit ([`FILE_LIMIT`], [`RECORD_LIMIT`]):
//! at most one byte past it is read.

mod read;
mod target;

pub use read::{FILE_LIMIT, LINE_LIMIT, RECORD_LIMIT, ReadError, bounded_lines, describe_io, read_input};

use nix::errno::Errno;
use nix::fcntl::OFlag;
use nix::sys::signal::kill;
use nix::unistd::Pid;
use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};
use target::{Kind, classify, classify_real, identity};

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
    /// A failure after some output had changed, which could not all be undone.
    #[error("cannot write {path}: {reason}; {changed}")]
    Partial { path: String, reason: String, changed: String },
}

impl WriteError {
    /// Whether a file or stream was changed before the failure (only [`WriteError::Partial`]).
    pub fn changed_something(&self) -> bool {
        matches!(self, WriteError::Partial { .. })
    }
}

/// One planned output.
#[derive(Debug, Clone)]
struct Target {
    /// The option that names it (`--out`), or a description (`the sheet`).
    what: String,
    given: PathBuf,
    kind: Kind,
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
            let kind =
                classify(given).map_err(|reason| WriteError::Cannot { path: given.display().to_string(), reason })?;
            let id = identity(&kind);
            if let Some(t) = targets.iter().find(|t| identity(&t.kind) == id) {
                return Err(WriteError::SameFile {
                    first: t.what.clone(),
                    path: t.given.display().to_string(),
                    second: what.to_string(),
                    other: given.display().to_string(),
                });
            }
            targets.push(Target { what: what.to_string(), given: given.to_path_buf(), kind });
        }
        for (what, input) in inputs {
            let Some(real) = target::input_path(input) else { continue };
            let id = identity(&Kind::File(real));
            if let Some(t) = targets.iter().find(|t| identity(&t.kind) == id) {
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
        let mut w = Writing::new(self);
        for (k, bytes) in contents.iter().enumerate() {
            if let Kind::File(real) = &self.targets[k].kind {
                w.temps[k] = Some(write_temp(real, k, bytes).map_err(|e| self.cannot(k, describe_io(&e)))?);
            }
        }
        // Checked again, and streams opened (a FIFO waits for its reader here), before anything
        // is replaced: what can be foreseen does not fail half-way.
        let mut streams: Vec<Option<fs::File>> = Vec::new();
        for k in 0..self.targets.len() {
            streams.push(w.prepare(k).map_err(|reason| self.cannot(k, reason))?);
        }
        if self.targets.len() > 1 {
            for k in 0..self.targets.len() {
                w.back_up(k).map_err(|reason| self.cannot(k, reason))?;
            }
        }
        for k in 0..self.targets.len() {
            if let Err(reason) = w.rename(k) {
                return Err(w.undo(k, reason));
            }
        }
        for (k, stream) in streams.into_iter().enumerate() {
            if let Err(reason) = w.send(k, contents[k], stream) {
                return Err(w.undo(k, reason));
            }
        }
        Ok(())
    }

    fn cannot(&self, k: usize, reason: String) -> WriteError {
        WriteError::Cannot { path: self.targets[k].given.display().to_string(), reason }
    }
}

/// Writes one file all-or-nothing, through a symbolic link, keeping its permissions.
pub fn write_one(what: &str, path: &Path, bytes: &[u8]) -> Result<(), WriteError> {
    Plan::single(what, path)?.write(&[bytes])
}

/// One [`Plan::write`] under way: what it made, so that a failure puts things back and removes
/// its temporaries and backups (on drop), and a success removes the backups.
struct Writing<'a> {
    plan: &'a Plan,
    temps: Vec<Option<PathBuf>>,
    /// The original of a replaced file, hard-linked before the first rename.
    backups: Vec<Option<PathBuf>>,
    existed: Vec<bool>,
    /// Targets renamed into place, and streams written, in order.
    done: Vec<usize>,
}

impl Writing<'_> {
    fn new(plan: &Plan) -> Writing<'_> {
        let n = plan.targets.len();
        Writing { plan, temps: vec![None; n], backups: vec![None; n], existed: vec![false; n], done: Vec::new() }
    }

    /// The target checked again (a file must still be a file that can be replaced); a stream
    /// opened.
    fn prepare(&mut self, k: usize) -> Result<Option<fs::File>, String> {
        match &self.plan.targets[k].kind {
            Kind::File(real) => {
                match classify_real(real.clone())? {
                    Kind::File(_) => {}
                    _ => return Err("it is no longer a regular file".into()),
                }
                self.existed[k] = fs::symlink_metadata(real).is_ok();
                Ok(None)
            }
            Kind::Stream { real, append } => {
                let mut o = fs::OpenOptions::new();
                o.write(true).append(*append);
                std::os::unix::fs::OpenOptionsExt::custom_flags(&mut o, OFlag::O_NOCTTY.bits());
                o.open(real).map(Some).map_err(|e| describe_io(&e))
            }
            Kind::Descriptor(_) => Ok(None),
        }
    }

    fn back_up(&mut self, k: usize) -> Result<(), String> {
        let Kind::File(real) = &self.plan.targets[k].kind else { return Ok(()) };
        if !self.existed[k] {
            return Ok(());
        }
        let backup = hidden_beside(real, k, BACKUP);
        let _ = fs::remove_file(&backup);
        match fs::hard_link(real, &backup) {
            Ok(()) => {}
            // The file cannot be linked (so not unlinked either): immutable or append-only.
            Err(e) if errno(&e) == Some(Errno::EPERM) && target::replaceable(real).is_err() => {
                return Err(target::replaceable(real).unwrap_err());
            }
            // A file system without hard links: a copy is the backup.
            Err(_) => {
                fs::copy(real, &backup).map_err(|e| describe_io(&e))?;
            }
        }
        self.backups[k] = Some(backup);
        Ok(())
    }

    fn rename(&mut self, k: usize) -> Result<(), String> {
        let Kind::File(real) = &self.plan.targets[k].kind else { return Ok(()) };
        let tmp = self.temps[k].as_ref().expect("written above");
        if self.existed[k] {
            // The last look before the rename: whatever took the file's place is not replaced.
            match fs::symlink_metadata(real) {
                Ok(m) if !m.file_type().is_file() => return Err("it is no longer a regular file".into()),
                _ => fs::rename(tmp, real).map_err(|e| describe_io(&e))?,
            }
        } else {
            rename_noreplace(tmp, real).map_err(|e| match errno(&e) {
                Some(Errno::EEXIST) => "something else created it while this command ran".to_string(),
                _ => describe_io(&e),
            })?;
        }
        self.temps[k] = None;
        self.done.push(k);
        Ok(())
    }

    fn send(&mut self, k: usize, bytes: &[u8], stream: Option<fs::File>) -> Result<(), String> {
        // What the command prints next on the same descriptor starts on a line of its own.
        let ended: Vec<u8>;
        let bytes = match &self.plan.targets[k].kind {
            Kind::Descriptor(_) if !bytes.is_empty() && !bytes.ends_with(b"\n") => {
                ended = [bytes, b"\n"].concat();
                &ended[..]
            }
            _ => bytes,
        };
        let written = match (&self.plan.targets[k].kind, stream) {
            (Kind::File(_), _) => return Ok(()),
            (Kind::Descriptor(1), _) => {
                let mut out = std::io::stdout().lock();
                out.write_all(bytes).and_then(|()| out.flush())
            }
            (Kind::Descriptor(2), _) => std::io::stderr().lock().write_all(bytes),
            (Kind::Descriptor(fd), _) => {
                use std::os::fd::BorrowedFd;
                // SAFETY: checked open when planned; borrowed only to duplicate it.
                let fd = unsafe { BorrowedFd::borrow_raw(*fd) };
                fd.try_clone_to_owned().and_then(|owned| fs::File::from(owned).write_all(bytes))
            }
            (Kind::Stream { .. }, Some(mut f)) => f.write_all(bytes),
            (Kind::Stream { .. }, None) => unreachable!("opened in prepare"),
        };
        self.done.push(k);
        match written {
            // The reader stopped reading (`| head`): as for everything a command prints.
            Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => {
                self.done.pop();
                Err(describe_io(&e))
            }
            _ => Ok(()),
        }
    }

    /// Puts back every file replaced before output `failed` failed, and says so truthfully.
    fn undo(&mut self, failed: usize, reason: String) -> WriteError {
        let mut changed: Vec<String> = Vec::new();
        for j in std::mem::take(&mut self.done).into_iter().rev() {
            let t = &self.plan.targets[j];
            let Kind::File(real) = &t.kind else {
                changed.push(format!("{} {} was already written", t.what, t.given.display()));
                continue;
            };
            let restored = match self.backups[j].take() {
                Some(backup) => fs::rename(&backup, real).map_err(|e| {
                    let kept = format!("its original is kept as {}", backup.display());
                    format!(
                        "{} {} was replaced and could not be put back ({}); {kept}",
                        t.what,
                        t.given.display(),
                        describe_io(&e)
                    )
                }),
                None => fs::remove_file(real).map_err(|e| {
                    format!(
                        "{} {} was written and could not be removed ({})",
                        t.what,
                        t.given.display(),
                        describe_io(&e)
                    )
                }),
            };
            if let Err(m) = restored {
                changed.push(m);
            }
        }
        let path = self.plan.targets[failed].given.display().to_string();
        if changed.is_empty() {
            WriteError::Cannot { path, reason }
        } else {
            WriteError::Partial { path, reason, changed: changed.join("; ") }
        }
    }
}

impl Drop for Writing<'_> {
    fn drop(&mut self) {
        for p in self.temps.iter().chain(&self.backups).flatten() {
            let _ = fs::remove_file(p);
        }
    }
}

const TEMPORARY: &str = "microfut-tmp";
const BACKUP: &str = "microfut-bak";

/// `.name.<pid>-<k>.<suffix>` beside `real`: hidden, and named for the process that made it.
fn hidden_beside(real: &Path, k: usize, suffix: &str) -> PathBuf {
    let name = real.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    real.with_file_name(format!(".{name}.{}-{k}.{suffix}", std::process::id()))
}

/// A temporary or backup file [`Plan::write`] leaves behind when its process is killed: the
/// process id in its name, or `None` when the name is not one of them.
pub fn leftover(name: &str) -> Option<u32> {
    let rest = name.strip_prefix('.')?;
    let rest = rest.strip_suffix(TEMPORARY).or_else(|| rest.strip_suffix(BACKUP))?.strip_suffix('.')?;
    let (rest, k) = rest.rsplit_once('-')?;
    let (name, pid) = rest.rsplit_once('.')?;
    k.parse::<usize>().ok()?;
    (!name.is_empty()).then_some(())?;
    pid.parse().ok()
}

/// Whether process `pid` still runs (its leftovers may be files it is still writing).
pub fn is_running(pid: u32) -> bool {
    let Ok(pid) = i32::try_from(pid) else { return false };
    // No signal: only whether it exists. EPERM is a process of another user, running.
    matches!(kill(Pid::from_raw(pid), None), Ok(()) | Err(Errno::EPERM))
}

/// The system's error number of an I/O error, if it has one.
pub(crate) fn errno(e: &std::io::Error) -> Option<Errno> {
    e.raw_os_error().map(Errno::from_raw)
}

/// A hidden temporary file beside `real` holding `bytes`, with `real`'s permissions when it
/// exists. Removed again when anything fails.
fn write_temp(real: &Path, k: usize, bytes: &[u8]) -> std::io::Result<PathBuf> {
    let tmp = hidden_beside(real, k, TEMPORARY);
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

/// Renames `from` to `to` unless `to` exists (EEXIST): a target that was absent when checked is
/// created, never replaced.
fn rename_noreplace(from: &Path, to: &Path) -> std::io::Result<()> {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    {
        use nix::fcntl::{AT_FDCWD, RenameFlags, renameat2};
        match renameat2(AT_FDCWD, from, AT_FDCWD, to, RenameFlags::RENAME_NOREPLACE) {
            Ok(()) => return Ok(()),
            // A file system without the flag: check, then rename.
            Err(Errno::EINVAL | Errno::ENOSYS) => {}
            Err(e) => return Err(e.into()),
        }
    }
    if fs::symlink_metadata(to).is_ok() {
        return Err(Errno::EEXIST.into());
    }
    fs::rename(from, to)
}

#[cfg(test)]
mod tests;
