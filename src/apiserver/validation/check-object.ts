/**
 * The structural checks of kube's strict decoding and CRD schema validation in
 * one walk: JSON types (with int-or-string and nullable), value constraints,
 * required fields, list types, and the unknown fields that `fieldValidation`
 * Strict rejects and Warn reports.
 */
import type { FieldError, Schema } from "../../api/index.js";
import { invalidValue } from "../../api/index.js";
import { typeInvalid } from "./field-errors.js";
import { jsonType, typeAccepts } from "./json-type.js";
import { isOwnKey } from "./json-values.js";
import { checkListType } from "./list-type.js";
import { PathStack } from "./path-stack.js";
import {
  childPath,
  fieldSchema,
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
  /** Where the walk is; rendered only for an error or an unknown field. */
  at: PathStack;
}

/** Checks `obj` (a whole object, or any value) against `schema`. */
export function checkObject(obj: unknown, schema: Schema, opts: CheckOptions): CheckResult {
  const w: Walk = { errors: [], unknown: [], strict: opts.strict, at: new PathStack() };
  walk(w, obj, schema, true);
  return { errors: w.errors, unknownFields: orderUnknown(w.unknown) };
}

function isMetadataPath(path: string): boolean {
  return path === "metadata" || path.startsWith("metadata.");
}

/** kube reports ObjectMeta's unknown fields before the pruned ones, which are sorted. */
function orderUnknown(paths: string[]): string[] {
  if (paths.length === 0) return paths;
  const meta = paths.filter(isMetadataPath);
  const rest = paths.filter((p) => !isMetadataPath(p));
  return [...meta.sort(), ...rest.sort()];
}

function walk(w: Walk, value: unknown, schema: Schema, atRoot: boolean): void {
  if (!checkType(w, value, schema)) return;
  if (value === null) return;
  const path = w.at.render;
  checkEnum(w.errors, path, value, schema);
  if (typeof value === "string") checkString(w.errors, path, value, schema);
  else if (typeof value === "number") checkNumber(w.errors, path, value, schema);
  else if (Array.isArray(value)) walkArray(w, value, schema);
  else if (typeof value === "object") {
    walkObject(w, value as Record<string, unknown>, schema, atRoot);
  }
}

/** Reports a JSON type mismatch; returns false when the value should not be walked further. */
function checkType(w: Walk, value: unknown, schema: Schema): boolean {
  const actual = jsonType(value);
  if (actual === "null") {
    if (schema.nullable || (!schema.type && !schema["x-kubernetes-int-or-string"])) return true;
    w.errors.push(typeInvalid(w.at.render(), schema.type ?? "integer", "null"));
    return false;
  }
  if (schema["x-kubernetes-int-or-string"]) {
    if (actual === "integer" || actual === "string") return true;
    // kube validates int-or-string as anyOf [integer, string]: both failures are reported.
    const path = w.at.render();
    w.errors.push(
      invalidValue("", "", `${JSON.stringify(path)} must validate at least one schema (anyOf)`),
    );
    w.errors.push(typeInvalid(path, "integer", actual));
    return false;
  }
  if (schema.type && !typeAccepts(schema.type, actual)) {
    w.errors.push(typeInvalid(w.at.render(), schema.type, actual));
    return false;
  }
  return true;
}

function walkArray(w: Walk, items: unknown[], schema: Schema): void {
  checkItemCount(w.errors, w.at.render, items, schema);
  const before = w.errors.length;
  checkListType(w.errors, w.at.render, items, schema);
  // ObjectMeta is validated by kube's metadata rules, not by list types.
  if (w.errors.length > before && isMetadataPath(w.at.render())) w.errors.length = before;
  const itemSchema = schema.items ?? {};
  for (let i = 0; i < items.length; i++) {
    w.at.push(i);
    walk(w, items[i], itemSchema, false);
    w.at.pop();
  }
}

function walkObject(w: Walk, obj: Record<string, unknown>, schema: Schema, atRoot: boolean): void {
  checkPropertyCount(w.errors, w.at.render, obj, schema);
  checkRequired(w.errors, w.at.render, obj, schema);
  const embedded = isEmbeddedResource(schema, atRoot);
  for (const key in obj) {
    if (!isOwnKey(obj, key)) continue;
    const value = obj[key];
    const sub = fieldSchema(schema, key);
    if (sub === "any" || isDroppableNull(value, sub)) continue;
    if (sub) {
      w.at.push(key);
      walk(w, value, sub, false);
      w.at.pop();
    } else if (!preservesUnknown(schema) && !(embedded && isMetaField(key)) && w.strict) {
      w.unknown.push(childPath(w.at.render(), key));
    }
  }
}
