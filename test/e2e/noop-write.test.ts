/**
 * A write that changes nothing is not stored, as in kube: a repeated
 * server-side apply, a PUT of the object as read and a merge patch of what
 * it already holds keep the resourceVersion and reach no watcher. Controllers
 * that re-apply what they own (the apps engine) rely on it to stay quiet.
 */
import assert from "node:assert/strict";
import { afterEach, beforeEach, describe, it } from "node:test";
import type { KubeObject, WatchEvent } from "../../src/api/types.js";
import { type Env, startEnv } from "../support/envtest.js";

const CM = { apiVersion: "v1", kind: "ConfigMap" };
const cm: KubeObject = {
  ...CM,
  metadata: { name: "x", namespace: "t", labels: { a: "b" } },
  data: { k: "v" },
};
const ref = { ...CM, name: "x", namespace: "t" };

describe("no-op writes", () => {
  let env: Env;
  beforeEach(async () => {
    env = await startEnv();
    await env.client.create({ apiVersion: "v1", kind: "Namespace", metadata: { name: "t" } });
  });
  afterEach(() => env.stop());

  it("keep the resourceVersion and send no watch event; a real change still does", async () => {
    const first = await env.client.apply(cm, { fieldManager: "m", force: true });
    const rv = first.metadata.resourceVersion;
    const stop = new AbortController();
    const events: WatchEvent[] = [];
    const watching = (async () => {
      const stream = env.client.watch(CM, {
        namespace: "t",
        resourceVersion: rv,
        signal: stop.signal,
      });
      try {
        for await (const ev of stream) events.push(ev);
      } catch {
        // Aborted at the end of the test.
      }
    })();
    const again = await env.client.apply(cm, { fieldManager: "m", force: true });
    assert.equal(again.metadata.resourceVersion, rv, "a repeated apply was stored");
    const read = await env.client.get(ref);
    const put = await env.client.update(read);
    assert.equal(put.metadata.resourceVersion, rv, "a PUT of the object as read was stored");
    const patched = await env.client.patch(ref, { data: { k: "v" } }, { type: "merge" });
    assert.equal(patched.metadata.resourceVersion, rv, "a no-op merge patch was stored");

    const changed = await env.client.patch(ref, { data: { k: "w" } }, { type: "merge" });
    assert.notEqual(changed.metadata.resourceVersion, rv);
    const deadline = Date.now() + 5_000;
    while (events.length === 0 && Date.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 20));
    stop.abort();
    await watching;
    assert.deepEqual(
      events.map((e) => [e.type, e.object.metadata.resourceVersion]),
      [["MODIFIED", changed.metadata.resourceVersion]],
      "a no-op write reached a watcher",
    );
  });
});
