/**
 * The fields of Pods and Nodes the scheduler reads, as typed views over the API's
 * open objects. The kinds themselves belong to the apiserver; these say only
 * what scheduling looks at.
 */
import type { KubeObject, NodeAffinitySpec } from "../../api/index.js";

export type ResourceList = Record<string, string | number>;

export interface ContainerPort {
  containerPort?: number;
  hostPort?: number;
  hostIP?: string;
  protocol?: string;
}

export interface Container {
  name?: string;
  resources?: { requests?: ResourceList; limits?: ResourceList };
  ports?: ContainerPort[];
}

export interface LabelSelectorSpec {
  matchLabels?: Record<string, string>;
  matchExpressions?: { key: string; operator: string; values?: string[] }[];
}

export interface PodAffinityTerm {
  labelSelector?: LabelSelectorSpec | null;
  namespaces?: string[];
  namespaceSelector?: LabelSelectorSpec | null;
  topologyKey: string;
}

export interface Toleration {
  key?: string;
  operator?: "Exists" | "Equal";
  value?: string;
  effect?: string;
}

export interface PodSpec {
  nodeName?: string;
  schedulerName?: string;
  nodeSelector?: Record<string, string>;
  containers?: Container[];
  initContainers?: Container[];
  overhead?: ResourceList;
  tolerations?: Toleration[];
  affinity?: {
    podAntiAffinity?: { requiredDuringSchedulingIgnoredDuringExecution?: PodAffinityTerm[] };
    nodeAffinity?: NonNullable<NodeAffinitySpec["affinity"]>["nodeAffinity"];
  };
}

export interface Condition {
  type: string;
  status: string;
  reason?: string;
  message?: string;
  lastTransitionTime?: string;
  lastProbeTime?: string | null;
}

export interface Pod extends KubeObject {
  spec?: PodSpec;
  status?: { phase?: string; conditions?: Condition[] };
}

export interface Taint {
  key: string;
  value?: string;
  effect: string;
}

export interface Node extends KubeObject {
  spec?: { unschedulable?: boolean; taints?: Taint[] };
  status?: { allocatable?: ResourceList; capacity?: ResourceList; conditions?: Condition[] };
}

export const HOSTNAME_LABEL = "kubernetes.io/hostname";
export const DEFAULT_SCHEDULER = "default-scheduler";

/** A pod that no longer holds node resources: it has finished. */
export function isTerminal(pod: Pod): boolean {
  const phase = pod.status?.phase;
  return phase === "Succeeded" || phase === "Failed";
}

/** The value of a node's topology label; `kubernetes.io/hostname` falls back to its name. */
export function topologyValue(node: Node, key: string): string | undefined {
  const v = node.metadata.labels?.[key];
  if (v !== undefined) return v;
  return key === HOSTNAME_LABEL ? node.metadata.name : undefined;
}
