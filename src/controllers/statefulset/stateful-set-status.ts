/**
 * A StatefulSet's status from its pods, as kube's computeReplicaStatus and
 * completeRollingUpdate do: replicas (pods with a phase), ready and available
 * ones, how many are of the current and of the update revision (not counting
 * terminating pods), and, once a rolling update has every pod updated and
 * Ready, the update revision becoming the current one.
 */
import type { Pod, StatefulSet, StatefulSetStatus } from "../../api/index.js";
import {
  isCreated,
  isRunningAndReady,
  isTerminating,
  revisionOf,
  untilAvailableMs,
} from "./stateful-pods.js";

export function computeStatus(
  set: StatefulSet,
  pods: Pod[],
  currentRevision: string,
  updateRevision: string,
  collisionCount: number,
  now: number,
): StatefulSetStatus {
  const status: StatefulSetStatus = {
    observedGeneration: set.metadata.generation ?? 1,
    replicas: 0,
    readyReplicas: 0,
    currentReplicas: 0,
    updatedReplicas: 0,
    availableReplicas: 0,
    currentRevision,
    updateRevision,
    collisionCount,
  };
  const minReady = set.spec.minReadySeconds ?? 0;
  for (const pod of pods) {
    if (isCreated(pod)) status.replicas! += 1;
    if (isRunningAndReady(pod)) {
      status.readyReplicas! += 1;
      if (untilAvailableMs(pod, minReady, now) === 0) status.availableReplicas! += 1;
    }
    if (isCreated(pod) && !isTerminating(pod)) {
      if (revisionOf(pod) === currentRevision) status.currentReplicas! += 1;
      if (revisionOf(pod) === updateRevision) status.updatedReplicas! += 1;
    }
  }
  const rolling = (set.spec.updateStrategy?.type ?? "RollingUpdate") === "RollingUpdate";
  if (
    rolling &&
    status.updatedReplicas === status.replicas &&
    status.readyReplicas === status.replicas
  ) {
    status.currentReplicas = status.updatedReplicas;
    status.currentRevision = status.updateRevision;
  }
  if (set.status?.conditions) status.conditions = set.status.conditions;
  return status;
}
