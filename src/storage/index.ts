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

import type { EtcdBackend, EtcdBackendOptions } from "./etcd/etcd-backend.js";

export type { EtcdBackend, EtcdBackendOptions };

/**
 * Opens the etcd backend, loading it (and etcd3's gRPC stack, some 25 MB of
 * RSS) only when a server is configured to store in etcd.
 */
export async function openEtcdBackend(opts: EtcdBackendOptions): Promise<EtcdBackend> {
  return (await import("./etcd/etcd-backend.js")).openEtcdBackend(opts);
}
export { MemoryBackend } from "./memory/memory-backend.js";
export { openSqliteBackend, SqliteBackend } from "./sqlite/sqlite-backend.js";
