/**
 * Finds the log file a `containerLogs` request names: the pod's worker (the
 * newest one under that name), the container's current run, or with
 * `previous` the run before it; kube's wording when there is none.
 */
import type { LogLookup } from "./log-server.js";
import type { PodDirs } from "./pod-state.js";
import type { PodWorker } from "./pod-worker.js";

export function logLookup(workers: Map<string, PodWorker>, dirs: PodDirs): LogLookup {
  return (namespace, pod, container, previous) => {
    const key = `${namespace}/${pod}`;
    const worker = [...workers.values()]
      .filter((w) => w.key === key)
      .sort((a, b) => a.state.startTime.localeCompare(b.state.startTime))
      .at(-1);
    const rec = worker?.state.containers[container];
    if (!worker || !rec?.current) {
      const reason = worker?.waitingReason(container) ?? "ContainerCreating";
      return {
        ok: false,
        code: 400,
        message: `container "${container}" in pod "${pod}" is waiting to start: ${reason}`,
      };
    }
    const run = previous ? rec.previous : rec.current;
    if (!run)
      return {
        ok: false,
        code: 400,
        message: `previous terminated container "${container}" in pod "${pod}" not found`,
      };
    return {
      ok: true,
      file: dirs.log(worker.uid, container, run.attempt),
      done: () => run.exit !== undefined || worker.state.containers[container]?.current !== run,
    };
  };
}
