/**
 * The one reconciler every app kind runs on. For a live app: add the uninstall
 * finalizer, render the children with the tenant context, record the planned
 * inventory (old ∪ new) in status, server-side apply each child under one field
 * manager with the application labels, prune what the render no longer holds,
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
import { hasCode } from "../../api/errors.js";
import type { KubeObject } from "../../api/types.js";
import {
  type Client,
  type EventRecorder,
  errorText,
  getOptional,
  isStatus,
} from "../../client/index.js";
import {
  type Condition,
  DONE,
  type Reconciler,
  type Result,
  removeCondition,
  sameConditions,
  setCondition,
} from "../../runtime/index.js";
import { readContext } from "./context.js";
import {
  deletionWaves,
  describeEntry,
  entryOf,
  readInventory,
  sameEntries,
  subtractEntries,
  unionEntries,
} from "./inventory.js";
import { limitedClient } from "./limited-client.js";
import {
  APPS_API_VERSION,
  APPS_GROUP,
  type App,
  type AppModule,
  type ChildScope,
  type HookResult,
  type InventoryEntry,
  LABEL_APP_GROUP,
  LABEL_APP_KIND,
  LABEL_APP_NAME,
  LABEL_APP_UID,
  type TenantContext,
} from "./module.js";
import { defaultScope, entryProblem, ignoredMessage, liveProblem } from "./ownership.js";

export const FIELD_MANAGER = "hearth-apps";
export const UNINSTALL_FINALIZER = "apps.cozystack.io/uninstall";
/** Consecutive failures after which an app shows `Stalled`. */
export const STALL_AFTER = 5;
const WAIT_MS = 500;
const RESYNC_MS = 60_000;
const DEFAULT_HOOK_DEADLINE_MS = 60_000;

export interface EngineContext {
  client: Client;
  events: EventRecorder;
  /** `_cluster`: the platform's values, the same for every app. */
  cluster: Record<string, string>;
  /** Kinds of every served app. */
  appKinds(): string[];
}

/** What became of an inventory entry the engine was asked to delete. */
type Deletion = "gone" | "deleting" | "ignored";

class StepError extends Error {
  constructor(
    readonly reason: string,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

export class AppReconciler implements Reconciler {
  private readonly failures = new Map<string, number>();
  private readonly kind: string;

  constructor(
    private readonly module: AppModule,
    private readonly engine: EngineContext,
  ) {
    this.kind = module.definition.spec.application.kind;
  }

  async reconcile(signal: AbortSignal, key: string): Promise<Result> {
    const [namespace, name] = key.split("/") as [string, string];
    const app = await this.get(namespace, name);
    if (!app) {
      this.failures.delete(key);
      return DONE;
    }
    try {
      const result = app.metadata.deletionTimestamp
        ? await this.uninstall(app, signal)
        : await this.install(app);
      this.failures.delete(key);
      return result;
    } catch (err) {
      if (signal.aborted) throw err;
      await this.reportFailure(key, app, err);
      throw err;
    }
  }

  private async get(namespace: string, name: string): Promise<App | undefined> {
    const ref = { apiVersion: APPS_API_VERSION, kind: this.kind, name, namespace };
    return getOptional<App>(this.engine.client, ref);
  }

  // ---- install ----------------------------------------------------------

  private async install(app: App): Promise<Result> {
    const client = this.engine.client;
    if (!(app.metadata.finalizers ?? []).includes(UNINSTALL_FINALIZER))
      app = await this.setFinalizers(app, [
        ...(app.metadata.finalizers ?? []),
        UNINSTALL_FINALIZER,
      ]);
    const context = await this.context(app);
    let children: KubeObject[];
    try {
      children = this.module.render(app, context).map((c) => this.labelled(app, c));
    } catch (e) {
      throw new StepError("RenderFailed", `cannot render: ${errorText(e)}`, { cause: e });
    }
    const scope = this.scope(app);
    for (const child of children) {
      const outside = entryProblem(scope, entryOf(child));
      if (outside)
        throw new StepError(
          "RenderFailed",
          `cannot render: ${describeEntry(entryOf(child))}: ${outside}`,
        );
    }
    const planned = children.map(entryOf);
    const old = readInventory(app.status?.inventory);
    // Write-ahead: remember every child before creating any.
    const union = unionEntries(old, planned);
    if (!sameEntries(union, old)) app = await this.writeStatus(app, { inventory: union });

    for (const child of children) {
      try {
        await client.apply(child, { fieldManager: FIELD_MANAGER, force: true });
      } catch (e) {
        throw new StepError(
          "ApplyFailed",
          `cannot apply ${describeEntry(entryOf(child))}: ${errorText(e)}`,
          {
            cause: e,
          },
        );
      }
    }
    // Ignored entries need nothing more: the inventory written below is `planned`.
    for (const stale of subtractEntries(old, planned)) await this.deleteChild(app, scope, stale);

    const report = this.module.status
      ? await this.module.status(app, client)
      : { ready: true, reason: "WorkloadsReady", message: "all workloads are ready" };
    let conditions = conditionsOf(app);
    const generation = app.metadata.generation;
    const cond = (c: Omit<Condition, "lastTransitionTime" | "observedGeneration">) =>
      setCondition(conditions, {
        ...c,
        ...(generation !== undefined ? { observedGeneration: generation } : {}),
      });
    conditions = cond({
      type: "Released",
      status: "True",
      reason: "Applied",
      message: `${children.length} objects applied`,
    });
    conditions = cond({
      type: "WorkloadsReady",
      status: report.ready ? "True" : "False",
      reason: report.reason,
      message: report.message,
    });
    conditions = cond({
      type: "Ready",
      status: report.ready ? "True" : "False",
      reason: report.ready ? "Ready" : report.reason,
      message: report.ready ? `${this.kind} is ready` : report.message,
    });
    conditions = (conditions ?? []).filter((c) => c.type !== "Stalled");
    const status: Record<string, unknown> = {
      inventory: planned,
      version: this.module.version,
      ...(generation !== undefined ? { observedGeneration: generation } : {}),
      conditions,
      ...(report.fields ?? {}),
    };
    // Unchanged status is not written: the write would wake this reconciler again.
    const current = (app.status ?? {}) as Record<string, unknown>;
    if (Object.entries(status).some(([k, v]) => JSON.stringify(current[k]) !== JSON.stringify(v)))
      await this.writeStatus(app, status);
    return { requeueAfter: report.ready ? RESYNC_MS : WAIT_MS * 4 };
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
    const pre = await this.runHook(app, "preDelete", signal);
    if (!pre.done) return this.waiting(app, "PreDeleteWaiting", `waiting for ${pre.waitingFor}`);

    const scope = this.scope(app);
    let inventory = readInventory(app.status?.inventory);
    for (const wave of deletionWaves(inventory)) {
      const left: InventoryEntry[] = [];
      const ignored: InventoryEntry[] = [];
      for (const child of wave) {
        const result = await this.deleteChild(app, scope, child);
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
        );
    }

    const post = await this.runHook(app, "postDelete", signal);
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

  /**
   * Deletes a child the engine applied for this app, if it still exists. An
   * entry the engine cannot tell as its own (`ownership.ts`) is left alone and
   * reported with a Warning; the caller drops it from the inventory.
   */
  private async deleteChild(app: App, scope: ChildScope, e: InventoryEntry): Promise<Deletion> {
    const client = this.engine.client;
    const ignore = (problem: string): Deletion => {
      this.engine.events.event(app, "Warning", "InventoryEntryIgnored", ignoredMessage(e, problem));
      return "ignored";
    };
    const before = entryProblem(scope, e);
    if (before) return ignore(before);
    try {
      const obj = await client.get({
        apiVersion: e.apiVersion,
        kind: e.kind,
        name: e.name,
        namespace: e.namespace,
      });
      const problem = liveProblem(app, this.kind, scope, obj);
      if (problem) return ignore(problem);
      if (obj.metadata.deletionTimestamp) return "deleting";
      // The uid precondition: what is deleted is the object just checked, not a successor.
      const left = await client.delete(
        { apiVersion: e.apiVersion, kind: e.kind, name: e.name, namespace: e.namespace },
        {
          propagationPolicy: "Background",
          ...(obj.metadata.uid ? { preconditions: { uid: obj.metadata.uid } } : {}),
        },
      );
      // A Status means it was removed at once; an object means finalizers keep it.
      return isStatus(left) ? "gone" : "deleting";
    } catch (err) {
      // Gone, or its kind is no longer served (CRD removed): nothing of it is left.
      if (hasCode(err, 404)) return "gone";
      throw new StepError("DeleteFailed", `cannot delete ${describeEntry(e)}: ${errorText(err)}`, {
        cause: err,
      });
    }
  }

  private async runHook(
    app: App,
    which: "preDelete" | "postDelete",
    signal: AbortSignal,
  ): Promise<HookResult> {
    const hooks = this.module.hooks;
    const hook = hooks?.[which];
    if (!hooks || !hook) return { done: true };
    const deadline = hooks.deadlineMs ?? DEFAULT_HOOK_DEADLINE_MS;
    const reason = which === "preDelete" ? "PreDeleteHookFailed" : "PostDeleteHookFailed";
    // The deadline is a timer of its own (kept alive, cleared when the hook ends).
    const overdue = new AbortController();
    const timer = setTimeout(
      () => overdue.abort(new Error(`${which} hook did not finish within ${deadline} ms`)),
      deadline,
    );
    const hookSignal = AbortSignal.any([signal, overdue.signal]);
    try {
      return await Promise.race([
        hook({
          app,
          client: limitedClient(this.engine.client, hooks.permissions),
          signal: hookSignal,
          appKinds: this.engine.appKinds(),
        }),
        new Promise<never>((_, reject) =>
          hookSignal.addEventListener("abort", () => reject(hookSignal.reason), { once: true }),
        ),
      ]);
    } catch (e) {
      throw new StepError(reason, `${which} hook failed: ${errorText(e)}`, { cause: e });
    } finally {
      clearTimeout(timer);
    }
  }

  private async waiting(app: App, reason: string, message: string): Promise<Result> {
    // Progress again: an earlier Stalled no longer holds.
    const conditions = setCondition(removeCondition(conditionsOf(app), "Stalled"), {
      type: "Ready",
      status: "False",
      reason,
      message,
    });
    if (!sameConditions(conditions, conditionsOf(app))) await this.writeStatus(app, { conditions });
    return { requeueAfter: WAIT_MS };
  }

  // ---- status -----------------------------------------------------------

  private async reportFailure(key: string, app: App, err: unknown): Promise<void> {
    const count = (this.failures.get(key) ?? 0) + 1;
    this.failures.set(key, count);
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

/** The app's well-formed conditions (see `readInventory` for why a status may hold others). */
function conditionsOf(app: App): Condition[] {
  const conditions: unknown = app.status?.conditions;
  if (!Array.isArray(conditions)) return [];
  return conditions.filter(
    (c: unknown): c is Condition =>
      typeof c === "object" && c !== null && typeof (c as Condition).type === "string",
  );
}
