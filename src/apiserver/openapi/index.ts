/**
 * The OpenAPI documents kubectl reads: v3 (`/openapi/v3` and one per
 * group-version) for `explain`, server-side field validation and the choice of
 * patch type in client-side apply; v2 (`/openapi/v2`, JSON or gnostic protobuf)
 * for the clients that read only that.
 */
export { buildGroupVersionDocument, KUBERNETES_VERSION } from "./document.js";
export { componentName, groupVersionPath } from "./names.js";
export {
  buildOpenApiDocuments,
  buildOpenApiIndex,
  type DocumentHash,
  documentHash,
  type OpenApiDocuments,
} from "./openapi-index.js";
export type {
  KubeAction,
  OpenApiDocument,
  OpenApiIndex,
  OpenApiOperation,
  OpenApiParameter,
  OpenApiPathItem,
  OpenApiResource,
} from "./types.js";
export { buildSwaggerDocument } from "./v2-document.js";
export {
  negotiateSwagger,
  type SwaggerEncoding,
  type SwaggerSource,
  serveSwagger,
} from "./v2-handler.js";
export {
  encodeSwaggerDocument,
  OPENAPI_V2_PROTOBUF,
  OPENAPI_V2_PROTOBUF_LEGACY,
} from "./v2-protobuf.js";
export type { SwaggerDocument } from "./v2-types.js";
