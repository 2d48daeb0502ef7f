/**
 * WorkQueue timing on a FakeClock (time moves only when a test advances it, so
 * no test waits on the machine's clock): the back-off schedule and its cap,
 * forget, addAfter's earliest-time-wins, delayed keys meeting waiting and
 * processing keys, and shutDown cancelling what is still pending.
 */
import assert from "node:assert/strict";
import { beforeEach, describe, it } from "node:test";
import { FakeClock } from "./clock.js";
import { type BackoffOptions, DEFAULT_BACKOFF, WorkQueue } from "./workqueue.js";

let clock: FakeClock;
beforeEach(() => {
  clock = new FakeClock(0);
});

/** A queue on this test's clock. */
const queue = (backoff: BackoffOptions = DEFAULT_BACKOFF) => new WorkQueue(backoff, clock);

/** Keys the queue hands out right now, without waiting (each marked done). */
async function drain(q: WorkQueue): Promise<string[]> {
  const out: string[] = [];
  while (q.length > 0) {
    const key = await q.get();
    if (key === undefined) break;
    out.push(key);
    q.done(key);
  }
  return out;
}

/** The ms after which a rate-limited `key` first shows up in the queue. */
async function delayOf(q: WorkQueue, key: string, limit = 100_000): Promise<number> {
  for (let t = 0; t <= limit; t++) {
    if (q.length > 0) {
      assert.deepEqual(await drain(q), [key]);
      return t;
    }
    clock.advance(1);
  }
  assert.fail(`${key} never came back within ${limit} ms`);
}

describe("WorkQueue back-off (FakeClock)", () => {
  const cases = [
    {
      name: "doubles from the base",
      backoff: { baseMs: 5, maxMs: 1000 },
      want: [5, 10, 20, 40, 80],
    },
    { name: "stops at the cap", backoff: { baseMs: 100, maxMs: 300 }, want: [100, 200, 300, 300] },
    {
      name: "a base above the cap is capped at once",
      backoff: { baseMs: 50, maxMs: 20 },
      want: [20, 20],
    },
  ];
  for (const c of cases) {
    it(`${c.name}: ${c.want.join(", ")} ms`, async () => {
      const q = queue(c.backoff);
      const got: number[] = [];
      for (let i = 0; i < c.want.length; i++) {
        q.addRateLimited("k");
        got.push(await delayOf(q, "k"));
      }
      assert.deepEqual(got, c.want);
      assert.equal(q.failureCount("k"), c.want.length);
      q.shutDown();
    });
  }

  it("keeps one failure count per key, and forget resets only that key", async () => {
    const q = queue({ baseMs: 10, maxMs: 10_000 });
    for (let i = 0; i < 3; i++) q.addRateLimited("a");
    q.addRateLimited("b");
    assert.equal(q.failureCount("a"), 3);
    assert.equal(q.failureCount("b"), 1);
    q.forget("a");
    assert.equal(q.failureCount("a"), 0);
    assert.equal(q.failureCount("b"), 1);
    clock.advance(10);
    // "a" waits for its first (earliest) delay, 10 ms; "b" too.
    assert.deepEqual((await drain(q)).sort(), ["a", "b"]);
    q.addRateLimited("a");
    assert.equal(await delayOf(q, "a"), 10, "after forget the schedule starts from the base again");
    q.shutDown();
  });
});

describe("WorkQueue.addAfter (FakeClock)", () => {
  it("holds a key until its delay has fully passed", async () => {
    const q = queue();
    q.addAfter("k", 100);
    clock.advance(99);
    assert.equal(q.length, 0);
    clock.advance(1);
    assert.deepEqual(await drain(q), ["k"]);
  });

  const earliest = [
    { name: "a shorter delay moves the key forward", delays: [500, 100], due: 100 },
    { name: "a longer delay leaves the earlier time", delays: [100, 500], due: 100 },
    { name: "the earliest of many wins", delays: [900, 300, 700, 200, 800], due: 200 },
  ];
  for (const c of earliest) {
    it(`${c.name} (delays ${c.delays.join(", ")} → ${c.due} ms)`, async () => {
      const q = queue();
      for (const ms of c.delays) q.addAfter("k", ms);
      clock.advance(c.due - 1);
      assert.equal(q.length, 0);
      clock.advance(1);
      assert.deepEqual(await drain(q), ["k"]);
      clock.advance(10_000);
      assert.equal(q.length, 0, "the key is delivered once, not once per addAfter");
      q.shutDown();
    });
  }

  // Due times count from the clock's now when each addAfter is made, not from the first.
  const later = [
    {
      name: "a later, shorter delay that falls due first wins",
      first: 100,
      at: 60,
      second: 30,
      due: 90,
    },
    {
      name: "a later, shorter delay that falls due after loses",
      first: 100,
      at: 60,
      second: 50,
      due: 100,
    },
  ];
  for (const c of later) {
    it(`${c.name} (${c.first} ms at 0, ${c.second} ms at ${c.at} → ${c.due} ms)`, async () => {
      const q = queue();
      q.addAfter("k", c.first);
      clock.advance(c.at);
      q.addAfter("k", c.second);
      clock.advance(c.due - c.at - 1);
      assert.equal(q.length, 0);
      clock.advance(1);
      assert.deepEqual(await drain(q), ["k"]);
      clock.advance(10_000);
      assert.equal(q.length, 0, "delivered once");
      assert.equal(clock.pending, 0, "the losing timer was cancelled or never set");
    });
  }

  it("adds at once for a delay of zero or less", async () => {
    const q = queue();
    q.addAfter("zero", 0);
    q.addAfter("negative", -5);
    assert.deepEqual(await drain(q), ["zero", "negative"]);
  });

  it("dedupes a delayed key that arrives while the same key already waits", async () => {
    const q = queue();
    q.add("k");
    q.addAfter("k", 50);
    clock.advance(50);
    assert.equal(q.length, 1);
    assert.deepEqual(await drain(q), ["k"]);
  });

  it("marks a key dirty when its delay ends while a worker holds it", async () => {
    const q = queue();
    q.add("k");
    const key = await q.get();
    q.addAfter("k", 20);
    clock.advance(20);
    assert.equal(q.length, 0, "not handed out while processing");
    q.done(key!);
    assert.deepEqual(await drain(q), ["k"], "back once the worker is done");
  });

  it("wakes a worker that waits for a key when the delay ends", async () => {
    const q = queue();
    let got: string | undefined;
    const waiting = q.get().then((k) => {
      got = k;
    });
    q.addAfter("k", 30);
    clock.advance(29);
    await Promise.resolve();
    assert.equal(got, undefined);
    clock.advance(1);
    await waiting;
    assert.equal(got, "k");
    q.done("k");
    q.shutDown();
  });
});

describe("WorkQueue order and shutdown", () => {
  it("hands keys out first in, first out", async () => {
    const q = queue();
    for (const k of ["c", "a", "b", "a", "c"]) q.add(k);
    assert.deepEqual(await drain(q), ["c", "a", "b"]);
  });

  it("cancels pending delays and back-offs on shutDown, and takes no more keys", async () => {
    const q = queue({ baseMs: 10, maxMs: 100 });
    q.addAfter("later", 50);
    q.addRateLimited("failed");
    q.shutDown();
    q.add("new");
    q.addAfter("new-later", 5);
    clock.advance(1000);
    assert.equal(q.length, 0);
    assert.equal(await q.get(), undefined, "get after shutDown returns at once");
  });

  it("still hands out keys queued before shutDown, then undefined", async () => {
    const q = queue();
    q.add("a");
    q.add("b");
    q.shutDown();
    assert.equal(await q.get(), "a");
    assert.equal(await q.get(), "b");
    assert.equal(await q.get(), undefined);
  });

  it("releases every waiting worker on shutDown", async () => {
    const q = queue();
    const waiting = [q.get(), q.get(), q.get()];
    q.shutDown();
    assert.deepEqual(await Promise.all(waiting), [undefined, undefined, undefined]);
  });

  it("gives a key added while workers wait to the first waiting worker only", async () => {
    const q = queue();
    const first = q.get();
    const second = q.get();
    q.add("k");
    assert.equal(await first, "k");
    q.add("k");
    assert.equal(q.length, 0, "a re-add of a key in processing does not reach the second worker");
    q.done("k");
    assert.equal(await second, "k");
    q.done("k");
    q.shutDown();
  });
});
