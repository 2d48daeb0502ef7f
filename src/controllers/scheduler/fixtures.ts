/** Test support only (not exported by the facade): nodes and pods built from a few fields. */
import type { Node, Pod, PodSpec, Taint } from "./types.js";

export function node(
  name: string,
  opts: {
    cpu?: string;
    memory?: string;
    pods?: number;
    ready?: "True" | "False" | "Unknown" | "absent";
    labels?: Record<string, string>;
    unschedulable?: boolean;
    taints?: Taint[];
  } = {},
): Node {
  const ready = opts.ready ?? "True";
  return {
    apiVersion: "v1",
    kind: "Node",
    metadata: { name, uid: `node-${name}`, ...(opts.labels ? { labels: opts.labels } : {}) },
    spec: {
      ...(opts.unschedulable ? { unschedulable: true } : {}),
      ...(opts.taints ? { taints: opts.taints } : {}),
    },
    status: {
      allocatable: {
        cpu: opts.cpu ?? "4",
        memory: opts.memory ?? "8Gi",
        ...(opts.pods !== undefined ? { pods: opts.pods } : {}),
      },
      conditions: ready === "absent" ? [] : [{ type: "Ready", status: ready }],
    },
  };
}

let uid = 0;

export function pod(
  name: string,
  opts: {
    namespace?: string;
    cpu?: string;
    memory?: string;
    labels?: Record<string, string>;
    spec?: Partial<PodSpec>;
    phase?: string;
  } = {},
): Pod {
  const requests: Record<string, string> = {};
  if (opts.cpu) requests.cpu = opts.cpu;
  if (opts.memory) requests.memory = opts.memory;
  return {
    apiVersion: "v1",
    kind: "Pod",
    metadata: {
      name,
      namespace: opts.namespace ?? "default",
      uid: `pod-${++uid}`,
      ...(opts.labels ? { labels: opts.labels } : {}),
    },
    spec: { containers: [{ name: "main", resources: { requests } }], ...opts.spec },
    status: { phase: opts.phase ?? "Pending" },
  };
}

/** A required anti-affinity term against pods labelled `app=<app>`, per hostname. */
export function antiAffinity(
  app: string,
  topologyKey = "kubernetes.io/hostname",
): Partial<PodSpec> {
  return {
    affinity: {
      podAntiAffinity: {
        requiredDuringSchedulingIgnoredDuringExecution: [
          { labelSelector: { matchLabels: { app } }, topologyKey },
        ],
      },
    },
  };
}
