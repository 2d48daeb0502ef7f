/**
 * A ReplicaSet's status as kube's calculateStatus computes it from the active
 * pods it controls: replicas, fullyLabeledReplicas (every template label
 * present), readyReplicas, availableReplicas (ready for minReadySeconds),
 * observedGeneration, and the ReplicaFailure condition while creating or
 * deleting pods fails (reason FailedCreate or FailedDelete, the error as message).
 */
import {
  type Pod,
  type ReplicaSet,
  type ReplicaSetCondition,
  type ReplicaSetStatus,
  rfc3339,
} from "../../api/index.js";
import { errorText } from "../../client/index.js";
import { isAvailable, isReady } from "./pod-state.js";

export function replicaSetStatus(
  rs: ReplicaSet,
  active: Pod[],
  manageError: unknown,
  now: number,
): ReplicaSetStatus {
  const labels = Object.entries(rs.spec.template?.metadata?.labels ?? {});
  const minReady = rs.spec.minReadySeconds ?? 0;
  let conditions: ReplicaSetCondition[] = [...(rs.status?.conditions ?? [])];
  const failing = conditions.find((c) => c.type === "ReplicaFailure");
  if (manageError !== undefined && !failing) {
    const diff = active.length - (rs.spec.replicas ?? 1);
    conditions.push({
      type: "ReplicaFailure",
      status: "True",
      lastTransitionTime: rfc3339(now),
      reason: diff < 0 ? "FailedCreate" : diff > 0 ? "FailedDelete" : "",
      message: errorText(manageError),
    });
  } else if (manageError === undefined && failing) {
    conditions = conditions.filter((c) => c.type !== "ReplicaFailure");
  }
  const ready = active.filter(isReady);
  return {
    replicas: active.length,
    fullyLabeledReplicas: active.filter((p) =>
      labels.every(([k, v]) => p.metadata.labels?.[k] === v),
    ).length,
    readyReplicas: ready.length,
    availableReplicas: ready.filter((p) => isAvailable(p, minReady, now)).length,
    observedGeneration: rs.metadata.generation ?? 1,
    ...(conditions.length > 0 ? { conditions } : {}),
  };
}
