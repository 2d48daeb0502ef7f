/** Controller: the runtime alone owns retries, terminal errors and requeue delays. */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { Controller, DONE, type Result, TerminalError } from "./controller.js";

function waitUntil(check: () => boolean, ms = 2000): Promise<void> {
  const deadline = Date.now() + ms;
  return new Promise((resolve, reject) => {
    const tick = () => {
      if (check()) return resolve();
      if (Date.now() > deadline) return reject(new Error("condition not met in time"));
      setTimeout(tick, 5);
    };
    tick();
  });
}

describe("Controller", () => {
  it("retries a failing key with backoff until it succeeds", async () => {
    let calls = 0;
    const c = new Controller(
      { reconcile: async () => (++calls < 3 ? Promise.reject(new Error("not yet")) : DONE) },
      { name: "t" },
    );
    const stop = new AbortController();
    const running = c.run(stop.signal);
    c.enqueue("k");
    await waitUntil(() => calls === 3);
    assert.equal(c.queue.failureCount("k"), 0, "success resets the backoff");
    stop.abort();
    await running;
  });

  it("does not retry a terminal error", async () => {
    let calls = 0;
    const errors: boolean[] = [];
    const c = new Controller(
      {
        reconcile: async () => {
          calls++;
          throw new TerminalError("bad input");
        },
      },
      { name: "t", onError: (_k, _e, retry) => errors.push(retry) },
    );
    const stop = new AbortController();
    const running = c.run(stop.signal);
    c.enqueue("k");
    await waitUntil(() => errors.length === 1);
    stop.abort();
    await running;
    assert.equal(calls, 1);
    assert.deepEqual(errors, [false]);
  });

  it("requeues after the delay a reconciler asks for", async () => {
    const seen: number[] = [];
    const c = new Controller(
      {
        reconcile: async (): Promise<Result> => {
          seen.push(Date.now());
          return seen.length < 2 ? { requeueAfter: 30 } : DONE;
        },
      },
      { name: "t" },
    );
    const stop = new AbortController();
    const running = c.run(stop.signal);
    c.enqueue("k");
    await waitUntil(() => seen.length === 2);
    assert.ok(seen[1]! - seen[0]! >= 25);
    stop.abort();
    await running;
  });

  it("runs different keys in parallel but one key at a time", async () => {
    // Values are recorded and asserted after the run: an assertion thrown inside
    // `reconcile` would only be taken for a retryable error.
    let active = 0;
    let maxActive = 0;
    let maxOnOneKey = 0;
    const onKey = new Map<string, number>();
    const runs: string[] = [];
    let releaseFirst!: () => void;
    const firstHeld = new Promise<void>((r) => {
      releaseFirst = r;
    });
    const c = new Controller(
      {
        reconcile: async (_s, key) => {
          active++;
          onKey.set(key, (onKey.get(key) ?? 0) + 1);
          maxOnOneKey = Math.max(maxOnOneKey, onKey.get(key)!);
          maxActive = Math.max(maxActive, active);
          runs.push(key);
          // The first "a" waits while "a" is added again and "b" runs beside it.
          if (runs.length === 1) await firstHeld;
          onKey.set(key, onKey.get(key)! - 1);
          active--;
          return DONE;
        },
      },
      { name: "t", workers: 4 },
    );
    const stop = new AbortController();
    const running = c.run(stop.signal);
    c.enqueue("a");
    await waitUntil(() => runs.length === 1);
    c.enqueue("a");
    c.enqueue("b");
    await waitUntil(() => runs.includes("b"));
    releaseFirst();
    await waitUntil(() => runs.filter((k) => k === "a").length === 2);
    stop.abort();
    await running;
    assert.equal(maxOnOneKey, 1, "no two workers on one key");
    assert.equal(maxActive, 2, `"b" ran beside "a"`);
    assert.deepEqual(runs, ["a", "b", "a"], "the re-added key came back once done");
  });
});
