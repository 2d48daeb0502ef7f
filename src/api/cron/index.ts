/**
 * Cron schedules with Kubernetes' semantics (robfig/cron v3): parsing with its
 * error messages, the next activation in a time zone, and Go's duration syntax.
 * Shared by the apiserver (CronJob validation) and the CronJob controller.
 */
export { parseGoDuration } from "./duration.js";
export { nextTime } from "./next.js";
export {
  CronSyntaxError,
  parseSchedule,
  type Schedule,
  type SpecSchedule,
  STAR_BIT,
} from "./parse.js";
export { fromWallClock, timeZoneError, type WallClock, wallClock } from "./zone.js";
