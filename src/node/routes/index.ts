/**
 * Routes between nodes: each node of a Hearth routes the other nodes' pod
 * CIDRs to their InternalIPs, decided from the Node objects (`podRoutes`) and
 * kept by one controller on the agent's Manager. See docs/networking.md.
 */
export {
  deleteRoute,
  HEARTH_ROUTE_PROTOCOL,
  IpRouteError,
  listRoutes,
  parseRoutes,
  type RouteLine,
  replaceRoute,
} from "./ip-route.js";
export {
  clashingRoutes,
  type PodRoutesOptions,
  registerPodRoutes,
} from "./pod-route-controller.js";
export {
  MIN_ROUTED_PREFIX,
  type PodRoute,
  podRoutes,
  type RoutePlan,
  routingChanged,
} from "./pod-routes.js";
export { readRouteInventory, routeInventoryPath } from "./route-inventory.js";
