/**
 * `hearth up --runtime cri` for the container benchmarks: a real child process
 * on a fresh data directory with its own containerd, registry, CNI bridge
 * (pod CIDR 10.240.0.0/24 unless a group passes its own) and Service rules
 * (service CIDR 10.241.0.0/16),
 * and a client from its admin kubeconfig. The processes a window measures are
 * found from the data directory only — containerd from its pid file, the shims
 * as the parents of the task processes in containerd's state directory —
 * never by a name across the machine. `stop()` sends SIGTERM (the agent stops
 * its pods, Hearth its containerd, bridge and table), counts the container
 * processes still alive under the directory, then undoes whatever is left
 * (removeContainerRuntime) and returns that count.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { clientFromKubeconfig, type HttpClient } from "../src/client/index.js";
import { builtSpecs, findSpec, imageCache } from "../src/images/index.js";
import { containerdLayout, isRunning, readStat } from "../src/node/index.js";
import { containerProcesses } from "../test/support/containerd-leftovers.js";
import { criSkipReason, removeContainerRuntime } from "../test/support/cri-node.js";
import { type Hearth, startHearth } from "../test/support/hearth-process.js";
import { type PodWatch, watchPods } from "./pod-watch.js";

export const CRI_POD_CIDR = "10.240.0.0/24";
export const CRI_SERVICE_CIDR = "10.241.0.0/16";

/** The pod and service CIDRs of one `hearth up`. */
export interface CriNetwork {
  podCIDR: string;
  serviceCIDR: string;
}

export const CRI_NETWORK: CriNetwork = { podCIDR: CRI_POD_CIDR, serviceCIDR: CRI_SERVICE_CIDR };

export type ContainerdLayout = ReturnType<typeof containerdLayout>;

export interface CriHearth {
  hearth: Hearth;
  pid: number;
  client: HttpClient;
  layout: ContainerdLayout;
  /** SIGTERM, clean-up of what is left; resolves to the container processes that outlived it. */
  stop(): Promise<number>;
}

/** Why the container groups cannot run here (criSkipReason, or an image they need not built). */
export function criGroupSkipReason(images: string[]): string | false {
  const reason = criSkipReason();
  if (reason) return reason;
  const cache = imageCache();
  for (const ref of images)
    if (builtSpecs(cache, [findSpec(ref)!]).length === 0)
      return `image ${ref} is not built in ${cache.layout} (run ./hearth help as root)`;
  return false;
}

export async function startCriHearth(
  dir: string,
  name: string,
  network: CriNetwork = CRI_NETWORK,
): Promise<CriHearth> {
  const dataDir = join(dir, name);
  const h = await startHearth({
    dataDir,
    extraArgs: [
      "--runtime",
      "cri",
      "--pod-cidr",
      network.podCIDR,
      "--service-cidr",
      network.serviceCIDR,
    ],
    timeoutMs: 180_000,
  }).catch(async (e: unknown) => {
    // A Hearth that never got ready may have been killed with its containerd running.
    await removeContainerRuntime(dataDir);
    throw e;
  });
  const stop = async () => {
    if (h.process.exitCode === null && h.process.signalCode === null) await h.stop();
    const left = containerProcesses(dataDir).filter((pid) => isRunning(pid)).length;
    await removeContainerRuntime(dataDir);
    await h.cleanup();
    return left;
  };
  let client: HttpClient;
  try {
    client = await clientFromKubeconfig(h.kubeconfig);
  } catch (e) {
    await stop();
    throw e;
  }
  return {
    hearth: h,
    pid: h.process.pid!,
    client,
    layout: containerdLayout(dataDir),
    async stop() {
      client.close();
      return stop();
    },
  };
}

/** The pid of the containerd serving this layout, from its pid file (`<pid> <start ticks>`). */
export function containerdPid(layout: ContainerdLayout): number {
  const [pid, start] = readFileSync(layout.pidFile, "utf8").trim().split(/\s+/).map(Number);
  if (!pid || !isRunning(pid, start)) throw new Error(`containerd of ${layout.dir} is not running`);
  return pid;
}

/**
 * The live shims of this containerd: the parent of each task's process
 * (`init.pid` of every bundle in `state/io.containerd.runtime.v2.task/<namespace>/<id>`;
 * containerd 1.6 keeps no pid file of the shim itself), when its command line
 * names this containerd's socket. The containers of a pod share their
 * sandbox's shim, so each pid is counted once.
 */
export function shimPids(layout: ContainerdLayout): number[] {
  const tasks = join(layout.state, "io.containerd.runtime.v2.task");
  const pids = new Set<number>();
  for (const ns of existsSync(tasks) ? readdirSync(tasks) : [])
    for (const id of readdirSync(join(tasks, ns))) {
      try {
        const init = Number(readFileSync(join(tasks, ns, id, "init.pid"), "utf8"));
        const shim = readStat(init)?.ppid;
        if (!shim || !isRunning(shim)) continue;
        const cmdline = readFileSync(`/proc/${shim}/cmdline`, "utf8").split("\0");
        if (cmdline.includes(layout.socket)) pids.add(shim);
      } catch {
        // a task being created or removed
      }
    }
  return [...pids].sort((a, b) => a - b);
}

/** A container group's result: what it measured, or why it could not run here. */
export type CriGroupResult<T> = { skipped: string } | (T & { leftoverProcesses: number });

/**
 * Runs `measure` on a fresh `hearth up --runtime cri` (under DIR/`name`) with
 * a watch on the default namespace's pods, then stops and cleans it up,
 * counting leftover container processes; without the runtime or `images`
 * here, returns why.
 */
export async function onCriHearth<T>(
  dir: string,
  name: string,
  images: string[],
  measure: (ch: CriHearth, watch: PodWatch) => Promise<T>,
  network: CriNetwork = CRI_NETWORK,
): Promise<CriGroupResult<T>> {
  const skipped = criGroupSkipReason(images);
  if (skipped) return { skipped };
  const ch = await startCriHearth(dir, name, network);
  const stop = new AbortController();
  let watch: PodWatch | undefined;
  let result: T;
  let leftoverProcesses = 0;
  try {
    watch = await watchPods(ch.client, "default", stop.signal);
    result = await measure(ch, watch);
  } finally {
    stop.abort();
    await watch?.closed();
    // SIGTERM: the agent stops every pod, Hearth its containerd, bridge and table.
    leftoverProcesses = await ch.stop();
  }
  return { ...result, leftoverProcesses };
}
