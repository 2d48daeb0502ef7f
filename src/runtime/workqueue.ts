/**
 * A rate-limited work queue in client-go's shape: keys are deduplicated while
 * waiting, a key being processed is never handed to a second worker (a re-add
 * while processing marks it dirty and it comes back once done), failed keys come
 * back after a per-key exponential backoff with a cap, and `addAfter` delays a key.
 * Delays run on the injected Clock (a FakeClock in tests).
 */
import { type CancelTimer, type Clock, realClock } from "./clock.js";

export interface BackoffOptions {
  baseMs: number;
  maxMs: number;
}

export const DEFAULT_BACKOFF: BackoffOptions = { baseMs: 5, maxMs: 60_000 };

export class WorkQueue {
  private readonly queue: string[] = [];
  private readonly queued = new Set<string>();
  private readonly processing = new Set<string>();
  private readonly dirty = new Set<string>();
  private readonly failures = new Map<string, number>();
  private readonly timers = new Map<string, { cancel: CancelTimer; due: number }>();
  private readonly waiters: ((key: string | undefined) => void)[] = [];
  private shuttingDown = false;

  constructor(
    private readonly backoff: BackoffOptions = DEFAULT_BACKOFF,
    private readonly clock: Clock = realClock,
  ) {}

  get length(): number {
    return this.queue.length;
  }

  add(key: string): void {
    if (this.shuttingDown) return;
    if (this.processing.has(key)) {
      this.dirty.add(key);
      return;
    }
    if (this.queued.has(key)) return;
    const waiter = this.waiters.shift();
    if (waiter) {
      this.processing.add(key);
      waiter(key);
      return;
    }
    this.queued.add(key);
    this.queue.push(key);
  }

  /** Adds `key` after `ms`; an earlier pending delay for the key wins. */
  addAfter(key: string, ms: number): void {
    if (this.shuttingDown) return;
    if (ms <= 0) {
      this.add(key);
      return;
    }
    // As client-go's delaying queue: a key already waiting keeps the earlier time.
    const due = this.clock.now() + ms;
    const waiting = this.timers.get(key);
    if (waiting) {
      if (waiting.due <= due) return;
      waiting.cancel();
    }
    const cancel = this.clock.after(ms, () => {
      this.timers.delete(key);
      this.add(key);
    });
    this.timers.set(key, { cancel, due });
  }

  /** Requeues after this key's next backoff step. */
  addRateLimited(key: string): void {
    const n = this.failures.get(key) ?? 0;
    this.failures.set(key, n + 1);
    this.addAfter(key, Math.min(this.backoff.baseMs * 2 ** n, this.backoff.maxMs));
  }

  /** Resets the key's backoff after a success. */
  forget(key: string): void {
    this.failures.delete(key);
  }

  failureCount(key: string): number {
    return this.failures.get(key) ?? 0;
  }

  /** The next key, or undefined once the queue shuts down. */
  get(): Promise<string | undefined> {
    const key = this.queue.shift();
    if (key !== undefined) {
      this.queued.delete(key);
      this.processing.add(key);
      return Promise.resolve(key);
    }
    if (this.shuttingDown) return Promise.resolve(undefined);
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  /** Marks the key processed; a re-add that came meanwhile queues it again. */
  done(key: string): void {
    this.processing.delete(key);
    if (this.dirty.delete(key)) this.add(key);
  }

  shutDown(): void {
    this.shuttingDown = true;
    for (const t of this.timers.values()) t.cancel();
    this.timers.clear();
    for (const w of this.waiters.splice(0)) w(undefined);
  }
}
