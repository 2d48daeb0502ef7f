/**
 * Restarting `hearth up` on the same data directory keeps every object, with its
 * uid and resourceVersion, and resourceVersions keep increasing — after a clean
 * SIGTERM and after a kill -9.
 */
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { type Hearth, startHearth } from "../support/hearth-process.js";

interface Obj {
  metadata: { name: string; uid: string; resourceVersion: string };
  data?: Record<string, string>;
}

describe("restart on the same data directory", () => {
  const dataDir = mkdtempSync(join(tmpdir(), "hearth-restart-"));
  const started: Hearth[] = [];
  after(async () => {
    for (const h of started) await h.cleanup();
    rmSync(dataDir, { recursive: true, force: true });
  });

  async function start(): Promise<Hearth> {
    const h = await startHearth({ dataDir });
    started.push(h);
    return h;
  }

  const manifest = (name: string, value: string) =>
    `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ${name}\n  namespace: keep\ndata:\n  v: "${value}"\n`;

  it("keeps objects and increasing resourceVersions across SIGTERM and kill -9", async () => {
    let h = await start();
    await h.kubectlOk(["create", "namespace", "keep"]);
    for (const name of ["a", "b", "c"])
      await h.kubectlOk(["apply", "-f", "-"], { input: manifest(name, name) });
    const before = JSON.parse(await h.kubectlOk(["get", "configmaps", "-n", "keep", "-o", "json"]))
      .items as Obj[];
    assert.equal(before.length, 3);
    const maxRv = Math.max(...before.map((o) => Number(o.metadata.resourceVersion)));
    assert.equal(await h.stop(), 0, "SIGTERM stops hearth cleanly");

    h = await start();
    const afterStop = JSON.parse(
      await h.kubectlOk(["get", "configmaps", "-n", "keep", "-o", "json"]),
    ).items as Obj[];
    assert.deepEqual(
      afterStop.map((o) => [o.metadata.name, o.metadata.uid, o.metadata.resourceVersion]),
      before.map((o) => [o.metadata.name, o.metadata.uid, o.metadata.resourceVersion]),
    );
    await h.kubectlOk(["apply", "-f", "-"], { input: manifest("d", "d") });
    const d = JSON.parse(
      await h.kubectlOk(["get", "configmap", "d", "-n", "keep", "-o", "json"]),
    ) as Obj;
    assert.ok(
      Number(d.metadata.resourceVersion) > maxRv,
      "resourceVersion keeps increasing after a restart",
    );

    await h.kill9();
    h = await start();
    const afterKill = JSON.parse(
      await h.kubectlOk(["get", "configmaps", "-n", "keep", "-o", "json"]),
    ).items as Obj[];
    assert.deepEqual(
      afterKill.map((o) => o.metadata.name),
      ["a", "b", "c", "d"],
    );
    await h.kubectlOk(["apply", "-f", "-"], { input: manifest("a", "changed") });
    const a = JSON.parse(
      await h.kubectlOk(["get", "configmap", "a", "-n", "keep", "-o", "json"]),
    ) as Obj;
    assert.ok(Number(a.metadata.resourceVersion) > Number(d.metadata.resourceVersion));
    assert.equal(a.data?.v, "changed");
  });
});
