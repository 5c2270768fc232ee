//! `tabula serve --db FILE`: every table kept in an SQLite database, so that a server
//! started again on the same file has every table back.
//!
//! A table is stored as what cannot be recomputed (its game, clock, generator seed,
//! opening time and the hashes of its seats' tokens) and an append-only log of the
//! commands that changed it, in order, each with the milliseconds that passed on the
//! server since the entry before it. Replaying the log through the same room code
//! (`Room::elapse`, then `Room::handle`) rebuilds the table exactly: game, score,
//! clocks, finished games and what each seat was told. A log entry without a command
//! is time alone (a flag fell, or a running clock's reading was saved).
//!
//! Writing happens on one thread of its own: the server hands it a write and a
//! function to call once the write is committed, and never waits on the database
//! itself. The thread commits whatever has queued up in one transaction (group
//! commit: one sync to disk for many writes), then calls the functions in order. A
//! write that fails stops the process (fail-stop): a table whose last change could
//! not be saved must not go on as if it had been, and the database still holds
//! everything that was acknowledged.

use std::sync::mpsc;
use std::thread;

use anyhow::{Context, Result, bail};
use rusqlite::{Connection, params};
use sha2::{Digest, Sha256};

use crate::games::Color;

/// What is called once a write is on disk.
pub type Done = Box<dyn FnOnce() + Send>;

/// The schema's version, in SQLite's `user_version`.
const VERSION: i64 = 1;

const SCHEMA: &str = "
CREATE TABLE IF NOT EXISTS tables (
    id TEXT PRIMARY KEY,
    game TEXT NOT NULL,
    clock TEXT NOT NULL,
    seed INTEGER NOT NULL,
    opened INTEGER NOT NULL,
    black_token TEXT NOT NULL UNIQUE,
    white_token TEXT NOT NULL UNIQUE
);
CREATE TABLE IF NOT EXISTS log (
    table_id TEXT NOT NULL REFERENCES tables(id) ON DELETE CASCADE,
    seq INTEGER NOT NULL,
    elapsed_ms INTEGER NOT NULL,
    seat TEXT,
    line TEXT,
    at INTEGER NOT NULL,
    PRIMARY KEY (table_id, seq)
) WITHOUT ROWID;
";

/// The SHA-256 of a seat token, in hexadecimal: what the database keeps and the
/// server looks seats up by, so that the file does not hold the credentials
/// themselves. Tokens are 192 random bits, so a fast hash is enough.
#[must_use]
pub fn token_hash(token: &str) -> String {
    Sha256::digest(token.as_bytes())
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// What a table is opened with.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Opening {
    pub id: String,
    /// The game's name (`othello`, …).
    pub game: String,
    /// The clock as the table was opened with it (`300+5`), empty when untimed.
    pub clock: String,
    pub seed: u64,
    /// Seconds since the Unix epoch.
    pub opened: u64,
    /// The hashes of the seats' tokens ([`token_hash`]), black's first.
    pub token_hashes: [String; 2],
}

/// One entry of a table's log.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    /// Milliseconds that passed on the server since the entry before (or since the
    /// table opened).
    pub elapsed_ms: u64,
    /// The seat and the command line it sent; `None` for time alone.
    pub command: Option<(Color, String)>,
}

/// A stored table: how it was opened and its log in order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Stored {
    pub opening: Opening,
    pub log: Vec<Entry>,
}

enum Job {
    Open(Opening),
    Append {
        table: String,
        seq: u64,
        entry: Entry,
        at: u64,
    },
    Drop(String),
}

/// The database, written by a thread of its own.
pub struct Store {
    jobs: mpsc::Sender<(Job, Option<Done>)>,
}

fn now_ms() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| u64::try_from(d.as_millis()).unwrap_or(u64::MAX))
}

// SQLite integers are signed 64-bit: seeds keep their bits, counts are far below.
#[allow(clippy::cast_possible_wrap)]
fn signed(value: u64) -> i64 {
    value as i64
}

#[allow(clippy::cast_sign_loss)]
fn unsigned(value: i64) -> u64 {
    value as u64
}

impl Store {
    /// Opens (or creates) the database at `path`, reads every table in it, and starts
    /// the writer.
    ///
    /// # Errors
    /// The file cannot be opened or is not a database of this schema.
    pub fn open(path: &str) -> Result<(Store, Vec<Stored>)> {
        let connection = Connection::open(path).with_context(|| format!("opening {path}"))?;
        // EXCLUSIVE: this server holds the file's lock until it stops, so a second
        // server started on the same file refuses to start instead of writing the
        // same tables. WAL: a commit is one append and one sync; FULL: synced at
        // every commit, so an acknowledged change survives the machine losing
        // power, not only the process being killed.
        connection
            .pragma_update(None, "locking_mode", "EXCLUSIVE")
            .and_then(|()| connection.pragma_update(None, "journal_mode", "WAL"))
            .and_then(|()| connection.pragma_update(None, "synchronous", "FULL"))
            .and_then(|()| connection.pragma_update(None, "foreign_keys", "ON"))
            .and_then(|()| connection.execute_batch("BEGIN EXCLUSIVE; COMMIT;"))
            .with_context(|| format!("{path}: in use by another server, or not a database"))?;
        let version: i64 = connection
            .pragma_query_value(None, "user_version", |row| row.get(0))
            .with_context(|| format!("reading {path}"))?;
        if version != 0 && version != VERSION {
            bail!("{path}: a database of schema version {version}, not {VERSION}");
        }
        connection
            .execute_batch(SCHEMA)
            .and_then(|()| connection.pragma_update(None, "user_version", VERSION))
            .with_context(|| format!("creating the tables of {path}"))?;
        let stored = read_all(&connection).with_context(|| format!("reading {path}"))?;
        let (jobs, queue) = mpsc::channel();
        thread::Builder::new()
            .name("serve-db".into())
            .spawn(move || write_loop(connection, &queue))
            .context("starting the database writer")?;
        Ok((Store { jobs }, stored))
    }

    fn send(&self, job: Job, done: Option<Done>) {
        if self.jobs.send((job, done)).is_err() {
            // The writer only stops by stopping the process.
            log::error!("the database writer is gone");
            std::process::exit(1);
        }
    }

    /// Stores a new table; `done` is called once it is on disk.
    pub fn open_table(&self, opening: Opening, done: Done) {
        self.send(Job::Open(opening), Some(done));
    }

    /// Appends entry `seq` (from 1, one more than the last) to `table`'s log; `done`
    /// is called once it is on disk.
    pub fn append(&self, table: &str, seq: u64, entry: Entry, done: Done) {
        let job = Job::Append {
            table: table.to_string(),
            seq,
            entry,
            at: now_ms(),
        };
        self.send(job, Some(done));
    }

    /// Deletes a table and its log.
    pub fn drop_table(&self, table: &str) {
        self.send(Job::Drop(table.to_string()), None);
    }
}

fn read_all(connection: &Connection) -> rusqlite::Result<Vec<Stored>> {
    let mut tables = connection.prepare(
        "SELECT id, game, clock, seed, opened, black_token, white_token FROM tables \
         ORDER BY opened, id",
    )?;
    let mut log = connection
        .prepare("SELECT elapsed_ms, seat, line FROM log WHERE table_id = ?1 ORDER BY seq")?;
    let openings = tables
        .query_map([], |row| {
            Ok(Opening {
                id: row.get(0)?,
                game: row.get(1)?,
                clock: row.get(2)?,
                seed: unsigned(row.get(3)?),
                opened: unsigned(row.get(4)?),
                token_hashes: [row.get(5)?, row.get(6)?],
            })
        })?
        .collect::<rusqlite::Result<Vec<Opening>>>()?;
    let mut stored = Vec::new();
    for opening in openings {
        let entries = log
            .query_map([&opening.id], |row| {
                let seat: Option<String> = row.get(1)?;
                let line: Option<String> = row.get(2)?;
                let seat = seat.and_then(|s| Color::ALL.into_iter().find(|c| c.name() == s));
                Ok(Entry {
                    elapsed_ms: unsigned(row.get(0)?),
                    command: seat.zip(line),
                })
            })?
            .collect::<rusqlite::Result<Vec<Entry>>>()?;
        stored.push(Stored {
            opening,
            log: entries,
        });
    }
    Ok(stored)
}

fn write(transaction: &rusqlite::Transaction<'_>, job: &Job) -> rusqlite::Result<()> {
    match job {
        Job::Open(opening) => {
            transaction.execute(
                "INSERT INTO tables (id, game, clock, seed, opened, black_token, white_token) \
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
                params![
                    opening.id,
                    opening.game,
                    opening.clock,
                    signed(opening.seed),
                    signed(opening.opened),
                    opening.token_hashes[0],
                    opening.token_hashes[1],
                ],
            )?;
        }
        Job::Append {
            table,
            seq,
            entry,
            at,
        } => {
            let (seat, line) = match &entry.command {
                Some((seat, line)) => (Some(seat.name()), Some(line.as_str())),
                None => (None, None),
            };
            transaction
                // A table that expired while a connection to it was opening may
                // still be written to: those entries are dropped with it.
                .prepare_cached(
                    "INSERT INTO log (table_id, seq, elapsed_ms, seat, line, at) \
                     SELECT ?1, ?2, ?3, ?4, ?5, ?6 WHERE EXISTS \
                     (SELECT 1 FROM tables WHERE id = ?1)",
                )?
                .execute(params![
                    table,
                    signed(*seq),
                    signed(entry.elapsed_ms),
                    seat,
                    line,
                    signed(*at)
                ])?;
        }
        Job::Drop(table) => {
            transaction.execute("DELETE FROM tables WHERE id = ?1", [table])?;
        }
    }
    Ok(())
}

/// The writer: waits for a job, takes every job queued behind it, commits them in
/// one transaction, then calls their `done`s in order.
fn write_loop(mut connection: Connection, queue: &mpsc::Receiver<(Job, Option<Done>)>) {
    while let Ok(first) = queue.recv() {
        let mut batch = vec![first];
        while batch.len() < 4096 {
            match queue.try_recv() {
                Ok(job) => batch.push(job),
                Err(_) => break,
            }
        }
        let committed = connection.transaction().and_then(|transaction| {
            for (job, _) in &batch {
                write(&transaction, job)?;
            }
            transaction.commit()
        });
        if let Err(error) = committed {
            log::error!("the database could not be written, stopping: {error}");
            std::process::exit(1);
        }
        for (_, done) in batch {
            if let Some(done) = done {
                done();
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tables_and_logs_come_back_in_order_and_dropped_ones_do_not() {
        let path = std::env::temp_dir().join(format!("tabula-store-{}.db", std::process::id()));
        let path = path.to_string_lossy().to_string();
        let _ = std::fs::remove_file(&path);
        let opening = |id: &str| Opening {
            id: id.to_string(),
            game: "othello".into(),
            clock: "60+1".into(),
            seed: u64::MAX - 3,
            opened: 1_700_000_000,
            token_hashes: [token_hash(&format!("{id}b")), token_hash(&format!("{id}w"))],
        };
        let entries = [
            Entry {
                elapsed_ms: 5,
                command: Some((Color::Black, "play black f5".into())),
            },
            Entry {
                elapsed_ms: 1200,
                command: None,
            },
            Entry {
                elapsed_ms: 7,
                command: Some((Color::White, "play white f6".into())),
            },
        ];
        {
            let (store, stored) = Store::open(&path).expect("a new database");
            assert!(stored.is_empty());
            let (sender, done) = mpsc::channel();
            let signal = |sender: &mpsc::Sender<u64>, n: u64| -> Done {
                let sender = sender.clone();
                Box::new(move || {
                    let _ = sender.send(n);
                })
            };
            store.open_table(opening("a"), signal(&sender, 0));
            store.open_table(opening("b"), signal(&sender, 0));
            for (seq, entry) in (1..).zip(&entries) {
                store.append("a", seq, entry.clone(), signal(&sender, seq));
            }
            store.append("b", 1, entries[0].clone(), signal(&sender, 9));
            store.drop_table("b");
            // An entry for a table that is gone is dropped, not an error.
            store.append("b", 2, entries[0].clone(), signal(&sender, 10));
            let order: Vec<u64> = (0..7).map(|_| done.recv().expect("done")).collect();
            assert_eq!(order, [0, 0, 1, 2, 3, 9, 10], "done in the order written");
        }
        // Read back as a restarted server would (the writer of the first is idle).
        let (_store, stored) = Store::open(&path).expect("the same database");
        let _ = std::fs::remove_file(&path);
        let _ = std::fs::remove_file(format!("{path}-wal"));
        let _ = std::fs::remove_file(format!("{path}-shm"));
        assert_eq!(
            stored,
            vec![Stored {
                opening: opening("a"),
                log: entries.to_vec(),
            }]
        );
        assert_ne!(token_hash("a"), token_hash("b"));
        assert_eq!(token_hash("a").len(), 64);
    }
}
