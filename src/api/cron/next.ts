/**
 * The next activation of a schedule strictly after a given instant, as
 * robfig/cron v3's `Schedule.Next` computes it (kube's CronJob controller calls
 * exactly that): fields are matched on the zone's wall clock; months and days
 * advance by calendar, hours and minutes by elapsed time, so a DST gap skips the
 * missing wall times and an overlap repeats them. Day-of-month and day-of-week
 * are ORed when both are restricted, ANDed when either is `*`. A spec that never
 * matches within five years (e.g. `0 0 30 2 *`) has no next time: undefined.
 */
import { type Schedule, type SpecSchedule, STAR_BIT } from "./parse.js";
import { fromWallClock, type WallClock, wallClock } from "./zone.js";

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;

const has = (set: bigint, v: number) => (set & (1n << BigInt(v))) !== 0n;

function dayMatches(s: SpecSchedule, w: WallClock): boolean {
  const domMatch = has(s.dom, w.day);
  const dowMatch = has(s.dow, w.weekday);
  if ((s.dom & STAR_BIT) !== 0n || (s.dow & STAR_BIT) !== 0n) return domMatch && dowMatch;
  return domMatch || dowMatch;
}

/** Epoch ms of the first activation after `afterMs`, or undefined when there is none. */
export function nextTime(schedule: Schedule, afterMs: number): number | undefined {
  if (schedule.kind === "every") return afterMs - (afterMs % SECOND) + schedule.delayMs;
  return nextSpecTime(schedule, afterMs);
}

function nextSpecTime(s: SpecSchedule, afterMs: number): number | undefined {
  const z = s.zone;
  const at = (t: number) => wallClock(t, z);
  // Start at the earliest possible time: the upcoming whole second.
  let t = Math.floor(afterMs / SECOND) * SECOND + SECOND;
  let added = false;
  const yearLimit = at(t).year + 5;

  wrap: for (;;) {
    if (at(t).year > yearLimit) return undefined;

    while (!has(s.month, at(t).month)) {
      const w = at(t);
      if (!added) {
        added = true;
        t = fromWallClock(z, w.year, w.month, 1);
      }
      const v = at(t);
      t = fromWallClock(z, v.year, v.month + 1, v.day, v.hour, v.minute, v.second);
      if (at(t).month === 1) continue wrap;
    }

    while (!dayMatches(s, at(t))) {
      const w = at(t);
      if (!added) {
        added = true;
        t = fromWallClock(z, w.year, w.month, w.day);
      }
      const v = at(t);
      t = fromWallClock(z, v.year, v.month, v.day + 1, v.hour, v.minute, v.second);
      // Midnight may not exist (DST at midnight): come back to the day's first hour.
      const h = at(t).hour;
      if (h !== 0) t = h > 12 ? t + (24 - h) * HOUR : t - h * HOUR;
      if (at(t).day === 1) continue wrap;
    }

    while (!has(s.hour, at(t).hour)) {
      if (!added) {
        added = true;
        const w = at(t);
        t = fromWallClock(z, w.year, w.month, w.day, w.hour);
      }
      t += HOUR;
      if (at(t).hour === 0) continue wrap;
    }

    while (!has(s.minute, at(t).minute)) {
      if (!added) {
        added = true;
        t -= t % MINUTE;
      }
      t += MINUTE;
      if (at(t).minute === 0) continue wrap;
    }

    while (!has(s.second, at(t).second)) {
      if (!added) {
        added = true;
        t -= t % SECOND;
      }
      t += SECOND;
      if (at(t).second === 0) continue wrap;
    }
    return t;
  }
}
