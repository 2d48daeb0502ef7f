/**
 * The columns `kubectl get pods` prints, computed as kube's printer does
 * (`printPod`): READY, STATUS (phase, or the reason of the first waiting or
 * failed container, `Init:x/y`, `Terminating`), RESTARTS with the time of the
 * last restart, AGE; wide: IP, NODE, NOMINATED NODE, READINESS GATES.
 */
import type { ContainerStatus, KubeObject, Pod } from "../../api/index.js";
import type { TableColumn } from "./resource-type.js";
import { age, ageColumn } from "./table.js";

interface Summary {
  ready: string;
  status: string;
  restarts: string;
}

function terminatedReason(prefix: string, s: ContainerStatus): string | undefined {
  const t = s.state?.terminated;
  if (!t) return undefined;
  if (t.reason) return `${prefix}${t.reason}`;
  return t.signal ? `${prefix}Signal:${t.signal}` : `${prefix}ExitCode:${t.exitCode}`;
}

function initReason(pod: Pod): { reason?: string; restarts: number; last: number } {
  const statuses = pod.status?.initContainerStatuses ?? [];
  const total = (pod.spec?.initContainers ?? []).length;
  let restarts = 0;
  let last = 0;
  for (const [i, s] of statuses.entries()) {
    restarts += s.restartCount ?? 0;
    last = Math.max(last, Date.parse(s.lastState?.terminated?.finishedAt ?? "") || 0);
    if (s.state?.terminated?.exitCode === 0) continue;
    if (s.state?.terminated) return { reason: terminatedReason("Init:", s), restarts, last };
    const waiting = s.state?.waiting?.reason;
    if (waiting && waiting !== "PodInitializing")
      return { reason: `Init:${waiting}`, restarts, last };
    return { reason: `Init:${i}/${total}`, restarts, last };
  }
  return { restarts, last };
}

export function summarize(obj: KubeObject): Summary {
  const pod = obj as Pod;
  const status = pod.status ?? {};
  let reason: string = status.reason || status.phase || "Pending";
  const init = initReason(pod);
  let restarts = init.restarts;
  let last = init.last;
  let readyCount = 0;
  const initialized = (status.conditions ?? []).some(
    (c) => c.type === "Initialized" && c.status === "True",
  );
  if (init.reason) reason = init.reason;
  if (!init.reason || initialized) {
    restarts = 0;
    let hasRunning = false;
    const statuses = status.containerStatuses ?? [];
    for (let i = statuses.length - 1; i >= 0; i--) {
      const s = statuses[i]!;
      restarts += s.restartCount ?? 0;
      last = Math.max(last, Date.parse(s.lastState?.terminated?.finishedAt ?? "") || 0);
      if (s.state?.waiting?.reason) reason = s.state.waiting.reason;
      else if (s.state?.terminated) reason = terminatedReason("", s) ?? reason;
      else if (s.ready && s.state?.running) {
        hasRunning = true;
        readyCount++;
      }
    }
    if (reason === "Completed" && hasRunning) {
      const ready = (status.conditions ?? []).some(
        (c) => c.type === "Ready" && c.status === "True",
      );
      reason = ready ? "Running" : "NotReady";
    }
  }
  const terminal = status.phase === "Succeeded" || status.phase === "Failed";
  if (pod.metadata.deletionTimestamp && !terminal) reason = "Terminating";
  const total = (pod.spec?.containers ?? []).length;
  return {
    ready: `${readyCount}/${total}`,
    status: reason,
    restarts:
      restarts !== 0 && last > 0
        ? `${restarts} (${age(new Date(last).toISOString())} ago)`
        : String(restarts),
  };
}

const none = (v: string | undefined) => (v ? v : "<none>");

export const podColumns: TableColumn[] = [
  {
    name: "Ready",
    type: "string",
    description: "The aggregate readiness state of this pod for accepting traffic.",
    cell: (o) => summarize(o).ready,
  },
  {
    name: "Status",
    type: "string",
    description: "The aggregate status of the containers in this pod.",
    cell: (o) => summarize(o).status,
  },
  {
    name: "Restarts",
    type: "string",
    description:
      "The number of times the containers in this pod have been restarted and when the last container in this pod has restarted.",
    cell: (o) => summarize(o).restarts,
  },
  ageColumn,
  {
    name: "IP",
    type: "string",
    priority: 1,
    description:
      "podIP address allocated to the pod. Routable at least within the cluster. Empty if not yet allocated.",
    cell: (o) => none((o as Pod).status?.podIPs?.[0]?.ip ?? (o as Pod).status?.podIP),
  },
  {
    name: "Node",
    type: "string",
    priority: 1,
    description: "NodeName indicates in which node this pod is scheduled.",
    cell: (o) => none((o as Pod).spec?.nodeName),
  },
  {
    name: "Nominated Node",
    type: "string",
    priority: 1,
    description:
      "nominatedNodeName is set only when this pod preempts other pods on the node, but it cannot be scheduled right away as preemption victims receive their graceful termination periods.",
    cell: (o) => none((o as Pod).status?.nominatedNodeName),
  },
  {
    name: "Readiness Gates",
    type: "string",
    priority: 1,
    description:
      "If specified, all readiness gates will be evaluated for pod readiness. Hearth serves no readiness gates.",
    cell: () => "<none>",
  },
];
