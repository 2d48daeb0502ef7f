/**
 * Helpers for walking and copying decoded JSON (plain objects, arrays,
 * primitives): the own-key test of a `for…in` walk, and deep copies that give
 * what `structuredClone` gives for such values at a fraction of its cost.
 */

const ownProperty = Object.prototype.hasOwnProperty;

/**
 * True when `key`, met by `for (key in obj)`, is `obj`'s own (not inherited).
 * V8 optimises this form inside a `for…in` loop; `Object.hasOwn` is slower there.
 */
export function isOwnKey(obj: object, key: string): boolean {
  return ownProperty.call(obj, key);
}

/** A deep copy of `value`, equal to what `structuredClone` makes of decoded JSON. */
export function copyJson<T>(value: T): T {
  if (value === null || typeof value !== "object") return value;
  if (Array.isArray(value)) return value.map(copyJson) as T;
  const out: Record<string, unknown> = {};
  for (const key in value) {
    if (!isOwnKey(value, key)) continue;
    const child = copyJson((value as Record<string, unknown>)[key]);
    // JSON.parse makes `__proto__` an own key; an assignment would set the prototype instead.
    if (key === "__proto__") {
      Object.defineProperty(out, key, {
        value: child,
        enumerable: true,
        writable: true,
        configurable: true,
      });
    } else out[key] = child;
  }
  return out as T;
}
