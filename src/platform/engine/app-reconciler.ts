/**
 * The one reconciler every app kind runs on. For a live app: add the uninstall
 * finalizer, render the children with the tenant context, record the planned
 * inventory (old ∪ new) in status, server-side apply each child under one field
 * manager with the application labels, prune what the render no longer holds
 * (a pruned child still being deleted stays in the inventory until it is gone),
 * then report `Released`, `WorkloadsReady` and `Ready`. For an app being
 * deleted: `preDelete` hook, delete the children (namespaces last) and wait for
 * them to be gone, `postDelete` hook, drop the finalizer. A hook that fails is
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
import { readContext } from "./context.js";
import type { EngineContext } from "./engine-context.js";
import { runHook } from "./hook-runner.js";
import {
  deletionWaves,
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
  type TenantContext,
} from "./module.js";
import { defaultScope, entryProblem } from "./ownership.js";
import { StepError } from "./step-error.js";

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

  constructor(
    private readonly module: AppModule,
    private readonly engine: EngineContext,
  ) {
    this.kind = module.definition.spec.application.kind;
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
    const children = this.render(app, scope, await this.context(app));
    const planned = children.map(entryOf);
    const old = readInventory(app.status?.inventory);
    // Write-ahead: remember every child before creating any.
    const union = unionEntries(old, planned);
    if (!sameEntries(union, old)) app = await this.writeStatus(app, { inventory: union });
    await this.applyAll(children);
    const pruning = await this.prune(app, scope, subtractEntries(old, planned));

    const report = this.module.status
      ? await this.module.status(app, this.engine.client)
      : { ready: true, reason: "WorkloadsReady", message: "all workloads are ready" };
    const generation = app.metadata.generation;
    const status: Record<string, unknown> = {
      inventory: [...planned, ...pruning],
      version: this.module.version,
      ...(generation !== undefined ? { observedGeneration: generation } : {}),
      conditions: installedConditions(app, {
        kind: this.kind,
        applied: children.length,
        pruning,
        report,
      }),
      ...(report.fields ?? {}),
    };
    // Unchanged status is not written: the write would wake this reconciler again.
    const current = (app.status ?? {}) as Record<string, unknown>;
    if (Object.entries(status).some(([k, v]) => JSON.stringify(current[k]) !== JSON.stringify(v)))
      await this.writeStatus(app, status);
    // The children's events wake this app (its readiness, a pruned child going,
    // a child changed or removed out of band); only undeclared kinds need a timer.
    const settled = report.ready && pruning.length === 0;
    return settled || allWatched(this.module, children) ? DONE : { requeueAfter: WAIT_MS * 4 };
  }

  /** The module's children, labelled, each checked to lie inside the app's scope. */
  private render(app: App, scope: ChildScope, context: TenantContext): KubeObject[] {
    let children: KubeObject[];
    try {
      children = this.module.render(app, context).map((c) => this.labelled(app, c));
    } catch (e) {
      throw new StepError("RenderFailed", `cannot render: ${errorText(e)}`, { cause: e });
    }
    for (const child of children) {
      const outside = entryProblem(scope, entryOf(child));
      if (outside)
        throw new StepError(
          "RenderFailed",
          `cannot render: ${describeEntry(entryOf(child))}: ${outside}`,
        );
    }
    return children;
  }

  private async applyAll(children: KubeObject[]): Promise<void> {
    for (const child of children) {
      try {
        await this.engine.client.apply(child, { fieldManager: FIELD_MANAGER, force: true });
      } catch (e) {
        const what = describeEntry(entryOf(child));
        throw new StepError("ApplyFailed", `cannot apply ${what}: ${errorText(e)}`, { cause: e });
      }
    }
  }

  /**
   * Deletes the stale children; answers those still present (a finalizer holds
   * them, they are terminating), which stay in the inventory until they are
   * gone so that an uninstall started meanwhile waits for them. Gone and
   * ignored entries are dropped.
   */
  private async prune(app: App, scope: ChildScope, stale: InventoryEntry[]) {
    const pruning: InventoryEntry[] = [];
    for (const e of stale)
      if ((await deleteChild(this.engine, app, this.kind, scope, e)) === "deleting")
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

  private async context(app: App): Promise<TenantContext> {
    const ns = app.metadata.namespace!;
    const appNamespace = await getOptional(this.engine.client, {
      apiVersion: "v1",
      kind: "Namespace",
      name: ns,
    });
    return {
      cluster: this.engine.cluster,
      namespace: await readContext(this.engine.client, ns),
      appNamespace,
    };
  }

  // ---- uninstall --------------------------------------------------------

  private async uninstall(app: App, signal: AbortSignal): Promise<Result> {
    if (!(app.metadata.finalizers ?? []).includes(UNINSTALL_FINALIZER)) return DONE;
    const pre = await runHook(this.engine, this.module.hooks, "preDelete", app, signal);
    if (!pre.done) return this.waiting(app, "PreDeleteWaiting", `waiting for ${pre.waitingFor}`);

    const scope = this.scope(app);
    let inventory = readInventory(app.status?.inventory);
    for (const wave of deletionWaves(inventory)) {
      const left: InventoryEntry[] = [];
      const ignored: InventoryEntry[] = [];
      for (const child of wave) {
        const result = await deleteChild(this.engine, app, this.kind, scope, child);
        if (result === "deleting") left.push(child);
        if (result === "ignored") ignored.push(child);
      }
      if (ignored.length > 0) {
        inventory = subtractEntries(inventory, ignored);
        app = await this.writeStatus(app, { inventory });
      }
      if (left.length > 0)
        return this.waiting(
          app,
          "DeletingChildren",
          `waiting for ${left.length} objects to be deleted: ${left.slice(0, 5).map(describeEntry).join(", ")}`,
          // Woken by each child's delete event.
          allWatched(this.module, left),
        );
    }

    const post = await runHook(this.engine, this.module.hooks, "postDelete", app, signal);
    if (!post.done) return this.waiting(app, "PostDeleteWaiting", `waiting for ${post.waitingFor}`);
    const residue = [...(pre.residue ?? []), ...(post.residue ?? [])];
    if (residue.length > 0)
      this.engine.events.event(
        app,
        "Warning",
        "CleanupResidue",
        `left behind: ${residue.join("; ")}`,
      );
    await this.setFinalizers(
      app,
      (app.metadata.finalizers ?? []).filter((f) => f !== UNINSTALL_FINALIZER),
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
    eventDriven = false,
  ): Promise<Result> {
    // Progress again: an earlier Stalled no longer holds.
    const conditions = setCondition(removeCondition(conditionsOf(app), "Stalled"), {
      type: "Ready",
      status: "False",
      reason,
      message,
    });
    if (!sameConditions(conditions, conditionsOf(app))) await this.writeStatus(app, { conditions });
    return eventDriven ? DONE : { requeueAfter: WAIT_MS };
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
