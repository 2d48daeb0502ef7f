/**
 * Volumes end to end with the real kubectl against an in-process apiserver and
 * the storage controllers on a temporary pool: a claim of the default class gets
 * a PV and a directory; a pod that uses the claim keeps it Terminating; once the
 * pod is gone the claim goes, the PV is Released, its directory is removed, and
 * only then the PV object — the directory is already gone when the PV's DELETED
 * event arrives. Retain keeps the directory.
 */
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import type { PersistentVolume, PersistentVolumeClaim } from "../../src/api/storage.js";
import { waitFor } from "../support/hearth-process.js";
import {
  claimYaml,
  reconcileCount,
  type StorageEnv,
  startStorageEnv,
} from "../support/storage-env.js";

describe("volumes", () => {
  let env: StorageEnv;
  const claim = (name: string) =>
    env.get<PersistentVolumeClaim>("PersistentVolumeClaim", name, "default");
  const volume = (name: string) => env.get<PersistentVolume>("PersistentVolume", name);
  const bound = (name: string) =>
    waitFor(`claim ${name} Bound`, async () => {
      const c = await claim(name);
      return c?.status?.phase === "Bound" ? c : undefined;
    });

  before(async () => {
    env = await startStorageEnv();
    await waitFor("the default class", () => env.get("StorageClass", "local-path"));
  });
  after(async () => {
    await env?.stop();
  });

  it("provisions a directory and a bound PV for a claim of the default class", async () => {
    await env.kubectlOk(["apply", "-f", "-"], claimYaml("data", "1Gi"));
    const c = await bound("data");
    assert.equal(c.spec?.storageClassName, "local-path", "DefaultStorageClass admission");
    assert.deepEqual(c.metadata.finalizers, ["kubernetes.io/pvc-protection"]);
    const pvName = `pvc-${c.metadata.uid}`;
    assert.equal(c.spec?.volumeName, pvName);
    assert.equal(c.status?.capacity?.storage, "1Gi");
    assert.deepEqual(c.status?.accessModes, ["ReadWriteOnce"]);
    assert.equal(c.metadata.annotations?.["pv.kubernetes.io/bind-completed"], "yes");
    assert.equal(
      c.metadata.annotations?.["volume.kubernetes.io/storage-provisioner"],
      "hearth.io/local-path",
    );

    const pv = (await volume(pvName))!;
    const dir = join(env.volumesDir, pvName);
    assert.deepEqual(pv.spec?.hostPath, { path: dir, type: "Directory" });
    assert.ok(existsSync(dir), "the volume's directory exists");
    assert.equal(pv.status?.phase, "Bound");
    assert.equal(pv.spec?.persistentVolumeReclaimPolicy, "Delete");
    assert.equal(pv.spec?.claimRef?.uid, c.metadata.uid);
    assert.deepEqual(pv.metadata.finalizers?.sort(), [
      "hearth.io/volume-directory",
      "kubernetes.io/pv-protection",
    ]);
    assert.equal(
      pv.metadata.annotations?.["pv.kubernetes.io/provisioned-by"],
      "hearth.io/local-path",
    );
    assert.equal(pv.metadata.labels?.["hearth.io/volume-pool"], "local-path");

    const table = await env.kubectlOk(["get", "pvc,pv"]);
    assert.match(
      table,
      /persistentvolumeclaim\/data\s+Bound\s+pvc-\S+\s+1Gi\s+RWO\s+local-path\s+<unset>/,
    );
    assert.match(
      table,
      /persistentvolume\/pvc-\S+\s+1Gi\s+RWO\s+Delete\s+Bound\s+default\/data\s+local-path\s+<unset>/,
    );
    const classes = await env.kubectlOk(["get", "storageclass"]);
    assert.match(
      classes,
      /local-path \(default\)\s+hearth\.io\/local-path\s+Delete\s+Immediate\s+true/,
    );
  });

  it("keeps a claim in use Terminating, then frees the directory before the PV object goes", async () => {
    await env.kubectlOk(["apply", "-f", "-"], claimYaml("held", "2Gi"));
    const c = await bound("held");
    const pvName = c.spec!.volumeName!;
    const dir = join(env.volumesDir, pvName);
    await env.client.create({
      apiVersion: "v1",
      kind: "Pod",
      metadata: { name: "user", namespace: "default" },
      spec: {
        containers: [{ name: "app", image: "busybox" }],
        volumes: [{ name: "data", persistentVolumeClaim: { claimName: "held" } }],
      },
    });
    await env.client.patchStatus(
      { apiVersion: "v1", kind: "Pod", name: "user", namespace: "default" },
      { status: { phase: "Running" } },
      { type: "merge" },
    );

    // Watch the PV from now on; note whether the directory exists when DELETED arrives.
    const seen: { type: string; phase?: string; dirExists: boolean }[] = [];
    const stopWatch = new AbortController();
    const list = await env.client.list({ apiVersion: "v1", kind: "PersistentVolume" });
    const watching = (async () => {
      const events = env.client.watch<PersistentVolume>(
        { apiVersion: "v1", kind: "PersistentVolume" },
        { resourceVersion: list.metadata.resourceVersion!, signal: stopWatch.signal },
      );
      for await (const ev of events)
        if (ev.object.metadata.name === pvName)
          seen.push({ type: ev.type, phase: ev.object.status?.phase, dirExists: existsSync(dir) });
    })();

    try {
      const before = await reconcileCount("pvc-protection");
      await env.kubectlOk(["delete", "pvc", "held", "--wait=false"]);
      await waitFor(
        "pvc-protection to look at the deleted claim",
        async () => (await reconcileCount("pvc-protection")) >= before + 3,
      );
      const held = await claim("held");
      assert.ok(held?.metadata.deletionTimestamp, "the claim is being deleted");
      assert.deepEqual(held?.metadata.finalizers, ["kubernetes.io/pvc-protection"]);
      assert.match(await env.kubectlOk(["get", "pvc", "held"]), /held\s+Terminating\s+pvc-/);
      assert.equal((await volume(pvName))?.status?.phase, "Bound");
      assert.ok(existsSync(dir), "the directory stays while a pod uses the claim");

      await env.kubectlOk(["delete", "pod", "user", "--grace-period=0", "--force"]);
      await waitFor("the PV's DELETED event", () => seen.some((e) => e.type === "DELETED"), 30_000);
      assert.equal(await claim("held"), undefined, "the claim is gone");
      const deleted = seen.find((e) => e.type === "DELETED")!;
      assert.equal(deleted.dirExists, false, "the directory was gone when the PV object went");
      const phases = seen.map((e) => e.phase);
      assert.ok(phases.includes("Released"), `the PV was Released first: ${phases.join(",")}`);
      assert.equal(existsSync(dir), false);
    } finally {
      stopWatch.abort();
      await watching;
    }
  });

  it("keeps the directory of a Retain volume, also after its PV is deleted", async () => {
    await env.kubectlOk(
      ["apply", "-f", "-"],
      "apiVersion: storage.k8s.io/v1\nkind: StorageClass\nmetadata:\n  name: keep\nprovisioner: hearth.io/local-path\nreclaimPolicy: Retain\n",
    );
    await env.kubectlOk(
      ["apply", "-f", "-"],
      claimYaml("kept", "1Gi", { storageClassName: "keep" }),
    );
    const c = await bound("kept");
    const pvName = c.spec!.volumeName!;
    const dir = join(env.volumesDir, pvName);
    assert.equal((await volume(pvName))?.spec?.persistentVolumeReclaimPolicy, "Retain");
    await env.kubectlOk(["delete", "pvc", "kept"]);
    await waitFor(
      "the PV Released",
      async () => (await volume(pvName))?.status?.phase === "Released",
    );
    assert.match(
      await env.kubectlOk(["get", "pv", pvName]),
      /Retain\s+Released\s+default\/kept\s+keep/,
    );
    assert.ok(existsSync(dir), "Retain keeps the directory");
    await env.kubectlOk(["delete", "pv", pvName]);
    assert.equal(await volume(pvName), undefined);
    assert.ok(existsSync(dir), "the admin's data stays after the PV goes");
  });
});
