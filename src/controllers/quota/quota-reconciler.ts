/**
 * The ResourceQuota reconciler, as kube-controller-manager's resourcequota
 * controller syncs one quota: `status.hard` becomes `spec.hard`, and
 * `status.used` is measured afresh from the namespace's objects of every kind
 * the quota counts (in the quota's scopes; `api/quota-usage.ts` says what each
 * object costs). Names nothing measures keep their last value. The quota is read
 * first and written at that revision, so a charge admission made meanwhile is
 * never overwritten: the write conflicts and the quota is measured again. A pod that
 * is being deleted stops counting when its grace period ends; the quota is
 * looked at again then.
 */

import type { Pod } from "../../api/index.js";
import {
  addLists,
  canonicalList,
  evaluatorFor,
  hasCode,
  listsEqual,
  maskList,
  podChargeEnds,
  type ResourceList,
  type ResourceQuota,
  resourcesTracked,
  scopeSelectors,
} from "../../api/index.js";
import { type Client, getOptional } from "../../client/index.js";
import {
  DONE,
  type Request,
  type ReconcileResult as Result,
  type TypedReconciler,
} from "../../runtime/index.js";
import type { CountedKinds } from "./counted-kinds.js";

/** Measured usage, and when (ms) a deleting pod in it stops counting. */
interface Measured {
  used: ResourceList;
  nextChange?: number;
}

export class QuotaReconciler implements TypedReconciler {
  constructor(
    private readonly client: Client,
    private readonly kinds: CountedKinds,
  ) {}

  async reconcile(req: Request): Promise<Result> {
    const { name } = req;
    const namespace = req.namespace ?? "";
    const quota = await getOptional<ResourceQuota>(this.client, {
      apiVersion: "v1",
      kind: "ResourceQuota",
      name,
      namespace,
    });
    if (!quota) return DONE;
    const hard = canonicalList(quota.spec?.hard ?? {});
    const names = Object.keys(hard);
    const measured = await this.measure(quota, namespace, names);
    const used = { ...maskList(quota.status?.used ?? {}, names), ...measured.used };
    const status = quota.status ?? {};
    if (!listsEqual(status.hard ?? {}, hard) || !listsEqual(status.used ?? {}, used)) {
      try {
        await this.client.updateStatus({ ...quota, status: { hard, used } });
      } catch (e) {
        // Admission charged the quota meanwhile: measure again from the new state.
        if (hasCode(e, 409)) return { requeueAfter: 0 };
        throw e;
      }
    }
    return measured.nextChange === undefined
      ? DONE
      : { requeueAfter: Math.max(measured.nextChange - Date.now(), 0) + 1 };
  }

  /** The usage of the quota's names, summed over the namespace's objects in scope. */
  private async measure(
    quota: ResourceQuota,
    namespace: string,
    names: string[],
  ): Promise<Measured> {
    const now = Date.now();
    const scopes = scopeSelectors(quota);
    const out: Measured = { used: {} };
    for (const gr of resourcesTracked(names)) {
      const kind = await this.kinds.resolve(gr);
      if (!kind) continue;
      const ev = evaluatorFor(gr);
      const matched = ev.matchingResources(names);
      const isPods = gr.group === "" && gr.resource === "pods";
      const items = (
        await this.client.list({ apiVersion: kind.apiVersion, kind: kind.kind }, { namespace })
      ).items;
      let sum: ResourceList = Object.fromEntries(matched.map((n) => [n, "0"]));
      for (const obj of items) {
        if (!scopes.every((s) => ev.matchesScope(s, obj))) continue;
        sum = addLists(sum, ev.usage(obj, now));
        const ends = isPods ? podChargeEnds(obj as Pod) : undefined;
        if (ends !== undefined && ends >= now)
          out.nextChange = Math.min(out.nextChange ?? ends, ends);
      }
      Object.assign(out.used, maskList(sum, matched));
    }
    return out;
  }
}
