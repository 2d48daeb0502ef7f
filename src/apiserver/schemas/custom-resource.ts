/**
 * Turns a CRD version's `openAPIV3Schema` into the full schema of the custom kind:
 * kube always knows `apiVersion`, `kind` and ObjectMeta `metadata` for a custom
 * resource, whatever the CRD says (a CRD may only constrain `metadata.name` and
 * `metadata.generateName`).
 */
import type { GroupVersionKind, Schema } from "../../api/index.js";
import { metadataProperty, typeMetaProperties } from "./kind.js";

/** Merges the CRD's own constraints on `metadata.name`/`generateName` into ObjectMeta. */
function customMetadata(given: Schema | undefined): Schema {
  const meta = metadataProperty();
  const props = { ...meta.properties };
  for (const key of ["name", "generateName"]) {
    const own = given?.properties?.[key];
    if (own && props[key]) props[key] = { ...props[key], ...own };
  }
  return { ...meta, properties: props };
}

export function customResourceSchema(gvk: GroupVersionKind, openAPIV3Schema: Schema): Schema {
  const given = openAPIV3Schema.properties ?? {};
  const typeMeta = typeMetaProperties();
  return {
    ...openAPIV3Schema,
    type: "object",
    properties: {
      ...given,
      apiVersion: { ...typeMeta.apiVersion, ...given.apiVersion },
      kind: { ...typeMeta.kind, ...given.kind },
      metadata: customMetadata(given.metadata),
    },
    "x-kubernetes-group-version-kind": [{ group: gvk.group, version: gvk.version, kind: gvk.kind }],
  };
}
