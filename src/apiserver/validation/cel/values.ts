/**
 * JSON values as CEL sees them under a structural schema, as kube's
 * `UnstructuredToVal` does: `integer` is CEL int (bigint), `number` is double,
 * int-or-string is either, lists are CEL lists, objects and maps are CEL maps.
 * Object property names are escaped (`foo-bar` → `foo__dash__bar`); at a resource
 * root `metadata` shows only `name` and `generateName`.
 */
import { type CelInput, celList, celMap } from "@bufbuild/cel";
import type { Schema } from "../../../api/index.js";

const RESERVED = new Set([
  "true",
  "false",
  "null",
  "in",
  "as",
  "break",
  "const",
  "continue",
  "else",
  "for",
  "function",
  "if",
  "import",
  "let",
  "loop",
  "package",
  "namespace",
  "return",
  "var",
  "void",
  "while",
]);

const ESCAPABLE = /^[a-zA-Z_.\-/][a-zA-Z0-9_.\-/]*$/;

/** The CEL name of an object property, or undefined when CEL cannot name it. */
export function escapePropertyName(name: string): string | undefined {
  if (RESERVED.has(name)) return `__${name}__`;
  if (!ESCAPABLE.test(name)) return undefined;
  return name.replace(/__|[-./]/g, (m) =>
    m === "__" ? "__underscores__" : m === "." ? "__dot__" : m === "-" ? "__dash__" : "__slash__",
  );
}

/** True when values under this schema are typed by it (not free-form). */
export function hasStructure(schema: Schema | undefined): schema is Schema {
  return (
    schema !== undefined &&
    (schema.type !== undefined || schema["x-kubernetes-int-or-string"] === true)
  );
}

/** A JSON number as CEL: int when the schema (or, untyped, the value) is integral. */
function number(value: number, schema: Schema | undefined): CelInput {
  if (schema?.type === "number") return value;
  if (Number.isInteger(value)) return BigInt(value);
  return value;
}

/** Converts a JSON value to its CEL form under `schema`; `root` marks a resource root. */
export function toCel(value: unknown, schema: Schema | undefined, root = false): CelInput {
  if (value === null || value === undefined) return null;
  if (typeof value === "number") return number(value, schema);
  if (typeof value === "string" || typeof value === "boolean") return value;
  if (Array.isArray(value)) return celList(value.map((v) => toCel(v, schema?.items)));
  if (typeof value === "object") return objectToCel(value as Record<string, unknown>, schema, root);
  return null;
}

function objectToCel(
  obj: Record<string, unknown>,
  schema: Schema | undefined,
  root: boolean,
): CelInput {
  const out = new Map<string, CelInput>();
  const embedded = root || schema?.["x-kubernetes-embedded-resource"] === true;
  const props = schema?.properties;
  const extra = schema?.additionalProperties;
  for (const [key, v] of Object.entries(obj)) {
    if (embedded && (key === "apiVersion" || key === "kind")) {
      out.set(key, toCel(v, { type: "string" }));
    } else if (embedded && key === "metadata") {
      out.set(key, metadataToCel(v));
    } else if (props) {
      const sub = props[key];
      const name = escapePropertyName(key);
      if (sub && name !== undefined) out.set(name, toCel(v, sub));
    } else if (extra !== undefined && extra !== false) {
      out.set(key, toCel(v, typeof extra === "object" ? extra : undefined));
    } else {
      out.set(key, toCel(v, undefined));
    }
  }
  return celMap(out);
}

/** kube exposes only `name` and `generateName` of ObjectMeta to rules. */
function metadataToCel(meta: unknown): CelInput {
  const out = new Map<string, CelInput>();
  if (meta !== null && typeof meta === "object") {
    const m = meta as Record<string, unknown>;
    if (typeof m.name === "string") out.set("name", m.name);
    if (typeof m.generateName === "string") out.set("generateName", m.generateName);
  }
  return celMap(out);
}
