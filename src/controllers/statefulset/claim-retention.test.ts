import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { Pod, StatefulSet } from "../../api/index.js";
import { claimOwners } from "./claim-retention.js";
import type { Claim } from "./stateful-pods.js";

const set = (whenDeleted: "Retain" | "Delete", whenScaled: "Retain" | "Delete") =>
  ({
    apiVersion: "apps/v1",
    kind: "StatefulSet",
    metadata: { name: "db", uid: "set-uid" },
    spec: { template: {}, persistentVolumeClaimRetentionPolicy: { whenDeleted, whenScaled } },
  }) as StatefulSet;
const pod = { apiVersion: "v1", kind: "Pod", metadata: { name: "db-2", uid: "pod-uid" } } as Pod;
const claim = (owners: { kind: string; name: string; uid: string }[] = []): Claim => ({
  apiVersion: "v1",
  kind: "PersistentVolumeClaim",
  metadata: {
    name: "data-db-2",
    ownerReferences: owners.map((o) => ({ apiVersion: "v1", ...o })),
  },
});
const kinds = (refs: { kind: string }[] | undefined) => refs?.map((r) => r.kind);

describe("claimOwners", () => {
  it("adds nothing under Retain/Retain, and leaves a claim already right alone", () => {
    assert.equal(claimOwners(set("Retain", "Retain"), claim(), "db-2", pod, true), undefined);
  });

  it("makes the set an owner under whenDeleted Delete", () => {
    assert.deepEqual(kinds(claimOwners(set("Delete", "Retain"), claim(), "db-2", pod, false)), [
      "StatefulSet",
    ]);
  });

  it("hands a condemned ordinal's claim to its pod under whenScaled Delete, not to the set", () => {
    const owned = claim([{ kind: "StatefulSet", name: "db", uid: "set-uid" }]);
    assert.deepEqual(kinds(claimOwners(set("Delete", "Delete"), owned, "db-2", pod, true)), [
      "Pod",
    ]);
  });

  it("takes the pod's reference back when the ordinal is in range again, even with the pod gone", () => {
    const owned = claim([{ kind: "Pod", name: "db-2", uid: "old-pod" }]);
    assert.deepEqual(claimOwners(set("Retain", "Delete"), owned, "db-2", undefined, false), []);
  });

  it("keeps a condemned claim's reference to a pod already gone, and other owners", () => {
    const owned = claim([
      { kind: "Pod", name: "db-2", uid: "old-pod" },
      { kind: "ConfigMap", name: "x", uid: "x" },
    ]);
    assert.equal(claimOwners(set("Retain", "Delete"), owned, "db-2", undefined, true), undefined);
  });
});
