/**
 * One pod on this node: its state (as the runtime reports it), its container
 * runs, probes and waiting reasons. `sync` is level-based: given the pod, it sets up the
 * volumes, runs the init containers in order and then the containers,
 * restarts what exited per restartPolicy with crash-loop backoff, stops what
 * failed its liveness or startup probe, and stops everything when the pod is
 * being deleted or is over. It never waits for a process: `poll` notices exits
 * (of runs it started and of runs a previous agent started) and the agent
 * syncs the pod again. What touches the machine goes through the pod runtime
 * (pod-runtime.ts).
 */
import {
  type Container,
  DEFAULT_TERMINATION_GRACE_SECONDS,
  type Pod,
  type PodStatus,
} from "../api/index.js";
import { ContainerStarter, RETRY_MS, type Volumes } from "./container-starter.js";
import type { PodState } from "./pod-state.js";
import type { PodView } from "./pod-status.js";
import { podView } from "./pod-view.js";
import { RunStopper } from "./run-stopper.js";
import { unsupportedFields } from "./unsupported.js";
import { prepareVolumes, VolumeNotReady } from "./volumes.js";
import type { WorkerDeps } from "./worker-deps.js";

export class PodWorker {
  readonly uid: string;
  readonly key: string;
  private readonly starter: ContainerStarter;
  private readonly reported = new Set<string>();
  private readonly stopper: RunStopper;
  private blocked?: PodView["blocked"];
  private terminal?: PodView["terminal"];
  private pod?: Pod;
  /** Why the pod is being stopped, for the `Killing` events. */
  private stopReason = "Stopping container";
  /** The status this agent last wrote, and the resourceVersion that write produced. */
  lastStatusWrite?: { resourceVersion: string; status: PodStatus };

  constructor(
    private readonly deps: WorkerDeps,
    readonly state: PodState,
  ) {
    this.uid = state.uid;
    this.key = `${state.namespace}/${state.name}`;
    this.starter = new ContainerStarter(deps, state, (...a) => this.once(...a));
    this.stopper = new RunStopper(state, deps.runtime, (name, run) => {
      this.starter.dropProber(name);
      this.once(`kill/${name}/${run.attempt}`, "Normal", "Killing", `${this.stopReason} ${name}`);
    });
  }

  /** Emits an event once per worker for a given key (repeats are not news). */
  private once(key: string, type: "Normal" | "Warning", reason: string, message: string): void {
    if (this.reported.has(key) || !this.pod) return;
    this.reported.add(key);
    this.deps.event(this.pod, type, reason, message);
  }

  /**
   * Looks at every current run as the runtime last reported it (see its
   * `refresh`): records exits. True when something changed.
   */
  poll(): boolean {
    let changed = false;
    for (const [name, rec] of Object.entries(this.state.containers)) {
      const run = rec.current;
      if (!run || run.exit) continue;
      if (this.deps.runtime.observe(run) === "exited") {
        this.starter.dropProber(name);
        changed = true;
      }
    }
    return changed;
  }

  waitingReason(name: string): string | undefined {
    return this.starter.waiting.get(name)?.reason;
  }

  /** True while some container run is alive. */
  get running(): boolean {
    return Object.values(this.state.containers).some((r) => r.current && !r.current.exit);
  }

  /** Stops every run (SIGTERM, SIGKILL after `graceSeconds`); true once none is alive. */
  terminate(graceSeconds: number, why = "Stopping container"): boolean {
    this.stopReason = why;
    this.poll();
    this.stopper.terminateAll(graceSeconds);
    this.poll();
    return !this.running;
  }

  /** Ms until a run being stopped needs another look. */
  nextDeadline(): number | undefined {
    return this.stopper.next();
  }

  private grace(pod: Pod): number {
    return pod.spec.terminationGracePeriodSeconds ?? DEFAULT_TERMINATION_GRACE_SECONDS;
  }

  /** Brings the processes in line with `pod`; returns ms until it wants another look. */
  async sync(pod: Pod): Promise<number | undefined> {
    this.pod = pod;
    await this.deps.runtime.refresh();
    this.poll();
    if (pod.metadata.deletionTimestamp) {
      this.terminate(pod.metadata.deletionGracePeriodSeconds ?? this.grace(pod));
      return this.nextDeadline();
    }
    const fields = unsupportedFields(pod);
    if (fields.length)
      this.once(
        "unsupported",
        "Warning",
        "Unsupported",
        `not supported on this node and ignored: ${fields.join("; ")}`,
      );
    this.checkDeadline(pod);
    if (this.terminal || pod.status?.phase === "Succeeded" || pod.status?.phase === "Failed") {
      this.terminate(this.grace(pod));
      return this.nextDeadline();
    }
    const next = await this.syncRuns(pod);
    // Nothing else may sync the pod again when its deadline passes: look again then.
    const left = this.deadlineLeft(pod);
    return left === undefined || (next !== undefined && next < left) ? next : Math.max(left, 10);
  }

  /** Volumes, then the init containers in order, then the containers. */
  private async syncRuns(pod: Pod): Promise<number | undefined> {
    const volumes = await this.volumes(pod);
    if (!volumes) return RETRY_MS;
    const policy = pod.spec.restartPolicy ?? "Always";
    for (const c of pod.spec.initContainers ?? []) {
      const run = this.state.containers[c.name]?.current;
      if (run && !run.exit) return undefined;
      if (run?.exit?.exitCode === 0) continue;
      if (run?.exit && policy === "Never") {
        this.terminal = { phase: "Failed" };
        return undefined;
      }
      return this.starter.startOrWait(pod, c, volumes);
    }
    let next: number | undefined;
    for (const c of pod.spec.containers ?? []) {
      const ms = await this.syncContainer(pod, c, volumes, policy);
      if (ms !== undefined) next = next === undefined ? ms : Math.min(next, ms);
    }
    return next;
  }

  /** Ms until `activeDeadlineSeconds` is past (undefined without one). */
  private deadlineLeft(pod: Pod): number | undefined {
    const limit = pod.spec.activeDeadlineSeconds;
    if (limit === undefined) return undefined;
    return Math.max(0, Date.parse(this.state.startTime) + limit * 1000 - Date.now());
  }

  /** `activeDeadlineSeconds` past the pod's start: the pod fails. */
  private checkDeadline(pod: Pod): void {
    const left = this.deadlineLeft(pod);
    if (this.terminal || left === undefined || left > 0) return;
    const message = "Pod was active on the node longer than the specified deadline";
    this.terminal = { phase: "Failed", reason: "DeadlineExceeded", message };
    this.once("deadline", "Normal", "DeadlineExceeded", message);
  }

  private async volumes(pod: Pod): Promise<Volumes | undefined> {
    try {
      const volumes = await prepareVolumes({
        pod,
        dirs: this.deps.dirs,
        read: (k, n) =>
          this.deps.read(k, n, k === "PersistentVolume" ? undefined : pod.metadata.namespace),
        runtime: { podIP: this.state.podIP, hostIP: this.deps.hostIP },
        node: this.deps.node,
      });
      this.blocked = undefined;
      return volumes;
    } catch (e) {
      if (!(e instanceof VolumeNotReady)) throw e;
      const reason = e.reason === "Unbound" ? "PersistentVolumeClaimNotBound" : "FailedMount";
      this.blocked = { reason, message: e.message };
      this.once(`mount/${e.message}`, "Warning", "FailedMount", e.message);
      return undefined;
    }
  }

  /** One regular container: watch it if it runs, else (re)start it when its policy says so. */
  private async syncContainer(
    pod: Pod,
    c: Container,
    volumes: Volumes,
    policy: string,
  ): Promise<number | undefined> {
    const run = this.state.containers[c.name]?.current;
    if (run && !run.exit) {
      if (!this.starter.probers.has(c.name) && !this.stopper.isStopping(c.name))
        this.starter.adopt(pod, c);
      const kill = this.starter.probers.get(c.name)?.killReason;
      if (kill && !this.stopper.isStopping(c.name)) {
        const probe = kill.startsWith("Liveness") ? c.livenessProbe : c.startupProbe;
        const which = kill.startsWith("Liveness") ? "liveness" : "startup";
        this.stopReason = `Container ${c.name} failed ${which} probe, will be restarted; stopping`;
        this.once(
          `unhealthy/${c.name}/${run.attempt}`,
          "Normal",
          "Killing",
          `Container ${c.name} failed ${which} probe, will be restarted`,
        );
        const probeGrace = (probe as { terminationGracePeriodSeconds?: number } | undefined)
          ?.terminationGracePeriodSeconds;
        this.stopper.stop(c.name, probeGrace ?? this.grace(pod));
      }
      return this.stopper.deadline(c.name);
    }
    if (run?.exit) {
      const restart = policy === "Always" || (policy === "OnFailure" && run.exit.exitCode !== 0);
      if (!restart) {
        this.starter.waiting.delete(c.name);
        return undefined;
      }
    }
    return this.starter.startOrWait(pod, c, volumes);
  }

  /** What the status computation needs about each container. */
  view(pod: Pod): PodView {
    return podView(pod, {
      state: this.state,
      hostIP: this.deps.hostIP,
      probers: this.starter.probers,
      waiting: this.starter.waiting,
      ...(this.blocked ? { blocked: this.blocked } : {}),
      ...(this.terminal ? { terminal: this.terminal } : {}),
    });
  }

  /** Stops the probes; processes keep running (agent shutdown with workloads kept). */
  close(): void {
    this.starter.close();
  }

  /** Removes what is left of the pod (after its runs are gone and its object too). */
  async remove(): Promise<void> {
    this.close();
    this.deps.backoff.forget(`${this.uid}/`);
    await this.deps.runtime.removePod(this.state);
  }
}
