/**
 * The one reconciler every app kind runs on. For a live app: add the uninstall
 * finalizer, check the spec against the module's shape, observe, render the
 * children with the tenant context, record the planned inventory (old ∪ new)
 * in status, server-side apply each child under one field manager with the
 * application labels, wave after wave (`install-waves.ts`), prune what the
 * render no longer holds (a pruned child still being deleted stays in the
 * inventory until it is gone), then report `Released`, `WorkloadsReady` and
 * `Ready`. For an app being deleted: run the teardown waves (`teardown.ts`:
 * `preDelete`, the module's waves, the children, namespaces last, `postDelete`,
 * progress in `status.teardown`), then drop the finalizer. A step that fails is
 * retried with backoff and surfaced as a condition and a Warning Event; the
 * children are never deleted before `preDelete` succeeded. Repeated failures set
 * `Stalled` with the last error (Cozystack #4155: no silent retry loop).
 *
 * The inventory is read from status, which others may write: the engine prunes
 * or deletes an entry only when the live object is inside the app's scope and
 * carries the labels the engine applied it with (`ownership.ts`); any other
 * entry is left alone, reported with a Warning Event and dropped.
 */
import type { KubeObject } from "../../api/index.js";
import { errorText, getOptional } from "../../client/index.js";
import {
  DONE,
  type ReconcileContext,
  type Request,
  type Result,
  removeCondition,
  sameConditions,
  setCondition,
  type TypedReconciler,
} from "../../runtime/index.js";
import { conditionsOf, installedConditions } from "./app-status.js";
import { deleteChild } from "./child-deletion.js";
import { allWatched } from "./child-kinds.js";
import type { EngineContext } from "./engine-context.js";
import { PassReader, tenantContext } from "./engine-reads.js";
import { applyInWaves, placed } from "./install-waves.js";
import {
  describeEntry,
  entryOf,
  readInventory,
  sameEntries,
  subtractEntries,
  unionEntries,
} from "./inventory.js";
import {
  APPS_API_VERSION,
  APPS_GROUP,
  type App,
  type AppModule,
  type ChildScope,
  type InventoryEntry,
  LABEL_APP_GROUP,
  LABEL_APP_KIND,
  LABEL_APP_NAME,
  LABEL_APP_UID,
  type PlacedChild,
  type TenantContext,
} from "./module.js";
import { defaultScope, entryProblem } from "./ownership.js";
import { shapeProblem, specProblem } from "./spec-shape.js";
import { StepError } from "./step-error.js";
import { runTeardown } from "./teardown.js";
import { type PlannedWave, teardownPlan } from "./teardown-plan.js";
import { readWorkloads } from "./workloads-ready.js";

export type { EngineContext } from "./engine-context.js";
export const FIELD_MANAGER = "hearth-apps";
export const UNINSTALL_FINALIZER = "apps.cozystack.io/uninstall";
/** Consecutive failures after which an app shows `Stalled`. */
export const STALL_AFTER = 5;
/**
 * How soon to ask a waiting hook again (hooks are not event-driven), and to
 * look again at a child of a kind the module does not declare (no event tells of it).
 */
const WAIT_MS = 500;

export class AppReconciler implements TypedReconciler {
  private readonly kind: string;
  private readonly plan: PlannedWave[];

  /** Throws when the module's spec shape and its definition's schema differ. */
  constructor(
    private readonly module: AppModule,
    private readonly engine: EngineContext,
  ) {
    this.kind = module.definition.spec.application.kind;
    const problem = module.spec && shapeProblem(module.definition, module.spec);
    if (problem) throw new Error(problem);
    this.plan = teardownPlan(module);
  }

  /**
   * The app is read live, not from the cache: its resourceVersion guards every
   * write below, and a stale copy without its deletionTimestamp would re-apply
   * the children of an app being deleted.
   */
  async reconcile(req: Request, { signal, retries }: ReconcileContext): Promise<Result> {
    const app = await this.get(req.namespace!, req.name);
    if (!app) return DONE;
    try {
      return app.metadata.deletionTimestamp
        ? await this.uninstall(app, signal)
        : await this.install(app);
    } catch (err) {
      if (signal.aborted) throw err;
      // The runtime counts the failures in a row and backs off; this one is the next.
      await this.reportFailure(app, err, retries + 1);
      throw err;
    }
  }

  private async get(namespace: string, name: string): Promise<App | undefined> {
    const ref = { apiVersion: APPS_API_VERSION, kind: this.kind, name, namespace };
    return getOptional<App>(this.engine.client, ref);
  }

  // ---- install ----------------------------------------------------------

  private async install(app: App): Promise<Result> {
    if (!(app.metadata.finalizers ?? []).includes(UNINSTALL_FINALIZER))
      app = await this.setFinalizers(app, [
        ...(app.metadata.finalizers ?? []),
        UNINSTALL_FINALIZER,
      ]);
    const scope = this.scope(app);
    const bad = this.module.spec && specProblem(this.module.spec, app.spec);
    if (bad) throw new StepError("InvalidSpec", `cannot render: ${bad}`);
    // Every read of this pass but the app's own goes through the cache (`engine-reads.ts`).
    const reads = this.reads(app);
    const observed = await this.observe(app, reads);
    const context = await tenantContext(this.engine, app);
    const placedChildren = this.render(app, scope, context, observed);
    const children = placedChildren.map((c) => c.object);
    const planned = children.map(entryOf);
    const old = readInventory(app.status?.inventory);
    // Write-ahead: remember every child before creating any.
    const union = unionEntries(old, planned);
    if (!sameEntries(union, old)) app = await this.writeStatus(app, { inventory: union });
    const waves = await applyInWaves(
      placedChildren,
      (child) => this.applyOne(child, reads),
      async (wave) =>
        this.module.waveReady ? this.module.waveReady(app, wave, reads) : { done: true },
    );
    const pruning = await this.prune(app, scope, subtractEntries(old, planned), reads);

    const report = waves.waiting
      ? {
          ready: false,
          reason: "InstallWaveWaiting",
          message: `waiting for install wave ${waves.waiting.wave}: ${waves.waiting.waitingFor}`,
        }
      : this.module.status
        ? await this.module.status(app, reads)
        : { ready: true, reason: "WorkloadsReady", message: "all workloads are ready" };
    // The app's WorkloadMonitors, if it renders any, say how its workloads are.
    const workloads = await readWorkloads(reads, app, children);
    const generation = app.metadata.generation;
    const status: Record<string, unknown> = {
      inventory: [...planned, ...pruning],
      version: this.module.version,
      ...(generation !== undefined ? { observedGeneration: generation } : {}),
      conditions: installedConditions(app, {
        kind: this.kind,
        applied: waves.applied,
        pruning,
        report,
        ...(workloads ? { workloads } : {}),
      }),
      ...(report.fields ?? {}),
    };
    // Unchanged status is not written: the write would wake this reconciler again.
    const current = (app.status ?? {}) as Record<string, unknown>;
    if (Object.entries(status).some(([k, v]) => JSON.stringify(current[k]) !== JSON.stringify(v)))
      await this.writeStatus(app, status);
    // The children's events wake this app (its readiness, a monitor's report,
    // a pruned child going, a child changed or removed out of band); only
    // children of undeclared kinds need a timer.
    const settled =
      report.ready && pruning.length === 0 && (workloads?.status ?? "True") === "True";
    return settled || allWatched(this.module, children) ? DONE : { requeueAfter: WAIT_MS * 4 };
  }

  /** This pass's reader of the app's children: the cache, what the pass wrote, live on a miss. */
  private reads(app: App): PassReader {
    const { client, cache } = this.engine;
    const inventory = readInventory(app.status?.inventory);
    return new PassReader(client, cache, this.module.childKinds ?? [], inventory);
  }

  /** What the module reads of live state before render. */
  private async observe(app: App, reads: PassReader): Promise<unknown> {
    if (!this.module.observe) return undefined;
    try {
      return await this.module.observe(app, reads);
    } catch (e) {
      throw new StepError("ObserveFailed", `cannot observe: ${errorText(e)}`, { cause: e });
    }
  }

  /** The module's children, labelled, each checked to lie inside the app's scope. */
  private render(
    app: App,
    scope: ChildScope,
    context: TenantContext,
    observed: unknown,
  ): PlacedChild[] {
    let children: PlacedChild[];
    try {
      children = this.module
        .render(app, context, observed)
        .map(placed)
        .map((c) => ({ ...c, object: this.labelled(app, c.object) }));
    } catch (e) {
      throw new StepError("RenderFailed", `cannot render: ${errorText(e)}`, { cause: e });
    }
    for (const { object } of children) {
      const outside = entryProblem(scope, entryOf(object));
      if (outside)
        throw new StepError(
          "RenderFailed",
          `cannot render: ${describeEntry(entryOf(object))}: ${outside}`,
        );
    }
    return children;
  }

  private async applyOne(child: KubeObject, reads: PassReader): Promise<void> {
    try {
      reads.wrote(
        await this.engine.client.apply(child, { fieldManager: FIELD_MANAGER, force: true }),
      );
    } catch (e) {
      const what = describeEntry(entryOf(child));
      throw new StepError("ApplyFailed", `cannot apply ${what}: ${errorText(e)}`, { cause: e });
    }
  }

  /**
   * Deletes the stale children; answers those still present (a finalizer holds
   * them, they are terminating), which stay in the inventory until they are
   * gone so that an uninstall started meanwhile waits for them. Gone and
   * ignored entries are dropped.
   */
  private async prune(app: App, scope: ChildScope, stale: InventoryEntry[], reads: PassReader) {
    const pruning: InventoryEntry[] = [];
    for (const e of stale)
      if ((await deleteChild(this.engine, reads, app, this.kind, scope, e)) === "deleting")
        pruning.push(e);
    return pruning;
  }

  private labelled(app: App, child: KubeObject): KubeObject {
    const namespaced = child.kind !== "Namespace" && child.metadata.namespace !== "";
    return {
      ...child,
      metadata: {
        ...child.metadata,
        ...(namespaced && !child.metadata.namespace ? { namespace: app.metadata.namespace } : {}),
        labels: {
          ...child.metadata.labels,
          [LABEL_APP_KIND]: this.kind,
          [LABEL_APP_GROUP]: APPS_GROUP,
          [LABEL_APP_NAME]: app.metadata.name!,
          ...(app.metadata.uid ? { [LABEL_APP_UID]: app.metadata.uid } : {}),
        },
      },
    };
  }

  // ---- uninstall --------------------------------------------------------

  private async uninstall(app: App, signal: AbortSignal): Promise<Result> {
    if (!(app.metadata.finalizers ?? []).includes(UNINSTALL_FINALIZER)) return DONE;
    const outcome = await runTeardown(
      {
        engine: this.engine,
        kind: this.kind,
        scope: this.scope(app),
        plan: this.plan,
        reads: this.reads(app),
        signal,
        writeStatus: (a, status) => this.writeStatus(a, status),
      },
      app,
    );
    if (!outcome.done) {
      // Waiting only for children of watched kinds to go: their delete events
      // wake the app, and the wave's deadline is the one timer. Hooks and
      // waits of the module's own are asked again soon.
      const eventDriven =
        outcome.children !== undefined && allWatched(this.module, outcome.children);
      return this.waiting(
        outcome.app,
        outcome.reason,
        outcome.message,
        eventDriven ? Math.max(outcome.deadlineInMs, 1) : WAIT_MS,
      );
    }
    await this.setFinalizers(
      outcome.app,
      (outcome.app.metadata.finalizers ?? []).filter((f) => f !== UNINSTALL_FINALIZER),
    );
    return DONE;
  }

  /** A merge patch of the finalizers, guarded by the app's resourceVersion. */
  private setFinalizers(app: App, finalizers: string[]): Promise<App> {
    return this.engine.client.patch<App>(
      {
        apiVersion: APPS_API_VERSION,
        kind: this.kind,
        name: app.metadata.name!,
        namespace: app.metadata.namespace,
      },
      { metadata: { resourceVersion: app.metadata.resourceVersion, finalizers } },
      { type: "merge" },
    );
  }

  private scope(app: App): ChildScope {
    return this.module.scope ? this.module.scope(app) : defaultScope(app);
  }

  private async waiting(
    app: App,
    reason: string,
    message: string,
    requeueAfter = WAIT_MS,
  ): Promise<Result> {
    // Progress again: an earlier Stalled no longer holds.
    const conditions = setCondition(removeCondition(conditionsOf(app), "Stalled"), {
      type: "Ready",
      status: "False",
      reason,
      message,
    });
    if (!sameConditions(conditions, conditionsOf(app))) await this.writeStatus(app, { conditions });
    return { requeueAfter };
  }

  // ---- status -----------------------------------------------------------

  private async reportFailure(app: App, err: unknown, count: number): Promise<void> {
    const reason = err instanceof StepError ? err.reason : "ReconcileFailed";
    const message = errorText(err);
    this.engine.events.event(app, "Warning", reason, message);
    let conditions = setCondition(conditionsOf(app), {
      type: "Ready",
      status: "False",
      reason,
      message,
    });
    if (count >= STALL_AFTER)
      conditions = setCondition(conditions, {
        type: "Stalled",
        status: "True",
        reason,
        message: `${count} attempts in a row failed; last error: ${message}`,
      });
    try {
      const fresh = (await this.get(app.metadata.namespace!, app.metadata.name!)) ?? app;
      await this.writeStatus(fresh, { conditions });
    } catch {
      // The status is best effort here; the error itself is retried.
    }
  }

  private async writeStatus(app: App, status: Record<string, unknown>): Promise<App> {
    return this.engine.client.patchStatus<App>(
      {
        apiVersion: APPS_API_VERSION,
        kind: this.kind,
        name: app.metadata.name!,
        namespace: app.metadata.namespace,
      },
      { metadata: { resourceVersion: app.metadata.resourceVersion }, status },
      { type: "merge" },
    );
  }
}
