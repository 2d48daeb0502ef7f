/**
 * Starting one pod's containers and watching them: the crash-loop backoff
 * before a restart, the start itself (or the reason it cannot happen yet:
 * ErrImagePull, CreateContainerConfigError…), and each live run's probes,
 * also for runs adopted from a previous agent. Owns the containers' waiting
 * reasons and probers, which the pod's status is computed from.
 */
import type { Container, Pod } from "../api/index.js";
import { goDuration } from "./backoff.js";
import { planStart, podHostname, startRun, writeEtcFiles } from "./container-start.js";
import type { EnvContext } from "./env.js";
import { startProber } from "./pod-probes.js";
import type { PodState } from "./pod-state.js";
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

  private plan(pod: Pod, c: Container, volumes: Volumes) {
    const etc = writeEtcFiles(this.deps.dirs, pod, this.state.podIP);
    return planStart(c, this.deps.images, this.envContext(pod), volumes, etc);
  }

  /** A live run this agent did not start: watch it with fresh probes. */
  async adopt(pod: Pod, c: Container, volumes: Volumes): Promise<void> {
    const decision = await this.plan(pod, c, volumes);
    const sandbox = decision.ok
      ? decision.plan
      : { env: new Map<string, string>(), mounts: [], workingDir: c.workingDir ?? "/" };
    this.probers.set(c.name, startProber(this.deps, pod, c, this.state.podIP, sandbox, true));
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
      const pull = decision.reason === "ErrImagePull";
      const what = pull
        ? `Failed to pull image "${c.image}": ${decision.message}`
        : `Error: ${decision.message}`;
      this.once(`${decision.reason}/${c.name}/${decision.message}`, "Warning", "Failed", what);
      return pull ? undefined : RETRY_MS;
    }
    this.waiting.delete(c.name);
    const pulled = `Container image "${c.image}" already present on machine`;
    this.once(`pulled/${c.name}`, "Normal", "Pulled", pulled);
    const shim = startRun(this.deps, this.state, pod, c, decision.plan);
    shim.once("exit", () => this.deps.enqueue(`${pod.metadata.namespace}/${pod.metadata.name}`));
    this.deps.event(pod, "Normal", "Created", `Created container ${c.name}`);
    this.deps.event(pod, "Normal", "Started", `Started container ${c.name}`);
    const prober = startProber(this.deps, pod, c, this.state.podIP, decision.plan, false);
    this.probers.set(c.name, prober);
    return undefined;
  }
}
