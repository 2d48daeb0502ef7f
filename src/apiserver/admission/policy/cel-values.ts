/**
 * JSON ↔ CEL values for policy expressions. Objects arrive as parsed JSON, whose
 * numbers are all doubles; kube's CEL sees integral JSON numbers as `int`, so
 * `object.spec.replicas + 1` and `size(x) == 3` type-check the same way here.
 */
import { type CelInput, type CelResult, isCelError, isCelList, isCelMap } from "@bufbuild/cel";

/** Deep-converts parsed JSON into CEL input: integral numbers become int (bigint). */
export function toCel(value: unknown): CelInput {
  if (value === null || value === undefined) return null;
  switch (typeof value) {
    case "number":
      return Number.isSafeInteger(value) ? BigInt(value) : value;
    case "string":
    case "boolean":
      return value;
    case "object":
      if (Array.isArray(value)) return value.map(toCel);
      return new Map(Object.entries(value).map(([k, v]) => [k, toCel(v)]));
    default:
      return null;
  }
}

/** The CEL type name of a result, for error messages (`bool`, `string`, `map`…). */
export function celTypeName(value: CelResult): string {
  if (value === null) return "null_type";
  if (isCelError(value)) return "error";
  if (isCelList(value)) return "list";
  if (isCelMap(value)) return "map";
  switch (typeof value) {
    case "bigint":
      return "int";
    case "number":
      return "double";
    case "boolean":
      return "bool";
    case "string":
      return "string";
    default:
      return "object";
  }
}
