/** The scheduler: binds pending Pods to Ready Nodes by resources, nodeSelector and anti-affinity. */
export { type ClusterView, type Decision, fitErrorMessage, schedule } from "./fit.js";
export { Scheduler, type SchedulerOptions, UNSCHEDULABLE_RETRY_MS } from "./scheduler.js";
