/**
 * Wires a container run's probes: the ContainerProber with each probe run in
 * the container through its runtime (exec) or against its pod IP (tcp, http), an
 * `Unhealthy` event for each failure, and a re-sync of the pod on each change.
 */
import type { Container, Pod } from "../api/index.js";
import { ContainerProber } from "./prober.js";
import { type ProbeTarget, runProbe } from "./probes.js";
import type { WorkerDeps } from "./worker-deps.js";

export function startProber(
  deps: WorkerDeps,
  pod: Pod,
  c: Container,
  podIP: string,
  exec: ProbeTarget["exec"],
  /** An adopted run keeps the readiness its pod's status last showed. */
  adopted: boolean,
): ContainerProber {
  const key = `${pod.metadata.namespace}/${pod.metadata.name}`;
  const initialReady =
    adopted && (pod.status?.containerStatuses ?? []).some((s) => s.name === c.name && s.ready);
  const prober = new ContainerProber({
    ...(c.startupProbe ? { startup: c.startupProbe } : {}),
    ...(c.readinessProbe ? { readiness: c.readinessProbe } : {}),
    ...(c.livenessProbe ? { liveness: c.livenessProbe } : {}),
    initialReady,
    run: (probe) => runProbe(probe, { container: c, podIP, exec }),
    onChange: () => deps.enqueue(key),
    onFailure: (kind, message) =>
      deps.event(pod, "Warning", "Unhealthy", `${kind} probe failed: ${message}`),
  });
  prober.start();
  return prober;
}
