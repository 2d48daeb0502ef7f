/**
 * One scrape of a node agent's `/metrics/resource` (the kubelet's resource
 * metrics, Prometheus text) read into the points metrics-server keeps: the
 * node's and each container's cumulative CPU time and working set at the
 * time the sample was taken, and a container's start time. Only the series
 * metrics-server reads are used (`node_cpu_usage_seconds_total`,
 * `node_memory_working_set_bytes`, `container_cpu_usage_seconds_total`,
 * `container_memory_working_set_bytes`, `container_start_time_seconds`); a
 * node or container without both CPU and memory, or without a timestamp on
 * its CPU sample, has no point, as metrics-server drops it.
 */

/** A measurement of a node or container, as metrics-server's MetricsPoint. */
export interface UsagePoint {
  /** When the CPU figure was taken, ms since the epoch. */
  timestampMs: number;
  /** When the container (node) started, ms since the epoch; cumulative CPU is 0 then. */
  startMs?: number;
  /** CPU time used since the start, in core-nanoseconds. */
  cpuNanoSeconds: number;
  /** The working set, bytes. */
  memoryBytes: number;
}

/** A pod's containers by name. */
export type PodPoints = Map<string, UsagePoint>;

export interface NodeScrape {
  node?: UsagePoint;
  /** Pods by `namespace/name`. */
  pods: Map<string, PodPoints>;
}

export const podKey = (namespace: string, name: string) => `${namespace}/${name}`;

interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
  timestampMs?: number;
}

const SAMPLE = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})?\s+(\S+)(?:\s+(-?\d+))?\s*$/;
const LABEL = /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g;

function unescapeLabel(v: string): string {
  return v.replace(/\\(.)/g, (_, c: string) => (c === "n" ? "\n" : c));
}

/** The samples of a Prometheus text exposition (comments and malformed lines skipped). */
export function parseSamples(text: string): Sample[] {
  const out: Sample[] = [];
  for (const line of text.split("\n")) {
    if (line === "" || line.startsWith("#")) continue;
    const m = SAMPLE.exec(line);
    if (!m) continue;
    const value = Number(m[3]);
    if (Number.isNaN(value)) continue;
    const labels: Record<string, string> = {};
    for (const l of (m[2] ?? "").matchAll(LABEL)) labels[l[1]!] = unescapeLabel(l[2]!);
    out.push({
      name: m[1]!,
      labels,
      value,
      ...(m[4] !== undefined ? { timestampMs: Number(m[4]) } : {}),
    });
  }
  return out;
}

interface Partial {
  timestampMs?: number;
  startMs?: number;
  cpuNanoSeconds?: number;
  memoryBytes?: number;
}

function complete(p: Partial): UsagePoint | undefined {
  if (p.timestampMs === undefined || p.cpuNanoSeconds === undefined) return undefined;
  if (p.memoryBytes === undefined) return undefined;
  return {
    timestampMs: p.timestampMs,
    ...(p.startMs !== undefined ? { startMs: p.startMs } : {}),
    cpuNanoSeconds: p.cpuNanoSeconds,
    memoryBytes: p.memoryBytes,
  };
}

/** The points of one `/metrics/resource` text. */
export function readResourceMetrics(text: string): NodeScrape {
  const node: Partial = {};
  const containers = new Map<string, Partial & { pod: string; container: string }>();
  const containerOf = (l: Record<string, string>) => {
    const pod = podKey(l.namespace ?? "", l.pod ?? "");
    const key = `${pod}/${l.container ?? ""}`;
    let c = containers.get(key);
    if (!c) {
      c = { pod, container: l.container ?? "" };
      containers.set(key, c);
    }
    return c;
  };
  for (const s of parseSamples(text)) {
    switch (s.name) {
      case "node_cpu_usage_seconds_total":
        node.cpuNanoSeconds = s.value * 1e9;
        if (s.timestampMs !== undefined) node.timestampMs = s.timestampMs;
        break;
      case "node_memory_working_set_bytes":
        node.memoryBytes = s.value;
        break;
      case "container_cpu_usage_seconds_total": {
        const c = containerOf(s.labels);
        c.cpuNanoSeconds = s.value * 1e9;
        if (s.timestampMs !== undefined) c.timestampMs = s.timestampMs;
        break;
      }
      case "container_memory_working_set_bytes":
        containerOf(s.labels).memoryBytes = s.value;
        break;
      case "container_start_time_seconds":
        containerOf(s.labels).startMs = s.value * 1000;
        break;
    }
  }
  const pods = new Map<string, PodPoints>();
  for (const c of containers.values()) {
    const point = complete(c);
    if (!point) continue;
    const points = pods.get(c.pod) ?? new Map<string, UsagePoint>();
    points.set(c.container, point);
    pods.set(c.pod, points);
  }
  const nodePoint = complete(node);
  return { ...(nodePoint ? { node: nodePoint } : {}), pods };
}
