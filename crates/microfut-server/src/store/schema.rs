//! The store's schema as numbered migrations, run by `crate::migrations` (shared with the
//! battlefield's file): `PRAGMA user_version` records how many were applied; each runs in its own
//! transaction, in order, once; a store written by a newer microfut is refused.

use rusqlite::Connection;

/// Every table, for digests (`Store::digest`).
pub const TABLES: &[&str] = &[
    "runs",
    "run_squads",
    "rounds",
    "events",
    "intents",
    "decisions",
    "chunks",
    "clubs",
    "effect_runs",
    "effect_commands",
];

const MIGRATIONS: &[&str] = &[
    // 1: runs and what they commit.
    "CREATE TABLE runs (
        id TEXT PRIMARY KEY,
        token_sha256 TEXT NOT NULL,
        created_at INTEGER NOT NULL,
        ruleset TEXT NOT NULL,
        revision TEXT NOT NULL,
        fingerprint TEXT NOT NULL,
        engine_version TEXT NOT NULL,
        seed TEXT NOT NULL,
        human TEXT,
        formations TEXT NOT NULL,
        home TEXT NOT NULL,
        away TEXT NOT NULL,
        retention INTEGER NOT NULL,
        rounds INTEGER NOT NULL DEFAULT 0,
        pending INTEGER NOT NULL DEFAULT 0,
        finished INTEGER NOT NULL DEFAULT 0,
        score_home INTEGER NOT NULL DEFAULT 0,
        score_away INTEGER NOT NULL DEFAULT 0,
        stats TEXT NOT NULL,
        events INTEGER NOT NULL DEFAULT 0,
        decisions INTEGER NOT NULL DEFAULT 0
    );
    CREATE TABLE rounds (
        run_id TEXT NOT NULL REFERENCES runs(id),
        round INTEGER NOT NULL,
        hash TEXT NOT NULL,
        rolls TEXT NOT NULL,
        PRIMARY KEY (run_id, round)
    ) WITHOUT ROWID;
    CREATE TABLE events (
        run_id TEXT NOT NULL REFERENCES runs(id),
        seq INTEGER NOT NULL,
        round INTEGER NOT NULL,
        body TEXT NOT NULL,
        PRIMARY KEY (run_id, seq)
    ) WITHOUT ROWID;
    CREATE TABLE intents (
        run_id TEXT NOT NULL REFERENCES runs(id),
        seq INTEGER NOT NULL,
        round INTEGER NOT NULL,
        body TEXT NOT NULL,
        PRIMARY KEY (run_id, seq)
    ) WITHOUT ROWID;
    CREATE TABLE decisions (
        run_id TEXT NOT NULL REFERENCES runs(id),
        seq INTEGER NOT NULL,
        round INTEGER NOT NULL,
        body TEXT NOT NULL,
        PRIMARY KEY (run_id, seq)
    ) WITHOUT ROWID;",
    // 2: uploaded clubs.
    "CREATE TABLE clubs (
        id TEXT PRIMARY KEY,
        body TEXT NOT NULL,
        created_at INTEGER NOT NULL
    );",
    // 3: the per-round tables as rowid tables with a unique (run, seq) index: rows are appended
    // instead of inserted into a clustered index keyed by a random run id, and a 4 KB decision no
    // longer overflows an index cell (see the store's module comment).
    "CREATE TABLE rounds_rowid (
        run_id TEXT NOT NULL REFERENCES runs(id),
        round INTEGER NOT NULL,
        hash TEXT NOT NULL,
        rolls TEXT NOT NULL,
        UNIQUE (run_id, round)
    );
    INSERT INTO rounds_rowid (run_id, round, hash, rolls) SELECT run_id, round, hash, rolls FROM rounds ORDER BY run_id, round;
    DROP TABLE rounds;
    ALTER TABLE rounds_rowid RENAME TO rounds;
    CREATE TABLE events_rowid (
        run_id TEXT NOT NULL REFERENCES runs(id),
        seq INTEGER NOT NULL,
        round INTEGER NOT NULL,
        body TEXT NOT NULL,
        UNIQUE (run_id, seq)
    );
    INSERT INTO events_rowid (run_id, seq, round, body) SELECT run_id, seq, round, body FROM events ORDER BY run_id, seq;
    DROP TABLE events;
    ALTER TABLE events_rowid RENAME TO events;
    CREATE TABLE intents_rowid (
        run_id TEXT NOT NULL REFERENCES runs(id),
        seq INTEGER NOT NULL,
        round INTEGER NOT NULL,
        body TEXT NOT NULL,
        UNIQUE (run_id, seq)
    );
    INSERT INTO intents_rowid (run_id, seq, round, body) SELECT run_id, seq, round, body FROM intents ORDER BY run_id, seq;
    DROP TABLE intents;
    ALTER TABLE intents_rowid RENAME TO intents;
    CREATE TABLE decisions_rowid (
        run_id TEXT NOT NULL REFERENCES runs(id),
        seq INTEGER NOT NULL,
        round INTEGER NOT NULL,
        body TEXT NOT NULL,
        UNIQUE (run_id, seq)
    );
    INSERT INTO decisions_rowid (run_id, seq, round, body) SELECT run_id, seq, round, body FROM decisions ORDER BY run_id, seq;
    DROP TABLE decisions;
    ALTER TABLE decisions_rowid RENAME TO decisions;",
    // 4: World 1's journeys (seed 002): what a journey pins, and its commands with the state
    // hash after each (the state itself is rebuilt by replaying them on the pinned revision).
    "CREATE TABLE effect_runs (
        id TEXT PRIMARY KEY,
        token_sha256 TEXT NOT NULL,
        created_at INTEGER NOT NULL,
        ruleset TEXT NOT NULL,
        revision TEXT NOT NULL,
        fingerprint TEXT NOT NULL,
        engine_version TEXT NOT NULL,
        executor INTEGER NOT NULL,
        mode TEXT NOT NULL,
        policy TEXT,
        policy_fingerprint TEXT,
        journey TEXT NOT NULL,
        seed TEXT NOT NULL,
        commands INTEGER NOT NULL DEFAULT 0,
        finished INTEGER NOT NULL DEFAULT 0
    );
    CREATE TABLE effect_commands (
        run_id TEXT NOT NULL REFERENCES effect_runs(id),
        seq INTEGER NOT NULL,
        body TEXT NOT NULL,
        hash TEXT NOT NULL,
        UNIQUE (run_id, seq)
    );",
    // 5: a run's two squads (~25 KB of JSON) in a table of their own. In the run row they pushed
    // the columns every advance updates (rounds, score, stats) into a chain of overflow pages
    // that SQLite rewrote, all of it, whenever the row changed size: ~57 KB of WAL per advance,
    // where the rows the advance adds are ~2.5 KB. The run row now fits in a page.
    "CREATE TABLE run_squads (
        run_id TEXT PRIMARY KEY REFERENCES runs(id),
        home TEXT NOT NULL,
        away TEXT NOT NULL
    );
    INSERT INTO run_squads (run_id, home, away) SELECT id, home, away FROM runs;
    ALTER TABLE runs DROP COLUMN home;
    ALTER TABLE runs DROP COLUMN away;",
    // 6: when a run (or a journey) finished, for `microfut store prune --older-than`. Runs that
    // finished before this migration count from their creation, the best the file knows.
    "ALTER TABLE runs ADD COLUMN finished_at INTEGER;
    UPDATE runs SET finished_at = created_at WHERE finished = 1;
    ALTER TABLE effect_runs ADD COLUMN finished_at INTEGER;
    UPDATE effect_runs SET finished_at = created_at WHERE finished = 1;",
    // 7: a run's rounds, events and decisions sealed into compressed chunks as it goes
    // (`store/chunks.rs`): `first`..`last` are the keys (round, or seq) of its rows, `rows` how
    // many it holds, `codec` how its body is written. Rows already stored stay plain rows until
    // their run's next advance seals them.
    "CREATE TABLE chunks (
        run_id TEXT NOT NULL REFERENCES runs(id),
        kind INTEGER NOT NULL,
        first INTEGER NOT NULL,
        last INTEGER NOT NULL,
        last_round INTEGER NOT NULL,
        rows INTEGER NOT NULL,
        codec INTEGER NOT NULL,
        body BLOB NOT NULL,
        UNIQUE (run_id, kind, first)
    );",
];

/// The schema version this binary writes.
pub const VERSION: usize = MIGRATIONS.len();

pub fn migrate(conn: &mut Connection) -> Result<(), String> {
    crate::migrations::run(conn, MIGRATIONS)
}
