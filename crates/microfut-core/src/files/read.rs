//! Reading a command's input files with a bound, so that `/dev/zero`, `/dev/urandom`, a FIFO
//! that streams forever or a mistaken multi-gigabyte file is refused instead of read until the
//! memory runs out.

use std::fs;
use std::io::{BufRead, Read};
use std::path::Path;

/// The most a run record (Microfut's, a World 1 journey's, a Space Football match's) may hold:
/// a whole match with its events is under 1 MiB, so 64 is room, not a target.
pub const RECORD_LIMIT: u64 = 64 << 20;
/// The most any other input file (a club, a sheet, intents, a board, a lab shard, a content
/// document) may hold: the largest shipped is well under 1 MiB.
pub const FILE_LIMIT: u64 = 8 << 20;
/// How a loop of symbolic links is named: the system's text for ELOOP ("Too many levels of
/// symbolic links") hides what is wrong.
pub(super) const LOOP: &str = "a loop of symbolic links (ELOOP)";

/// The longest line read from standard input (`microfut play`'s prompt, a bot's turns).
pub const LINE_LIMIT: usize = 1 << 20;

#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum ReadError {
    #[error("cannot read {path}: {reason}")]
    Cannot { path: String, reason: String },
    #[error("{path} is larger than {}: not {what}?", size(*.limit))]
    TooLarge { path: String, what: String, limit: u64 },
}

/// Reads `path` whole, refusing it past `limit` bytes: at most `limit + 1` bytes are ever read,
/// so a device or a FIFO that never ends stops there. `what` says what the file should be ("a
/// club file") in the message of one too large.
pub fn read_input(what: &str, path: &Path, limit: u64) -> Result<Vec<u8>, ReadError> {
    let name = path.display().to_string();
    let cannot = |reason: String| ReadError::Cannot { path: name.clone(), reason };
    let too_large = || ReadError::TooLarge { path: name.clone(), what: what.to_string(), limit };
    let file = fs::File::open(path).map_err(|e| cannot(describe_io(&e)))?;
    let meta = file.metadata().map_err(|e| cannot(describe_io(&e)))?;
    if meta.is_dir() {
        return Err(cannot("it is a folder".into()));
    }
    if meta.is_file() && meta.len() > limit {
        return Err(too_large());
    }
    let expected = if meta.is_file() { meta.len() as usize } else { 0 };
    let mut bytes = Vec::with_capacity(expected);
    file.take(limit + 1).read_to_end(&mut bytes).map_err(|e| cannot(describe_io(&e)))?;
    if bytes.len() as u64 > limit {
        return Err(too_large());
    }
    Ok(bytes)
}

/// The lines of `reader` (without their `\n` or `\r\n`), each at most `limit` bytes: a longer
/// one is an `InvalidData` error, read no further than the limit.
pub fn bounded_lines<R: BufRead>(reader: R, limit: usize) -> impl Iterator<Item = std::io::Result<String>> {
    let mut reader = reader;
    std::iter::from_fn(move || {
        let mut line = Vec::new();
        match (&mut reader).take(limit as u64 + 1).read_until(b'\n', &mut line) {
            Ok(0) => None,
            Err(e) => Some(Err(e)),
            Ok(_) if line.len() > limit && !line.ends_with(b"\n") => Some(Err(std::io::Error::new(
                std::io::ErrorKind::InvalidData,
                format!("a line longer than {}", size(limit as u64)),
            ))),
            Ok(_) => {
                if line.ends_with(b"\n") {
                    line.pop();
                    if line.ends_with(b"\r") {
                        line.pop();
                    }
                }
                Some(
                    String::from_utf8(line)
                        .map_err(|_| std::io::Error::new(std::io::ErrorKind::InvalidData, "a line that is not UTF-8")),
                )
            }
        }
    })
}

/// An I/O error as a person reads it; a loop of symbolic links is named as one ([`LOOP`]).
pub fn describe_io(e: &std::io::Error) -> String {
    if super::errno(e) == Some(nix::errno::Errno::ELOOP) { LOOP.to_string() } else { e.to_string() }
}

/// A byte count as the limits are documented: whole MiB or KiB where it is one.
fn size(bytes: u64) -> String {
    match bytes {
        b if b >= 1 << 20 && b % (1 << 20) == 0 => format!("{} MiB", b >> 20),
        b if b >= 1 << 10 && b % (1 << 10) == 0 => format!("{} KiB", b >> 10),
        b => format!("{b} bytes"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_device_that_never_ends_is_read_to_the_limit_and_refused() {
        let e = read_input("a club file", Path::new("/dev/zero"), 1 << 20).unwrap_err();
        assert_eq!(e.to_string(), "/dev/zero is larger than 1 MiB: not a club file?");
        let d = tempfile::tempdir().unwrap();
        let p = d.path().join("x.json");
        fs::write(&p, vec![b' '; 1025]).unwrap();
        assert!(matches!(read_input("a sheet", &p, 1024), Err(ReadError::TooLarge { .. })));
        assert_eq!(read_input("a sheet", &p, 1025).unwrap().len(), 1025);
        let e = read_input("a sheet", d.path(), 1024).unwrap_err().to_string();
        assert!(e.ends_with("it is a folder"), "{e}");
    }

    #[test]
    fn a_loop_of_links_is_named_as_one() {
        let d = tempfile::tempdir().unwrap();
        std::os::unix::fs::symlink("b", d.path().join("a")).unwrap();
        std::os::unix::fs::symlink("a", d.path().join("b")).unwrap();
        let e = read_input("a club file", &d.path().join("a"), 10).unwrap_err().to_string();
        assert!(e.ends_with("a loop of symbolic links (ELOOP)"), "{e}");
    }

    #[test]
    fn lines_are_bounded() {
        let text = b"short\r\nexactly8\n123456789\nlast";
        let lines: Vec<_> = bounded_lines(&text[..], 8).collect();
        assert_eq!(lines[0].as_ref().unwrap(), "short");
        assert_eq!(lines[1].as_ref().unwrap(), "exactly8");
        assert_eq!(lines[2].as_ref().unwrap_err().kind(), std::io::ErrorKind::InvalidData);
        let zeros = std::io::BufReader::new(fs::File::open("/dev/zero").unwrap());
        let first = bounded_lines(zeros, 1 << 16).next().unwrap();
        assert!(first.unwrap_err().to_string().contains("longer than 64 KiB"));
    }
}
