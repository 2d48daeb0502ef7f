/**
 * Go's `time.ParseDuration`, which kube-apiserver applies to the `timeout`
 * query parameter: a signed sequence of decimal numbers, each with an optional
 * fraction and a unit (`ns`, `us`, `µs`, `μs`, `ms`, `s`, `m`, `h`), such as
 * "300ms", "-1.5h" or "2h45m"; "0" alone needs no unit. The result is in
 * nanoseconds (a bigint, as Go's int64), and a failure carries Go's own error
 * text, which kube copies into its 400.
 */

const UNITS = new Map<string, bigint>([
  ["ns", 1n],
  ["us", 1_000n],
  ["µs", 1_000n], // U+00B5 micro sign
  ["μs", 1_000n], // U+03BC Greek small letter mu
  ["ms", 1_000_000n],
  ["s", 1_000_000_000n],
  ["m", 60_000_000_000n],
  ["h", 3_600_000_000_000n],
]);

const MAX_INT64 = (1n << 63n) - 1n;

export class DurationError extends Error {}

/** Go's `time.quote`: ASCII as is (with `"` and `\` escaped), every other byte as `\xNN`. */
function goQuote(s: string): string {
  let out = '"';
  for (const ch of s) {
    const c = ch.codePointAt(0)!;
    if (c >= 0x80 || c < 0x20) {
      for (const b of Buffer.from(ch)) out += `\\x${b.toString(16).padStart(2, "0")}`;
    } else out += ch === '"' || ch === "\\" ? `\\${ch}` : ch;
  }
  return `${out}"`;
}

const isDigit = (c: string | undefined) => c !== undefined && c >= "0" && c <= "9";

/**
 * Go's `leadingFraction` and its scaling: the digits as an integer (those past
 * int64 precision dropped) times unit/10^digits in float64, truncated, so that
 * the rounding is Go's to the nanosecond.
 */
function fractionNanoseconds(digits: string, unit: bigint): bigint {
  let x = 0n;
  let scale = 1;
  for (const d of digits) {
    if (x > MAX_INT64 / 10n) break;
    const y = x * 10n + BigInt(d);
    if (y > 1n << 63n) break;
    x = y;
    scale *= 10;
  }
  return BigInt(Math.trunc(Number(x) * (Number(unit) / scale)));
}

/** Parses `text` as Go does; throws a DurationError with Go's message. */
export function parseGoDuration(text: string): bigint {
  const invalid = () => new DurationError(`time: invalid duration ${goQuote(text)}`);
  let s = text;
  let negative = false;
  if (s[0] === "-" || s[0] === "+") {
    negative = s[0] === "-";
    s = s.slice(1);
  }
  if (s === "0") return 0n;
  if (s === "") throw invalid();
  let total = 0n;
  while (s !== "") {
    let i = 0;
    while (isDigit(s[i])) i++;
    const whole = s.slice(0, i);
    let fraction = "";
    if (s[i] === ".") {
      let j = i + 1;
      while (isDigit(s[j])) j++;
      fraction = s.slice(i + 1, j);
      i = j;
    }
    if (whole === "" && fraction === "") throw invalid();
    let u = i;
    while (u < s.length && s[u] !== "." && !isDigit(s[u])) u++;
    const unitName = s.slice(i, u);
    if (unitName === "") throw new DurationError(`time: missing unit in duration ${goQuote(text)}`);
    const unit = UNITS.get(unitName);
    if (unit === undefined)
      throw new DurationError(
        `time: unknown unit ${goQuote(unitName)} in duration ${goQuote(text)}`,
      );
    const wholeValue = BigInt(whole || "0");
    if (wholeValue > (1n << 63n) / unit) throw invalid();
    const value = wholeValue * unit + fractionNanoseconds(fraction, unit);
    if (value > 1n << 63n) throw invalid();
    total += value;
    if (total > 1n << 63n) throw invalid();
    s = s.slice(u);
  }
  if (negative) return -total;
  if (total > MAX_INT64) throw invalid();
  return total;
}
