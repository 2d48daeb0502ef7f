/**
 * `x-kubernetes-list-type` checks (apiextensions `listtype` validation): a `set`
 * has no duplicate items; a `map` has no two items with the same key fields.
 */
import type { FieldError } from "../../api/errors.js";
import type { Schema } from "../../api/schema.js";
import { duplicate } from "./field-errors.js";
import { isDeepEqual } from "./json-equal.js";
import { indexPath } from "./schema-nav.js";

export function checkListType(path: string, items: unknown[], schema: Schema): FieldError[] {
  switch (schema["x-kubernetes-list-type"]) {
    case "set":
      return duplicatesBy(path, items, (item) => item);
    case "map": {
      const keys = schema["x-kubernetes-list-map-keys"] ?? [];
      return duplicatesBy(path, items, (item) => mapKey(item, keys));
    }
    default:
      return [];
  }
}

function mapKey(item: unknown, keys: string[]): Record<string, unknown> | undefined {
  if (item === null || typeof item !== "object" || Array.isArray(item)) return undefined;
  const record = item as Record<string, unknown>;
  const key: Record<string, unknown> = {};
  for (const k of keys) if (record[k] !== undefined) key[k] = record[k];
  return key;
}

function duplicatesBy(
  path: string,
  items: unknown[],
  keyOf: (item: unknown) => unknown,
): FieldError[] {
  const errors: FieldError[] = [];
  const seen: unknown[] = [];
  items.forEach((item, i) => {
    const key = keyOf(item);
    if (key === undefined) return;
    if (seen.some((s) => isDeepEqual(s, key))) errors.push(duplicate(indexPath(path, i), key));
    else seen.push(key);
  });
  return errors;
}
