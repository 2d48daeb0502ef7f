/**
 * When a CronJob is due (kube's cronjob utils.go): the most recent scheduled
 * time not yet run — counted from the last schedule time (or the CronJob's
 * creation), never earlier than `startingDeadlineSeconds` ago — whether more
 * than 100 were missed, and how long to wait for the next one (plus kube's
 * 100 ms margin). All times are epoch ms; the clock is the caller's.
 */
import type { CronJob } from "../../api/index.js";
import { nextTime, type Schedule } from "../../api/index.js";

export type Missed = "none" | "few" | "many";

export interface MostRecent {
  /** Where the search started: the last schedule time, the creation time, or the deadline. */
  earliest: number;
  /** The latest scheduled time at or before now, when there is one. */
  mostRecent?: number;
  missed: Missed;
  /** Set for a schedule whose two next times are less than a second apart (never runs). */
  error?: string;
}

/** kube adds this to every requeue so that the clock has surely passed the time. */
export const NEXT_SCHEDULE_DELTA_MS = 100;

export function mostRecentScheduleTime(
  cj: CronJob,
  now: number,
  schedule: Schedule,
  includeStartingDeadline: boolean,
): MostRecent {
  let earliest =
    Date.parse(cj.status?.lastScheduleTime ?? cj.metadata.creationTimestamp ?? "") || 0;
  const deadline = cj.spec.startingDeadlineSeconds;
  if (includeStartingDeadline && deadline !== undefined)
    earliest = Math.max(earliest, now - deadline * 1000);
  const t1 = nextTime(schedule, earliest);
  const t2 = t1 === undefined ? undefined : nextTime(schedule, t1);
  if (t1 === undefined || now < t1) return { earliest, missed: "none" };
  if (t2 === undefined || now < t2) return { earliest, mostRecent: t1, missed: "none" };
  const between = Math.round((t2 - t1) / 1000);
  if (between < 1)
    return {
      earliest,
      missed: "none",
      error: "time difference between two schedules is less than 1 second",
    };
  const elapsed = Math.floor((now - t1) / 1000);
  const missedCount = Math.floor(elapsed / between) + 1;
  // Start two intervals early and let the schedule find the exact times.
  let t = nextTime(schedule, t1 + (missedCount - 2) * between * 1000);
  let mostRecent: number | undefined;
  while (t !== undefined && t <= now) {
    mostRecent = t;
    t = nextTime(schedule, t);
  }
  const missed: Missed = missedCount > 100 ? "many" : "few";
  return mostRecent === undefined ? { earliest, missed } : { earliest, mostRecent, missed };
}

/** kube's nextScheduleTimeDuration: how long until the next run is due. */
export function nextScheduleDelay(
  cj: CronJob,
  now: number,
  schedule: Schedule,
): number | undefined {
  const r = mostRecentScheduleTime(cj, now, schedule, false);
  let from: number;
  if (r.error !== undefined) from = now;
  else if (r.mostRecent !== undefined) from = r.mostRecent;
  else from = r.missed === "none" ? r.earliest : now;
  const next = nextTime(schedule, from);
  return next === undefined ? undefined : next + NEXT_SCHEDULE_DELTA_MS - now;
}
