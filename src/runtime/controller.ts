/**
 * The reconcile loop: workers take keys from a WorkQueue and call the reconciler,
 * which sees only the key and returns a Result. The retry policy lives here
 * alone: an error requeues with per-key backoff, a TerminalError is not retried,
 * `requeueAfter` schedules the next look. A reconciler never sleeps or retries
 * itself.
 */
import { reconcileErrors, reconcileTime, reconcileTotal, trackQueue } from "./metrics.js";
import { WorkQueue } from "./workqueue.js";

export interface Result {
  /** Look again after this many ms even if nothing changes. */
  requeueAfter?: number;
}

export const DONE: Result = {};

/** An error that retrying cannot fix (bad input); logged, never retried. */
export class TerminalError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "TerminalError";
  }
}

export interface Reconciler {
  reconcile(signal: AbortSignal, key: string): Promise<Result>;
}

export interface ControllerOptions {
  name: string;
  workers?: number;
  /** Told about each failed reconcile (error, and whether it will be retried). */
  onError?(key: string, err: unknown, retry: boolean): void;
}

export class Controller {
  readonly queue = new WorkQueue();

  constructor(
    private readonly reconciler: Reconciler,
    readonly opts: ControllerOptions,
  ) {}

  enqueue(key: string): void {
    this.queue.add(key);
  }

  /** Runs workers until `signal` aborts; resolves once they have stopped. */
  async run(signal: AbortSignal): Promise<void> {
    const stop = () => this.queue.shutDown();
    trackQueue(this.opts.name, this.queue, signal);
    signal.addEventListener("abort", stop, { once: true });
    const workers = Array.from({ length: this.opts.workers ?? 1 }, () => this.worker(signal));
    await Promise.all(workers);
    signal.removeEventListener("abort", stop);
  }

  private async worker(signal: AbortSignal): Promise<void> {
    for (;;) {
      const key = await this.queue.get();
      if (key === undefined) return;
      const controller = this.opts.name;
      const timer = reconcileTime.startTimer({ controller });
      try {
        const result = await this.reconciler.reconcile(signal, key);
        this.queue.forget(key);
        if (result.requeueAfter !== undefined) this.queue.addAfter(key, result.requeueAfter);
        reconcileTotal.inc({
          controller,
          result: result.requeueAfter !== undefined ? "requeue_after" : "success",
        });
      } catch (err) {
        reconcileTotal.inc({ controller, result: "error" });
        reconcileErrors.inc({ controller });
        const terminal = err instanceof TerminalError;
        if (!signal.aborted) this.opts.onError?.(key, err, !terminal);
        if (terminal) this.queue.forget(key);
        else if (!signal.aborted) this.queue.addRateLimited(key);
      } finally {
        timer();
        this.queue.done(key);
      }
    }
  }
}
