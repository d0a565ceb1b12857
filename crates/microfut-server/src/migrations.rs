//! Numbered schema migrations over `PRAGMA user_version`, for both SQLite files the servers keep
//! (the run store, `store::schema`, and the battlefield's games, `space_web::store`).
//!
//! Problem: each file needs its schema brought up to date on open, once, in order, without ever
//! leaving a half-applied step behind, and a file written by a newer microfut must be refused
//! rather than guessed at.
//!
//! Decision: one small runner (~30 lines) instead of a crate: rusqlite_migration 2.6 depends on
//! rusqlite 0.40 and refinery 0.10 on rusqlite ≤ 0.41 (and keeps its own history table), so either
//! would pull a second rusqlite and libsqlite3-sys beside our 0.43. `user_version` holds how many
//! migrations were applied; migration k (1-based) runs in its own transaction together with the
//! `user_version = k` that records it, so a failure (a full disk, a killed process) leaves the
//! file at k − 1, whole. The caller names the file in its error (`StoreError::Open`,
//! `GameStoreError::Open`).

use rusqlite::Connection;

/// Brings `conn` up to `migrations.len()`, applying those not yet recorded in `user_version`.
/// A version below zero or above what `migrations` knows is refused before anything is written.
pub fn run(conn: &mut Connection, migrations: &[&str]) -> Result<(), String> {
    let have: i64 = conn.pragma_query_value(None, "user_version", |r| r.get(0)).map_err(|e| e.to_string())?;
    let known = migrations.len();
    let Ok(done) = usize::try_from(have) else {
        return Err(format!("schema version {have} is not one microfut writes: not a microfut file, or damaged"));
    };
    if done > known {
        return Err(format!(
            "schema version {done} is newer than this microfut knows ({known}); use a newer microfut or another file"
        ));
    }
    for (k, sql) in migrations.iter().enumerate().skip(done) {
        let tx = conn.transaction().map_err(|e| e.to_string())?;
        tx.execute_batch(sql).map_err(|e| format!("migration {}: {e}", k + 1))?;
        tx.pragma_update(None, "user_version", (k + 1) as i64).map_err(|e| e.to_string())?;
        tx.commit().map_err(|e| format!("migration {}: {e}", k + 1))?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn version(c: &Connection) -> i64 {
        c.pragma_query_value(None, "user_version", |r| r.get(0)).unwrap()
    }

    fn tables(c: &Connection) -> Vec<String> {
        let mut s = c.prepare("SELECT name FROM sqlite_schema WHERE type = 'table' ORDER BY name").unwrap();
        s.query_map([], |r| r.get(0)).unwrap().map(Result::unwrap).collect()
    }

    const TWO: &[&str] = &["CREATE TABLE a (x INTEGER);", "CREATE TABLE b (y INTEGER); ALTER TABLE a ADD z;"];

    #[test]
    fn applies_each_once_and_in_order() {
        let mut c = Connection::open_in_memory().unwrap();
        run(&mut c, &TWO[..1]).unwrap();
        assert_eq!((version(&c), tables(&c)), (1, vec!["a".to_string()]));
        run(&mut c, TWO).unwrap();
        run(&mut c, TWO).unwrap();
        assert_eq!((version(&c), tables(&c)), (2, vec!["a".to_string(), "b".to_string()]));
    }

    #[test]
    fn a_failing_migration_leaves_the_file_at_the_one_before_whole() {
        let mut c = Connection::open_in_memory().unwrap();
        let bad = ["CREATE TABLE a (x INTEGER);", "CREATE TABLE b (y INTEGER); SELECT nothing FROM nowhere;"];
        let e = run(&mut c, &bad).unwrap_err();
        assert!(e.starts_with("migration 2: "), "{e}");
        // Migration 2's first statement was rolled back with it.
        assert_eq!((version(&c), tables(&c)), (1, vec!["a".to_string()]));
    }

    #[test]
    fn a_newer_or_negative_version_is_refused_and_nothing_is_written() {
        // `user_version` is a 32-bit signed integer.
        for v in [3, -1, i64::from(i32::MIN)] {
            let mut c = Connection::open_in_memory().unwrap();
            c.pragma_update(None, "user_version", v).unwrap();
            let e = run(&mut c, TWO).unwrap_err();
            assert!(e.contains(&format!("schema version {v} ")), "{e}");
            assert_eq!((version(&c), tables(&c)), (v, Vec::<String>::new()));
        }
    }
}
