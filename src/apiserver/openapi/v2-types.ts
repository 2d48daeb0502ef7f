/**
 * The Swagger 2.0 shapes of `/openapi/v2`: what Helm, kustomize, older kubectl
 * and client-go's `OpenAPISchema()` read. Schemas keep the v3 `Schema` type with
 * v2's `#/definitions/…` refs and without what v2 cannot express.
 */
import type { Schema } from "../../api/index.js";

export interface SwaggerParameter {
  name: string;
  in: "query" | "path" | "body";
  description?: string;
  required?: boolean;
  /** Query and path parameters. */
  type?: "string" | "boolean" | "integer";
  uniqueItems?: boolean;
  /** Body parameters. */
  schema?: Schema;
}

export interface SwaggerResponse {
  description: string;
  schema?: Schema;
}

export interface SwaggerOperation {
  description: string;
  consumes: string[];
  produces: string[];
  schemes: string[];
  tags: string[];
  operationId: string;
  parameters?: SwaggerParameter[];
  responses: Record<string, SwaggerResponse>;
  "x-kubernetes-action": string;
  "x-kubernetes-group-version-kind": { group: string; kind: string; version: string };
}

export type SwaggerMethod = "get" | "put" | "post" | "delete" | "patch";

export type SwaggerPathItem = { parameters?: SwaggerParameter[] } & {
  [M in SwaggerMethod]?: SwaggerOperation;
};

export interface SwaggerDocument {
  swagger: "2.0";
  info: { title: string; version: string };
  paths: Record<string, SwaggerPathItem>;
  definitions: Record<string, Schema>;
  securityDefinitions: Record<string, { type: "apiKey"; name: string; in: "header" }>;
  security: Record<string, string[]>[];
}
