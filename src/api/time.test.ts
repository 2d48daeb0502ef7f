/** rfc3339: the same text as formatting each time value afresh, whatever was formatted before. */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { rfc3339 } from "./time.js";

/** The formatting rfc3339 stands for, or the error it throws. */
function fresh(at: number | Date): string {
  try {
    return `${new Date(at).toISOString().slice(0, 19)}Z`;
  } catch (e) {
    return String(e);
  }
}

function cached(at: number | Date): string {
  try {
    return rfc3339(at);
  } catch (e) {
    return String(e);
  }
}

describe("rfc3339", () => {
  it("formats UTC to the second", () => {
    assert.equal(rfc3339(Date.UTC(2026, 0, 2, 3, 4, 5, 678)), "2026-01-02T03:04:05Z");
    assert.equal(
      rfc3339(new Date(Date.UTC(1999, 11, 31, 23, 59, 59, 999))),
      "1999-12-31T23:59:59Z",
    );
    assert.match(rfc3339(), /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
  });

  it("agrees with fresh formatting across second boundaries, signs and fractions", () => {
    const base = Date.UTC(2026, 5, 30, 23, 59, 59);
    const values = [
      base,
      base + 1,
      base + 999,
      base + 1000,
      base + 999.9,
      base - 0.5,
      base - 1,
      0,
      -0,
      -0.5,
      0.5,
      -1,
      -999,
      -1000,
      -1000.5,
      -1001,
      999.999,
      1000,
      1e12 + 0.25,
      8.64e15,
      8.64e15 + 1,
      8.64e15,
      8.64e15 + 999,
      -8.64e15,
      -8.64e15 - 1,
      -8.64e15,
      Number.NaN,
      Number.POSITIVE_INFINITY,
      Number.NEGATIVE_INFINITY,
      base,
    ];
    for (const at of values) {
      assert.equal(cached(at), fresh(at), String(at));
      assert.equal(cached(new Date(at)), fresh(new Date(at)), `Date(${at})`);
    }
  });

  it("agrees with fresh formatting on generated times, in and out of order", () => {
    let at = Date.UTC(2026, 0, 1);
    for (let n = 0; n < 5000; n++) {
      at += ((n * 7919) % 2300) - 1000;
      const value = n % 5 === 0 ? at + 0.375 : at;
      assert.equal(cached(value), fresh(value), String(value));
    }
  });
});
