/**
 * The prepared SQL of the SQLite backend and the mapping of log rows to KeyValues
 * and events. Key ranges are `name >= start AND name < end` so the (name, id)
 * index serves them; reads at revision R take the newest row per name with
 * id <= R, as kine does.
 */
import type { KeyValue, StorageEvent } from "../backend.js";
import type { SqliteDatabase } from "./schema.js";

/** One row of kv_log: one write. */
export interface LogRow {
  /** The write's revision. */
  id: number;
  name: string;
  /** 1 when the write created the key. */
  created: number;
  /** 1 for a deletion (a tombstone); its value is the key's last value. */
  deleted: number;
  create_revision: number;
  /** The id of the key's previous row, 0 if none. */
  prev_revision: number;
  value: string;
  /** The value before this write, null for a creation. */
  old_value: string | null;
}

/** A list row, raw: name, value, create_revision, id. */
type ListRow = [string, string, number, number];

/**
 * The exclusive end of a key range with no upper limit. SQLite sorts every BLOB
 * after every TEXT value, so `name < x''` holds for every key.
 */
export const NO_END: Buffer = Buffer.alloc(0);

export type RangeEnd = string | Buffer;

const COLUMNS = "id, name, created, deleted, create_revision, prev_revision, value, old_value";

/** The newest row per name in [start, end) with id <= revision, in name order. */
const NEWEST_PER_NAME = `SELECT name, MAX(id) AS newest, deleted FROM kv_log
  WHERE name >= ? AND name < ? AND id <= ? GROUP BY name ORDER BY name`;

export function prepareStatements(db: SqliteDatabase) {
  return {
    latest: db.prepare<[string], LogRow>(
      `SELECT ${COLUMNS} FROM kv_log WHERE name = ? ORDER BY id DESC LIMIT 1`,
    ),
    insert: db.prepare<[LogRow]>(
      `INSERT INTO kv_log (${COLUMNS}) VALUES
       (@id, @name, @created, @deleted, @create_revision, @prev_revision, @value, @old_value)`,
    ),
    /** The highest revision ever used; AUTOINCREMENT keeps it even when rows are gone. */
    sequence: db
      .prepare<[], number>("SELECT seq FROM sqlite_sequence WHERE name = 'kv_log'")
      .pluck(),
    // The inner ORDER BY lets SQLite stream the groups in index order; without it
    // the outer ORDER BY sorts every row, values included, in a temporary b-tree.
    // Raw rows (arrays) skip building one object per row that is mapped anyway.
    list: db
      .prepare<[string, RangeEnd, number, number], ListRow>(
        `SELECT k.name, k.value, k.create_revision, k.id
         FROM (${NEWEST_PER_NAME}) AS m CROSS JOIN kv_log AS k ON k.id = m.newest
         WHERE m.deleted = 0 ORDER BY m.name LIMIT ?`,
      )
      .raw(true),
    // With MAX(), SQLite takes the bare column `deleted` from the newest row, so the
    // count is answered from the index alone.
    count: db
      .prepare<[string, RangeEnd, number], number>(
        `SELECT COUNT(*) FROM (${NEWEST_PER_NAME}) WHERE deleted = 0`,
      )
      .pluck(),
    history: db.prepare<[number, number, string, RangeEnd, number], LogRow>(
      `SELECT ${COLUMNS} FROM kv_log
       WHERE id > ? AND id <= ? AND name >= ? AND name < ? ORDER BY id LIMIT ?`,
    ),
    getMeta: db.prepare<[string], number>("SELECT value FROM meta WHERE key = ?").pluck(),
    setMeta: db.prepare<[string, number]>(
      "INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value",
    ),
    /** The id that ends a compaction batch of `size` rows after `from`, if there are that many. */
    batchEnd: db
      .prepare<[number, number, number], number>(
        "SELECT id FROM kv_log WHERE id > ? AND id <= ? ORDER BY id LIMIT 1 OFFSET ?",
      )
      .pluck(),
    /**
     * Deletes, among rows with id in (from, to], those superseded by a newer row of
     * their name at or below the compaction revision, and tombstones.
     */
    compactBatch: db.prepare<[number, number, number]>(
      `DELETE FROM kv_log WHERE id > ? AND id <= ? AND (deleted = 1 OR EXISTS (
         SELECT 1 FROM kv_log AS newer
         WHERE newer.name = kv_log.name AND newer.id > kv_log.id AND newer.id <= ?))`,
    ),
  };
}

export type Statements = ReturnType<typeof prepareStatements>;

export function listRowToKeyValue([key, value, createRevision, modRevision]: ListRow): KeyValue {
  return { key, value, createRevision, modRevision };
}

/** The KeyValue a row leaves behind: the key's state, or its last state for a tombstone. */
export function rowToKeyValue(row: LogRow): KeyValue {
  return {
    key: row.name,
    value: row.value,
    createRevision: row.create_revision,
    modRevision: row.id,
  };
}

/** The event a row records; its prev is rebuilt from old_value and prev_revision. */
export function rowToEvent(row: LogRow): StorageEvent {
  const event: StorageEvent = { type: row.deleted ? "delete" : "put", kv: rowToKeyValue(row) };
  if (!row.created) {
    event.prev = {
      key: row.name,
      value: row.old_value ?? "",
      createRevision: row.create_revision,
      modRevision: row.prev_revision,
    };
  }
  return event;
}
