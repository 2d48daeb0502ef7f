/**
 * The SQLite schema of the revision log, and how a database file is opened. One
 * append-only table holds one row per write, its id being the write's revision
 * (see docs/storage.md); a small meta table keeps the compacted revision.
 */
import Database from "better-sqlite3";

export type SqliteDatabase = Database.Database;

const SCHEMA = `
CREATE TABLE IF NOT EXISTS kv_log (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  name TEXT NOT NULL,
  created INTEGER NOT NULL,
  deleted INTEGER NOT NULL,
  create_revision INTEGER NOT NULL,
  prev_revision INTEGER NOT NULL,
  value TEXT NOT NULL,
  old_value TEXT,
  UNIQUE (name, prev_revision)
);
CREATE INDEX IF NOT EXISTS kv_log_name_id ON kv_log (name, id, deleted);
CREATE TABLE IF NOT EXISTS meta (
  key TEXT PRIMARY KEY,
  value INTEGER NOT NULL
) WITHOUT ROWID;
`;

/** Opens (creating if needed) the database at `path`; ':memory:' gives a private one. */
export function openDatabase(path: string): SqliteDatabase {
  const db = new Database(path);
  try {
    db.pragma("journal_mode = WAL");
    db.pragma("synchronous = NORMAL");
    db.pragma("busy_timeout = 30000");
    db.exec(SCHEMA);
    return db;
  } catch (error) {
    db.close();
    throw error;
  }
}
