/**
 * Dry-run DELETE and PATCH as kube-apiserver answers them: the response is what
 * the request would have produced (a Success Status for an object removed at
 * once, the marked object when finalizers or a grace period keep it, the patched
 * object at its stored resourceVersion), and nothing is written: the storage
 * revision does not move and a GET still returns the stored object unchanged.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import type { KubeObject } from "../../src/api/types.js";
import { type InProcessServer, startInProcess } from "../support/in-process.js";

const CM = "/api/v1/namespaces/default/configmaps";
const PODS = "/api/v1/namespaces/default/pods";
const MERGE = { "Content-Type": "application/merge-patch+json" };

describe("dry-run DELETE and PATCH", () => {
  let s: InProcessServer;
  before(async () => {
    s = await startInProcess();
  });
  after(async () => {
    await s?.stop();
  });

  const create = async (path: string, obj: unknown): Promise<KubeObject> => {
    const r = await s.request("POST", path, JSON.stringify(obj));
    assert.equal(r.status, 201, r.text);
    return r.body as KubeObject;
  };
  const configMap = (name: string, extra: Record<string, unknown> = {}) =>
    create(CM, {
      apiVersion: "v1",
      kind: "ConfigMap",
      metadata: { name, ...extra },
      data: { k: "v" },
    });
  const stored = async (path: string) => {
    const r = await s.request("GET", path);
    assert.equal(r.status, 200, r.text);
    return r.body as KubeObject;
  };

  /** Sends the request and checks it wrote nothing; returns its answer. */
  async function dryRun(method: string, path: string, body?: string, headers = {}) {
    const before = await s.backend.currentRevision();
    const r = await s.request(method, path, body, headers);
    assert.equal(await s.backend.currentRevision(), before, `${method} ${path} wrote`);
    return r;
  }

  it("answers a dry-run DELETE of a free object with kube's Success Status and keeps it", async () => {
    const cm = await configMap("dry-gone");
    const r = await dryRun("DELETE", `${CM}/dry-gone?dryRun=All`);
    assert.equal(r.status, 200, r.text);
    assert.deepEqual(r.body, {
      kind: "Status",
      apiVersion: "v1",
      metadata: {},
      status: "Success",
      details: { name: "dry-gone", group: "", kind: "configmaps", uid: cm.metadata.uid },
      code: 200,
    });
    assert.deepEqual(await stored(`${CM}/dry-gone`), cm);
  });

  it("answers a dry-run DELETE held by a finalizer with the marked object, not stored", async () => {
    const cm = await configMap("dry-held", { finalizers: ["example.com/hold"] });
    const r = await dryRun(
      "DELETE",
      `${CM}/dry-held`,
      JSON.stringify({ kind: "DeleteOptions", apiVersion: "v1", dryRun: ["All"] }),
    );
    assert.equal(r.status, 200, r.text);
    const marked = r.body as KubeObject;
    assert.equal(marked.kind, "ConfigMap");
    assert.ok(marked.metadata.deletionTimestamp, "the answer carries the deletion mark");
    assert.equal(marked.metadata.deletionGracePeriodSeconds, 0);
    assert.deepEqual(marked.metadata.finalizers, ["example.com/hold"]);
    assert.equal(marked.metadata.resourceVersion, cm.metadata.resourceVersion);
    assert.deepEqual(await stored(`${CM}/dry-held`), cm);
  });

  it("answers a dry-run DELETE of a bound pod with its graceful mark, not stored", async () => {
    const pod = await create(PODS, {
      apiVersion: "v1",
      kind: "Pod",
      metadata: { name: "dry-pod" },
      spec: { nodeName: "n1", containers: [{ name: "c", image: "busybox" }] },
    });
    const r = await dryRun("DELETE", `${PODS}/dry-pod?dryRun=All`);
    assert.equal(r.status, 200, r.text);
    const marked = r.body as KubeObject;
    assert.equal(marked.kind, "Pod");
    assert.equal(marked.metadata.deletionGracePeriodSeconds, 30);
    assert.ok(marked.metadata.deletionTimestamp);
    const now = await stored(`${PODS}/dry-pod`);
    assert.equal(now.metadata.deletionTimestamp, undefined);
    assert.equal(now.metadata.resourceVersion, pod.metadata.resourceVersion);
  });

  it("answers a dry-run DELETE of a missing object with NotFound", async () => {
    const r = await dryRun("DELETE", `${CM}/never-made?dryRun=All`);
    assert.equal(r.status, 404, r.text);
    assert.equal((r.body as { reason: string }).reason, "NotFound");
  });

  it("answers a dry-run merge, JSON and strategic PATCH with the patched object at the stored version", async () => {
    const cm = await configMap("dry-patch");
    const patches: [string, string][] = [
      ["application/merge-patch+json", '{"data":{"k":"merged"}}'],
      ["application/json-patch+json", '[{"op":"replace","path":"/data/k","value":"merged"}]'],
      ["application/strategic-merge-patch+json", '{"data":{"k":"merged"}}'],
    ];
    for (const [type, body] of patches) {
      const r = await dryRun("PATCH", `${CM}/dry-patch?dryRun=All`, body, {
        "Content-Type": type,
      });
      assert.equal(r.status, 200, `${type}: ${r.text}`);
      const patched = r.body as KubeObject & { data: Record<string, string> };
      assert.deepEqual(patched.data, { k: "merged" }, type);
      assert.equal(patched.metadata.uid, cm.metadata.uid, type);
      assert.equal(patched.metadata.resourceVersion, cm.metadata.resourceVersion, type);
    }
    assert.deepEqual(await stored(`${CM}/dry-patch`), cm);
  });

  it("answers a dry-run server-side apply of a new object with 201 and stores nothing", async () => {
    const r = await dryRun(
      "PATCH",
      `${CM}/dry-applied?dryRun=All&fieldManager=tester`,
      JSON.stringify({
        apiVersion: "v1",
        kind: "ConfigMap",
        metadata: { name: "dry-applied" },
        data: { a: "1" },
      }),
      { "Content-Type": "application/apply-patch+yaml" },
    );
    assert.equal(r.status, 201, r.text);
    assert.deepEqual((r.body as { data: unknown }).data, { a: "1" });
    assert.equal((await s.request("GET", `${CM}/dry-applied`)).status, 404);
  });

  it("refuses a dry-run PATCH that breaks validation as the real one, writing nothing", async () => {
    await configMap("dry-bad");
    const r = await dryRun(
      "PATCH",
      `${CM}/dry-bad?dryRun=All`,
      '{"metadata":{"labels":{"-bad-":"x"}}}',
      MERGE,
    );
    assert.equal(r.status, 422, r.text);
    const status = r.body as { reason: string; details: { causes: { field: string }[] } };
    assert.equal(status.reason, "Invalid");
    assert.equal(status.details.causes[0]?.field, "metadata.labels");
  });
});
