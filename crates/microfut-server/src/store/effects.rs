//! World 1's journeys in the run store (migration 4). A journey row holds what the run pins —
//! revision and fingerprint, executor, mode, the policy the mode selected and its fingerprint,
//! journey, seed — and how many commands it committed; each command is a row with the state
//! hash after it. The state is not stored: the API rebuilds it by replaying the commands on
//! the pinned revision and checking every hash, as `microfut effects replay` does. Rows are
//! plain JSON text, so the store does not depend on the effects module's types.

use super::{Store, StoreError, now};
use rusqlite::{OptionalExtension, params};

/// What a journey pins, as created.
#[derive(Debug, Clone)]
pub struct NewJourney {
    pub id: String,
    pub token_sha256: String,
    pub ruleset: String,
    pub revision: String,
    pub fingerprint: String,
    pub engine_version: String,
    pub executor: u32,
    pub mode: String,
    /// The policy the mode selected: id and fingerprint.
    pub policy: Option<(String, String)>,
    pub journey: String,
    pub seed: u64,
}

#[derive(Debug, Clone)]
pub struct StoredJourney {
    pub run: NewJourney,
    pub commands: u64,
    pub finished: bool,
    pub created_at: i64,
}

/// One committed command: its JSON and the state hash after it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CommandRow {
    pub body: String,
    pub hash: String,
}

impl Store {
    pub fn create_journey(&self, j: &NewJourney) -> Result<(), StoreError> {
        let j = j.clone();
        let max = self.max_runs();
        let room = self.room();
        self.write(move |c| {
            room.check(c)?;
            if max < u64::MAX {
                let held: i64 = c.prepare_cached("SELECT count(*) FROM effect_runs")?.query_row([], |row| row.get(0))?;
                if held as u64 >= max {
                    return Err(StoreError::Capacity { max });
                }
            }
            c.prepare_cached(
                "INSERT INTO effect_runs (id, token_sha256, created_at, ruleset, revision, fingerprint, engine_version, \
                 executor, mode, policy, policy_fingerprint, journey, seed) \
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13)",
            )?
            .execute(params![
                j.id,
                j.token_sha256,
                now(),
                j.ruleset,
                j.revision,
                j.fingerprint,
                j.engine_version,
                j.executor,
                j.mode,
                j.policy.as_ref().map(|p| &p.0),
                j.policy.as_ref().map(|p| &p.1),
                j.journey,
                j.seed.to_string(),
            ])?;
            Ok(())
        })
    }

    /// Deletes journey `id` and its commands in one transaction; `false` when there was none.
    pub fn delete_journey(&self, id: &str) -> Result<bool, StoreError> {
        let id = id.to_string();
        self.write(move |c| super::delete_journey_rows(c, &id))
    }

    pub fn journey(&self, id: &str) -> Result<Option<StoredJourney>, StoreError> {
        self.read(|c| {
            let row = c
                .prepare_cached(
                    "SELECT id, token_sha256, created_at, ruleset, revision, fingerprint, engine_version, executor, \
                     mode, policy, policy_fingerprint, journey, seed, commands, finished FROM effect_runs WHERE id = ?1",
                )?
                .query_row([id], |r| {
                    let policy: Option<String> = r.get(9)?;
                    let policy_fp: Option<String> = r.get(10)?;
                    Ok((
                        NewJourney {
                            id: r.get(0)?,
                            token_sha256: r.get(1)?,
                            ruleset: r.get(3)?,
                            revision: r.get(4)?,
                            fingerprint: r.get(5)?,
                            engine_version: r.get(6)?,
                            executor: r.get(7)?,
                            mode: r.get(8)?,
                            policy: policy.zip(policy_fp),
                            journey: r.get(11)?,
                            seed: 0,
                        },
                        r.get::<_, String>(12)?,
                        r.get::<_, i64>(2)?,
                        r.get::<_, i64>(13)?,
                        r.get::<_, bool>(14)?,
                    ))
                })
                .optional()?;
            let Some((mut run, seed, created_at, commands, finished)) = row else { return Ok(None) };
            run.seed = seed.parse().map_err(super::corrupt)?;
            Ok(Some(StoredJourney { run, commands: commands as u64, finished, created_at }))
        })
    }

    /// The committed commands of journey `id`, in order.
    pub fn journey_commands(&self, id: &str) -> Result<Vec<CommandRow>, StoreError> {
        self.read(|c| {
            let mut st = c.prepare_cached("SELECT body, hash FROM effect_commands WHERE run_id = ?1 ORDER BY seq")?;
            let rows = st.query_map([id], |r| Ok(CommandRow { body: r.get(0)?, hash: r.get(1)? }))?;
            Ok(rows.collect::<Result<Vec<_>, _>>()?)
        })
    }

    /// Appends commands numbered from `first` (1-based) to journey `id` in one transaction.
    /// Refused (nothing written) unless the journey has exactly `first - 1` commands: two
    /// servers, or a stale copy, can never interleave their commands.
    pub fn commit_commands(
        &self,
        id: &str,
        first: u64,
        rows: Vec<CommandRow>,
        finished: bool,
    ) -> Result<(), StoreError> {
        let id = id.to_string();
        self.write(move |c| {
            let n = c
                .prepare_cached(
                    "UPDATE effect_runs SET commands = commands + ?2, finished = ?3, \
                     finished_at = CASE WHEN ?3 THEN coalesce(finished_at, ?5) END WHERE id = ?1 AND commands = ?4",
                )?
                .execute(params![id, rows.len() as i64, finished, first as i64 - 1, super::now()])?;
            if n != 1 {
                return Err(StoreError::Write(format!("journey {id} does not end at command {}", first - 1)));
            }
            let mut st =
                c.prepare_cached("INSERT INTO effect_commands (run_id, seq, body, hash) VALUES (?1, ?2, ?3, ?4)")?;
            for (k, r) in rows.iter().enumerate() {
                st.execute(params![id, first as i64 + k as i64, r.body, r.hash])?;
            }
            Ok(())
        })
    }
}
