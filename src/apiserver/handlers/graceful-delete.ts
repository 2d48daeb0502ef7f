/**
 * Graceful deletion (kube's `rest.BeforeDelete` for kinds with a graceful
 * strategy, i.e. pods): a DELETE gives the object `deletionTimestamp = now +
 * grace` and `deletionGracePeriodSeconds = grace` and keeps it, even without
 * finalizers, until someone (the node agent, once the processes are stopped)
 * deletes it again with grace 0. A later DELETE may only shorten the period.
 * A grace of 0 falls through to the ordinary delete.
 */

import type { KubeObject } from "../../api/index.js";
import { rfc3339 } from "../../api/index.js";
import type { ResourceType } from "../resources/resource-type.js";

export type GracefulPlan =
  /** Not graceful (grace 0, or a kind without a grace period): delete as usual. */
  | { kind: "immediate" }
  /** Already pending with an equal or shorter period: answer with the object as it is. */
  | { kind: "pending" }
  /** Store the object with these deletion fields (then removed if grace is 0 and nothing holds it). */
  | { kind: "mark"; deletionTimestamp: string; deletionGracePeriodSeconds: number };

function timestampIn(seconds: number, from = Date.now()): string {
  return rfc3339(from + seconds * 1000);
}

export function gracefulPlan(
  t: ResourceType,
  obj: KubeObject,
  requested: number | undefined,
  now = Date.now(),
): GracefulPlan {
  if (!t.gracePeriod) return { kind: "immediate" };
  const meta = obj.metadata;
  if (meta.deletionTimestamp) {
    const current = meta.deletionGracePeriodSeconds;
    // Marked without a grace period (finalizers only): nothing graceful is pending.
    if (current === undefined || current === 0) return { kind: "immediate" };
    if (requested === undefined || requested >= current) return { kind: "pending" };
    const period = Math.max(requested, 0);
    const start = Date.parse(meta.deletionTimestamp) - current * 1000;
    return {
      kind: "mark",
      deletionTimestamp: timestampIn(period, start),
      deletionGracePeriodSeconds: period,
    };
  }
  const grace = t.gracePeriod(obj, requested);
  if (grace <= 0) return { kind: "immediate" };
  return {
    kind: "mark",
    deletionTimestamp: timestampIn(grace, now),
    deletionGracePeriodSeconds: grace,
  };
}

/** True while an object waits out its grace period (an update must not remove it). */
export function inGracePeriod(obj: KubeObject): boolean {
  return (obj.metadata.deletionGracePeriodSeconds ?? 0) > 0;
}
