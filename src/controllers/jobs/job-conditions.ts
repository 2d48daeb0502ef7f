/**
 * Job conditions as kube's job controller writes them: the interim
 * `SuccessCriteriaMet` / `FailureTarget` (set while pods are still being
 * counted or stopped) and the final `Complete` / `Failed` with the same reason,
 * plus `Suspended`. Times are RFC 3339 in whole seconds.
 */

import type { JobCondition, JobConditionType } from "../../api/index.js";
import { rfc3339 } from "../../api/index.js";

export const REASON_COMPLETIONS_REACHED = "CompletionsReached";
export const REASON_BACKOFF_LIMIT = "BackoffLimitExceeded";
export const REASON_DEADLINE = "DeadlineExceeded";
export const MESSAGE_COMPLETIONS_REACHED = "Reached expected number of succeeded pods";
export const MESSAGE_BACKOFF_LIMIT = "Job has reached the specified backoff limit";
export const MESSAGE_DEADLINE = "Job was active longer than specified deadline";

export function newCondition(
  type: JobConditionType,
  status: JobCondition["status"],
  reason: string,
  message: string,
  now: number,
): JobCondition {
  const t = rfc3339(now);
  return { type, status, lastProbeTime: t, lastTransitionTime: t, reason, message };
}

/**
 * kube's ensureJobConditionStatus: updates the condition of that type if its
 * status, reason or message differ; adds it unless it would be added as False.
 * Returns whether the list changed.
 */
export function ensureCondition(
  list: JobCondition[],
  type: JobConditionType,
  status: JobCondition["status"],
  reason: string,
  message: string,
  now: number,
): boolean {
  const i = list.findIndex((c) => c.type === type);
  if (i >= 0) {
    const c = list[i]!;
    if (c.status === status && c.reason === reason && c.message === message) return false;
    list[i] = newCondition(type, status, reason, message, now);
    return true;
  }
  if (status === "False") return false;
  list.push(newCondition(type, status, reason, message, now));
  return true;
}

/** The final condition an interim one leads to. */
export function finalOf(interim: JobCondition, now: number): JobCondition {
  const type = interim.type === "SuccessCriteriaMet" ? "Complete" : "Failed";
  return newCondition(type, "True", interim.reason ?? "", interim.message ?? "", now);
}
