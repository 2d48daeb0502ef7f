/**
 * Edge cases of the storage controllers on the envtest tier: a claim naming a
 * volume that another claim holds, or one too small for it; a claim with no
 * class and no volume to match; local-path refusing a Block claim and a claim
 * selector (no PV, no directory); a static volume whose claimRef names a claim
 * bound to another volume is released back to Available.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import type { PersistentVolume, PersistentVolumeClaim } from "../../src/api/index.js";
import { uniqueName, waitForObject } from "../support/core-objects.js";
import { waitFor } from "../support/hearth-process.js";
import {
  boundPair,
  claimManifest,
  NS,
  type StorageTestEnv,
  startStorageTest,
  volumeManifest,
} from "./storage-fixtures.js";

describe("storage controllers: binding edge cases", () => {
  let t: StorageTestEnv;
  before(async () => {
    t = await startStorageTest();
    await t.start();
  });
  after(() => t.stop());

  const claimWhere = (name: string, what: string, ok: (c: PersistentVolumeClaim) => boolean) =>
    waitForObject(`claim ${name} ${what}`, () => t.claim(name), ok);
  const volumeWhere = (name: string, what: string, ok: (v: PersistentVolume) => boolean) =>
    waitForObject(`volume ${name} ${what}`, () => t.volume(name), ok);
  const eventMatching = (name: string, pattern: RegExp) =>
    waitFor(`an event about ${name} matching ${pattern}`, async () => {
      const events = await t.events(name);
      return events.some((e) => pattern.test(e)) ? events : undefined;
    });
  const bound = async (claim: string, volume: string) => {
    const c = await claimWhere(claim, "Bound", (x) => x.status?.phase === "Bound");
    const v = await volumeWhere(volume, "Bound", (x) => x.status?.phase === "Bound");
    assert.ok(boundPair(c, v), `${claim} and ${volume} bound to each other`);
  };

  it("a claim naming a volume another claim holds stays Pending, and the holder keeps it", async () => {
    const pv = uniqueName("held");
    const [owner, late] = [uniqueName("owner"), uniqueName("late")];
    await t.env.client.create(volumeManifest(pv));
    await t.env.client.create(claimManifest(owner, { className: "manual", volumeName: pv }));
    await bound(owner, pv);
    await t.env.client.create(claimManifest(late, { className: "manual", volumeName: pv }));
    await eventMatching(
      late,
      new RegExp(`^FailedBinding: volume "${pv}" already bound to a different claim\\.$`),
    );
    const c = await claimWhere(late, "Pending", (x) => x.status?.phase === "Pending");
    assert.equal(c.spec?.volumeName, pv);
    await bound(owner, pv);
  });

  it("a claim naming a volume too small for it is not bound, and the volume stays Available", async () => {
    const pv = uniqueName("small");
    const claim = uniqueName("big");
    await t.env.client.create(volumeManifest(pv, { storage: "1Gi" }));
    await volumeWhere(pv, "Available", (v) => v.status?.phase === "Available");
    await t.env.client.create(
      claimManifest(claim, { className: "manual", volumeName: pv, storage: "2Gi" }),
    );
    await eventMatching(
      claim,
      new RegExp(
        `^FailedBinding: Cannot bind to requested volume "${pv}": requested PV is too small$`,
      ),
    );
    const v = await t.volume(pv);
    assert.equal(v?.spec?.claimRef, undefined);
    assert.equal(v?.status?.phase, "Available");
    assert.notEqual((await t.claim(claim))?.status?.phase, "Bound");
  });

  it("a claim with no class and no matching volume waits, saying so", async () => {
    const claim = uniqueName("classless");
    await t.env.client.create(claimManifest(claim, { className: "", storage: "1Ti" }));
    await eventMatching(
      claim,
      /^FailedBinding: no persistent volumes available for this claim and no storage class is set$/,
    );
    const c = await claimWhere(claim, "Pending", (x) => x.status?.phase === "Pending");
    assert.equal(c.spec?.storageClassName, "");
    assert.equal(c.spec?.volumeName, undefined);
  });

  const refused: {
    what: string;
    spec: Partial<NonNullable<PersistentVolumeClaim["spec"]>>;
    message: RegExp;
  }[] = [
    {
      what: "a Block claim",
      spec: { volumeMode: "Block" },
      message: /provides only volumeMode Filesystem$/,
    },
    {
      what: "a claim selector",
      spec: { selector: { matchLabels: { tier: "gold" } } },
      message: /^ProvisioningFailed: claim Selector is not supported for dynamic provisioning$/,
    },
  ];
  for (const r of refused)
    it(`local-path refuses ${r.what}: no volume, no directory`, async () => {
      const name = uniqueName("refused");
      const base = claimManifest(name);
      const claim = await t.env.client.create<PersistentVolumeClaim>({
        ...base,
        spec: { ...base.spec, ...r.spec },
      } as PersistentVolumeClaim);
      await eventMatching(name, r.message);
      const pvName = `pvc-${claim.metadata.uid}`;
      assert.equal(await t.volume(pvName), undefined);
      assert.equal(t.hasDir(pvName), false);
      const c = await claimWhere(name, "Pending", (x) => x.status?.phase === "Pending");
      assert.equal(c.spec?.volumeName, undefined);
    });

  it("a static volume whose claimRef names a claim bound elsewhere is released to Available", async () => {
    const [pvA, pvB] = [uniqueName("first"), uniqueName("second")];
    const claim = uniqueName("owner2");
    await t.env.client.create(volumeManifest(pvA));
    await t.env.client.create(claimManifest(claim, { className: "manual", volumeName: pvA }));
    await bound(claim, pvA);
    const c = await t.claim(claim);
    // A second volume pre-bound to the same claim, by uid: the claim has another volume.
    const b = volumeManifest(pvB);
    await t.env.client.create({
      ...b,
      spec: {
        ...b.spec,
        claimRef: {
          apiVersion: "v1",
          kind: "PersistentVolumeClaim",
          namespace: NS,
          name: claim,
          uid: c!.metadata.uid!,
        },
      },
    });
    const freed = await volumeWhere(
      pvB,
      "released to Available",
      (v) => v.status?.phase === "Available" && v.spec?.claimRef === undefined,
    );
    assert.equal(freed.spec?.hostPath?.path, `/srv/${pvB}`);
    await bound(claim, pvA);
  });
});
