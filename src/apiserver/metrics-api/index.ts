/**
 * The resource metrics API (`metrics.k8s.io/v1beta1`, as metrics-server
 * serves it): PodMetrics and NodeMetrics computed from the node agents'
 * `/metrics/resource`. See docs/metrics.md.
 */
export { METRICS_TYPES } from "./metrics-types.js";
export { ResourceUsage, type ResourceUsageOptions } from "./resource-usage.js";
