/**
 * PodMetrics and NodeMetrics (`metrics.k8s.io/v1beta1`) as metrics-server
 * writes them: the pod's (node's) name, namespace and labels, a
 * `creationTimestamp` of now (the object is made for the answer),
 * `timestamp` and `window` of the measurement, and usage as quantities in
 * their canonical form — CPU in nano-cores as metrics-server scales it
 * (`1234567n`, `500m` when exact), memory in bytes in binary form
 * (`12345Ki`). A window is a Go duration (`1.002s`, `1m0.5s`, `500ms`).
 */
import { canonicalQuantity, formatBytes, type KubeObject, rfc3339 } from "../../api/index.js";
import type { PodUsage, Usage } from "./usage-history.js";

export const METRICS_GROUP = "metrics.k8s.io";
export const METRICS_VERSION = "v1beta1";
const API_VERSION = `${METRICS_GROUP}/${METRICS_VERSION}`;

export interface ResourceUsageList {
  cpu: string;
  memory: string;
  [resource: string]: string;
}

export interface PodMetrics extends KubeObject {
  timestamp: string;
  window: string;
  containers: { name: string; usage: ResourceUsageList }[];
}

export interface NodeMetrics extends KubeObject {
  timestamp: string;
  window: string;
  usage: ResourceUsageList;
}

/** Go's `time.Duration.String()` of a whole number of milliseconds. */
export function goDuration(ms: number): string {
  if (ms === 0) return "0s";
  const sign = ms < 0 ? "-" : "";
  let rest = Math.abs(Math.round(ms));
  if (rest < 1000) return `${sign}${rest}ms`;
  const hours = Math.floor(rest / 3_600_000);
  rest -= hours * 3_600_000;
  const minutes = Math.floor(rest / 60_000);
  rest -= minutes * 60_000;
  const fraction = rest % 1000 ? `.${String(rest % 1000).padStart(3, "0")}`.replace(/0+$/, "") : "";
  const seconds = `${Math.floor(rest / 1000)}${fraction}s`;
  if (hours > 0) return `${sign}${hours}h${minutes}m${seconds}`;
  if (minutes > 0) return `${sign}${minutes}m${seconds}`;
  return `${sign}${seconds}`;
}

/** CPU and memory as metrics-server's quantities: nano-cores (DecimalSI), bytes (BinarySI). */
export function usageQuantities(u: Pick<Usage, "cpuNanoCores" | "memoryBytes">): ResourceUsageList {
  return {
    cpu: canonicalQuantity(`${Math.max(0, Math.floor(u.cpuNanoCores))}n`),
    memory: formatBytes(BigInt(Math.max(0, Math.floor(u.memoryBytes)))),
  };
}

/** What both kinds have: the measured object's name (namespace) and labels, and when and over what. */
function envelope(
  kind: "PodMetrics" | "NodeMetrics",
  of: KubeObject,
  measured: { timestampMs: number; windowMs: number },
  now: number,
) {
  const labels = of.metadata.labels;
  return {
    kind,
    apiVersion: API_VERSION,
    metadata: {
      name: of.metadata.name ?? "",
      ...(kind === "PodMetrics" ? { namespace: of.metadata.namespace ?? "" } : {}),
      creationTimestamp: rfc3339(now),
      ...(labels && Object.keys(labels).length > 0 ? { labels } : {}),
    },
    timestamp: rfc3339(measured.timestampMs),
    window: goDuration(measured.windowMs),
  };
}

export function podMetrics(pod: KubeObject, usage: PodUsage, now = Date.now()): PodMetrics {
  return {
    ...envelope("PodMetrics", pod, usage, now),
    containers: usage.containers.map((c) => ({ name: c.name, usage: usageQuantities(c.usage) })),
  };
}

export function nodeMetrics(node: KubeObject, usage: Usage, now = Date.now()): NodeMetrics {
  return { ...envelope("NodeMetrics", node, usage, now), usage: usageQuantities(usage) };
}
