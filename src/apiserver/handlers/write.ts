/**
 * POST (create) and PUT (update) of objects and their status, and `persistUpdate`,
 * the one place an update is stored: it honours the revision precondition and
 * removes an object being deleted once its last finalizer is gone.
 */

import { isDeepStrictEqual } from "node:util";
import type { KubeObject } from "../../api/index.js";
import {
  ConflictError,
  InvalidError,
  MethodNotAllowedError,
  STALE_OBJECT_MESSAGE,
} from "../../api/index.js";
import { decodeBody, readBodyBytes } from "../http/body.js";
import { sendJson } from "../http/respond.js";
import { admitCreate, admitUpdate, checkEnvelope } from "./admit.js";
import { admit, type RequestContext, warningHeaders } from "./context.js";
import { inGracePeriod } from "./graceful-delete.js";
import { checkWriteOptions, isDryRun } from "./request-options.js";

/** kube-apiserver refuses new objects of a kind whose CRD is being deleted. */
export function checkKindAcceptsContent(ctx: RequestContext): void {
  if (ctx.type.terminating)
    throw new MethodNotAllowedError(
      "create not allowed while custom resource definition is terminating",
    );
}

export async function checkNamespaceAcceptsContent(
  ctx: RequestContext,
  namespace: string | undefined,
): Promise<void> {
  checkKindAcceptsContent(ctx);
  if (!ctx.type.namespaced || namespace === undefined) return;
  await ctx.server.namespaces.checkAcceptsContent(ctx.type, namespace);
}

/** Reads the body, checks the query options (kube does both before decoding), decodes. */
async function readWrite(ctx: RequestContext, kind: "CreateOptions" | "UpdateOptions") {
  const bytes = await readBodyBytes(ctx.req);
  checkWriteOptions(ctx.query, kind);
  return decodeBody(bytes, ctx.req.headers["content-type"]);
}

export async function handleCreate(ctx: RequestContext): Promise<void> {
  const body = await readWrite(ctx, "CreateOptions");
  if (ctx.type.virtualCreate) {
    const envelope = checkEnvelope(ctx, body);
    sendJson(ctx.res, 201, await ctx.type.virtualCreate(ctx, envelope), warningHeaders(ctx));
    return;
  }
  const obj = admitCreate(ctx, checkEnvelope(ctx, body));
  await checkNamespaceAcceptsContent(ctx, obj.metadata.namespace);
  await admit(ctx, "CREATE", obj, undefined);
  if (isDryRun(ctx)) {
    sendJson(ctx.res, 201, obj, warningHeaders(ctx));
    return;
  }
  const created = await storeNew(ctx, obj);
  sendJson(ctx.res, 201, created, warningHeaders(ctx));
}

/** Stores a new object, through the type's `storeCreate` (allocations) when it has one. */
export function storeNew(ctx: RequestContext, obj: KubeObject): Promise<KubeObject> {
  const store = (o: KubeObject) => ctx.server.store.create(ctx.type, o);
  return ctx.type.storeCreate ? ctx.type.storeCreate(ctx, obj, store) : store(obj);
}

export async function handleUpdate(ctx: RequestContext): Promise<void> {
  const t = ctx.type;
  const body = checkEnvelope(ctx, await readWrite(ctx, "UpdateOptions"));
  const old = await ctx.server.store.get(t, ctx.info.namespace, ctx.info.name!);
  const rv = body.metadata.resourceVersion;
  if (!rv && !t.strategicMergePatch) {
    throw new InvalidError({ group: t.group, kind: t.kind, name: ctx.info.name }, [
      {
        reason: "FieldValueInvalid",
        field: "metadata.resourceVersion",
        detail: "Invalid value: 0x0: must be specified for an update",
      },
    ]);
  }
  if (rv && rv !== old.metadata.resourceVersion) {
    throw new ConflictError(
      { group: t.group, resource: t.plural, name: ctx.info.name },
      STALE_OBJECT_MESSAGE,
    );
  }
  const next = admitUpdate(ctx, body, old);
  const stored = await persistUpdate(ctx, next, old);
  sendJson(ctx.res, 200, stored, warningHeaders(ctx));
}

/**
 * Stores `next` over `old` (at old's revision). An object that is being deleted and
 * has no finalizers left is removed instead; watchers then see DELETED. An update
 * that changes nothing but the times in managedFields (a repeated apply) is not
 * stored, as kube's storage skips a no-op write: the resourceVersion stays and no
 * watcher hears of it, so a controller that re-applies what it owns wakes no one.
 */
export async function persistUpdate(
  ctx: RequestContext,
  next: KubeObject,
  old: KubeObject,
): Promise<KubeObject> {
  const revision = Number(old.metadata.resourceVersion);
  await admit(ctx, "UPDATE", next, old);
  if (isDryRun(ctx)) return next;
  const held =
    (next.metadata.finalizers ?? []).length > 0 ||
    (ctx.type.pendingFinalizers?.(next) ?? []).length > 0;
  // An object waiting out its grace period (a pod being stopped) stays until deleted with grace 0.
  if (next.metadata.deletionTimestamp && !held && !inGracePeriod(next)) {
    const updated = await ctx.server.store.update(ctx.type, next, revision);
    return ctx.server.store.remove(ctx.type, updated, Number(updated.metadata.resourceVersion));
  }
  if (isDeepStrictEqual(withoutTimes(next), withoutTimes(old))) return old;
  return ctx.server.store.update(ctx.type, next, revision);
}

/** The object without what a no-op write would change: its revision and managedFields' times. */
function withoutTimes(obj: KubeObject): KubeObject {
  const { resourceVersion: _r, managedFields, ...metadata } = obj.metadata;
  const fields = managedFields?.map(({ time: _t, ...entry }) => entry);
  return { ...obj, metadata: { ...metadata, ...(fields ? { managedFields: fields } : {}) } };
}
