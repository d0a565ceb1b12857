//! The battlefield's games on disk, so a restarted (or killed) server still has them.
//!
//! Problem: a person's game against a bot — and the record of a finished one — lived only in the
//! server's memory; a restart lost every game in progress.
//!
//! Decision: one SQLite file of its own (rusqlite, SQLite bundled, as `crate::store` does for
//! Microfut runs: WAL, `synchronous=NORMAL`, so a commit survives a killed process; numbered
//! migrations recorded in `PRAGMA user_version` by `crate::migrations`, the run store's runner, a
//! file from a newer schema refused). Its own file rather than tables in the run store: the two
//! schemas evolve apart, each with its own `user_version`, and the run store's writer thread
//! stays the only writer of its file.
//! `microfut space serve --db F` names it; `microfut serve --db microfut.db` puts it beside the
//! run store (`microfut.space.db`, [`beside`]). A game is one row: what it pins (revision and
//! fingerprint, seed, the start board, the person's side, the bot) and its actions and outcome
//! as JSON, rewritten by each action in one statement (a game has at most a few hundred
//! actions, a few KB). The bot's state is not stored: the random bot's dice are rebuilt by
//! replaying its choices (`Game::restore`); the other bots have none. The token is kept only as
//! its SHA-256.
//!
//! Limits: one connection behind a mutex (a person clicks; this is not a hot path); games are
//! never deleted from the file (memory keeps the most recent `MAX_GAMES`; older ones are read
//! back on demand).

use rusqlite::{Connection, OptionalExtension, params};
use std::path::{Path, PathBuf};
use std::sync::Mutex;

const MIGRATIONS: &[&str] = &[
    // 1: games.
    "CREATE TABLE games (
        id TEXT PRIMARY KEY,
        token_sha256 TEXT NOT NULL,
        created_at INTEGER NOT NULL,
        revision TEXT NOT NULL,
        fingerprint TEXT NOT NULL,
        seed TEXT NOT NULL,
        human TEXT NOT NULL,
        bot TEXT NOT NULL,
        start TEXT NOT NULL,
        actions TEXT NOT NULL,
        outcome TEXT
    );",
];

/// One stored game, as its columns hold it (JSON kept as text; the battlefield parses it).
#[derive(Debug, Clone, PartialEq)]
pub struct GameRow {
    pub id: String,
    pub token_sha256: String,
    pub revision: String,
    pub fingerprint: String,
    pub seed: u64,
    pub human: String,
    pub bot: String,
    pub start: String,
    pub actions: String,
    pub outcome: Option<String>,
}

#[derive(Debug, thiserror::Error)]
pub enum GameStoreError {
    #[error("battlefield store {path}: {message}")]
    Open { path: String, message: String },
    #[error("battlefield store: {0}")]
    Sql(rusqlite::Error),
    /// Nothing of the write is in the file (one statement: all of it or none).
    #[error("{full}; nothing of this write was kept: the game is as it was ({0})", full = crate::sqlite_file::DISK_FULL)]
    Full(String),
    /// The file was deleted or replaced under the server: writes are refused.
    #[error("battlefield store {0}")]
    Vanished(String),
}

impl From<rusqlite::Error> for GameStoreError {
    fn from(e: rusqlite::Error) -> Self {
        if crate::sqlite_file::is_full(&e) { GameStoreError::Full(e.to_string()) } else { GameStoreError::Sql(e) }
    }
}

pub struct GameStore {
    conn: Mutex<Connection>,
    path: PathBuf,
    opened: crate::sqlite_file::Identity,
}

/// The battlefield's file beside a run store: `microfut.db` → `microfut.space.db`.
pub fn beside(run_store: &Path) -> PathBuf {
    let stem = run_store.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_else(|| "microfut".into());
    run_store.with_file_name(format!("{stem}.space.db"))
}

/// What a game keeps of its token.
pub use microfut_core::digest::sha256_hex as token_sha256;

impl GameStore {
    /// Opens (creating if needed) the file at `path` and brings its schema up to date.
    pub fn open(path: &Path) -> Result<GameStore, GameStoreError> {
        let fail = |m: String| GameStoreError::Open { path: path.display().to_string(), message: m };
        let mut conn = Connection::open(path).map_err(|e| fail(e.to_string()))?;
        crate::sqlite_file::check(&conn).map_err(fail)?;
        conn.busy_timeout(std::time::Duration::from_secs(5)).map_err(|e| fail(e.to_string()))?;
        conn.pragma_update(None, "journal_mode", "WAL").map_err(|e| fail(e.to_string()))?;
        conn.pragma_update(None, "synchronous", "NORMAL").map_err(|e| fail(e.to_string()))?;
        crate::migrations::run(&mut conn, MIGRATIONS).map_err(fail)?;
        let opened = crate::sqlite_file::identity(path).map_err(|e| fail(e.to_string()))?;
        Ok(GameStore { conn: Mutex::new(conn), path: path.to_path_buf(), opened })
    }

    fn conn(&self) -> std::sync::MutexGuard<'_, Connection> {
        self.conn.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// The connection for a write, refused when the file is no longer the one opened.
    fn writer(&self) -> Result<std::sync::MutexGuard<'_, Connection>, GameStoreError> {
        crate::sqlite_file::still_there(&self.path, self.opened).map_err(|why| {
            eprintln!("error: battlefield store {why}");
            GameStoreError::Vanished(why)
        })?;
        Ok(self.conn())
    }

    pub fn create(&self, g: &GameRow) -> Result<(), GameStoreError> {
        let now = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_secs() as i64);
        self.writer()?.execute(
            "INSERT INTO games (id, token_sha256, created_at, revision, fingerprint, seed, human, bot, start, actions, outcome) \
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11)",
            params![
                g.id,
                g.token_sha256,
                now,
                g.revision,
                g.fingerprint,
                g.seed.to_string(),
                g.human,
                g.bot,
                g.start,
                g.actions,
                g.outcome
            ],
        )?;
        Ok(())
    }

    /// Records a game's actions and outcome after a move (one statement: all of it or none).
    pub fn update(&self, id: &str, actions: &str, outcome: Option<&str>) -> Result<(), GameStoreError> {
        self.writer()?
            .execute("UPDATE games SET actions = ?2, outcome = ?3 WHERE id = ?1", params![id, actions, outcome])?;
        Ok(())
    }

    pub fn get(&self, id: &str) -> Result<Option<GameRow>, GameStoreError> {
        let row = self
            .conn()
            .query_row(
                "SELECT id, token_sha256, revision, fingerprint, seed, human, bot, start, actions, outcome FROM games WHERE id = ?1",
                params![id],
                |r| {
                    Ok(GameRow {
                        id: r.get(0)?,
                        token_sha256: r.get(1)?,
                        revision: r.get(2)?,
                        fingerprint: r.get(3)?,
                        seed: r.get::<_, String>(4)?.parse().unwrap_or(0),
                        human: r.get(5)?,
                        bot: r.get(6)?,
                        start: r.get(7)?,
                        actions: r.get(8)?,
                        outcome: r.get(9)?,
                    })
                },
            )
            .optional()?;
        Ok(row)
    }
}
