/**
 * The PV controller cut short, on the envtest tier. The controllers run on a
 * client that "dies" right after one step of provisioning or binding (the PV
 * created, its claimRef written, its phase Bound, the claim's volumeName
 * written, the directory removed on reclaim); a new Manager on the same
 * apiserver must finish the job: one volume per claim, bound both ways, its
 * directory present, no provisioning marker left. Also a competing write just
 * before the claim's bind: the write conflicts, and the retry converges.
 */
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, it } from "node:test";
import type { PersistentVolume } from "../../src/api/index.js";
import { VolumePool } from "../../src/controllers/storage/index.js";
import {
  type Call,
  type Crash,
  conflictBefore,
  crashAfter,
  intercept,
  isWrite,
  type ManagerRun,
} from "../support/controller-run.js";
import { waitForObject, waitGone } from "../support/core-objects.js";
import { waitFor } from "../support/hearth-process.js";
import {
  boundPair,
  claimManifest,
  NS,
  type StorageTestEnv,
  startStorageTest,
  volumeManifest,
} from "./storage-fixtures.js";

const writes = (method: string, kind: string) => (c: Call) => isWrite(c, kind, method);

const naming = (c: Call) =>
  writes("update", "PersistentVolumeClaim")(c) &&
  !!(c.args[0] as { spec?: { volumeName?: string } }).spec?.volumeName;
const STATIC_PV = "static-pv";

/**
 * The binding transaction and provisioning, step by step (see binding.ts): a
 * pool volume's, and a pre-made (static) volume's, whose claimRef is written too.
 */
const STEPS: { step: string; is: (c: Call) => boolean; static?: boolean; last?: boolean }[] = [
  { step: "the PV created", is: writes("create", "PersistentVolume") },
  { step: "the PV's phase written", is: writes("updateStatus", "PersistentVolume") },
  { step: "the claim's volumeName written", is: naming },
  {
    step: "the claim's status written",
    is: writes("updateStatus", "PersistentVolumeClaim"),
    last: true,
  },
  {
    step: "a static PV's claimRef written",
    is: writes("update", "PersistentVolume"),
    static: true,
  },
  { step: "a static claim's volumeName written", is: naming, static: true },
];

describe("storage controllers: crash between steps, conflicts", () => {
  let t: StorageTestEnv;
  beforeEach(async () => {
    t = await startStorageTest();
  });
  afterEach(() => t.stop());

  async function convergedClaim(name: string, volumeName?: string) {
    const claim = await waitForObject(
      `${name} Bound after the restart`,
      () => t.claim(name),
      (c) => c.status?.phase === "Bound",
    );
    const pvName = volumeName ?? `pvc-${claim.metadata.uid}`;
    const pv = await waitForObject(
      "its volume Bound",
      () => t.volume(pvName),
      (v) => v.status?.phase === "Bound",
    );
    assert.ok(boundPair(claim, pv), "bound both ways");
    const all = await t.env.client.list<PersistentVolume>({
      apiVersion: "v1",
      kind: "PersistentVolume",
    });
    assert.deepEqual(
      all.items.map((v) => v.metadata.name),
      [pvName],
      "exactly one volume for the claim",
    );
    assert.equal(t.hasDir(pvName), volumeName === undefined, "a pool volume has its directory");
    assert.equal(existsSync(join(t.volumesDir, `.${pvName}.provisioning`)), false);
    return { claim, pv };
  }

  /**
   * Waits until the crash has cut the Manager off (calls refused), stops it,
   * and checks that (unless `step` was the binding's last write)
   * the claim is not Bound yet — the restart has work left.
   */
  async function crashedAt(crash: Crash<unknown>, run: ManagerRun<void>, last = false) {
    // The crash failed the Manager's calls from there on (bounded: a crash that never comes fails).
    await waitFor("the crash", () => crash.refused() > 0);
    await run.stop();
    const claim = await t.claim("c");
    assert.equal(claim?.status?.phase === "Bound", last, "the binding stopped at the crash");
  }

  for (const { step, is, static: isStatic, last } of STEPS) {
    it(`a restart after ${step} finishes ${isStatic ? "binding" : "provisioning and binding"}`, async () => {
      if (isStatic) await t.env.client.create(volumeManifest(STATIC_PV, { storage: "2Gi" }));
      const crash = crashAfter(t.env.client, is);
      const run = await t.start({ client: crash.client });
      await t.env.client.create(
        claimManifest("c", isStatic ? { className: "manual" } : { className: null }),
      );
      await crashedAt(crash, run, last);
      await t.start();
      await convergedClaim("c", isStatic ? STATIC_PV : undefined);
    });
  }

  it("a restart after the claim's default class was assigned provisions once", async () => {
    const crash = crashAfter(t.env.client, writes("update", "PersistentVolumeClaim"));
    const run = await t.start({ client: crash.client });
    await t.env.client.create(claimManifest("d", { className: null }));
    // The crash failed the Manager's calls from there on (bounded: a crash that never comes fails).
    await waitFor("the crash", () => crash.refused() > 0);
    await run.stop();
    const after = await t.claim("d");
    assert.equal(after?.spec?.storageClassName, "local-path", "the first write landed");
    assert.equal(after?.spec?.volumeName, undefined, "and nothing after it");
    await t.start();
    await convergedClaim("d");
  });

  it("a restart after the directory was removed on reclaim deletes the PV", async () => {
    let dead = false;
    class CrashingPool extends VolumePool {
      override async remove(name: string): Promise<void> {
        await super.remove(name);
        dead = true; // the process dies right after the directory went
      }
    }
    const client = intercept(t.env.client, {
      before() {
        if (dead) throw new Error("crashed: the process is gone");
      },
    });
    await t.start({ client, pool: (d, b) => new CrashingPool(d, b) });
    await t.env.client.create(claimManifest("r"));
    const { pv } = await convergedClaim("r");
    const pvName = pv.metadata.name!;
    await t.env.client.delete({
      apiVersion: "v1",
      kind: "PersistentVolumeClaim",
      namespace: NS,
      name: "r",
    });
    await waitForObject(
      "the directory removed",
      async () => (t.hasDir(pvName) ? undefined : pv),
      () => dead,
    );
    assert.ok(await t.volume(pvName), "the PV outlived the crash");
    await t.start();
    await waitGone("the PV after the restart", () => t.volume(pvName));
  });

  it("a write that conflicts with the claim's bind is retried until bound", async () => {
    // Someone else writes the claim first: the controller's write carries a stale revision.
    const { client, seen } = conflictBefore(
      t.env.client,
      (call) =>
        writes("update", "PersistentVolumeClaim")(call) &&
        "volumeName" in ((call.args[0] as { spec?: object }).spec ?? {}),
      (call, nth) =>
        t.env.client.patch(
          {
            apiVersion: "v1",
            kind: "PersistentVolumeClaim",
            namespace: NS,
            name: (call.args[0] as { metadata: { name: string } }).metadata.name,
          },
          { metadata: { labels: { [`other-${nth}`]: "yes" } } },
          { type: "merge" },
        ),
      2,
    );
    await t.start({ client });
    await t.env.client.create(claimManifest("raced"));
    const { claim } = await convergedClaim("raced");
    assert.equal(seen.interfered, 2, "two bind attempts were raced");
    assert.equal(seen.conflicts, 2, "and both conflicted");
    assert.equal(claim.metadata.labels?.["other-1"], "yes", "the other writer's change is kept");
    assert.equal(claim.metadata.labels?.["other-2"], "yes");
  });
});
