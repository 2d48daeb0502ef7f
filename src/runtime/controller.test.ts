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
    let active = 0;
    let maxActive = 0;
    const perKey = new Map<string, number>();
    let done = 0;
    const c = new Controller(
      {
        reconcile: async (_s, key) => {
          active++;
          perKey.set(key, (perKey.get(key) ?? 0) + 1);
          assert.equal(perKey.get(key), 1, "no two workers on one key");
          maxActive = Math.max(maxActive, active);
          await new Promise((r) => setTimeout(r, 10));
          perKey.set(key, perKey.get(key)! - 1);
          active--;
          done++;
          return DONE;
        },
      },
      { name: "t", workers: 4 },
    );
    const stop = new AbortController();
    const running = c.run(stop.signal);
    for (const k of ["a", "b", "c", "a", "a"]) c.enqueue(k);
    await waitUntil(() => done >= 3);
    stop.abort();
    await running;
    assert.ok(maxActive >= 2);
  });
});
