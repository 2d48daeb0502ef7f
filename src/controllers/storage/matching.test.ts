/** Choosing the volume a claim binds to: class, modes, size, selector, pre-binding, phase. */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { PersistentVolume, PersistentVolumeClaim } from "../../api/index.js";
import { affinityAdmits, findBestMatch, isVolumeBoundToClaim, requestedBytes } from "./matching.js";

const claim = (spec: PersistentVolumeClaim["spec"] = {}): PersistentVolumeClaim => ({
  apiVersion: "v1",
  kind: "PersistentVolumeClaim",
  metadata: { name: "data", namespace: "ns", uid: "uid-1" },
  spec: {
    accessModes: ["ReadWriteOnce"],
    resources: { requests: { storage: "1Gi" } },
    storageClassName: "fast",
    ...spec,
  },
});

const volume = (
  name: string,
  spec: PersistentVolume["spec"] = {},
  extra: Partial<PersistentVolume> = {},
): PersistentVolume => ({
  apiVersion: "v1",
  kind: "PersistentVolume",
  metadata: { name },
  spec: {
    capacity: { storage: "1Gi" },
    accessModes: ["ReadWriteOnce"],
    storageClassName: "fast",
    hostPath: { path: `/v/${name}` },
    ...spec,
  },
  status: { phase: "Available" },
  ...extra,
});

const names = (pv: PersistentVolume | undefined) => pv?.metadata.name;

describe("findBestMatch", () => {
  it("picks the smallest volume that fits", () => {
    const vols = [
      volume("big", { capacity: { storage: "10Gi" } }),
      volume("small", { capacity: { storage: "500Mi" } }),
      volume("fit", { capacity: { storage: "2Gi" } }),
    ];
    assert.equal(names(findBestMatch(claim(), vols)), "fit");
    assert.equal(
      names(findBestMatch(claim({ resources: { requests: { storage: "20Gi" } } }), vols)),
      undefined,
    );
  });

  it("requires the claim's class, with no class matching only classless volumes", () => {
    const vols = [
      volume("slow", { storageClassName: "slow" }),
      volume("none", { storageClassName: "" }),
    ];
    assert.equal(findBestMatch(claim(), vols), undefined);
    assert.equal(names(findBestMatch(claim({ storageClassName: "" }), vols)), "none");
    assert.equal(names(findBestMatch(claim({ storageClassName: "slow" }), vols)), "slow");
  });

  it("requires every access mode, preferring volumes with fewer modes over smaller ones", () => {
    const vols = [
      volume("rwo", { accessModes: ["ReadWriteOnce"] }),
      volume("many", {
        accessModes: ["ReadWriteOnce", "ReadWriteMany"],
        capacity: { storage: "1Gi" },
      }),
      volume("many-big", {
        accessModes: ["ReadWriteOnce", "ReadOnlyMany"],
        capacity: { storage: "5Gi" },
      }),
    ];
    assert.equal(names(findBestMatch(claim({ accessModes: ["ReadWriteMany"] }), vols)), "many");
    assert.equal(names(findBestMatch(claim(), vols)), "rwo");
    assert.equal(findBestMatch(claim({ accessModes: ["ReadWriteOncePod"] }), vols), undefined);
  });

  it("skips volumes that are not Available, being deleted, or of another volume mode", () => {
    const vols = [
      volume("released", {}, { status: { phase: "Released" } }),
      volume(
        "deleting",
        {},
        { metadata: { name: "deleting", deletionTimestamp: "2024-01-01T00:00:00Z" } },
      ),
      volume("block", { volumeMode: "Block" }),
    ];
    assert.equal(findBestMatch(claim(), vols), undefined);
    assert.equal(names(findBestMatch(claim({ volumeMode: "Block" }), vols)), "block");
  });

  it("skips volumes bound to another claim and takes one pre-bound to this claim first", () => {
    const other = { name: "other", namespace: "ns", uid: "uid-2" };
    const vols = [
      volume("taken", { claimRef: other }, { status: { phase: "Bound" } }),
      volume("free", { capacity: { storage: "1Gi" } }),
      volume(
        "mine",
        {
          capacity: { storage: "8Gi" },
          claimRef: { name: "data", namespace: "ns" },
          storageClassName: "x",
        },
        { status: { phase: "Pending" } },
      ),
    ];
    assert.equal(names(findBestMatch(claim(), vols)), "mine");
    assert.equal(names(findBestMatch(claim(), vols.slice(0, 2))), "free");
  });

  it("matches the claim's label selector", () => {
    const vols = [
      volume("a", {}, { metadata: { name: "a", labels: { tier: "gold" } } }),
      volume("b", {}, { metadata: { name: "b", labels: { tier: "iron" } } }),
    ];
    const c = claim({ selector: { matchLabels: { tier: "iron" } } });
    assert.equal(names(findBestMatch(c, vols)), "b");
  });

  it("breaks ties by name so the choice is stable", () => {
    const vols = [volume("z"), volume("m"), volume("q")];
    assert.equal(names(findBestMatch(claim(), vols)), "m");
  });
});

describe("helpers", () => {
  it("reads a claim's request and whether a volume names it", () => {
    assert.equal(requestedBytes(claim()), 1024n ** 3n);
    assert.equal(requestedBytes(claim({ resources: {} })), 0n);
    const c = claim();
    assert.equal(
      isVolumeBoundToClaim(
        volume("v", { claimRef: { name: "data", namespace: "ns", uid: "uid-1" } }),
        c,
      ),
      true,
    );
    assert.equal(
      isVolumeBoundToClaim(
        volume("v", { claimRef: { name: "data", namespace: "ns", uid: "old" } }),
        c,
      ),
      false,
    );
    assert.equal(
      isVolumeBoundToClaim(volume("v", { claimRef: { name: "data", namespace: "other" } }), c),
      false,
    );
  });

  it("admits a node by the hostname in a volume's node affinity", () => {
    const pinned = volume("p", {
      nodeAffinity: {
        required: {
          nodeSelectorTerms: [
            {
              matchExpressions: [{ key: "kubernetes.io/hostname", operator: "In", values: ["n1"] }],
            },
          ],
        },
      },
    });
    assert.equal(affinityAdmits(pinned, "n1"), true);
    assert.equal(affinityAdmits(pinned, "n2"), false);
    assert.equal(affinityAdmits(pinned, undefined), true);
    assert.equal(affinityAdmits(volume("free"), "n2"), true);
  });
});
