import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { DurationError, parseGoDuration } from "./go-duration.js";

const S = 1_000_000_000n;
const MS = 1_000_000n;

describe("parseGoDuration (Go's time.ParseDuration)", () => {
  // The valid cases of Go's own time/time_test.go parseDurationTests.
  const valid: [string, bigint][] = [
    ["0", 0n],
    ["5s", 5n * S],
    ["30s", 30n * S],
    ["1478s", 1478n * S],
    ["-5s", -5n * S],
    ["+5s", 5n * S],
    ["-0", 0n],
    ["+0", 0n],
    ["5.0s", 5n * S],
    ["5.6s", 5n * S + 600n * MS],
    ["5.s", 5n * S],
    [".5s", 500n * MS],
    ["1.004s", S + 4n * MS],
    ["100.00100s", 100n * S + MS],
    ["10ns", 10n],
    ["11us", 11_000n],
    ["12µs", 12_000n],
    ["12μs", 12_000n],
    ["13ms", 13n * MS],
    ["15m", 15n * 60n * S],
    ["16h", 16n * 3600n * S],
    ["3h30m", 3n * 3600n * S + 30n * 60n * S],
    ["10.5s4m", 4n * 60n * S + 10n * S + 500n * MS],
    ["-2m3.4s", -(2n * 60n * S + 3n * S + 400n * MS)],
    ["1h2m3s4ms5us6ns", 3600n * S + 2n * 60n * S + 3n * S + 4n * MS + 5_000n + 6n],
    ["39h9m14.425s", 39n * 3600n * S + 9n * 60n * S + 14n * S + 425n * MS],
    ["52763797000ns", 52763797000n],
    ["0.3333333333333333333h", 20n * 60n * S],
    ["9007199254740993ns", 9007199254740993n],
    ["9223372036854775807ns", 9223372036854775807n],
    ["9223372036854775.807us", 9223372036854775807n],
    ["9223372036s854ms775us807ns", 9223372036854775807n],
    ["-9223372036854775808ns", -9223372036854775808n],
    ["-9223372036854775.808us", -9223372036854775808n],
    ["0.100000000000000000000h", 6n * 60n * S],
    ["0.830103483285477580700h", 49n * 60n * S + 48n * S + 372539827n],
  ];
  for (const [text, want] of valid)
    it(`parses ${JSON.stringify(text)}`, () => assert.equal(parseGoDuration(text), want));

  const invalid: [string, string][] = [
    ["", 'time: invalid duration ""'],
    ["abc", 'time: invalid duration "abc"'],
    ["3", 'time: missing unit in duration "3"'],
    ["-", 'time: invalid duration "-"'],
    ["s", 'time: invalid duration "s"'],
    [".", 'time: invalid duration "."'],
    ["-.", 'time: invalid duration "-."'],
    [".s", 'time: invalid duration ".s"'],
    ["+.s", 'time: invalid duration "+.s"'],
    ["1d", 'time: unknown unit "d" in duration "1d"'],
    ["20s\u0085", 'time: unknown unit "s\\xc2\\x85" in duration "20s\\xc2\\x85"'],
    ["9223372036854775808ns", 'time: invalid duration "9223372036854775808ns"'],
    ["9223372036854775.808us", 'time: invalid duration "9223372036854775.808us"'],
    ["9223372036854ms775us808ns", 'time: invalid duration "9223372036854ms775us808ns"'],
    ["-9223372036854775809ns", 'time: invalid duration "-9223372036854775809ns"'],
  ];
  for (const [text, message] of invalid)
    it(`refuses ${JSON.stringify(text)} with Go's message`, () =>
      assert.throws(
        () => parseGoDuration(text),
        (e: unknown) => e instanceof DurationError && e.message === message,
      ));
});
