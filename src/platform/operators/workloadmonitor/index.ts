/**
 * WorkloadMonitor (`cozystack.io/v1alpha1`, Cozystack's kind): the CRD and the
 * controller that keeps each monitor's status (observed, available,
 * operational) in step with the pods it selects. Apps render monitors; the
 * engine reads them into the app's `WorkloadsReady` condition.
 */
import type { Component } from "../../component.js";
import { registerWorkloadMonitors } from "./controller.js";
import { WORKLOAD_MONITOR_CRD } from "./crd.js";

export { registerWorkloadMonitors } from "./controller.js";
export { WORKLOAD_MONITOR_CRD } from "./crd.js";
export { isPodReady, monitorStatus, selects } from "./monitor-status.js";
export { MONITORED_PODS } from "./reconciler.js";

export const workloadMonitorComponent: Component = {
  name: "workloadmonitor",
  crds: [WORKLOAD_MONITOR_CRD],
  controllers: [
    { name: "workloadmonitor", register: (manager) => registerWorkloadMonitors(manager) },
  ],
};
