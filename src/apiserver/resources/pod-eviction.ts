/**
 * POST `/api/v1/namespaces/<ns>/pods/<name>/eviction`: a policy/v1 (or
 * v1beta1) Eviction deletes the pod if its PodDisruptionBudget allows it, as
 * kube's eviction REST does. A pod that costs no disruption (finished, Pending,
 * already being deleted) is deleted at once. Otherwise the one budget that
 * selects it must allow a disruption: the budget's status is written first
 * (one disruption spent, the pod in `disruptedPods`, on the resourceVersion the
 * decision read, retried on conflict), then the pod gets `DisruptionTarget`
 * and is deleted with the Eviction's deleteOptions. A refusal is 429
 * TooManyRequests with a DisruptionBudget cause; a pod under two budgets is the
 * 500 Status kube answers. A crash between the two writes leaves a disruption
 * spent on a pod still there: the disruption controller returns it after 2
 * minutes (`disruptedPods` timeout), as in kube.
 */

import {
  BadRequestError,
  budgetSelects,
  ConflictError,
  type Eviction,
  isObject,
  MethodNotAllowedError,
  type Pod,
  type PodDisruptionBudget,
  rfc3339,
  STALE_OBJECT_MESSAGE,
  TimeoutError,
} from "../../api/index.js";
import { admit, type RequestContext } from "../handlers/context.js";
import { deleteObject } from "../handlers/delete.js";
import { checkedDeleteOptions, type DeleteOptions } from "../handlers/delete-options.js";
import { checkWriteOptions } from "../handlers/request-options.js";
import { decodeBody, readBodyBytes } from "../http/body.js";
import { sendCreatedStatus, sendJson } from "../http/respond.js";
import {
  budgetNotObserved,
  canIgnoreBudget,
  mustPinResourceVersion,
  spendDisruption,
  unhealthyMayGo,
} from "./eviction-budget.js";

/** kube's EvictionsRetry: 20 steps. */
const ATTEMPTS = 20;
const VERSIONS = ["policy/v1", "policy/v1beta1"];

const isStale = (e: unknown) =>
  e instanceof ConflictError && e.message.endsWith(STALE_OBJECT_MESSAGE);

function checkEviction(ctx: RequestContext, body: unknown): Eviction {
  if (!isObject(body) || body.kind !== "Eviction" || !VERSIONS.includes(String(body.apiVersion)))
    throw new BadRequestError("expected policy/v1 Eviction in the request body");
  const eviction = body as Eviction;
  eviction.metadata = isObject(eviction.metadata) ? eviction.metadata : {};
  const name = eviction.metadata.name;
  if (name && name !== ctx.info.name)
    throw new BadRequestError("name in URL does not match name in Eviction object");
  return eviction;
}

/** The Eviction's deleteOptions with the request's dryRun folded in (kube's propagateDryRun). */
function deleteOptionsOf(ctx: RequestContext, eviction: Eviction): DeleteOptions {
  const opts = checkedDeleteOptions(eviction.deleteOptions ?? {});
  const dryRun = ctx.query.getAll("dryRun");
  if (dryRun.length > 0 && (opts.dryRun ?? []).length === 0) opts.dryRun = dryRun;
  return opts;
}

const isDry = (opts: DeleteOptions) => (opts.dryRun ?? []).length > 0;

function pinned(opts: DeleteOptions, resourceVersion: string | undefined): DeleteOptions {
  if (opts.preconditions?.resourceVersion !== undefined || resourceVersion === undefined)
    return opts;
  return { ...opts, preconditions: { ...opts.preconditions, resourceVersion } };
}

function budgetType(ctx: RequestContext) {
  const t = ctx.server.registry.lookup("policy", "v1", "poddisruptionbudgets");
  if (!t) throw new Error("policy/v1 poddisruptionbudgets is not served");
  return t;
}

/** kube's addConditionAndDeletePod: `DisruptionTarget` on the pod, then the delete. */
async function disruptAndDelete(ctx: RequestContext, opts: DeleteOptions): Promise<void> {
  let options = opts;
  if (!isDry(opts)) {
    const { store } = ctx.server;
    for (let attempt = 1; ; attempt++) {
      const pod = (await store.get(ctx.type, ctx.info.namespace, ctx.info.name!)) as Pod;
      const want = opts.preconditions;
      if (want?.uid && want.uid !== pod.metadata.uid) break; // the delete reports it
      if (want?.resourceVersion && want.resourceVersion !== pod.metadata.resourceVersion) break;
      const conditions = (pod.status?.conditions ?? []).filter(
        (c) => c.type !== "DisruptionTarget",
      );
      conditions.push({
        type: "DisruptionTarget",
        status: "True",
        lastTransitionTime: rfc3339(),
        reason: "EvictionByEvictionAPI",
        message: "Eviction API: evicting",
      });
      const next = { ...pod, status: { ...pod.status, conditions } };
      try {
        const updated = await store.update(ctx.type, next, Number(pod.metadata.resourceVersion));
        // The precondition held; this write moved the version on, so the delete follows it.
        if (want?.resourceVersion && updated.metadata.resourceVersion)
          options = {
            ...opts,
            preconditions: { ...want, resourceVersion: updated.metadata.resourceVersion },
          };
        break;
      } catch (e) {
        if (!isStale(e) || attempt >= ATTEMPTS) throw e;
      }
    }
  }
  await deleteObject(ctx, ctx.info.name!, options, true);
}

/** Spends a disruption of `pdb` on the pod (re-reading the budget on conflict); throws the refusal. */
async function spend(
  ctx: RequestContext,
  pdb: PodDisruptionBudget,
  dryRun: boolean,
): Promise<void> {
  const t = budgetType(ctx);
  let current = pdb;
  for (let attempt = 1; attempt <= ATTEMPTS; attempt++) {
    const next = spendDisruption(current, ctx.info.name!, Date.now(), dryRun);
    if (dryRun) return;
    try {
      await ctx.server.store.update(t, next, Number(current.metadata.resourceVersion));
      return;
    } catch (e) {
      if (!isStale(e)) throw e;
      current = (await ctx.server.store.get(
        t,
        current.metadata.namespace,
        current.metadata.name!,
      )) as PodDisruptionBudget;
    }
  }
  throw new TimeoutError(
    `couldn't update PodDisruptionBudget "${pdb.metadata.name}" due to conflicts`,
    10,
  );
}

/** Deletes the pod when it costs no disruption; else returns it, for a budget to be asked. */
async function deleteIfFree(ctx: RequestContext, opts: DeleteOptions): Promise<Pod | undefined> {
  for (let attempt = 1; ; attempt++) {
    const pod = (await ctx.server.store.get(ctx.type, ctx.info.namespace, ctx.info.name!)) as Pod;
    if (!canIgnoreBudget(pod)) return pod;
    try {
      await disruptAndDelete(
        ctx,
        mustPinResourceVersion(pod) ? pinned(opts, pod.metadata.resourceVersion) : opts,
      );
      return undefined;
    } catch (e) {
      // A caller's own resourceVersion precondition is never retried.
      if (
        !(e instanceof ConflictError) ||
        opts.preconditions?.resourceVersion ||
        attempt >= ATTEMPTS
      )
        throw e;
    }
  }
}

const success = (ctx: RequestContext) => sendCreatedStatus(ctx.res);

export async function handlePodEviction(ctx: RequestContext): Promise<void> {
  if (ctx.info.verb !== "create")
    throw new MethodNotAllowedError(
      "the server does not allow this method on the requested resource",
    );
  const bytes = await readBodyBytes(ctx.req);
  checkWriteOptions(ctx.query, "CreateOptions");
  const eviction = checkEviction(ctx, decodeBody(bytes, ctx.req.headers["content-type"]));
  eviction.metadata.namespace = ctx.info.namespace;
  const opts = deleteOptionsOf(ctx, eviction);
  await admit(ctx, "CREATE", eviction, undefined, isDry(opts));
  const pod = await deleteIfFree(ctx, opts);
  if (!pod) return success(ctx);
  const budgets = (
    await ctx.server.store.list(budgetType(ctx), { namespace: ctx.info.namespace })
  ).items.filter((b) => budgetSelects(b as PodDisruptionBudget, pod)) as PodDisruptionBudget[];
  if (budgets.length > 1) {
    sendJson(ctx.res, 500, {
      kind: "Status",
      apiVersion: "v1",
      metadata: {},
      status: "Failure",
      message:
        "This pod has more than one PodDisruptionBudget, which the eviction subresource does not support.",
      code: 500,
    });
    return;
  }
  const [pdb] = budgets;
  let deleteOpts = opts;
  if (pdb && unhealthyMayGo(pod, pdb)) {
    // Unready: costs nothing, but only as long as it stays unready (pinned to this version).
    deleteOpts = pinned(opts, pod.metadata.resourceVersion);
  } else if (pdb) await spend(ctx, pdb, isDry(opts));
  try {
    await disruptAndDelete(ctx, deleteOpts);
  } catch (e) {
    if (e instanceof ConflictError && deleteOpts !== opts && pdb)
      // It became ready meanwhile: let the client retry, as kube does.
      throw budgetNotObserved(pdb.metadata.name ?? "");
    throw e;
  }
  success(ctx);
}
