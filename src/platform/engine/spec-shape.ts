/**
 * The one check that ties a module's `Spec` type to its definition's schema:
 * `shapeProblem` compares the module's declared shape (`SpecShape<Spec>`) with
 * the schema's top-level properties once, when the engine takes the module;
 * `specProblem` checks an app's stored spec against the shape before render,
 * so a module reads `app.spec` as `Spec` without casting (the apiserver
 * validated it against the same schema; this catches a spec stored before
 * the schema changed).
 */

import type { ApplicationDefinition } from "../definitions.js";
import { appSchema, type JsonSchema } from "../definitions.js";

type Shape = Record<string, string>;

/** JSON type names of a value, as the schema's `type` would name it. */
function typesOf(v: unknown): string[] {
  if (Array.isArray(v)) return ["array"];
  if (v === null) return ["null"];
  if (typeof v === "number") return Number.isInteger(v) ? ["integer", "number"] : ["number"];
  return [typeof v];
}

/** Whether a value of JSON type `actual` is of the shape's `type`. */
const accepts = (type: string, actual: string) =>
  type === actual || (type === "int-or-string" && (actual === "string" || actual === "integer"));

/** Why `shape` does not describe `def`'s schema, or undefined when it does. */
export function shapeProblem(def: ApplicationDefinition, shape: Shape): string | undefined {
  const properties = (appSchema(def).properties ?? {}) as Record<string, JsonSchema>;
  const problems: string[] = [];
  for (const [key, type] of Object.entries(shape)) {
    const property = properties[key];
    const declared = property?.["x-kubernetes-int-or-string"] ? "int-or-string" : property?.type;
    if (declared === undefined) problems.push(`${key}: not in the schema`);
    else if (declared !== type)
      problems.push(`${key}: the schema says ${String(declared)}, the module ${type}`);
  }
  for (const key of Object.keys(properties))
    if (!(key in shape)) problems.push(`${key}: in the schema, not in the module's spec`);
  if (problems.length === 0) return undefined;
  return `the module's spec of ${def.spec.application.kind} does not match its definition: ${problems.join("; ")}`;
}

/** Why `spec` does not fit `shape`, or undefined when every key it has is of its type. */
export function specProblem(shape: Shape, spec: unknown): string | undefined {
  if (spec === undefined) return undefined;
  if (typeof spec !== "object" || spec === null || Array.isArray(spec))
    return "spec must be an object";
  const problems: string[] = [];
  for (const [key, value] of Object.entries(spec)) {
    const type = shape[key];
    if (type === undefined) problems.push(`spec.${key}: not a field of this kind`);
    else if (value !== undefined && !typesOf(value).some((t) => accepts(type, t)))
      problems.push(`spec.${key}: must be of type ${type}`);
  }
  return problems.length > 0 ? problems.join("; ") : undefined;
}
