/**
 * JSON value helpers shared by the patch algorithms: kinds, equality, safe key
 * assignment, and Go-style printing so error texts match apimachinery's (`%v` of
 * a map prints `map[a:1 b:2]`, type names read `map[string]interface {}`).
 */
import { isDeepStrictEqual } from "node:util";
import { isObject } from "../../api/index.js";

export type JsonMap = Record<string, unknown>;
export type JsonKind = "null" | "boolean" | "number" | "string" | "array" | "object";

export function jsonKind(v: unknown): JsonKind {
  if (v === null || v === undefined) return "null";
  if (Array.isArray(v)) return "array";
  switch (typeof v) {
    case "boolean":
      return "boolean";
    case "number":
      return "number";
    case "string":
      return "string";
    default:
      return "object";
  }
}

export function jsonEqual(a: unknown, b: unknown): boolean {
  return isDeepStrictEqual(a, b);
}

/** Own-property check that also works for keys such as `__proto__`. */
export function hasKey(m: JsonMap, key: string): boolean {
  return Object.hasOwn(m, key) && m[key] !== undefined;
}

/** `m[key]` if it is an own property: never something inherited, such as the prototype for `__proto__`. */
export function getKey(m: JsonMap, key: string): unknown {
  return Object.hasOwn(m, key) ? m[key] : undefined;
}

/** Sets `m[key]` as an own data property, so a `__proto__` key cannot reach the prototype. */
export function setKey(m: JsonMap, key: string, value: unknown): void {
  Object.defineProperty(m, key, { value, writable: true, enumerable: true, configurable: true });
}

/** Go's `%v` of a decoded JSON value. */
export function goFormat(v: unknown): string {
  if (v === null || v === undefined) return "<nil>";
  if (Array.isArray(v)) return `[${v.map(goFormat).join(" ")}]`;
  if (isObject(v)) {
    const keys = Object.keys(v).sort();
    return `map[${keys.map((k) => `${k}:${goFormat(v[k])}`).join(" ")}]`;
  }
  return String(v);
}

/** Go's `reflect.TypeOf(v)` of a decoded JSON value, as `%s` prints it. */
export function goTypeName(v: unknown): string {
  switch (jsonKind(v)) {
    case "null":
      return "%!s(<nil>)";
    case "boolean":
      return "bool";
    case "number":
      return Number.isInteger(v) ? "int64" : "float64";
    case "string":
      return "string";
    case "array":
      return "[]interface {}";
    default:
      return "map[string]interface {}";
  }
}

/** The JSON type name `encoding/json` uses in "cannot unmarshal X into ..." errors. */
export function goJsonTypeName(v: unknown): string {
  const kind = jsonKind(v);
  return kind === "boolean" ? "bool" : kind;
}
