/** The Etcd app's admission rules: its name, odd replicas, a size above zero, a sticky storage class. */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { KubeObject } from "../../../api/index.js";
import { type EtcdAdmissionRequest, etcdSpecErrors } from "./admission.js";

const etcd = (spec: Record<string, unknown>, name = "etcd"): KubeObject => ({
  apiVersion: "apps.cozystack.io/v1alpha1",
  kind: "Etcd",
  metadata: { name, namespace: "tenant-a" },
  spec,
});

const create = (spec: Record<string, unknown>, name = "etcd"): EtcdAdmissionRequest => ({
  operation: "CREATE",
  name,
  object: etcd(spec, name),
  oldObject: undefined,
});

const update = (old: Record<string, unknown>, spec: Record<string, unknown>) => ({
  operation: "UPDATE",
  name: "etcd",
  object: etcd(spec),
  oldObject: etcd(old),
});

const fields = (req: EtcdAdmissionRequest) => etcdSpecErrors(req).map((e) => e.field);

describe("etcdSpecErrors", () => {
  it("accepts Cozystack's defaults and odd replica counts", () => {
    for (const replicas of [1, 3, 5])
      assert.deepEqual(etcdSpecErrors(create({ replicas, size: "4Gi", storageClass: "" })), []);
    assert.deepEqual(etcdSpecErrors(create({})), []);
  });

  it("refuses an even replica count, saying why", () => {
    const [error] = etcdSpecErrors(create({ replicas: 2 }));
    assert.equal(error!.field, "spec.replicas");
    assert.match(
      error!.detail,
      /must be odd \(1, 3, 5…\): 2 members tolerate no more failures than 1/,
    );
    assert.deepEqual(fields(create({ replicas: 4 })), ["spec.replicas"]);
  });

  it("refuses replicas below one and sizes that are not above zero", () => {
    assert.deepEqual(fields(create({ replicas: -1 })), ["spec.replicas"]);
    assert.deepEqual(fields(create({ replicas: 0 })), ["spec.replicas"]);
    for (const size of ["abc", "0", "-1Gi", 0])
      assert.deepEqual(fields(create({ size })), ["spec.size"], String(size));
    assert.deepEqual(fields(create({ size: 1073741824 })), []);
  });

  it("installs only as etcd", () => {
    const [error] = etcdSpecErrors(create({}, "other"));
    assert.equal(error!.field, "metadata.name");
    assert.match(error!.detail, /installed once per tenant namespace, as etcd/);
  });

  it("keeps the storage class chosen at creation", () => {
    assert.deepEqual(fields(update({ storageClass: "" }, { storageClass: "fast" })), [
      "spec.storageClass",
    ]);
    assert.deepEqual(fields(update({ storageClass: "fast" }, { storageClass: "slow" })), [
      "spec.storageClass",
    ]);
    assert.deepEqual(
      fields(update({ storageClass: "fast", replicas: 1 }, { storageClass: "fast", replicas: 3 })),
      [],
    );
  });
});
