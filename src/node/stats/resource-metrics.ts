/**
 * The kubelet's `/metrics/resource` (its resource metrics collector) from a
 * Summary: node, pod and container CPU time and working set, container start
 * times, and whether the figures could be read. Names, labels, help texts
 * and stability markers are the kubelet's (1.32); `scrape_error`, which the
 * kubelet deprecated in 1.29 for `resource_scrape_error`, is kept beside it
 * for consumers that still read it. Each agent has a prom-client Registry of
 * its own (the process-wide one holds the apiserver's and controllers'
 * metrics). Every CPU and memory sample carries the time it was taken, in ms,
 * as the kubelet's `NewLazyMetricWithTimestamp` does (metrics-server rates
 * CPU over those times); prom-client writes no timestamps, so they are added
 * to its sample lines, which come out in the order the values were set. A
 * family without samples is left out, as the kubelet's registry does (and so
 * no node series reads 0 when the figures could not be read). Renders are
 * serialised: each one resets and refills the same metrics.
 */
import { Counter, Gauge, Registry } from "prom-client";
import type { CpuStats, MemoryStats, Summary } from "./summary.js";

type Labels = Record<string, string>;

interface Family {
  metric: Counter | Gauge;
  /** Sample times (ms) in the order the values were set this render; undefined: none. */
  times: (number | undefined)[];
  /** The label sets set this render: a series is written once (the first pod of a name wins). */
  seen: Set<string>;
}

const CONTAINER = ["container", "namespace", "pod"];
const POD = ["namespace", "pod"];
const ERROR_HELP = "1 if there was an error while getting container metrics, 0 otherwise";

/** Each family as the kubelet describes it, in the order its registry writes them (by name). */
const FAMILIES = [
  [
    "container_cpu_usage_seconds_total",
    "counter",
    "[STABLE] Cumulative cpu time consumed by the container in core-seconds",
    CONTAINER,
  ],
  [
    "container_memory_working_set_bytes",
    "gauge",
    "[STABLE] Current working set of the container in bytes",
    CONTAINER,
  ],
  [
    "container_start_time_seconds",
    "gauge",
    "[STABLE] Start time of the container since unix epoch in seconds",
    CONTAINER,
  ],
  [
    "node_cpu_usage_seconds_total",
    "counter",
    "[STABLE] Cumulative cpu time consumed by the node in core-seconds",
    [],
  ],
  [
    "node_memory_working_set_bytes",
    "gauge",
    "[STABLE] Current working set of the node in bytes",
    [],
  ],
  [
    "pod_cpu_usage_seconds_total",
    "counter",
    "[STABLE] Cumulative cpu time consumed by the pod in core-seconds",
    POD,
  ],
  [
    "pod_memory_working_set_bytes",
    "gauge",
    "[STABLE] Current working set of the pod in bytes",
    POD,
  ],
  ["resource_scrape_error", "gauge", `[STABLE] ${ERROR_HELP}`, []],
  ["scrape_error", "gauge", `[ALPHA] (Deprecated since 1.29.0) ${ERROR_HELP}`, []],
] as const;

type FamilyName = (typeof FAMILIES)[number][0];

const ms = (ns: number) => Math.floor(ns / 1e6);
const withTime = (line: string, t: number | undefined) => (t === undefined ? line : `${line} ${t}`);

export class ResourceMetrics {
  private readonly registry = new Registry();
  private readonly families = new Map<FamilyName, Family>();
  private queue: Promise<unknown> = Promise.resolve();

  constructor() {
    for (const [name, type, help, labelNames] of FAMILIES) {
      const config = { name, help, labelNames: [...labelNames], registers: [this.registry] };
      const metric = type === "counter" ? new Counter(config) : new Gauge(config);
      this.families.set(name, { metric, times: [], seen: new Set() });
    }
  }

  get contentType(): string {
    return this.registry.contentType;
  }

  /** The exposition of `summary`, or of a failure to get one (`undefined`): only the error gauges. */
  render(summary: Summary | undefined): Promise<string> {
    const next = this.queue.then(() => this.renderNow(summary));
    this.queue = next.catch(() => {});
    return next;
  }

  private async renderNow(summary: Summary | undefined): Promise<string> {
    for (const f of this.families.values()) {
      f.metric.reset();
      f.times = [];
      f.seen.clear();
    }
    if (summary) this.fill(summary);
    const failed = summary ? 0 : 1;
    this.set("resource_scrape_error", {}, failed);
    this.set("scrape_error", {}, failed);
    const out: string[] = [];
    for (const [name, f] of this.families) {
      if (f.times.length === 0) continue;
      const [help, type, ...samples] = (await this.registry.getSingleMetricAsString(name)).split(
        "\n",
      );
      out.push(help!, type!, ...samples.map((line, i) => withTime(line, f.times[i])));
    }
    return `${out.join("\n")}\n`;
  }

  private fill(s: Summary): void {
    this.usage("node", {}, s.node);
    for (const pod of s.pods) {
      const podLabels = { namespace: pod.podRef.namespace, pod: pod.podRef.name };
      for (const c of pod.containers) {
        const labels = { container: c.name, ...podLabels };
        if (c.startTime > 0) this.set("container_start_time_seconds", labels, c.startTime / 1e9);
        this.usage("container", labels, c);
      }
      this.usage("pod", podLabels, pod);
    }
  }

  /** The CPU time and working set series of a node, pod or container, each at its time. */
  private usage(
    of: "node" | "pod" | "container",
    labels: Labels,
    { cpu, memory }: { cpu?: CpuStats; memory?: MemoryStats },
  ): void {
    if (cpu)
      this.set(`${of}_cpu_usage_seconds_total`, labels, cpu.usageCoreNanoSeconds / 1e9, cpu.time);
    if (memory)
      this.set(`${of}_memory_working_set_bytes`, labels, memory.workingSetBytes, memory.time);
  }

  private set(name: FamilyName, labels: Labels, value: number, timeNs?: number): void {
    const f = this.families.get(name)!;
    const key = JSON.stringify(labels);
    if (f.seen.has(key)) return;
    f.seen.add(key);
    if (f.metric instanceof Counter) f.metric.inc(labels, value);
    else f.metric.set(labels, value);
    f.times.push(timeNs === undefined ? undefined : ms(timeNs));
  }
}
