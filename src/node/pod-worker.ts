/**
 * One pod on this node: its state file, its container runs, probes and
 * waiting reasons. `sync` is level-based: given the pod, it starts what should
 * run (volumes, then init containers in order, then the containers), restarts
 * what exited per restartPolicy with crash-loop backoff, kills what failed its
 * liveness probe, and stops everything when the pod is being deleted. It
 * never waits for a process; `poll` notices exits (also of processes a
 * previous agent started) and the agent re-syncs the pod.
 */
import { rmSync } from "node:fs";
import type { Container, Pod, PodStatus } from "../api/pod.js";
import { DEFAULT_TERMINATION_GRACE_SECONDS } from "../api/pod.js";
import { goDuration } from "./backoff.js";
import { launch, observe, signalRun } from "./container-process.js";
import { planStart, podHostname, writeEtcFiles } from "./container-start.js";
import { sampleLog } from "./log-index.js";
import { type PodState, saveState, timestamp } from "./pod-state.js";
import type { ContainerView, PodView } from "./pod-status.js";
import { ContainerProber } from "./prober.js";
import { runProbe } from "./probes.js";
import { unsupportedFields } from "./unsupported.js";
import { type PreparedVolume, prepareVolumes, VolumeNotReady } from "./volumes.js";
import type { WorkerDeps } from "./worker-deps.js";

interface Waiting {
  reason: string;
  message?: string;
}

/** Retry delay for what only time can fix (a claim not bound yet, a missing secret). */
const RETRY_MS = 2_000;

export class PodWorker {
  readonly uid: string;
  readonly key: string;
  private readonly probers = new Map<string, ContainerProber>();
  private readonly waiting = new Map<string, Waiting>();
  /** Containers being stopped: kill deadline (ms since epoch). */
  private readonly stopping = new Map<string, { deadline: number; killed: boolean }>();
  private readonly reported = new Set<string>();
  /** Log file → its size at the last sample. */
  private readonly logSizes = new Map<string, number>();
  private blocked?: { reason: string; message: string };
  private terminal?: PodView["terminal"];
  private pod?: Pod;
  /** The status this agent last wrote, and the resourceVersion that write produced. */
  lastStatusWrite?: { resourceVersion: string; status: PodStatus };

  constructor(
    private readonly deps: WorkerDeps,
    readonly state: PodState,
  ) {
    this.uid = state.uid;
    this.key = `${state.namespace}/${state.name}`;
  }

  private save(): void {
    saveState(this.deps.dirs, this.state);
  }

  /** Emits an event once per worker for a given key (repeats are not news). */
  private once(key: string, type: "Normal" | "Warning", reason: string, message: string): void {
    if (this.reported.has(key) || !this.pod) return;
    this.reported.add(key);
    this.deps.event(this.pod, type, reason, message);
  }

  private specs(pod: Pod): { init: Container[]; main: Container[] } {
    return { init: pod.spec.initContainers ?? [], main: pod.spec.containers ?? [] };
  }

  /** Looks at every current run: learns pids, records exits. True when something changed. */
  poll(): boolean {
    let changed = false;
    for (const [name, rec] of Object.entries(this.state.containers)) {
      const run = rec.current;
      if (!run || run.exit) continue;
      const pid = run.pid;
      const seen = observe(
        run,
        this.deps.dirs.status(this.uid, name, run.attempt),
        this.deps.dirs.log(this.uid, name, run.attempt),
      );
      if (seen === "exited") {
        this.probers.get(name)?.stop();
        this.probers.delete(name);
        changed = true;
      } else if (run.pid !== pid) changed = true;
    }
    if (changed) this.save();
    return changed;
  }

  /** Why a container is not running, if it waits. */
  waitingReason(name: string): string | undefined {
    return this.waiting.get(name)?.reason;
  }

  /** Samples the size of every live run's log (for timestamps). */
  sampleLogs(): void {
    for (const [name, rec] of Object.entries(this.state.containers)) {
      const run = rec.current;
      if (!run || run.exit) continue;
      const file = this.deps.dirs.log(this.uid, name, run.attempt);
      this.logSizes.set(file, sampleLog(file, this.logSizes.get(file) ?? -1));
    }
  }

  /** True while some container run is alive. */
  get running(): boolean {
    return Object.values(this.state.containers).some((r) => r.current && !r.current.exit);
  }

  /** Signals every live run (SIGTERM, SIGKILL after `graceSeconds`); true once none is alive. */
  terminate(graceSeconds: number, why = "Stopping container"): boolean {
    this.poll();
    const now = Date.now();
    for (const [name, rec] of Object.entries(this.state.containers)) {
      const run = rec.current;
      if (!run || run.exit) continue;
      const deadline = now + graceSeconds * 1000;
      const st = this.stopping.get(name);
      if (!st) {
        this.stopping.set(name, { deadline, killed: graceSeconds <= 0 });
        this.probers.get(name)?.stop();
        signalRun(run, graceSeconds > 0 ? "SIGTERM" : "SIGKILL");
        this.once(`kill/${name}/${run.attempt}`, "Normal", "Killing", `${why} ${name}`);
      } else {
        st.deadline = Math.min(st.deadline, deadline);
        if (now >= st.deadline && !st.killed) {
          st.killed = true;
          signalRun(run, "SIGKILL");
        }
      }
    }
    this.poll();
    return !this.running;
  }

  /** Ms until the next kill deadline of a container being stopped. */
  nextDeadline(): number | undefined {
    const live = [...this.stopping.entries()].filter(([n]) => {
      const r = this.state.containers[n]?.current;
      return r && !r.exit;
    });
    if (live.length === 0) return undefined;
    return Math.max(
      50,
      Math.min(...live.map(([, s]) => (s.killed ? 500 : s.deadline - Date.now()))),
    );
  }

  /** Brings the processes in line with `pod`; returns ms until it wants another look. */
  async sync(pod: Pod): Promise<number | undefined> {
    this.pod = pod;
    this.poll();
    if (pod.metadata.deletionTimestamp) {
      const grace =
        pod.metadata.deletionGracePeriodSeconds ??
        pod.spec.terminationGracePeriodSeconds ??
        DEFAULT_TERMINATION_GRACE_SECONDS;
      this.terminate(grace);
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
    const phase = pod.status?.phase;
    if (!this.terminal && pod.spec.activeDeadlineSeconds !== undefined) {
      const left =
        Date.parse(this.state.startTime) + pod.spec.activeDeadlineSeconds * 1000 - Date.now();
      if (left <= 0) {
        this.terminal = {
          phase: "Failed",
          reason: "DeadlineExceeded",
          message: `Pod was active on the node longer than the specified deadline`,
        };
        this.once("deadline", "Normal", "DeadlineExceeded", this.terminal.message!);
      }
    }
    if (this.terminal || phase === "Succeeded" || phase === "Failed") {
      this.terminate(pod.spec.terminationGracePeriodSeconds ?? DEFAULT_TERMINATION_GRACE_SECONDS);
      return this.nextDeadline();
    }
    let volumes: Map<string, PreparedVolume>;
    try {
      volumes = await prepareVolumes({
        pod,
        dirs: this.deps.dirs,
        read: (k, n) =>
          this.deps.read(k, n, k === "PersistentVolume" ? undefined : pod.metadata.namespace),
        runtime: { podIP: this.state.podIP, hostIP: this.deps.hostIP },
        node: this.deps.node,
      });
      this.blocked = undefined;
    } catch (e) {
      if (!(e instanceof VolumeNotReady)) throw e;
      const reason = e.reason === "Unbound" ? "PersistentVolumeClaimNotBound" : "FailedMount";
      this.blocked = { reason, message: e.message };
      this.once(`mount/${e.message}`, "Warning", "FailedMount", e.message);
      return RETRY_MS;
    }
    const { init, main } = this.specs(pod);
    const policy = pod.spec.restartPolicy ?? "Always";
    for (const c of init) {
      const rec = this.state.containers[c.name];
      const run = rec?.current;
      if (run && !run.exit) return this.nextDeadline();
      if (run?.exit?.exitCode === 0) continue;
      if (run?.exit && policy === "Never") {
        this.terminal = { phase: "Failed" };
        return undefined;
      }
      return this.startOrWait(pod, c, volumes);
    }
    let next: number | undefined;
    const soonest = (ms: number | undefined) => {
      if (ms !== undefined) next = next === undefined ? ms : Math.min(next, ms);
    };
    for (const c of main) {
      const run = this.state.containers[c.name]?.current;
      if (run && !run.exit) {
        if (!this.probers.has(c.name) && !this.stopping.has(c.name))
          await this.adopt(pod, c, volumes);
        const kill = this.probers.get(c.name)?.killReason;
        if (kill && !this.stopping.has(c.name)) {
          this.once(
            `unhealthy/${c.name}/${run.attempt}`,
            "Normal",
            "Killing",
            `Container ${c.name} failed ${kill.split(" ")[0]!.toLowerCase()} probe, will be restarted`,
          );
          const grace = (kill.startsWith("Liveness") ? c.livenessProbe : c.startupProbe) as
            | { terminationGracePeriodSeconds?: number }
            | undefined;
          this.stopOne(
            c.name,
            grace?.terminationGracePeriodSeconds ??
              pod.spec.terminationGracePeriodSeconds ??
              DEFAULT_TERMINATION_GRACE_SECONDS,
          );
        }
        soonest(this.stopDeadline(c.name));
        continue;
      }
      this.stopping.delete(c.name);
      if (run?.exit) {
        const restart = policy === "Always" || (policy === "OnFailure" && run.exit.exitCode !== 0);
        if (!restart) {
          this.waiting.delete(c.name);
          continue;
        }
      }
      soonest(await this.startOrWait(pod, c, volumes));
    }
    return next;
  }

  /** A live run this worker did not start (a previous agent did): watch it with fresh probes. */
  private async adopt(pod: Pod, c: Container, volumes: Map<string, PreparedVolume>): Promise<void> {
    const decision = await planStart(
      c,
      this.deps.images,
      this.envContext(pod),
      volumes,
      writeEtcFiles(this.deps.dirs, pod, this.state.podIP),
    );
    const plan = decision.ok
      ? decision.plan
      : { env: new Map<string, string>(), mounts: [], workingDir: c.workingDir ?? "/" };
    this.watchProbes(pod, c, plan.env, plan.mounts, plan.workingDir, true);
  }

  private envContext(pod: Pod) {
    return {
      pod,
      podIP: this.state.podIP,
      hostIP: this.deps.hostIP,
      hostname: podHostname(pod),
      node: this.deps.node,
      read: (k: "ConfigMap" | "Secret", n: string) => this.deps.read(k, n, pod.metadata.namespace),
    };
  }

  private stopOne(name: string, graceSeconds: number): void {
    const run = this.state.containers[name]?.current;
    if (!run || run.exit) return;
    this.stopping.set(name, {
      deadline: Date.now() + graceSeconds * 1000,
      killed: graceSeconds <= 0,
    });
    signalRun(run, graceSeconds > 0 ? "SIGTERM" : "SIGKILL");
  }

  private stopDeadline(name: string): number | undefined {
    const st = this.stopping.get(name);
    if (!st) return undefined;
    if (!st.killed && Date.now() >= st.deadline) {
      st.killed = true;
      const run = this.state.containers[name]?.current;
      if (run) signalRun(run, "SIGKILL");
    }
    return st.killed ? 500 : Math.max(50, st.deadline - Date.now());
  }

  /** Starts `c` (again) unless it must wait out its backoff; returns ms until the next look. */
  private async startOrWait(
    pod: Pod,
    c: Container,
    volumes: Map<string, PreparedVolume>,
  ): Promise<number | undefined> {
    const rec = this.state.containers[c.name];
    const exit = rec?.current?.exit;
    if (exit) {
      const key = `${this.uid}/${c.name}`;
      const delay = this.deps.backoff.restartDelay(key, Date.parse(exit.finishedAt));
      if (delay > 0) {
        const armed = goDuration(this.deps.backoff.currentDelay(key));
        const message = `back-off ${armed} restarting failed container=${c.name} pod=${pod.metadata.name}_${pod.metadata.namespace}(${this.uid})`;
        this.waiting.set(c.name, { reason: "CrashLoopBackOff", message });
        this.once(
          `backoff/${c.name}/${rec!.current!.attempt}`,
          "Warning",
          "BackOff",
          "Back-off restarting failed container",
        );
        return delay;
      }
    }
    const decision = await planStart(
      c,
      this.deps.images,
      this.envContext(pod),
      volumes,
      writeEtcFiles(this.deps.dirs, pod, this.state.podIP),
    );
    if (!decision.ok) {
      this.waiting.set(c.name, { reason: decision.reason, message: decision.message });
      const what =
        decision.reason === "ErrImagePull"
          ? `Failed to pull image "${c.image}": ${decision.message}`
          : `Error: ${decision.message}`;
      this.once(`${decision.reason}/${c.name}/${decision.message}`, "Warning", "Failed", what);
      return decision.reason === "ErrImagePull" ? undefined : RETRY_MS;
    }
    this.waiting.delete(c.name);
    const plan = decision.plan;
    const previous = rec?.current;
    const attempt = previous ? previous.attempt + 1 : 0;
    const logFile = this.deps.dirs.log(this.uid, c.name, attempt);
    const statusFile = this.deps.dirs.status(this.uid, c.name, attempt);
    this.once(
      `pulled/${c.name}`,
      "Normal",
      "Pulled",
      `Container image "${c.image}" already present on machine`,
    );
    const launched = launch(
      {
        argv: plan.argv,
        env: plan.env,
        hostname: podHostname(pod),
        workingDir: plan.workingDir,
        mounts: plan.mounts,
        logFile,
        statusFile,
      },
      attempt,
      this.deps.layout,
      this.deps.bwrap,
    );
    this.state.containers[c.name] = {
      restartCount: previous ? (rec?.restartCount ?? 0) + 1 : 0,
      current: launched.run,
      ...(previous ? { previous } : {}),
    };
    this.save();
    launched.shim.once("exit", () => this.deps.enqueue(this.key));
    this.deps.event(pod, "Normal", "Created", `Created container ${c.name}`);
    this.deps.event(pod, "Normal", "Started", `Started container ${c.name}`);
    this.watchProbes(pod, c, plan.env, plan.mounts, plan.workingDir, false);
    return undefined;
  }

  /** Starts the probes of a live run (for an adopted run, readiness starts as the status said). */
  watchProbes(
    pod: Pod,
    c: Container,
    env: ReadonlyMap<string, string>,
    mounts: import("./sandbox.js").Mount[],
    workingDir: string,
    adopted: boolean,
  ): void {
    this.probers.get(c.name)?.stop();
    const initialReady =
      adopted && (pod.status?.containerStatuses ?? []).some((s) => s.name === c.name && s.ready);
    const prober = new ContainerProber({
      ...(c.startupProbe ? { startup: c.startupProbe } : {}),
      ...(c.readinessProbe ? { readiness: c.readinessProbe } : {}),
      ...(c.livenessProbe ? { liveness: c.livenessProbe } : {}),
      initialReady,
      run: (probe) =>
        runProbe(probe, {
          container: c,
          podIP: this.state.podIP,
          layout: this.deps.layout,
          bwrap: this.deps.bwrap,
          sandbox: { env, mounts, hostname: podHostname(pod), workingDir },
        }),
      onChange: () => this.deps.enqueue(this.key),
      onFailure: (kind, message) =>
        this.pod &&
        this.deps.event(this.pod, "Warning", "Unhealthy", `${kind} probe failed: ${message}`),
    });
    this.probers.set(c.name, prober);
    prober.start();
  }

  /** What the status computation needs about each container. */
  view(pod: Pod): PodView {
    const { init, main } = this.specs(pod);
    const pending = init.some((c) => this.state.containers[c.name]?.current?.exit?.exitCode !== 0);
    const one = (c: Container, isInit: boolean): ContainerView => {
      const record = this.state.containers[c.name];
      const running = !!record?.current && !record.current.exit;
      const prober = this.probers.get(c.name);
      const waiting =
        this.waiting.get(c.name) ??
        (!record && !isInit && pending ? { reason: "PodInitializing" } : undefined);
      return {
        name: c.name,
        image: c.image ?? "",
        imageID: `hearth://${c.image ?? ""}`,
        ...(record ? { record } : {}),
        running,
        ...(waiting && !running ? { waiting } : {}),
        ready: isInit
          ? !running && record?.current?.exit?.exitCode === 0
          : (prober?.ready ?? !c.readinessProbe),
        started: prober?.started ?? !c.startupProbe,
      };
    };
    return {
      pod,
      podIP: this.state.podIP,
      hostIP: this.deps.hostIP,
      startTime: this.state.startTime,
      init: init.map((c) => one(c, true)),
      containers: main.map((c) => one(c, false)),
      ...(this.blocked ? { blocked: this.blocked } : {}),
      ...(this.terminal ? { terminal: this.terminal } : {}),
      now: timestamp(),
    };
  }

  /** Stops the probes; processes keep running (agent shutdown with workloads kept). */
  close(): void {
    for (const p of this.probers.values()) p.stop();
    this.probers.clear();
  }

  /** Removes the pod's directory (after its processes are gone and its object too). */
  remove(): void {
    this.close();
    this.deps.backoff.forget(`${this.uid}/`);
    rmSync(this.deps.dirs.pod(this.uid), { recursive: true, force: true });
  }
}
