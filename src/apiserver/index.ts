/** The Kubernetes-compatible API server: HTTP(S), resources, CRDs, watch, patch. */

export type { ResourceType } from "./resources/resource-type.js";
export { ApiServer, type ApiServerOptions } from "./server.js";
