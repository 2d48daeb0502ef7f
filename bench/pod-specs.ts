/**
 * The pods the node benchmarks run, and the same command started without Hearth
 * (the floor): a trivial sleeping shell (Ready once running; no probe) and the
 * e2e tests' real etcd on its pod IP (Ready by a tcp probe on its client port,
 * every second, Kubernetes' shortest period). The floor's argv is the image
 * table's entrypoint plus the container's args, as the agent builds it, with
 * `$(POD_IP)` expanded and etcd's data directory moved.
 */
import type { Pod } from "../src/api/pod.js";
import { ImageTable } from "../src/node/index.js";
import { etcdPod } from "../test/support/node-pods.js";

export type PodKind = "trivial" | "etcd";

/** Port etcd serves clients on (its readiness signal). */
export const ETCD_CLIENT_PORT = 2379;
const ETCD_DATA_ARG = "--data-dir=/var/lib/etcd";

function trivialPod(name: string): Pod {
  return {
    apiVersion: "v1",
    kind: "Pod",
    metadata: { name },
    spec: {
      terminationGracePeriodSeconds: 5,
      containers: [{ name: "main", image: "sh", args: ["-c", "sleep 3600"] }],
    },
  };
}

/** The Pod; without `nodeName` the scheduler places it. */
export function benchPod(kind: PodKind, name: string, nodeName?: string): Pod {
  const pod =
    kind === "trivial"
      ? trivialPod(name)
      : etcdPod(name, {
          labels: { app: "bench-etcd" },
          data: { name: "data", emptyDir: {} },
          readinessProbe: { tcpSocket: { port: "client" }, periodSeconds: 1 },
        });
  if (nodeName) pod.spec.nodeName = nodeName;
  return pod;
}

/**
 * The argv the agent runs for this pod's first container (entrypoint from the
 * image table, then the container's args), with `$(POD_IP)` replaced by `ip`
 * and etcd's data directory by `dataDir`.
 */
export function floorArgv(pod: Pod, ip: string, dataDir: string): string[] {
  const c = pod.spec.containers[0]!;
  const found = ImageTable.load().lookup(c.image);
  if (!found.ok) throw new Error(`cannot run the floor of ${pod.metadata.name}: ${found.message}`);
  const args = (c.args ?? []).map((a) =>
    a === ETCD_DATA_ARG ? `--data-dir=${dataDir}` : a.replaceAll("$(POD_IP)", ip),
  );
  return [...found.image.entrypoint, ...args];
}
