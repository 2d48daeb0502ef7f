/** Services: the endpoints controller and the resolver of service names. */
export {
  type Desired,
  type DesiredSlice,
  desiredEndpoints,
  resolveTargetPort,
} from "./endpoints-build.js";
export { EndpointsReconciler, selectedPods } from "./endpoints-controller.js";
export { EndpointsController, type EndpointsControllerOptions } from "./endpoints-loop.js";
export {
  parseServiceName,
  ResolveError,
  type ResolveOptions,
  resolveHost,
  resolveService,
} from "./resolver.js";
export {
  type EndpointSlice,
  type Endpoints,
  HEADLESS_LABEL,
  isHeadless,
  MANAGED_BY,
  MANAGED_BY_LABEL,
  SERVICE_NAME_LABEL,
  type Service,
} from "./types.js";
