/**
 * The shape a CRD's `openAPIV3Schema` must have before anything walks it:
 * every place that holds a schema (the root, `properties` and
 * `patternProperties` values, `items`, `additionalProperties` unless a
 * boolean, `allOf`/`anyOf`/`oneOf` entries, `not`) holds an object. kube decodes
 * the CRD into typed JSONSchemaProps first, so a string or a number there is a
 * 400 decode error; a null decodes to the empty schema, which structural
 * validation refuses (422, `type: Required value`). Every later walker (rules,
 * defaults, pruning, the schema check) may then assume objects.
 */
import { BadRequestError, type FieldError, requiredValue } from "../../api/index.js";
import type { CrdVersion } from "./custom-types.js";

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);

/** Go's name for the JSON type it could not unmarshal into a JSONSchemaProps. */
function goType(v: unknown): string {
  if (Array.isArray(v)) return "array";
  if (isObject(v)) return "object";
  return typeof v === "string" ? "string" : typeof v === "boolean" ? "bool" : "number";
}

function decodeError(v: unknown, field: string): BadRequestError {
  return new BadRequestError(
    `CustomResourceDefinition in version "v1" cannot be handled as a CustomResourceDefinition: json: cannot unmarshal ${goType(v)} into Go struct field ${field} of type v1.JSONSchemaProps`,
  );
}

/** The schemas directly below `schema`, with their paths and Go field names. */
function children(schema: Record<string, unknown>, path: string): [unknown, string, string][] {
  const out: [unknown, string, string][] = [];
  for (const key of ["properties", "patternProperties"] as const) {
    const map = schema[key];
    if (map === undefined || map === null) continue;
    if (!isObject(map)) throw decodeError(map, `JSONSchemaProps.${key}`);
    for (const [k, v] of Object.entries(map)) out.push([v, `${path}.${key}[${k}]`, key]);
  }
  const items = schema.items;
  if (Array.isArray(items))
    for (const [i, v] of items.entries()) out.push([v, `${path}.items[${i}]`, "items"]);
  else if (items !== undefined) out.push([items, `${path}.items`, "items"]);
  const extra = schema.additionalProperties;
  if (extra !== undefined && typeof extra !== "boolean")
    out.push([extra, `${path}.additionalProperties`, "additionalProperties"]);
  for (const key of ["allOf", "anyOf", "oneOf"] as const) {
    const list = schema[key];
    if (list === undefined || list === null) continue;
    if (!Array.isArray(list)) throw decodeError(list, `JSONSchemaProps.${key}`);
    for (const [i, v] of list.entries()) out.push([v, `${path}.${key}[${i}]`, key]);
  }
  if (schema.not !== undefined) out.push([schema.not, `${path}.not`, "not"]);
  return out;
}

function walk(schema: unknown, path: string, field: string, errors: FieldError[]): void {
  if (schema === null) {
    errors.push(requiredValue(`${path}.type`, "must not be empty for specified object fields"));
    return;
  }
  if (!isObject(schema)) throw decodeError(schema, `JSONSchemaProps.${field}`);
  for (const [sub, at, name] of children(schema, path)) walk(sub, at, name, errors);
}

/**
 * Errors of the schemas' shape, at kube's paths; throws a BadRequestError where
 * kube's decoder would already have failed.
 */
export function schemaShapeErrors(versions: unknown): FieldError[] {
  if (!Array.isArray(versions)) return [];
  const errors: FieldError[] = [];
  (versions as CrdVersion[]).forEach((v, i) => {
    if (!isObject(v)) return;
    const holder = v.schema as unknown;
    if (holder === undefined || holder === null) return;
    if (!isObject(holder)) throw decodeError(holder, "CustomResourceDefinitionVersion.schema");
    const root = holder.openAPIV3Schema;
    if (root === undefined || root === null) return;
    walk(root, `spec.versions[${i}].schema.openAPIV3Schema`, "openAPIV3Schema", errors);
  });
  return errors;
}
