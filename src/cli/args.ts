/** A small flag parser: `--name value`, `--name=value`, boolean `--flag`. */
import { isQuantity, parseGoDuration, quantityValue } from "../api/index.js";
import { errorText } from "../client/index.js";

export interface ParsedArgs {
  flags: Map<string, string>;
  positional: string[];
}

export function parseArgs(argv: string[], booleans: string[] = []): ParsedArgs {
  const flags = new Map<string, string>();
  const positional: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (!a.startsWith("--")) {
      positional.push(a);
      continue;
    }
    const eq = a.indexOf("=");
    if (eq > 0) flags.set(a.slice(2, eq), a.slice(eq + 1));
    else if (booleans.includes(a.slice(2))) flags.set(a.slice(2), "true");
    else {
      const v = argv[i + 1];
      if (v === undefined || v.startsWith("--")) throw new Error(`flag ${a} needs a value`);
      flags.set(a.slice(2), v);
      i++;
    }
  }
  return { flags, positional };
}

export function intFlag(args: ParsedArgs, name: string, fallback: number): number {
  const v = args.flags.get(name);
  if (v === undefined) return fallback;
  const n = Number(v);
  if (!Number.isInteger(n) || n < 0)
    throw new Error(`--${name} must be a non-negative integer, got ${JSON.stringify(v)}`);
  return n;
}

/** A quantity flag (`--volume-pool-size 100Gi`) in whole units (bytes). */
export function quantityFlag(args: ParsedArgs, name: string, fallback: string): bigint {
  const v = args.flags.get(name) ?? fallback;
  if (!isQuantity(v) || quantityValue(v) <= 0n)
    throw new Error(
      `--${name} must be a positive quantity such as 100Gi, got ${JSON.stringify(v)}`,
    );
  return quantityValue(v);
}

/** A positive duration flag in Go's syntax (`--node-monitor-grace-period 40s`), in ms. */
export function durationFlag(args: ParsedArgs, name: string, fallback: string): number {
  const v = args.flags.get(name) ?? fallback;
  let ms: number;
  try {
    ms = parseGoDuration(v);
  } catch (e) {
    throw new Error(`--${name} must be a duration such as 40s: ${errorText(e)}`);
  }
  if (!(ms > 0)) throw new Error(`--${name} must be a positive duration, got ${JSON.stringify(v)}`);
  return ms;
}
