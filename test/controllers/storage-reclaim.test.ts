/**
 * What becomes of volumes and claims on deletion, on the envtest tier: reclaim
 * Delete frees the pool directory before the PV goes, Retain keeps both (and a
 * deleted Retain PV lets go of its directory, which stays); pvc-protection
 * holds a claim while a live pod names it; pv-protection holds a Bound volume
 * while its claim exists; a bound claim whose volume vanished goes Lost; the
 * pool's sweep removes half-made directories (at start, and each resync period on
 * the Manager's clock) and keeps an admin's; a directory
 * that cannot be removed fails the volume with the reason.
 */
import assert from "node:assert/strict";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, it } from "node:test";
import { VolumePool } from "../../src/controllers/storage/index.js";
import { FakeClock } from "../../src/runtime/index.js";
import { waitForObject, waitGone } from "../support/core-objects.js";
import { waitFor } from "../support/hearth-process.js";
import {
  claimManifest,
  classManifest,
  NS,
  podUsing,
  type StorageTestEnv,
  startStorageTest,
  volumeManifest,
} from "./storage-fixtures.js";

const PVC_REF = { apiVersion: "v1", kind: "PersistentVolumeClaim", namespace: NS };
const PV_REF = { apiVersion: "v1", kind: "PersistentVolume" };

describe("storage controllers: reclaim and protection", () => {
  let t: StorageTestEnv;
  beforeEach(async () => {
    t = await startStorageTest();
  });
  afterEach(() => t.stop());

  /** Creates a claim (of `className`), waits until it is Bound; returns its volume's name. */
  async function bound(name: string, className = "local-path"): Promise<string> {
    await t.env.client.create(claimManifest(name, { className }));
    const c = await waitForObject(
      `${name} Bound`,
      () => t.claim(name),
      (o) => o.status?.phase === "Bound",
    );
    return c.spec!.volumeName!;
  }
  const deleteClaim = (name: string) => t.env.client.delete({ ...PVC_REF, name });

  for (const { policy, keeps } of [
    { policy: "Delete" as const, keeps: false },
    { policy: "Retain" as const, keeps: true },
  ]) {
    it(`reclaim ${policy}: deleting the claim ${keeps ? "keeps" : "frees"} the volume and its directory`, async () => {
      await t.env.client.create(classManifest("c", { reclaimPolicy: policy }));
      await t.start();
      const pv = await bound("data", "c");
      writeFileSync(join(t.volumesDir, pv, "file"), "payload");
      await deleteClaim("data");
      await waitGone("the claim", () => t.claim("data"));
      if (keeps) {
        await waitForObject(
          "Released",
          () => t.volume(pv),
          (v) => v.status?.phase === "Released",
        );
        assert.ok(existsSync(join(t.volumesDir, pv, "file")), "the data stays for the admin");
        // The admin deletes the PV: it lets go of its directory, which stays.
        await t.env.client.delete({ ...PV_REF, name: pv });
        await waitGone("the retained PV", () => t.volume(pv));
        assert.ok(t.hasDir(pv), "a Retain volume's directory outlives its PV");
      } else {
        await waitGone("the PV", () => t.volume(pv));
        assert.equal(t.hasDir(pv), false, "the directory was removed");
      }
    });
  }

  it("reclaim Delete of a volume the pool did not make fails it with the reason", async () => {
    await t.env.client.create(volumeManifest("static", { reclaim: "Delete" }));
    await t.start();
    await bound("s", "manual");
    await deleteClaim("s");
    const pv = await waitForObject(
      "the static volume Failed",
      () => t.volume("static"),
      (v) => v.status?.phase === "Failed",
    );
    assert.match(pv.status?.message ?? "", /not provisioned by this cluster's volume pool/);
    await waitFor("VolumeFailedDelete", async () =>
      (await t.events("static", "")).some((e) => e.startsWith("VolumeFailedDelete:")),
    );
  });

  it("pvc-protection holds a deleted claim while a live pod names it", async () => {
    await t.start();
    await bound("held");
    const cases: { pod: string; phase?: string }[] = [
      { pod: "done", phase: "Succeeded" },
      { pod: "live" },
    ];
    for (const c of cases) {
      const pod = await t.env.client.create(podUsing(c.pod, "held"));
      if (c.phase) await t.env.client.updateStatus({ ...pod, status: { phase: c.phase } });
    }
    await deleteClaim("held");
    const held = await waitForObject(
      "the claim terminating",
      () => t.claim("held"),
      (o) => o.metadata.deletionTimestamp !== undefined,
    );
    assert.ok(held.metadata.finalizers?.includes("kubernetes.io/pvc-protection"));
    // The claim stays while "live" may still mount it (a finished pod does not count).
    await t.env.client.patch(
      { ...PVC_REF, name: "held" },
      { metadata: { labels: { nudge: "1" } } },
      { type: "merge" },
    );
    await waitForObject(
      "the nudge seen",
      () => t.claim("held"),
      (o) => o.metadata.labels?.nudge === "1",
    );
    assert.ok(await t.claim("held"), "a live pod keeps the claim");
    await t.env.client.delete(
      { apiVersion: "v1", kind: "Pod", namespace: NS, name: "live" },
      { gracePeriodSeconds: 0 },
    );
    await waitGone("the claim, once no live pod names it", () => t.claim("held"));
  });

  it("pv-protection holds a deleted Bound volume while its claim exists", async () => {
    await t.start();
    const pv = await bound("keep");
    await t.env.client.delete({ ...PV_REF, name: pv });
    await waitForObject(
      "the volume terminating",
      () => t.volume(pv),
      (v) => v.metadata.deletionTimestamp !== undefined,
    );
    // Still Bound and held while the claim lives.
    const claim = await t.claim("keep");
    assert.equal(claim?.status?.phase, "Bound");
    assert.ok((await t.volume(pv))?.metadata.finalizers?.includes("kubernetes.io/pv-protection"));
    assert.ok(t.hasDir(pv));
    await deleteClaim("keep");
    await waitGone("the volume", () => t.volume(pv));
    assert.equal(t.hasDir(pv), false, "freed through the pool, directory first");
  });

  it("marks a bound claim Lost when its volume is gone", async () => {
    await t.env.client.create(volumeManifest("vanishing"));
    await t.start();
    await bound("orphan", "manual");
    // The volume is removed behind the controllers' back: its finalizers stripped.
    await t.env.client.delete({ ...PV_REF, name: "vanishing" });
    const terminating = await waitForObject(
      "terminating",
      () => t.volume("vanishing"),
      (v) => v.metadata.deletionTimestamp !== undefined,
    );
    await t.env.client.update({
      ...terminating,
      metadata: { ...terminating.metadata, finalizers: [] },
    });
    await waitGone("the volume", () => t.volume("vanishing"));
    await waitForObject(
      "the claim Lost",
      () => t.claim("orphan"),
      (c) => c.status?.phase === "Lost",
    );
    await waitFor("ClaimLost", async () =>
      (await t.events("orphan")).some((e) => e.startsWith("ClaimLost:")),
    );
  });

  it("sweeps a half-made pool directory at start and keeps an admin's unmarked one", async () => {
    mkdirSync(join(t.volumesDir, "pvc-half"), { recursive: true });
    writeFileSync(join(t.volumesDir, ".pvc-half.provisioning"), "");
    mkdirSync(join(t.volumesDir, "kept-by-admin"), { recursive: true });
    await t.start();
    // The directory goes first, then its marker: wait for both (the sweep is one pass).
    await waitFor(
      "the half-made volume and its marker swept",
      () => !t.hasDir("pvc-half") && !existsSync(join(t.volumesDir, ".pvc-half.provisioning")),
    );
    assert.ok(t.hasDir("kept-by-admin"));
  });

  it("sweeps again each resync period on the Manager's clock", async () => {
    const clock = new FakeClock();
    await t.start({ clock });
    // The first sweep done, the housekeeping sleeps on the clock until the period ends.
    const period = clock.now() + 30_000;
    await waitFor("the resync timer", () => clock.nextDue() === period);
    mkdirSync(join(t.volumesDir, "pvc-later"), { recursive: true });
    writeFileSync(join(t.volumesDir, ".pvc-later.provisioning"), "");
    clock.advanceTo(period - 1);
    assert.ok(t.hasDir("pvc-later"), "not swept before the period");
    clock.advanceTo(period);
    await waitFor(
      "the half-made volume swept at the period",
      () => !t.hasDir("pvc-later") && !existsSync(join(t.volumesDir, ".pvc-later.provisioning")),
    );
  });

  it("fails a Delete volume whose directory cannot be removed, keeps the PV, and retries", async () => {
    let refuse = true;
    class StuckPool extends VolumePool {
      override async remove(name: string): Promise<void> {
        if (refuse) throw new Error("EBUSY: resource busy");
        await super.remove(name);
      }
    }
    await t.start({ pool: (d, b) => new StuckPool(d, b) });
    const pv = await bound("stuck");
    await deleteClaim("stuck");
    const failed = await waitForObject(
      "the volume Failed",
      () => t.volume(pv),
      (v) => v.status?.phase === "Failed",
    );
    assert.equal(failed.status?.reason, "VolumeFailedDelete");
    assert.match(failed.status?.message ?? "", /cannot remove the directory of volume .*EBUSY/);
    assert.ok(t.hasDir(pv), "the PV stays while its directory does");
    await waitFor("VolumeFailedDelete", async () =>
      (await t.events(pv, "")).some((e) => e.startsWith("VolumeFailedDelete:")),
    );
    refuse = false;
    await waitGone("the volume, once the directory could go", () => t.volume(pv));
    assert.equal(t.hasDir(pv), false);
  });
});
