/** WorkQueue: deduplication, one worker per key, backoff and delays. */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { WorkQueue } from "./workqueue.js";

describe("WorkQueue", () => {
  it("deduplicates keys that wait", async () => {
    const q = new WorkQueue();
    q.add("a");
    q.add("b");
    q.add("a");
    assert.equal(q.length, 2);
    assert.equal(await q.get(), "a");
    assert.equal(await q.get(), "b");
    q.shutDown();
  });

  it("never hands a key being processed to a second worker, and requeues it once done", async () => {
    const q = new WorkQueue();
    q.add("a");
    const first = await q.get();
    q.add("a");
    assert.equal(q.length, 0, "a re-add while processing waits for done()");
    let second: string | undefined;
    const waiting = q.get().then((k) => {
      second = k;
    });
    await Promise.resolve();
    assert.equal(second, undefined);
    q.done(first!);
    await waiting;
    assert.equal(second, "a");
    q.shutDown();
  });

  it("backs off exponentially per key and forgets on success", () => {
    const q = new WorkQueue({ baseMs: 10, maxMs: 40 });
    q.addRateLimited("k");
    q.addRateLimited("k");
    q.addRateLimited("k");
    assert.equal(q.failureCount("k"), 3);
    q.forget("k");
    assert.equal(q.failureCount("k"), 0);
    q.shutDown();
  });

  it("delivers a delayed key after its delay, and shutDown releases waiting workers", async () => {
    const q = new WorkQueue();
    const started = Date.now();
    q.addAfter("later", 30);
    assert.equal(await q.get(), "later");
    assert.ok(Date.now() - started >= 25);
    const pending = q.get();
    q.shutDown();
    assert.equal(await pending, undefined);
  });

  it("keeps the earlier time when a waiting key is added again with a shorter delay", {
    timeout: 10_000,
  }, async () => {
    const q = new WorkQueue();
    q.addAfter("k", 60_000);
    q.addAfter("k", 10);
    q.addAfter("k", 30_000);
    // Without the earlier time this get would wait a minute: past the test's timeout.
    assert.equal(await q.get(), "k");
    q.done("k");
    assert.equal(q.length, 0);
    q.shutDown();
  });
});
