/**
 * DELETE and DELETE-collection with kube-apiserver's finalizer semantics: an object
 * without finalizers is removed at once (Status Success); one with finalizers is
 * marked with `deletionTimestamp` and stays until the last finalizer is removed.
 * `propagationPolicy` becomes the garbage collector's `orphan` / `foregroundDeletion`
 * finalizers. Preconditions on uid and resourceVersion are honoured. Kinds with
 * a grace period (pods) are deleted gracefully (`graceful-delete.ts`).
 */

import type { KubeObject, Status } from "../../api/index.js";
import { ConflictError, ForbiddenError, rfc3339, STALE_OBJECT_MESSAGE } from "../../api/index.js";
import { sendJson } from "../http/respond.js";
import type { ResourceType } from "../resources/resource-type.js";
import { admit, type RequestContext } from "./context.js";
import {
  type DeleteOptions,
  type PropagationPolicy,
  propagationOf,
  readDeleteOptions,
} from "./delete-options.js";
import { selectorFilter } from "./filter.js";
import { type GracefulPlan, gracefulPlan } from "./graceful-delete.js";
import { parseListOptions } from "./list-options.js";

export const ORPHAN_FINALIZER = "orphan";
export const FOREGROUND_FINALIZER = "foregroundDeletion";

function checkPreconditions(t: ResourceType, obj: KubeObject, opts: DeleteOptions): void {
  // As kube's Preconditions.Check: a precondition that is set, even to "", must hold.
  const pre = opts.preconditions ?? {};
  const ref = { group: t.group, resource: t.plural, name: obj.metadata.name };
  if (pre.uid !== undefined && pre.uid !== obj.metadata.uid) {
    throw new ConflictError(
      ref,
      `Precondition failed: UID in precondition: ${pre.uid}, UID in object meta: ${obj.metadata.uid}`,
    );
  }
  if (pre.resourceVersion !== undefined && pre.resourceVersion !== obj.metadata.resourceVersion) {
    throw new ConflictError(
      ref,
      `Precondition failed: ResourceVersion in precondition: ${pre.resourceVersion}, ResourceVersion in object meta: ${obj.metadata.resourceVersion}`,
    );
  }
}

/** The finalizers after applying the propagation policy. */
function finalizersFor(obj: KubeObject, policy: PropagationPolicy | undefined): string[] {
  const current = obj.metadata.finalizers ?? [];
  if (!policy) return current;
  const rest = current.filter((f) => f !== ORPHAN_FINALIZER && f !== FOREGROUND_FINALIZER);
  if (policy === "Orphan") return [...rest, ORPHAN_FINALIZER];
  if (policy === "Foreground") return [...rest, FOREGROUND_FINALIZER];
  return rest;
}

export function successStatus(t: ResourceType, obj: KubeObject): Status {
  return {
    kind: "Status",
    apiVersion: "v1",
    metadata: {},
    status: "Success",
    details: { name: obj.metadata.name, group: t.group, kind: t.plural, uid: obj.metadata.uid },
    code: 200,
  };
}

/** What a DELETE that removed `obj` answers: the object for kinds that return it, else Success. */
function goneAnswer(t: ResourceType, obj: KubeObject): KubeObject | Status {
  return t.returnDeletedObject ? obj : successStatus(t, obj);
}

/**
 * Deletes one object; returns its marked state, or what `goneAnswer` says when it is gone.
 * `admitted`: the request was admitted as something else (an eviction), so the
 * DELETE is not admitted again (kube's eviction deletes with ValidateAllObjectFunc).
 */
export async function deleteObject(
  ctx: RequestContext,
  name: string,
  opts: DeleteOptions,
  admitted = false,
): Promise<KubeObject | Status> {
  const t = ctx.type;
  const store = ctx.server.store;
  // The options were checked: any dryRun value is All.
  const dryRun = (opts.dryRun ?? []).length > 0;
  for (let attempt = 0; ; attempt++) {
    const obj = await store.get(t, ctx.info.namespace, name);
    checkPreconditions(t, obj, opts);
    const refusal = t.undeletable?.(obj);
    if (refusal) throw new ForbiddenError({ group: t.group, resource: t.plural, name }, refusal);
    if (attempt === 0 && !admitted) await admit(ctx, "DELETE", undefined, obj, dryRun);
    const plan = gracefulPlan(t, obj, opts.gracePeriodSeconds);
    if (plan.kind === "pending") return obj;
    const finalizers = finalizersFor(
      obj,
      obj.metadata.deletionTimestamp ? undefined : propagationOf(opts),
    );
    const pending = t.pendingFinalizers?.(obj) ?? [];
    const revision = Number(obj.metadata.resourceVersion);
    try {
      if (plan.kind === "mark") return await markGraceful(ctx, obj, plan, finalizers, dryRun);
      if (finalizers.length === 0 && pending.length === 0) {
        if (dryRun) return goneAnswer(t, obj);
        return goneAnswer(t, await store.remove(t, obj, revision));
      }
      const marked: KubeObject = structuredClone(obj);
      t.prepareForDelete?.(marked);
      if (
        obj.metadata.deletionTimestamp &&
        finalizers.join() === (obj.metadata.finalizers ?? []).join()
      )
        return obj;
      marked.metadata = {
        ...marked.metadata,
        finalizers,
        deletionTimestamp: obj.metadata.deletionTimestamp ?? rfc3339(),
        deletionGracePeriodSeconds: 0,
        generation: (obj.metadata.generation ?? 1) + (obj.metadata.deletionTimestamp ? 0 : 1),
      };
      if (marked.metadata.finalizers?.length === 0) delete marked.metadata.finalizers;
      if (dryRun) return marked;
      return await store.update(t, marked, revision);
    } catch (e) {
      if (e instanceof ConflictError && e.message.endsWith(STALE_OBJECT_MESSAGE) && attempt < 5)
        continue;
      throw e;
    }
  }
}

/** Stores the graceful deletion fields; removes the object when grace is 0 and nothing holds it. */
async function markGraceful(
  ctx: RequestContext,
  obj: KubeObject,
  plan: Extract<GracefulPlan, { kind: "mark" }>,
  finalizers: string[],
  dryRun: boolean,
): Promise<KubeObject | Status> {
  const t = ctx.type;
  const marked: KubeObject = structuredClone(obj);
  t.prepareForDelete?.(marked);
  marked.metadata = {
    ...marked.metadata,
    finalizers,
    deletionTimestamp: plan.deletionTimestamp,
    deletionGracePeriodSeconds: plan.deletionGracePeriodSeconds,
    generation: (obj.metadata.generation ?? 1) + (obj.metadata.deletionTimestamp ? 0 : 1),
  };
  if (finalizers.length === 0) delete marked.metadata.finalizers;
  const held = finalizers.length > 0 || (t.pendingFinalizers?.(marked) ?? []).length > 0;
  if (dryRun)
    return plan.deletionGracePeriodSeconds === 0 && !held ? goneAnswer(t, marked) : marked;
  const store = ctx.server.store;
  const updated = await store.update(t, marked, Number(obj.metadata.resourceVersion));
  if (plan.deletionGracePeriodSeconds > 0 || held) return updated;
  return goneAnswer(t, await store.remove(t, updated, Number(updated.metadata.resourceVersion)));
}

export async function handleDelete(ctx: RequestContext): Promise<void> {
  const opts = await readDeleteOptions(ctx);
  const result = await deleteObject(ctx, ctx.info.name!, opts);
  sendJson(ctx.res, 200, result);
}

/**
 * ListOptions (kube's DeleteCollection decodes and validates them from the query:
 * `limit=abc` or `timeoutSeconds=NaN` is a 400), selectors, then DeleteOptions,
 * as kube-apiserver: a refusal comes before the list.
 */
export async function handleDeleteCollection(ctx: RequestContext): Promise<void> {
  parseListOptions(ctx.query, false);
  const filter = selectorFilter(ctx.type, ctx.query);
  const opts = await readDeleteOptions(ctx);
  const page = await ctx.server.store.list(ctx.type, { namespace: ctx.info.namespace, filter });
  const deleted: KubeObject[] = [];
  for (const obj of page.items) {
    const sub = { ...ctx, info: { ...ctx.info, namespace: obj.metadata.namespace } };
    try {
      const r = await deleteObject(sub, obj.metadata.name!, opts);
      deleted.push(r.kind === "Status" ? obj : (r as KubeObject));
    } catch (e) {
      if ((e as { code?: number }).code !== 404) throw e;
    }
  }
  sendJson(ctx.res, 200, {
    kind: ctx.type.listKind,
    apiVersion: ctx.type.group ? `${ctx.type.group}/${ctx.type.version}` : ctx.type.version,
    metadata: { resourceVersion: page.resourceVersion },
    items: deleted,
  });
}
