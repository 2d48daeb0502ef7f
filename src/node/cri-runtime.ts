/**
 * Pods as containers through the Container Runtime Interface (containerd):
 * one sandbox per pod (its network namespace and address from the runtime's
 * CNI network, its hostname), each run of a container a CRI container in it
 * (metadata attempt n, its log written by the runtime in the CRI format to
 * `logs/<container>/<n>.log` under the pod's directory). The runtime holds
 * the state: `recover` rebuilds every pod's record from the sandboxes and
 * containers CRI lists (labels name the pod, attempts number the runs), so an
 * agent killed at any moment is replaced by one that adopts each container
 * once; nothing of a pod is kept in files of the agent's own. `refresh` lists
 * the containers once per poll; `observe` reads that list (and the status of
 * an exited one: exit code, reason such as OOMKilled, times). Stops are CRI
 * StopContainer calls (with the grace period; SIGKILL is a stop with 0);
 * exec probes are ExecSync; resource usage is the containers' CRI stats
 * (cri-stats.ts). Only the current and the previous run of a
 * container are kept; older ones are removed when a new run starts.
 */
import { existsSync, rmSync } from "node:fs";
import { join } from "node:path";
import { type Container, NotFoundError, type Pod, TimeoutError } from "../api/index.js";
import type { BackoffOptions } from "./backoff.js";
import { DEFAULT_CRASH_BACKOFF } from "./backoff.js";
import {
  CONTAINER_NAME_LABEL,
  type ContainerStatus,
  CriClient,
  type Container as CriContainer,
  containerConfig,
  type PodDnsSettings,
  type PodSandbox,
  podOfSandbox,
  podSandboxConfig,
  runAsNonRootViolation,
  sandboxFacts,
} from "./cri/index.js";
import { ImagePuller } from "./cri-images.js";
import { criPodUsage } from "./cri-stats.js";
import { containerEnv } from "./env.js";
import { expand } from "./expansion.js";
import { ContainerConfigError } from "./field-ref.js";
import type {
  Observation,
  PlanInput,
  PodRuntime,
  StartDecision,
  StartPlan,
} from "./pod-runtime.js";
import type { ExitRecord, PodDirs, PodState, RunRecord } from "./pod-state.js";
import type { ProbeResult } from "./probes.js";
import type { PodUsage } from "./stats/index.js";
import { containerMounts } from "./volumes.js";

export interface CriPlan extends StartPlan {
  /** The image as the runtime names it (its id), so a re-tag cannot change what starts. */
  image: string;
  command?: string[];
  args?: string[];
}

export interface CriRuntimeOptions {
  socket: string;
  /** The node's address: the pod IP of pods in the node's network namespace. */
  hostIP: string;
  dirs: PodDirs;
  pullBackoff?: BackoffOptions;
  /** Pods' resolv.conf (pod-dns.ts); omitted: containerd copies the host's. */
  dns?: PodDnsSettings;
  log?(msg: string, err?: unknown): void;
}

/** Nanoseconds since the epoch (CRI's timestamps) as RFC 3339 in seconds, as kube's status has them. */
function rfc3339Of(ns: number): string {
  return new Date(Math.floor(ns / 1e6)).toISOString().replace(/\.\d+Z$/, "Z");
}

function exitOf(s: ContainerStatus): ExitRecord {
  const reason = s.reason || (s.exitCode === 0 ? "Completed" : "Error");
  return {
    exitCode: s.exitCode,
    reason,
    ...(s.message ? { message: s.message } : {}),
    finishedAt: s.finishedAt > 0 ? rfc3339Of(s.finishedAt) : rfc3339Of(Date.now() * 1e6),
  };
}

export class CriRuntime implements PodRuntime {
  private readonly images: ImagePuller;
  /** Every container the runtime listed at the last refresh, by id. */
  private containers = new Map<string, CriContainer>();
  /** Exit statuses fetched once per exited container. */
  private readonly exited = new Map<string, ContainerStatus>();
  /**
   * Containers this agent created that no listing begun after their creation has seen yet: a
   * listing that started before `CreateContainer` cannot know them, and must not make them lost.
   */
  private readonly unlisted = new Set<string>();
  private refreshing?: Promise<void>;
  private readonly log: (msg: string, err?: unknown) => void;

  private constructor(
    /** The CRI client; the node API's streaming calls (exec, attach, port-forward) use it too. */
    readonly cri: CriClient,
    private readonly o: CriRuntimeOptions,
  ) {
    this.images = new ImagePuller(cri, o.pullBackoff ?? DEFAULT_CRASH_BACKOFF);
    this.log = o.log ?? (() => {});
  }

  static async connect(o: CriRuntimeOptions): Promise<CriRuntime> {
    return new CriRuntime(await CriClient.connect(o.socket), o);
  }

  async check(): Promise<string> {
    try {
      const v = await this.cri.version({ timeoutMs: 10_000 });
      return `${v.runtimeName}://${v.runtimeVersion}`;
    } catch (e) {
      throw new Error(
        `cannot reach the container runtime on ${this.o.socket}: ${(e as Error).message}`,
        { cause: e },
      );
    }
  }

  private logDirectory(uid: string): string {
    return join(this.o.dirs.pod(uid), "logs");
  }

  async recover(): Promise<PodState[]> {
    const sandboxes = await this.cri.listPodSandbox({}, {});
    const byUid = new Map<string, PodSandbox>();
    for (const sb of sandboxes) {
      const pod = podOfSandbox(sb.labels, sb.annotations);
      if (!pod) continue;
      const seen = byUid.get(pod.uid);
      const better =
        !seen ||
        (sb.state === "SANDBOX_READY" && seen.state !== "SANDBOX_READY") ||
        (sb.state === seen.state && sb.createdAt > seen.createdAt);
      if (better) byUid.set(pod.uid, sb);
    }
    const containers = await this.cri.listContainers({}, {});
    const out: PodState[] = [];
    for (const sb of byUid.values()) {
      const pod = podOfSandbox(sb.labels, sb.annotations)!;
      const status = await this.cri.podSandboxStatus(sb.id, {}).catch(() => undefined);
      const state: PodState = {
        version: 1,
        ...pod,
        podIP: status?.status?.network?.ip || this.o.hostIP,
        sandboxId: sb.id,
        startTime: rfc3339Of(sb.createdAt),
        containers: {},
      };
      const mine = containers
        .filter((c) => c.podSandboxId === sb.id && c.metadata)
        .sort((a, b) => (a.metadata!.attempt ?? 0) - (b.metadata!.attempt ?? 0));
      for (const c of mine) {
        const name = c.labels[CONTAINER_NAME_LABEL] ?? c.metadata!.name;
        const run: RunRecord = {
          attempt: c.metadata!.attempt ?? 0,
          startedAt: rfc3339Of((await this.startedAt(c.id)) || c.createdAt),
          containerId: c.id,
          imageID: c.imageRef,
        };
        const rec = state.containers[name];
        state.containers[name] = {
          restartCount: run.attempt,
          current: run,
          ...(rec?.current ? { previous: rec.current } : {}),
        };
      }
      out.push(state);
    }
    return out;
  }

  async createPod(pod: Pod): Promise<PodState> {
    const uid = pod.metadata.uid!;
    const config = podSandboxConfig(
      pod,
      sandboxFacts(pod, this.logDirectory(uid), this.o.dns, (m) => this.log(m)),
    );
    const sandboxId = await this.cri.runPodSandbox(config, { timeoutMs: 240_000 });
    const status = await this.cri.podSandboxStatus(sandboxId, {});
    return {
      version: 1,
      uid,
      namespace: pod.metadata.namespace!,
      name: pod.metadata.name!,
      // A pod in the node's network namespace has the node's address.
      podIP: status.status?.network?.ip || (pod.spec.hostNetwork ? this.o.hostIP : ""),
      sandboxId,
      startTime: rfc3339Of(status.status?.createdAt ?? Date.now() * 1e6),
      terminationGracePeriodSeconds: pod.spec.terminationGracePeriodSeconds ?? 30,
      containers: {},
    };
  }

  refresh(): Promise<void> {
    this.refreshing ??= this.list().finally(() => {
      this.refreshing = undefined;
    });
    return this.refreshing;
  }

  private async list(): Promise<void> {
    const before = [...this.unlisted];
    const all = await this.cri.listContainers({}, {});
    this.containers = new Map(all.map((c) => [c.id, c]));
    for (const id of before) this.unlisted.delete(id);
    for (const c of all) {
      if (c.state !== "CONTAINER_EXITED" || this.exited.has(c.id)) continue;
      const s = await this.cri.containerStatus(c.id, {}).catch(() => undefined);
      if (s?.status) this.exited.set(c.id, s.status);
    }
    for (const id of this.exited.keys()) if (!this.containers.has(id)) this.exited.delete(id);
  }

  observe(run: RunRecord): Observation {
    if (run.exit) return "exited";
    // Being created by this agent: running as far as the worker is concerned.
    if (!run.containerId) return "running";
    const c = this.containers.get(run.containerId);
    if (!c) {
      if (this.unlisted.has(run.containerId)) return "running";
      run.exit = {
        exitCode: 137,
        reason: "ContainerStatusUnknown",
        message: "The container could not be located when the pod was terminated",
        finishedAt: rfc3339Of(Date.now() * 1e6),
      };
      return "exited";
    }
    if (c.state !== "CONTAINER_EXITED") return "running";
    const status = this.exited.get(c.id);
    if (!status) return "running"; // its status comes with the next refresh
    run.exit = exitOf(status);
    if (status.startedAt > 0) run.startedAt = rfc3339Of(status.startedAt);
    return "exited";
  }

  async plan(input: PlanInput): Promise<StartDecision> {
    const { pod, container: c } = input;
    const image = await this.images.ensure({
      pod,
      container: c,
      readSecret: async (name) => input.env.read("Secret", name),
      event: input.event,
    });
    if (!image.ok) return image;
    let env: Map<string, string>;
    try {
      // The runtime adds the image's own environment; `$(VAR)` sees only the container's, as in kube.
      env = await containerEnv(c, { ...input.env, imageEnv: {} });
    } catch (e) {
      if (e instanceof ContainerConfigError)
        return { ok: false, reason: "CreateContainerConfigError", message: e.message };
      throw e;
    }
    const user = image.image;
    const nonRoot = runAsNonRootViolation(pod, c, {
      ...(user.uid ? { uid: user.uid.value } : {}),
      ...(user.username ? { username: user.username } : {}),
    });
    if (nonRoot) return { ok: false, reason: "CreateContainerConfigError", message: nonRoot };
    const mounts = [...input.etcMounts, ...containerMounts(c, input.volumes)];
    for (const m of mounts)
      if (!existsSync(m.source))
        return {
          ok: false,
          reason: "CreateContainerError",
          message: `the host path ${m.source} for ${m.target} does not exist`,
        };
    const plan: CriPlan = {
      image: image.image.id,
      imageID: image.image.repoDigests[0] ?? image.image.id,
      env,
      mounts,
      ...(c.command?.length ? { command: c.command.map((s) => expand(s, env)) } : {}),
      ...(c.args ? { args: c.args.map((s) => expand(s, env)) } : {}),
    };
    return { ok: true, plan };
  }

  async start(
    state: PodState,
    pod: Pod,
    c: Container,
    startPlan: StartPlan,
    run: RunRecord,
  ): Promise<void> {
    const plan = startPlan as CriPlan;
    const sandboxConfig = podSandboxConfig(
      pod,
      sandboxFacts(pod, this.logDirectory(state.uid), this.o.dns),
    );
    const config = containerConfig(pod, c, {
      attempt: run.attempt,
      logPath: join(c.name, `${run.attempt}.log`),
      image: plan.image,
      env: plan.env,
      ...(plan.command ? { command: plan.command } : {}),
      ...(plan.args ? { args: plan.args } : {}),
      mounts: plan.mounts,
    });
    run.imageID = plan.imageID;
    try {
      run.containerId = await this.cri.createContainer(state.sandboxId!, config, sandboxConfig, {});
      this.unlisted.add(run.containerId);
      await this.cri.startContainer(run.containerId, {});
      // The runtime's start time, as a recovery after a restart of the agent reads it back.
      const started = await this.startedAt(run.containerId);
      if (started) run.startedAt = rfc3339Of(started);
    } catch (e) {
      run.exit = {
        exitCode: 128,
        reason: "StartError",
        message: (e as Error).message,
        finishedAt: rfc3339Of(Date.now() * 1e6),
      };
      return;
    }
    await this.pruneRuns(state.sandboxId!, c.name, run.attempt);
  }

  /** When CRI says the container started (ns since the epoch), 0 if it does not say. */
  private async startedAt(id: string): Promise<number> {
    const s = await this.cri.containerStatus(id, {}).catch(() => undefined);
    return s?.status?.startedAt ?? 0;
  }

  /** Removes the runs of a container older than the one before `attempt` (kube keeps one for `--previous`). */
  private async pruneRuns(sandboxId: string, name: string, attempt: number): Promise<void> {
    for (const c of this.containers.values()) {
      if (c.podSandboxId !== sandboxId || c.labels[CONTAINER_NAME_LABEL] !== name) continue;
      if ((c.metadata?.attempt ?? 0) >= attempt - 1 || c.state !== "CONTAINER_EXITED") continue;
      await this.cri
        .removeContainer(c.id, {})
        .catch((e) => this.log(`cannot remove container ${c.id}`, e));
    }
  }

  signal(run: RunRecord, signal: "SIGTERM" | "SIGKILL", graceSeconds: number): boolean {
    if (!run.containerId) return false;
    const c = this.containers.get(run.containerId);
    if (c ? c.state === "CONTAINER_EXITED" : !this.unlisted.has(run.containerId)) return false;
    const grace = signal === "SIGKILL" ? 0 : Math.max(0, Math.ceil(graceSeconds));
    const id = run.containerId;
    // StopContainer waits out the grace period; the worker does not: it looks again when it is due.
    void this.cri
      .stopContainer(id, grace, { timeoutMs: (grace + 30) * 1000 })
      .catch((e) => this.log(`cannot stop container ${id}`, e));
    return true;
  }

  async exec(run: RunRecord, command: string[], timeoutMs: number): Promise<ProbeResult> {
    if (!run.containerId) return { ok: false, message: "the container is not created yet" };
    const seconds = Math.max(1, Math.ceil(timeoutMs / 1000));
    try {
      const r = await this.cri.execSync(run.containerId, command, seconds, {});
      const output = `${r.stdout.toString("utf8")}${r.stderr.toString("utf8")}`
        .trim()
        .slice(0, 10_240);
      return {
        ok: r.exitCode === 0,
        message: output || (r.exitCode === 0 ? "" : `command exited with ${r.exitCode}`),
      };
    } catch (e) {
      // containerd ends an ExecSync past its timeout with an error naming it; our own deadline is a TimeoutError.
      if (e instanceof TimeoutError || /timeout|deadline/i.test((e as Error).message))
        return { ok: false, message: `command timed out after ${timeoutMs / 1000}s` };
      return { ok: false, message: (e as Error).message };
    }
  }

  stats(pods: PodState[]): Promise<PodUsage[]> {
    return criPodUsage(this.cri, pods);
  }

  async release(state: PodState): Promise<void> {
    if (!state.sandboxId) return;
    await this.cri.stopPodSandbox(state.sandboxId, {});
    await this.cri.removePodSandbox(state.sandboxId, {});
  }

  async removePod(state: PodState): Promise<void> {
    this.images.forget(state.uid);
    try {
      await this.release(state);
    } catch (e) {
      if (!(e instanceof NotFoundError)) throw e;
    }
    rmSync(this.o.dirs.pod(state.uid), { recursive: true, force: true });
  }

  close(): void {
    this.cri.close();
  }
}
