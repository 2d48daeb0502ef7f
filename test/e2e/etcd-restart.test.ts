/**
 * An apiserver on the etcd backend across a restart of the real etcd (SIGKILL,
 * then the same data directory and address): an informer's watch breaks, it
 * relists once etcd answers again and then sees changes made after the
 * restart; the apiserver's own caches (the CRD registry) follow again too, so a
 * CustomResourceDefinition created after the restart is served.
 */
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import type { KubeObject } from "../../src/api/types.js";
import { createHttpClient, type HttpClient } from "../../src/client/index.js";
import { Informer } from "../../src/runtime/index.js";
import { openEtcdBackend } from "../../src/storage/index.js";
import { type EtcdProcess, startEtcd } from "../support/etcd-process.js";
import { waitFor } from "../support/hearth-process.js";
import { type InProcessServer, startInProcess } from "../support/in-process.js";
import { openCrd } from "../support/open-crd.js";

const CM = "/api/v1/namespaces/default/configmaps";

const configMap = (name: string, v: string) =>
  JSON.stringify({ apiVersion: "v1", kind: "ConfigMap", metadata: { name }, data: { v } });

const widgets = JSON.stringify(openCrd("restart.example.com", "Widget", "widgets"));

describe("an apiserver on etcd across an etcd restart", () => {
  let dir: string;
  let etcd: EtcdProcess;
  let s: InProcessServer;
  let client: HttpClient;

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), "hearth-etcd-restart-"));
    etcd = await startEtcd({ dir });
    const backend = await openEtcdBackend({ endpoints: [etcd.endpoint], prefix: "/hearth" });
    s = await startInProcess({ backend });
    client = createHttpClient({ server: s.url });
  });
  after(async () => {
    client?.close();
    await s?.stop();
    await etcd?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it("relists an informer and serves what was written after the restart", async () => {
    assert.equal((await s.request("POST", CM, configMap("before", "1"))).status, 201);
    const events: string[] = [];
    const informer = new Informer(client, {
      apiVersion: "v1",
      kind: "ConfigMap",
      namespace: "default",
      retryMs: 50,
    });
    informer.addHandlers({
      onAdd: (o) => events.push(`add ${o.metadata.name}`),
      onUpdate: (_old, o) => events.push(`update ${o.metadata.name} ${data(o).v}`),
      onDelete: (o) => events.push(`delete ${o.metadata.name}`),
    });
    const stop = new AbortController();
    const running = informer.run(stop.signal);
    try {
      assert.ok(await informer.waitForSync(stop.signal));
      assert.deepEqual(events, ["add before"]);

      await etcd.kill();
      etcd = await startEtcd({ dir, address: etcd.address });
      await waitFor(
        "a write through the apiserver after etcd came back",
        async () => (await s.request("POST", CM, configMap("after", "1"))).status === 201,
        30_000,
      );
      const patched = await s.request("PATCH", `${CM}/before`, '{"data":{"v":"2"}}', {
        "Content-Type": "application/merge-patch+json",
      });
      assert.equal(patched.status, 200, patched.text);

      await waitFor(
        "the informer sees the changes made after the restart",
        () => informer.get("default/after") && data(informer.get("default/before")).v === "2",
        30_000,
      );
      assert.deepEqual(
        events.filter((e) => e !== "add before"),
        ["add after", "update before 2"],
      );

      assert.equal(
        (
          await s.request(
            "POST",
            "/apis/apiextensions.k8s.io/v1/customresourcedefinitions",
            widgets,
          )
        ).status,
        201,
      );
      await waitFor(
        "the Widget kind is served",
        async () =>
          (await s.request("GET", "/apis/restart.example.com/v1/namespaces/default/widgets"))
            .status === 200,
        30_000,
      );
    } finally {
      stop.abort();
      await running;
    }
  });
});

function data(o: KubeObject | undefined): { v?: string } {
  return ((o as { data?: { v?: string } } | undefined)?.data ?? {}) as { v?: string };
}
