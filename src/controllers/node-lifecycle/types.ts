/**
 * What the node lifecycle controller reads and writes of Nodes, Leases and Pods,
 * and kube's names for it: the taint keys, condition reasons and messages of
 * kube-controller-manager's node lifecycle, taint eviction and pod GC
 * controllers, so that `kubectl describe` reads the same as on a kube cluster.
 */

import type {
  KubeObject,
  NodeCondition,
  NodeStatus,
  PodCondition,
  PodSpec,
  PodStatus,
} from "../../api/index.js";
import type { Toleration as SchedulerToleration } from "../scheduler/index.js";

export type { NodeCondition, PodCondition };

export interface Taint {
  key: string;
  value?: string;
  effect: string;
  /** When the taint was added (kube sets it on the taints its controllers add). */
  timeAdded?: string;
}

export type Toleration = SchedulerToleration & { tolerationSeconds?: number };

export interface NodeView extends KubeObject {
  spec?: { unschedulable?: boolean; taints?: Taint[] };
  status?: NodeStatus;
}

export interface PodView extends KubeObject {
  spec: Omit<PodSpec, "tolerations"> & { tolerations?: Toleration[] };
  status?: PodStatus;
}

export interface Lease extends KubeObject {
  spec?: { holderIdentity?: string; leaseDurationSeconds?: number; renewTime?: string };
}

/** The namespace of the node agents' heartbeat Leases (one per node, named after it). */
export const NODE_LEASE_NAMESPACE = "kube-node-lease";

export { NOT_READY_TAINT, UNREACHABLE_TAINT } from "../scheduler/index.js";

/** kube's DefaultTolerationSeconds admission default for the two taints above. */
export const DEFAULT_TOLERATION_SECONDS = 300;
/** kube's node-monitor-grace-period (also the pod GC's quarantine for missing nodes). */
export const DEFAULT_GRACE_PERIOD_MS = 40_000;

/** The conditions a silent node's are set to Unknown, as kube's node lifecycle controller does. */
export const MONITORED_CONDITIONS = ["Ready", "MemoryPressure", "DiskPressure", "PIDPressure"];
export const REASON_STATUS_UNKNOWN = "NodeStatusUnknown";
export const MESSAGE_STATUS_UNKNOWN = "Kubelet stopped posting node status.";
export const REASON_NEVER_UPDATED = "NodeStatusNeverUpdated";
export const MESSAGE_NEVER_UPDATED = "Kubelet never posted node status.";

/** The DisruptionTarget condition pod GC writes before force-deleting an orphaned pod. */
export const ORPHANED_CONDITION = {
  type: "DisruptionTarget",
  status: "True",
  reason: "DeletionByPodGC",
  message: "PodGC: node no longer exists",
} as const;

/** The DisruptionTarget condition taint eviction writes before deleting a pod. */
export const EVICTED_CONDITION = {
  type: "DisruptionTarget",
  status: "True",
  reason: "DeletionByTaintManager",
  message: "Taint manager: deleting due to NoExecute taint",
} as const;

export function readyCondition(node: NodeView): NodeCondition | undefined {
  return node.status?.conditions?.find((c) => c.type === "Ready");
}

export function isTerminal(pod: PodView): boolean {
  const phase = pod.status?.phase;
  return phase === "Succeeded" || phase === "Failed";
}
