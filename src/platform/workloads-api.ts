/**
 * The WorkloadMonitor kind (Cozystack's `cozystack.io/v1alpha1`): its names
 * and shape. A leaf, so that both the engine (which reads monitors into an
 * app's `WorkloadsReady`) and the workloadmonitor component (which serves the
 * kind and keeps its status) can use it without importing each other.
 */
import type { KubeObject } from "../api/index.js";

export const WORKLOADS_GROUP = "cozystack.io";
export const WORKLOADS_API_VERSION = `${WORKLOADS_GROUP}/v1alpha1`;
export const WORKLOAD_MONITOR = { apiVersion: WORKLOADS_API_VERSION, kind: "WorkloadMonitor" };

export interface WorkloadMonitorSpec {
  /** The pods of the monitor's namespace it counts (matchLabels). */
  selector?: Record<string, string>;
  /** What the workload is (`etcd`, `postgres`, `virtual-machine`, …); informational. */
  kind?: string;
  type?: string;
  version?: string;
  /** How many replicas the workload should have; informational. */
  replicas?: number;
  /** Fewer available pods than this make the monitor not operational. */
  minReplicas?: number;
}

export interface WorkloadMonitorStatus {
  /** False only when `availableReplicas < minReplicas`; absent until first counted. */
  operational?: boolean;
  /** The pods the selector matches. */
  observedReplicas?: number;
  /** Those of them that are Ready. */
  availableReplicas?: number;
}

export interface WorkloadMonitor extends KubeObject {
  spec: WorkloadMonitorSpec;
  status?: WorkloadMonitorStatus;
}
