/** The clocks: a FakeClock moves only on `advance`, and both clocks' sleeps end on abort. */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { FakeClock, realClock } from "./clock.js";

describe("FakeClock", () => {
  it("stands still until advanced, then wakes the sleepers that are due, in order", async () => {
    const clock = new FakeClock(1_000);
    const woke: string[] = [];
    const a = clock.sleep(300).then(() => woke.push(`a@${clock.now()}`));
    const b = clock.sleep(100).then(() => woke.push(`b@${clock.now()}`));
    const c = clock.sleep(500).then(() => woke.push(`c@${clock.now()}`));
    assert.equal(clock.sleeping, 3);
    clock.advance(99);
    await Promise.resolve();
    assert.deepEqual(woke, []);
    clock.advance(201);
    await Promise.all([a, b]);
    assert.deepEqual(woke, ["b@1300", "a@1300"]);
    assert.equal(clock.sleeping, 1);
    clock.advance(200);
    await c;
    assert.equal(clock.now(), 1_500);
    assert.equal(clock.sleeping, 0);
  });

  it("ends a sleep when its signal aborts, and does not start one on an aborted signal", async () => {
    const clock = new FakeClock();
    const stop = new AbortController();
    const sleeping = clock.sleep(60_000, stop.signal);
    assert.equal(clock.sleeping, 1);
    stop.abort();
    await sleeping;
    assert.equal(clock.sleeping, 0);
    await clock.sleep(60_000, stop.signal);
    assert.equal(clock.sleeping, 0);
    assert.equal(clock.now(), new FakeClock().now(), "no time passed");
  });
});

describe("realClock", () => {
  it("ends a long sleep on abort", async () => {
    const stop = new AbortController();
    const started = Date.now();
    const sleeping = realClock.sleep(60_000, stop.signal);
    stop.abort();
    await sleeping;
    assert.ok(Date.now() - started < 10_000);
    assert.ok(Math.abs(realClock.now() - Date.now()) < 1_000);
  });
});
