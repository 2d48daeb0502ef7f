/** The scheduler: binds pending Pods to Ready Nodes by resources, nodeSelector and anti-affinity. */
export { type ClusterView, type Decision, fitErrorMessage, schedule } from "./fit.js";
export {
  NOT_READY_TAINT,
  tolerates,
  UNREACHABLE_TAINT,
  UNSCHEDULABLE_TAINT,
} from "./node-filters.js";
export { Scheduler, type SchedulerOptions, UNSCHEDULABLE_RETRY_MS } from "./scheduler.js";
export type { Toleration } from "./types.js";
