/**
 * Key order and prefix ranges shared by the backends. Keys compare by Unicode code
 * point, which is the byte order of their UTF-8 form and so SQLite's BINARY
 * collation: every backend lists in the same order, and a prefix is a half-open
 * key range `[prefix, prefixEnd(prefix))`, which an index can serve and in which
 * `%` and `_` are ordinary characters.
 */

/** Compares two keys by code point (plain `<` compares UTF-16 units, which differs above U+FFFF). */
export function compareKeys(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x !== y) return codeUnitRank(x) - codeUnitRank(y);
  }
  return a.length - b.length;
}

// Surrogates (U+D800–U+DFFF) encode code points above U+FFFF, so in code point
// order they sort after U+E000–U+FFFF; shift both ranges to say so.
function codeUnitRank(unit: number): number {
  if (unit >= 0xd800 && unit <= 0xdfff) return unit + 0x2000;
  if (unit >= 0xe000) return unit - 0x800;
  return unit;
}

export function hasPrefix(key: string, prefix: string): boolean {
  return key.startsWith(prefix);
}

/**
 * The smallest key greater than every key starting with `prefix`, or undefined
 * when there is none (the empty prefix matches every key).
 */
export function prefixEnd(prefix: string): string | undefined {
  const points = Array.from(prefix);
  while (points.length > 0) {
    const last = points.pop()!.codePointAt(0)!;
    if (last < 0x10ffff) {
      // Skip the surrogate block: it holds no code points of its own.
      const next = last === 0xd7ff ? 0xe000 : last + 1;
      return points.join("") + String.fromCodePoint(next);
    }
  }
  return undefined;
}

/** The smallest key strictly greater than `key`. */
export function keyAfter(key: string): string {
  return `${key}\u0000`;
}

/** Where a list under `prefix` starts: at the prefix, or just past `after` if that is further on. */
export function listStart(prefix: string, after: string | undefined): string {
  if (after === undefined || compareKeys(after, prefix) < 0) return prefix;
  return keyAfter(after);
}
