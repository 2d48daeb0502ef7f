/**
 * The pods the container benchmarks run on `hearth up --runtime cri`, and the
 * argv the by-hand floor gives `ctr run` for the same image: a busybox that
 * sleeps (Ready once running, no probe), etcd on its pod IP (Ready by a tcp
 * probe on its client port every second, Kubernetes' shortest period) and
 * stock nginx on port 80. Images are Hearth's own, served by its registry
 * under their Docker Hub names.
 */
import type { Pod } from "../src/api/pod.js";

export const BUSYBOX = "busybox:1.35";
export const ETCD = "etcd:3.4";
export const NGINX = "nginx:1.22";

/** The name containerd stores a pulled image under (for `ctr run`). */
export const qualified = (ref: string) => `docker.io/library/${ref}`;

/**
 * Sleeps until SIGTERM, then exits at once: a shell or sleep as the
 * container's PID 1 ignores an untrapped TERM and would wait out the grace
 * period on every delete. A TERM that comes before the shell has set its trap
 * (a delete right after Ready) is still ignored: sleeper pods have a grace
 * period of 1 s.
 */
export const SLEEPER = ["sh", "-c", "trap 'exit 0' TERM; sleep 3600 & wait"];

export const ETCD_CLIENT_PORT = 2379;

/** etcd alone on `host` (client 2379, peer 2380), data in the image's /var/lib/etcd. */
export function etcdArgv(name: string, host: string): string[] {
  const url = (port: number) => `http://${host}:${port}`;
  return [
    "etcd",
    `--name=${name}`,
    "--data-dir=/var/lib/etcd",
    `--listen-client-urls=${url(ETCD_CLIENT_PORT)}`,
    `--advertise-client-urls=${url(ETCD_CLIENT_PORT)}`,
    `--listen-peer-urls=${url(2380)}`,
    `--initial-advertise-peer-urls=${url(2380)}`,
    `--initial-cluster=${name}=${url(2380)}`,
  ];
}

function pod(
  name: string,
  labels: Record<string, string>,
  container: Pod["spec"]["containers"][0],
  graceSeconds = 5,
): Pod {
  return {
    apiVersion: "v1",
    kind: "Pod",
    metadata: { name, labels },
    spec: { terminationGracePeriodSeconds: graceSeconds, containers: [container] },
  };
}

/** A busybox that sleeps; without `nodeName` the scheduler places it. */
export function sleeperPod(name: string, nodeName?: string): Pod {
  const p = pod(
    name,
    { app: "bench-sleep" },
    { name: "main", image: BUSYBOX, command: SLEEPER },
    1,
  );
  if (nodeName) p.spec.nodeName = nodeName;
  return p;
}

export function etcdPodOnCri(name: string): Pod {
  return pod(
    name,
    { app: "bench-etcd" },
    {
      name: "etcd",
      image: ETCD,
      command: etcdArgv(name, "$(POD_IP)"),
      env: [{ name: "POD_IP", valueFrom: { fieldRef: { fieldPath: "status.podIP" } } }],
      ports: [{ name: "client", containerPort: ETCD_CLIENT_PORT }],
      readinessProbe: { tcpSocket: { port: "client" }, periodSeconds: 1 },
    },
  );
}

/** Stock nginx (Debian's configuration), answering on port 80. */
export function nginxPod(name: string, labels: Record<string, string>): Pod {
  return pod(name, labels, {
    name: "nginx",
    image: NGINX,
    ports: [{ name: "http", containerPort: 80 }],
    readinessProbe: { httpGet: { path: "/", port: "http" }, periodSeconds: 1 },
  });
}
