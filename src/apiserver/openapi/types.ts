/**
 * The input (one served resource) and output shapes of the OpenAPI v3 documents
 * kubectl reads: the `/openapi/v3` index and one document per group-version.
 */
import type { Schema } from "../../api/index.js";

export interface OpenApiResource {
  group: string;
  version: string;
  kind: string;
  plural: string;
  namespaced: boolean;
  /** The full object schema (inline `metadata` is replaced by the ObjectMeta `$ref`). */
  schema: Schema;
  /** Served subresources: `"status"`, `"scale"`. */
  subresources: string[];
  /** True for built-in kinds only: custom kinds must not advertise strategic merge patch. */
  strategicMergePatch: boolean;
  /** Only get and list are served (a computed kind such as PodMetrics). */
  readOnly?: boolean;
}

/** The `x-kubernetes-action` of an operation. */
export type KubeAction = "get" | "list" | "post" | "put" | "patch" | "delete" | "deletecollection";

export interface OpenApiParameter {
  name: string;
  in: "query" | "path";
  description?: string;
  required?: boolean;
  schema: { type: "string" | "boolean" | "integer"; uniqueItems: true };
}

export interface OpenApiMediaType {
  schema: Schema;
}

export interface OpenApiResponse {
  description: string;
  content?: Record<string, OpenApiMediaType>;
}

export interface OpenApiOperation {
  description: string;
  operationId: string;
  tags: string[];
  parameters?: OpenApiParameter[];
  requestBody?: { content: Record<string, OpenApiMediaType>; required?: boolean };
  responses: Record<string, OpenApiResponse>;
  "x-kubernetes-action": KubeAction;
  /** A single map here (a list only on component schemas). */
  "x-kubernetes-group-version-kind": { group: string; kind: string; version: string };
}

export interface OpenApiPathItem {
  parameters?: OpenApiParameter[];
  get?: OpenApiOperation;
  put?: OpenApiOperation;
  post?: OpenApiOperation;
  delete?: OpenApiOperation;
  patch?: OpenApiOperation;
}

export interface OpenApiDocument {
  openapi: "3.0.0";
  info: { title: string; version: string };
  paths: Record<string, OpenApiPathItem>;
  components: { schemas: Record<string, Schema> };
}

/** `GET /openapi/v3`: each group-version's document, addressed with its content hash. */
export interface OpenApiIndex {
  paths: Record<string, { serverRelativeURL: string }>;
}
