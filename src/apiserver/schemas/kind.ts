/**
 * The envelope every kind's schema shares: `apiVersion`, `kind`, inline
 * `metadata` (ObjectMeta) and the `x-kubernetes-group-version-kind` list.
 */
import type { GroupVersionKind, Schema } from "../../api/index.js";
import { str } from "./builders.js";
import { OBJECT_META_DESCRIPTION, objectMeta } from "./object-meta.js";

export const API_VERSION_DESCRIPTION =
  "APIVersion defines the versioned schema of this representation of an object. Servers should convert recognized schemas to the latest internal value, and may reject unrecognized values. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#resources";

export const KIND_DESCRIPTION =
  "Kind is a string value representing the REST resource this object represents. Servers may infer this from the endpoint the client submits requests to. Cannot be updated. In CamelCase. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#types-kinds";

/** The `apiVersion` and `kind` properties every object has. */
export function typeMetaProperties(): Record<string, Schema> {
  return { apiVersion: str(API_VERSION_DESCRIPTION), kind: str(KIND_DESCRIPTION) };
}

/** ObjectMeta as the `metadata` property of a kind. */
export function metadataProperty(description = OBJECT_META_DESCRIPTION): Schema {
  return { ...objectMeta, description };
}

/** A top-level kind: envelope plus the kind's own fields. */
export function kindSchema(
  gvk: GroupVersionKind,
  description: string,
  properties: Record<string, Schema>,
  required?: string[],
): Schema {
  return {
    type: "object",
    description,
    properties: { ...typeMetaProperties(), metadata: metadataProperty(), ...properties },
    ...(required && required.length > 0 ? { required } : {}),
    "x-kubernetes-group-version-kind": [{ group: gvk.group, version: gvk.version, kind: gvk.kind }],
  };
}
