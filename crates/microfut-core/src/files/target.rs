//! What an output path names, found before the work: a file to replace, a stream to write in
//! place, or one of this process's open descriptors.

use super::read::{LOOP, describe_io};
use nix::errno::Errno;
use nix::fcntl::OFlag;
use std::fs;
use std::os::unix::fs::{FileTypeExt, MetadataExt, OpenOptionsExt};
use std::path::{Path, PathBuf};

/// Symbolic links followed in a row before a path is called a loop (Linux's own limit).
const MAX_LINKS: usize = 40;

/// How an output is written.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum Kind {
    /// A regular file, or no file yet: written to a temporary beside it and renamed over it.
    File(PathBuf),
    /// A character device or a FIFO (or another process's descriptor, `append`): opened and
    /// written in place, never replaced.
    Stream { real: PathBuf, append: bool },
    /// One of this process's descriptors (`-`, `/dev/stdout`, `/dev/fd/N`): written through it,
    /// at its offset, so a redirection to a file keeps what the command prints besides.
    Descriptor(i32),
}

/// Where a path leads once symbolic links are followed.
enum Resolved {
    Path(PathBuf),
    Descriptor(i32),
    Foreign(PathBuf),
}

/// The kind of output `given` names, checked: a folder, a block device, a socket, a read-only,
/// immutable or append-only file, a missing folder and a loop of links are refused (the reason).
pub(super) fn classify(given: &Path) -> Result<Kind, String> {
    match resolve(given)? {
        Resolved::Descriptor(fd) => {
            if !descriptor_open(fd) {
                return Err(format!("descriptor {fd} is not open"));
            }
            Ok(Kind::Descriptor(fd))
        }
        Resolved::Foreign(real) => Ok(Kind::Stream { real, append: true }),
        Resolved::Path(real) => classify_real(real),
    }
}

/// [`classify`] for a path with no symbolic link left in its last component.
pub(super) fn classify_real(real: PathBuf) -> Result<Kind, String> {
    let m = match fs::symlink_metadata(&real) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Kind::File(real)),
        Err(e) => return Err(describe_io(&e)),
        Ok(m) => m,
    };
    let t = m.file_type();
    if t.is_dir() {
        return Err("it is a folder".into());
    }
    if t.is_block_device() {
        return Err("it is a block device: microfut writes files, FIFOs and character devices, never a disk".into());
    }
    if t.is_socket() {
        return Err("it is a socket: microfut writes files, FIFOs and character devices".into());
    }
    if m.mode() & 0o222 == 0 {
        return Err(format!(
            "it is read-only (mode {:04o}): make it writable (chmod u+w) to let microfut replace it",
            m.mode() & 0o7777
        ));
    }
    if t.is_file() {
        replaceable(&real)?;
        return Ok(Kind::File(real));
    }
    if t.is_char_device() || t.is_fifo() {
        return Ok(Kind::Stream { real, append: false });
    }
    Err("it is not a file".into())
}

/// A regular file may be replaced: opening it for writing (without truncating it) is what the
/// system refuses for an immutable or append-only file (EPERM), a read-only file system or a
/// file this user may not write — a rename over it would fail half-way, or succeed where it
/// should not.
pub(super) fn replaceable(real: &Path) -> Result<(), String> {
    let opened =
        fs::OpenOptions::new().write(true).custom_flags((OFlag::O_NONBLOCK | OFlag::O_NOCTTY).bits()).open(real);
    match opened {
        Ok(_) => Ok(()),
        Err(e) if super::errno(&e) == Some(Errno::EPERM) => {
            Err("it is immutable or append-only (lsattr shows i or a; chattr -i or -a lifts it): it cannot be replaced"
                .into())
        }
        Err(e) => Err(describe_io(&e)),
    }
}

/// Follows symbolic links of the last component (a dangling link writes its target); the folder
/// is made absolute and must exist. A link into `/proc/<pid>/fd` names a descriptor.
fn resolve(given: &Path) -> Result<Resolved, String> {
    if given.as_os_str() == "-" {
        return Ok(Resolved::Descriptor(1));
    }
    let mut p = given.to_path_buf();
    for _ in 0..MAX_LINKS {
        if let Some(d) = descriptor_link(&p) {
            return Ok(d);
        }
        match fs::symlink_metadata(&p) {
            Ok(m) if m.file_type().is_symlink() => {
                let to = fs::read_link(&p).map_err(|e| describe_io(&e))?;
                p = if to.is_absolute() { to } else { parent_of(&p).join(to) };
            }
            Ok(_) => return in_folder(&p).map(Resolved::Path),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return in_folder(&p).map(Resolved::Path),
            Err(e) => return Err(describe_io(&e)),
        }
    }
    Err(LOOP.into())
}

/// The real path of a regular file an input names (for the "output over an input" check), or
/// `None` when it names no file this plan could replace.
pub(super) fn input_path(input: &Path) -> Option<PathBuf> {
    match resolve(input) {
        Ok(Resolved::Path(p)) => Some(p),
        _ => None,
    }
}

/// `/proc/<pid>/fd/N` (what `/dev/stdout` and `/dev/fd/N` lead to): the link's "target" is a
/// description (`pipe:[123]`) or a file the descriptor may no longer share, never a path to
/// replace.
fn descriptor_link(p: &Path) -> Option<Resolved> {
    let fd: i32 = p.file_name()?.to_str()?.parse().ok()?;
    let dir = fs::canonicalize(parent_of(p)).ok()?;
    let parts: Vec<&str> = dir.to_str()?.strip_prefix("/proc/")?.split('/').collect();
    let pid: u32 = match parts.as_slice() {
        [pid, "fd"] | [pid, "task", _, "fd"] => pid.parse().ok()?,
        _ => return None,
    };
    Some(if pid == std::process::id() { Resolved::Descriptor(fd) } else { Resolved::Foreign(p.to_path_buf()) })
}

fn in_folder(p: &Path) -> Result<PathBuf, String> {
    let Some(name) = p.file_name() else {
        return Err("not a file name".into());
    };
    let dir = parent_of(p);
    let real_dir = fs::canonicalize(&dir).map_err(|e| match e.kind() {
        std::io::ErrorKind::NotFound => format!("folder {} does not exist", dir.display()),
        _ => format!("folder {}: {}", dir.display(), describe_io(&e)),
    })?;
    if !real_dir.is_dir() {
        return Err(format!("{} is not a folder", dir.display()));
    }
    Ok(real_dir.join(name))
}

pub(super) fn parent_of(p: &Path) -> PathBuf {
    match p.parent() {
        Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
        _ => PathBuf::from("."),
    }
}

/// What makes two outputs the same: the same inode for an existing regular file (spelt two
/// ways, or linked), else the same path or descriptor. Two streams are compared by path, so
/// stdout and stderr on one terminal stay two outputs.
#[derive(Debug, PartialEq, Eq)]
pub(super) enum Identity {
    Inode(u64, u64),
    Path(PathBuf),
    Descriptor(i32),
}

pub(super) fn identity(kind: &Kind) -> Identity {
    let inode = |m: fs::Metadata| m.is_file().then(|| Identity::Inode(m.dev(), m.ino()));
    match kind {
        Kind::File(real) => fs::metadata(real).ok().and_then(inode).unwrap_or_else(|| Identity::Path(real.clone())),
        Kind::Stream { real, .. } => Identity::Path(real.clone()),
        Kind::Descriptor(fd) => descriptor_metadata(*fd).and_then(inode).unwrap_or(Identity::Descriptor(*fd)),
    }
}

/// Whether descriptor `fd` of this process is open (F_GETFD answers EBADF when it is not).
fn descriptor_open(fd: i32) -> bool {
    use nix::fcntl::{FcntlArg, fcntl};
    use std::os::fd::BorrowedFd;
    // SAFETY: nix takes descriptors as `BorrowedFd`, which may not be -1 (checked) and is meant
    // to be open; it is borrowed for this one fcntl, which reads nothing through it and answers
    // EBADF when it is not open.
    fd >= 0 && fcntl(unsafe { BorrowedFd::borrow_raw(fd) }, FcntlArg::F_GETFD).is_ok()
}

fn descriptor_metadata(fd: i32) -> Option<fs::Metadata> {
    use std::os::fd::BorrowedFd;
    // SAFETY: the descriptor was checked open when planned; it is only borrowed for fstat.
    let owned = unsafe { BorrowedFd::borrow_raw(fd) }.try_clone_to_owned().ok()?;
    fs::File::from(owned).metadata().ok()
}
