/**
 * Condition helpers for status (`metav1.Condition`): set one by type, keeping
 * `lastTransitionTime` when its status does not change, and read one back. Every
 * controller reports `Ready` (and friends) this way, with a reason and a message
 * a person can act on, and the generation it observed.
 */
import { rfc3339 } from "../api/index.js";

export type ConditionStatus = "True" | "False" | "Unknown";

export interface Condition {
  type: string;
  status: ConditionStatus;
  reason: string;
  message: string;
  lastTransitionTime?: string;
  observedGeneration?: number;
}

/** A copy of `conditions` with `next` in place of the condition of its type. */
export function setCondition(
  conditions: readonly Condition[] | undefined,
  next: Omit<Condition, "lastTransitionTime">,
  now: Date = new Date(),
): Condition[] {
  const list = [...(conditions ?? [])];
  const i = list.findIndex((c) => c.type === next.type);
  const old = i >= 0 ? list[i] : undefined;
  const lastTransitionTime =
    old && old.status === next.status && old.lastTransitionTime
      ? old.lastTransitionTime
      : rfc3339(now);
  const merged: Condition = { ...next, lastTransitionTime };
  if (i >= 0) list[i] = merged;
  else list.push(merged);
  return list;
}

/** Drops the condition of `type`. */
export function removeCondition(
  conditions: readonly Condition[] | undefined,
  type: string,
): Condition[] {
  return (conditions ?? []).filter((c) => c.type !== type);
}

export function findCondition(
  conditions: readonly Condition[] | undefined,
  type: string,
): Condition | undefined {
  return conditions?.find((c) => c.type === type);
}

/** True when both lists say the same, ignoring transition times. */
export function sameConditions(
  a: readonly Condition[] | undefined,
  b: readonly Condition[] | undefined,
): boolean {
  const strip = (l: readonly Condition[] | undefined) =>
    JSON.stringify((l ?? []).map(({ lastTransitionTime: _t, ...rest }) => rest));
  return strip(a) === strip(b);
}
