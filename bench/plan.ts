/**
 * What the benchmark runs: the full plan (a few minutes on 2 cores) and the quick
 * smoke plan (`--quick`, well under 30 s), and the command line.
 */
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import type { LevelPlan } from "./scenarios/creates.js";

export interface Plan {
  mode: "full" | "quick";
  /** (a) API creates and (b) the in-process floor, level by level. */
  creates: LevelPlan;
  /** (c) the bare HTTPS+SQLite baseline. */
  bare: LevelPlan;
  get: { rate: number; durationMs: number };
  list: { namespace: string; objects: number; runs: number; seedConcurrency: number };
  watch: {
    namespace: string;
    watchers: number;
    events: number;
    spacingMs: number;
    deadlineMs: number;
  };
  /** Characters of the ConfigMap's one data value. */
  payloadChars: number;
}

const FULL: Plan = {
  mode: "full",
  creates: { levels: [1, 8, 64], count: 2000, warmup: 200 },
  bare: { levels: [64], count: 2000, warmup: 200 },
  get: { rate: 200, durationMs: 5000 },
  list: { namespace: "bench-list", objects: 10_000, runs: 5, seedConcurrency: 64 },
  watch: { namespace: "bench-watch", watchers: 100, events: 50, spacingMs: 20, deadlineMs: 10_000 },
  payloadChars: 1024,
};

const QUICK: Plan = {
  ...FULL,
  mode: "quick",
  creates: { levels: [1, 8, 64], count: 200, warmup: 50 },
  bare: { levels: [64], count: 200, warmup: 50 },
  get: { rate: 200, durationMs: 1000 },
  list: { ...FULL.list, objects: 1000, runs: 3 },
  watch: { ...FULL.watch, events: 10, spacingMs: 10 },
};

/** dist/bench/plan.js → <repo>/bench/results, wherever the bench is started from. */
const DEFAULT_OUT = resolve(dirname(fileURLToPath(import.meta.url)), "../../bench/results");

export const USAGE = `usage: node dist/bench/run.js [--quick] [--out DIR]
  --quick    much smaller counts: a smoke run of well under 30 s
  --out DIR  where to write <timestamp>.json and latest.json (default: bench/results)`;

export interface Args {
  plan: Plan;
  outDir: string;
}

/** Parses the command line; throws with the usage on anything unknown. */
export function parseArgs(argv: string[]): Args | "help" {
  let plan = FULL;
  let outDir = DEFAULT_OUT;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === "--help" || arg === "-h") return "help";
    if (arg === "--quick") plan = QUICK;
    else if (arg === "--out" && argv[i + 1] !== undefined) outDir = resolve(argv[++i]!);
    else if (arg.startsWith("--out=")) outDir = resolve(arg.slice("--out=".length));
    else throw new Error(`unknown or incomplete argument "${arg}"\n${USAGE}`);
  }
  return { plan, outDir };
}
