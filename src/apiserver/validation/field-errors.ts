/**
 * Field errors in the words kube-apiserver uses for schema validation of custom
 * resources (apimachinery `field.Error` bodies around kube-openapi messages).
 */
import { type FieldError, formatValue, invalidValue } from "../../api/index.js";

/** `spec.replicas in body` — the subject of kube-openapi messages. */
export function inBody(path: string): string {
  return `${path} in body`;
}

/** `Invalid value: "string": spec.x in body must be of type integer: "string"`. */
export function typeInvalid(path: string, expected: string, actual: string): FieldError {
  return {
    reason: "FieldValueTypeInvalid",
    field: path,
    detail: `Invalid value: ${JSON.stringify(actual)}: ${inBody(path)} must be of type ${expected}: ${JSON.stringify(actual)}`,
  };
}

/** A kube-openapi failure reported as `Invalid value: <v>: <path> in body <why>`. */
export function invalidInBody(path: string, value: unknown, why: string): FieldError {
  return invalidValue(path, value, `${inBody(path)} ${why}`);
}

/** `Unsupported value: "x": supported values: "a", "b"`. */
export function notSupported(path: string, value: unknown, allowed: unknown[]): FieldError {
  const quoted = allowed.map((v) => JSON.stringify(typeof v === "string" ? v : JSON.stringify(v)));
  const detail = quoted.length > 0 ? `: supported values: ${quoted.join(", ")}` : "";
  return {
    reason: "FieldValueNotSupported",
    field: path,
    detail: `Unsupported value: ${formatValue(value)}${detail}`,
  };
}

/** `Too long: may not be more than 5 bytes`. */
export function tooLong(path: string, max: number): FieldError {
  return {
    reason: "FieldValueTooLong",
    field: path,
    detail: `Too long: may not be more than ${max} bytes`,
  };
}

/** `Too many: 4: must have at most 3 items`. */
export function tooMany(path: string, actual: number, max: number): FieldError {
  return {
    reason: "FieldValueTooMany",
    field: path,
    detail: `Too many: ${actual}: must have at most ${max} items`,
  };
}

/** `Duplicate value: "a"`, or Go's `%#v` of a list-map key: `map[string]interface {}{"name":"a"}`. */
export function duplicate(path: string, value: unknown): FieldError {
  return {
    reason: "FieldValueDuplicate",
    field: path,
    detail: `Duplicate value: ${goValue(value)}`,
  };
}

function goValue(value: unknown): string {
  if (value !== null && typeof value === "object" && !Array.isArray(value)) {
    const entries = Object.entries(value)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([k, v]) => `${JSON.stringify(k)}:${JSON.stringify(v)}`);
    return `map[string]interface {}{${entries.join(", ")}}`;
  }
  return formatValue(value);
}

/**
 * The errors of `general` less its missing fields that `specific` reports on
 * (at the field or below it): a built-in kind's validation says in kube's words
 * what its schema's required check also finds (`roleRef: Required value` gives
 * way to `roleRef.kind: Unsupported value: ""`). Other errors stay: kube reports
 * an enum twice when two of its validations check it (a Job's pod template).
 */
export function uncovered(general: FieldError[], specific: FieldError[]): FieldError[] {
  if (general.length === 0 || specific.length === 0) return general;
  const covers = (field: string, e: FieldError) =>
    e.field === field || e.field.startsWith(`${field}.`) || e.field.startsWith(`${field}[`);
  return general.filter(
    (g) => g.reason !== "FieldValueRequired" || !specific.some((e) => covers(g.field, e)),
  );
}
