/**
 * The probes of one container run, on their own timers, with kube's
 * thresholds: the startup probe runs alone until it succeeds (`started`);
 * readiness starts failed (or as the pod's status last said, for an adopted
 * container) and flips after `successThreshold` successes or
 * `failureThreshold` failures; liveness starts healthy and, like a failed
 * startup probe, sets `killReason` after `failureThreshold` failures.
 * `onChange` is called whenever one of these changes.
 */
import type { Probe } from "../api/index.js";
import type { ProbeResult } from "./probes.js";

export type ProbeKind = "Startup" | "Readiness" | "Liveness";

export interface ProberOptions {
  startup?: Probe;
  readiness?: Probe;
  liveness?: Probe;
  run(probe: Probe, kind: ProbeKind): Promise<ProbeResult>;
  onChange(): void;
  /** A failing probe (for an `Unhealthy` event). */
  onFailure?(kind: ProbeKind, message: string): void;
  /** Readiness to start from (an adopted container keeps what its status said). */
  initialReady?: boolean;
}

export class ContainerProber {
  started: boolean;
  ready: boolean;
  /** Set when liveness or startup failed for good: the container must be restarted. */
  killReason?: string;
  private readonly timers = new Set<NodeJS.Timeout>();
  private stopped = false;

  constructor(private readonly opts: ProberOptions) {
    this.started = !opts.startup;
    this.ready = opts.readiness ? opts.initialReady === true : true;
  }

  start(): void {
    if (this.opts.startup) this.loop("Startup", this.opts.startup);
    else this.afterStartup();
  }

  stop(): void {
    this.stopped = true;
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
  }

  private afterStartup(): void {
    if (this.opts.readiness) this.loop("Readiness", this.opts.readiness);
    if (this.opts.liveness) this.loop("Liveness", this.opts.liveness);
  }

  private later(ms: number, fn: () => void): void {
    if (this.stopped) return;
    const t = setTimeout(() => {
      this.timers.delete(t);
      fn();
    }, ms);
    t.unref();
    this.timers.add(t);
  }

  private loop(kind: ProbeKind, probe: Probe): void {
    const period = (probe.periodSeconds ?? 10) * 1000;
    const successes = probe.successThreshold ?? 1;
    const failures = probe.failureThreshold ?? 3;
    let okRun = 0;
    let failRun = 0;
    const tick = async () => {
      if (this.stopped) return;
      const result = await this.opts
        .run(probe, kind)
        .catch((e: Error) => ({ ok: false, message: e.message }));
      if (this.stopped) return;
      if (result.ok) {
        okRun++;
        failRun = 0;
      } else {
        failRun++;
        okRun = 0;
        this.opts.onFailure?.(kind, result.message);
      }
      if (this.apply(kind, result, okRun >= successes, failRun >= failures)) return;
      this.later(period, () => void tick());
    };
    this.later((probe.initialDelaySeconds ?? 0) * 1000, () => void tick());
  }

  /** Applies one result; true when this probe's loop ends. */
  private apply(kind: ProbeKind, r: ProbeResult, succeeded: boolean, failed: boolean): boolean {
    if (kind === "Startup") {
      if (succeeded) {
        this.started = true;
        this.opts.onChange();
        this.afterStartup();
        return true;
      }
      if (failed) return this.kill(`Startup probe failed: ${r.message}`);
      return false;
    }
    if (kind === "Liveness")
      return failed ? this.kill(`Liveness probe failed: ${r.message}`) : false;
    const ready = succeeded ? true : failed ? false : this.ready;
    if (ready !== this.ready) {
      this.ready = ready;
      this.opts.onChange();
    }
    return false;
  }

  private kill(reason: string): boolean {
    this.killReason = reason;
    this.stop();
    this.opts.onChange();
    return true;
  }
}
