/**
 * The CLI's flag parser and typed flag readers, table-driven: `--name value`,
 * `--name=value`, booleans, positionals, and the messages a user sees for a
 * missing value, a bad integer, quantity or duration.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { durationFlag, intFlag, parseArgs, quantityFlag } from "./args.js";

describe("parseArgs", () => {
  const cases: {
    argv: string[];
    booleans?: string[];
    flags: Record<string, string>;
    positional: string[];
  }[] = [
    { argv: [], flags: {}, positional: [] },
    { argv: ["up", "extra"], flags: {}, positional: ["up", "extra"] },
    { argv: ["--port", "6443"], flags: { port: "6443" }, positional: [] },
    { argv: ["--port=6443", "x"], flags: { port: "6443" }, positional: ["x"] },
    { argv: ["--name="], flags: { name: "" }, positional: [] },
    { argv: ["--selector=a=b"], flags: { selector: "a=b" }, positional: [], booleans: [] },
    {
      argv: ["--verbose", "up"],
      booleans: ["verbose"],
      flags: { verbose: "true" },
      positional: ["up"],
    },
    {
      argv: ["--verbose=false"],
      booleans: ["verbose"],
      flags: { verbose: "false" },
      positional: [],
    },
    { argv: ["--port", "1", "--port", "2"], flags: { port: "2" }, positional: [], booleans: [] },
    { argv: ["--offset", "-5"], flags: { offset: "-5" }, positional: [] },
    { argv: ["-x", "--data-dir", "/tmp/h"], flags: { "data-dir": "/tmp/h" }, positional: ["-x"] },
  ];
  for (const c of cases) {
    it(`reads ${JSON.stringify(c.argv)}`, () => {
      const got = parseArgs(c.argv, c.booleans);
      assert.deepEqual(Object.fromEntries(got.flags), c.flags);
      assert.deepEqual(got.positional, c.positional);
    });
  }

  const missing = [
    { argv: ["--port"], flag: "--port" },
    { argv: ["--port", "--verbose"], flag: "--port" },
    { argv: ["up", "--data-dir"], flag: "--data-dir" },
  ];
  for (const m of missing) {
    it(`refuses ${JSON.stringify(m.argv)}: ${m.flag} needs a value`, () => {
      assert.throws(() => parseArgs(m.argv, ["verbose"]), {
        message: `flag ${m.flag} needs a value`,
      });
    });
  }
});

const args = (flags: Record<string, string>) => ({
  flags: new Map(Object.entries(flags)),
  positional: [],
});

describe("intFlag", () => {
  const ok: [Record<string, string>, number][] = [
    [{}, 7],
    [{ n: "0" }, 0],
    [{ n: "42" }, 42],
    [{ n: "1e3" }, 1000],
    // Number("") is 0: an empty value reads as 0.
    [{ n: "" }, 0],
  ];
  for (const [flags, want] of ok) {
    it(`reads ${JSON.stringify(flags)} as ${want}`, () =>
      assert.equal(intFlag(args(flags), "n", 7), want));
  }
  for (const bad of ["-1", "1.5", "many"]) {
    it(`refuses ${JSON.stringify(bad)}`, () => {
      assert.throws(() => intFlag(args({ n: bad }), "n", 7), {
        message: `--n must be a non-negative integer, got ${JSON.stringify(bad)}`,
      });
    });
  }
});

describe("quantityFlag", () => {
  const ok: [Record<string, string>, bigint][] = [
    [{}, 100n * 2n ** 30n],
    [{ size: "1Ki" }, 1024n],
    [{ size: "5G" }, 5_000_000_000n],
    [{ size: "1500m" }, 2n],
  ];
  for (const [flags, want] of ok) {
    it(`reads ${JSON.stringify(flags)} as ${want} bytes`, () => {
      assert.equal(quantityFlag(args(flags), "size", "100Gi"), want);
    });
  }
  for (const bad of ["0", "-1Gi", "lots", "1.5.5"]) {
    it(`refuses ${bad}`, () => {
      assert.throws(() => quantityFlag(args({ size: bad }), "size", "100Gi"), {
        message: `--size must be a positive quantity such as 100Gi, got ${JSON.stringify(bad)}`,
      });
    });
  }
});

describe("durationFlag", () => {
  const ok: [Record<string, string>, number][] = [
    [{}, 40_000],
    [{ grace: "1m30s" }, 90_000],
    [{ grace: "1.5h" }, 5_400_000],
    [{ grace: "250ms" }, 250],
  ];
  for (const [flags, want] of ok) {
    it(`reads ${JSON.stringify(flags)} as ${want} ms`, () => {
      assert.equal(durationFlag(args(flags), "grace", "40s"), want);
    });
  }
  const bad = [
    {
      value: "40",
      message: '--grace must be a duration such as 40s: time: missing unit in duration "40"',
    },
    {
      value: "5y",
      message: '--grace must be a duration such as 40s: time: unknown unit "y" in duration "5y"',
    },
    { value: "0", message: '--grace must be a positive duration, got "0"' },
    { value: "-5s", message: '--grace must be a positive duration, got "-5s"' },
  ];
  for (const b of bad) {
    it(`refuses ${b.value}`, () => {
      assert.throws(() => durationFlag(args({ grace: b.value }), "grace", "40s"), {
        message: b.message,
      });
    });
  }
});
