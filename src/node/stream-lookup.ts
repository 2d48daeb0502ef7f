/**
 * Finds what an exec, attach or port-forward request names: the running
 * container of the pod's newest worker (its runtime id), or for port-forward
 * the pod's sandbox; the kubelet's wording when there is none.
 */
import type { PodWorker } from "./pod-worker.js";
import type { StreamLookup } from "./streaming/index.js";

export function streamLookup(workers: Map<string, PodWorker>): StreamLookup {
  return (namespace, pod, container) => {
    const key = `${namespace}/${pod}`;
    const worker = [...workers.values()]
      .filter((w) => w.key === key)
      .sort((a, b) => a.state.startTime.localeCompare(b.state.startTime))
      .at(-1);
    const sandboxId = worker?.state.sandboxId;
    if (!worker || !sandboxId) return { ok: false, code: 404, message: `pod does not exist` };
    if (container === undefined) return { ok: true, containerId: "", sandboxId };
    const run = worker.state.containers[container]?.current;
    if (!run?.containerId || run.exit !== undefined)
      return {
        ok: false,
        code: 404,
        message: `container not found (${JSON.stringify(container)})`,
      };
    return { ok: true, containerId: run.containerId, sandboxId };
  };
}
