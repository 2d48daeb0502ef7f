/**
 * A Deployment's status as kube's calculateStatus and syncRolloutStatus
 * compute it from its ReplicaSets: the counts; Available
 * (MinimumReplicasAvailable / MinimumReplicasUnavailable against replicas −
 * maxUnavailable); Progressing (NewReplicaSetCreated, FoundNewReplicaSet,
 * ReplicaSetUpdated on progress, NewReplicaSetAvailable when complete,
 * False/ProgressDeadlineExceeded once `lastUpdateTime` is older than
 * progressDeadlineSeconds); ReplicaFailure copied from a ReplicaSet. Also
 * when to look again for the deadline (requeueStuckDeployment).
 */
import {
  type Deployment,
  type DeploymentCondition,
  type DeploymentConditionType,
  type DeploymentStatus,
  type ReplicaSet,
  rfc3339,
} from "../../api/index.js";
import { maxUnavailable, sumSpec, sumStatus } from "./deployment-util.js";

export const NEW_RS_CREATED = "NewReplicaSetCreated";
export const FOUND_NEW_RS = "FoundNewReplicaSet";
export const RS_UPDATED = "ReplicaSetUpdated";
export const NEW_RS_AVAILABLE = "NewReplicaSetAvailable";
export const TIMED_OUT = "ProgressDeadlineExceeded";
const NO_PROGRESS_DEADLINE = 2147483647;

export const hasProgressDeadline = (d: Deployment) =>
  d.spec.progressDeadlineSeconds !== undefined &&
  d.spec.progressDeadlineSeconds !== NO_PROGRESS_DEADLINE;

export function getCondition(status: DeploymentStatus | undefined, type: DeploymentConditionType) {
  return status?.conditions?.find((c) => c.type === type);
}

export function newCondition(
  type: DeploymentConditionType,
  status: DeploymentCondition["status"],
  reason: string,
  message: string,
  now: number,
): DeploymentCondition {
  const at = rfc3339(now);
  return { type, status, lastUpdateTime: at, lastTransitionTime: at, reason, message };
}

/** SetDeploymentCondition: same status and reason keeps the old one; same status keeps its transition time. */
export function setCondition(status: DeploymentStatus, c: DeploymentCondition): void {
  const current = getCondition(status, c.type);
  if (current && current.status === c.status && current.reason === c.reason) return;
  const next = { ...c };
  if (current && current.status === c.status) next.lastTransitionTime = current.lastTransitionTime;
  status.conditions = [...(status.conditions ?? []).filter((x) => x.type !== c.type), next];
}

export function removeCondition(status: DeploymentStatus, type: DeploymentConditionType): void {
  status.conditions = (status.conditions ?? []).filter((x) => x.type !== type);
}

/** calculateStatus. */
export function calculateStatus(
  d: Deployment,
  all: ReplicaSet[],
  newRS: ReplicaSet | undefined,
  now: number,
): DeploymentStatus {
  const available = sumStatus(all, "availableReplicas");
  const status: DeploymentStatus = {
    observedGeneration: d.metadata.generation ?? 1,
    replicas: sumStatus(all, "replicas"),
    updatedReplicas: sumStatus([newRS], "replicas"),
    readyReplicas: sumStatus(all, "readyReplicas"),
    availableReplicas: available,
    unavailableReplicas: Math.max(0, sumSpec(all) - available),
    conditions: [...(d.status?.conditions ?? [])],
    ...(d.status?.collisionCount !== undefined ? { collisionCount: d.status.collisionCount } : {}),
  };
  if (available >= (d.spec.replicas ?? 1) - maxUnavailable(d))
    setCondition(
      status,
      newCondition(
        "Available",
        "True",
        "MinimumReplicasAvailable",
        "Deployment has minimum availability.",
        now,
      ),
    );
  else
    setCondition(
      status,
      newCondition(
        "Available",
        "False",
        "MinimumReplicasUnavailable",
        "Deployment does not have minimum availability.",
        now,
      ),
    );
  return status;
}

/** DeploymentComplete. */
export function isComplete(d: Deployment, s: DeploymentStatus): boolean {
  const want = d.spec.replicas ?? 1;
  return (
    (s.updatedReplicas ?? 0) === want &&
    (s.replicas ?? 0) === want &&
    (s.availableReplicas ?? 0) === want &&
    (s.observedGeneration ?? 0) >= (d.metadata.generation ?? 1)
  );
}

/** DeploymentProgressing: more updated, fewer old, more ready or more available than before. */
function isProgressing(d: Deployment, s: DeploymentStatus): boolean {
  const old = d.status ?? {};
  const oldOld = (old.replicas ?? 0) - (old.updatedReplicas ?? 0);
  const newOld = (s.replicas ?? 0) - (s.updatedReplicas ?? 0);
  return (
    (s.updatedReplicas ?? 0) > (old.updatedReplicas ?? 0) ||
    newOld < oldOld ||
    (s.readyReplicas ?? 0) > (old.readyReplicas ?? 0) ||
    (s.availableReplicas ?? 0) > (old.availableReplicas ?? 0)
  );
}

/** DeploymentTimedOut. */
function timedOut(d: Deployment, s: DeploymentStatus, now: number): boolean {
  if (!hasProgressDeadline(d)) return false;
  const c = getCondition(s, "Progressing");
  if (!c || c.reason === NEW_RS_AVAILABLE) return false;
  if (c.reason === TIMED_OUT) return true;
  const from = Date.parse(c.lastUpdateTime ?? "") || 0;
  return from + (d.spec.progressDeadlineSeconds ?? 0) * 1000 < now;
}

/** syncRolloutStatus's new status; `failure` is a ReplicaSet's ReplicaFailure condition. */
export function rolloutStatus(
  d: Deployment,
  all: ReplicaSet[],
  newRS: ReplicaSet | undefined,
  now: number,
): DeploymentStatus {
  const status = calculateStatus(d, all, newRS, now);
  if (!hasProgressDeadline(d)) removeCondition(status, "Progressing");
  const current = getCondition(d.status, "Progressing");
  const complete =
    status.replicas === status.updatedReplicas && current?.reason === NEW_RS_AVAILABLE;
  const subject = newRS ? `ReplicaSet "${newRS.metadata.name}"` : `Deployment "${d.metadata.name}"`;
  if (hasProgressDeadline(d) && !complete) {
    if (isComplete(d, status)) {
      setCondition(
        status,
        newCondition(
          "Progressing",
          "True",
          NEW_RS_AVAILABLE,
          `${subject} has successfully progressed.`,
          now,
        ),
      );
    } else if (isProgressing(d, status)) {
      const c = newCondition("Progressing", "True", RS_UPDATED, `${subject} is progressing.`, now);
      if (current?.status === "True") c.lastTransitionTime = current.lastTransitionTime;
      removeCondition(status, "Progressing");
      setCondition(status, c);
    } else if (timedOut(d, status, now)) {
      setCondition(
        status,
        newCondition(
          "Progressing",
          "False",
          TIMED_OUT,
          `${subject} has timed out progressing.`,
          now,
        ),
      );
    }
  }
  const failure = all
    .flatMap((rs) =>
      (rs.status?.conditions ?? []).filter(
        (c) => c.type === "ReplicaFailure" && c.status === "True",
      ),
    )
    .at(0);
  if (failure)
    setCondition(status, {
      type: "ReplicaFailure",
      status: failure.status,
      lastUpdateTime: failure.lastTransitionTime,
      lastTransitionTime: failure.lastTransitionTime,
      reason: failure.reason,
      message: failure.message,
    });
  else removeCondition(status, "ReplicaFailure");
  return status;
}

/** requeueStuckDeployment (on the status just computed): ms until the progress deadline passes. */
export function deadlineIn(
  d: Deployment,
  status: DeploymentStatus,
  now: number,
): number | undefined {
  const c = getCondition(status, "Progressing");
  if (!hasProgressDeadline(d) || !c) return undefined;
  if (isComplete(d, status) || c.reason === TIMED_OUT) return undefined;
  const after =
    (Date.parse(c.lastUpdateTime ?? "") || 0) + (d.spec.progressDeadlineSeconds ?? 0) * 1000 - now;
  return Math.max(after, 0) + 1000;
}
