import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { CronJob } from "../../api/index.js";
import { parseSchedule } from "../../api/index.js";
import {
  mostRecentScheduleTime,
  NEXT_SCHEDULE_DELTA_MS,
  nextScheduleDelay,
} from "./schedule-times.js";

const T = (iso: string) => Date.parse(iso);
const iso = (ms: number | undefined) => (ms === undefined ? undefined : new Date(ms).toISOString());

function cronJob(spec: Partial<CronJob["spec"]>, status: CronJob["status"] = {}): CronJob {
  return {
    apiVersion: "batch/v1",
    kind: "CronJob",
    metadata: { name: "c", namespace: "default", creationTimestamp: "2024-05-01T10:00:30Z" },
    spec: { schedule: "* * * * *", jobTemplate: { spec: { template: {} } }, ...spec },
    status,
  };
}

describe("mostRecentScheduleTime", () => {
  const everyMinute = parseSchedule("* * * * *");

  it("has nothing due before the first time after creation", () => {
    const r = mostRecentScheduleTime(cronJob({}), T("2024-05-01T10:00:59Z"), everyMinute, true);
    assert.equal(r.mostRecent, undefined);
    assert.equal(r.missed, "none");
    assert.equal(iso(r.earliest), "2024-05-01T10:00:30.000Z");
  });

  it("finds the one time due", () => {
    const r = mostRecentScheduleTime(cronJob({}), T("2024-05-01T10:01:20Z"), everyMinute, true);
    assert.equal(iso(r.mostRecent), "2024-05-01T10:01:00.000Z");
    assert.equal(r.missed, "none");
  });

  it("finds the most recent of several missed times, counting from the last schedule", () => {
    const cj = cronJob({}, { lastScheduleTime: "2024-05-01T10:05:00Z" });
    const r = mostRecentScheduleTime(cj, T("2024-05-01T10:09:30Z"), everyMinute, true);
    assert.equal(iso(r.mostRecent), "2024-05-01T10:09:00.000Z");
    assert.equal(r.missed, "few");
  });

  it("reports many missed times past 100", () => {
    const r = mostRecentScheduleTime(cronJob({}), T("2024-05-01T13:00:10Z"), everyMinute, true);
    assert.equal(iso(r.mostRecent), "2024-05-01T13:00:00.000Z");
    assert.equal(r.missed, "many");
  });

  it("looks back no further than startingDeadlineSeconds", () => {
    const cj = cronJob({ startingDeadlineSeconds: 30 });
    const r = mostRecentScheduleTime(cj, T("2024-05-01T13:00:40Z"), everyMinute, true);
    assert.equal(r.mostRecent, undefined, "13:00 is more than 30 s ago");
    assert.equal(r.missed, "none");
    const within = mostRecentScheduleTime(cj, T("2024-05-01T13:00:20Z"), everyMinute, true);
    assert.equal(iso(within.mostRecent), "2024-05-01T13:00:00.000Z");
    const ignoring = mostRecentScheduleTime(cj, T("2024-05-01T13:00:40Z"), everyMinute, false);
    assert.equal(iso(ignoring.mostRecent), "2024-05-01T13:00:00.000Z");
  });

  it("handles irregular schedules", () => {
    const s = parseSchedule("30 6-16/4 * * 1-5");
    const cj = cronJob({}, { lastScheduleTime: "2024-05-03T14:30:00Z" }); // a Friday
    const r = mostRecentScheduleTime(cj, T("2024-05-07T11:00:00Z"), s, true); // next Tuesday
    assert.equal(iso(r.mostRecent), "2024-05-07T10:30:00.000Z");
  });

  it("finds @every times from the creation", () => {
    const r = mostRecentScheduleTime(
      cronJob({}),
      T("2024-05-01T10:35:00Z"),
      parseSchedule("@every 10m"),
      true,
    );
    assert.equal(iso(r.mostRecent), "2024-05-01T10:30:30.000Z");
  });

  it("has nothing due for a schedule that never comes", () => {
    const r = mostRecentScheduleTime(
      cronJob({}),
      T("2024-05-01T13:00:00Z"),
      parseSchedule("0 0 31 2 *"),
      true,
    );
    assert.equal(r.mostRecent, undefined);
  });
});

describe("nextScheduleDelay", () => {
  it("waits for the next time after the most recent one, plus 100 ms", () => {
    const cj = cronJob({ schedule: "*/5 * * * *" }, { lastScheduleTime: "2024-05-01T10:05:00Z" });
    const now = T("2024-05-01T10:07:00Z");
    const delay = nextScheduleDelay(cj, now, parseSchedule("*/5 * * * *"));
    assert.equal(delay, 3 * 60_000 + NEXT_SCHEDULE_DELTA_MS);
  });

  it("counts from now when times were missed", () => {
    const cj = cronJob({}, { lastScheduleTime: "2024-05-01T10:05:00Z" });
    const delay = nextScheduleDelay(cj, T("2024-05-01T10:09:30Z"), parseSchedule("* * * * *"));
    assert.equal(delay, 30_000 + NEXT_SCHEDULE_DELTA_MS);
  });

  it("is undefined for a schedule that never comes", () => {
    assert.equal(
      nextScheduleDelay(cronJob({}), T("2024-05-01T13:00:00Z"), parseSchedule("0 0 30 2 *")),
      undefined,
    );
  });
});
