/**
 * Time as the runtime reads it: `now()`, a timer (`after`) and a `sleep` that
 * an AbortSignal cuts short. Leases, reconcile deadlines, work-queue delays and
 * back-off, and informer retries take a Clock, so their tests run on a
 * FakeClock that moves only when the test says, and so do not depend on how
 * busy the machine is.
 */

/** Cancels a timer; does nothing once it has fired or been cancelled. */
export type CancelTimer = () => void;

export interface Clock {
  /** Milliseconds since the epoch. */
  now(): number;
  /** Calls `fn` once, after `ms` (`ms` ≤ 0: when the clock next runs its timers). */
  after(ms: number, fn: () => void): CancelTimer;
  /** Resolves after `ms`, or at once when `signal` aborts (never rejects). */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

/** A sleep on `after`: resolves when the timer fires or `signal` aborts, cancelling the other. */
function sleepOn(after: Clock["after"], ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve();
    const done = () => {
      cancel();
      signal?.removeEventListener("abort", done);
      resolve();
    };
    const cancel = after(ms, done);
    signal?.addEventListener("abort", done, { once: true });
  });
}

function afterReal(ms: number, fn: () => void): CancelTimer {
  const timer = setTimeout(fn, ms);
  return () => clearTimeout(timer);
}

export const realClock: Clock = {
  now: () => Date.now(),
  after: afterReal,
  sleep: (ms, signal) => sleepOn(afterReal, ms, signal),
};

interface Timer {
  due: number;
  /** Order of creation: timers due at the same time fire first come, first served. */
  seq: number;
  fire: () => void;
}

/**
 * A clock that stands still until `advance`. Timers (and sleepers) whose time
 * has come fire in order of their due time, and of creation for equal times;
 * a timer's callback sees `now()` at its due time, and a timer it sets that
 * falls within the advance fires in the same advance. Code that runs after a
 * promise settles (a woken sleeper) sees `now()` at the end of the advance, so
 * tests move in steps no larger than the finest timing they check, or step
 * from one `nextDue()` to the next.
 */
export class FakeClock implements Clock {
  #now: number;
  #seq = 0;
  readonly #timers = new Set<Timer>();

  constructor(start = Date.parse("2030-01-01T00:00:00Z")) {
    this.#now = start;
  }

  now(): number {
    return this.#now;
  }

  /** How many timers and sleeps are waiting: a test advances once the code under test is parked. */
  get pending(): number {
    return this.#timers.size;
  }

  /** When the earliest waiting timer is due, or undefined when none waits. */
  nextDue(): number | undefined {
    return this.#earliest(Number.POSITIVE_INFINITY)?.due;
  }

  after(ms: number, fn: () => void): CancelTimer {
    const timer: Timer = { due: this.#now + Math.max(0, ms), seq: this.#seq++, fire: fn };
    this.#timers.add(timer);
    return () => {
      this.#timers.delete(timer);
    };
  }

  sleep(ms: number, signal?: AbortSignal): Promise<void> {
    return sleepOn((d, fn) => this.after(d, fn), ms, signal);
  }

  /** Moves time forward by `ms`, firing every timer that falls due on the way, in due order. */
  advance(ms: number): void {
    const end = this.#now + Math.max(0, ms);
    for (let t = this.#earliest(end); t; t = this.#earliest(end)) {
      this.#timers.delete(t);
      this.#now = Math.max(this.#now, t.due);
      t.fire();
    }
    this.#now = end;
  }

  /** Moves time to `ms` since the epoch (never backwards), as `advance` does. */
  advanceTo(ms: number): void {
    this.advance(ms - this.#now);
  }

  #earliest(until: number): Timer | undefined {
    let first: Timer | undefined;
    for (const t of this.#timers) {
      if (t.due > until) continue;
      if (!first || t.due < first.due || (t.due === first.due && t.seq < first.seq)) first = t;
    }
    return first;
  }
}
