/**
 * The default Backend: a kine-style revision log in one SQLite file (see
 * docs/storage.md). better-sqlite3 is synchronous, so within this process writes
 * are serialised; each runs as an IMMEDIATE transaction, so its check and its
 * write are atomic. This backend must be the only writer of its file: it
 * broadcasts each committed write to its watchers in-process, right after the
 * commit, instead of polling the table as kine does.
 */
import { setImmediate as nextTurn } from "node:timers/promises";
import type {
  Backend,
  KeyValue,
  ListOptions,
  ListResult,
  StorageEvent,
  WatchOptions,
} from "../backend.js";
import {
  BackendClosedError,
  CompactedError,
  KeyExistsError,
  KeyNotFoundError,
  RevisionMismatchError,
} from "../errors.js";
import { keyAfter, listStart, prefixEnd } from "../keys.js";
import { readRevision } from "../read-revision.js";
import { WatchHub } from "../watch-hub.js";
import { openDatabase, type SqliteDatabase } from "./schema.js";
import {
  type LogRow,
  listRowToKeyValue,
  NO_END,
  prepareStatements,
  type RangeEnd,
  rowToEvent,
  rowToKeyValue,
  type Statements,
} from "./statements.js";

/** Rows per history read of a new watch, and per compaction batch. */
const BATCH = 1000;
const COMPACT_KEY = "compact_rev";

/** The row a write appends, given the key's newest row and the new revision. */
type Plan = (current: LogRow | undefined, revision: number) => Omit<LogRow, "id" | "name">;

/** Opens the backend on the database file at `path` (':memory:' for a private one). */
export async function openSqliteBackend(path: string): Promise<SqliteBackend> {
  return new SqliteBackend(openDatabase(path));
}

export class SqliteBackend implements Backend {
  /** Its WatchHub publishes synchronously right after each commit. */
  readonly deliversOnCommit: boolean = true;
  readonly #db: SqliteDatabase;
  readonly #sql: Statements;
  readonly #hub = new WatchHub();
  readonly #write: (key: string, plan: Plan) => LogRow;
  #revision: number;
  #compacted: number;
  #closed = false;

  constructor(db: SqliteDatabase) {
    this.#db = db;
    this.#sql = prepareStatements(db);
    this.#revision = this.#sql.sequence.get() ?? 0;
    this.#compacted = this.#sql.getMeta.get(COMPACT_KEY) ?? 0;
    const append = db.transaction((key: string, plan: Plan): LogRow => {
      const revision = (this.#sql.sequence.get() ?? 0) + 1;
      const row = { ...plan(this.#sql.latest.get(key), revision), id: revision, name: key };
      this.#sql.insert.run(row);
      return row;
    });
    this.#write = append.immediate;
  }

  async get(key: string): Promise<KeyValue | undefined> {
    this.#assertOpen();
    const row = this.#sql.latest.get(key);
    return row && !row.deleted ? rowToKeyValue(row) : undefined;
  }

  async list(prefix: string, options: ListOptions = {}): Promise<ListResult> {
    this.#assertOpen();
    const revision = readRevision(options.revision, this.#revision, this.#compacted);
    const limit = options.limit && options.limit > 0 ? options.limit : 0;
    const start = listStart(prefix, options.after);
    const end = rangeEnd(prefix);
    // One row past the limit tells whether there are more; -1 means no limit.
    const rows = this.#sql.list.all(start, end, revision, limit ? limit + 1 : -1);
    const more = limit > 0 && rows.length > limit;
    if (more) rows.pop();
    const items = rows.map(listRowToKeyValue);
    const last = items.at(-1);
    const remaining = more && last ? this.#sql.count.get(keyAfter(last.key), end, revision)! : 0;
    return { items, revision, more, remaining };
  }

  async count(prefix: string): Promise<number> {
    this.#assertOpen();
    return this.#sql.count.get(prefix, rangeEnd(prefix), this.#revision) ?? 0;
  }

  async create(key: string, value: string): Promise<KeyValue> {
    return this.#commit(key, (current, revision) => {
      if (current && !current.deleted) throw new KeyExistsError(key);
      return {
        created: 1,
        deleted: 0,
        create_revision: revision,
        prev_revision: current?.id ?? 0,
        value,
        old_value: null,
      };
    });
  }

  async update(key: string, value: string, expectedRevision: number): Promise<KeyValue> {
    return this.#commit(key, (current) => {
      const live = liveOrThrow(key, current, expectedRevision);
      return { ...successor(live), deleted: 0, value };
    });
  }

  async delete(key: string, expectedRevision?: number): Promise<KeyValue> {
    return this.#commit(key, (current) => {
      const live = liveOrThrow(key, current, expectedRevision);
      return { ...successor(live), deleted: 1, value: live.value };
    });
  }

  async watch(prefix: string, options: WatchOptions, signal: AbortSignal): Promise<void> {
    this.#assertOpen();
    if (options.after < this.#compacted) {
      throw new CompactedError(options.after, this.#compacted);
    }
    const end = rangeEnd(prefix);
    this.#hub.watch(prefix, options, signal, (offer) => {
      // Reads up to the newest revision, re-read each turn: a callback may write
      // while history replays. Reads in batches, as an open cursor would block writes.
      let cursor = options.after;
      while (!this.#closed && cursor < this.#revision) {
        if (cursor < this.#compacted) throw new CompactedError(cursor, this.#compacted);
        const upTo = this.#revision;
        const rows = this.#sql.history.all(cursor, upTo, prefix, end, BATCH);
        for (const row of rows) offer(rowToEvent(row));
        cursor = rows.length === BATCH ? rows[rows.length - 1]!.id : upTo;
      }
    });
  }

  async currentRevision(): Promise<number> {
    this.#assertOpen();
    return this.#revision;
  }

  async compactedRevision(): Promise<number> {
    this.#assertOpen();
    return this.#compacted;
  }

  /**
   * Records the new compacted revision first (so reads below it fail from now on),
   * then deletes superseded rows and tombstones in batches, yielding between them.
   * A revision beyond the current one compacts up to the current one.
   */
  async compact(revision: number): Promise<void> {
    this.#assertOpen();
    const target = Math.min(revision, this.#revision);
    if (target <= this.#compacted) return;
    this.#sql.setMeta.run(COMPACT_KEY, target);
    this.#compacted = target;
    for (let from = 0; ; ) {
      const to = this.#sql.batchEnd.get(from, target, BATCH - 1) ?? target;
      this.#sql.compactBatch.run(from, to, target);
      if (to >= target) return;
      from = to;
      await nextTurn();
      this.#assertOpen();
    }
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    this.#hub.close(new BackendClosedError());
    this.#db.close();
  }

  #assertOpen(): void {
    if (this.#closed) throw new BackendClosedError();
  }

  /** Appends a row in one transaction, then tells the watchers. */
  async #commit(key: string, plan: Plan): Promise<KeyValue> {
    this.#assertOpen();
    const event: StorageEvent = rowToEvent(this.#write(key, plan));
    this.#revision = event.kv.modRevision;
    const result = { ...event.kv };
    this.#hub.publish(event);
    return result;
  }
}

function rangeEnd(prefix: string): RangeEnd {
  return prefixEnd(prefix) ?? NO_END;
}

/** The key's live row, if it matches `expectedRevision` when one is given. */
function liveOrThrow(key: string, current: LogRow | undefined, expected?: number): LogRow {
  if (!current || current.deleted) throw new KeyNotFoundError(key);
  if (expected !== undefined && current.id !== expected) {
    throw new RevisionMismatchError(key, rowToKeyValue(current));
  }
  return current;
}

/** The fields an update or a deletion carries over from the key's live row. */
function successor(live: LogRow) {
  return {
    created: 0,
    create_revision: live.create_revision,
    prev_revision: live.id,
    old_value: live.value,
  };
}
