/**
 * The OpenAPI v3 documents kubectl reads (`/openapi/v3` and one per
 * group-version) for `explain`, server-side field validation and the choice of
 * patch type in client-side apply.
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
