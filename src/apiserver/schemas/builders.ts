/**
 * Small constructors for the inline schemas of built-in kinds. They keep each
 * kind's file close to the shape of kube's OpenAPI (field, type, format, one-line
 * description) without repeating `type`/`description` boilerplate.
 */
import type { Schema } from "../../api/index.js";

export function str(description: string, extra: Partial<Schema> = {}): Schema {
  return { type: "string", description, ...extra };
}

export function int32(description: string): Schema {
  return { type: "integer", format: "int32", description };
}

export function int64(description: string): Schema {
  return { type: "integer", format: "int64", description };
}

export function bool(description: string): Schema {
  return { type: "boolean", description };
}

/** `metav1.Time`: RFC 3339 in UTC, seconds precision. */
export function time(description: string): Schema {
  return { type: "string", format: "date-time", description };
}

/** `metav1.MicroTime`: RFC 3339 with microseconds; OpenAPI still says `date-time`. */
export function microTime(description: string): Schema {
  return { type: "string", format: "date-time", description };
}

/** `map[string]string`. */
export function stringMap(description: string): Schema {
  return { type: "object", description, additionalProperties: { type: "string" } };
}

/** `map[string][]byte`: base64 strings on the wire. */
export function bytesMap(description: string): Schema {
  return {
    type: "object",
    description,
    additionalProperties: { type: "string", format: "byte" },
  };
}

/** `[]string` with the given list type (`atomic` unless said otherwise). */
export function stringList(description: string, listType: "atomic" | "set" = "atomic"): Schema {
  return {
    type: "array",
    description,
    items: { type: "string" },
    "x-kubernetes-list-type": listType,
  };
}

export function object(
  description: string,
  properties: Record<string, Schema>,
  required?: string[],
): Schema {
  return {
    type: "object",
    description,
    properties,
    ...(required && required.length > 0 ? { required } : {}),
  };
}

/** A list of objects merged by `key` (SMP) and keyed by it (SSA). */
export function mapList(description: string, key: string, items: Schema): Schema {
  return {
    type: "array",
    description,
    items,
    "x-kubernetes-list-type": "map",
    "x-kubernetes-list-map-keys": [key],
    "x-kubernetes-patch-strategy": "merge",
    "x-kubernetes-patch-merge-key": key,
  };
}

/** Copies `schema` with a different description (for reused sub-schemas). */
export function describe(schema: Schema, description: string): Schema {
  return { ...schema, description };
}
