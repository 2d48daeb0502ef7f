/**
 * A rule's `fieldPath`: a JSON path of field and map-key accessors below the
 * rule's node (`.spec.replicas`, `.labels['app.kubernetes.io/name']`), checked
 * against the schema when the CRD is written and appended to the error's field
 * when the rule fails (`spec` + `.replicas` → `spec.replicas`; a map key → `[key]`).
 */
import type { Schema } from "../../../api/index.js";

/** Tokens: `.name`, `['quoted']`. */
const TOKEN = /\.([^.[\]]+)|\[\s*'((?:[^'\\]|\\.)*)'\s*\]/y;

/**
 * The error-path suffix of `fieldPath` under `schema` (`.a[k]`), or an error
 * string when the path is malformed or leaves the schema.
 */
export function normalizeFieldPath(fieldPath: string, schema: Schema): string | { error: string } {
  let node: Schema | undefined = schema;
  let out = "";
  TOKEN.lastIndex = 0;
  const path = fieldPath.trim();
  while (TOKEN.lastIndex < path.length) {
    const start = TOKEN.lastIndex;
    const m = TOKEN.exec(path);
    if (!m) return { error: `expected [ or . but got: ${path.slice(start)}` };
    const name = m[1] ?? m[2]!.replace(/\\(.)/g, "$1");
    if (!node) return { error: "does not refer to a valid field" };
    if (node.properties) {
      node = node.properties[name];
      if (!node) return { error: "does not refer to a valid field" };
      out += `.${name}`;
    } else if (node.additionalProperties !== undefined && node.additionalProperties !== false) {
      node = typeof node.additionalProperties === "object" ? node.additionalProperties : undefined;
      out += `[${name}]`;
    } else {
      return { error: "does not refer to a valid field" };
    }
  }
  return out;
}

/** `spec` + `.replicas` → `spec.replicas`; `` + `.spec` → `spec`. */
export function appendFieldPath(base: string, suffix: string): string {
  if (suffix === "") return base;
  if (base === "") return suffix.startsWith(".") ? suffix.slice(1) : suffix;
  return `${base}${suffix}`;
}
