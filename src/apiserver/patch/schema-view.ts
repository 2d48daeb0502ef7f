/**
 * How the patch algorithms read an inline OpenAPI schema: the schema of a map
 * field or list item, the strategic-merge-patch metadata of a field
 * (`x-kubernetes-patch-strategy`, `x-kubernetes-patch-merge-key`) and the
 * server-side-apply shape of a list or map (`x-kubernetes-list-type`,
 * `x-kubernetes-list-map-keys`, `x-kubernetes-map-type`). `undefined` means "no
 * schema": everything below it is untyped.
 */
import type { Schema } from "../../api/index.js";

/** A schema with its `allOf[0]` folded in (kube wraps referenced types so); the outer keys win. */
export function resolveSchema(schema: Schema | undefined): Schema | undefined {
  const first = schema?.allOf?.[0];
  if (!schema || !first) return schema;
  const { allOf: _allOf, ...outer } = schema;
  return { ...resolveSchema(first), ...outer };
}

/** The schema of `key` in a map: a declared property (a named field) or the map's value schema. */
export function fieldSchema(
  schema: Schema | undefined,
  key: string,
): { schema: Schema | undefined; named: boolean } {
  const resolved = resolveSchema(schema);
  const properties = resolved?.properties;
  if (properties && Object.hasOwn(properties, key)) {
    return { schema: resolveSchema(properties[key]), named: true };
  }
  const values = resolved?.additionalProperties;
  return { schema: typeof values === "object" ? resolveSchema(values) : undefined, named: false };
}

export function itemsSchema(schema: Schema | undefined): Schema | undefined {
  return resolveSchema(resolveSchema(schema)?.items);
}

/** Whether values of this schema are objects (typed maps or structs). */
export function isMapSchema(schema: Schema): boolean {
  return (
    schema.type === "object" ||
    schema.properties !== undefined ||
    schema.additionalProperties !== undefined
  );
}

export function isListSchema(schema: Schema): boolean {
  return schema.type === "array" || schema.items !== undefined;
}

/** A schema that says nothing about shape (no type, or only "keep unknown fields"). */
export function isUntypedSchema(schema: Schema | undefined): boolean {
  if (!schema) return true;
  if (schema["x-kubernetes-int-or-string"]) return false;
  return schema.type === undefined && !isMapSchema(schema) && !isListSchema(schema);
}

/** Server-side apply's view of a list (kube-openapi `getListElementRelationship`). */
export type ListShape = { kind: "atomic" } | { kind: "set" } | { kind: "map"; keys: string[] };

export function listShape(schema: Schema | undefined): ListShape {
  const s = resolveSchema(schema);
  if (!s) return { kind: "atomic" };
  switch (s["x-kubernetes-list-type"]) {
    case "set":
      return { kind: "set" };
    case "map": {
      const keys = s["x-kubernetes-list-map-keys"] ?? [];
      return keys.length > 0 ? { kind: "map", keys } : { kind: "atomic" };
    }
    case "atomic":
      return { kind: "atomic" };
  }
  const strategy = s["x-kubernetes-patch-strategy"];
  if (strategy === "merge" || strategy === "merge,retainKeys") {
    const key = s["x-kubernetes-patch-merge-key"];
    return key ? { kind: "map", keys: [key] } : { kind: "set" };
  }
  return { kind: "atomic" };
}

export function isAtomicMap(schema: Schema | undefined): boolean {
  return resolveSchema(schema)?.["x-kubernetes-map-type"] === "atomic";
}
