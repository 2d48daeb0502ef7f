/**
 * Starting one pod's containers and watching them: the crash-loop backoff
 * before a restart, the start itself through the pod runtime (or the reason
 * it cannot happen yet: ErrImagePull, CreateContainerConfigError…), and each
 * live run's probes, also for runs adopted from a previous agent. Owns the
 * containers' waiting reasons and probers, which the pod's status is
 * computed from.
 */
import type { Container, Pod } from "../api/index.js";
import { goDuration } from "./backoff.js";
import { podHostname, recordRun, writeEtcFiles } from "./container-start.js";
import type { EnvContext } from "./env.js";
import { startProber } from "./pod-probes.js";
import type { StartDecision } from "./pod-runtime.js";
import type { PodState, RunRecord } from "./pod-state.js";
import type { Waiting } from "./pod-view.js";
import type { ContainerProber } from "./prober.js";
import type { PreparedVolume } from "./volumes.js";
import type { WorkerDeps } from "./worker-deps.js";

/** Retry delay for what only time can fix (a claim not bound yet, a missing secret). */
export const RETRY_MS = 2_000;

export type Volumes = Map<string, PreparedVolume>;
type Once = (key: string, type: "Normal" | "Warning", reason: string, message: string) => void;

export class ContainerStarter {
  readonly probers = new Map<string, ContainerProber>();
  readonly waiting = new Map<string, Waiting>();

  constructor(
    private readonly deps: WorkerDeps,
    private readonly state: PodState,
    private readonly once: Once,
  ) {}

  dropProber(name: string): void {
    this.probers.get(name)?.stop();
    this.probers.delete(name);
  }

  close(): void {
    for (const name of [...this.probers.keys()]) this.dropProber(name);
  }

  private envContext(pod: Pod): Omit<EnvContext, "imageEnv"> {
    return {
      pod,
      podIP: this.state.podIP,
      hostIP: this.deps.hostIP,
      hostname: podHostname(pod),
      node: this.deps.node,
      read: (k, n) => this.deps.read(k, n, pod.metadata.namespace),
      services: () => this.deps.services(pod.metadata.namespace!),
    };
  }

  private plan(pod: Pod, c: Container, volumes: Volumes): Promise<StartDecision> {
    const etcMounts = writeEtcFiles(this.deps.dirs, pod, this.state.podIP, this.deps.clusterDomain);
    return this.deps.runtime.plan({
      pod,
      container: c,
      env: this.envContext(pod),
      volumes,
      etcMounts,
      event: this.once,
    });
  }

  private prober(pod: Pod, c: Container, run: RunRecord, adopted: boolean) {
    const exec = (command: string[], timeoutMs: number) =>
      this.deps.runtime.exec(run, command, timeoutMs);
    this.probers.set(c.name, startProber(this.deps, pod, c, this.state.podIP, exec, adopted));
  }

  /** A live run this agent did not start: watch it with fresh probes. */
  adopt(pod: Pod, c: Container): void {
    const run = this.state.containers[c.name]?.current;
    if (run) this.prober(pod, c, run, true);
  }

  /** Starts `c` (again) unless it must wait out its backoff; returns ms until the next look. */
  async startOrWait(pod: Pod, c: Container, volumes: Volumes): Promise<number | undefined> {
    const current = this.state.containers[c.name]?.current;
    if (current?.exit) {
      const key = `${this.state.uid}/${c.name}`;
      const delay = this.deps.backoff.restartDelay(key, Date.parse(current.exit.finishedAt));
      if (delay > 0) {
        const armed = goDuration(this.deps.backoff.currentDelay(key));
        this.waiting.set(c.name, {
          reason: "CrashLoopBackOff",
          message: `back-off ${armed} restarting failed container=${c.name} pod=${pod.metadata.name}_${pod.metadata.namespace}(${this.state.uid})`,
        });
        const event = "Back-off restarting failed container";
        this.once(`backoff/${c.name}/${current.attempt}`, "Warning", "BackOff", event);
        return delay;
      }
    }
    const decision = await this.plan(pod, c, volumes);
    if (!decision.ok) {
      this.waiting.set(c.name, { reason: decision.reason, message: decision.message });
      const image = decision.reason === "ErrImagePull" || decision.reason === "ImagePullBackOff";
      const what = image
        ? `Failed to pull image "${c.image}": ${decision.message}`
        : `Error: ${decision.message}`;
      if (decision.reason !== "ImagePullBackOff")
        this.once(`${decision.reason}/${c.name}/${decision.message}`, "Warning", "Failed", what);
      return decision.retryMs ?? (image ? undefined : RETRY_MS);
    }
    this.waiting.delete(c.name);
    const key = `${pod.metadata.namespace}/${pod.metadata.name}`;
    const run = recordRun(this.state, c);
    await this.deps.runtime.start(this.state, pod, c, decision.plan, run);
    if (run.exit) {
      // The runtime could not start it: the exit is recorded; the pod's next sync restarts it per policy.
      this.once(
        `start/${c.name}/${run.attempt}`,
        "Warning",
        "Failed",
        `Error: ${run.exit.message ?? run.exit.reason}`,
      );
      this.deps.enqueue(key);
      return undefined;
    }
    this.deps.event(pod, "Normal", "Created", `Created container ${c.name}`);
    this.deps.event(pod, "Normal", "Started", `Started container ${c.name}`);
    this.prober(pod, c, run, false);
    return undefined;
  }
}
