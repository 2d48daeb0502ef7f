import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { findCondition } from "../../../runtime/index.js";
import { clusterStatus } from "./cluster-status.js";
import type { ObservedMember } from "./plan.js";
import type { EtcdCluster } from "./types.js";

const cluster = (replicas: number, auth = false): EtcdCluster =>
  ({
    apiVersion: "etcd.hearth.io/v1alpha1",
    kind: "EtcdCluster",
    metadata: { name: "etcd", namespace: "ns", generation: 4 },
    spec: { replicas, storage: { size: "1Gi" }, ...(auth ? { auth: { enabled: true } } : {}) },
  }) as EtcdCluster;

const member = (name: string, over: Partial<ObservedMember> = {}): ObservedMember => ({
  name,
  created: "2026-01-01T00:00:00Z",
  deleting: false,
  pending: false,
  ready: true,
  etcd: { id: `${name}1d`, learner: false, healthy: true },
  ...over,
});

describe("an EtcdCluster's status", () => {
  it("is Ready when every wanted member is a ready voter, with 3/3 and the members' IDs", () => {
    const s = clusterStatus(cluster(3), {
      observed: [member("a"), member("b"), member("c")],
      step: { kind: "steady" },
      authEnabled: false,
      clusterId: "c1",
    })!;
    assert.equal(s.ready, "3/3");
    assert.equal(s.readyMembers, 3);
    assert.equal(s.replicas, 3);
    assert.equal(s.clusterID, "c1");
    assert.equal(s.observedGeneration, 4);
    assert.deepEqual(s.members?.[0], { name: "a", id: "a1d", ready: true, learner: false });
    const ready = findCondition(s.conditions, "Ready")!;
    assert.deepEqual(
      [ready.status, ready.reason, ready.message, ready.observedGeneration],
      ["True", "MembersReady", "3/3 members ready", 4],
    );
    assert.equal(findCondition(s.conditions, "Progressing")?.status, "False");
  });

  it("does not count a learner, and says what the step is doing", () => {
    const s = clusterStatus(cluster(3), {
      observed: [
        member("a"),
        member("b"),
        member("c", { etcd: { id: "c1d", learner: true, healthy: true } }),
      ],
      step: { kind: "promote", member: "c", id: "c1d" },
      authEnabled: false,
    })!;
    assert.equal(s.ready, "2/3");
    assert.equal(findCondition(s.conditions, "Ready")?.status, "False");
    const progressing = findCondition(s.conditions, "Progressing")!;
    assert.deepEqual([progressing.status, progressing.message], ["True", "promoting learner c"]);
  });

  it("waits for auth when asked for, and reports an unreachable etcd", () => {
    const waiting = clusterStatus(cluster(1, true), {
      observed: [member("a")],
      step: { kind: "steady" },
      authEnabled: false,
    })!;
    assert.equal(findCondition(waiting.conditions, "Ready")?.status, "False");
    const down = clusterStatus(cluster(1), {
      observed: [member("a", { ready: false })],
      step: { kind: "wait", reason: "cannot reach etcd: refused" },
      authEnabled: false,
      unreachable: "cannot reach etcd: refused",
    })!;
    const ready = findCondition(down.conditions, "Ready")!;
    assert.deepEqual(
      [ready.reason, ready.message],
      ["EtcdUnreachable", "cannot reach etcd: refused"],
    );
  });

  it("leaves members being deleted out, and keeps the last cluster ID when etcd was not asked", () => {
    const prior = { ...cluster(1), status: { clusterID: "old" } } as EtcdCluster;
    const s = clusterStatus(prior, {
      observed: [member("a"), member("b", { deleting: true })],
      step: { kind: "wait", reason: "member b is leaving" },
      authEnabled: false,
    })!;
    assert.deepEqual(
      s.members?.map((m) => m.name),
      ["a"],
    );
    assert.equal(s.clusterID, "old");
  });
});
