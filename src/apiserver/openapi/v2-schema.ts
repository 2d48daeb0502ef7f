/**
 * v3 → v2 schema conversion, as kube-apiserver does for CRDs
 * (`ToStructuralOpenAPIV2`): refs move to `#/definitions/`, a single-`$ref`
 * `allOf` becomes a plain `$ref`, and what Swagger 2.0 cannot express is
 * dropped — `nullable` (with the type, so null still validates), `oneOf`,
 * `anyOf`, `not`, and the type of an int-or-string.
 */
import type { Schema } from "../../api/index.js";

const V3_REF = "#/components/schemas/";
const V2_REF = "#/definitions/";

function ref(v3: string): string {
  return v3.startsWith(V3_REF) ? V2_REF + v3.slice(V3_REF.length) : v3;
}

export function toV2Schema(s: Schema): Schema {
  const { nullable, oneOf: _oneOf, anyOf: _anyOf, not: _not, allOf, ...rest } = s;
  const out: Schema = { ...rest };
  if (out.$ref !== undefined) out.$ref = ref(out.$ref);
  const only = allOf?.length === 1 ? allOf[0] : undefined;
  if (only?.$ref !== undefined && Object.keys(only).length === 1) {
    // kube's v2 names a typed property by `$ref` alone; `default: {}` is v3's.
    out.$ref = ref(only.$ref);
    if (typeof out.default === "object" && out.default !== null) delete out.default;
  } else if (allOf !== undefined) {
    out.allOf = allOf.map(toV2Schema);
  }
  if (out.properties !== undefined) {
    out.properties = Object.fromEntries(
      Object.entries(out.properties).map(([k, v]) => [k, toV2Schema(v)]),
    );
  }
  if (out.items !== undefined) out.items = toV2Schema(out.items);
  if (typeof out.additionalProperties === "object") {
    out.additionalProperties = toV2Schema(out.additionalProperties);
  }
  if (nullable === true || out["x-kubernetes-int-or-string"] === true) {
    // No v2 type admits null (or both an int and a string): leave it untyped.
    delete out.type;
    if (nullable === true) {
      delete out.items;
      delete out.properties;
      delete out.additionalProperties;
    }
  }
  return out;
}
