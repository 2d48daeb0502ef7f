/**
 * Helpers of the shared backend suite: a fresh backend per test, closed after it,
 * and a watch recorder whose waits end on a condition or a deadline (never on a
 * sleep), since a backend may deliver events asynchronously.
 */
import type { Backend, StorageEvent, WatchOptions } from "../../../src/storage/backend.js";

export type OpenBackend = () => Promise<Backend>;

/** A test body that gets a fresh backend and closes it afterwards. */
export function withBackend(
  open: OpenBackend,
  body: (backend: Backend) => Promise<void>,
): () => Promise<void> {
  return async () => {
    const backend = await open();
    try {
      await body(backend);
    } finally {
      await backend.close();
    }
  };
}

/** Records what one watch delivers. */
export class Recorder {
  readonly events: StorageEvent[] = [];
  readonly errors: Error[] = [];
  readonly controller = new AbortController();
  readonly #waiters = new Set<() => void>();

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  options(after: number): WatchOptions {
    return {
      after,
      onEvent: (event) => {
        this.events.push(event);
        this.#notify();
      },
      onError: (error) => {
        this.errors.push(error);
        this.#notify();
      },
    };
  }

  /** The revisions of the events so far. */
  revisions(): number[] {
    return this.events.map((e) => e.kv.modRevision);
  }

  /** Waits until at least `count` events have arrived. */
  async waitForEvents(count: number, timeoutMs?: number): Promise<StorageEvent[]> {
    await this.until(() => this.events.length >= count, `${count} events`, timeoutMs);
    return this.events;
  }

  async waitForError(): Promise<Error> {
    await this.until(() => this.errors.length > 0, "an error");
    return this.errors[0]!;
  }

  until(condition: () => boolean, what: string, timeoutMs = 5000): Promise<void> {
    if (condition()) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const check = () => {
        if (!condition()) return;
        done();
        resolve();
      };
      const timer = setTimeout(() => {
        done();
        reject(new Error(`timed out waiting for ${what}; got ${this.events.length} events`));
      }, timeoutMs);
      const done = () => {
        clearTimeout(timer);
        this.#waiters.delete(check);
      };
      this.#waiters.add(check);
    });
  }

  #notify(): void {
    for (const waiter of [...this.#waiters]) waiter();
  }
}
