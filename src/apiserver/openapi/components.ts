/**
 * `components.schemas` of a group-version document: each kind (with its
 * `metadata` turned into kube's `allOf` `$ref` to ObjectMeta and the GVK list
 * `kubectl explain` matches on), its list, and the meta/v1 types the paths use.
 */
import type { Schema } from "../../api/index.js";
import {
  API_VERSION_DESCRIPTION,
  KIND_DESCRIPTION,
  OBJECT_META_DESCRIPTION,
  objectMeta,
} from "../schemas/index.js";
import {
  componentRef,
  DELETE_OPTIONS_COMPONENT,
  LIST_META_COMPONENT,
  OBJECT_META_COMPONENT,
  PATCH_COMPONENT,
  SCALE_COMPONENT,
  STATUS_COMPONENT,
} from "./names.js";
import type { OpenApiResource } from "./types.js";

const apiVersion: Schema = { type: "string", description: API_VERSION_DESCRIPTION };
const kind: Schema = { type: "string", description: KIND_DESCRIPTION };

/** kube's shape for a property of a named type: `allOf` of one `$ref`, plus `default: {}`. */
function refProperty(component: string, description: string): Schema {
  return { allOf: [{ $ref: componentRef(component) }], default: {}, description };
}

function gvkList(group: string, version: string, k: string): Schema {
  return { "x-kubernetes-group-version-kind": [{ group, kind: k, version }] };
}

/** The kind's schema as served: inline metadata replaced by the ObjectMeta `$ref`. */
export function kindComponent(r: OpenApiResource): Schema {
  const schema = structuredClone(r.schema);
  const props = schema.properties ?? {};
  const metaDescription = props.metadata?.description ?? OBJECT_META_DESCRIPTION;
  return {
    ...schema,
    type: "object",
    properties: {
      ...props,
      apiVersion: props.apiVersion ?? apiVersion,
      kind: props.kind ?? kind,
      metadata: refProperty(OBJECT_META_COMPONENT, metaDescription),
    },
    ...gvkList(r.group, r.version, r.kind),
  };
}

export function listComponent(r: OpenApiResource, kindComponentName: string): Schema {
  return {
    description: `${r.kind}List is a list of ${r.kind}`,
    type: "object",
    properties: {
      apiVersion,
      items: {
        description: `List of ${r.plural}.`,
        type: "array",
        items: { $ref: componentRef(kindComponentName) },
      },
      kind,
      metadata: refProperty(
        LIST_META_COMPONENT,
        "Standard list metadata. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#types-kinds",
      ),
    },
    required: ["items"],
    ...gvkList(r.group, r.version, `${r.kind}List`),
  };
}

const str = (description: string): Schema => ({ type: "string", description });

const listMeta: Schema = {
  description:
    "ListMeta describes metadata that synthetic resources must have, including lists and various status objects.",
  type: "object",
  properties: {
    continue: str("continue may be set if the user set a limit on the number of items returned."),
    remainingItemCount: {
      type: "integer",
      format: "int64",
      description: "remainingItemCount is the number of subsequent items in the list.",
    },
    resourceVersion: str("String that identifies the server's internal version of this object."),
    selfLink: str("Deprecated: selfLink is a legacy read-only field that is no longer populated."),
  },
};

const status: Schema = {
  description: "Status is a return value for calls that don't return other objects.",
  type: "object",
  properties: {
    apiVersion,
    code: { type: "integer", format: "int32", description: "Suggested HTTP return code." },
    details: {
      type: "object",
      description: "Extended data associated with the reason.",
      "x-kubernetes-preserve-unknown-fields": true,
    },
    kind,
    message: str("A human-readable description of the status of this operation."),
    metadata: refProperty(LIST_META_COMPONENT, "Standard list metadata."),
    reason: str("A machine-readable description of why this operation is in the Failure status."),
    status: str('Status of the operation. One of: "Success" or "Failure".'),
  },
  ...gvkList("", "v1", "Status"),
};

const deleteOptions: Schema = {
  description: "DeleteOptions may be provided when deleting an API object.",
  type: "object",
  properties: {
    apiVersion,
    dryRun: {
      type: "array",
      items: { type: "string" },
      description: "When present, indicates that modifications should not be persisted.",
      "x-kubernetes-list-type": "atomic",
    },
    gracePeriodSeconds: {
      type: "integer",
      format: "int64",
      description: "The duration in seconds before the object should be deleted.",
    },
    kind,
    orphanDependents: { type: "boolean", description: "Deprecated: use propagationPolicy." },
    preconditions: {
      type: "object",
      description: "Must be fulfilled before a deletion is carried out.",
      properties: {
        resourceVersion: str("Specifies the target ResourceVersion"),
        uid: str("Specifies the target UID."),
      },
    },
    propagationPolicy: str(
      "Whether and how garbage collection will be performed: Orphan, Background or Foreground.",
    ),
  },
  ...gvkList("", "v1", "DeleteOptions"),
};

const patch: Schema = {
  description:
    "Patch is provided to give a concrete name and type to the Kubernetes PATCH request body.",
  type: "object",
};

const scale: Schema = {
  description: "Scale represents a scaling request for a resource.",
  type: "object",
  properties: {
    apiVersion,
    kind,
    metadata: refProperty(OBJECT_META_COMPONENT, OBJECT_META_DESCRIPTION),
    spec: {
      type: "object",
      description: "spec defines the behavior of the scale.",
      properties: {
        replicas: {
          type: "integer",
          format: "int32",
          description: "replicas is the desired number of instances for the scaled object.",
        },
      },
    },
    status: {
      type: "object",
      description: "status is the current status of the scale.",
      properties: {
        replicas: {
          type: "integer",
          format: "int32",
          description: "replicas is the actual number of observed instances of the scaled object.",
        },
        selector: str(
          "selector is the label query over pods that should match the replicas count.",
        ),
      },
      required: ["replicas"],
    },
  },
  ...gvkList("autoscaling", "v1", "Scale"),
};

/** The meta/v1 (and autoscaling/v1 Scale) components every document references. */
export function sharedComponents(withScale: boolean): Record<string, Schema> {
  return {
    [DELETE_OPTIONS_COMPONENT]: structuredClone(deleteOptions),
    [LIST_META_COMPONENT]: structuredClone(listMeta),
    [OBJECT_META_COMPONENT]: structuredClone(objectMeta),
    [PATCH_COMPONENT]: structuredClone(patch),
    [STATUS_COMPONENT]: structuredClone(status),
    ...(withScale ? { [SCALE_COMPONENT]: structuredClone(scale) } : {}),
  };
}
