/** The storage kinds' validation rules, one by one, with kube's field paths and wording. */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { FieldError, KubeObject } from "../../api/index.js";
import {
  validatePersistentVolume,
  validatePersistentVolumeClaim,
  validateStorageClass,
} from "./storage-validation.js";

const messages = (errors: FieldError[]) => errors.map((e) => `${e.field}: ${e.detail}`);

const sc = (extra: Record<string, unknown> = {}): KubeObject => ({
  apiVersion: "storage.k8s.io/v1",
  kind: "StorageClass",
  metadata: { name: "fast" },
  provisioner: "example.com/disk",
  reclaimPolicy: "Delete",
  volumeBindingMode: "Immediate",
  ...extra,
});

const pv = (spec: Record<string, unknown> = {}): KubeObject => ({
  apiVersion: "v1",
  kind: "PersistentVolume",
  metadata: { name: "v" },
  spec: {
    capacity: { storage: "1Gi" },
    accessModes: ["ReadWriteOnce"],
    hostPath: { path: "/data" },
    volumeMode: "Filesystem",
    ...spec,
  },
});

const pvc = (spec: Record<string, unknown> = {}, status?: Record<string, unknown>): KubeObject => ({
  apiVersion: "v1",
  kind: "PersistentVolumeClaim",
  metadata: { name: "c", namespace: "ns" },
  spec: {
    accessModes: ["ReadWriteOnce"],
    resources: { requests: { storage: "1Gi" } },
    volumeMode: "Filesystem",
    ...spec,
  },
  ...(status ? { status } : {}),
});

describe("validateStorageClass", () => {
  it("accepts a good class and requires a qualified provisioner", () => {
    assert.deepEqual(validateStorageClass(sc(), undefined), []);
    assert.deepEqual(messages(validateStorageClass(sc({ provisioner: "" }), undefined)), [
      "provisioner: Required value",
    ]);
    assert.equal(validateStorageClass(sc({ provisioner: "not a name!" }), undefined).length, 1);
  });

  it("supports only kube's policies and modes", () => {
    assert.deepEqual(
      messages(validateStorageClass(sc({ volumeBindingMode: "Later" }), undefined)),
      [
        'volumeBindingMode: Unsupported value: "Later": supported values: "Immediate", "WaitForFirstConsumer"',
      ],
    );
    assert.equal(
      validateStorageClass(sc({ reclaimPolicy: "Recycle" }), undefined)[0]?.reason,
      "FieldValueNotSupported",
    );
  });

  it("keeps what may not change and lets the rest change", () => {
    const old = sc({ parameters: { a: "1" } });
    assert.deepEqual(
      validateStorageClass(sc({ parameters: { a: "1" }, allowVolumeExpansion: true }), old),
      [],
    );
    assert.deepEqual(
      messages(
        validateStorageClass(
          sc({ parameters: { a: "2" }, volumeBindingMode: "WaitForFirstConsumer" }),
          old,
        ),
      ),
      [
        "parameters: Forbidden: updates to parameters are forbidden.",
        'volumeBindingMode: Invalid value: "WaitForFirstConsumer": field is immutable',
      ],
    );
  });
});

describe("validatePersistentVolume", () => {
  it("accepts each single source", () => {
    assert.deepEqual(validatePersistentVolume(pv(), undefined), []);
    assert.deepEqual(
      validatePersistentVolume(
        pv({ hostPath: undefined, nfs: { server: "s", path: "/p" } }),
        undefined,
      ),
      [],
    );
    const local = pv({
      hostPath: undefined,
      local: { path: "/mnt" },
      nodeAffinity: { required: { nodeSelectorTerms: [] } },
    });
    assert.deepEqual(validatePersistentVolume(local, undefined), []);
  });

  it("requires capacity with storage only, access modes and a known policy", () => {
    assert.deepEqual(
      messages(validatePersistentVolume(pv({ capacity: { cpu: "1" } }), undefined)),
      ['spec.capacity: Unsupported value: ["cpu"]: supported values: "storage"'],
    );
    assert.deepEqual(messages(validatePersistentVolume(pv({ accessModes: [] }), undefined)), [
      "spec.accessModes: Required value",
    ]);
    assert.equal(
      validatePersistentVolume(pv({ persistentVolumeReclaimPolicy: "Shred" }), undefined)[0]?.field,
      "spec.persistentVolumeReclaimPolicy",
    );
    assert.deepEqual(
      messages(validatePersistentVolume(pv({ claimRef: { namespace: "ns" } }), undefined)),
      ["spec.claimRef.name: Required value"],
    );
    assert.equal(
      validatePersistentVolume(pv({ storageClassName: "Bad_Name" }), undefined).length,
      1,
    );
  });

  it("keeps the source, the volume mode and a set node affinity", () => {
    const old = pv({ nodeAffinity: { required: { nodeSelectorTerms: [] } } });
    const moved = pv({
      hostPath: { path: "/other" },
      nodeAffinity: { required: { nodeSelectorTerms: [] } },
    });
    assert.deepEqual(messages(validatePersistentVolume(moved, old)), [
      "spec.persistentvolumesource: Forbidden: spec.persistentvolumesource is forbidden to update",
    ]);
    assert.equal(
      validatePersistentVolume(pv({ volumeMode: "Block" }), pv())[0]?.field,
      "spec.volumeMode",
    );
    assert.equal(validatePersistentVolume(pv(), old)[0]?.field, "spec.nodeAffinity");
    const grown = pv({ capacity: { storage: "2Gi" }, persistentVolumeReclaimPolicy: "Delete" });
    assert.deepEqual(validatePersistentVolume(grown, pv()), [], "capacity and policy may change");
  });
});

describe("validatePersistentVolumeClaim", () => {
  it("accepts a good claim and refuses a zero request", () => {
    assert.deepEqual(validatePersistentVolumeClaim(pvc(), undefined), []);
    assert.deepEqual(
      messages(
        validatePersistentVolumeClaim(
          pvc({ resources: { requests: { storage: "0" } } }),
          undefined,
        ),
      ),
      ['spec.resources[storage]: Invalid value: "0": must be greater than zero'],
    );
    assert.equal(validatePersistentVolumeClaim(pvc({ volumeMode: "Raw" }), undefined).length, 1);
  });

  it("lets binding set volumeName once and a nil class once", () => {
    const old = pvc({ storageClassName: undefined });
    assert.deepEqual(
      validatePersistentVolumeClaim(pvc({ volumeName: "v", storageClassName: "fast" }), old),
      [],
    );
    const named = pvc({ volumeName: "v", storageClassName: "fast" });
    const errors = validatePersistentVolumeClaim(
      pvc({ volumeName: "w", storageClassName: "slow" }),
      named,
    );
    assert.equal(errors.length, 1);
    assert.match(
      errors[0]!.detail,
      /^Forbidden: spec is immutable after creation except resources\.requests.*\(changed: storageClassName, volumeName\)$/,
    );
  });

  it("lets a bound claim's request grow, never shrink", () => {
    const bound = { phase: "Bound" };
    const grown = pvc({ resources: { requests: { storage: "2Gi" } } }, bound);
    assert.deepEqual(validatePersistentVolumeClaim(grown, pvc({}, bound)), []);
    const pending = { phase: "Pending" };
    const grownPending = pvc({ resources: { requests: { storage: "2Gi" } } }, pending);
    assert.equal(validatePersistentVolumeClaim(grownPending, pvc({}, pending)).length, 1);
    const shrunk = pvc({ resources: { requests: { storage: "500Mi" } } }, bound);
    assert.deepEqual(messages(validatePersistentVolumeClaim(shrunk, pvc({}, bound))), [
      "spec.resources.requests.storage: Forbidden: field can not be less than previous value",
    ]);
  });
});
