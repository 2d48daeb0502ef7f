/**
 * Stopping container runs the kubelet's way: SIGTERM to the container's
 * process group, SIGKILL once its grace period is over (at once for a grace
 * of 0); a later, shorter grace period moves the deadline closer. Level-based:
 * `terminateAll` and `deadline` are called on every sync and act only when due.
 */
import type { PodRuntime } from "./pod-runtime.js";
import type { PodState, RunRecord } from "./pod-state.js";

interface Stopping {
  /** The run being stopped: a later run of the container is not. */
  attempt: number;
  /** When SIGKILL is due, ms since the epoch. */
  deadline: number;
  killed: boolean;
}

export class RunStopper {
  private readonly stopping = new Map<string, Stopping>();

  constructor(
    private readonly state: PodState,
    private readonly runtime: Pick<PodRuntime, "signal">,
    /** Called when a run is first signalled (for a `Killing` event). */
    private readonly onStop: (name: string, run: RunRecord) => void,
  ) {}

  private live(name: string): RunRecord | undefined {
    const run = this.state.containers[name]?.current;
    return run && !run.exit ? run : undefined;
  }

  /** The stop in progress for the container's live run (a stop of an earlier run is forgotten). */
  private current(name: string): { run: RunRecord; st: Stopping | undefined } | undefined {
    const run = this.live(name);
    const st = this.stopping.get(name);
    if (st && st.attempt !== run?.attempt) this.stopping.delete(name);
    return run ? { run, st: this.stopping.get(name) } : undefined;
  }

  isStopping(name: string): boolean {
    return this.current(name)?.st !== undefined;
  }

  /** Starts stopping one run (a failed liveness probe); a shorter grace moves the deadline closer. */
  stop(name: string, graceSeconds: number): void {
    const now = this.current(name);
    if (!now) return;
    const { run, st } = now;
    const deadline = Date.now() + graceSeconds * 1000;
    if (st) {
      st.deadline = Math.min(st.deadline, deadline);
    } else {
      this.stopping.set(name, { attempt: run.attempt, deadline, killed: graceSeconds <= 0 });
      this.runtime.signal(run, graceSeconds > 0 ? "SIGTERM" : "SIGKILL", graceSeconds);
      this.onStop(name, run);
    }
    this.deadline(name);
  }

  /** Kills a run whose grace is over; ms until it should be looked at again (undefined: not stopping). */
  deadline(name: string): number | undefined {
    const now = this.current(name);
    const st = now?.st;
    if (!now || !st) {
      this.stopping.delete(name);
      return undefined;
    }
    const { run } = now;
    if (!st.killed && Date.now() >= st.deadline) {
      st.killed = true;
      this.runtime.signal(run, "SIGKILL", 0);
    }
    return st.killed ? 500 : Math.max(50, st.deadline - Date.now());
  }

  /** Stops every live run; true once none is left. */
  terminateAll(graceSeconds: number): boolean {
    for (const name of Object.keys(this.state.containers)) this.stop(name, graceSeconds);
    return Object.keys(this.state.containers).every((n) => !this.live(n));
  }

  /** The soonest look any run being stopped needs, ms. */
  next(): number | undefined {
    let soonest: number | undefined;
    for (const name of [...this.stopping.keys()]) {
      const ms = this.deadline(name);
      if (ms !== undefined) soonest = soonest === undefined ? ms : Math.min(soonest, ms);
    }
    return soonest;
  }
}
