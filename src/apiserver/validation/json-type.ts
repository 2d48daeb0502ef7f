/**
 * JSON type names of decoded values, as kube-openapi's type validator reports
 * them (`integer` for whole numbers, `number` otherwise), and which schema types
 * accept which values.
 */
import type { Schema } from "../../api/index.js";

export type JsonType = "null" | "boolean" | "integer" | "number" | "string" | "array" | "object";

export function jsonType(value: unknown): JsonType {
  if (value === null || value === undefined) return "null";
  if (Array.isArray(value)) return "array";
  switch (typeof value) {
    case "boolean":
      return "boolean";
    case "number":
      return Number.isInteger(value) ? "integer" : "number";
    case "string":
      return "string";
    default:
      return "object";
  }
}

/** Integers are numbers; nothing else converts (no string→number coercion). */
export function typeAccepts(type: NonNullable<Schema["type"]>, actual: JsonType): boolean {
  if (type === actual) return true;
  return type === "number" && actual === "integer";
}
