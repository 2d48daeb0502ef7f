/**
 * The value constraints of one schema node (enum, string length/pattern/format,
 * numeric bounds, item and property counts, required fields), reported with
 * kube-openapi's messages as apiextensions-apiserver turns them into field
 * errors. Each check adds its errors to `errors` and renders the node's path
 * only for an error.
 */

import type { Schema } from "../../api/index.js";
import { type FieldError, requiredValue } from "../../api/index.js";
import { invalidInBody, notSupported, tooLong, tooMany, typeInvalid } from "./field-errors.js";
import { matchesFormat } from "./formats.js";
import { isDeepEqual } from "./json-equal.js";
import type { LazyPath } from "./path-stack.js";
import { childPath } from "./schema-nav.js";

export function checkEnum(
  errors: FieldError[],
  path: LazyPath,
  value: unknown,
  schema: Schema,
): void {
  const allowed = schema.enum;
  if (allowed && !isOneOf(value, allowed)) errors.push(notSupported(path(), value, allowed));
}

// A loop, not `allowed.some(…)`: a closure over `value` would cost every call an allocation.
function isOneOf(value: unknown, allowed: unknown[]): boolean {
  for (const a of allowed) if (isDeepEqual(a, value)) return true;
  return false;
}

/** Length in characters (code points), as Go's utf8.RuneCountInString. */
function runeLength(s: string): number {
  let n = 0;
  for (const _ of s) n++;
  return n;
}

export function checkString(
  errors: FieldError[],
  path: LazyPath,
  value: string,
  schema: Schema,
): void {
  const { maxLength, minLength } = schema;
  // A string has at most as many characters as UTF-16 units: count only when that may matter.
  if (minLength !== undefined || (maxLength !== undefined && value.length > maxLength)) {
    const length = runeLength(value);
    if (maxLength !== undefined && length > maxLength) errors.push(tooLong(path(), maxLength));
    if (minLength !== undefined && length < minLength) {
      errors.push(invalidInBody(path(), value, `should be at least ${minLength} chars long`));
    }
  }
  if (schema.pattern !== undefined && !safeRegExp(schema.pattern)?.test(value)) {
    errors.push(invalidInBody(path(), value, `should match '${schema.pattern}'`));
  }
  if (schema.format !== undefined && !matchesFormat(schema.format, value)) {
    errors.push(typeInvalid(path(), schema.format, value));
  }
}

const regexps = new Map<string, RegExp | undefined>();

/** Compiles (and caches) a schema pattern (no `u` flag: RE2-style escapes such as `\_` stay legal); an invalid pattern matches nothing. */
function safeRegExp(pattern: string): RegExp | undefined {
  if (!regexps.has(pattern)) {
    try {
      regexps.set(pattern, new RegExp(pattern));
    } catch {
      regexps.set(pattern, undefined);
    }
  }
  return regexps.get(pattern);
}

export function checkNumber(
  errors: FieldError[],
  path: LazyPath,
  value: number,
  schema: Schema,
): void {
  const { minimum, maximum } = schema;
  if (minimum !== undefined) {
    if (schema.exclusiveMinimum && value <= minimum) {
      errors.push(invalidInBody(path(), value, `should be greater than ${minimum}`));
    } else if (!schema.exclusiveMinimum && value < minimum) {
      errors.push(invalidInBody(path(), value, `should be greater than or equal to ${minimum}`));
    }
  }
  if (maximum !== undefined) {
    if (schema.exclusiveMaximum && value >= maximum) {
      errors.push(invalidInBody(path(), value, `should be less than ${maximum}`));
    } else if (!schema.exclusiveMaximum && value > maximum) {
      errors.push(invalidInBody(path(), value, `should be less than or equal to ${maximum}`));
    }
  }
}

export function checkItemCount(
  errors: FieldError[],
  path: LazyPath,
  items: unknown[],
  schema: Schema,
): void {
  if (schema.maxItems !== undefined && items.length > schema.maxItems) {
    errors.push(tooMany(path(), items.length, schema.maxItems));
  }
  if (schema.minItems !== undefined && items.length < schema.minItems) {
    errors.push(invalidInBody(path(), items, `should have at least ${schema.minItems} items`));
  }
}

export function checkPropertyCount(
  errors: FieldError[],
  path: LazyPath,
  obj: Record<string, unknown>,
  schema: Schema,
): void {
  const { maxProperties, minProperties } = schema;
  if (maxProperties === undefined && minProperties === undefined) return;
  const count = Object.keys(obj).length;
  if (maxProperties !== undefined && count > maxProperties) {
    errors.push(tooMany(path(), count, maxProperties));
  }
  if (minProperties !== undefined && count < minProperties) {
    errors.push(invalidInBody(path(), obj, `should have at least ${minProperties} properties`));
  }
}

/** `spec.x: Required value` for each required field that is absent (and has no default). */
export function checkRequired(
  errors: FieldError[],
  path: LazyPath,
  obj: Record<string, unknown>,
  schema: Schema,
): void {
  const required = schema.required;
  if (!required) return;
  for (const key of required) {
    const prop = schema.properties?.[key];
    const value = obj[key];
    const absent = value === undefined || (value === null && prop?.nullable !== true);
    if (absent && prop?.default === undefined) errors.push(requiredValue(childPath(path(), key)));
  }
}
