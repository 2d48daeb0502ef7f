/**
 * Copies of objects without the fields their schema does not know (kube's
 * structural pruning), and without non-nullable nulls that have no default
 * (PruneNonNullableNullsWithoutDefaults). Unknown fields stay below
 * `x-kubernetes-preserve-unknown-fields`, as do apiVersion/kind/metadata at a
 * resource root or embedded resource.
 */
import type { Schema } from "../../api/index.js";
import { copyJson, isOwnKey } from "./json-values.js";
import {
  fieldSchema,
  isDroppableNull,
  isEmbeddedResource,
  isMetaField,
  preservesUnknown,
} from "./schema-nav.js";

/** A pruned deep copy of `obj`; the input is not modified. */
export function pruneUnknownFields<T>(obj: T, schema: Schema): T {
  return prune(obj, schema, true) as T;
}

function prune(value: unknown, schema: Schema | "any", atRoot: boolean): unknown {
  if (schema === "any") return copyJson(value);
  if (Array.isArray(value)) return pruneItems(value, schema.items ?? {});
  if (value === null || typeof value !== "object") return value;
  const obj = value as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  const embedded = isEmbeddedResource(schema, atRoot);
  for (const key in obj) {
    // An own `__proto__` (JSON.parse makes one) is left out: assigning it would set the prototype.
    if (!isOwnKey(obj, key) || key === "__proto__") continue;
    const child = obj[key];
    const sub = fieldSchema(schema, key);
    if (sub !== undefined) {
      if (isDroppableNull(child, sub) && sub !== "any" && sub.default === undefined) continue;
      out[key] = prune(child, sub, false);
    } else if (preservesUnknown(schema) || (embedded && isMetaField(key))) {
      out[key] = copyJson(child);
    }
  }
  return out;
}

// Apart from `prune`: its closure would make every call of `prune` allocate a context.
function pruneItems(items: unknown[], schema: Schema): unknown[] {
  return items.map((item) => prune(item, schema, false));
}
