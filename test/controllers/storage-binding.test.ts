/**
 * The PV controller's claim half on the envtest tier: a claim of the default
 * class gets a volume from the local-path pool (a directory in a temp dir, a
 * PV named after the claim's uid, both bound); a claim of a static class binds
 * to the best pre-made volume; WaitForFirstConsumer waits for the scheduler's
 * node; another provisioner's class is left to it; a full pool refuses with the
 * reason; a class made default later is given to class-less claims; a grown
 * request grows the volume when the class allows it.
 */
import assert from "node:assert/strict";
import { afterEach, beforeEach, describe, it } from "node:test";
import {
  ANN_PROVISIONED_BY,
  ANN_SELECTED_NODE,
  ANN_STORAGE_PROVISIONER,
  PV_PROTECTION_FINALIZER,
  PVC_PROTECTION_FINALIZER,
  type StorageClass,
} from "../../src/api/index.js";
import { VOLUME_DIRECTORY_FINALIZER } from "../../src/controllers/storage/index.js";
import { getOrGone, waitForObject } from "../support/core-objects.js";
import { waitFor } from "../support/hearth-process.js";
import {
  boundPair,
  claimManifest,
  classManifest,
  GI,
  type StorageTestEnv,
  startStorageTest,
  volumeManifest,
} from "./storage-fixtures.js";

describe("storage controllers: binding and provisioning", () => {
  let t: StorageTestEnv;
  beforeEach(async () => {
    t = await startStorageTest();
  });
  afterEach(() => t.stop());

  const boundClaim = (name: string) =>
    waitForObject(
      `claim ${name} Bound`,
      () => t.claim(name),
      (c) => c.status?.phase === "Bound",
    );

  it("provisions a pool volume for a class-less claim through the default class", async () => {
    await t.start();
    await t.env.client.create(claimManifest("data", { className: null, storage: "2Gi" }));
    const claim = await boundClaim("data");
    assert.equal(claim.spec?.storageClassName, "local-path", "the default class was assigned");
    const name = `pvc-${claim.metadata.uid}`;
    const pv = await waitForObject(
      "the volume Bound",
      () => t.volume(name),
      (v) => v.status?.phase === "Bound",
    );
    assert.ok(boundPair(claim, pv));
    assert.equal(pv.spec?.capacity?.storage, "2Gi");
    assert.equal(claim.status?.capacity?.storage, "2Gi");
    assert.deepEqual(claim.status?.accessModes, ["ReadWriteOnce"]);
    assert.equal(pv.spec?.persistentVolumeReclaimPolicy, "Delete");
    assert.equal(pv.metadata.annotations?.[ANN_PROVISIONED_BY], "hearth.io/local-path");
    assert.equal(pv.spec?.hostPath?.path, `${t.volumesDir}/${name}`);
    assert.ok(t.hasDir(name), "the volume's directory exists in the pool");
    assert.ok(!t.hasDir(`.${name}.provisioning`), "the provisioning marker was committed");
    const has = (f: string) => (o: { metadata: { finalizers?: string[] } }) =>
      !!o.metadata.finalizers?.includes(f);
    await waitForObject(
      "the claim protected",
      () => t.claim("data"),
      has(PVC_PROTECTION_FINALIZER),
    );
    const held = await waitForObject(
      "the volume protected",
      () => t.volume(name),
      has(PV_PROTECTION_FINALIZER),
    );
    assert.ok(has(VOLUME_DIRECTORY_FINALIZER)(held), "the volume holds its directory");
    await waitFor("ProvisioningSucceeded", async () =>
      (await t.events("data")).includes(
        `ProvisioningSucceeded: Successfully provisioned volume ${name}`,
      ),
    );
  });

  it("binds a static claim to the smallest Available volume that fits its size and modes", async () => {
    const volumes = [
      volumeManifest("small", { storage: "1Gi" }),
      volumeManifest("shared-only", { storage: "5Gi", accessModes: ["ReadWriteMany"] }),
      volumeManifest("right", { storage: "5Gi" }),
      volumeManifest("big", { storage: "20Gi" }),
      volumeManifest("other-class", { storage: "5Gi", className: "slow" }),
    ];
    for (const v of volumes) await t.env.client.create(v);
    await t.start();
    // "Available" is the volume controller's word: wait for it on every volume before claiming.
    for (const v of volumes)
      await waitForObject(
        `${v.metadata.name} Available`,
        () => t.volume(v.metadata.name!),
        (pv) => pv.status?.phase === "Available",
      );
    await t.env.client.create(claimManifest("c", { className: "manual", storage: "4Gi" }));
    const claim = await boundClaim("c");
    assert.equal(claim.spec?.volumeName, "right");
    assert.equal(claim.status?.capacity?.storage, "5Gi", "the claim gets the volume's capacity");
    const pv = await t.volume("right");
    assert.ok(pv && boundPair(claim, pv));
    for (const name of ["small", "shared-only", "big", "other-class"])
      await waitForObject(
        `${name} Available and unclaimed`,
        () => t.volume(name),
        (v) => v.status?.phase === "Available" && v.spec?.claimRef === undefined,
      );
    assert.equal(t.hasDir("right"), false, "a static volume is not made in the pool");
  });

  it("binds a claim that names its volume, and one a volume is pre-bound to", async () => {
    await t.env.client.create(volumeManifest("named", { storage: "3Gi" }));
    await t.env.client.create({
      ...volumeManifest("prebound", { storage: "3Gi" }),
      spec: {
        ...volumeManifest("prebound", { storage: "3Gi" }).spec,
        claimRef: { namespace: "store", name: "wants-prebound" },
      },
    });
    await t.start();
    await t.env.client.create(
      claimManifest("wants-named", { className: "manual", volumeName: "named" }),
    );
    await t.env.client.create(claimManifest("wants-prebound", { className: "manual" }));
    await t.env.client.create(claimManifest("bystander", { className: "manual" }));
    assert.equal((await boundClaim("wants-named")).spec?.volumeName, "named");
    assert.equal((await boundClaim("wants-prebound")).spec?.volumeName, "prebound");
    await waitForObject(
      "the bystander Pending",
      () => t.claim("bystander"),
      (c) => c.status?.phase === "Pending",
    );
    assert.equal((await t.claim("bystander"))?.spec?.volumeName, undefined);
  });

  it("keeps a WaitForFirstConsumer claim Pending until a node is selected, then pins the volume there", async () => {
    await t.env.client.create(classManifest("late", { bindingMode: "WaitForFirstConsumer" }));
    await t.start();
    await t.env.client.create(claimManifest("wffc", { className: "late" }));
    await waitFor("the WaitForFirstConsumer event", async () =>
      (await t.events("wffc")).some((e) => e.startsWith("WaitForFirstConsumer:")),
    );
    const pending = await t.claim("wffc");
    assert.equal(pending?.status?.phase, "Pending");
    assert.equal(pending?.spec?.volumeName, undefined);
    const pvs = await t.env.client.list({ apiVersion: "v1", kind: "PersistentVolume" });
    assert.equal(pvs.items.length, 0, "nothing provisioned before a consumer");
    await t.env.client.update({
      ...pending!,
      metadata: { ...pending!.metadata, annotations: { [ANN_SELECTED_NODE]: "node-a" } },
    });
    const claim = await boundClaim("wffc");
    const pv = await t.volume(claim.spec!.volumeName!);
    const terms = pv?.spec?.nodeAffinity?.required?.nodeSelectorTerms ?? [];
    assert.deepEqual(terms[0]?.matchExpressions, [
      { key: "kubernetes.io/hostname", operator: "In", values: ["node-a"] },
    ]);
  });

  it("leaves a claim of another provisioner's class to it, announced on the claim", async () => {
    await t.env.client.create(classManifest("ext", { provisioner: "example.com/nfs" }));
    await t.start();
    await t.env.client.create(claimManifest("e", { className: "ext" }));
    const claim = await waitForObject(
      "the claim announced to example.com/nfs",
      () => t.claim("e"),
      (c) => c.metadata.annotations?.[ANN_STORAGE_PROVISIONER] === "example.com/nfs",
    );
    assert.equal(claim.status?.phase, "Pending");
    await waitFor("ExternalProvisioning", async () =>
      (await t.events("e")).some((e) => e.startsWith("ExternalProvisioning:")),
    );
    const pvs = await t.env.client.list({ apiVersion: "v1", kind: "PersistentVolume" });
    assert.equal(pvs.items.length, 0);
  });

  it("reports a missing class and a full pool, and provisions what still fits", async () => {
    await t.start({ poolBytes: 3n * GI });
    await t.env.client.create(claimManifest("no-class", { className: "nope" }));
    await t.env.client.create(claimManifest("fits", { storage: "2Gi" }));
    await boundClaim("fits");
    await t.env.client.create(claimManifest("too-big", { storage: "2Gi" }));
    await waitFor("the pool refused", async () =>
      (await t.events("too-big")).some(
        (e) =>
          e.startsWith("ProvisioningFailed: not enough space in the volume pool") &&
          e.includes("free 1Gi"),
      ),
    );
    await waitFor("the class reported missing", async () =>
      (await t.events("no-class")).includes(
        'ProvisioningFailed: storageclass.storage.k8s.io "nope" not found',
      ),
    );
    for (const name of ["too-big", "no-class"])
      assert.equal((await t.claim(name))?.status?.phase, "Pending");
    // Space comes back exactly when the first volume is freed: the waiting claim then binds.
    await t.env.client.delete({
      apiVersion: "v1",
      kind: "PersistentVolumeClaim",
      namespace: "store",
      name: "fits",
    });
    await boundClaim("too-big");
  });

  it("gives class-less claims a class made default later, and keeps an admin's default", async () => {
    await t.env.client.create(
      classManifest("fast", { isDefault: true, provisioner: "example.com/fast" }),
    );
    await t.start();
    const local = await waitForObject(
      "local-path created",
      () =>
        getOrGone<StorageClass>(t.env.client, {
          apiVersion: "storage.k8s.io/v1",
          kind: "StorageClass",
          name: "local-path",
        }),
      () => true,
    );
    assert.equal(
      local.metadata.annotations?.["storageclass.kubernetes.io/is-default-class"],
      undefined,
      "local-path is not made default beside the admin's",
    );
    await t.env.client.create(claimManifest("x", { className: null }));
    await waitForObject(
      "x given the admin's default",
      () => t.claim("x"),
      (c) => c.spec?.storageClassName === "fast",
    );
  });

  it("grows a bound pool volume with its claim's request while the pool has room", async () => {
    await t.start({ poolBytes: 4n * GI });
    await t.env.client.create(claimManifest("grow", { storage: "1Gi" }));
    await t.env.client.create(claimManifest("stay", { storage: "1Gi" }));
    const resize = async (name: string, storage: string) => {
      const c = await boundClaim(name);
      await t.env.client.update({
        ...c,
        spec: { ...c.spec, resources: { requests: { storage } } },
      });
    };
    await resize("grow", "3Gi");
    const grown = await waitForObject(
      "grow's capacity 3Gi",
      () => t.claim("grow"),
      (c) => c.status?.capacity?.storage === "3Gi",
    );
    assert.equal((await t.volume(grown.spec!.volumeName!))?.spec?.capacity?.storage, "3Gi");
    await waitFor("VolumeResizeSuccessful", async () =>
      (await t.events("grow")).some((e) => e.startsWith("VolumeResizeSuccessful:")),
    );
    // 3Gi + 1Gi of 4Gi are taken: one more GiB for "stay" does not fit.
    await resize("stay", "2Gi");
    await waitFor("VolumeResizeFailed", async () =>
      (await t.events("stay")).some((e) =>
        e.startsWith("VolumeResizeFailed: not enough space in the volume pool"),
      ),
    );
    const stay = await t.claim("stay");
    assert.equal(stay?.status?.capacity?.storage, "1Gi");
    assert.equal((await t.volume(stay!.spec!.volumeName!))?.spec?.capacity?.storage, "1Gi");
  });
});
