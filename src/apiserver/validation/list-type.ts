/**
 * `x-kubernetes-list-type` checks (apiextensions `listtype` validation): a `set`
 * has no duplicate items; a `map` has no two items with the same key fields.
 * Items are compared where they are; a key is built only to report a duplicate.
 */
import type { FieldError, Schema } from "../../api/index.js";
import { duplicate } from "./field-errors.js";
import { isDeepEqual } from "./json-equal.js";
import type { LazyPath } from "./path-stack.js";
import { indexPath } from "./schema-nav.js";

export function checkListType(
  errors: FieldError[],
  path: LazyPath,
  items: unknown[],
  schema: Schema,
): void {
  switch (schema["x-kubernetes-list-type"]) {
    case "set":
      reportDuplicates(errors, path, items, undefined);
      return;
    case "map":
      reportDuplicates(errors, path, items, schema["x-kubernetes-list-map-keys"] ?? []);
  }
}

/**
 * Reports each item whose key equals an earlier item's: the whole item in a
 * set (`keys` undefined), its key fields in a map (items that are not objects
 * have no key there).
 */
function reportDuplicates(
  errors: FieldError[],
  path: LazyPath,
  items: unknown[],
  keys: string[] | undefined,
): void {
  for (let i = 1; i < items.length; i++) {
    const item = items[i];
    if (!hasKey(item, keys)) continue;
    for (let j = 0; j < i; j++) {
      const earlier = items[j];
      if (hasKey(earlier, keys) && sameKey(earlier, item, keys)) {
        const key = keys ? mapKey(item as Record<string, unknown>, keys) : item;
        errors.push(duplicate(indexPath(path(), i), key));
        break;
      }
    }
  }
}

function hasKey(item: unknown, keys: string[] | undefined): boolean {
  if (!keys) return item !== undefined;
  return item !== null && typeof item === "object" && !Array.isArray(item);
}

/** Equal items (set), or equal key fields, an absent field equal only to an absent one (map). */
function sameKey(a: unknown, b: unknown, keys: string[] | undefined): boolean {
  if (!keys) return isDeepEqual(a, b);
  const ra = a as Record<string, unknown>;
  const rb = b as Record<string, unknown>;
  for (const k of keys) {
    const va = ra[k];
    const vb = rb[k];
    if (va === undefined || vb === undefined) {
      if (va !== vb) return false;
    } else if (!isDeepEqual(va, vb)) return false;
  }
  return true;
}

/** The key fields of a map item, as kube prints them in a Duplicate error. */
function mapKey(record: Record<string, unknown>, keys: string[]): Record<string, unknown> {
  const key: Record<string, unknown> = {};
  for (const k of keys) if (record[k] !== undefined) key[k] = record[k];
  return key;
}
