import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { parseGoDuration } from "./duration.js";
import { CronSyntaxError, parseSchedule, STAR_BIT } from "./parse.js";

const fails = (spec: string, message: string) =>
  assert.throws(
    () => parseSchedule(spec),
    (e: unknown) => e instanceof CronSyntaxError && e.message === message,
  );

describe("parseSchedule", () => {
  it("parses the five standard fields into bit sets", () => {
    const s = parseSchedule("*/15 9-17 1,15 jan-MAR mon-fri");
    assert.equal(s.kind, "spec");
    if (s.kind !== "spec") return;
    assert.equal(s.minute, (1n << 0n) | (1n << 15n) | (1n << 30n) | (1n << 45n));
    assert.equal(s.hour, 0b111111111n << 9n);
    assert.equal(s.dom, (1n << 1n) | (1n << 15n));
    assert.equal(s.month, 0b1110n);
    assert.equal(s.dow, 0b111110n);
    assert.equal(s.second, 1n);
    assert.equal(s.zone, "UTC");
  });

  it("marks * and ? with the star bit, but not a */n step", () => {
    const s = parseSchedule("* * ? * */2");
    if (s.kind !== "spec") throw new Error("spec expected");
    assert.notEqual(s.dom & STAR_BIT, 0n);
    assert.notEqual(s.minute & STAR_BIT, 0n);
    assert.equal(s.dow & STAR_BIT, 0n);
    assert.equal(s.dow, (1n << 0n) | (1n << 2n) | (1n << 4n) | (1n << 6n));
  });

  it("reads N/step as N-max/step", () => {
    const s = parseSchedule("50/5 * * * *");
    if (s.kind !== "spec") throw new Error("spec expected");
    assert.equal(s.minute, (1n << 50n) | (1n << 55n));
  });

  it("accepts the descriptors", () => {
    for (const d of [
      "@yearly",
      "@annually",
      "@monthly",
      "@weekly",
      "@daily",
      "@midnight",
      "@hourly",
    ])
      assert.equal(parseSchedule(d).kind, "spec");
    assert.deepEqual(parseSchedule("@every 1h30m"), { kind: "every", delayMs: 5_400_000 });
    assert.deepEqual(parseSchedule("@every 1500ms"), { kind: "every", delayMs: 1000 });
    assert.deepEqual(parseSchedule("@every 10ms"), { kind: "every", delayMs: 1000 });
  });

  it("takes a TZ= or CRON_TZ= prefix as the zone", () => {
    const s = parseSchedule("CRON_TZ=Europe/Berlin 0 6 * * *");
    assert.equal(s.kind === "spec" && s.zone, "Europe/Berlin");
    assert.equal(parseSchedule("0 6 * * *", "Asia/Tokyo").kind === "spec", true);
  });

  it("refuses bad specs with robfig/cron's messages", () => {
    fails("", "empty spec string");
    fails("* * * *", "expected exactly 5 fields, found 4: [* * * *]");
    fails("* * * * * *", "expected exactly 5 fields, found 6: [* * * * * *]");
    fails("60 * * * *", "end of range (60) above maximum (59): 60");
    fails("* 24 * * *", "end of range (24) above maximum (23): 24");
    fails("* * 0 * *", "beginning of range (0) below minimum (1): 0");
    fails("* * * 13 *", "end of range (13) above maximum (12): 13");
    fails("* * * * 7", "end of range (7) above maximum (6): 7");
    fails("5-1 * * * *", "beginning of range (5) beyond end of range (1): 5-1");
    fails("*/0 * * * *", "step of range should be a positive number: */0");
    fails("1-2-3 * * * *", "too many hyphens: 1-2-3");
    fails("*/1/2 * * * *", "too many slashes: */1/2");
    fails("x * * * *", 'failed to parse int from x: strconv.Atoi: parsing "x": invalid syntax');
    fails(
      "* * * foo *",
      'failed to parse int from foo: strconv.Atoi: parsing "foo": invalid syntax',
    );
    fails("@fortnightly", "unrecognized descriptor: @fortnightly");
    fails("@every x", 'failed to parse duration @every x: time: invalid duration "x"');
    fails(
      "TZ=Mars/Olympus * * * * *",
      "provided bad location Mars/Olympus: unknown time zone Mars/Olympus",
    );
  });
});

describe("parseGoDuration", () => {
  it("reads Go durations", () => {
    assert.equal(parseGoDuration("1h30m"), 5_400_000);
    assert.equal(parseGoDuration("1.5h"), 5_400_000);
    assert.equal(parseGoDuration("90s"), 90_000);
    assert.equal(parseGoDuration("-2m"), -120_000);
    assert.equal(parseGoDuration("0"), 0);
    assert.equal(parseGoDuration("250ms"), 250);
  });

  it("refuses what Go refuses, with Go's words", () => {
    assert.throws(() => parseGoDuration(""), /^Error: time: invalid duration ""$/);
    assert.throws(() => parseGoDuration("5"), /missing unit in duration "5"/);
    assert.throws(() => parseGoDuration("5d"), /unknown unit "d" in duration "5d"/);
    assert.throws(() => parseGoDuration("h"), /invalid duration "h"/);
  });
});
