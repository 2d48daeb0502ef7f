/**
 * The last two measurements of one node and its containers, and the usage
 * between them: metrics-server's storage (pkg/storage), for one node. CPU
 * usage is the cumulative CPU time's rise over the time between two points
 * (the `window`), memory the last working set. A new point replaces the
 * last one, which becomes the previous one when it is older; a container
 * seen for the first time, or started again, is measured from its start
 * (CPU time 0 at its start time), as metrics-server measures a container
 * that started since its last scrape. A pod is reported only when each of
 * its containers has two points; a node or container whose counters went
 * back is skipped until it has two points of the same run.
 */
import type { NodeScrape, PodPoints, UsagePoint } from "./resource-scrape.js";

export interface Usage {
  /** CPU in nano-cores (core-nanoseconds per second). */
  cpuNanoCores: number;
  memoryBytes: number;
  /** The last point's time, ms since the epoch. */
  timestampMs: number;
  /** The time between the two points, ms. */
  windowMs: number;
}

export interface PodUsage {
  containers: { name: string; usage: Usage }[];
  /** The earliest of the containers' times, and that container's window (metrics-server's choice). */
  timestampMs: number;
  windowMs: number;
}

/** The usage between two points of one run; undefined if they are not (counters went back). */
export function usageBetween(last: UsagePoint, prev: UsagePoint): Usage | undefined {
  if (last.startMs !== undefined && prev.startMs !== undefined && last.startMs < prev.startMs)
    return undefined;
  if (last.cpuNanoSeconds < prev.cpuNanoSeconds) return undefined;
  const windowMs = last.timestampMs - prev.timestampMs;
  if (windowMs <= 0) return undefined;
  return {
    cpuNanoCores: Math.floor((last.cpuNanoSeconds - prev.cpuNanoSeconds) / (windowMs / 1000)),
    memoryBytes: last.memoryBytes,
    timestampMs: last.timestampMs,
    windowMs,
  };
}

/** The previous point for `next`, given the stored last and previous ones (metrics-server's Store). */
function previousPoint(
  next: UsagePoint,
  last: UsagePoint | undefined,
  prev: UsagePoint | undefined,
  fromStart: boolean,
): UsagePoint | undefined {
  const sameRun = last && (next.startMs === undefined || next.startMs < last.timestampMs);
  if (sameRun && next.timestampMs > last.timestampMs) return last;
  if (sameRun && prev && prev.timestampMs < next.timestampMs) return prev;
  if (sameRun || !fromStart || next.startMs === undefined || next.startMs >= next.timestampMs)
    return undefined;
  // A run not seen before: measured from its start, when its CPU time was 0.
  return { timestampMs: next.startMs, startMs: next.startMs, cpuNanoSeconds: 0, memoryBytes: 0 };
}

export class UsageHistory {
  private lastNode?: UsagePoint;
  private prevNode?: UsagePoint;
  private lastPods = new Map<string, PodPoints>();
  private prevPods = new Map<string, PodPoints>();

  /** Takes a new scrape of the node. */
  store(scrape: NodeScrape): void {
    if (scrape.node) {
      this.prevNode = previousPoint(scrape.node, this.lastNode, this.prevNode, false);
      this.lastNode = scrape.node;
    } else {
      this.lastNode = undefined;
      this.prevNode = undefined;
    }
    const lastPods = new Map<string, PodPoints>();
    const prevPods = new Map<string, PodPoints>();
    for (const [pod, containers] of scrape.pods) {
      const prevContainers: PodPoints = new Map();
      for (const [name, point] of containers) {
        const prev = previousPoint(
          point,
          this.lastPods.get(pod)?.get(name),
          this.prevPods.get(pod)?.get(name),
          true,
        );
        if (prev) prevContainers.set(name, prev);
      }
      lastPods.set(pod, containers);
      if (prevContainers.size > 0) prevPods.set(pod, prevContainers);
    }
    this.lastPods = lastPods;
    this.prevPods = prevPods;
  }

  /** True once the node has two points to measure between. */
  get nodeMeasured(): boolean {
    return this.lastNode !== undefined && this.prevNode !== undefined;
  }

  nodeUsage(): Usage | undefined {
    return this.lastNode && this.prevNode ? usageBetween(this.lastNode, this.prevNode) : undefined;
  }

  /** The usage of the pod `namespace/name`; undefined until each of its containers has two points. */
  podUsage(key: string): PodUsage | undefined {
    const last = this.lastPods.get(key);
    const prev = this.prevPods.get(key);
    if (!last || !prev) return undefined;
    const containers: PodUsage["containers"] = [];
    let earliest: Usage | undefined;
    for (const [name, point] of last) {
      const before = prev.get(name);
      if (!before) return undefined;
      const usage = usageBetween(point, before);
      if (!usage) continue;
      containers.push({ name, usage });
      if (!earliest || usage.timestampMs < earliest.timestampMs) earliest = usage;
    }
    if (!earliest) return undefined;
    return { containers, timestampMs: earliest.timestampMs, windowMs: earliest.windowMs };
  }
}
