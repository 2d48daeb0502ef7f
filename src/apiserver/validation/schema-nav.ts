/**
 * Navigation rules shared by the checker, the pruner and the defaulter, taken
 * from apiextensions-apiserver's structural pruning: which sub-schema a key or
 * item falls under, which keys are never unknown, and which nulls are dropped.
 */
import type { Schema } from "../../api/index.js";

/** Keys a resource root (or an embedded resource) always knows. */
const META_FIELDS = new Set(["apiVersion", "kind", "metadata"]);

export function isMetaField(key: string): boolean {
  return META_FIELDS.has(key);
}

/**
 * The schema of `key` in an object node: its property, else the map value schema.
 * `"any"` when `additionalProperties: true`; `undefined` when the key is unknown.
 */
export function fieldSchema(schema: Schema, key: string): Schema | "any" | undefined {
  const prop = schema.properties?.[key];
  if (prop) return prop;
  const extra = schema.additionalProperties;
  if (extra === true) return "any";
  if (extra && typeof extra === "object") return extra;
  return undefined;
}

/** True when unknown keys below this node are kept (and not reported). */
export function preservesUnknown(schema: Schema): boolean {
  return schema["x-kubernetes-preserve-unknown-fields"] === true;
}

/** True when apiVersion/kind/metadata at this node are kept without a schema. */
export function isEmbeddedResource(schema: Schema, atRoot: boolean): boolean {
  return atRoot || schema["x-kubernetes-embedded-resource"] === true;
}

/**
 * A null object field whose schema is not nullable is treated as absent: kube
 * drops it (PruneNonNullableNullsWithoutDefaults) or replaces it by its default
 * before validating, so it is never a type error.
 */
export function isDroppableNull(value: unknown, schema: Schema | "any" | undefined): boolean {
  return value === null && schema !== undefined && schema !== "any" && schema.nullable !== true;
}

export function childPath(path: string, key: string): string {
  return path === "" ? key : `${path}.${key}`;
}

export function indexPath(path: string, index: number): string {
  return `${path}[${index}]`;
}
