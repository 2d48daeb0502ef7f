/**
 * CRD defaulting (apiextensions structural defaulting): a property with a
 * `default` that is absent, or null without `nullable`, gets a copy of the
 * default; then defaulting descends into properties, map values and items.
 * Subtrees whose schema declares no default anywhere are not visited.
 */
import type { Schema } from "../../api/index.js";
import { copyJson, isOwnKey } from "./json-values.js";

/**
 * Defaults `value` in place. Give it a value no one else holds (such as the
 * copy `pruneUnknownFields` returns): defaults are written into it.
 */
export function defaultInPlace(value: unknown, schema: Schema): void {
  if (value === null || typeof value !== "object" || !declaresDefaults(schema)) return;
  if (Array.isArray(value)) {
    if (schema.items) defaultItems(value, schema.items);
    return;
  }
  const obj = value as Record<string, unknown>;
  const props = schema.properties;
  for (const key in props) {
    if (!isOwnKey(props, key)) continue;
    const prop = props[key]!;
    if (prop.default === undefined) continue;
    if (!(key in obj) || isNonNullableNull(obj[key], prop)) obj[key] = copyJson(prop.default);
  }
  const extra =
    typeof schema.additionalProperties === "object" ? schema.additionalProperties : undefined;
  for (const key in obj) {
    if (!isOwnKey(obj, key)) continue;
    const prop = props?.[key];
    if (prop) {
      defaultInPlace(obj[key], prop);
    } else if (extra) {
      if (isNonNullableNull(obj[key], extra) && extra.default !== undefined) {
        obj[key] = copyJson(extra.default);
      }
      defaultInPlace(obj[key], extra);
    }
  }
}

// Apart from `defaultInPlace`: its closure would make every call of that allocate a context.
function defaultItems(list: unknown[], items: Schema): void {
  list.forEach((item, i) => {
    if (isNonNullableNull(item, items) && items.default !== undefined) {
      list[i] = copyJson(items.default);
    }
    defaultInPlace(list[i], items);
  });
}

function isNonNullableNull(value: unknown, schema: Schema | undefined): boolean {
  return value === null && schema !== undefined && schema.nullable !== true;
}

/** Per schema node: does it, or a node below it, declare a default? Defaulting skips it if not. */
const declared = new WeakMap<Schema, boolean>();

/** Cached per node: a type's schema is not modified while the type is served. */
function declaresDefaults(schema: Schema): boolean {
  // A non-object "schema" (`true`, or what a key like `constructor` looks up) has nothing below it.
  if (typeof schema !== "object" || schema === null) return false;
  let found = declared.get(schema);
  if (found === undefined) {
    declared.set(schema, true); // a schema that contains itself is walked, never skipped
    found = schema.default !== undefined || subSchemas(schema).some(declaresDefaults);
    declared.set(schema, found);
  }
  return found;
}

/** The schemas defaulting descends into: properties, map values, items. */
function subSchemas(schema: Schema): Schema[] {
  const subs = Object.values(schema.properties ?? {});
  const extra = schema.additionalProperties;
  if (typeof extra === "object" && extra !== null) subs.push(extra);
  if (schema.items) subs.push(schema.items);
  return subs;
}
