/**
 * CRD defaulting (apiextensions structural defaulting): a property with a
 * `default` that is absent, or null without `nullable`, gets a copy of the
 * default; then defaulting descends into properties, map values and items.
 */
import type { Schema } from "../../api/schema.js";

/** A defaulted deep copy of `obj`; the input is not modified. */
export function applyDefaults<T>(obj: T, schema: Schema): T {
  const copy = structuredClone(obj);
  defaultInPlace(copy, schema);
  return copy;
}

function isNonNullableNull(value: unknown, schema: Schema | undefined): boolean {
  return value === null && schema !== undefined && schema.nullable !== true;
}

function defaultInPlace(value: unknown, schema: Schema): void {
  if (Array.isArray(value)) {
    const items = schema.items;
    if (!items) return;
    value.forEach((item, i) => {
      if (isNonNullableNull(item, items) && items.default !== undefined) {
        value[i] = structuredClone(items.default);
      }
      defaultInPlace(value[i], items);
    });
    return;
  }
  if (value === null || typeof value !== "object") return;
  const obj = value as Record<string, unknown>;
  for (const [key, prop] of Object.entries(schema.properties ?? {})) {
    if (prop.default === undefined) continue;
    if (!(key in obj) || isNonNullableNull(obj[key], prop))
      obj[key] = structuredClone(prop.default);
  }
  const extra =
    typeof schema.additionalProperties === "object" ? schema.additionalProperties : undefined;
  for (const key of Object.keys(obj)) {
    const prop = schema.properties?.[key];
    if (prop) {
      defaultInPlace(obj[key], prop);
    } else if (extra) {
      if (isNonNullableNull(obj[key], extra) && extra.default !== undefined) {
        obj[key] = structuredClone(extra.default);
      }
      defaultInPlace(obj[key], extra);
    }
  }
}
