/**
 * What runs a pod's containers for the node agent. The PodWorker keeps the
 * kubelet's logic (init containers in order, restart policy, crash-loop
 * back-off, probes, graceful stops, status) and asks a PodRuntime for the
 * parts that touch the machine: a new pod's place (its IP, its sandbox), the
 * plan and start of one container run, what each run is doing now, signals,
 * exec probes, resource usage, and removal. Two runtimes implement it: containers through CRI
 * (`cri-runtime.ts`: containerd holds the state; an agent recovers it through
 * CRI) and host processes under bubblewrap (`host-runtime.ts`: the agent's own
 * state files).
 */
import type { Container, Pod } from "../api/index.js";
import type { Observation } from "./container-process.js";
import type { EnvContext } from "./env.js";
import type { PodState, RunRecord } from "./pod-state.js";
import type { ProbeResult } from "./probes.js";
import type { Mount } from "./sandbox.js";
import type { PodUsage } from "./stats/index.js";
import type { PreparedVolume } from "./volumes.js";

/** What every runtime's plan of one run carries; each runtime adds its own fields. */
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
  /** The pod's `/etc/hosts` (and, for host processes, `/etc/hostname`). */
  etcMounts: Mount[];
  /** Events about the image (Pulling, Pulled, Failed), once each. */
  event(key: string, type: "Normal" | "Warning", reason: string, message: string): void;
}

export interface PodRuntime {
  /** How the containers' log files are written: raw output, or the CRI logging format. */
  readonly logFormat: "raw" | "cri";
  /** Whether the runtime adds `/etc/hostname` itself (CRI) or takes the agent's (host). */
  readonly writesHostname: boolean;
  /**
   * Whether `exec` needs the run's plan (host: a fresh sandbox built like the
   * container's); an adopted run then gets a plan made for its probes.
   */
  readonly execNeedsPlan: boolean;
  /** Checks the runtime can run anything here; throws saying what is missing. */
  check(): Promise<void>;
  /** The pods found running (or stopped but not removed) on this node, for the agent to adopt. */
  recover(): Promise<PodState[]>;
  /** A new pod's place on the node: its IP, and for CRI its sandbox. */
  createPod(pod: Pod): Promise<PodState>;
  /** Records a change of the pod's state where the runtime keeps it (host: a state file). */
  save(state: PodState): void;
  /** Refreshes what `observe` reports (CRI: one list of the runtime's containers). */
  refresh(): Promise<void>;
  /** Updates `run` from what the runtime reports: its pid or id, its exit. */
  observe(state: PodState, name: string, run: RunRecord): Observation;
  /** Decides how the next run of a container starts, or why it cannot yet. */
  plan(input: PlanInput): Promise<StartDecision>;
  /**
   * Starts `run` (already recorded in the state as the container's current run);
   * resolves once it runs. A run that cannot start gets its exit recorded.
   * `onExit` is called when the runtime notices the run end before the next poll.
   */
  start(
    state: PodState,
    pod: Pod,
    c: Container,
    plan: StartPlan,
    run: RunRecord,
    onExit: () => void,
  ): Promise<void>;
  /** Signals a live run (SIGTERM with a grace period, or SIGKILL); false when nothing is left of it. */
  signal(run: RunRecord, signal: "SIGTERM" | "SIGKILL", graceSeconds: number): boolean;
  /** Runs an exec probe's command in the container of `run`. */
  exec(
    pod: Pod,
    run: RunRecord,
    plan: StartPlan | undefined,
    command: string[],
    timeoutMs: number,
  ): Promise<ProbeResult>;
  /**
   * What the running containers of `pods` use now (CPU time, memory), one
   * entry per pod with a running container the runtime can measure (CRI:
   * its container stats; host processes have no cgroup of their own to read,
   * so none).
   */
  stats(pods: PodState[]): Promise<PodUsage[]>;
  /** Removes what is left of the pod once none of its runs is alive (sandbox, state, directory). */
  removePod(state: PodState): Promise<void>;
  /**
   * After a clean stop of the node, with none of its runs alive: frees what the
   * runtime holds for the pod (CRI: the sandbox and its network) and keeps its
   * directory (volumes, logs) for the pod's next start.
   */
  release(state: PodState): Promise<void>;
  /** Stops talking to the runtime (containers keep running). */
  close(): void;
}
