/**
 * Resource lists (`map[ResourceName]Quantity`) and the sums the quota system does
 * on them (apiserver's `quota/v1` helpers): add, subtract, mask, compare, and
 * kube's canonical quantity form (`1500m`, `1536Mi`, `1e3`), so `status.used`
 * and messages read as kube-apiserver writes them. A sum keeps the format of its
 * first non-zero term (`resource.Quantity.Add`): `1Gi + 512Mi` is `1536Mi`,
 * `500m + 500m` is `1`.
 */
import { parseQuantity } from "./quantity.js";

/** Resource name → quantity; values read from the wire may be numbers. */
export type ResourceList = Record<string, string>;
export type QuantityList = Record<string, string | number>;

type Format = "DecimalSI" | "BinarySI" | "DecimalExponent";

interface Amount {
  nano: bigint;
  format: Format;
}

const NANO = 1_000_000_000n;
const BINARY_SUFFIXES = ["", "Ki", "Mi", "Gi", "Ti", "Pi", "Ei"];
const DECIMAL_SUFFIXES = new Map<number, string>([
  [-9, "n"],
  [-6, "u"],
  [-3, "m"],
  [0, ""],
  [3, "k"],
  [6, "M"],
  [9, "G"],
  [12, "T"],
  [15, "P"],
  [18, "E"],
]);

/** The format a quantity was written in, which its canonical form keeps. */
function formatOf(text: string | number): Format {
  const suffix = /^[+-]?[0-9.]*(.*)$/.exec(String(text))?.[1] ?? "";
  if (BINARY_SUFFIXES.includes(suffix) && suffix !== "") return "BinarySI";
  if (/^[eE][+-]?[0-9]+$/.test(suffix)) return "DecimalExponent";
  return "DecimalSI";
}

function amount(text: string | number): Amount {
  return { nano: parseQuantity(text), format: formatOf(text) };
}

/** kube's `Quantity.String()`: binary only for whole multiples of 1024, else decimal with exponents in steps of 3. */
function formatAmount({ nano, format }: Amount): string {
  if (nano === 0n) return "0";
  const sign = nano < 0n ? "-" : "";
  let digits = nano < 0n ? -nano : nano;
  if (format === "BinarySI" && digits >= 1024n * NANO && digits % NANO === 0n) {
    let units = digits / NANO;
    let power = 0;
    while (power < BINARY_SUFFIXES.length - 1 && units % 1024n === 0n) {
      units /= 1024n;
      power++;
    }
    return `${sign}${units}${BINARY_SUFFIXES[power]}`;
  }
  let exponent = -9;
  while (digits % 10n === 0n) {
    digits /= 10n;
    exponent++;
  }
  const down = ((exponent % 3) + 3) % 3;
  digits *= 10n ** BigInt(down);
  exponent -= down;
  if (format === "DecimalExponent")
    return `${sign}${digits}${exponent === 0 ? "" : `e${exponent}`}`;
  if (exponent > 18) {
    digits *= 10n ** BigInt(exponent - 18);
    exponent = 18;
  }
  return `${sign}${digits}${DECIMAL_SUFFIXES.get(exponent)}`;
}

/** The canonical form of a quantity (`1000m` → `1`, `1024Mi` → `1Gi`); throws QuantityError. */
export function canonicalQuantity(text: string | number): string {
  return formatAmount(amount(text));
}

/** Every value in canonical form; values that do not parse are kept for validation to report. */
export function canonicalList(list: QuantityList): ResourceList {
  const out: ResourceList = {};
  for (const [name, value] of Object.entries(list)) {
    try {
      out[name] = canonicalQuantity(value);
    } catch {
      out[name] = value as string;
    }
  }
  return out;
}

/** a + b (or a − b), in a's format unless a is zero. */
function combine(a: string | number, b: string | number, sign: 1n | -1n): string {
  const x = amount(a);
  const y = amount(b);
  return formatAmount({
    nano: x.nano + sign * y.nano,
    format: x.nano === 0n ? y.format : x.format,
  });
}

/** A negative or zero result of `combine` clamped at zero. */
function atLeastZero(value: string): string {
  return parseQuantity(value) < 0n ? "0" : value;
}

export function addLists(a: QuantityList, b: QuantityList): ResourceList {
  const out: ResourceList = {};
  for (const [k, v] of Object.entries(a))
    out[k] = k in b ? combine(v, b[k]!, 1n) : canonicalQuantity(v);
  for (const [k, v] of Object.entries(b)) if (!(k in out)) out[k] = canonicalQuantity(v);
  return out;
}

/** a − b; with `nonNegative`, results below zero are zero (quota's `SubtractWithNonNegativeResult`). */
export function subtractLists(a: QuantityList, b: QuantityList, nonNegative = false): ResourceList {
  const out: ResourceList = {};
  for (const [k, v] of Object.entries(a)) {
    const d = k in b ? combine(v, b[k]!, -1n) : canonicalQuantity(v);
    out[k] = nonNegative ? atLeastZero(d) : d;
  }
  for (const [k, v] of Object.entries(b))
    if (!(k in out)) out[k] = nonNegative ? "0" : combine(0, v, -1n);
  return out;
}

/** Only the entries named in `names`. */
export function maskList(list: QuantityList, names: Iterable<string>): ResourceList {
  const out: ResourceList = {};
  for (const k of names) if (k in list) out[k] = canonicalQuantity(list[k]!);
  return out;
}

/** The larger of each entry; `into` is changed. */
export function maxInto(into: ResourceList, other: QuantityList): void {
  for (const [k, v] of Object.entries(other))
    if (!(k in into) || parseQuantity(v) > parseQuantity(into[k]!)) into[k] = canonicalQuantity(v);
}

/** The names where a exceeds b (names b lacks are not compared); empty when a ≤ b. */
export function exceededNames(a: QuantityList, b: QuantityList): string[] {
  return Object.keys(b)
    .filter((k) => k in a && parseQuantity(a[k]!) > parseQuantity(b[k]!))
    .sort();
}

export function isZeroList(list: QuantityList): boolean {
  return Object.values(list).every((v) => parseQuantity(v) === 0n);
}

export function negativeNames(list: QuantityList): string[] {
  return Object.keys(list)
    .filter((k) => parseQuantity(list[k]!) < 0n)
    .sort();
}

/** Same names with equal quantities (`1` equals `1000m`). */
export function listsEqual(a: QuantityList, b: QuantityList): boolean {
  const keys = Object.keys(a);
  if (keys.length !== Object.keys(b).length) return false;
  return keys.every((k) => k in b && parseQuantity(a[k]!) === parseQuantity(b[k]!));
}

/** `cpu=1,pods=2`, sorted by name, as quota messages print a list. */
export function prettyPrint(list: QuantityList): string {
  return Object.keys(list)
    .sort()
    .map((k) => `${k}=${canonicalQuantity(list[k]!)}`)
    .join(",");
}
