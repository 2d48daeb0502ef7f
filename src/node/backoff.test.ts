import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { CrashLoopBackoff, goDuration } from "./backoff.js";

describe("CrashLoopBackoff", () => {
  it("restarts at once, then waits 10s, 20s, … up to the cap", () => {
    let now = 1_000_000;
    const b = new CrashLoopBackoff({ baseMs: 10_000, maxMs: 40_000 }, () => now);
    assert.equal(b.restartDelay("p/c", now), 0, "first crash restarts immediately");
    // crashes again right away
    assert.equal(b.restartDelay("p/c", now), 10_000);
    now += 4_000;
    assert.equal(b.restartDelay("p/c", now - 4_000), 6_000, "the wait counts from the finish");
    now += 6_000;
    assert.equal(b.restartDelay("p/c", now - 10_000), 0);
    assert.equal(b.currentDelay("p/c"), 20_000);
    assert.equal(b.restartDelay("p/c", now), 20_000);
    now += 20_000;
    assert.equal(b.restartDelay("p/c", now - 20_000), 0);
    now += 40_000;
    assert.equal(b.restartDelay("p/c", now - 40_000), 0);
    assert.equal(b.currentDelay("p/c"), 40_000, "capped");
  });

  it("starts over after a long healthy run, and per container", () => {
    let now = 0;
    const b = new CrashLoopBackoff({ baseMs: 10, maxMs: 100 }, () => now);
    b.restartDelay("p/a", 0);
    now = 10;
    b.restartDelay("p/a", 0);
    assert.equal(b.currentDelay("p/a"), 20);
    now = 1_000;
    assert.equal(b.restartDelay("p/a", 1_000), 0);
    assert.equal(b.currentDelay("p/a"), 10, "a run longer than 2×max resets");
    assert.equal(b.restartDelay("p/b", 1_000), 0, "keys are independent");
    b.forget("p/");
    assert.equal(b.currentDelay("p/a"), 10);
  });

  it("formats durations as Go does", () => {
    assert.equal(goDuration(10_000), "10s");
    assert.equal(goDuration(80_000), "1m20s");
    assert.equal(goDuration(300_000), "5m0s");
  });
});
