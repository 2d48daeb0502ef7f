/**
 * The kubelet's Summary API (`/stats/summary`, stats/v1alpha1): the node and
 * each pod with its running containers, CPU (`usageCoreNanoSeconds`, and
 * `usageNanoCores` from two samples, cpu-rates.ts) and memory
 * (`workingSetBytes`, `usageBytes`, …), each with its time. Only CPU and
 * memory are filled in (no network, filesystem, volume or process figures):
 * that is what metrics-server and `kubectl top` read. A pod the runtime does
 * not measure as a whole gets the sums of its containers (CPU time and rate,
 * memory), timed at the newest of their samples. Times are ns since the
 * epoch in the model; `summaryJson` writes them as kube's metav1.Time does
 * (RFC 3339, whole seconds); /metrics/resource (resource-metrics.ts) renders
 * the same model with ms timestamps.
 */
import { CpuRates } from "./cpu-rates.js";
import type { NodeUsage } from "./node-usage.js";
import type { ContainerUsage, CpuSample, MemorySample, PodUsage } from "./usage.js";

export interface CpuStats {
  time: number;
  usageNanoCores?: number;
  usageCoreNanoSeconds: number;
}

export interface MemoryStats {
  time: number;
  availableBytes?: number;
  usageBytes?: number;
  workingSetBytes: number;
  rssBytes?: number;
  pageFaults?: number;
  majorPageFaults?: number;
}

export interface ContainerStats {
  name: string;
  startTime: number;
  cpu?: CpuStats;
  memory?: MemoryStats;
}

export interface PodReference {
  name: string;
  namespace: string;
  uid: string;
}

export interface PodStats {
  podRef: PodReference;
  startTime: number;
  containers: ContainerStats[];
  cpu?: CpuStats;
  memory?: MemoryStats;
}

export interface Summary {
  node: { nodeName: string; startTime: number; cpu?: CpuStats; memory?: MemoryStats };
  pods: PodStats[];
}

/** A pod as the agent knows it, with what the runtime measured of it. */
export interface MeasuredPod {
  ref: PodReference;
  /** ns since the epoch. */
  startTimeNs: number;
  usage: PodUsage;
}

function memoryStats(m: MemorySample): MemoryStats {
  const { timeNs, ...figures } = m;
  return { time: timeNs, ...figures };
}

const newest = (samples: { timeNs: number }[]) => Math.max(...samples.map((s) => s.timeNs));

/** A field summed over the samples; absent when no sample has it. */
function total(
  samples: MemorySample[],
  field: "usageBytes" | "rssBytes" | "pageFaults" | "majorPageFaults",
): Partial<MemorySample> {
  const values = samples.flatMap((s) => (s[field] === undefined ? [] : [s[field]]));
  return values.length ? { [field]: values.reduce((a, v) => a + v, 0) } : {};
}

/** The containers' CPU time added up, at the newest of their times. */
function cpuOfContainers(containers: ContainerUsage[]): CpuSample | undefined {
  const samples = containers.flatMap((c) => (c.cpu ? [c.cpu] : []));
  if (samples.length === 0) return undefined;
  const usage = samples.reduce((a, s) => a + s.usageCoreNanoSeconds, 0);
  return { timeNs: newest(samples), usageCoreNanoSeconds: usage };
}

/** The containers' memory added up, at the newest of their times. */
function memoryOfContainers(containers: ContainerUsage[]): MemorySample | undefined {
  const samples = containers.flatMap((c) => (c.memory ? [c.memory] : []));
  if (samples.length === 0) return undefined;
  return {
    timeNs: newest(samples),
    workingSetBytes: samples.reduce((a, s) => a + s.workingSetBytes, 0),
    ...total(samples, "usageBytes"),
    ...total(samples, "rssBytes"),
    ...total(samples, "pageFaults"),
    ...total(samples, "majorPageFaults"),
  };
}

export class SummaryBuilder {
  private readonly rates = new CpuRates();

  constructor(private readonly nodeName: string) {}

  /**
   * The summary of `node` and `pods`. With `updateRates` (a /stats/summary
   * read), each CPU sample becomes the one the next rate is measured from;
   * without it the last rates are reported as they are.
   */
  build(node: NodeUsage, pods: MeasuredPod[], updateRates: boolean): Summary {
    const live = new Set<string>(["node"]);
    const cpu = (key: string, s: CpuSample): CpuStats => {
      live.add(key);
      const rate = this.rates.rate(key, s, updateRates);
      return {
        time: s.timeNs,
        ...(rate !== undefined ? { usageNanoCores: rate } : {}),
        usageCoreNanoSeconds: s.usageCoreNanoSeconds,
      };
    };
    const summary: Summary = {
      node: {
        nodeName: this.nodeName,
        startTime: node.startTimeNs,
        cpu: cpu("node", node.cpu),
        memory: memoryStats(node.memory),
      },
      pods: pods.map((p) => {
        const containers: ContainerStats[] = p.usage.containers.map((c) => ({
          name: c.name,
          startTime: c.startTimeNs,
          ...(c.cpu ? { cpu: cpu(`container/${c.id}`, c.cpu) } : {}),
          ...(c.memory ? { memory: memoryStats(c.memory) } : {}),
        }));
        const podCpu = this.podCpu(p, containers, cpu);
        const podMemory = p.usage.memory ?? memoryOfContainers(p.usage.containers);
        return {
          podRef: p.ref,
          startTime: p.startTimeNs,
          containers,
          ...(podCpu ? { cpu: podCpu } : {}),
          ...(podMemory ? { memory: memoryStats(podMemory) } : {}),
        };
      }),
    };
    this.rates.retain(live);
    return summary;
  }

  /** The pod's CPU: measured as a whole, or its containers' sums (a rate once each has one). */
  private podCpu(
    p: MeasuredPod,
    containers: ContainerStats[],
    cpu: (key: string, s: CpuSample) => CpuStats,
  ): CpuStats | undefined {
    if (p.usage.cpu) return cpu(`pod/${p.ref.uid}`, p.usage.cpu);
    const sum = cpuOfContainers(p.usage.containers);
    if (!sum) return undefined;
    const measured = containers.flatMap((c) => (c.cpu ? [c.cpu] : []));
    const rates = measured.flatMap((c) =>
      c.usageNanoCores === undefined ? [] : [c.usageNanoCores],
    );
    return {
      time: sum.timeNs,
      ...(rates.length === measured.length
        ? { usageNanoCores: rates.reduce((a, r) => a + r, 0) }
        : {}),
      usageCoreNanoSeconds: sum.usageCoreNanoSeconds,
    };
  }
}

/** A model type as its JSON reads: times are RFC 3339 strings. */
type Written<T> = {
  [K in keyof T]: K extends "time" | "startTime"
    ? string
    : T[K] extends object | undefined
      ? Written<T[K]>
      : T[K];
};

/** The summary as a reader of `/stats/summary` gets it. */
export type SummaryJson = Written<Summary>;

/** metav1.Time's JSON: RFC 3339 in whole seconds. */
function rfc3339(ns: number): string {
  return new Date(Math.floor(ns / 1e6)).toISOString().replace(/\.\d+Z$/, "Z");
}

/** The summary as the kubelet serves it. */
export function summaryJson(s: Summary): string {
  return JSON.stringify(s, (key, value) =>
    (key === "time" || key === "startTime") && typeof value === "number" ? rfc3339(value) : value,
  );
}
