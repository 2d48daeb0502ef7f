import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { CpuRates } from "./cpu-rates.js";

const s = (timeNs: number, usageCoreNanoSeconds: number) => ({ timeNs, usageCoreNanoSeconds });

describe("CpuRates", () => {
  it("has no rate from one sample, then the rate over the interval between two", () => {
    const r = new CpuRates();
    assert.equal(r.rate("c", s(1e9, 5e8), true), undefined);
    // 1.5 core-seconds in 2 seconds: 0.75 cores.
    assert.equal(r.rate("c", s(3e9, 2e9), true), 750_000_000);
  });

  it("a read without update reports the last rate and does not move the sample on", () => {
    const r = new CpuRates();
    assert.equal(r.rate("c", s(0, 0), false), undefined, "nothing cached: nothing to report");
    r.rate("c", s(0, 0), true);
    r.rate("c", s(1e9, 1e9), true);
    assert.equal(r.rate("c", s(1.5e9, 1.1e9), false), 1e9);
    // The next update measures from the sample at 1 s, not from the read at 1.5 s.
    assert.equal(r.rate("c", s(2e9, 1.5e9), true), 500_000_000);
  });

  it("starts over when the counter goes backwards; keeps the rate for a sample read twice", () => {
    const r = new CpuRates();
    r.rate("c", s(0, 4e9), true);
    assert.equal(r.rate("c", s(1e9, 5e9), true), 1e9);
    assert.equal(r.rate("c", s(1e9, 5e9), true), 1e9, "zero interval: the rate known");
    assert.equal(r.rate("c", s(2e9, 1e8), true), undefined, "a reset: no rate");
    assert.equal(r.rate("c", s(3e9, 2e8), true), 100_000_000);
  });

  it("keeps series apart and forgets those not retained", () => {
    const r = new CpuRates();
    r.rate("a", s(0, 0), true);
    r.rate("b", s(0, 0), true);
    assert.equal(r.rate("a", s(1e9, 2e8), true), 200_000_000);
    r.retain(new Set(["a"]));
    assert.equal(r.rate("b", s(2e9, 1e9), true), undefined, "b was forgotten");
    assert.equal(r.rate("a", s(2e9, 4e8), true), 200_000_000);
  });
});
