/**
 * The WorkloadMonitor controller on a Manager: a monitor is reconciled when it
 * changes and when a pod it selects (before or after the change) is added,
 * changed or deleted. Pods are mapped to monitors through an index of the
 * monitor cache by namespace, so a pod only ever wakes monitors of its own
 * namespace: a tenant's pod never counts toward another namespace's monitor.
 * No timers: nothing happens when nothing changes.
 */
import type { KubeObject } from "../../../api/index.js";
import { type Manager, type RequestQueue, requestOf } from "../../../runtime/index.js";
import { WORKLOAD_MONITOR, type WorkloadMonitor } from "../../workloads-api.js";
import { selects } from "./monitor-status.js";
import { MONITORED_PODS, POD, WorkloadMonitorReconciler } from "./reconciler.js";

const BY_NAMESPACE = "workloadmonitor:namespace";

/** Builds the controller on `manager`; its reads come from the Manager's shared cache. */
export function registerWorkloadMonitors(manager: Manager): void {
  const monitors = manager.cache.informer(WORKLOAD_MONITOR);
  if (!monitors.hasIndex(BY_NAMESPACE))
    monitors.addIndex(BY_NAMESPACE, (m) => [m.metadata.namespace ?? ""]);
  const podChanged = (pod: KubeObject, old: KubeObject | undefined, queue: RequestQueue) => {
    const inNamespace = monitors.byIndex(BY_NAMESPACE, pod.metadata.namespace ?? "");
    for (const m of inNamespace as WorkloadMonitor[])
      if (selects(m, pod) || (old && selects(m, old))) queue.add(requestOf(m));
  };
  manager
    .controller("workloadmonitor")
    .for(WORKLOAD_MONITOR)
    .watchesWith(
      POD,
      {
        create: (p, q) => podChanged(p, undefined, q),
        update: (old, p, q) => podChanged(p, old, q),
        delete: (p, q) => podChanged(p, undefined, q),
      },
      { scope: MONITORED_PODS },
    )
    .workers(2)
    .complete(new WorkloadMonitorReconciler(manager.cache, manager.client));
}
