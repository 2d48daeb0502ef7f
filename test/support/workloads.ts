/**
 * Helpers for tests of Deployments and ReplicaSets: a Deployment's
 * ReplicaSets read as `{revision: replicas}`, the shape a rollout's end state
 * is asserted in.
 */
import type { ReplicaSet } from "../../src/api/apps.js";

/** `{"1": 0, "2": 3}`: each ReplicaSet's replicas by its `deployment.kubernetes.io/revision`. */
export function replicasByRevision(sets: ReplicaSet[]): Record<string, number | undefined> {
  return Object.fromEntries(
    sets.map((rs) => [
      rs.metadata.annotations?.["deployment.kubernetes.io/revision"],
      rs.spec.replicas,
    ]),
  );
}
