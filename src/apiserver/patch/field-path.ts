/**
 * Paths into an object as managed fields spell them (structured-merge-diff
 * `fieldpath`): each element is `f:<field>`, `k:<json of the key fields>` (an item
 * of a map list), `v:<json value>` (an item of a set) or `i:<index>`. Also SMD's
 * element order (fields, keys, values, indices) and printed form
 * (`.spec.containers[name="a"].image`), used in conflict messages.
 */
import { isObject } from "../../api/index.js";

export type PathElement = string;
export type FieldPath = readonly PathElement[];

export const fieldElement = (name: string): PathElement => `f:${name}`;

/** A map-list item's element: its key fields, sorted by name. */
export function keyElement(fields: Record<string, unknown>): PathElement {
  const names = Object.keys(fields);
  const sorted = names.every((name, i) => i === 0 || names[i - 1]! < name);
  if (sorted) return `k:${JSON.stringify(fields)}`;
  names.sort();
  return `k:${JSON.stringify(Object.fromEntries(names.map((k) => [k, fields[k]])))}`;
}

export const valueElement = (value: unknown): PathElement => `v:${JSON.stringify(value)}`;

/** Re-encodes an element read from stored managed fields in canonical form; throws if malformed. */
export function normalizeElement(raw: string): PathElement {
  const colon = raw.indexOf(":");
  if (colon < 0) throw new Error(`missing colon: ${raw}`);
  const body = raw.slice(colon + 1);
  switch (raw.slice(0, colon)) {
    case "f":
      return raw;
    case "k": {
      const fields: unknown = JSON.parse(body);
      if (!isObject(fields)) throw new Error(`not a key: ${raw}`);
      return keyElement(fields);
    }
    case "v":
      return valueElement(JSON.parse(body));
    case "i":
      if (!/^-?\d+$/.test(body)) throw new Error(`not an index: ${raw}`);
      return `i:${Number(body)}`;
    default:
      throw new Error(`unknown path element: ${raw}`);
  }
}

const RANK: Record<string, number> = { f: 0, k: 1, v: 2, i: 3 };

/** SMD `PathElement.Compare`. */
export function compareElements(a: PathElement, b: PathElement): number {
  // Two fields (the usual case): the same order as their names, as both start `f:`.
  if (a[0] === "f" && b[0] === "f") return compareStrings(a, b);
  const ra = RANK[a[0] ?? ""] ?? 4;
  const rb = RANK[b[0] ?? ""] ?? 4;
  if (ra !== rb) return ra - rb;
  const x = a.slice(2);
  const y = b.slice(2);
  if (a[0] === "f") return compareStrings(x, y);
  if (a[0] === "i") return Number(x) - Number(y);
  if (a[0] === "v") return compareValues(JSON.parse(x), JSON.parse(y));
  const ka = Object.entries(JSON.parse(x) as Record<string, unknown>);
  const kb = Object.entries(JSON.parse(y) as Record<string, unknown>);
  for (let i = 0; i < Math.min(ka.length, kb.length); i++) {
    const [na, va] = ka[i] ?? ["", null];
    const [nb, vb] = kb[i] ?? ["", null];
    const c = compareStrings(na, nb) || compareValues(va, vb);
    if (c !== 0) return c;
  }
  return ka.length - kb.length;
}

function compareStrings(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** SMD `value.Compare` for scalars: numbers < strings < booleans < everything else. */
function compareValues(a: unknown, b: unknown): number {
  if (valueRank(a) !== valueRank(b)) return valueRank(a) - valueRank(b);
  if (typeof a === "number" && typeof b === "number") return a - b;
  if (typeof a === "string" && typeof b === "string") return compareStrings(a, b);
  if (typeof a === "boolean" && typeof b === "boolean") return Number(a) - Number(b);
  return compareStrings(JSON.stringify(a), JSON.stringify(b));
}

function valueRank(v: unknown): number {
  switch (typeof v) {
    case "number":
      return 0;
    case "string":
      return 1;
    case "boolean":
      return 2;
    default:
      return 3;
  }
}

/** SMD `value.ToString`: strings quoted, everything else as JSON. */
function formatValue(v: unknown): string {
  return JSON.stringify(v);
}

/** SMD `Path.String()`: `.spec.ports[containerPort=80,protocol="TCP"]`, `.metadata.finalizers[="a"]`. */
export function formatPath(path: FieldPath): string {
  return path
    .map((pe) => {
      const body = pe.slice(2);
      switch (pe[0]) {
        case "f":
          return `.${body}`;
        case "k": {
          const fields = Object.entries(JSON.parse(body) as Record<string, unknown>);
          return `[${fields.map(([k, v]) => `${k}=${formatValue(v)}`).join(",")}]`;
        }
        case "v":
          return `[=${formatValue(JSON.parse(body))}]`;
        default:
          return `[${body}]`;
      }
    })
    .join("");
}
