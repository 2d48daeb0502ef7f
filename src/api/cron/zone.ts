/**
 * Wall-clock time in an IANA time zone, with the semantics of Go's `time`
 * package that kube's cron library relies on: `wallClock` is `t.In(loc)`'s fields,
 * `fromWallClock` is `time.Date(…, loc)` (fields may overflow and are
 * normalised; a wall time inside a DST gap or overlap resolves as Go resolves
 * it). Built on Intl, so any zone Node's ICU knows works; "UTC" is a fast path.
 */

export interface WallClock {
  year: number;
  /** 1–12. */
  month: number;
  /** 1–31. */
  day: number;
  hour: number;
  minute: number;
  second: number;
  /** 0 = Sunday. */
  weekday: number;
}

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(zone: string): Intl.DateTimeFormat {
  let f = formatters.get(zone);
  if (!f) {
    f = new Intl.DateTimeFormat("en-US", {
      timeZone: zone,
      hourCycle: "h23",
      year: "numeric",
      month: "numeric",
      day: "numeric",
      hour: "numeric",
      minute: "numeric",
      second: "numeric",
    });
    formatters.set(zone, f);
  }
  return f;
}

/** Undefined when Node knows `zone`, else Go's `unknown time zone <zone>`. */
export function timeZoneError(zone: string): string | undefined {
  if (zone === "" || zone === "UTC") return undefined;
  try {
    formatter(zone);
    return undefined;
  } catch {
    return `unknown time zone ${zone}`;
  }
}

/** The wall clock at instant `ms` in `zone`. */
export function wallClock(ms: number, zone: string): WallClock {
  const second = Math.floor(ms / 1000) * 1000;
  if (zone === "UTC") {
    const d = new Date(second);
    return {
      year: d.getUTCFullYear(),
      month: d.getUTCMonth() + 1,
      day: d.getUTCDate(),
      hour: d.getUTCHours(),
      minute: d.getUTCMinutes(),
      second: d.getUTCSeconds(),
      weekday: d.getUTCDay(),
    };
  }
  const parts: Record<string, number> = {};
  for (const p of formatter(zone).formatToParts(new Date(second)))
    if (p.type !== "literal") parts[p.type] = Number(p.value);
  const year = parts.year!;
  const month = parts.month!;
  const day = parts.day!;
  return {
    year,
    month,
    day,
    hour: parts.hour!,
    minute: parts.minute!,
    second: parts.second!,
    weekday: new Date(Date.UTC(year, month - 1, day)).getUTCDay(),
  };
}

/** The zone's offset from UTC at instant `ms`, in ms. */
function offsetAt(ms: number, zone: string): number {
  if (zone === "UTC") return 0;
  const w = wallClock(ms, zone);
  const asUtc = Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute, w.second);
  return asUtc - Math.floor(ms / 1000) * 1000;
}

/** Go's `time.Date(year, month, day, hour, minute, second, 0, zone)`, as epoch ms. */
export function fromWallClock(
  zone: string,
  year: number,
  month: number,
  day: number,
  hour = 0,
  minute = 0,
  second = 0,
): number {
  const d = new Date(0);
  d.setUTCFullYear(year, month - 1, day);
  d.setUTCHours(hour, minute, second, 0);
  const wall = d.getTime();
  let offset = offsetAt(wall, zone);
  if (offset !== 0) {
    const guess = wall - offset;
    const there = offsetAt(guess, zone);
    if (there !== offset) offset = there;
  }
  return wall - offset;
}
