/**
 * Copies of objects without the fields their schema does not know (kube's
 * structural pruning), and without non-nullable nulls that have no default
 * (PruneNonNullableNullsWithoutDefaults). Unknown fields stay below
 * `x-kubernetes-preserve-unknown-fields`, as do apiVersion/kind/metadata at a
 * resource root or embedded resource.
 */
import type { Schema } from "../../api/schema.js";
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
  if (schema === "any") return structuredClone(value);
  if (Array.isArray(value)) {
    const items = schema.items ?? {};
    return value.map((item) => prune(item, items, false));
  }
  if (value === null || typeof value !== "object") return value;
  const out: Record<string, unknown> = {};
  const embedded = isEmbeddedResource(schema, atRoot);
  for (const [key, child] of Object.entries(value)) {
    const sub = fieldSchema(schema, key);
    if (sub !== undefined) {
      if (isDroppableNull(child, sub) && sub !== "any" && sub.default === undefined) continue;
      out[key] = prune(child, sub, false);
    } else if (preservesUnknown(schema) || (embedded && isMetaField(key))) {
      out[key] = structuredClone(child);
    }
  }
  return out;
}
