/**
 * Whether a computed status differs from the stored one, compared as kube's
 * controllers compare (semantic deep equality: key order does not matter, an
 * absent list equals an empty one, an absent count
 * equals 0 as omitempty makes it), so an unchanged status is never written.
 */
import { isDeepStrictEqual } from "node:util";

function normalized(value: unknown): unknown {
  if (Array.isArray(value)) return value.length === 0 ? undefined : value.map(normalized);
  if (value === 0) return undefined; // omitempty: a zero count is an absent one
  if (value === null || typeof value !== "object") return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) {
    const n = normalized(v);
    if (n !== undefined && n !== null) out[k] = n;
  }
  return Object.keys(out).length === 0 ? undefined : out;
}

export function sameStatus(stored: unknown, computed: unknown): boolean {
  return isDeepStrictEqual(normalized(stored), normalized(computed));
}
