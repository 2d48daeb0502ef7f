/**
 * Read-your-writes for the apiserver's in-memory caches (CRD registry, RBAC
 * policy, admission policies). Each cache follows storage through a watch, so
 * it learns a write made through any apiserver sharing the store. On SQLite
 * the watch delivers a write before the write returns; on etcd it arrives a
 * little later, also on the apiserver that wrote it. So that a CRD is served,
 * or a binding in effect, once the request that wrote it has returned, writes
 * under a cache's prefix wait (bounded) until that cache has seen them.
 */
import type { Backend, KeyValue, StorageEvent } from "../../storage/index.js";

/** How far a cache's watch has delivered. */
export class WatchProgress {
  #revision = 0;
  readonly #waiters = new Set<{ revision: number; done: () => void }>();

  /** The newest revision the cache has applied. */
  get revision(): number {
    return this.#revision;
  }

  /** The cache has applied everything up to `revision` (an event's, or a relist's). */
  observe(revision: number): void {
    if (revision <= this.#revision) return;
    this.#revision = revision;
    for (const w of this.#waiters) if (w.revision <= revision) w.done();
  }

  /** Resolves once `revision` is observed, or after `timeoutMs` (a broken watch must not hang writes). */
  reached(revision: number, timeoutMs: number): Promise<void> {
    if (revision <= this.#revision) return Promise.resolve();
    return new Promise((resolve) => {
      const waiter = {
        revision,
        done: () => {
          clearTimeout(timer);
          this.#waiters.delete(waiter);
          resolve();
        },
      };
      const timer = setTimeout(waiter.done, timeoutMs);
      this.#waiters.add(waiter);
    });
  }
}

export interface FollowedPrefix {
  prefix: string;
  progress: WatchProgress;
}

const SYNC_TIMEOUT_MS = 10_000;

/** `backend`, whose writes under a followed prefix return once that prefix's cache has them. */
export function syncedWrites(backend: Backend, followed: FollowedPrefix[]): Backend {
  const settle = async (kv: KeyValue): Promise<KeyValue> => {
    for (const f of followed)
      if (kv.key.startsWith(f.prefix)) await f.progress.reached(kv.modRevision, SYNC_TIMEOUT_MS);
    return kv;
  };
  return {
    get: (key) => backend.get(key),
    list: (prefix, options) => backend.list(prefix, options),
    count: (prefix) => backend.count(prefix),
    create: async (key, value) => settle(await backend.create(key, value)),
    update: async (key, value, expected) => settle(await backend.update(key, value, expected)),
    delete: async (key, expected) => settle(await backend.delete(key, expected)),
    watch: (prefix, options, signal) => backend.watch(prefix, options, signal),
    currentRevision: () => backend.currentRevision(),
    compactedRevision: () => backend.compactedRevision(),
    compact: (revision) => backend.compact(revision),
    close: () => backend.close(),
  };
}

const RELIST_RETRY_MS = 1000;

/**
 * Runs `relist` (a cache's list-then-watch, after its watch broke) until it succeeds or
 * `signal` aborts, a second apart: etcd may be down for a while, and a cache that
 * stopped following would serve stale state for good.
 */
export function relistUntilDone(
  what: string,
  relist: () => Promise<void>,
  signal: AbortSignal,
  log: (msg: string, err?: unknown) => void,
): void {
  if (signal.aborted) return;
  relist().catch((e: unknown) => {
    log(`${what} relist failed; retrying`, e);
    const timer = setTimeout(() => relistUntilDone(what, relist, signal, log), RELIST_RETRY_MS);
    signal.addEventListener("abort", () => clearTimeout(timer), { once: true });
  });
}

/** A cache that `followPrefix` keeps: replaced by each list, then changed by each event. */
export interface PrefixFollower {
  /** Replaces the cache's content with a list's items; `relisted` after a broken watch. */
  load(items: KeyValue[], relisted: boolean): void;
  onEvent(event: StorageEvent): void;
}

/**
 * The informer loop every apiserver cache runs: list `prefix`, load it, then
 * watch from the list's revision, recording in `progress` how far it has
 * delivered (for `syncedWrites`); a broken watch (etcd restarted, watcher too
 * slow) is replaced by a relist, retried until it succeeds. Resolves once the
 * first watch is established.
 */
export async function followPrefix(
  backend: Backend,
  prefix: string,
  follower: PrefixFollower,
  opts: {
    what: string;
    progress: WatchProgress;
    signal: AbortSignal;
    log: (msg: string, err?: unknown) => void;
  },
  relisted = false,
): Promise<void> {
  const { progress, signal, log, what } = opts;
  const page = await backend.list(prefix);
  follower.load(page.items, relisted);
  progress.observe(page.revision);
  await backend.watch(
    prefix,
    {
      after: page.revision,
      onEvent: (ev) => {
        follower.onEvent(ev);
        progress.observe(ev.kv.modRevision);
      },
      onError: (err) => {
        if (signal.aborted) return;
        log(`${what} watch ended; relisting`, err);
        relistUntilDone(
          what,
          () => followPrefix(backend, prefix, follower, opts, true),
          signal,
          log,
        );
      },
    },
    signal,
  );
}
