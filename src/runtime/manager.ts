/**
 * The Manager, one per process, as controller-runtime's: it owns the shared
 * cache, the controllers built on it (`controller(name)…complete(r)`) and other
 * long-running loops (`add`), and runs them all under one `start(signal)`.
 * The cache runs on every replica; controllers and runnables that need it run
 * only while this replica leads (with leader election configured). Losing
 * leadership stops the Manager, as controller-runtime's does: the process
 * restarts and campaigns afresh with empty queues.
 */
import { setMaxListeners } from "node:events";
import { hasCode } from "../api/index.js";
import type { Client, Reader } from "../client/index.js";
import { type BuilderHost, type BuiltController, ControllerBuilder } from "./builder.js";
import { Cache } from "./cache.js";
import { type Clock, realClock } from "./clock.js";
import { type LeaderElectionOptions, LeaderElector } from "./leader-election.js";
import { untilAborted } from "./lifecycle.js";
import { metricsRegistry } from "./metrics.js";
import type { ReconcileLoopOptions } from "./reconcile-loop.js";
import type { Request } from "./refs.js";
import { type BackoffOptions, DEFAULT_BACKOFF } from "./workqueue.js";

/** A loop that is not a controller: runs until its signal aborts. */
export interface Runnable {
  start(signal: AbortSignal): Promise<void>;
  /** Run only while leading (default true, as controller-runtime's). */
  needLeaderElection?: boolean;
}

export interface ManagerOptions {
  /** Told of failures (error level). */
  log?(msg: string, err?: unknown): void;
  /** Told of progress worth an info line (a root kind not served yet, then served); default: dropped. */
  info?(msg: string): void;
  /** Default deadline of one reconcile, ms (60 s). */
  reconcileDeadlineMs?: number;
  /** Default per-request back-off after a failed reconcile. */
  backoff?: BackoffOptions;
  /**
   * The time every controller's deadlines, back-off and requeueAfter, the
   * cache's informer retries, the discovery retry and (unless it names its
   * own) leader election run on; a FakeClock in tests. Default: the machine's.
   */
  clock?: Clock;
  /** Default workers per controller (1). */
  workers?: number;
  leaderElection?: LeaderElectionOptions;
  /** How long to wait before asking discovery again about a root kind it does not serve yet (2 s). */
  resolveRetryMs?: number;
  /**
   * A cache another Manager of this process owns and runs: this one reads and
   * watches through it (one WATCH per resource and selector for the whole
   * process) and neither starts nor stops it. The owner must be started first.
   */
  sharedCache?: Cache;
  /** Told about each failed reconcile (default: logged). */
  onReconcileError?(controller: string, req: Request, err: unknown, retry: boolean): void;
}

export const DEFAULT_RECONCILE_DEADLINE_MS = 60_000;
const RESOLVE_RETRY_MS = 2_000;

export class Manager implements BuilderHost {
  readonly cache: Cache;
  /** Reads that bypass the cache. */
  readonly apiReader: Reader;
  readonly metrics = metricsRegistry;
  readonly defaults: Omit<ReconcileLoopOptions, "name">;
  /** The Manager's time (see `ManagerOptions.clock`): controllers read `now()` from it. */
  readonly clock: Clock;
  private readonly controllers: BuiltController[] = [];
  private readonly runnables: Runnable[] = [];
  private readonly log: (msg: string, err?: unknown) => void;
  private readonly info: (msg: string) => void;
  private running = false;
  private leading = false;

  constructor(
    readonly client: Client,
    private readonly opts: ManagerOptions = {},
  ) {
    this.log = opts.log ?? (() => {});
    this.info = opts.info ?? (() => {});
    this.clock = opts.clock ?? realClock;
    this.cache =
      opts.sharedCache ??
      new Cache(client, { onError: (what, e) => this.log(what, e), clock: this.clock });
    this.apiReader = client;
    this.defaults = {
      workers: opts.workers ?? 1,
      deadlineMs: opts.reconcileDeadlineMs ?? DEFAULT_RECONCILE_DEADLINE_MS,
      backoff: opts.backoff ?? DEFAULT_BACKOFF,
      clock: this.clock,
      onError:
        opts.onReconcileError ??
        ((controller, req, err) =>
          this.log(`${controller} ${req.namespace ?? ""}/${req.name}: reconcile failed`, err)),
    };
  }

  controller(name: string): ControllerBuilder {
    if (this.controllers.some((c) => c.name === name)) {
      throw new Error(`cannot add controller "${name}": the Manager has one by that name`);
    }
    return new ControllerBuilder(this, name);
  }

  /** Called by `complete()`; controllers must be built before `start`. */
  register(controller: BuiltController): void {
    if (this.running)
      throw new Error(`cannot add controller "${controller.name}": the Manager runs`);
    this.controllers.push(controller);
  }

  add(runnable: Runnable): void {
    if (this.running) throw new Error("cannot add a runnable: the Manager runs");
    this.runnables.push(runnable);
  }

  /** Liveness: the Manager is running. */
  healthz(): boolean {
    return this.running;
  }

  /** Readiness: running, and every shared informer has listed once. */
  readyz(): boolean {
    return this.running && this.cache.hasSynced();
  }

  isLeader(): boolean {
    return this.leading;
  }

  /**
   * Runs everything until `signal` aborts and resolves once all of it has
   * stopped. Rejects (after stopping everything) if leadership is lost.
   */
  async start(signal: AbortSignal): Promise<void> {
    if (this.running) throw new Error("cannot start the Manager: it runs already");
    this.running = true;
    // Every informer, watch and worker listens on these signals.
    const stop = new AbortController();
    setMaxListeners(0, signal, stop.signal);
    const onAbort = () => stop.abort(signal.reason);
    if (signal.aborted) onAbort();
    signal.addEventListener("abort", onAbort, { once: true });
    let lost = false;
    try {
      // The cache first: runnables and controllers may read it from their first line.
      const cached = this.opts.sharedCache ? undefined : this.cache.start(stop.signal);
      const everywhere = this.runnables.filter((r) => r.needLeaderElection === false);
      const leaderOnly = this.runnables.filter((r) => r.needLeaderElection !== false);
      const lead = (leading: AbortSignal) => this.lead(leading, leaderOnly);
      const elected = this.opts.leaderElection
        ? new LeaderElector(this.client, {
            clock: this.clock,
            ...this.opts.leaderElection,
          }).run(stop.signal, async (s) => {
            setMaxListeners(0, s);
            // Resolves when the term ends (see `lead`): a loss unless the Manager stops.
            await lead(s);
            if (!stop.signal.aborted) {
              lost = true;
              stop.abort(new Error("leader election lost"));
            }
          })
        : lead(stop.signal);
      await Promise.all([cached, ...everywhere.map((r) => r.start(stop.signal)), elected]);
    } finally {
      signal.removeEventListener("abort", onAbort);
      this.running = false;
    }
    if (lost) throw new Error("the Manager stopped: leader election lost");
  }

  private async lead(leading: AbortSignal, runnables: Runnable[]): Promise<void> {
    this.leading = true;
    try {
      await Promise.all([
        ...this.controllers.map((c) => this.runController(c, leading)),
        ...runnables.map((r) => r.start(leading)),
      ]);
      // Leader work that ended on its own (nothing needs leading) has lost nothing:
      // this replica keeps its lease, and leads, until the term ends.
      if (this.opts.leaderElection) await untilAborted(leading);
    } finally {
      this.leading = false;
    }
  }

  /** Connects a controller's sources once its root kind is served, waits for them to sync, then works. */
  private async runController(c: BuiltController, signal: AbortSignal): Promise<void> {
    let namespaced = true;
    let waiting = false;
    while (c.forType && !signal.aborted) {
      const { apiVersion, kind } = c.forType;
      try {
        namespaced = (await this.client.mapper.resolve(apiVersion, kind)).namespaced;
        if (waiting) this.info(`controller ${c.name}: ${kind} is served now; starting`);
        break;
      } catch (e) {
        // A kind not served yet (its CRD is on its way) is expected at start: said once, at info.
        if (!hasCode(e, 404)) this.log(`controller ${c.name}: cannot resolve ${kind}`, e);
        else if (!waiting)
          this.info(`controller ${c.name}: waiting for ${apiVersion} ${kind} to be served`);
        waiting ||= hasCode(e, 404);
        await this.clock.sleep(this.opts.resolveRetryMs ?? RESOLVE_RETRY_MS, signal);
      }
    }
    if (signal.aborted) return;
    const sources = c.attach(namespaced);
    for (const s of sources) if (!(await s.informer.waitForSync(signal))) return;
    const queue = { add: (req: Request) => c.loop.enqueue(req) };
    const raw = c.rawSources.map((run) =>
      run(queue, signal).catch((e) => this.log(`controller ${c.name}: a source failed`, e)),
    );
    await Promise.all([c.loop.run(signal), ...raw]);
  }
}

/**
 * Runs what `register` puts on a new Manager of its own until `signal` aborts:
 * a controller (or several) run alone, as a test or a tool runs them, with the
 * same lifecycle as on a shared Manager. Resolves once all of it has stopped.
 */
export function runOnOwnManager(
  client: Client,
  signal: AbortSignal,
  register: (manager: Manager) => void,
  opts: ManagerOptions = {},
): Promise<void> {
  const manager = new Manager(client, opts);
  register(manager);
  return manager.start(signal);
}
