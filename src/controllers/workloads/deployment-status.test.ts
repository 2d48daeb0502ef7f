import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { Deployment, DeploymentCondition, ReplicaSet } from "../../api/index.js";
import { deadlineIn, rolloutStatus } from "./deployment-status.js";

const T0 = Date.parse("2026-01-01T00:00:00Z");
const at = (s: number) => new Date(T0 + s * 1000).toISOString().replace(/\.\d+Z$/, "Z");

function deployment(conditions: DeploymentCondition[] = [], status = {}): Deployment {
  return {
    apiVersion: "apps/v1",
    kind: "Deployment",
    metadata: { name: "web", generation: 2 },
    spec: {
      replicas: 4,
      template: {},
      progressDeadlineSeconds: 60,
      strategy: { type: "RollingUpdate", rollingUpdate: { maxSurge: 1, maxUnavailable: 1 } },
    },
    status: { observedGeneration: 2, conditions, ...status },
  };
}

function rs(name: string, replicas: number, available: number, ready = available): ReplicaSet {
  return {
    apiVersion: "apps/v1",
    kind: "ReplicaSet",
    metadata: { name },
    spec: { replicas },
    status: { replicas, readyReplicas: ready, availableReplicas: available },
  };
}

const progressing = (reason: string, s: number, status: "True" | "False" = "True") => ({
  type: "Progressing" as const,
  status,
  reason,
  message: "",
  lastUpdateTime: at(s),
  lastTransitionTime: at(s),
});
const find = (d: { conditions?: DeploymentCondition[] }, type: string) =>
  d.conditions?.find((c) => c.type === type);

describe("Deployment status (kube's syncRolloutStatus)", () => {
  it("counts over the ReplicaSets and reports Available against replicas - maxUnavailable", () => {
    const d = deployment([progressing("NewReplicaSetCreated", 0)]);
    const fresh = rs("web-new", 2, 1);
    const s = rolloutStatus(d, [rs("web-old", 3, 2), fresh], fresh, T0 + 1000);
    assert.equal(s.replicas, 5);
    assert.equal(s.updatedReplicas, 2);
    assert.equal(s.availableReplicas, 3);
    assert.equal(s.unavailableReplicas, 2);
    assert.equal(s.observedGeneration, 2);
    assert.deepEqual(find(s, "Available"), {
      type: "Available",
      status: "True",
      reason: "MinimumReplicasAvailable",
      message: "Deployment has minimum availability.",
      lastUpdateTime: at(1),
      lastTransitionTime: at(1),
    });
    const low = rolloutStatus(d, [rs("web-old", 3, 1), fresh], fresh, T0);
    assert.equal(find(low, "Available")?.reason, "MinimumReplicasUnavailable");
  });

  it("moves Progressing's lastUpdateTime on progress, keeping its lastTransitionTime", () => {
    const d = deployment([progressing("NewReplicaSetCreated", 0)], {
      replicas: 4,
      updatedReplicas: 1,
      availableReplicas: 3,
    });
    const fresh = rs("web-new", 2, 1);
    const s = rolloutStatus(d, [rs("web-old", 2, 2), fresh], fresh, T0 + 30_000);
    const c = find(s, "Progressing")!;
    assert.equal(c.reason, "ReplicaSetUpdated");
    assert.equal(c.message, 'ReplicaSet "web-new" is progressing.');
    assert.equal(c.lastUpdateTime, at(30));
    assert.equal(c.lastTransitionTime, at(0));
  });

  it("times out past progressDeadlineSeconds without progress, and says when to look", () => {
    const d = deployment([progressing("ReplicaSetUpdated", 0)], {
      replicas: 5,
      updatedReplicas: 1,
      readyReplicas: 4,
      availableReplicas: 4,
    });
    const stuck = [rs("web-old", 4, 4), rs("web-new", 1, 0)];
    const early = rolloutStatus(d, stuck, stuck[1], T0 + 30_000);
    assert.equal(find(early, "Progressing")?.reason, "ReplicaSetUpdated");
    assert.equal(deadlineIn(d, early, T0 + 30_000), 31_000);
    const late = rolloutStatus(d, stuck, stuck[1], T0 + 61_000);
    assert.deepEqual(find(late, "Progressing"), {
      type: "Progressing",
      status: "False",
      reason: "ProgressDeadlineExceeded",
      message: 'ReplicaSet "web-new" has timed out progressing.',
      lastUpdateTime: at(61),
      lastTransitionTime: at(61),
    });
    assert.equal(deadlineIn(d, late, T0 + 61_000), undefined, "no requeue once timed out");
  });

  it("says NewReplicaSetAvailable once complete, and copies a ReplicaSet's ReplicaFailure", () => {
    const d = deployment([progressing("ReplicaSetUpdated", 0)]);
    const fresh = rs("web-new", 4, 4);
    const done = rolloutStatus(d, [rs("web-old", 0, 0), fresh], fresh, T0 + 5000);
    assert.equal(find(done, "Progressing")?.reason, "NewReplicaSetAvailable");
    assert.equal(
      find(done, "Progressing")?.message,
      'ReplicaSet "web-new" has successfully progressed.',
    );
    const failing = rs("web-new", 4, 2);
    failing.status!.conditions = [
      {
        type: "ReplicaFailure",
        status: "True",
        reason: "FailedCreate",
        message: "quota",
        lastTransitionTime: at(3),
      },
    ];
    const s = rolloutStatus(d, [failing], failing, T0 + 5000);
    assert.equal(find(s, "ReplicaFailure")?.reason, "FailedCreate");
    assert.equal(find(s, "ReplicaFailure")?.message, "quota");
  });
});
