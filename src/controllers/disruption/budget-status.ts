/**
 * The disruption controller's arithmetic (kube's pkg/controller/disruption) as
 * pure functions: how many pods the budget wants healthy, which evictions the
 * apiserver recorded in `disruptedPods` still count (2 minutes, then they are
 * forgotten), how many selected pods are healthy, and the status to write —
 * undefined when the stored one is already so.
 */
import {
  DISRUPTED_POD_TIMEOUT_MS,
  DISRUPTION_ALLOWED,
  INSUFFICIENT_PODS,
  type Pod,
  type PodDisruptionBudget,
  type PodDisruptionBudgetStatus,
  podIsReady,
  rfc3339,
  SUFFICIENT_PODS,
  scaledValue,
  withDisruptionAllowed,
} from "../../api/index.js";

/** Whether the budget needs its controllers' scale (a percentage, or maxUnavailable) rather than the pods' count. */
export function needsScale(pdb: PodDisruptionBudget): boolean {
  const spec = pdb.spec ?? {};
  if (spec.maxUnavailable !== undefined) return true;
  return typeof spec.minAvailable === "string";
}

/** kube's getExpectedPodCount once `expectedScale` is known (when `needsScale`): expected and desired pods. */
export function expectedCounts(
  pdb: PodDisruptionBudget,
  podCount: number,
  expectedScale: number,
): { expectedCount: number; desiredHealthy: number } {
  const spec = pdb.spec ?? {};
  if (spec.maxUnavailable !== undefined) {
    const maxUnavailable = scaledValue(spec.maxUnavailable, expectedScale, true);
    return {
      expectedCount: expectedScale,
      desiredHealthy: Math.max(0, expectedScale - maxUnavailable),
    };
  }
  if (typeof spec.minAvailable === "number")
    return { expectedCount: podCount, desiredHealthy: spec.minAvailable };
  if (typeof spec.minAvailable === "string")
    return {
      expectedCount: expectedScale,
      desiredHealthy: scaledValue(spec.minAvailable, expectedScale, true),
    };
  return { expectedCount: 0, desiredHealthy: 0 };
}

/**
 * kube's buildDisruptedPodMap: the entries of pods still there and not yet being
 * deleted whose 2 minutes have not run out, the pods whose time ran out (for a
 * NotDeleted event), and when the earliest kept entry runs out.
 */
export function disruptedPodMap(
  pdb: PodDisruptionBudget,
  pods: Pod[],
  nowMs: number,
): { kept: Record<string, string>; expired: Pod[]; recheckAt?: number } {
  const recorded = pdb.status?.disruptedPods ?? {};
  const kept: Record<string, string> = {};
  const expired: Pod[] = [];
  let recheckAt: number | undefined;
  for (const pod of pods) {
    if (pod.metadata.deletionTimestamp) continue;
    const at = recorded[pod.metadata.name ?? ""];
    if (at === undefined) continue;
    const deadline = Date.parse(at) + DISRUPTED_POD_TIMEOUT_MS;
    if (deadline < nowMs) expired.push(pod);
    else {
      kept[pod.metadata.name!] = at;
      recheckAt = recheckAt === undefined ? deadline : Math.min(recheckAt, deadline);
    }
  }
  return recheckAt === undefined ? { kept, expired } : { kept, expired, recheckAt };
}

/** kube's countHealthyPods: Ready pods not being deleted and not about to be. */
export function countHealthy(
  pods: Pod[],
  disrupted: Record<string, string>,
  nowMs: number,
): number {
  let healthy = 0;
  for (const pod of pods) {
    if (pod.metadata.deletionTimestamp) continue;
    const at = disrupted[pod.metadata.name ?? ""];
    if (at !== undefined && Date.parse(at) + DISRUPTED_POD_TIMEOUT_MS > nowMs) continue;
    if (podIsReady(pod)) healthy++;
  }
  return healthy;
}

export interface Counts {
  currentHealthy: number;
  desiredHealthy: number;
  expectedCount: number;
  disruptedPods: Record<string, string>;
}

function conditionUpToDate(pdb: PodDisruptionBudget): boolean {
  const s = pdb.status;
  const cond = s?.conditions?.find((c) => c.type === DISRUPTION_ALLOWED);
  if (!s || !cond || s.observedGeneration !== pdb.metadata.generation) return false;
  return s.disruptionsAllowed > 0
    ? cond.status === "True" && cond.reason === SUFFICIENT_PODS
    : cond.status === "False" && cond.reason === INSUFFICIENT_PODS;
}

const sameMap = (a: Record<string, string>, b: Record<string, string>) =>
  Object.keys(a).length === Object.keys(b).length &&
  Object.entries(a).every(([k, v]) => b[k] === v);

/**
 * kube's updatePdbStatus: disruptionsAllowed = currentHealthy − desiredHealthy,
 * but 0 while no pod is expected (a budget whose first pods appear before its
 * status is safe); undefined when the stored status already says all of it.
 */
export function nextStatus(
  pdb: PodDisruptionBudget,
  counts: Counts,
  nowMs: number,
): PodDisruptionBudgetStatus | undefined {
  let allowed = counts.currentHealthy - counts.desiredHealthy;
  if (counts.expectedCount <= 0 || allowed <= 0) allowed = 0;
  const s = pdb.status;
  const generation = pdb.metadata.generation ?? 0;
  if (
    s &&
    s.currentHealthy === counts.currentHealthy &&
    s.desiredHealthy === counts.desiredHealthy &&
    s.expectedPods === counts.expectedCount &&
    s.disruptionsAllowed === allowed &&
    sameMap(s.disruptedPods ?? {}, counts.disruptedPods) &&
    s.observedGeneration === generation &&
    conditionUpToDate(pdb)
  )
    return undefined;
  const next: PodDisruptionBudgetStatus = {
    currentHealthy: counts.currentHealthy,
    desiredHealthy: counts.desiredHealthy,
    expectedPods: counts.expectedCount,
    disruptionsAllowed: allowed,
    ...(Object.keys(counts.disruptedPods).length > 0
      ? { disruptedPods: counts.disruptedPods }
      : {}),
    observedGeneration: generation,
    ...(s?.conditions ? { conditions: s.conditions } : {}),
  };
  return withDisruptionAllowed(next, rfc3339(nowMs));
}
