/**
 * `metrics.k8s.io/v1beta1` as metrics-server registers it: `pods` (PodMetrics,
 * namespaced) and `nodes` (NodeMetrics, cluster-scoped), get and list only,
 * no singular name, computed for each request and never stored. Tables have
 * metrics-server's columns: Name, each resource's usage (a pod's summed over
 * its containers) and Window. Field selectors take `metadata.name` (and
 * `metadata.namespace` for pods), as metrics-server matches ObjectMeta fields.
 */
import {
  canonicalQuantity,
  formatBytes,
  type KubeObject,
  parseQuantity,
  type Schema,
} from "../../api/index.js";
import type { ResourceType, TableColumn } from "../resources/resource-type.js";
import { str, time } from "../schemas/builders.js";
import { kindSchema } from "../schemas/kind.js";
import {
  METRICS_GROUP,
  METRICS_VERSION,
  type NodeMetrics,
  type PodMetrics,
  type ResourceUsageList,
} from "./metrics-objects.js";
import { nodeMetricsRead, podMetricsRead } from "./metrics-reads.js";

const usageSchema: Schema = {
  type: "object",
  description: "The memory and CPU usage.",
  additionalProperties: { oneOf: [{ type: "string" }, { type: "number" }] },
};
const timestamp = time(
  "The following fields define time interval from which metrics were collected from the interval [Timestamp-Window, Timestamp].",
);
const window = str("");

const podMetricsSchema = kindSchema(
  { group: METRICS_GROUP, version: METRICS_VERSION, kind: "PodMetrics" },
  "PodMetrics sets resource usage metrics of a pod.",
  {
    timestamp,
    window,
    containers: {
      type: "array",
      description: "Metrics for all containers are collected within the same time window.",
      items: {
        type: "object",
        description: "ContainerMetrics sets resource usage metrics of a container.",
        properties: {
          name: str("Container name corresponding to the one from pod.spec.containers."),
          usage: usageSchema,
        },
        required: ["name", "usage"],
      },
      "x-kubernetes-list-type": "atomic",
    },
  },
  ["timestamp", "window", "containers"],
);

const nodeMetricsSchema = kindSchema(
  { group: METRICS_GROUP, version: METRICS_VERSION, kind: "NodeMetrics" },
  "NodeMetrics sets resource usage metrics of a node.",
  { timestamp, window, usage: usageSchema },
  ["timestamp", "window", "usage"],
);

/** A pod's usage of `resource`, summed over its containers, in the form of its kind. */
function podTotal(m: PodMetrics, resource: "cpu" | "memory"): string {
  const nano = m.containers.reduce((a, c) => a + parseQuantity(c.usage[resource] ?? "0"), 0n);
  return resource === "cpu" ? canonicalQuantity(`${nano}n`) : formatBytes(nano / 1_000_000_000n);
}

function columns(usage: (o: KubeObject, r: "cpu" | "memory") => string): TableColumn[] {
  return [
    {
      name: "Name",
      type: "string",
      format: "name",
      description: "Name of the resource",
      cell: (o) => o.metadata.name ?? "",
    },
    { name: "cpu", type: "string", format: "quantity", cell: (o) => usage(o, "cpu") },
    { name: "memory", type: "string", format: "quantity", cell: (o) => usage(o, "memory") },
    {
      name: "Window",
      type: "string",
      format: "duration",
      cell: (o) => (o as PodMetrics | NodeMetrics).window,
    },
  ];
}

const base = {
  group: METRICS_GROUP,
  version: METRICS_VERSION,
  singular: "",
  shortNames: [],
  categories: [],
  verbs: ["get", "list"],
  status: false,
  nameRule: "path-segment" as const,
  strategicMergePatch: false,
  ownColumns: true,
};

export const METRICS_TYPES: ResourceType[] = [
  {
    ...base,
    kind: "PodMetrics",
    listKind: "PodMetricsList",
    plural: "pods",
    namespaced: true,
    schema: podMetricsSchema,
    columns: columns((o, r) => podTotal(o as PodMetrics, r)),
    computedRead: podMetricsRead,
  },
  {
    ...base,
    kind: "NodeMetrics",
    listKind: "NodeMetricsList",
    plural: "nodes",
    namespaced: false,
    schema: nodeMetricsSchema,
    columns: columns((o, r) => ((o as NodeMetrics).usage as ResourceUsageList)[r] ?? "0"),
    computedRead: nodeMetricsRead,
  },
];
