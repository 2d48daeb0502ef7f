/**
 * Delivers committed events to the watchers of one in-process backend, in revision
 * order. Backends publish synchronously right after each commit. An event published
 * from inside a callback (a callback that writes) is queued until the current one
 * has reached every watcher, so all watchers see one order.
 *
 * A new watcher first gets its history from the backend's `replay`, then joins the
 * live stream. Each watcher remembers the last revision it was given and drops
 * anything at or below it, so an event that is both in the replayed history and
 * still queued for live delivery arrives once: no gap, no duplicate.
 */
import type { StorageEvent, WatchOptions } from "./backend.js";
import { BackendClosedError } from "./errors.js";
import { hasPrefix } from "./keys.js";

/** Feeds a new watcher every stored event after its `after` revision, up to the newest. */
export type Replay = (offer: (event: StorageEvent) => void) => void;

class Watcher {
  #last: number;
  active = true;

  constructor(
    readonly prefix: string,
    readonly options: WatchOptions,
    readonly detach: () => void,
  ) {
    this.#last = options.after;
  }

  offer(event: StorageEvent): void {
    const revision = event.kv.modRevision;
    if (!this.active || revision <= this.#last) return;
    this.#last = revision;
    if (!hasPrefix(event.kv.key, this.prefix)) return;
    try {
      this.options.onEvent(event);
    } catch (error) {
      // A callback must not throw; one that does loses its watch, not the write.
      this.end(error instanceof Error ? error : new Error(String(error)));
    }
  }

  end(error?: Error): void {
    if (!this.active) return;
    this.active = false;
    this.detach();
    if (error) this.options.onError?.(error);
  }
}

export class WatchHub {
  readonly #watchers = new Set<Watcher>();
  readonly #queue: StorageEvent[] = [];
  #delivering = false;
  #closed = false;

  /** Hands a committed event to every watcher; events must come in revision order. */
  publish(event: StorageEvent): void {
    this.#queue.push(freezeEvent(event));
    if (this.#delivering) return;
    this.#delivering = true;
    try {
      for (let i = 0; i < this.#queue.length; i++) {
        const next = this.#queue[i]!;
        for (const watcher of this.#watchers) watcher.offer(next);
      }
    } finally {
      this.#queue.length = 0;
      this.#delivering = false;
    }
  }

  /**
   * Replays history into a new watcher, then subscribes it until `signal` aborts.
   * Throws what `replay` throws (e.g. CompactedError), and BackendClosedError if
   * the hub closed meanwhile.
   */
  watch(prefix: string, options: WatchOptions, signal: AbortSignal, replay: Replay): void {
    if (this.#closed) throw new BackendClosedError();
    if (signal.aborted) return;
    const onAbort = () => watcher.end();
    const watcher = new Watcher(prefix, options, () => {
      this.#watchers.delete(watcher);
      signal.removeEventListener("abort", onAbort);
    });
    signal.addEventListener("abort", onAbort, { once: true });
    try {
      replay((event) => watcher.offer(freezeEvent(event)));
      if (this.#closed) throw new BackendClosedError();
    } catch (error) {
      watcher.end();
      throw error;
    }
    if (watcher.active) this.#watchers.add(watcher);
  }

  /** Ends every watcher with `error`; later watches throw BackendClosedError. */
  close(error: Error): void {
    this.#closed = true;
    for (const watcher of [...this.#watchers]) watcher.end(error);
  }
}

// One event object reaches every watcher; freezing it keeps one watcher's
// changes from leaking into another's.
function freezeEvent(event: StorageEvent): StorageEvent {
  Object.freeze(event.kv);
  if (event.prev) Object.freeze(event.prev);
  return Object.freeze(event);
}
