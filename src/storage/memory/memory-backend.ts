/**
 * An in-memory Backend for unit tests of the layers above storage. It keeps the
 * same revision log as the SQLite backend: every write gets the next global
 * revision, each key keeps its versions (tombstones included) until compaction, and
 * the event log after the compacted revision serves watch resume.
 */
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
import { compareKeys, hasPrefix, listStart } from "../keys.js";
import { readRevision } from "../read-revision.js";
import { WatchHub } from "../watch-hub.js";

/** One write to a key: its state after the write, or its last state for a deletion. */
interface Version {
  kv: KeyValue;
  deleted: boolean;
}

export class MemoryBackend implements Backend {
  /** Its WatchHub publishes synchronously right after each commit. */
  readonly deliversOnCommit: boolean = true;
  #revision = 0;
  #compacted = 0;
  /** Every key with a stored version, sorted by compareKeys. */
  #keys: string[] = [];
  /** Each key's versions, oldest first. */
  readonly #versions = new Map<string, Version[]>();
  /** The event of every revision after #compacted: #log[i] is revision #compacted + 1 + i. */
  #log: StorageEvent[] = [];
  readonly #hub = new WatchHub();
  #closed = false;

  async get(key: string): Promise<KeyValue | undefined> {
    this.#assertOpen();
    const current = this.#current(key);
    return current && { ...current };
  }

  async list(prefix: string, options: ListOptions = {}): Promise<ListResult> {
    this.#assertOpen();
    const revision = readRevision(options.revision, this.#revision, this.#compacted);
    const limit = options.limit && options.limit > 0 ? options.limit : Number.POSITIVE_INFINITY;
    const items: KeyValue[] = [];
    let remaining = 0;
    for (let i = this.#lowerBound(listStart(prefix, options.after)); i < this.#keys.length; i++) {
      const key = this.#keys[i]!;
      if (!hasPrefix(key, prefix)) break;
      const kv = this.#at(key, revision);
      if (!kv) continue;
      if (items.length < limit) items.push({ ...kv });
      else remaining++;
    }
    return { items, revision, more: remaining > 0, remaining };
  }

  async count(prefix: string): Promise<number> {
    this.#assertOpen();
    let n = 0;
    for (let i = this.#lowerBound(prefix); i < this.#keys.length; i++) {
      const key = this.#keys[i]!;
      if (!hasPrefix(key, prefix)) break;
      if (this.#current(key)) n++;
    }
    return n;
  }

  async create(key: string, value: string): Promise<KeyValue> {
    this.#assertOpen();
    if (this.#current(key)) throw new KeyExistsError(key);
    const revision = this.#revision + 1;
    const kv = { key, value, createRevision: revision, modRevision: revision };
    this.#commit({ kv, deleted: false }, { type: "put", kv });
    return { ...kv };
  }

  async update(key: string, value: string, expectedRevision: number): Promise<KeyValue> {
    this.#assertOpen();
    const prev = this.#current(key);
    if (!prev) throw new KeyNotFoundError(key);
    if (prev.modRevision !== expectedRevision) throw new RevisionMismatchError(key, { ...prev });
    const kv = { key, value, createRevision: prev.createRevision, modRevision: this.#revision + 1 };
    this.#commit({ kv, deleted: false }, { type: "put", kv, prev });
    return { ...kv };
  }

  async delete(key: string, expectedRevision?: number): Promise<KeyValue> {
    this.#assertOpen();
    const prev = this.#current(key);
    if (!prev) throw new KeyNotFoundError(key);
    if (expectedRevision !== undefined && prev.modRevision !== expectedRevision) {
      throw new RevisionMismatchError(key, { ...prev });
    }
    const kv = { ...prev, modRevision: this.#revision + 1 };
    this.#commit({ kv, deleted: true }, { type: "delete", kv, prev });
    return { ...kv };
  }

  async watch(prefix: string, options: WatchOptions, signal: AbortSignal): Promise<void> {
    this.#assertOpen();
    if (options.after < this.#compacted) {
      throw new CompactedError(options.after, this.#compacted);
    }
    this.#hub.watch(prefix, options, signal, (offer) => {
      // Re-reads #revision each turn: a callback may write while history replays.
      for (let revision = options.after + 1; revision <= this.#revision; revision++) {
        if (revision <= this.#compacted) throw new CompactedError(revision - 1, this.#compacted);
        offer(this.#log[revision - this.#compacted - 1]!);
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

  async compact(revision: number): Promise<void> {
    this.#assertOpen();
    const target = Math.min(revision, this.#revision);
    if (target <= this.#compacted) return;
    this.#log = this.#log.slice(target - this.#compacted);
    this.#compacted = target;
    for (const [key, versions] of this.#versions) {
      // Keep the newest version at or below the target (the key's state there) unless
      // it is a tombstone, and everything newer.
      let keep = versions.findLastIndex((v) => v.kv.modRevision <= target);
      if (keep >= 0 && versions[keep]!.deleted) keep++;
      if (keep > 0) versions.splice(0, keep);
      if (versions.length === 0) this.#versions.delete(key);
    }
    this.#keys = this.#keys.filter((key) => this.#versions.has(key));
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    this.#hub.close(new BackendClosedError());
  }

  #assertOpen(): void {
    if (this.#closed) throw new BackendClosedError();
  }

  #commit(version: Version, event: StorageEvent): void {
    const key = version.kv.key;
    Object.freeze(version.kv);
    let versions = this.#versions.get(key);
    if (!versions) {
      versions = [];
      this.#versions.set(key, versions);
      this.#keys.splice(this.#lowerBound(key), 0, key);
    }
    versions.push(version);
    this.#revision = version.kv.modRevision;
    this.#log.push(event);
    this.#hub.publish(event);
  }

  /** The live state of a key now. */
  #current(key: string): KeyValue | undefined {
    const last = this.#versions.get(key)?.at(-1);
    return last && !last.deleted ? last.kv : undefined;
  }

  /** The live state of a key at `revision`. */
  #at(key: string, revision: number): KeyValue | undefined {
    const versions = this.#versions.get(key) ?? [];
    for (let i = versions.length - 1; i >= 0; i--) {
      const version = versions[i]!;
      if (version.kv.modRevision <= revision) return version.deleted ? undefined : version.kv;
    }
    return undefined;
  }

  /** The index of the first key at or after `key` in #keys. */
  #lowerBound(key: string): number {
    let lo = 0;
    let hi = this.#keys.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (compareKeys(this.#keys[mid]!, key) < 0) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }
}
