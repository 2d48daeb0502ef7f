/**
 * A test backend for the watch-fed caches: a MemoryBackend whose watches can
 * hold their events until released (as etcd's watch delivers a write a little
 * after it returns, or an apiserver's cache lags another apiserver's write),
 * can be broken (as when etcd restarts), whose next lists can be made to fail
 * (as while etcd is down), and which counts reads.
 */
import type { KeyValue, ListOptions, ListResult, WatchOptions } from "../../storage/index.js";
import { MemoryBackend } from "../../storage/index.js";

export class LaggingBackend extends MemoryBackend {
  /** get and list calls so far. */
  reads = 0;
  /** How many of the next lists fail. */
  failLists = 0;
  #held = false;
  #queued: (() => void)[] = [];
  readonly #watches = new Set<{ stop: AbortController; onError?: (e: Error) => void }>();

  override async get(key: string): Promise<KeyValue | undefined> {
    this.reads++;
    return super.get(key);
  }

  override async list(prefix: string, options?: ListOptions): Promise<ListResult> {
    this.reads++;
    if (this.failLists > 0) {
      this.failLists--;
      throw new Error("etcd is down");
    }
    return super.list(prefix, options);
  }

  override async watch(prefix: string, options: WatchOptions, signal: AbortSignal): Promise<void> {
    const stop = new AbortController();
    signal.addEventListener("abort", () => stop.abort(), { once: true });
    const entry = { stop, ...(options.onError ? { onError: options.onError } : {}) };
    this.#watches.add(entry);
    stop.signal.addEventListener("abort", () => this.#watches.delete(entry), { once: true });
    await super.watch(
      prefix,
      {
        ...options,
        onEvent: (ev) => {
          if (this.#held) this.#queued.push(() => options.onEvent(ev));
          else options.onEvent(ev);
        },
      },
      stop.signal,
    );
  }

  /** From now on watch events wait for `release`. */
  hold(): void {
    this.#held = true;
  }

  /** Delivers the first `count` held events; without a count, all of them and later ones at once. */
  release(count?: number): void {
    if (count === undefined) this.#held = false;
    for (const deliver of this.#queued.splice(0, count ?? this.#queued.length)) deliver();
  }

  /** Ends every watch with an error (held events are lost), as a restarting etcd does. */
  breakWatches(): void {
    this.#queued = [];
    for (const w of [...this.#watches]) {
      w.stop.abort();
      w.onError?.(new Error("watch broken"));
    }
  }
}
