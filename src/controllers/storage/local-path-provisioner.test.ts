/** The PersistentVolume the pool makes for a claim: name, path, capacity, policy, binding. */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { PersistentVolumeClaim, StorageClass } from "../../api/index.js";
import { poolVolume, volumeNameFor } from "./local-path-provisioner.js";

const claim = (annotations: Record<string, string> = {}): PersistentVolumeClaim => ({
  apiVersion: "v1",
  kind: "PersistentVolumeClaim",
  metadata: { name: "data", namespace: "db", uid: "1234-abcd", resourceVersion: "7", annotations },
  spec: {
    accessModes: ["ReadWriteOnce"],
    resources: { requests: { storage: "5Gi" } },
    storageClassName: "local-path",
  },
});

const sc = (extra: Partial<StorageClass> = {}): StorageClass => ({
  apiVersion: "storage.k8s.io/v1",
  kind: "StorageClass",
  metadata: { name: "local-path" },
  provisioner: "hearth.io/local-path",
  ...extra,
});

describe("poolVolume", () => {
  it("names the volume after the claim's uid and points at its directory", () => {
    const pv = poolVolume(claim(), sc({ reclaimPolicy: "Retain" }), "/d/volumes/pvc-1234-abcd");
    assert.equal(volumeNameFor(claim()), "pvc-1234-abcd");
    assert.equal(pv.metadata.name, "pvc-1234-abcd");
    assert.deepEqual(pv.spec?.hostPath, { path: "/d/volumes/pvc-1234-abcd", type: "Directory" });
    assert.deepEqual(pv.spec?.capacity, { storage: "5Gi" });
    assert.deepEqual(pv.spec?.accessModes, ["ReadWriteOnce"]);
    assert.equal(pv.spec?.persistentVolumeReclaimPolicy, "Retain");
    assert.equal(pv.spec?.storageClassName, "local-path");
    assert.equal(pv.spec?.volumeMode, "Filesystem");
    assert.deepEqual(pv.spec?.claimRef, {
      apiVersion: "v1",
      kind: "PersistentVolumeClaim",
      namespace: "db",
      name: "data",
      uid: "1234-abcd",
      resourceVersion: "7",
    });
  });

  it("marks the volume as the pool's, held by the directory finalizer", () => {
    const pv = poolVolume(claim(), sc(), "/p");
    assert.equal(pv.spec?.persistentVolumeReclaimPolicy, "Delete", "the class's default");
    assert.deepEqual(pv.metadata.finalizers, ["hearth.io/volume-directory"]);
    assert.deepEqual(pv.metadata.labels, { "hearth.io/volume-pool": "local-path" });
    assert.equal(
      pv.metadata.annotations?.["pv.kubernetes.io/provisioned-by"],
      "hearth.io/local-path",
    );
    assert.equal(pv.metadata.annotations?.["pv.kubernetes.io/bound-by-controller"], "yes");
    assert.equal(pv.spec?.nodeAffinity, undefined);
  });

  it("pins the volume to the node the scheduler chose, and carries mount options", () => {
    const pv = poolVolume(
      claim({ "volume.kubernetes.io/selected-node": "node-1" }),
      sc({ mountOptions: ["noatime"] }),
      "/p",
    );
    assert.deepEqual(pv.spec?.nodeAffinity?.required?.nodeSelectorTerms, [
      { matchExpressions: [{ key: "kubernetes.io/hostname", operator: "In", values: ["node-1"] }] },
    ]);
    assert.deepEqual(pv.spec?.mountOptions, ["noatime"]);
  });
});
