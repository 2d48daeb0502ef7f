/**
 * What a WorkloadMonitor's status says, as a pure function of the monitor and
 * the pods around it (Cozystack's workloadmonitor_controller): the pods of its
 * namespace its selector matches are observed, the Ready ones available, and
 * the monitor is operational unless fewer are available than `minReplicas`.
 */
import type { KubeObject, Pod } from "../../../api/index.js";
import { labelSelectorFromObject } from "../../../api/index.js";
import type { WorkloadMonitor, WorkloadMonitorStatus } from "../../workloads-api.js";

/** True when `pod` lies in the monitor's namespace and carries every label of its selector. */
export function selects(monitor: WorkloadMonitor, pod: KubeObject): boolean {
  if (pod.metadata.namespace !== monitor.metadata.namespace) return false;
  const selector = labelSelectorFromObject({ matchLabels: monitor.spec?.selector ?? {} });
  return selector.matches((k) => pod.metadata.labels?.[k]);
}

/** The pod's `Ready` condition is True. */
export function isPodReady(pod: Pod): boolean {
  return (pod.status?.conditions ?? []).some((c) => c.type === "Ready" && c.status === "True");
}

/** The status `monitor` should report, counting those of `pods` it selects. */
export function monitorStatus(
  monitor: WorkloadMonitor,
  pods: readonly Pod[],
): WorkloadMonitorStatus {
  const selected = pods.filter((p) => selects(monitor, p));
  const availableReplicas = selected.filter(isPodReady).length;
  return {
    operational: availableReplicas >= (monitor.spec?.minReplicas ?? 0),
    observedReplicas: selected.length,
    availableReplicas,
  };
}

/** True when `status` already holds every field of `want`. */
export function sameStatus(
  status: WorkloadMonitorStatus | undefined,
  want: WorkloadMonitorStatus,
): boolean {
  return (
    status?.operational === want.operational &&
    status?.observedReplicas === want.observedReplicas &&
    status?.availableReplicas === want.availableReplicas
  );
}
