/**
 * One OpenAPI operation of a resource path, carrying the two extensions kubectl
 * reads: `x-kubernetes-action` and `x-kubernetes-group-version-kind` (a single
 * map). PATCH bodies list strategic merge patch only for built-in kinds.
 */
import {
  componentRef,
  DELETE_OPTIONS_COMPONENT,
  PATCH_COMPONENT,
  STATUS_COMPONENT,
} from "./names.js";
import { parametersByAction } from "./parameters.js";
import type { KubeAction, OpenApiMediaType, OpenApiOperation, OpenApiResponse } from "./types.js";

export interface OperationTarget {
  /** The kind named in descriptions (`ConfigMap`). */
  kind: string;
  /** The GVK the operation reads or writes (autoscaling/v1 Scale for `/scale`). */
  gvk: { group: string; version: string; kind: string };
  /** The component of the request/response body. */
  bodyComponent: string;
  /** The list component for `list`. */
  listComponent: string;
  /** `NamespacedConfigMap`, `ConfigMapForAllNamespaces`, `NamespacedConfigMapStatus`… */
  idSuffix: string;
  /** `status` / `scale` for subresources. */
  subresource?: string;
  operationGroupVersion: string;
  tag: string;
  strategicMergePatch: boolean;
}

const PATCH_TYPES = [
  "application/apply-patch+yaml",
  "application/json-patch+json",
  "application/merge-patch+json",
];
const SMP_TYPE = "application/strategic-merge-patch+json";

function json(component: string): Record<string, OpenApiMediaType> {
  return { "application/json": { schema: { $ref: componentRef(component) } } };
}

function responses(
  codes: Record<string, string>,
  component: string,
): Record<string, OpenApiResponse> {
  const out: Record<string, OpenApiResponse> = {};
  for (const [code, description] of Object.entries(codes)) {
    out[code] = { description, content: json(component) };
  }
  return out;
}

const VERB_ID: Record<Exclude<KubeAction, "deletecollection">, string> = {
  get: "read",
  list: "list",
  post: "create",
  put: "replace",
  patch: "patch",
  delete: "delete",
};

function describe(action: KubeAction, t: OperationTarget): string {
  const of = t.subresource ? `${t.subresource} of ` : "";
  switch (action) {
    case "get":
      return `read ${of}the specified ${t.kind}`;
    case "list":
      return `list or watch objects of kind ${t.kind}`;
    case "post":
      return `create a ${t.kind}`;
    case "put":
      return `replace ${of}the specified ${t.kind}`;
    case "patch":
      return `partially update ${of}the specified ${t.kind}`;
    case "delete":
      return `delete a ${t.kind}`;
    case "deletecollection":
      return `delete collection of ${t.kind}`;
  }
}

function operationId(action: KubeAction, t: OperationTarget): string {
  // kube: deleteCoreV1CollectionNamespacedConfigMap
  if (action === "deletecollection") {
    return `delete${t.operationGroupVersion}Collection${t.idSuffix}`;
  }
  return `${VERB_ID[action]}${t.operationGroupVersion}${t.idSuffix}`;
}

function body(action: KubeAction, t: OperationTarget): OpenApiOperation["requestBody"] {
  switch (action) {
    case "post":
    case "put":
      return { content: json(t.bodyComponent), required: true };
    case "patch": {
      const types = t.strategicMergePatch ? [...PATCH_TYPES, SMP_TYPE] : PATCH_TYPES;
      const content: Record<string, OpenApiMediaType> = {};
      for (const type of types) content[type] = { schema: { $ref: componentRef(PATCH_COMPONENT) } };
      return { content, required: true };
    }
    case "delete":
    case "deletecollection":
      return { content: json(DELETE_OPTIONS_COMPONENT) };
    default:
      return undefined;
  }
}

function responsesFor(action: KubeAction, t: OperationTarget): Record<string, OpenApiResponse> {
  switch (action) {
    case "get":
      return responses({ "200": "OK" }, t.bodyComponent);
    case "list":
      return responses({ "200": "OK" }, t.listComponent);
    case "post":
      return responses({ "200": "OK", "201": "Created", "202": "Accepted" }, t.bodyComponent);
    case "put":
    case "patch":
      return responses({ "200": "OK", "201": "Created" }, t.bodyComponent);
    case "delete":
    case "deletecollection":
      return responses({ "200": "OK", "202": "Accepted" }, STATUS_COMPONENT);
  }
}

export function buildOperation(action: KubeAction, t: OperationTarget): OpenApiOperation {
  const params = parametersByAction[action];
  const requestBody = body(action, t);
  return {
    description: describe(action, t),
    operationId: operationId(action, t),
    tags: [t.tag],
    ...(params.length > 0 ? { parameters: [...params] } : {}),
    ...(requestBody ? { requestBody } : {}),
    responses: responsesFor(action, t),
    "x-kubernetes-action": action,
    "x-kubernetes-group-version-kind": {
      group: t.gvk.group,
      kind: t.gvk.kind,
      version: t.gvk.version,
    },
  };
}
