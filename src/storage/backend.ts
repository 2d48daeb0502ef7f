/**
 * The storage contract of the apiserver: a key-value store with a global revision
 * log, in the spirit of kine / etcd's limited txn shapes. Every write gets the next
 * global revision, which the apiserver exposes as an object's `resourceVersion`.
 * Keys are `/`-separated strings; values are opaque strings (JSON for objects).
 * Every implementation passes `test/support/storage-suite/backend-suite.ts`.
 */

export interface KeyValue {
  key: string;
  value: string;
  /** Revision of the write that created this key (since its last deletion). */
  createRevision: number;
  /** Revision of the last write to this key; for a deletion event, the deletion's revision. */
  modRevision: number;
}

export interface ListOptions {
  /** At most this many items; 0 or absent means all. */
  limit?: number;
  /** Only keys strictly greater than this one (the continue token's start). */
  after?: string;
  /** Read at this revision; 0 or absent means the current one. Below the compacted revision → CompactedError. */
  revision?: number;
}

export interface ListResult {
  items: KeyValue[];
  /** The revision the list was read at. */
  revision: number;
  /** True when more items exist after the last one returned. */
  more: boolean;
  /** How many items remain after this page (when known). */
  remaining?: number;
}

export interface StorageEvent {
  type: "put" | "delete";
  /** The new state for a put; for a delete, the last state with `modRevision` set to the deletion's revision. */
  kv: KeyValue;
  /** The state before this write, if the key existed. */
  prev?: KeyValue;
}

export interface WatchOptions {
  /** Deliver every event with revision strictly greater than this. */
  after: number;
  /** Called for each event in revision order. Must not throw. */
  onEvent: (event: StorageEvent) => void;
  /**
   * Called once if the watch can no longer continue (the backend closed, or the
   * watcher fell too far behind); no events follow.
   */
  onError?: (error: Error) => void;
}

export interface Backend {
  /** The current state of a key, or undefined. */
  get(key: string): Promise<KeyValue | undefined>;
  /** Keys starting with `prefix`, in key order. */
  list(prefix: string, options?: ListOptions): Promise<ListResult>;
  /** Number of live keys under `prefix`. */
  count(prefix: string): Promise<number>;
  /** Creates the key if absent; throws KeyExistsError otherwise. */
  create(key: string, value: string): Promise<KeyValue>;
  /**
   * Replaces the value if the key's modRevision equals `expectedRevision`; throws
   * KeyNotFoundError if absent and RevisionMismatchError (carrying the current value) otherwise.
   */
  update(key: string, value: string, expectedRevision: number): Promise<KeyValue>;
  /**
   * Deletes the key, if `expectedRevision` is given only when it matches. Returns the
   * last state with modRevision = the deletion's revision.
   */
  delete(key: string, expectedRevision?: number): Promise<KeyValue>;
  /**
   * Streams events under `prefix` after `options.after` until `signal` aborts.
   * Resolves once the watch is established (history replayed or queued); rejects
   * with CompactedError if `after` is older than the compacted revision.
   */
  watch(prefix: string, options: WatchOptions, signal: AbortSignal): Promise<void>;
  /** The newest revision written. */
  currentRevision(): Promise<number>;
  /**
   * True when every event up to `currentRevision()` has reached each watcher's
   * `onEvent` by the time that call resolves (in-process backends, which
   * publish synchronously on commit). A watch bookmark may then name the
   * current revision; otherwise only the last event it delivered.
   */
  readonly deliversOnCommit?: boolean;
  /** The revision at or below which history is gone. */
  compactedRevision(): Promise<number>;
  /** Drops history at or below `revision` (superseded values and tombstones). */
  compact(revision: number): Promise<void>;
  /** Releases the backend; pending watches end with onError. */
  close(): Promise<void>;
}
