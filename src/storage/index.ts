/**
 * The storage layer's facade: the Backend contract, its typed errors, and the
 * backends (SQLite by default, in-memory for unit tests of the layers above).
 * The shared test suite lives in `test/support/storage-suite/`.
 */
export type {
  Backend,
  KeyValue,
  ListOptions,
  ListResult,
  StorageEvent,
  WatchOptions,
} from "./backend.js";
export {
  BackendClosedError,
  CompactedError,
  KeyExistsError,
  KeyNotFoundError,
  RevisionMismatchError,
} from "./errors.js";
export { EtcdBackend, type EtcdBackendOptions, openEtcdBackend } from "./etcd/etcd-backend.js";
export { MemoryBackend } from "./memory/memory-backend.js";
export { openSqliteBackend, SqliteBackend } from "./sqlite/sqlite-backend.js";
