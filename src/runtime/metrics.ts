/**
 * Prometheus metrics of the controller runtime, named as controller-runtime and
 * client-go name them, in prom-client's process-wide registry (the apiserver
 * serves it on /metrics).
 */
import { Counter, Gauge, Histogram, register } from "prom-client";
import type { WorkQueue } from "./workqueue.js";

export const reconcileTotal = new Counter({
  name: "controller_runtime_reconcile_total",
  help: "Total number of reconciliations per controller",
  labelNames: ["controller", "result"] as const,
});

export const reconcileErrors = new Counter({
  name: "controller_runtime_reconcile_errors_total",
  help: "Total number of reconciliation errors per controller",
  labelNames: ["controller"] as const,
});

export const reconcileTime = new Histogram({
  name: "controller_runtime_reconcile_time_seconds",
  help: "Length of time per reconciliation per controller",
  labelNames: ["controller"] as const,
  buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
});

export const watchRestarts = new Counter({
  name: "hearth_informer_watch_restarts_total",
  help: "Watches an informer restarted, by kind and reason (ended, expired, error)",
  labelNames: ["kind", "reason"] as const,
});

const queues = new Map<string, WorkQueue>();

new Gauge({
  name: "workqueue_depth",
  help: "Current depth of workqueue",
  labelNames: ["name"] as const,
  collect() {
    this.reset();
    for (const [name, q] of queues) this.set({ name }, q.length);
  },
});

/** Reports a queue's depth under `name` until `signal` aborts. */
export function trackQueue(name: string, queue: WorkQueue, signal: AbortSignal): void {
  queues.set(name, queue);
  signal.addEventListener("abort", () => queues.delete(name), { once: true });
}

export { register as metricsRegistry };
