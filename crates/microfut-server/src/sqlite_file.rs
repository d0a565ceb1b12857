//! The health of a SQLite file a server writes (the run store, the battlefield's games).
//!
//! Problem: an adversarial run found a server that started on a half-truncated database and
//! accepted writes, one that kept answering 201 after its database file was deleted (every run
//! created since was gone at the next start), and a full disk answered with SQLite's "cannot
//! commit - no transaction is active".
//!
//! Decision: a store checks its file when it opens it (`PRAGMA quick_check`: every page and
//! index linked as it should be; O(size of the file), a second or two per GB) and refuses a
//! damaged file, or one that is not SQLite at all, naming it; it remembers the identity
//! (device and inode) of the file it opened and compares it with the path's before it writes,
//! so a file deleted or replaced under it is refused rather than written to an orphaned inode;
//! and a full disk is recognised by SQLite's own code (`SQLITE_FULL`, which it returns for
//! `ENOSPC`) so that the callers can say what was kept: nothing.
//!
//! Limits: `quick_check` does not compare indexes with their tables (`integrity_check` does,
//! much more slowly); a file replaced between two writes is noticed at the next write.

use std::os::unix::fs::MetadataExt;
use std::path::Path;

/// The words every full-disk refusal starts with.
pub const DISK_FULL: &str = "the disk is full";

/// Which file a path named when it was opened.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Identity {
    dev: u64,
    ino: u64,
}

/// The identity of the file at `path` now.
pub fn identity(path: &Path) -> std::io::Result<Identity> {
    let m = std::fs::metadata(path)?;
    Ok(Identity { dev: m.dev(), ino: m.ino() })
}

/// Whether `path` still names the file that was opened as `opened`; why not, in words.
pub fn still_there(path: &Path, opened: Identity) -> Result<(), String> {
    match identity(path) {
        Ok(now) if now == opened => Ok(()),
        Ok(_) => Err(format!(
            "{} was replaced by another file after this server opened it: writes are refused \
             (they would go to the old file, which nothing can read any more); restart the server \
             to use the new file",
            path.display()
        )),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Err(format!(
            "{} was deleted after this server opened it: writes are refused (they would be lost \
             at the next start); restore the file, or restart the server to begin an empty store",
            path.display()
        )),
        Err(e) => Err(format!("{}: cannot check the file ({e}): writes are refused", path.display())),
    }
}

/// Whether SQLite failed because the disk (or the file system's quota) is full.
pub fn is_full(e: &rusqlite::Error) -> bool {
    e.sqlite_error_code() == Some(rusqlite::ErrorCode::DiskFull)
}

/// Refuses a file that is not a SQLite database or that `PRAGMA quick_check` finds damaged.
/// The message says what is wrong; the caller names the file.
pub fn check(conn: &rusqlite::Connection) -> Result<(), String> {
    let not_sqlite = |e: &rusqlite::Error| e.sqlite_error_code() == Some(rusqlite::ErrorCode::NotADatabase);
    let damaged = |detail: &str| {
        format!(
            "the file is damaged ({detail}): restore it from a backup, or move it away and start \
             with an empty store; nothing was written to it"
        )
    };
    let rows = conn
        .prepare("PRAGMA quick_check(3)")
        .and_then(|mut st| st.query_map([], |r| r.get::<_, String>(0))?.collect::<Result<Vec<String>, _>>());
    match rows {
        Ok(rows) if rows.len() == 1 && rows[0] == "ok" => Ok(()),
        Ok(rows) => {
            // One line: SQLite puts its first problems after a heading, line by line.
            let problems: Vec<&str> =
                rows.iter().flat_map(|r| r.lines()).filter(|l| !l.starts_with("***") && !l.is_empty()).collect();
            Err(damaged(&format!("quick_check: {}", problems.join("; "))))
        }
        Err(e) if not_sqlite(&e) => {
            Err("the file is not a SQLite database (a store is created only where no file is)".into())
        }
        Err(e) => Err(damaged(&e.to_string())),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_file_that_is_not_sqlite_is_named_as_such() {
        let d = tempfile::tempdir().unwrap();
        let p = d.path().join("x.db");
        std::fs::write(&p, b"this is not a database, it is a text file of some length\n".repeat(20)).unwrap();
        let c = rusqlite::Connection::open(&p).unwrap();
        let e = check(&c).unwrap_err();
        assert!(e.contains("not a SQLite database"), "{e}");
    }

    #[test]
    fn an_empty_file_is_a_new_database_and_a_deleted_one_is_noticed() {
        let d = tempfile::tempdir().unwrap();
        let p = d.path().join("x.db");
        let c = rusqlite::Connection::open(&p).unwrap();
        c.execute_batch("CREATE TABLE t (x)").unwrap();
        check(&c).unwrap();
        let id = identity(&p).unwrap();
        still_there(&p, id).unwrap();
        std::fs::remove_file(&p).unwrap();
        assert!(still_there(&p, id).unwrap_err().contains("was deleted"));
        std::fs::write(&p, b"").unwrap();
        assert!(still_there(&p, id).unwrap_err().contains("replaced"));
    }
}
