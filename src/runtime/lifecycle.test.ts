/** untilAborted and onStop: they wait for the signal, and only for it. */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { onStop, untilAborted } from "./lifecycle.js";

/** "pending" if `p` has not settled once every callback already queued has run. */
async function state(p: Promise<unknown>): Promise<"settled" | "pending"> {
  const pending = Symbol("pending");
  const r = await Promise.race([
    p.then(() => "settled" as const),
    new Promise((res) => setImmediate(() => res(pending))),
  ]);
  return r === pending ? "pending" : "settled";
}

describe("untilAborted", () => {
  it("resolves when the signal aborts, not before", async () => {
    const stop = new AbortController();
    const waiting = untilAborted(stop.signal);
    assert.equal(await state(waiting), "pending");
    stop.abort(new Error("stopping"));
    assert.equal(await state(waiting), "settled");
    await waiting; // resolves, whatever the abort reason
  });

  it("resolves at once for a signal already aborted", async () => {
    assert.equal(await state(untilAborted(AbortSignal.abort())), "settled");
  });

  it("leaves no listener behind once the signal has aborted", async () => {
    const stop = new AbortController();
    let listeners = 0;
    const add = stop.signal.addEventListener.bind(stop.signal);
    stop.signal.addEventListener = ((...args: Parameters<typeof add>) => {
      listeners++;
      add(...args);
    }) as typeof add;
    const waiting = untilAborted(stop.signal);
    assert.equal(listeners, 1);
    stop.abort();
    await waiting;
    // `once`: aborting again (a no-op) cannot call it twice; a second wait adds none.
    await untilAborted(stop.signal);
    assert.equal(listeners, 1);
  });
});

describe("onStop", () => {
  it("runs its function only after the signal aborts, and start waits for it", async () => {
    const calls: string[] = [];
    let finish: () => void = () => {};
    const runnable = onStop(async () => {
      calls.push("flush started");
      await new Promise<void>((resolve) => {
        finish = resolve;
      });
      calls.push("flush done");
    });
    const stop = new AbortController();
    const running = runnable.start(stop.signal);
    assert.equal(await state(running), "pending");
    assert.deepEqual(calls, [], "nothing runs while the signal is live");
    stop.abort();
    assert.equal(await state(running), "pending", "start waits for the function");
    assert.deepEqual(calls, ["flush started"]);
    finish();
    await running;
    assert.deepEqual(calls, ["flush started", "flush done"]);
  });

  it("passes on the function's failure", async () => {
    const runnable = onStop(() => Promise.reject(new Error("cannot flush")));
    await assert.rejects(runnable.start(AbortSignal.abort()), /cannot flush/);
  });
});
