/** The Kubernetes-compatible API server: HTTP(S), resources, CRDs, watch, patch, authn/authz. */

export type { AdmissionPlugin } from "./admission/types.js";
export { loadTokenFile, parseTokenFile, type UserInfo } from "./auth/index.js";
export { startCompactor } from "./compactor.js";
export { CRD_CLEANUP_FINALIZER } from "./crd/crd-kind.js";
export { FOREGROUND_FINALIZER, ORPHAN_FINALIZER } from "./handlers/delete.js";
export { DEFAULT_SERVICE_CIDR } from "./resources/cluster-ip.js";
export type { ResourceType } from "./resources/resource-type.js";
export { ApiServer, type ApiServerOptions } from "./server.js";
