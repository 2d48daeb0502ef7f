import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { nextTime } from "./next.js";
import { parseSchedule } from "./parse.js";

const at = (iso: string) => Date.parse(iso);
const next = (spec: string, after: string, zone?: string) => {
  const t = nextTime(parseSchedule(spec, zone), at(after));
  return t === undefined ? undefined : new Date(t).toISOString();
};

describe("nextTime", () => {
  it("is strictly after the given instant", () => {
    assert.equal(next("* * * * *", "2024-01-01T10:00:00.000Z"), "2024-01-01T10:01:00.000Z");
    assert.equal(next("* * * * *", "2024-01-01T10:00:59.500Z"), "2024-01-01T10:01:00.000Z");
    assert.equal(next("@hourly", "2024-01-01T10:00:00Z"), "2024-01-01T11:00:00.000Z");
  });

  it("walks minutes, hours, days and months", () => {
    assert.equal(next("*/15 * * * *", "2024-01-01T00:07:30Z"), "2024-01-01T00:15:00.000Z");
    assert.equal(next("0 0 * * *", "2024-02-28T12:00:00Z"), "2024-02-29T00:00:00.000Z");
    assert.equal(next("0 0 1 * *", "2024-12-15T00:00:00Z"), "2025-01-01T00:00:00.000Z");
    assert.equal(next("@yearly", "2024-06-01T00:00:00Z"), "2025-01-01T00:00:00.000Z");
    assert.equal(next("@weekly", "2024-03-06T12:00:00Z"), "2024-03-10T00:00:00.000Z");
    assert.equal(next("0 12 29 feb *", "2024-03-01T00:00:00Z"), "2028-02-29T12:00:00.000Z");
  });

  it("skips weekends for mon-fri", () => {
    assert.equal(next("0 9 * * mon-fri", "2024-03-01T10:00:00Z"), "2024-03-04T09:00:00.000Z");
  });

  it("ORs day of month and day of week when both are restricted", () => {
    // 2024-09-06 is the first Friday; the 13th comes later.
    assert.equal(next("0 0 13 * fri", "2024-09-01T00:00:00Z"), "2024-09-06T00:00:00.000Z");
    // With day of week `*`, only the 13th matches.
    assert.equal(next("0 0 13 * *", "2024-09-01T00:00:00Z"), "2024-09-13T00:00:00.000Z");
  });

  it("has no next time for a date that never comes", () => {
    assert.equal(next("0 0 30 2 *", "2024-01-01T00:00:00Z"), undefined);
  });

  it("matches the wall clock of the schedule's zone", () => {
    // 09:00 in New York is 14:00Z in winter and 13:00Z after the March change.
    assert.equal(
      next("0 9 * * *", "2024-03-08T15:00:00Z", "America/New_York"),
      "2024-03-09T14:00:00.000Z",
    );
    assert.equal(
      next("0 9 * * *", "2024-03-09T15:00:00Z", "America/New_York"),
      "2024-03-10T13:00:00.000Z",
    );
    assert.equal(
      next("TZ=Asia/Kolkata 30 5 * * *", "2023-12-31T23:00:00Z"),
      "2024-01-01T00:00:00.000Z",
    );
  });

  it("skips a wall time that a DST gap removes and repeats one an overlap doubles", () => {
    // 02:30 does not exist in New York on 2024-03-10.
    assert.equal(
      next("30 2 * * *", "2024-03-10T04:00:00Z", "America/New_York"),
      "2024-03-11T06:30:00.000Z",
    );
    // 01:30 happens twice on 2024-11-03: 05:30Z (EDT) and 06:30Z (EST).
    assert.equal(
      next("30 1 * * *", "2024-11-03T05:30:00Z", "America/New_York"),
      "2024-11-03T06:30:00.000Z",
    );
  });

  it("adds the delay of @every to the instant's whole second", () => {
    assert.equal(next("@every 90s", "2024-01-01T10:00:00.700Z"), "2024-01-01T10:01:30.000Z");
  });
});
