/**
 * The volume pool's accounting and the PV controller's other paths, in process:
 * a claim that does not fit stays Pending with the reason and gets its volume
 * when space comes back; a directory that cannot be removed leaves the PV Failed
 * with an Event until a retry succeeds; claims bind to the smallest fitting
 * static volume; a static Delete volume that nothing can free goes Failed.
 */
import assert from "node:assert/strict";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import type { PersistentVolume, PersistentVolumeClaim } from "../../src/api/storage.js";
import type { KubeObject } from "../../src/api/types.js";
import { VolumePool } from "../../src/controllers/index.js";
import { waitFor } from "../support/hearth-process.js";
import { claimYaml, type StorageEnv, startStorageEnv } from "../support/storage-env.js";

/** A pool whose removals fail while `failing` is set, as a busy mount would. */
class FlakyPool extends VolumePool {
  failing = false;
  override async remove(name: string): Promise<void> {
    if (this.failing) throw new Error("EBUSY: resource busy or locked");
    return super.remove(name);
  }
}

const GI = 1024n ** 3n;

describe("volume pool", () => {
  let env: StorageEnv;
  let pool: FlakyPool;
  let hostDir: string;
  const claim = (name: string) =>
    env.get<PersistentVolumeClaim>("PersistentVolumeClaim", name, "default");
  const volume = (name: string) => env.get<PersistentVolume>("PersistentVolume", name);
  const phase = (name: string, want: string) =>
    waitFor(`claim ${name} ${want}`, async () => {
      const c = await claim(name);
      return c?.status?.phase === want ? c : undefined;
    });
  const eventAbout = (name: string, reason: string, message: RegExp) =>
    waitFor(`${reason} event about ${name}`, async () => {
      const events = await env.client.list(
        { apiVersion: "v1", kind: "Event" },
        {
          namespace: "default",
          fieldSelector: `involvedObject.name=${name},reason=${reason}`,
        },
      );
      return events.items.find((e: KubeObject) => message.test(String(e.message)));
    });

  before(async () => {
    hostDir = mkdtempSync(join(tmpdir(), "hearth-static-pv-"));
    env = await startStorageEnv({
      poolBytes: 3n * GI,
      pool: (dir) => {
        pool = new FlakyPool(dir, 3n * GI);
        return pool;
      },
    });
    await waitFor("the default class", () => env.get("StorageClass", "local-path"));
  });
  after(async () => {
    await env?.stop();
    rmSync(hostDir, { recursive: true, force: true });
  });

  it("leaves a claim that does not fit Pending with the reason, and serves it when space returns", async () => {
    await env.kubectlOk(["apply", "-f", "-"], claimYaml("a", "1Gi"));
    await phase("a", "Bound");
    await env.kubectlOk(["apply", "-f", "-"], claimYaml("big", "5Gi"));
    await eventAbout(
      "big",
      "ProvisioningFailed",
      /^not enough space in the volume pool \(requested 5Gi, free 2Gi\)$/,
    );
    assert.match(await env.kubectlOk(["get", "pvc", "big"]), /big\s+Pending\s+local-path/);

    await env.kubectlOk(["apply", "-f", "-"], claimYaml("b", "2Gi"));
    const b = await phase("b", "Bound");
    await env.kubectlOk(["apply", "-f", "-"], claimYaml("c", "1Gi"));
    await eventAbout("c", "ProvisioningFailed", /requested 1Gi, free 0\)/);
    assert.equal((await claim("c"))?.status?.phase, "Pending");

    await env.kubectlOk(["delete", "pvc", "b"]);
    await waitFor("b's volume gone", async () => (await volume(b.spec!.volumeName!)) === undefined);
    await phase("c", "Bound");
    assert.equal((await claim("big"))?.status?.phase, "Pending", "5Gi still does not fit");
    await env.kubectlOk(["delete", "pvc", "big", "c", "a"]);
  });

  it("leaves a PV Failed with an Event while its directory cannot be removed, then frees it", async () => {
    await env.kubectlOk(["apply", "-f", "-"], claimYaml("flaky", "1Gi"));
    const c = await phase("flaky", "Bound");
    const pvName = c.spec!.volumeName!;
    pool.failing = true;
    try {
      await env.kubectlOk(["delete", "pvc", "flaky"]);
      const failed = await waitFor("the PV Failed", async () => {
        const pv = await volume(pvName);
        return pv?.status?.phase === "Failed" ? pv : undefined;
      });
      assert.equal(failed.status?.reason, "VolumeFailedDelete");
      assert.match(
        failed.status?.message ?? "",
        /cannot remove the directory of volume pvc-\S+: EBUSY/,
      );
      await eventAbout(pvName, "VolumeFailedDelete", /EBUSY/);
      assert.ok(existsSync(join(env.volumesDir, pvName)), "the directory is still there");
      assert.match(
        await env.kubectlOk(["get", "pv", pvName]),
        /Failed\s+default\/flaky\s+local-path\s+<unset>\s+VolumeFailedDelete/,
      );
    } finally {
      pool.failing = false;
    }
    await waitFor(
      "the PV gone after a retry",
      async () => (await volume(pvName)) === undefined,
      30_000,
    );
    assert.equal(existsSync(join(env.volumesDir, pvName)), false);
  });

  it("binds a claim to the smallest fitting static volume and releases it by its policy", async () => {
    const pv = (name: string, size: string, policy: string) =>
      [
        "apiVersion: v1",
        "kind: PersistentVolume",
        "metadata:",
        `  name: ${name}`,
        "spec:",
        `  capacity: {storage: ${size}}`,
        "  accessModes: [ReadWriteOnce]",
        `  persistentVolumeReclaimPolicy: ${policy}`,
        "  storageClassName: manual",
        `  hostPath: {path: ${join(hostDir, name)}}`,
        "",
      ].join("\n");
    await env.kubectlOk(
      ["apply", "-f", "-"],
      `${pv("large", "10Gi", "Retain")}---\n${pv("small", "1Gi", "Delete")}`,
    );
    await waitFor(
      "static volumes Available",
      async () => (await volume("small"))?.status?.phase === "Available",
    );
    await env.kubectlOk(
      ["apply", "-f", "-"],
      claimYaml("static", "500Mi", { storageClassName: "manual" }),
    );
    const c = await phase("static", "Bound");
    assert.equal(c.spec?.volumeName, "small");
    assert.equal(c.status?.capacity?.storage, "1Gi");
    const small = (await volume("small"))!;
    assert.equal(small.spec?.claimRef?.uid, c.metadata.uid);
    assert.equal(small.metadata.annotations?.["pv.kubernetes.io/bound-by-controller"], "yes");
    assert.equal((await volume("large"))?.status?.phase, "Available");

    await env.kubectlOk(["delete", "pvc", "static"]);
    const failed = await waitFor("the static Delete volume Failed", async () => {
      const v = await volume("small");
      return v?.status?.phase === "Failed" ? v : undefined;
    });
    assert.match(failed.status?.message ?? "", /not provisioned by this cluster's volume pool/);
    await env.kubectlOk(["delete", "pv", "small", "large"]);
  });
});
