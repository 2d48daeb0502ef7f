/**
 * ReconcileLoop on a FakeClock: the one place that turns a reconcile's
 * outcome into a requeue. Asserts when each request comes back (requeue backs
 * off, requeueAfter waits exactly, an error backs off and success resets it, a
 * TerminalError is dropped), that a reconcile past its deadline sees its signal
 * abort with DeadlineExceededError, that stopping is not reported as an error,
 * and the reconcile_total counts per result.
 */
import assert from "node:assert/strict";
import { beforeEach, describe, it } from "node:test";
import { FakeClock } from "./clock.js";
import { reconcileTotal } from "./metrics.js";
import {
  DeadlineExceededError,
  type ReconcileContext,
  ReconcileLoop,
  type ReconcileResult,
  TerminalError,
} from "./reconcile-loop.js";
import type { Request } from "./refs.js";

let clock: FakeClock;
beforeEach(() => {
  clock = new FakeClock(0);
});

/** Lets the loop's promise callbacks run (no time passes). */
const settle = () => new Promise<void>((r) => setImmediate(r));

/**
 * Moves the clock forward by `ms`, from one due timer to the next, letting
 * the loop react to each (a reconcile it starts may set the next timer).
 */
async function advance(ms: number): Promise<void> {
  const end = clock.now() + ms;
  for (;;) {
    await settle();
    const next = clock.nextDue();
    if (next === undefined || next > end) break;
    clock.advanceTo(next);
  }
  clock.advanceTo(end);
  await settle();
}

interface Reported {
  req: Request;
  err: unknown;
  retry: boolean;
}

type Step = (req: Request, ctx: ReconcileContext) => Promise<ReconcileResult | undefined>;

let loops = 0;

/** A running loop whose reconciler plays `steps` in order (the last repeats); records call times. */
function startLoop(steps: Step[], opts: { deadlineMs?: number; workers?: number } = {}) {
  const name = `loop-test-${++loops}`;
  const calls: { at: number; req: Request; retries: number }[] = [];
  const errors: Reported[] = [];
  const loop = new ReconcileLoop(
    {
      reconcile: (req, ctx) => {
        calls.push({ at: clock.now(), req, retries: ctx.retries });
        const step = steps[Math.min(calls.length, steps.length) - 1]!;
        return step(req, ctx);
      },
    },
    {
      name,
      workers: opts.workers ?? 1,
      deadlineMs: opts.deadlineMs ?? 10_000,
      backoff: { baseMs: 10, maxMs: 40 },
      clock,
      onError: (_c, req, err, retry) => errors.push({ req, err, retry }),
    },
  );
  const stop = new AbortController();
  const running = loop.run(stop.signal);
  return {
    name,
    loop,
    calls,
    errors,
    at: () => calls.map((c) => c.at),
    async stop() {
      stop.abort();
      await running;
    },
  };
}

async function totals(controller: string): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  for (const v of (await reconcileTotal.get()).values) {
    if (v.labels.controller === controller) out[String(v.labels.result)] = v.value;
  }
  return out;
}

const done: Step = async () => undefined;
const fail: Step = async () => {
  throw new Error("not yet");
};
const requeue: Step = async () => ({ requeue: true });
const after =
  (ms: number): Step =>
  async () => ({ requeueAfter: ms });

describe("ReconcileLoop requeue policy (FakeClock)", () => {
  const cases: {
    name: string;
    steps: Step[];
    run: number;
    at: number[];
    totals: Record<string, number>;
  }[] = [
    {
      name: "a plain success is not looked at again",
      steps: [done],
      run: 1000,
      at: [0],
      totals: { success: 1 },
    },
    {
      name: "requeue backs off 10, 20, 40, 40 ms (capped)",
      steps: [requeue],
      run: 110,
      at: [0, 10, 30, 70, 110],
      totals: { requeue_after: 5 },
    },
    {
      name: "requeueAfter comes back after exactly that delay",
      steps: [after(250), after(250), done],
      run: 1000,
      at: [0, 250, 500],
      totals: { requeue_after: 2, success: 1 },
    },
    {
      name: "errors back off and a success ends the retries",
      steps: [fail, fail, fail, done],
      run: 1000,
      at: [0, 10, 30, 70],
      totals: { error: 3, success: 1 },
    },
    {
      name: "a success resets the back-off: the next error starts from the base",
      steps: [fail, fail, after(100), fail, done],
      run: 1000,
      // 0 fail → 10 fail → 30 ok, requeueAfter 100 → 130 fail → back-off 10 (not 40) → 140.
      at: [0, 10, 30, 130, 140],
      totals: { error: 3, requeue_after: 1, success: 1 },
    },
    {
      name: "requeue after errors keeps counting the same back-off",
      steps: [fail, requeue, done],
      run: 1000,
      at: [0, 10, 30],
      totals: { error: 1, requeue_after: 1, success: 1 },
    },
    {
      name: "a TerminalError is dropped",
      steps: [
        async () => {
          throw new TerminalError("spec.size: must be positive");
        },
      ],
      run: 1000,
      at: [0],
      totals: { error: 1 },
    },
  ];
  for (const c of cases) {
    it(c.name, async () => {
      const l = startLoop(c.steps);
      l.loop.enqueue({ namespace: "ns", name: "a" });
      await settle();
      await advance(c.run);
      await l.stop();
      assert.deepEqual(l.at(), c.at);
      assert.deepEqual(await totals(l.name), c.totals);
    });
  }

  it("reports each error with its request and whether it will be retried", async () => {
    const l = startLoop([
      fail,
      async () => {
        throw new TerminalError("bad input");
      },
    ]);
    l.loop.enqueue({ name: "cluster-scoped" });
    await advance(50);
    await l.stop();
    assert.deepEqual(
      l.errors.map((e) => ({ req: e.req, retry: e.retry, message: (e.err as Error).message })),
      [
        { req: { name: "cluster-scoped" }, retry: true, message: "not yet" },
        { req: { name: "cluster-scoped" }, retry: false, message: "bad input" },
      ],
    );
    assert.equal(
      l.loop.queue.failureCount("cluster-scoped"),
      0,
      "a terminal error forgets the back-off",
    );
  });

  it("tells each reconcile how many in a row failed or asked for back-off before it", async () => {
    const l = startLoop([fail, fail, requeue, after(5), fail, done]);
    l.loop.enqueue({ name: "k" });
    await advance(1000);
    await l.stop();
    assert.deepEqual(
      l.calls.map((c) => c.retries),
      [0, 1, 2, 3, 0, 1],
      "a requeueAfter is a success: the count starts again after it",
    );
  });

  it("cancels the deadline of a reconcile that finished: no timer is left behind", async () => {
    const l = startLoop([done]);
    l.loop.enqueue({ name: "k" });
    await settle();
    assert.equal(l.calls.length, 1);
    assert.equal(clock.pending, 0);
    await l.stop();
  });

  it("hands the reconciler the request its key names", async () => {
    const l = startLoop([done]);
    l.loop.enqueue({ namespace: "tenant-a", name: "db" });
    l.loop.enqueue({ name: "node-1" });
    l.loop.enqueueAfter({ namespace: "x", name: "later" }, 5);
    await advance(5);
    await l.stop();
    assert.deepEqual(
      l.calls.map((c) => c.req),
      [
        { namespace: "tenant-a", name: "db" },
        { name: "node-1" },
        { namespace: "x", name: "later" },
      ],
    );
  });
});

describe("ReconcileLoop deadline and stop (FakeClock)", () => {
  /** A reconciler that waits for its signal and throws what an aborted fetch throws. */
  const hang: Step = (_req, ctx) =>
    new Promise((_resolve, reject) => {
      ctx.signal.addEventListener(
        "abort",
        () => reject(new DOMException("aborted", "AbortError")),
        {
          once: true,
        },
      );
    });

  it("aborts a reconcile at its deadline and reports DeadlineExceededError, then retries", async () => {
    const l = startLoop([hang, done], { deadlineMs: 100 });
    l.loop.enqueue({ namespace: "ns", name: "slow" });
    await settle();
    await advance(99);
    assert.equal(l.errors.length, 0, "not before the deadline");
    await advance(1);
    assert.equal(l.errors.length, 1);
    const [e] = l.errors;
    assert.ok(e!.err instanceof DeadlineExceededError, `got ${String(e!.err)}`);
    assert.equal(
      (e!.err as Error).message,
      `reconcile of ${l.name} "ns/slow" did not finish within 100 ms`,
    );
    assert.equal(e!.retry, true);
    await advance(10);
    await l.stop();
    assert.deepEqual(l.at(), [0, 110], "retried after the first back-off step");
  });

  it("keeps a reconciler's own error when it fails before the deadline", async () => {
    const l = startLoop(
      [
        async () => {
          throw new DOMException("the client gave up", "AbortError");
        },
        done,
      ],
      { deadlineMs: 100 },
    );
    l.loop.enqueue({ name: "k" });
    await advance(1);
    await l.stop();
    assert.equal(l.errors.length, 1);
    assert.equal((l.errors[0]!.err as Error).message, "the client gave up");
  });

  it("aborts the reconcile's signal on stop, reports nothing and does not requeue", async () => {
    let reason: unknown;
    const l = startLoop([
      (_req, ctx) =>
        new Promise((_resolve, reject) => {
          ctx.signal.addEventListener("abort", () => {
            reason = ctx.signal.reason;
            reject(new DOMException("aborted", "AbortError"));
          });
        }),
    ]);
    l.loop.enqueue({ name: "k" });
    await advance(5);
    await l.stop();
    assert.ok(reason !== undefined && !(reason instanceof DeadlineExceededError));
    assert.equal(l.errors.length, 0);
    assert.equal(l.loop.queue.length, 0);
    assert.equal(l.loop.queue.failureCount("k"), 0);
  });

  it("runs different requests on different workers, one request on one worker", async () => {
    const release: (() => void)[] = [];
    const hold: Step = () =>
      new Promise((resolve) => {
        release.push(() => resolve(undefined));
      });
    const l = startLoop([hold], { workers: 2 });
    l.loop.enqueue({ name: "a" });
    l.loop.enqueue({ name: "b" });
    l.loop.enqueue({ name: "a" });
    await settle();
    assert.deepEqual(
      l.calls.map((c) => c.req.name),
      ["a", "b"],
      "both workers busy, a once",
    );
    for (const r of release.splice(0)) r();
    await settle();
    assert.deepEqual(
      l.calls.map((c) => c.req.name),
      ["a", "b", "a"],
      "a, added again while it ran, comes back once its worker is done",
    );
    for (const r of release.splice(0)) r();
    await l.stop();
  });
});
