/**
 * Resource usage as the kubelet serves it: the runtime-neutral figures a pod
 * runtime reports (usage.ts), the node's own from /proc, the Summary API and
 * the resource metrics built from them, with CPU rates from two samples.
 * See docs/node-agent.md ("Resource usage").
 */
export { CpuRates } from "./cpu-rates.js";
export { type Measurement, measuredPods, NodeStats } from "./node-stats.js";
export { type NodeUsage, parseMemInfo, parseProcStat, readNodeUsage } from "./node-usage.js";
export { ResourceMetrics } from "./resource-metrics.js";
export type * from "./summary.js";
export { SummaryBuilder, summaryJson } from "./summary.js";
export type * from "./usage.js";
