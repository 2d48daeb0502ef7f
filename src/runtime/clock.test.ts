/**
 * The clocks: a FakeClock moves only on `advance` and fires its timers in due
 * order (creation order for equal times), cancel stops a timer, and both
 * clocks' sleeps end on abort.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { FakeClock, realClock } from "./clock.js";

describe("FakeClock timers", () => {
  it("fires timers in due order, equal times first come first served, each at its due time", () => {
    const clock = new FakeClock(0);
    const fired: string[] = [];
    const at = (name: string) => () => fired.push(`${name}@${clock.now()}`);
    clock.after(30, at("c"));
    clock.after(10, at("a1"));
    clock.after(20, at("b"));
    clock.after(10, at("a2"));
    clock.after(0, at("zero"));
    assert.equal(clock.pending, 5);
    assert.equal(clock.nextDue(), 0);
    clock.advance(0);
    assert.deepEqual(fired, ["zero@0"]);
    clock.advance(9);
    assert.deepEqual(fired, ["zero@0"], "nothing before its time");
    clock.advance(100);
    assert.deepEqual(fired, ["zero@0", "a1@10", "a2@10", "b@20", "c@30"]);
    assert.equal(clock.now(), 109, "the advance ends where it was told to");
    assert.equal(clock.pending, 0);
    assert.equal(clock.nextDue(), undefined);
  });

  it("fires, in the same advance, a timer that a firing timer sets within it", () => {
    const clock = new FakeClock(0);
    const fired: number[] = [];
    const every10 = () => {
      fired.push(clock.now());
      clock.after(10, every10);
    };
    clock.after(10, every10);
    clock.advance(35);
    assert.deepEqual(fired, [10, 20, 30]);
    assert.equal(clock.nextDue(), 40);
  });

  it("cancels: a cancelled timer never fires, and a late cancel is harmless", () => {
    const clock = new FakeClock(0);
    const fired: string[] = [];
    const cancelA = clock.after(10, () => fired.push("a"));
    const cancelB = clock.after(20, () => fired.push("b"));
    clock.after(10, () => cancelB());
    cancelA();
    assert.equal(clock.pending, 2);
    clock.advance(100);
    assert.deepEqual(fired, [], "a cancelled before, b by a timer that fired first");
    cancelA();
    assert.equal(clock.pending, 0);
  });

  it("advanceTo moves to an absolute time and never backwards", () => {
    const clock = new FakeClock(1_000);
    let fired = 0;
    clock.after(500, () => fired++);
    clock.advanceTo(1_500);
    assert.equal(fired, 1);
    clock.advanceTo(1_200);
    assert.equal(clock.now(), 1_500);
  });
});

describe("FakeClock sleep", () => {
  it("stands still until advanced, then wakes the sleepers that are due, in order", async () => {
    const clock = new FakeClock(1_000);
    const woke: string[] = [];
    const a = clock.sleep(300).then(() => woke.push(`a@${clock.now()}`));
    const b = clock.sleep(100).then(() => woke.push(`b@${clock.now()}`));
    const c = clock.sleep(500).then(() => woke.push(`c@${clock.now()}`));
    assert.equal(clock.pending, 3);
    clock.advance(99);
    await Promise.resolve();
    assert.deepEqual(woke, []);
    clock.advance(201);
    await Promise.all([a, b]);
    // A woken sleeper runs after the advance, so it sees its end.
    assert.deepEqual(woke, ["b@1300", "a@1300"]);
    assert.equal(clock.pending, 1);
    clock.advance(200);
    await c;
    assert.equal(clock.now(), 1_500);
    assert.equal(clock.pending, 0);
  });

  it("ends a sleep when its signal aborts, and does not start one on an aborted signal", async () => {
    const clock = new FakeClock();
    const stop = new AbortController();
    const sleeping = clock.sleep(60_000, stop.signal);
    assert.equal(clock.pending, 1);
    stop.abort();
    await sleeping;
    assert.equal(clock.pending, 0, "the abort cancels the sleep's timer");
    await clock.sleep(60_000, stop.signal);
    assert.equal(clock.pending, 0);
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

  it("fires a timer once, and not once cancelled", async () => {
    const fired: string[] = [];
    const cancel = realClock.after(0, () => fired.push("cancelled"));
    cancel();
    await new Promise<void>((resolve) => realClock.after(1, resolve));
    assert.deepEqual(fired, []);
  });
});
