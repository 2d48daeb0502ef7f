/**
 * The Manager's reconcile loop for one controller: workers take typed requests
 * from a WorkQueue and call the reconciler with a context whose signal aborts
 * when the Manager stops or the reconcile passes its deadline. The retry
 * policy lives here alone: an error (a passed deadline included) requeues with
 * per-request exponential back-off, a TerminalError is reported and dropped,
 * `requeue` backs off as an error does, `requeueAfter` schedules the next look.
 * Deadlines, back-off and requeueAfter all run on the loop's Clock.
 */
import { type Clock, realClock } from "./clock.js";
import { reconcileErrors, reconcileTime, reconcileTotal, trackQueue } from "./metrics.js";
import { type Request, requestFromKey, requestKey } from "./refs.js";
import { type BackoffOptions, DEFAULT_BACKOFF, WorkQueue } from "./workqueue.js";

/** What a reconcile that only schedules its next look returns. */
export interface Result {
  /** Look again after this many ms even if nothing changes. */
  requeueAfter?: number;
}

export const DONE: Result = {};

/** An error that retrying cannot fix (bad input); reported, never retried. */
export class TerminalError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "TerminalError";
  }
}

export interface ReconcileResult {
  /** Look again after this many ms even if nothing changes. */
  requeueAfter?: number;
  /** Look again after the request's next back-off step. */
  requeue?: boolean;
}

export interface ReconcileContext {
  /** Aborts when the Manager stops or this reconcile passes its deadline. */
  signal: AbortSignal;
  /**
   * How many reconciles of this request in a row failed (or asked to be
   * requeued with back-off) before this one; 0 after a success.
   */
  retries: number;
}

export interface TypedReconciler {
  // biome-ignore lint/suspicious/noConfusingVoidType: a reconciler that has nothing to say returns nothing
  reconcile(req: Request, ctx: ReconcileContext): Promise<ReconcileResult | void>;
}

/** The abort reason of a reconcile that ran past its deadline. */
export class DeadlineExceededError extends Error {
  constructor(controller: string, req: Request, ms: number) {
    super(`reconcile of ${controller} "${requestKey(req)}" did not finish within ${ms} ms`);
    this.name = "DeadlineExceededError";
  }
}

export interface ReconcileLoopOptions {
  name: string;
  workers: number;
  deadlineMs: number;
  backoff?: BackoffOptions;
  /** The time deadlines, back-off and requeueAfter run on (default: the machine's). */
  clock?: Clock;
  /** Told about each failed reconcile, and whether it will be retried. */
  onError(controller: string, req: Request, err: unknown, retry: boolean): void;
}

export class ReconcileLoop {
  readonly queue: WorkQueue;
  private readonly clock: Clock;

  constructor(
    private readonly reconciler: TypedReconciler,
    private readonly opts: ReconcileLoopOptions,
  ) {
    this.clock = opts.clock ?? realClock;
    this.queue = new WorkQueue(opts.backoff ?? DEFAULT_BACKOFF, this.clock);
  }

  enqueue(req: Request): void {
    this.queue.add(requestKey(req));
  }

  enqueueAfter(req: Request, ms: number): void {
    this.queue.addAfter(requestKey(req), ms);
  }

  /** Runs the workers until `signal` aborts; resolves once they have stopped. */
  async run(signal: AbortSignal): Promise<void> {
    const stop = () => this.queue.shutDown();
    if (signal.aborted) stop();
    trackQueue(this.opts.name, this.queue, signal);
    signal.addEventListener("abort", stop, { once: true });
    const workers = Array.from({ length: this.opts.workers }, () => this.worker(signal));
    await Promise.all(workers);
    signal.removeEventListener("abort", stop);
  }

  private async worker(signal: AbortSignal): Promise<void> {
    for (;;) {
      const key = await this.queue.get();
      if (key === undefined) return;
      try {
        await this.reconcileOne(key, signal);
      } finally {
        this.queue.done(key);
      }
    }
  }

  private async reconcileOne(key: string, stopping: AbortSignal): Promise<void> {
    const controller = this.opts.name;
    const req = requestFromKey(key);
    const timer = reconcileTime.startTimer({ controller });
    const ctx = new AbortController();
    const onStop = () => ctx.abort(stopping.reason);
    stopping.addEventListener("abort", onStop, { once: true });
    const cancelDeadline = this.clock.after(this.opts.deadlineMs, () =>
      ctx.abort(new DeadlineExceededError(controller, req, this.opts.deadlineMs)),
    );
    try {
      const retries = this.queue.failureCount(key);
      const result = (await this.reconciler.reconcile(req, { signal: ctx.signal, retries })) ?? {};
      if (result.requeue) {
        this.queue.addRateLimited(key);
      } else {
        this.queue.forget(key);
        if (result.requeueAfter !== undefined) this.queue.addAfter(key, result.requeueAfter);
      }
      const requeued = result.requeue || result.requeueAfter !== undefined;
      reconcileTotal.inc({ controller, result: requeued ? "requeue_after" : "success" });
    } catch (thrown) {
      reconcileTotal.inc({ controller, result: "error" });
      reconcileErrors.inc({ controller });
      if (stopping.aborted) return;
      // A reconciler that gives up on its aborted signal throws an AbortError; name the deadline.
      const err = ctx.signal.aborted && isAbort(thrown, ctx.signal) ? ctx.signal.reason : thrown;
      const terminal = thrown instanceof TerminalError;
      this.opts.onError(controller, req, err, !terminal);
      if (terminal) this.queue.forget(key);
      else this.queue.addRateLimited(key);
    } finally {
      cancelDeadline();
      stopping.removeEventListener("abort", onStop);
      timer();
    }
  }
}

function isAbort(err: unknown, signal: AbortSignal): boolean {
  return err === signal.reason || (err instanceof Error && err.name === "AbortError");
}
