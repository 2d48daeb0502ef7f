/**
 * The structural checks of kube's strict decoding and CRD schema validation in
 * one walk: JSON types (with int-or-string and nullable), value constraints,
 * required fields, list types, and the unknown fields that `fieldValidation`
 * Strict rejects and Warn reports.
 */
import type { FieldError } from "../../api/errors.js";
import { invalidValue } from "../../api/errors.js";
import type { Schema } from "../../api/schema.js";
import { typeInvalid } from "./field-errors.js";
import { jsonType, typeAccepts } from "./json-type.js";
import { checkListType } from "./list-type.js";
import {
  childPath,
  fieldSchema,
  indexPath,
  isDroppableNull,
  isEmbeddedResource,
  isMetaField,
  preservesUnknown,
} from "./schema-nav.js";
import {
  checkEnum,
  checkItemCount,
  checkNumber,
  checkPropertyCount,
  checkRequired,
  checkString,
} from "./value-checks.js";

export interface CheckOptions {
  /**
   * Collect unknown fields (fieldValidation Strict or Warn). With `false`
   * (Ignore) `unknownFields` is always empty.
   */
  strict: boolean;
}

export interface CheckResult {
  errors: FieldError[];
  /** Dotted paths (`spec.foo`, `spec.items[0].bar`), `metadata.*` first, then sorted. */
  unknownFields: string[];
}

interface Walk {
  errors: FieldError[];
  unknown: string[];
  strict: boolean;
}

/** Checks `obj` (a whole object, or any value) against `schema`. */
export function checkObject(obj: unknown, schema: Schema, opts: CheckOptions): CheckResult {
  const w: Walk = { errors: [], unknown: [], strict: opts.strict };
  walk(w, obj, schema, "", true);
  return { errors: w.errors, unknownFields: orderUnknown(w.unknown) };
}

function isMetadataPath(path: string): boolean {
  return path === "metadata" || path.startsWith("metadata.");
}

/** kube reports ObjectMeta's unknown fields before the pruned ones, which are sorted. */
function orderUnknown(paths: string[]): string[] {
  const meta = paths.filter(isMetadataPath);
  const rest = paths.filter((p) => !isMetadataPath(p));
  return [...meta.sort(), ...rest.sort()];
}

function walk(w: Walk, value: unknown, schema: Schema, path: string, atRoot: boolean): void {
  if (!checkType(w, value, schema, path)) return;
  if (value === null) return;
  w.errors.push(...checkEnum(path, value, schema));
  if (typeof value === "string") w.errors.push(...checkString(path, value, schema));
  else if (typeof value === "number") w.errors.push(...checkNumber(path, value, schema));
  else if (Array.isArray(value)) walkArray(w, value, schema, path);
  else if (typeof value === "object") {
    walkObject(w, value as Record<string, unknown>, schema, path, atRoot);
  }
}

/** Reports a JSON type mismatch; returns false when the value should not be walked further. */
function checkType(w: Walk, value: unknown, schema: Schema, path: string): boolean {
  const actual = jsonType(value);
  if (actual === "null") {
    if (schema.nullable || (!schema.type && !schema["x-kubernetes-int-or-string"])) return true;
    w.errors.push(typeInvalid(path, schema.type ?? "integer", "null"));
    return false;
  }
  if (schema["x-kubernetes-int-or-string"]) {
    if (actual === "integer" || actual === "string") return true;
    // kube validates int-or-string as anyOf [integer, string]: both failures are reported.
    w.errors.push(
      invalidValue("", "", `${JSON.stringify(path)} must validate at least one schema (anyOf)`),
    );
    w.errors.push(typeInvalid(path, "integer", actual));
    return false;
  }
  if (schema.type && !typeAccepts(schema.type, actual)) {
    w.errors.push(typeInvalid(path, schema.type, actual));
    return false;
  }
  return true;
}

function walkArray(w: Walk, items: unknown[], schema: Schema, path: string): void {
  w.errors.push(...checkItemCount(path, items, schema));
  // ObjectMeta is validated by kube's metadata rules, not by list types.
  if (!isMetadataPath(path)) w.errors.push(...checkListType(path, items, schema));
  const itemSchema = schema.items ?? {};
  items.forEach((item, i) => {
    walk(w, item, itemSchema, indexPath(path, i), false);
  });
}

function walkObject(
  w: Walk,
  obj: Record<string, unknown>,
  schema: Schema,
  path: string,
  atRoot: boolean,
): void {
  w.errors.push(...checkPropertyCount(path, obj, schema));
  w.errors.push(...checkRequired(path, obj, schema));
  const embedded = isEmbeddedResource(schema, atRoot);
  for (const [key, value] of Object.entries(obj)) {
    const sub = fieldSchema(schema, key);
    if (sub === "any" || isDroppableNull(value, sub)) continue;
    if (sub) {
      walk(w, value, sub, childPath(path, key), false);
    } else if (!preservesUnknown(schema) && !(embedded && isMetaField(key)) && w.strict) {
      w.unknown.push(childPath(path, key));
    }
  }
}
