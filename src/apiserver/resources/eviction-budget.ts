/**
 * The decisions of kube's eviction REST (pkg/registry/core/pod/storage/eviction.go)
 * as pure functions, so they are tested without a server: whether a pod may be
 * deleted without asking a budget (it is terminal, Pending, or already being
 * deleted), whether an unready pod may go without spending a disruption, and
 * `checkAndDecrement` — the budget's next status with one disruption spent and
 * the pod recorded in `disruptedPods`, or the error the eviction answers.
 */
import {
  DISRUPTION_BUDGET_CAUSE,
  EVICTION_REFUSED_MESSAGE,
  ForbiddenError,
  MAX_DISRUPTED_PODS,
  type Pod,
  type PodDisruptionBudget,
  podIsReady,
  rfc3339,
  TooManyRequestsError,
  withDisruptionAllowed,
} from "../../api/index.js";

/** kube's canIgnorePDB: a pod that is finished, not started, or already going costs no disruption. */
export function canIgnoreBudget(pod: Pod): boolean {
  const phase = pod.status?.phase;
  return (
    phase === "Succeeded" ||
    phase === "Failed" ||
    phase === "Pending" ||
    pod.metadata.deletionTimestamp !== undefined
  );
}

/** kube's shouldEnforceResourceVersion: delete only the pod as it was judged, unless it is terminal or going. */
export function mustPinResourceVersion(pod: Pod): boolean {
  const phase = pod.status?.phase;
  return !(
    phase === "Succeeded" ||
    phase === "Failed" ||
    pod.metadata.deletionTimestamp !== undefined
  );
}

/**
 * An unready pod counts for nothing in the budget: it may go without spending a
 * disruption when the policy is AlwaysAllow, or (IfHealthyBudget, the default)
 * while the budget is met.
 */
export function unhealthyMayGo(pod: Pod, pdb: PodDisruptionBudget): boolean {
  if (podIsReady(pod)) return false;
  if (pdb.spec?.unhealthyPodEvictionPolicy === "AlwaysAllow") return true;
  const s = pdb.status;
  return (s?.currentHealthy ?? 0) >= (s?.desiredHealthy ?? 0) && (s?.desiredHealthy ?? 0) > 0;
}

function refused(message: string): TooManyRequestsError {
  return new TooManyRequestsError(EVICTION_REFUSED_MESSAGE, 0, [
    { reason: DISRUPTION_BUDGET_CAUSE, message },
  ]);
}

/** kube's createTooManyRequestsError: the budget's status is behind its spec. */
export function budgetNotObserved(name: string): TooManyRequestsError {
  return refused(`The disruption budget ${name} is still being processed by the server.`);
}

/**
 * The budget with one disruption spent on `podName` (recorded at `nowMs` in
 * `disruptedPods` unless `dryRun`), or throws what kube answers: 429 while the
 * status has not caught up with the spec or no disruption is allowed, 403 for a
 * negative count or an overgrown `disruptedPods`.
 */
export function spendDisruption(
  pdb: PodDisruptionBudget,
  podName: string,
  nowMs: number,
  dryRun: boolean,
): PodDisruptionBudget {
  const name = pdb.metadata.name ?? "";
  const status = pdb.status ?? {
    disruptionsAllowed: 0,
    currentHealthy: 0,
    desiredHealthy: 0,
    expectedPods: 0,
  };
  if ((status.observedGeneration ?? 0) < (pdb.metadata.generation ?? 0))
    throw budgetNotObserved(name);
  const ref = { group: "policy", resource: "poddisruptionbudget", name };
  if (status.disruptionsAllowed < 0)
    throw new ForbiddenError(ref, "pdb disruptions allowed is negative");
  if (Object.keys(status.disruptedPods ?? {}).length > MAX_DISRUPTED_PODS)
    throw new ForbiddenError(
      ref,
      "DisruptedPods map too big - too many evictions not confirmed by PDB controller",
    );
  if (status.disruptionsAllowed === 0)
    throw refused(
      `The disruption budget ${name} needs ${status.desiredHealthy} healthy pods and has ${status.currentHealthy} currently`,
    );
  const now = rfc3339(nowMs);
  let next = { ...status, disruptionsAllowed: status.disruptionsAllowed - 1 };
  if (next.disruptionsAllowed === 0) next = withDisruptionAllowed(next, now);
  if (!dryRun)
    next = { ...next, disruptedPods: { ...(status.disruptedPods ?? {}), [podName]: now } };
  return { ...pdb, status: next };
}
