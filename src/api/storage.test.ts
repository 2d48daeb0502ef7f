/** Storage helpers: the default class choice, class names, access-mode strings. */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import {
  accessModesString,
  chooseDefaultClass,
  claimClassName,
  claimKeyOf,
  isDefaultClass,
  type PersistentVolumeClaim,
  type StorageClass,
  volumeClassName,
} from "./storage.js";

const sc = (name: string, created: string, value?: string, beta = false): StorageClass => ({
  apiVersion: "storage.k8s.io/v1",
  kind: "StorageClass",
  metadata: {
    name,
    creationTimestamp: created,
    ...(value !== undefined
      ? {
          annotations: {
            [beta
              ? "storageclass.beta.kubernetes.io/is-default-class"
              : "storageclass.kubernetes.io/is-default-class"]: value,
          },
        }
      : {}),
  },
});

describe("default class", () => {
  it('reads the GA and the beta annotation, only as "true"', () => {
    assert.equal(isDefaultClass(sc("a", "2024-01-01T00:00:00Z", "true")), true);
    assert.equal(isDefaultClass(sc("a", "2024-01-01T00:00:00Z", "true", true)), true);
    assert.equal(isDefaultClass(sc("a", "2024-01-01T00:00:00Z", "yes")), false);
    assert.equal(isDefaultClass(sc("a", "2024-01-01T00:00:00Z")), false);
  });

  it("chooses the newest default, then the first by name", () => {
    const classes = [
      sc("old", "2024-01-01T00:00:00Z", "true"),
      sc("plain", "2025-01-01T00:00:00Z"),
      sc("zeta", "2024-06-01T00:00:00Z", "true"),
      sc("alpha", "2024-06-01T00:00:00Z", "true"),
    ];
    assert.equal(chooseDefaultClass(classes)?.metadata.name, "alpha");
    assert.equal(chooseDefaultClass([classes[1]!]), undefined);
    const deleting = {
      ...classes[3]!,
      metadata: { ...classes[3]!.metadata, deletionTimestamp: "x" },
    };
    assert.equal(chooseDefaultClass([classes[0]!, deleting])?.metadata.name, "old");
  });
});

describe("names and modes", () => {
  it("reads a claim's class from the beta annotation first", () => {
    const claim: PersistentVolumeClaim = {
      apiVersion: "v1",
      kind: "PersistentVolumeClaim",
      metadata: { name: "c", annotations: { "volume.beta.kubernetes.io/storage-class": "beta" } },
      spec: { storageClassName: "ga" },
    };
    assert.equal(claimClassName(claim), "beta");
    assert.equal(claimClassName({ ...claim, metadata: { name: "c" } }), "ga");
    assert.equal(claimClassName({ ...claim, metadata: { name: "c" }, spec: {} }), "");
    assert.equal(volumeClassName({ apiVersion: "v1", kind: "PersistentVolume", metadata: {} }), "");
  });

  it("prints access modes in kube's order", () => {
    assert.equal(accessModesString(["ReadWriteMany", "ReadWriteOnce"]), "RWO,RWX");
    assert.equal(accessModesString(["ReadWriteOncePod"]), "RWOP");
    assert.equal(accessModesString(["ReadOnlyMany"]), "ROX");
    assert.equal(accessModesString(undefined), "");
  });

  it("names the claim a volume is bound to", () => {
    const pv = { apiVersion: "v1", kind: "PersistentVolume", metadata: {} };
    assert.equal(claimKeyOf(pv), undefined);
    assert.equal(claimKeyOf({ ...pv, spec: { claimRef: { namespace: "ns", name: "c" } } }), "ns/c");
  });
});
