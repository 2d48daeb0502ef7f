/**
 * Time as the runtime reads it: `now()` and a `sleep` that an AbortSignal cuts
 * short. Leases (and later grace periods and back-off) take a Clock, so their
 * tests run on a FakeClock that moves only when the test says, and so do not
 * depend on how busy the machine is.
 */

export interface Clock {
  /** Milliseconds since the epoch. */
  now(): number;
  /** Resolves after `ms`, or at once when `signal` aborts (never rejects). */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

/** Resolves once `ms` have passed on the machine's clock, or `signal` aborts. */
function sleepReal(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve();
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener("abort", done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal?.addEventListener("abort", done, { once: true });
  });
}

export const realClock: Clock = { now: () => Date.now(), sleep: sleepReal };

interface Sleeper {
  due: number;
  wake: () => void;
}

/**
 * A clock that stands still until `advance`. Sleepers whose time has come are
 * woken in order of their due time; code they run sees `now()` at the end of
 * the advance, so tests move in steps no larger than the finest timing they
 * check.
 */
export class FakeClock implements Clock {
  #now: number;
  readonly #sleepers = new Set<Sleeper>();

  constructor(start = Date.parse("2030-01-01T00:00:00Z")) {
    this.#now = start;
  }

  now(): number {
    return this.#now;
  }

  /** How many sleeps are waiting: a test advances once the code under test is parked. */
  get sleeping(): number {
    return this.#sleepers.size;
  }

  sleep(ms: number, signal?: AbortSignal): Promise<void> {
    return new Promise((resolve) => {
      if (signal?.aborted) return resolve();
      const sleeper: Sleeper = {
        due: this.#now + Math.max(0, ms),
        wake: () => {
          this.#sleepers.delete(sleeper);
          signal?.removeEventListener("abort", sleeper.wake);
          resolve();
        },
      };
      signal?.addEventListener("abort", sleeper.wake, { once: true });
      this.#sleepers.add(sleeper);
    });
  }

  /** Moves time forward by `ms` and wakes every sleeper that is then due. */
  advance(ms: number): void {
    this.#now += ms;
    const due = [...this.#sleepers].filter((s) => s.due <= this.#now);
    for (const s of due.sort((a, b) => a.due - b.due)) s.wake();
  }
}
