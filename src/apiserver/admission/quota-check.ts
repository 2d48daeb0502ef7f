/**
 * kube's quota admission check (`CheckRequest`) as a pure function: which of a
 * namespace's quotas an object counts against, whether each would stay within
 * its `status.hard` once the object's usage (on update, its growth) is added to
 * `status.used`, and the new `used` of each. A refusal carries kube's message:
 * `exceeded quota: q, requested: pods=1, used: pods=2, limited: pods=2`,
 * `failed quota: q: must specify requests.cpu for: app`, or
 * `status unknown for quota: q, resources: pods` while the controller has not
 * yet measured the quota.
 */

import type { KubeObject } from "../../api/index.js";
import {
  addLists,
  type Evaluator,
  exceededNames,
  isZeroList,
  maskList,
  negativeNames,
  prettyPrint,
  quotaMatches,
  type ResourceList,
  type ResourceQuota,
  subtractLists,
} from "../../api/index.js";

export class QuotaRefusal extends Error {
  constructor(message: string) {
    super(message);
    this.name = "QuotaRefusal";
  }
}

export interface QuotaRequest {
  evaluator: Evaluator;
  operation: "CREATE" | "UPDATE";
  object: KubeObject;
  oldObject?: KubeObject;
  /** ms since the epoch, for pods being deleted. */
  now: number;
}

export interface QuotaCharge {
  quota: ResourceQuota;
  used: ResourceList;
}

/** The quotas whose `status.used` grows with this request, and by how much; throws QuotaRefusal. */
export function chargeQuotas(quotas: ResourceQuota[], req: QuotaRequest): QuotaCharge[] {
  const { evaluator: ev, object } = req;
  const counted: ResourceQuota[] = [];
  for (const q of quotas) {
    if (!quotaMatches(q, ev, object)) continue;
    const name = q.metadata.name ?? "";
    const tracked = ev.matchingResources(Object.keys(q.status?.hard ?? {}));
    const why = ev.constraints(tracked, object);
    if (why) throw new QuotaRefusal(`failed quota: ${name}: ${why}`);
    const used = q.status?.used ?? {};
    if (tracked.some((r) => used[r] === undefined))
      throw new QuotaRefusal(
        `status unknown for quota: ${name}, resources: ${[...tracked].sort().join(",")}`,
      );
    counted.push(q);
  }
  let delta = ev.usage(object, req.now);
  const negative = negativeNames(delta);
  if (negative.length > 0)
    throw new QuotaRefusal(`quota usage is negative for resource(s): ${negative.join(",")}`);
  if (req.operation === "UPDATE" && req.oldObject)
    delta = subtractLists(delta, ev.usage(req.oldObject, req.now), true);
  if (isZeroList(delta)) return [];
  const charges: QuotaCharge[] = [];
  for (const q of counted) {
    const hard = q.status?.hard ?? {};
    const used = q.status?.used ?? {};
    const requested = maskList(delta, Object.keys(hard));
    const next = addLists(used, requested);
    const exceeded = exceededNames(maskList(next, Object.keys(requested)), hard);
    if (exceeded.length > 0)
      throw new QuotaRefusal(
        `exceeded quota: ${q.metadata.name}, requested: ${prettyPrint(maskList(requested, exceeded))}, used: ${prettyPrint(maskList(used, exceeded))}, limited: ${prettyPrint(maskList(hard, exceeded))}`,
      );
    charges.push({ quota: q, used: next });
  }
  return charges;
}
