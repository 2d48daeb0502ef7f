/**
 * Pods as host processes under bubblewrap (the runtime before containers,
 * kept while the rest of the platform moves to CRI): each pod gets a loopback
 * IP from the node's range; a container's image is an entry of the image
 * table (else `ErrImagePull`), its argv and binds are planned here (a mount
 * point that would have to be created under the read-only `/usr` or `/etc` is
 * a `CreateContainerError`), and each run is a detached bwrap session whose
 * pids and exit the agent keeps in the pod's state file, from which the next
 * agent adopts it. It reports no resource usage: a bwrap run has no cgroup
 * of its own to read it from.
 */
import { existsSync, rmSync } from "node:fs";
import { type Container, type Pod, rfc3339 } from "../api/index.js";
import { launch, type Observation, observe, signalRun } from "./container-process.js";
import { podHostname } from "./container-start.js";
import { containerArgv, containerEnv } from "./env.js";
import { ContainerConfigError } from "./field-ref.js";
import { execInSandbox } from "./host-exec.js";
import type { ImageTable, ResolvedImage } from "./image-table.js";
import type { IpAllocator } from "./ip-allocator.js";
import type { PlanInput, PodRuntime, StartDecision, StartPlan } from "./pod-runtime.js";
import { loadState, type PodDirs, type PodState, type RunRecord, saveState } from "./pod-state.js";
import type { ProbeResult } from "./probes.js";
import { type HostLayout, isUnderReadOnlyRoot } from "./sandbox.js";
import { checkSandbox } from "./sandbox-check.js";
import type { PodUsage } from "./stats/index.js";
import { containerMounts } from "./volumes.js";

export interface HostPlan extends StartPlan {
  image: ResolvedImage;
  argv: string[];
  workingDir: string;
}

export interface HostRuntimeOptions {
  dirs: PodDirs;
  images: ImageTable;
  ips: IpAllocator;
  layout: HostLayout;
  bwrap: string;
}

export class HostRuntime implements PodRuntime {
  readonly logFormat = "raw";
  readonly execNeedsPlan = true;
  readonly writesHostname = false;

  constructor(private readonly o: HostRuntimeOptions) {}

  check(): Promise<void> {
    return checkSandbox(this.o.bwrap, this.o.layout);
  }

  async recover(): Promise<PodState[]> {
    const out: PodState[] = [];
    for (const uid of this.o.dirs.listPods()) {
      const state = loadState(this.o.dirs, uid);
      if (!state) continue;
      this.o.ips.reserve(state.podIP);
      out.push(state);
    }
    return out;
  }

  async createPod(pod: Pod): Promise<PodState> {
    const state: PodState = {
      version: 1,
      uid: pod.metadata.uid!,
      namespace: pod.metadata.namespace!,
      name: pod.metadata.name!,
      podIP: this.o.ips.allocate(),
      startTime: rfc3339(),
      terminationGracePeriodSeconds: pod.spec.terminationGracePeriodSeconds ?? 30,
      containers: {},
    };
    saveState(this.o.dirs, state);
    return state;
  }

  save(state: PodState): void {
    saveState(this.o.dirs, state);
  }

  async refresh(): Promise<void> {}

  observe(state: PodState, name: string, run: RunRecord): Observation {
    const d = this.o.dirs;
    return observe(
      run,
      d.status(state.uid, name, run.attempt),
      d.log(state.uid, name, run.attempt),
    );
  }

  async plan(input: PlanInput): Promise<StartDecision> {
    const c = input.container;
    const found = this.o.images.lookup(c.image);
    if (!found.ok) return { ok: false, reason: "ErrImagePull", message: found.message };
    let vars: Map<string, string>;
    try {
      vars = await containerEnv(c, { ...input.env, imageEnv: found.image.env ?? {} });
    } catch (e) {
      if (e instanceof ContainerConfigError)
        return { ok: false, reason: "CreateContainerConfigError", message: e.message };
      throw e;
    }
    const mounts = [
      ...(found.image.binds ?? []).map((p) => ({ source: p, target: p, readOnly: true })),
      ...input.etcMounts,
      ...containerMounts(c, input.volumes),
    ];
    for (const m of mounts) {
      if (!existsSync(m.source))
        return {
          ok: false,
          reason: "CreateContainerError",
          message: `the host path ${m.source} for ${m.target} does not exist`,
        };
      if (isUnderReadOnlyRoot(m.target) && !existsSync(m.target))
        return {
          ok: false,
          reason: "CreateContainerError",
          message: `cannot mount at ${m.target}: ${m.target.startsWith("/usr") ? "/usr" : "/etc"} is read-only in the sandbox and ${m.target} does not exist on this node`,
        };
    }
    const argv = containerArgv(c, found.image, vars);
    if (argv.length === 0)
      return {
        ok: false,
        reason: "CreateContainerConfigError",
        message: `no command specified for container ${c.name}: image ${JSON.stringify(c.image)} has no entrypoint`,
      };
    input.event(
      `pulled/${c.name}`,
      "Normal",
      "Pulled",
      `Container image "${c.image}" already present on machine`,
    );
    const plan: HostPlan = {
      image: found.image,
      imageID: `hearth://${c.image ?? ""}`,
      argv,
      env: vars,
      mounts,
      workingDir: c.workingDir ?? "/",
    };
    return { ok: true, plan };
  }

  async start(
    state: PodState,
    pod: Pod,
    c: Container,
    startPlan: StartPlan,
    run: RunRecord,
    onExit: () => void,
  ): Promise<void> {
    const plan = startPlan as HostPlan;
    const d = this.o.dirs;
    const launched = launch(
      {
        argv: plan.argv,
        env: plan.env,
        hostname: podHostname(pod),
        workingDir: plan.workingDir,
        mounts: plan.mounts,
        logFile: d.log(state.uid, c.name, run.attempt),
        statusFile: d.status(state.uid, c.name, run.attempt),
      },
      run.attempt,
      this.o.layout,
      this.o.bwrap,
    );
    Object.assign(run, launched.run, { startedAt: run.startedAt });
    saveState(d, state);
    launched.shim.once("exit", onExit);
  }

  signal(run: RunRecord, signal: "SIGTERM" | "SIGKILL"): boolean {
    return signalRun(run, signal);
  }

  exec(
    pod: Pod,
    _run: RunRecord,
    plan: StartPlan | undefined,
    command: string[],
    timeoutMs: number,
  ): Promise<ProbeResult> {
    const p = plan as HostPlan | undefined;
    const sandbox = {
      env: p?.env ?? new Map<string, string>(),
      mounts: p?.mounts ?? [],
      workingDir: p?.workingDir ?? "/",
      hostname: podHostname(pod),
    };
    return execInSandbox(command, sandbox, this.o.layout, this.o.bwrap, timeoutMs);
  }

  /** None: the runs share the agent's cgroup, so nothing measures one pod. */
  async stats(): Promise<PodUsage[]> {
    return [];
  }

  async removePod(state: PodState): Promise<void> {
    this.o.ips.release(state.podIP);
    rmSync(this.o.dirs.pod(state.uid), { recursive: true, force: true });
  }

  /** The state file stays: the next agent finds the pod (and its stopped runs) there. */
  async release(): Promise<void> {}

  close(): void {}
}
