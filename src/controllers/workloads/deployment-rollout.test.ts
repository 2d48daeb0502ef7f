import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { Deployment, IntOrString, ReplicaSet } from "../../api/index.js";
import { newReplicaSetReplicas, proportion, Rollout } from "./deployment-rollout.js";
import { fenceposts, maxUnavailable } from "./deployment-util.js";

function deployment(
  replicas: number,
  maxSurge: IntOrString = "25%",
  maxUnavail: IntOrString = "25%",
): Deployment {
  return {
    apiVersion: "apps/v1",
    kind: "Deployment",
    metadata: { name: "d", generation: 1 },
    spec: {
      replicas,
      template: {},
      strategy: { type: "RollingUpdate", rollingUpdate: { maxSurge, maxUnavailable: maxUnavail } },
    },
    status: { replicas },
  };
}

let clock = 0;
function rs(name: string, replicas: number, available = replicas, annotations = {}): ReplicaSet {
  return {
    apiVersion: "apps/v1",
    kind: "ReplicaSet",
    metadata: {
      name,
      creationTimestamp: new Date(Date.UTC(2026, 0, 1) + 1000 * clock++).toISOString(),
      annotations,
    },
    spec: { replicas },
    status: { replicas, availableReplicas: available },
  };
}

/** A Rollout whose writes are recorded and stored as given. */
function rollout(d: Deployment, newRS: ReplicaSet | undefined, old: ReplicaSet[]) {
  const writes: string[] = [];
  const r = new Rollout(d, newRS, old, async (x) => {
    writes.push(`${x.metadata.name}=${x.spec.replicas}`);
    return x;
  });
  return { r, writes };
}

describe("rolling update math (kube's deployment util)", () => {
  it("resolves maxSurge up and maxUnavailable down, never both 0", () => {
    assert.deepEqual(fenceposts(deployment(3)), [1, 0]);
    assert.deepEqual(fenceposts(deployment(10)), [3, 2]);
    assert.deepEqual(fenceposts(deployment(1, "0%", "10%")), [0, 1]);
    assert.deepEqual(fenceposts(deployment(4, 2, 0)), [2, 0]);
    assert.equal(maxUnavailable(deployment(2, 0, 5)), 2, "at most the replicas");
    const recreate = deployment(3);
    recreate.spec.strategy = { type: "Recreate" };
    assert.deepEqual(fenceposts(recreate), [0, 0]);
  });

  it("grows the new ReplicaSet within replicas + maxSurge", () => {
    const d = deployment(10); // surge 3
    const old = rs("old", 10);
    const fresh = rs("new", 0);
    assert.equal(newReplicaSetReplicas(d, [old, fresh], fresh), 3);
    assert.equal(newReplicaSetReplicas(d, [rs("o", 13), fresh], fresh), 0, "already at the surge");
    assert.equal(
      newReplicaSetReplicas(d, [rs("o", 2), rs("n", 9)], rs("n", 9)),
      10,
      "capped at replicas",
    );
  });

  it("scales old ReplicaSets down only as far as minAvailable allows", async () => {
    // 10 replicas, 2 may be unavailable: 13 pods, the new 3 not yet available.
    const d = deployment(10);
    const { r, writes } = rollout(d, rs("new", 3, 0), [rs("old", 10)]);
    assert.equal(await r.reconcileOld(), true);
    assert.deepEqual(writes, ["old=8"]);
    // Once the new pods are available the old set goes down by as many.
    const next = rollout(d, rs("new", 5, 5), [rs("old", 8)]);
    assert.equal(await next.r.reconcileOld(), true);
    assert.deepEqual(next.writes, ["old=3"], "13 available, 8 needed");
  });

  it("scales unhealthy old pods down first, beyond what availability allows", async () => {
    const d = deployment(4, 1, 0);
    const { r, writes } = rollout(d, rs("new", 1, 0), [rs("old", 4, 2)]);
    await r.reconcileOld();
    // 5 pods, min 4 available, the new one unavailable: 0 may go for availability,
    // but 2 of the old are unavailable anyway — kube cleans up to maxScaledDown (0 here).
    assert.deepEqual(writes, []);
    const more = rollout(deployment(4, 2, 1), rs("new", 2, 0), [rs("old", 4, 2)]);
    await more.r.reconcileOld();
    assert.deepEqual(more.writes, ["old=3"]);
  });

  it("shares a scale-up proportionally between ReplicaSets of a rollout in progress", async () => {
    // 10 → 15 replicas mid-rollout (max was 13 = 10 + 3 surge, now 15 + 4 = 19).
    const d = deployment(15);
    const ann = { "deployment.kubernetes.io/max-replicas": "13" };
    const old = rs("old", 8, 8, ann);
    const fresh = rs("new", 5, 2, ann);
    assert.equal(proportion(d, old, 6, 0), 4);
    const { r, writes } = rollout(d, fresh, [old]);
    await r.scale();
    assert.deepEqual(writes.sort(), ["new=7", "old=12"]);
  });

  it("scales the only active ReplicaSet straight to the replicas", async () => {
    const { r, writes } = rollout(deployment(2), rs("new", 5), [rs("old", 0)]);
    await r.scale();
    assert.deepEqual(writes, ["new=2"]);
  });

  it("knows a scaling event by the desired-replicas annotation", () => {
    const d = deployment(5);
    const ann = (n: number) => ({ "deployment.kubernetes.io/desired-replicas": String(n) });
    assert.equal(Rollout.scalingEvent(d, [rs("a", 3, 3, ann(3))]), true);
    assert.equal(Rollout.scalingEvent(d, [rs("a", 5, 5, ann(5)), rs("b", 0, 0, ann(3))]), false);
  });
});
