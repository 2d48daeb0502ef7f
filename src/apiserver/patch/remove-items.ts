/**
 * Removing a set of fields from an object (structured-merge-diff `RemoveItems`):
 * a map entry or list item whose path is in the set goes with everything under
 * it. A map or list emptied this way is dropped too — kube stores it as null,
 * which its decoding then drops.
 */
import type { Schema } from "../../api/index.js";
import { isObject } from "../../api/index.js";
import { fieldElement } from "./field-path.js";
import type { FieldSet } from "./field-set.js";
import { type JsonMap, setKey } from "./json-value.js";
import { fieldSchema } from "./schema-view.js";
import { atomOf, listElements } from "./typed-value.js";

export function removeItems(
  value: JsonMap,
  toRemove: FieldSet,
  schema: Schema | undefined,
): JsonMap {
  if (toRemove.isEmpty()) return value;
  const out = removeAt(value, toRemove, schema);
  return isObject(out) ? out : {};
}

/** `value` without the paths in `toRemove` (relative to it); undefined once emptied. */
function removeAt(value: unknown, toRemove: FieldSet, schema: Schema | undefined): unknown {
  const atom = atomOf(schema, value);
  if (atom.kind === "map" && !atom.atomic && isObject(value)) {
    if (Object.keys(value).length === 0) return value;
    const out: JsonMap = {};
    for (const [key, child] of Object.entries(value)) {
      const pe = fieldElement(key);
      if (toRemove.has([pe])) continue;
      const under = toRemove.withPrefix(pe);
      const kept = under.isEmpty()
        ? child
        : removeAt(child, under, fieldSchema(schema, key).schema);
      if (kept !== undefined) setKey(out, key, kept);
    }
    return Object.keys(out).length > 0 ? out : undefined;
  }
  if (atom.kind === "list" && atom.shape.kind !== "atomic" && Array.isArray(value)) {
    if (value.length === 0) return value;
    const elements = listElements(atom.shape, value, atom.items);
    if (!elements) return value;
    const out: unknown[] = [];
    for (const [i, item] of value.entries()) {
      const pe = elements[i] ?? "";
      if (toRemove.has([pe])) continue;
      const under = toRemove.withPrefix(pe);
      const kept = under.isEmpty() ? item : removeAt(item, under, atom.items);
      if (kept !== undefined) out.push(kept);
    }
    return out.length > 0 ? out : undefined;
  }
  return value;
}
