/**
 * Helpers for end-to-end tests of the node agent: the container processes of
 * a Hearth's pods (from its containerd's task state, so they can be found
 * while containerd itself is down), read-only scans of /proc, a real etcd pod
 * and Service, etcdctl through a ClusterIP, and a last-resort kill of pod
 * processes (by pid and checked start time, never by name) so no test leaves
 * a process behind.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { stringify } from "yaml";
import type { Pod, Probe, Volume } from "../../src/api/pod.js";
import { containerdLayout, isRunning, readStat, signalGroup } from "../../src/node/index.js";
import { type Hearth, type RunResult, run, waitFor } from "./hearth-process.js";

/** The init process of one running container of a pod. */
export interface PodProcess {
  uid: string;
  container: string;
  pid: number;
  pidStart: number;
}

/**
 * The process of every running container of the Hearth on `dataDir`: the
 * tasks in the state directory of its containerd (under DIR/containerd; each
 * bundle's `init.pid`, and the pod uid CRI put in its annotations), so it
 * works while containerd itself is down.
 */
export async function podProcesses(dataDir: string): Promise<PodProcess[]> {
  const layout = containerdLayout(dataDir);
  const tasks = join(layout.state, "io.containerd.runtime.v2.task", "k8s.io");
  const out: PodProcess[] = [];
  for (const id of existsSync(tasks) ? readdirSync(tasks) : []) {
    try {
      const spec = JSON.parse(readFileSync(join(tasks, id, "config.json"), "utf8")) as {
        annotations?: Record<string, string>;
      };
      const a = spec.annotations ?? {};
      if (a["io.kubernetes.cri.container-type"] !== "container") continue;
      const uid = a["io.kubernetes.cri.sandbox-uid"];
      const pid = Number(readFileSync(join(tasks, id, "init.pid"), "utf8"));
      const st = readStat(pid);
      if (!uid || !st) continue;
      out.push({
        uid,
        container: a["io.kubernetes.cri.container-name"] ?? "",
        pid,
        pidStart: st.startTicks,
      });
    } catch {
      // a task being created or removed
    }
  }
  return out;
}

/** SIGKILLs what is still alive of `procs` (found earlier); returns how many were. */
export function killProcesses(procs: PodProcess[]): number {
  const live = procs.filter((p) => isRunning(p.pid, p.pidStart));
  for (const p of live) signalGroup(p.pid, "SIGKILL");
  return live.length;
}

/** SIGKILLs every pod process of the Hearth on `dataDir` still alive; returns how many were. */
export async function killPodProcesses(dataDir: string): Promise<number> {
  return killProcesses(await podProcesses(dataDir));
}

export async function nodeName(h: Hearth): Promise<string> {
  return (await h.kubectlOk(["get", "nodes", "-o", "jsonpath={.items[0].metadata.name}"])).trim();
}

/** Stops hearth (SIGTERM: pods are stopped), kills any pod process left, removes everything. */
export async function stopAndClean(h: Hearth | undefined): Promise<number> {
  if (!h) return 0;
  if (h.process.exitCode === null && h.process.signalCode === null) await h.stop();
  const leftover = await killPodProcesses(h.dataDir);
  await h.cleanup();
  return leftover;
}

export interface ProcEntry {
  pid: number;
  ppid: number;
  /** The session id: a container's processes share its pid as theirs. */
  sid: number;
  cmdline: string[];
}

/** A read-only scan of /proc: every live (not zombie) process. */
export function processTable(): ProcEntry[] {
  const out: ProcEntry[] = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      // Fields after the command name: state, ppid, pgrp, session, …
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      if (fields[0] === "Z" || fields[0] === "X") continue;
      const cmdline = readFileSync(`/proc/${entry}/cmdline`, "utf8").split("\0").slice(0, -1);
      out.push({ pid: Number(entry), ppid: Number(fields[1]), sid: Number(fields[3]), cmdline });
    } catch {
      // gone meanwhile
    }
  }
  return out;
}

/** `kubectl apply` of objects, as one multi-document YAML. */
export function applyObjects(h: Hearth, objects: object[]): Promise<string> {
  const input = objects.map((o) => stringify(o)).join("---\n");
  return h.kubectlOk(["apply", "-f", "-"], { input });
}

/**
 * A long-running `sh` pod with `volumes` mounted at `/<name>`; each start of
 * its container adds a line to `starts` in the first volume.
 */
export function shPod(name: string, volumes: Volume[], readinessProbe?: Probe): Pod {
  const script = `echo started >> /${volumes[0]!.name}/starts; trap 'exit 0' TERM; while :; do sleep 0.2; done`;
  return {
    apiVersion: "v1",
    kind: "Pod",
    metadata: { name },
    spec: {
      terminationGracePeriodSeconds: 2,
      containers: [
        {
          name: "main",
          image: "busybox",
          command: ["sh", "-c", script],
          ...(readinessProbe ? { readinessProbe } : {}),
          volumeMounts: volumes.map((v) => ({ name: v.name, mountPath: `/${v.name}` })),
        },
      ],
      volumes,
    },
  };
}

/** A pod running the real etcd (Hearth's `etcd` image) on its pod IP, with `data` as its data directory. */
export function etcdPod(
  name: string,
  opts: { labels: Record<string, string>; data: Volume; readinessProbe: Probe; extra?: Volume[] },
): Pod {
  const url = (port: number) => `http://$(POD_IP):${port}`;
  return {
    apiVersion: "v1",
    kind: "Pod",
    metadata: { name, labels: opts.labels },
    spec: {
      terminationGracePeriodSeconds: 5,
      containers: [
        {
          name: "etcd",
          image: "etcd",
          // The image's etcd is its CMD (no ENTRYPOINT), so args alone would replace it.
          command: ["etcd"],
          env: [{ name: "POD_IP", valueFrom: { fieldRef: { fieldPath: "status.podIP" } } }],
          args: [
            `--name=${name}`,
            "--data-dir=/var/lib/etcd",
            `--listen-client-urls=${url(2379)}`,
            `--advertise-client-urls=${url(2379)}`,
            `--listen-peer-urls=${url(2380)}`,
            `--initial-advertise-peer-urls=${url(2380)}`,
            `--initial-cluster=${name}=${url(2380)}`,
          ],
          ports: [{ name: "client", containerPort: 2379 }],
          readinessProbe: opts.readinessProbe,
          volumeMounts: [
            { name: opts.data.name, mountPath: "/var/lib/etcd" },
            ...(opts.extra ?? []).map((v) => ({ name: v.name, mountPath: `/${v.name}` })),
          ],
        },
      ],
      volumes: [opts.data, ...(opts.extra ?? [])],
    },
  };
}

/** A Service of type ClusterIP on `clusterIP:2379`, to the pods labelled `selector`. */
export function etcdService(name: string, clusterIP: string, selector: Record<string, string>) {
  return {
    apiVersion: "v1",
    kind: "Service",
    metadata: { name },
    spec: { clusterIP, selector, ports: [{ name: "client", port: 2379, targetPort: "client" }] },
  };
}

/** The real etcdctl against `endpoint`, with short timeouts (the callers retry). */
function etcdctl(endpoint: string, args: string[]): Promise<RunResult> {
  return run(
    "etcdctl",
    ["--endpoints", endpoint, "--dial-timeout=3s", "--command-timeout=5s", ...args],
    { timeoutMs: 15_000 },
  );
}

/**
 * `etcdctl put` through `endpoint` (a ClusterIP), retried until it works: the
 * node's rules forward once the Service's EndpointSlice lists a ready pod.
 */
export async function etcdPut(endpoint: string, key: string, value: string): Promise<void> {
  await waitFor(
    `etcdctl put ${key} through ${endpoint}`,
    async () => (await etcdctl(endpoint, ["put", key, value])).code === 0,
    30_000,
  );
}

/** `etcdctl get` through `endpoint`, retried until it answers; the value ("" if none). */
export async function etcdGet(endpoint: string, key: string): Promise<string> {
  const answer = await waitFor(
    `etcdctl get ${key} through ${endpoint}`,
    async () => {
      const r = await etcdctl(endpoint, ["get", key, "--print-value-only"]);
      return r.code === 0 ? { value: r.stdout.trim() } : undefined;
    },
    30_000,
  );
  return answer.value;
}
