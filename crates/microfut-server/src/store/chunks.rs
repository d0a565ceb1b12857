//! A run's per-round rows, sealed into compressed chunks as the run goes (migration 7).
//!
//! Problem: a finished match stored ~5.9 MB on the default revision — 2,000 decision rows of
//! ~1.7 KB (4.4 MB with their pages), 2,300 round rows (0.75 MB, mostly the dice rolled) and
//! 1,800 event rows (0.34 MB), each row also carrying its 32-character run id twice (in the row
//! and in its (run, seq) index). Compressed one by one, rows shrink little: a decision is ~90
//! numbers written in full, and a 130-byte event has nothing to repeat; the whole run stayed
//! ~2.5 MB. Successive rows of a run repeat each other a lot (the same players, probabilities,
//! kinds of event, dice of the same tests), which only a compressor that sees many rows at once
//! can use.
//!
//! Decision: while a match is played its rows are plain rows, as before (appended, so an
//! advance writes no more than it did). The advance that ends the match seals them: its own
//! rows and the run's plain rows are framed (key, round, then each text with its length) and
//! compressed with zstd (`LEVEL`) in chunks of `Kind::size` rows, on the advance's thread
//! (`plan_seal`, reading through a reader connection), and its write job inserts the chunks and
//! deletes the plain rows in the advance's transaction (`write_seal`). Rows and chunks of a run
//! never overlap, so a read takes the chunks in order and then the rows. The texts are stored
//! byte for byte, so a read returns exactly what it did from plain rows; runs finished before
//! this migration keep their plain rows and read as they were. `codec` names a chunk's format,
//! so another can be added without rewriting the old ones.
//!
//! Sealing as the run goes (every 64 decisions) was tried first and cost the load benchmark a
//! third of its throughput: deleting a sealed row dirties the page it shares with other runs'
//! rows, so every advance wrote several more WAL pages.
//!
//! Limits: a match in progress (or abandoned) keeps its plain rows (~6 MB when nearly over);
//! reading one row of a chunk decompresses the chunk (≤ ~110 KB for decisions).

use super::StoreError;
use rusqlite::{Connection, OptionalExtension, params};

/// zstd's level: on a whole match, level 1 packs these rows as small as 3 does (decisions 3 %
/// smaller, rounds 2 % larger) in half its time, and 6 saves ~5 % for 4–8 times it
/// (ARCHITECTURE.md has the figures).
const LEVEL: i32 = 1;

/// The one chunk format so far: framed rows compressed with zstd.
const CODEC_ZSTD_FRAMED: i64 = 1;

/// Most bytes a chunk may decompress to: a stored chunk claiming more is corrupt (a chunk
/// holds at most `size()` rows, each far smaller than this allows on average).
const MAX_CHUNK_BYTES: usize = 64 << 20;

/// The per-round tables a chunk can hold rows of.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// `rounds`: key = round; texts = hash, rolls.
    Rounds,
    /// `events`: key = seq; texts = body.
    Events,
    /// `decisions`: key = seq; texts = body.
    Decisions,
}

impl Kind {
    fn code(self) -> i64 {
        match self {
            Kind::Rounds => 0,
            Kind::Events => 1,
            Kind::Decisions => 2,
        }
    }

    /// `sql` with `{kind}` written as this kind's code. A statement that binds the kind as a
    /// parameter is prepared again (SQLite's STAT4, which rusqlite's bundled build enables,
    /// lets that value change the plan) each time the kind bound changes — every advance, which
    /// cost the writer ~40 µs a statement; with the code in the text each kind keeps its own
    /// prepared statement.
    fn sql(self, sql: &str) -> String {
        sql.replace("{kind}", &self.code().to_string())
    }

    /// Rows per chunk: a decision is ~1.7 KB, so 64 of them make a ~110 KB chunk (one read of
    /// a decision decompresses no more); rounds and events are small rows that pack better by
    /// more (measured: 64 → 256 rows saves ~15 % of rounds and ~18 % of events).
    pub fn size(self) -> usize {
        match self {
            Kind::Decisions => 64,
            Kind::Rounds | Kind::Events => 256,
        }
    }

    fn texts(self) -> usize {
        match self {
            Kind::Rounds => 2,
            Kind::Events | Kind::Decisions => 1,
        }
    }

    /// The plain rows after key ?2, as (key, round, texts…).
    fn tail_sql(self) -> &'static str {
        match self {
            Kind::Rounds => {
                "SELECT round, round, hash, rolls FROM rounds WHERE run_id = ?1 AND round > ?2 ORDER BY round"
            }
            Kind::Events => "SELECT seq, round, body FROM events WHERE run_id = ?1 AND seq > ?2 ORDER BY seq",
            Kind::Decisions => "SELECT seq, round, body FROM decisions WHERE run_id = ?1 AND seq > ?2 ORDER BY seq",
        }
    }

    /// Deletes the plain rows with keys in (?2, ?3].
    fn delete_sql(self) -> &'static str {
        match self {
            Kind::Rounds => "DELETE FROM rounds WHERE run_id = ?1 AND round > ?2 AND round <= ?3",
            Kind::Events => "DELETE FROM events WHERE run_id = ?1 AND seq > ?2 AND seq <= ?3",
            Kind::Decisions => "DELETE FROM decisions WHERE run_id = ?1 AND seq > ?2 AND seq <= ?3",
        }
    }

    fn insert_sql(self) -> &'static str {
        match self {
            Kind::Rounds => "INSERT INTO rounds (run_id, round, hash, rolls) VALUES (?1, ?2, ?3, ?4)",
            Kind::Events => "INSERT INTO events (run_id, seq, round, body) VALUES (?1, ?2, ?3, ?4)",
            Kind::Decisions => "INSERT INTO decisions (run_id, seq, round, body) VALUES (?1, ?2, ?3, ?4)",
        }
    }

    /// The plain rows a read takes after the chunks: round ≥ ?2 and key ≥ ?3, at most ?4.
    fn read_sql(self) -> &'static str {
        match self {
            Kind::Rounds => {
                "SELECT round, round, hash, rolls FROM rounds WHERE run_id = ?1 AND round >= ?2 AND round >= ?3 \
                 ORDER BY round LIMIT ?4"
            }
            Kind::Events => {
                "SELECT seq, round, body FROM events WHERE run_id = ?1 AND round >= ?2 AND seq >= ?3 \
                 ORDER BY seq LIMIT ?4"
            }
            Kind::Decisions => {
                "SELECT seq, round, body FROM decisions WHERE run_id = ?1 AND round >= ?2 AND seq >= ?3 \
                 ORDER BY seq LIMIT ?4"
            }
        }
    }
}

/// One row as stored: its key (seq, or the round for `rounds`), its round, its texts.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Row {
    pub key: i64,
    pub round: i64,
    pub texts: Vec<String>,
}

fn row(kind: Kind, r: &rusqlite::Row<'_>) -> rusqlite::Result<Row> {
    let mut texts = Vec::with_capacity(kind.texts());
    for k in 0..kind.texts() {
        texts.push(r.get(2 + k)?);
    }
    Ok(Row { key: r.get(0)?, round: r.get(1)?, texts })
}

/// `key, round, (length, bytes) per text`, integers as little-endian i64/u32.
fn frame(rows: &[Row]) -> Vec<u8> {
    let mut out =
        Vec::with_capacity(rows.iter().map(|r| 16 + r.texts.iter().map(|t| 4 + t.len()).sum::<usize>()).sum());
    for r in rows {
        out.extend_from_slice(&r.key.to_le_bytes());
        out.extend_from_slice(&r.round.to_le_bytes());
        for t in &r.texts {
            out.extend_from_slice(&(t.len() as u32).to_le_bytes());
            out.extend_from_slice(t.as_bytes());
        }
    }
    out
}

fn corrupt(what: &str) -> StoreError {
    StoreError::Corrupt(format!("a stored chunk of rows {what}"))
}

fn unframe(kind: Kind, mut b: &[u8]) -> Result<Vec<Row>, StoreError> {
    fn take<'a>(b: &mut &'a [u8], n: usize) -> Result<&'a [u8], StoreError> {
        if b.len() < n {
            return Err(corrupt("ends inside a row"));
        }
        let (head, rest) = b.split_at(n);
        *b = rest;
        Ok(head)
    }
    let int = |b: &mut &[u8]| take(b, 8).map(|x| i64::from_le_bytes(x.try_into().expect("8 bytes")));
    let mut rows = Vec::new();
    while !b.is_empty() {
        let (key, round) = (int(&mut b)?, int(&mut b)?);
        let mut texts = Vec::with_capacity(kind.texts());
        for _ in 0..kind.texts() {
            let n = u32::from_le_bytes(take(&mut b, 4)?.try_into().expect("4 bytes")) as usize;
            let text = std::str::from_utf8(take(&mut b, n)?).map_err(|_| corrupt("holds text that is not UTF-8"))?;
            texts.push(text.to_string());
        }
        rows.push(Row { key, round, texts });
    }
    Ok(rows)
}

thread_local! {
    /// One compression context per thread (the writer's), not one allocated per chunk.
    static COMPRESSOR: std::cell::RefCell<Option<zstd::bulk::Compressor<'static>>> = const { std::cell::RefCell::new(None) };
    static DECOMPRESSOR: std::cell::RefCell<Option<zstd::bulk::Decompressor<'static>>> = const { std::cell::RefCell::new(None) };
}

fn zstd_failed(e: std::io::Error) -> StoreError {
    StoreError::Write(format!("compressing rows: {e}"))
}

/// The rows' chunk body: framed and compressed (the frame records its decompressed size).
pub fn pack(rows: &[Row]) -> Result<Vec<u8>, StoreError> {
    COMPRESSOR.with_borrow_mut(|slot| {
        let z = match slot {
            Some(z) => z,
            None => slot.insert(zstd::bulk::Compressor::new(LEVEL).map_err(zstd_failed)?),
        };
        z.compress(&frame(rows)).map_err(zstd_failed)
    })
}

/// The rows of a chunk body written with `codec`.
pub fn unpack(kind: Kind, codec: i64, body: &[u8]) -> Result<Vec<Row>, StoreError> {
    if codec != CODEC_ZSTD_FRAMED {
        return Err(StoreError::Corrupt(format!(
            "a stored chunk has codec {codec}, which this microfut does not know (a newer one wrote it)"
        )));
    }
    // The frame says how big it decompresses: that much is allocated, and no more is accepted.
    let size = match zstd::zstd_safe::get_frame_content_size(body) {
        Ok(Some(n)) if n <= MAX_CHUNK_BYTES as u64 => n as usize,
        Ok(Some(n)) => return Err(corrupt(&format!("claims {n} bytes, more than a chunk holds"))),
        _ => return Err(corrupt("is not a zstd frame of known size")),
    };
    let framed = DECOMPRESSOR.with_borrow_mut(|slot| {
        let z = match slot {
            Some(z) => z,
            None => {
                slot.insert(zstd::bulk::Decompressor::new().map_err(|e| corrupt(&format!("cannot be read ({e})")))?)
            }
        };
        z.decompress(body, size).map_err(|e| corrupt(&format!("does not decompress ({e})")))
    })?;
    if framed.len() != size {
        return Err(corrupt("decompresses to another size than its frame says"));
    }
    unframe(kind, &framed)
}

/// The last key sealed into a chunk of run `id` (−1 when none is).
fn sealed_through(c: &Connection, id: &str, kind: Kind) -> Result<i64, StoreError> {
    Ok(c.prepare_cached(
        &kind.sql("SELECT last FROM chunks WHERE run_id = ?1 AND kind = {kind} ORDER BY first DESC LIMIT 1"),
    )?
    .query_row(params![id], |r| r.get(0))
    .optional()?
    .unwrap_or(-1))
}

/// Writes rows as plain rows, as an advance of a match in progress does.
pub fn insert_plain(c: &Connection, id: &str, kind: Kind, rows: &[Row]) -> Result<(), StoreError> {
    let mut st = c.prepare_cached(kind.insert_sql())?;
    for r in rows {
        match kind {
            Kind::Rounds => st.execute(params![id, r.key, r.texts[0], r.texts[1]])?,
            Kind::Events | Kind::Decisions => st.execute(params![id, r.key, r.round, r.texts[0]])?,
        };
    }
    Ok(())
}

/// A finished match's rows of one kind, packed into chunks, ready for the writer.
pub struct Seal {
    kind: Kind,
    /// The last key in a chunk when the seal was planned: the writer checks it is unchanged.
    through: i64,
    /// The last plain row's key the chunks replace (none: no plain row).
    last_plain: Option<i64>,
    chunks: Vec<Chunk>,
}

struct Chunk {
    first: i64,
    last: i64,
    last_round: i64,
    rows: i64,
    body: Vec<u8>,
}

/// Plans the seal of a finished match's rows of `kind`: its plain rows (read on `c`, a reader:
/// the run's earlier advances are committed, and no other write to the run can come before
/// this one) and the last advance's `new` rows, those with keys below `min_key` left out
/// (decisions past the retention), framed and compressed in chunks of `kind.size()`. The
/// compression happens here, on the advance's own thread, not on the writer every run's
/// commit waits for.
pub fn plan_seal(c: &Connection, id: &str, kind: Kind, new: Vec<Row>, min_key: i64) -> Result<Seal, StoreError> {
    let through = sealed_through(c, id, kind)?;
    let mut rows = c
        .prepare_cached(kind.tail_sql())?
        .query_map(params![id, through], |r| row(kind, r))?
        .collect::<Result<Vec<_>, _>>()?;
    let last_plain = rows.last().map(|r| r.key);
    rows.extend(new);
    rows.retain(|r| r.key >= min_key);
    let chunks = rows
        .chunks(kind.size())
        .map(|rows| {
            Ok(Chunk {
                first: rows[0].key,
                last: rows[rows.len() - 1].key,
                last_round: rows.iter().map(|r| r.round).max().unwrap_or(0),
                rows: rows.len() as i64,
                body: pack(rows)?,
            })
        })
        .collect::<Result<Vec<_>, StoreError>>()?;
    Ok(Seal { kind, through, last_plain, chunks })
}

/// Writes a planned seal: its chunks in, the plain rows they replace out, in the advance's
/// transaction. Refused (nothing written) if the run's chunks changed since it was planned.
pub fn write_seal(c: &Connection, id: &str, seal: &Seal) -> Result<(), StoreError> {
    let kind = seal.kind;
    if sealed_through(c, id, kind)? != seal.through {
        return Err(StoreError::Write(format!("run {id}'s rows changed while its last advance was written")));
    }
    let mut st = c.prepare_cached(
        "INSERT INTO chunks (run_id, kind, first, last, last_round, rows, codec, body) \
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)",
    )?;
    for ch in &seal.chunks {
        st.execute(params![id, kind.code(), ch.first, ch.last, ch.last_round, ch.rows, CODEC_ZSTD_FRAMED, ch.body])?;
    }
    if let Some(last) = seal.last_plain {
        c.prepare_cached(kind.delete_sql())?.execute(params![id, seal.through, last])?;
    }
    Ok(())
}

/// Run `id`'s rows of `kind` with round ≥ `from_round` and key ≥ `min_key`, at most `limit`,
/// in key order: from its chunks, then from its plain rows.
pub fn read(
    c: &Connection,
    id: &str,
    kind: Kind,
    from_round: i64,
    min_key: i64,
    limit: usize,
) -> Result<Vec<Row>, StoreError> {
    let mut out = Vec::new();
    let mut st = c.prepare_cached(&kind.sql(
        "SELECT codec, body FROM chunks WHERE run_id = ?1 AND kind = {kind} AND last_round >= ?2 AND last >= ?3 \
         ORDER BY first",
    ))?;
    let mut chunks = st.query(params![id, from_round, min_key])?;
    while out.len() < limit {
        let Some(chunk) = chunks.next()? else { break };
        let body = chunk.get_ref(1)?.as_blob().map_err(|_| corrupt("is not a blob"))?;
        let rows = unpack(kind, chunk.get(0)?, body)?;
        out.extend(rows.into_iter().filter(|r| r.round >= from_round && r.key >= min_key).take(limit - out.len()));
    }
    if out.len() < limit {
        let rest = limit - out.len();
        let rows = c
            .prepare_cached(kind.read_sql())?
            .query_map(params![id, from_round, min_key, rest.min(i64::MAX as usize) as i64], |r| row(kind, r))?
            .collect::<Result<Vec<_>, _>>()?;
        out.extend(rows);
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn store() -> Connection {
        let mut c = Connection::open_in_memory().unwrap();
        super::super::schema::migrate(&mut c).unwrap();
        c.execute_batch(
            "INSERT INTO runs (id, token_sha256, created_at, ruleset, revision, fingerprint, engine_version, seed, \
             formations, retention, stats) VALUES ('r', '', 0, '', '', '', '', '0', '[]', 0, '[]')",
        )
        .unwrap();
        c
    }

    fn rows(kind: Kind, keys: std::ops::Range<i64>) -> Vec<Row> {
        keys.map(|k| {
            let texts = match kind {
                Kind::Rounds => vec![format!("{k:016x}"), format!("[[\"home-{}\",{k}]]", k % 11)],
                _ => vec![format!("{{\"n\":{k},\"pad\":\"{}\"}}", "x".repeat((k % 7) as usize))],
            };
            // A round's key is its round; events and decisions come several to a round.
            Row { key: k, round: if kind == Kind::Rounds { k } else { k / 3 }, texts }
        })
        .collect()
    }

    fn count(c: &Connection, sql: &str) -> i64 {
        c.query_row(sql, [], |r| r.get(0)).unwrap()
    }

    fn seal(c: &Connection, kind: Kind, new: Vec<Row>, min_key: i64) {
        let seal = plan_seal(c, "r", kind, new, min_key).unwrap();
        write_seal(c, "r", &seal).unwrap();
    }

    /// A match in progress has plain rows; when it ends they and the last advance's rows go
    /// into chunks of `size` (the last one shorter), and every read — from a round, from a
    /// key, with a limit — returns what it did from the plain rows.
    #[test]
    fn a_finished_runs_rows_move_into_chunks_and_read_back_as_they_were() {
        for kind in [Kind::Rounds, Kind::Events, Kind::Decisions] {
            let c = store();
            let size = kind.size() as i64;
            let table = match kind {
                Kind::Rounds => "rounds",
                Kind::Events => "events",
                Kind::Decisions => "decisions",
            };
            let played = 3 * size + 10;
            insert_plain(&c, "r", kind, &rows(kind, 0..played)).unwrap();
            let reads =
                [(0, 0, 10), (size / 3 + 1, 0, size as usize), (0, played - 3, 100), (7, size - 1, 2 * size as usize)];
            let before: Vec<Vec<Row>> =
                reads.iter().map(|&(round, key, limit)| read(&c, "r", kind, round, key, limit).unwrap()).collect();
            seal(&c, kind, rows(kind, played..played + 5), 0);
            let all = rows(kind, 0..played + 5);
            assert_eq!(count(&c, &format!("SELECT count(*) FROM {table}")), 0, "{kind:?}: no plain row is left");
            assert_eq!(count(&c, "SELECT count(*) FROM chunks"), 4, "{kind:?}");
            assert_eq!(count(&c, "SELECT sum(rows) FROM chunks"), played + 5);
            assert_eq!(read(&c, "r", kind, 0, 0, usize::MAX).unwrap(), all, "{kind:?}");
            for (&(round, key, limit), before) in reads.iter().zip(before) {
                let expected: Vec<Row> =
                    all.iter().filter(|r| r.round >= round && r.key >= key).take(limit).cloned().collect();
                let after = read(&c, "r", kind, round, key, limit).unwrap();
                assert_eq!(after, expected, "{kind:?}");
                assert_eq!(after[..before.len()], before[..], "{kind:?}");
            }
        }
    }

    /// Decisions past the retention are not sealed: a finished run holds exactly what a read
    /// returns. A match played to its end in one advance writes no plain row at all.
    #[test]
    fn a_seal_keeps_the_retained_decisions_only() {
        let c = store();
        let kind = Kind::Decisions;
        insert_plain(&c, "r", kind, &rows(kind, 40..100)).unwrap();
        seal(&c, kind, rows(kind, 100..300), 150);
        assert_eq!(count(&c, "SELECT sum(rows) FROM chunks") + count(&c, "SELECT count(*) FROM decisions"), 150);
        assert_eq!(read(&c, "r", kind, 0, 0, usize::MAX).unwrap(), rows(kind, 150..300));
        assert_eq!(count(&c, "SELECT min(first) FROM chunks"), 150);
        // A seal planned before another was written is refused, and writes nothing.
        let c = store();
        let stale = plan_seal(&c, "r", kind, rows(kind, 0..10), 0).unwrap();
        seal(&c, kind, rows(kind, 0..10), 0);
        assert!(matches!(write_seal(&c, "r", &stale), Err(StoreError::Write(_))));
        assert_eq!(count(&c, "SELECT count(*) FROM chunks"), 1);
    }

    #[test]
    fn framed_rows_come_back_byte_for_byte() {
        let rows = vec![
            Row { key: 0, round: 0, texts: vec!["00ff".into(), "[]".into()] },
            Row { key: 7, round: 3, texts: vec![String::new(), "é \"\n\t\u{0}".into()] },
            Row { key: i64::MAX, round: -1, texts: vec!["x".repeat(70_000), "y".into()] },
        ];
        assert_eq!(unpack(Kind::Rounds, CODEC_ZSTD_FRAMED, &pack(&rows).unwrap()).unwrap(), rows);
        assert_eq!(unpack(Kind::Rounds, CODEC_ZSTD_FRAMED, &pack(&[]).unwrap()).unwrap(), Vec::<Row>::new());
    }

    /// A damaged chunk is an error naming it, never a panic or a huge allocation.
    #[test]
    fn a_damaged_chunk_is_refused() {
        let rows = vec![Row { key: 1, round: 1, texts: vec!["{}".into()] }];
        let good = pack(&rows).unwrap();
        assert!(matches!(unpack(Kind::Events, 2, &good), Err(StoreError::Corrupt(m)) if m.contains("codec 2")));
        assert!(unpack(Kind::Events, CODEC_ZSTD_FRAMED, &good[..good.len() - 3]).is_err());
        assert!(unpack(Kind::Events, CODEC_ZSTD_FRAMED, b"not zstd").is_err());
        // Rounds need two texts a row: the event's frame ends inside the second.
        assert!(unpack(Kind::Rounds, CODEC_ZSTD_FRAMED, &good).is_err());
        let mut framed = frame(&rows);
        framed[16] = 0xff;
        assert!(unframe(Kind::Events, &framed).is_err(), "a length past the end");
        // A frame that claims to decompress to more than a chunk can hold.
        let bomb = zstd::bulk::compress(&vec![0u8; MAX_CHUNK_BYTES + 1], 1).unwrap();
        assert!(unpack(Kind::Events, CODEC_ZSTD_FRAMED, &bomb).is_err());
    }
}
