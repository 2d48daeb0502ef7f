/**
 * The runtime's Informer against an in-process apiserver: initial list, then
 * watched adds, updates and deletes, with the cache following.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { createHttpClient, type HttpClient } from "../../src/client/index.js";
import { Informer } from "../../src/runtime/index.js";
import { waitFor } from "../support/hearth-process.js";
import { type InProcessServer, startInProcess } from "../support/in-process.js";

describe("Informer", () => {
  let s: InProcessServer;
  let client: HttpClient;
  const cm = (name: string, v = "1") => ({
    apiVersion: "v1",
    kind: "ConfigMap",
    metadata: { name, namespace: "default" },
    data: { v },
  });

  before(async () => {
    s = await startInProcess();
    client = createHttpClient({ server: s.url });
  });
  after(async () => {
    client?.close();
    await s?.stop();
  });

  it("lists, then follows changes", async () => {
    await client.create(cm("before"));
    const events: string[] = [];
    const informer = new Informer(client, {
      apiVersion: "v1",
      kind: "ConfigMap",
      namespace: "default",
      retryMs: 20,
    });
    informer.addHandlers({
      onAdd: (o) => events.push(`add ${o.metadata.name}`),
      onUpdate: (_old, o) =>
        events.push(`update ${o.metadata.name} ${(o.data as { v: string }).v}`),
      onDelete: (o) => events.push(`delete ${o.metadata.name}`),
    });
    const stop = new AbortController();
    const running = informer.run(stop.signal);
    try {
      assert.ok(await informer.waitForSync(stop.signal));
      assert.deepEqual(events, ["add before"]);
      await client.create(cm("x"));
      await client.patch(
        { apiVersion: "v1", kind: "ConfigMap", name: "x", namespace: "default" },
        { data: { v: "2" } },
        { type: "merge" },
      );
      await client.delete({
        apiVersion: "v1",
        kind: "ConfigMap",
        name: "before",
        namespace: "default",
      });
      await waitFor("watched changes", () => events.length === 4);
      assert.deepEqual(events, ["add before", "add x", "update x 2", "delete before"]);
      assert.equal(informer.get("default/x")?.metadata.name, "x");
      assert.equal(informer.list().length, 1);
    } finally {
      stop.abort();
      await running;
    }
  });
});
