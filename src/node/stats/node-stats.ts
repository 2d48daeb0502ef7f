/**
 * What the agent's endpoint serves of resource usage, as the kubelet does:
 * `/stats/summary` (summary.ts) and `/metrics/resource` (resource-metrics.ts),
 * both from one measurement of the node (/proc) and of its pods (the pod
 * runtime's `stats`). Only a summary read moves the CPU rates on; a metrics
 * scrape reports the last ones, and a failed measurement is a scrape with
 * `resource_scrape_error 1`, where the summary read fails.
 */
import type { PodState } from "../pod-state.js";
import type { NodeUsage } from "./node-usage.js";
import { ResourceMetrics } from "./resource-metrics.js";
import { type MeasuredPod, SummaryBuilder, summaryJson } from "./summary.js";
import type { PodUsage } from "./usage.js";

export interface Measurement {
  node: NodeUsage;
  pods: MeasuredPod[];
}

/** The pods the runtime measured, named and timed as the agent knows them. */
export function measuredPods(states: PodState[], usage: PodUsage[]): MeasuredPod[] {
  const byUid = new Map(states.map((s) => [s.uid, s]));
  return usage.flatMap((u) => {
    const s = byUid.get(u.uid);
    if (!s) return [];
    const ref = { name: s.name, namespace: s.namespace, uid: s.uid };
    return [{ ref, startTimeNs: Date.parse(s.startTime) * 1e6, usage: u }];
  });
}

export class NodeStats {
  private readonly summaries: SummaryBuilder;
  private readonly metrics = new ResourceMetrics();

  constructor(
    nodeName: string,
    private readonly measure: () => Promise<Measurement>,
    private readonly log: (msg: string, err?: unknown) => void = () => {},
  ) {
    this.summaries = new SummaryBuilder(nodeName);
  }

  /** The Prometheus text format's content type. */
  get metricsContentType(): string {
    return this.metrics.contentType;
  }

  /** `/stats/summary`: the Summary as JSON; rejects when the figures cannot be read. */
  async summary(): Promise<string> {
    const m = await this.measure();
    return summaryJson(this.summaries.build(m.node, m.pods, true));
  }

  /** `/metrics/resource`: always an answer; a failed measurement is a scrape error. */
  async resourceMetrics(): Promise<string> {
    try {
      const m = await this.measure();
      return await this.metrics.render(this.summaries.build(m.node, m.pods, false));
    } catch (e) {
      this.log("cannot read the resource usage for /metrics/resource", e);
      return this.metrics.render(undefined);
    }
  }
}
