/**
 * Kubernetes resource quantities (`resource.Quantity`): `1Gi`, `500M`, `100m`,
 * `1.5`, `2e3`. Parsed exactly into nano-units (value × 10⁹) as a bigint, rounded
 * away from zero below a nano as kube rounds; compared and turned back into
 * whole units (bytes, cores) or milli-units without floating point. Lives in
 * `api/` so the apiserver (validation), the controllers (pool accounting, the
 * scheduler's requests) and the node agent share one parser.
 */

/** kube's wording, as the apiserver returns it for a malformed quantity. */
export const QUANTITY_FORMAT_MESSAGE =
  "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'";

const NUMBER = /^([+-]?)([0-9]*)(?:\.([0-9]*))?(.*)$/;
const BINARY: Record<string, number> = { Ki: 10, Mi: 20, Gi: 30, Ti: 40, Pi: 50, Ei: 60 };
const DECIMAL: Record<string, number> = {
  n: -9,
  u: -6,
  m: -3,
  "": 0,
  k: 3,
  M: 6,
  G: 9,
  T: 12,
  P: 15,
  E: 18,
};
/** Beyond this decimal exponent a quantity is refused rather than expanded. */
const MAX_EXPONENT = 1000;

export class QuantityError extends Error {
  constructor(readonly text: string) {
    super(QUANTITY_FORMAT_MESSAGE);
    this.name = "QuantityError";
  }
}

/** Divides rounding away from zero (kube rounds quantities up). */
function divAway(n: bigint, d: bigint): bigint {
  const q = n / d;
  return q * d === n ? q : n < 0n ? q - 1n : q + 1n;
}

/** The exact value of `text` × 10⁹, rounded away from zero; throws QuantityError. */
export function parseQuantity(text: string | number): bigint {
  const s = String(text);
  const m = NUMBER.exec(s);
  if (!m || s.length === 0) throw new QuantityError(s);
  const [, sign, whole = "", fraction = "", suffix = ""] = m;
  if (whole === "" && fraction === "") throw new QuantityError(s);
  let digits = BigInt(`${whole}${fraction}` || "0");
  let exp10 = -fraction.length + 9;
  let exp2 = 0;
  if (suffix in BINARY) exp2 = BINARY[suffix]!;
  else if (suffix in DECIMAL) exp10 += DECIMAL[suffix]!;
  else {
    const e = /^[eE]([+-]?[0-9]+)$/.exec(suffix);
    if (!e) throw new QuantityError(s);
    const exponent = Number(e[1]);
    if (Math.abs(exponent) > MAX_EXPONENT) throw new QuantityError(s);
    exp10 += exponent;
  }
  if (sign === "-") digits = -digits;
  digits *= 2n ** BigInt(exp2);
  return exp10 >= 0 ? digits * 10n ** BigInt(exp10) : divAway(digits, 10n ** BigInt(-exp10));
}

/** True when `text` parses. */
export function isQuantity(text: unknown): boolean {
  if (typeof text !== "string" && typeof text !== "number") return false;
  try {
    parseQuantity(text);
    return true;
  } catch {
    return false;
  }
}

/** Whole units (bytes for storage), rounded up as kube's `Value()`. */
export function quantityValue(text: string | number): bigint {
  return divAway(parseQuantity(text), 1_000_000_000n);
}

/** Milli-units (millicores for cpu), rounded up as kube's `MilliValue()`. */
export function quantityMilliValue(text: string | number): bigint {
  return divAway(parseQuantity(text), 1_000_000n);
}

/** Negative, zero or positive as `a` is below, equal to or above `b`. */
export function compareQuantities(a: string | number, b: string | number): number {
  const d = parseQuantity(a) - parseQuantity(b);
  return d < 0n ? -1 : d > 0n ? 1 : 0;
}

/**
 * A byte count in kube's canonical binary form: the largest of Ei…Ki that divides
 * it exactly (`10Gi`, `1536Ki`), else the plain number (`1500`).
 */
export function formatBytes(bytes: bigint): string {
  if (bytes === 0n) return "0";
  for (const [suffix, shift] of Object.entries(BINARY).reverse()) {
    const unit = 1n << BigInt(shift);
    if (bytes % unit === 0n) return `${bytes / unit}${suffix}`;
  }
  return String(bytes);
}
