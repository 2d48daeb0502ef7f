/**
 * Cron schedules as Kubernetes reads them: robfig/cron v3's `ParseStandard` —
 * five fields (minute, hour, day of month, month, day of week) with `*`, `?`,
 * ranges `a-b`, steps `/n`, lists `a,b`, month and weekday names; the
 * descriptors `@yearly`/`@annually`, `@monthly`, `@weekly`, `@daily`/`@midnight`,
 * `@hourly` and `@every <duration>`; an optional `TZ=`/`CRON_TZ=` prefix. Errors
 * are thrown as CronSyntaxError with robfig's wording, which kube shows to users
 * (`spec.schedule: Invalid value: "…": <message>`).
 */
import { parseGoDuration } from "./duration.js";
import { timeZoneError } from "./zone.js";

/** Set when a field was `*` or `?`: day-of-month and day-of-week then AND instead of OR. */
export const STAR_BIT = 2n ** 63n;

/** Bit sets over each field's values; `second` is always just 0 for standard specs. */
export interface SpecSchedule {
  kind: "spec";
  second: bigint;
  minute: bigint;
  hour: bigint;
  dom: bigint;
  month: bigint;
  dow: bigint;
  zone: string;
}

/** `@every d`: d (whole seconds, at least one) after each time. */
export interface EverySchedule {
  kind: "every";
  delayMs: number;
}

export type Schedule = SpecSchedule | EverySchedule;

export class CronSyntaxError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "CronSyntaxError";
  }
}

interface Bounds {
  min: number;
  max: number;
  names?: Record<string, number>;
}

const MONTH_NAMES = [
  "jan",
  "feb",
  "mar",
  "apr",
  "may",
  "jun",
  "jul",
  "aug",
  "sep",
  "oct",
  "nov",
  "dec",
];
const DOW_NAMES = ["sun", "mon", "tue", "wed", "thu", "fri", "sat"];

const MINUTES: Bounds = { min: 0, max: 59 };
const HOURS: Bounds = { min: 0, max: 23 };
const DOM: Bounds = { min: 1, max: 31 };
const MONTHS: Bounds = {
  min: 1,
  max: 12,
  names: Object.fromEntries(MONTH_NAMES.map((n, i) => [n, i + 1])),
};
const DOW: Bounds = { min: 0, max: 6, names: Object.fromEntries(DOW_NAMES.map((n, i) => [n, i])) };

function bits(min: number, max: number, step: number): bigint {
  let out = 0n;
  for (let i = min; i <= max; i += step) out |= 1n << BigInt(i);
  return out;
}

const all = (r: Bounds) => bits(r.min, r.max, 1) | STAR_BIT;
const one = (v: number) => 1n << BigInt(v);

/** Go's strconv.Atoi, then the non-negative check of robfig's mustParseInt. */
function parseInteger(expr: string): number {
  const atoi = /^[+-]?\d+$/.test(expr) ? Number(expr) : Number.NaN;
  if (Number.isNaN(atoi))
    throw new CronSyntaxError(
      `failed to parse int from ${expr}: strconv.Atoi: parsing ${JSON.stringify(expr)}: invalid syntax`,
    );
  if (!Number.isSafeInteger(atoi))
    throw new CronSyntaxError(
      `failed to parse int from ${expr}: strconv.Atoi: parsing ${JSON.stringify(expr)}: value out of range`,
    );
  if (atoi < 0) throw new CronSyntaxError(`negative number (${atoi}) not allowed: ${expr}`);
  return atoi;
}

function parseIntOrName(expr: string, r: Bounds): number {
  const named = r.names?.[expr.toLowerCase()];
  return named ?? parseInteger(expr);
}

function getRange(expr: string, r: Bounds): bigint {
  const rangeAndStep = expr.split("/");
  const lowAndHigh = rangeAndStep[0]!.split("-");
  const singleDigit = lowAndHigh.length === 1;
  let start: number;
  let end: number;
  let extra = 0n;
  if (lowAndHigh[0] === "*" || lowAndHigh[0] === "?") {
    start = r.min;
    end = r.max;
    extra = STAR_BIT;
  } else {
    start = parseIntOrName(lowAndHigh[0]!, r);
    if (lowAndHigh.length === 1) end = start;
    else if (lowAndHigh.length === 2) end = parseIntOrName(lowAndHigh[1]!, r);
    else throw new CronSyntaxError(`too many hyphens: ${expr}`);
  }
  let step = 1;
  if (rangeAndStep.length === 2) {
    step = parseInteger(rangeAndStep[1]!);
    if (singleDigit) end = r.max; // "N/step" means "N-max/step"
    if (step > 1) extra = 0n;
  } else if (rangeAndStep.length > 2) {
    throw new CronSyntaxError(`too many slashes: ${expr}`);
  }
  if (start < r.min)
    throw new CronSyntaxError(`beginning of range (${start}) below minimum (${r.min}): ${expr}`);
  if (end > r.max)
    throw new CronSyntaxError(`end of range (${end}) above maximum (${r.max}): ${expr}`);
  if (start > end)
    throw new CronSyntaxError(
      `beginning of range (${start}) beyond end of range (${end}): ${expr}`,
    );
  if (step === 0) throw new CronSyntaxError(`step of range should be a positive number: ${expr}`);
  return bits(start, end, step) | extra;
}

function getField(field: string, r: Bounds): bigint {
  let out = 0n;
  for (const expr of field.split(",").filter((e) => e !== "")) out |= getRange(expr, r);
  return out;
}

function descriptor(spec: string, zone: string): Schedule {
  const base = { kind: "spec" as const, second: one(0), minute: one(0), zone };
  switch (spec) {
    case "@yearly":
    case "@annually":
      return { ...base, hour: one(0), dom: one(1), month: one(1), dow: all(DOW) };
    case "@monthly":
      return { ...base, hour: one(0), dom: one(1), month: all(MONTHS), dow: all(DOW) };
    case "@weekly":
      return { ...base, hour: one(0), dom: all(DOM), month: all(MONTHS), dow: one(0) };
    case "@daily":
    case "@midnight":
      return { ...base, hour: one(0), dom: all(DOM), month: all(MONTHS), dow: all(DOW) };
    case "@hourly":
      return { ...base, hour: all(HOURS), dom: all(DOM), month: all(MONTHS), dow: all(DOW) };
  }
  if (spec.startsWith("@every ")) {
    let ms: number;
    try {
      ms = parseGoDuration(spec.slice("@every ".length));
    } catch (e) {
      throw new CronSyntaxError(`failed to parse duration ${spec}: ${(e as Error).message}`);
    }
    return { kind: "every", delayMs: ms < 1000 ? 1000 : ms - (ms % 1000) };
  }
  throw new CronSyntaxError(`unrecognized descriptor: ${spec}`);
}

/**
 * Parses a standard cron spec. Schedules without a `TZ=` prefix run in
 * `defaultZone` (kube uses the controller manager's local zone; Hearth uses UTC).
 */
export function parseSchedule(text: string, defaultZone = "UTC"): Schedule {
  let spec = text;
  if (spec.length === 0) throw new CronSyntaxError("empty spec string");
  let zone = defaultZone;
  if (spec.startsWith("TZ=") || spec.startsWith("CRON_TZ=")) {
    const space = spec.indexOf(" ");
    const name = spec.slice(spec.indexOf("=") + 1, space < 0 ? undefined : space);
    const bad = timeZoneError(name);
    if (bad) throw new CronSyntaxError(`provided bad location ${name}: ${bad}`);
    zone = name === "" ? "UTC" : name;
    spec = space < 0 ? "" : spec.slice(space).trim();
  }
  if (spec.startsWith("@")) return descriptor(spec, zone);
  const fields = spec.split(/\s+/).filter((f) => f !== "");
  if (fields.length !== 5)
    throw new CronSyntaxError(
      `expected exactly 5 fields, found ${fields.length}: [${fields.join(" ")}]`,
    );
  return {
    kind: "spec",
    second: one(0),
    minute: getField(fields[0]!, MINUTES),
    hour: getField(fields[1]!, HOURS),
    dom: getField(fields[2]!, DOM),
    month: getField(fields[3]!, MONTHS),
    dow: getField(fields[4]!, DOW),
    zone,
  };
}
