/**
 * The value constraints of one schema node (enum, string length/pattern/format,
 * numeric bounds, item and property counts), reported with kube-openapi's
 * messages as apiextensions-apiserver turns them into field errors.
 */
import { type FieldError, requiredValue } from "../../api/errors.js";
import type { Schema } from "../../api/schema.js";
import { invalidInBody, notSupported, tooLong, tooMany, typeInvalid } from "./field-errors.js";
import { matchesFormat } from "./formats.js";
import { isDeepEqual } from "./json-equal.js";

export function checkEnum(path: string, value: unknown, schema: Schema): FieldError[] {
  const allowed = schema.enum;
  if (!allowed || allowed.some((a) => isDeepEqual(a, value))) return [];
  return [notSupported(path, value, allowed)];
}

/** Length in characters (code points), as Go's utf8.RuneCountInString. */
function runeLength(s: string): number {
  let n = 0;
  for (const _ of s) n++;
  return n;
}

export function checkString(path: string, value: string, schema: Schema): FieldError[] {
  const errors: FieldError[] = [];
  const length = runeLength(value);
  if (schema.maxLength !== undefined && length > schema.maxLength) {
    errors.push(tooLong(path, schema.maxLength));
  }
  if (schema.minLength !== undefined && length < schema.minLength) {
    errors.push(invalidInBody(path, value, `should be at least ${schema.minLength} chars long`));
  }
  if (schema.pattern !== undefined && !safeRegExp(schema.pattern)?.test(value)) {
    errors.push(invalidInBody(path, value, `should match '${schema.pattern}'`));
  }
  if (schema.format !== undefined && !matchesFormat(schema.format, value)) {
    errors.push(typeInvalid(path, schema.format, value));
  }
  return errors;
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

export function checkNumber(path: string, value: number, schema: Schema): FieldError[] {
  const errors: FieldError[] = [];
  const { minimum, maximum } = schema;
  if (minimum !== undefined) {
    if (schema.exclusiveMinimum && value <= minimum) {
      errors.push(invalidInBody(path, value, `should be greater than ${minimum}`));
    } else if (!schema.exclusiveMinimum && value < minimum) {
      errors.push(invalidInBody(path, value, `should be greater than or equal to ${minimum}`));
    }
  }
  if (maximum !== undefined) {
    if (schema.exclusiveMaximum && value >= maximum) {
      errors.push(invalidInBody(path, value, `should be less than ${maximum}`));
    } else if (!schema.exclusiveMaximum && value > maximum) {
      errors.push(invalidInBody(path, value, `should be less than or equal to ${maximum}`));
    }
  }
  return errors;
}

export function checkItemCount(path: string, items: unknown[], schema: Schema): FieldError[] {
  const errors: FieldError[] = [];
  if (schema.maxItems !== undefined && items.length > schema.maxItems) {
    errors.push(tooMany(path, items.length, schema.maxItems));
  }
  if (schema.minItems !== undefined && items.length < schema.minItems) {
    errors.push(invalidInBody(path, items, `should have at least ${schema.minItems} items`));
  }
  return errors;
}

export function checkPropertyCount(
  path: string,
  obj: Record<string, unknown>,
  schema: Schema,
): FieldError[] {
  const errors: FieldError[] = [];
  const count = Object.keys(obj).length;
  if (schema.maxProperties !== undefined && count > schema.maxProperties) {
    errors.push(tooMany(path, count, schema.maxProperties));
  }
  if (schema.minProperties !== undefined && count < schema.minProperties) {
    errors.push(
      invalidInBody(path, obj, `should have at least ${schema.minProperties} properties`),
    );
  }
  return errors;
}

/** `spec.x: Required value` for each required field that is absent (and has no default). */
export function checkRequired(
  path: string,
  obj: Record<string, unknown>,
  schema: Schema,
): FieldError[] {
  const errors: FieldError[] = [];
  for (const key of schema.required ?? []) {
    const prop = schema.properties?.[key];
    const value = obj[key];
    const absent = value === undefined || (value === null && prop?.nullable !== true);
    if (absent && prop?.default === undefined) {
      errors.push(requiredValue(path === "" ? key : `${path}.${key}`));
    }
  }
  return errors;
}
