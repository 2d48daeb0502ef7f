/**
 * Go's `time.ParseDuration`, for `@every <duration>` schedules: signed sequences
 * of decimal numbers with a unit (`ns`, `us`, `µs`, `ms`, `s`, `m`, `h`), e.g.
 * `1h30m`, `90s`, `1.5h`. Errors carry Go's wording, because kube shows them.
 */

const UNIT_MS: Record<string, number> = {
  ns: 1e-6,
  us: 1e-3,
  µs: 1e-3,
  μs: 1e-3,
  ms: 1,
  s: 1000,
  m: 60_000,
  h: 3_600_000,
};

const quote = (s: string) => JSON.stringify(s);

/** Milliseconds in `text`; throws an Error with Go's message when it is not a duration. */
export function parseGoDuration(text: string): number {
  let s = text;
  let sign = 1;
  if (s.startsWith("-") || s.startsWith("+")) {
    if (s[0] === "-") sign = -1;
    s = s.slice(1);
  }
  if (s === "0") return 0;
  if (s === "") throw new Error(`time: invalid duration ${quote(text)}`);
  let total = 0;
  while (s !== "") {
    const num = /^(\d*)(?:\.(\d*))?/.exec(s)!;
    if (num[0] === "" || num[0] === ".") throw new Error(`time: invalid duration ${quote(text)}`);
    s = s.slice(num[0].length);
    const unit = /^[^\d.]*/.exec(s)![0];
    if (unit === "") throw new Error(`time: missing unit in duration ${quote(text)}`);
    const ms = UNIT_MS[unit];
    if (ms === undefined)
      throw new Error(`time: unknown unit ${quote(unit)} in duration ${quote(text)}`);
    s = s.slice(unit.length);
    total += Number(num[0]) * ms;
  }
  return sign * total;
}
