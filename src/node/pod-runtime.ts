/**
 * What runs a pod's containers for the node agent. The PodWorker keeps the
 * kubelet's logic (init containers in order, restart policy, crash-loop
 * back-off, probes, graceful stops, status) and asks a PodRuntime for the
 * parts that touch the machine: a new pod's sandbox (its network namespace
 * and IP), the plan and start of one container run, what each run is doing
 * now, signals, exec probes, resource usage, and removal. Containers through
 * CRI implement it (`cri-runtime.ts`: containerd holds the state; an agent
 * recovers it through CRI); the seam is what the kubelet's logic needs of a
 * runtime, nothing more.
 */
import type { Container, Pod } from "../api/index.js";
import type { EnvContext } from "./env.js";
import type { Mount } from "./mount.js";
import type { PodState, RunRecord } from "./pod-state.js";
import type { ProbeResult } from "./probes.js";
import type { PodUsage } from "./stats/index.js";
import type { PreparedVolume } from "./volumes.js";

export type { Mount } from "./mount.js";

/** What a run is doing, as the runtime last reported it. */
export type Observation = "running" | "exited";

/** What a plan of one run carries; the runtime adds its own fields. */
export interface StartPlan {
  env: Map<string, string>;
  mounts: Mount[];
  /** The image as the status reports it (`imageID`). */
  imageID: string;
}

export type StartDecision =
  | { ok: true; plan: StartPlan }
  | {
      ok: false;
      reason:
        | "ErrImagePull"
        | "ImagePullBackOff"
        | "ErrImageNeverPull"
        | "InvalidImageName"
        | "CreateContainerConfigError"
        | "CreateContainerError";
      message: string;
      /** Ms until another attempt may succeed (a pull back-off); undefined: only a change of the pod helps. */
      retryMs?: number;
    };

export interface PlanInput {
  pod: Pod;
  container: Container;
  env: Omit<EnvContext, "imageEnv">;
  volumes: Map<string, PreparedVolume>;
  /** The pod's `/etc/hosts`. */
  etcMounts: Mount[];
  /** Events about the image (Pulling, Pulled, Failed), once each. */
  event(key: string, type: "Normal" | "Warning", reason: string, message: string): void;
}

export interface PodRuntime {
  /**
   * Checks the runtime can run anything here; throws saying what is missing.
   * Resolves to its `<name>://<version>` (e.g. `containerd://1.6.20`).
   */
  check(): Promise<string>;
  /** The pods found running (or stopped but not removed) on this node, for the agent to adopt. */
  recover(): Promise<PodState[]>;
  /** A new pod's place on the node: its sandbox and IP. */
  createPod(pod: Pod): Promise<PodState>;
  /** Refreshes what `observe` reports (one list of the runtime's containers). */
  refresh(): Promise<void>;
  /** Updates `run` from what the runtime reports: its exit. */
  observe(run: RunRecord): Observation;
  /** Decides how the next run of a container starts, or why it cannot yet. */
  plan(input: PlanInput): Promise<StartDecision>;
  /**
   * Starts `run` (already recorded in the state as the container's current run);
   * resolves once it runs. A run that cannot start gets its exit recorded.
   */
  start(state: PodState, pod: Pod, c: Container, plan: StartPlan, run: RunRecord): Promise<void>;
  /** Signals a live run (SIGTERM with a grace period, or SIGKILL); false when nothing is left of it. */
  signal(run: RunRecord, signal: "SIGTERM" | "SIGKILL", graceSeconds: number): boolean;
  /** Runs an exec probe's command in the container of `run`. */
  exec(run: RunRecord, command: string[], timeoutMs: number): Promise<ProbeResult>;
  /**
   * What the running containers of `pods` use now (CPU time, memory), one
   * entry per pod with a running container the runtime can measure.
   */
  stats(pods: PodState[]): Promise<PodUsage[]>;
  /** Removes what is left of the pod once none of its runs is alive (sandbox, directory). */
  removePod(state: PodState): Promise<void>;
  /**
   * After a clean stop of the node, with none of its runs alive: frees what the
   * runtime holds for the pod (the sandbox and its network) and keeps its
   * directory (volumes, logs) for the pod's next start.
   */
  release(state: PodState): Promise<void>;
  /** Stops talking to the runtime (containers keep running). */
  close(): void;
}
