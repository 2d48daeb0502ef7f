/**
 * The REST semantics kube clients rely on, over HTTP against an in-process server:
 * generateName, generation and the status subresource, paged lists with
 * selectors, deletecollection, finalizers and preconditions, and watch (resume
 * from a revision, bookmarks, objects entering and leaving a selector).
 */
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import YAML from "yaml";
import type { KubeObject } from "../../src/api/types.js";
import { REPO_ROOT, waitFor } from "../support/hearth-process.js";
import { type InProcessServer, startInProcess } from "../support/in-process.js";

const CM = "/api/v1/namespaces/default/configmaps";
const CT = "/apis/stable.example.com/v1/namespaces/default/crontabs";

describe("API semantics", () => {
  let s: InProcessServer;
  const json = (o: unknown) => JSON.stringify(o);
  const cm = (
    name: string,
    labels: Record<string, string> = {},
    data: Record<string, string> = {},
  ) => json({ apiVersion: "v1", kind: "ConfigMap", metadata: { name, labels }, data });
  async function ok(
    method: string,
    path: string,
    body?: string,
    headers?: Record<string, string>,
  ): Promise<KubeObject & { items?: KubeObject[] }> {
    const r = await s.request(method, path, body, headers);
    assert.ok(r.status >= 200 && r.status < 300, `${method} ${path}: ${r.status} ${r.text}`);
    return r.body as KubeObject & { items?: KubeObject[] };
  }

  before(async () => {
    s = await startInProcess({ bookmarkIntervalMs: 100 });
    await ok(
      "POST",
      "/apis/apiextensions.k8s.io/v1/customresourcedefinitions",
      json(YAML.parse(readFileSync(join(REPO_ROOT, "test/fixtures/crontab-crd.yaml"), "utf8"))),
    );
  });
  after(async () => {
    await s?.stop();
  });

  it("names objects from generateName and owns server metadata", async () => {
    const created = await ok(
      "POST",
      CM,
      json({
        apiVersion: "v1",
        kind: "ConfigMap",
        metadata: { generateName: "gen-", uid: "mine", creationTimestamp: "2000-01-01T00:00:00Z" },
      }),
    );
    assert.match(created.metadata.name!, /^gen-[a-z0-9]{5}$/);
    assert.notEqual(created.metadata.uid, "mine");
    assert.notEqual(created.metadata.creationTimestamp, "2000-01-01T00:00:00Z");
    assert.equal(created.metadata.generation, 1);
    assert.match(created.metadata.resourceVersion!, /^\d+$/);
  });

  it("bumps generation on spec changes only, and writes status separately", async () => {
    const ct = await ok(
      "POST",
      CT,
      json({
        apiVersion: "stable.example.com/v1",
        kind: "CronTab",
        metadata: { name: "gen" },
        spec: { image: "a" },
        status: { lastRun: "ignored" },
      }),
    );
    assert.equal(ct.status, undefined, "status is not written through the main resource");
    const labelled = await ok("PATCH", `${CT}/gen`, json({ metadata: { labels: { x: "y" } } }), {
      "Content-Type": "application/merge-patch+json",
    });
    assert.equal(labelled.metadata.generation, 1);
    const spec = await ok("PATCH", `${CT}/gen`, json({ spec: { image: "b" } }), {
      "Content-Type": "application/merge-patch+json",
    });
    assert.equal(spec.metadata.generation, 2);
    const status = await ok(
      "PATCH",
      `${CT}/gen/status`,
      json({ status: { lastRun: "now" }, spec: { image: "ignored" } }),
      { "Content-Type": "application/merge-patch+json" },
    );
    assert.deepEqual(status.status, { lastRun: "now" });
    assert.equal((status.spec as { image: string }).image, "b");
    assert.equal(status.metadata.generation, 2);
  });

  it("pages lists at one revision and filters by label and field selectors", async () => {
    await ok(
      "POST",
      "/api/v1/namespaces",
      json({ apiVersion: "v1", kind: "Namespace", metadata: { name: "paging" } }),
    );
    const path = "/api/v1/namespaces/paging/configmaps";
    for (let i = 0; i < 7; i++)
      await ok("POST", path, cm(`p${i}`, { parity: i % 2 ? "odd" : "even" }));
    const first = await ok("GET", `${path}?limit=3`);
    const meta = first.metadata as unknown as {
      continue: string;
      resourceVersion: string;
      remainingItemCount: number;
    };
    assert.deepEqual(
      first.items!.map((o) => o.metadata.name),
      ["p0", "p1", "p2"],
    );
    assert.equal(meta.remainingItemCount, 4);
    await ok("POST", path, cm("p99"));
    const second = await ok("GET", `${path}?limit=10&continue=${meta.continue}`);
    assert.deepEqual(
      second.items!.map((o) => o.metadata.name),
      ["p3", "p4", "p5", "p6"],
      "later pages are read at the first page's revision",
    );
    const odd = await ok(
      "GET",
      `${path}?labelSelector=${encodeURIComponent("parity in (odd)")}&limit=2`,
    );
    assert.deepEqual(
      odd.items!.map((o) => o.metadata.name),
      ["p1", "p3"],
    );
    const notEven = await ok(
      "GET",
      `${path}?labelSelector=${encodeURIComponent("parity!=even,parity")}`,
    );
    assert.deepEqual(
      notEven.items!.map((o) => o.metadata.name),
      ["p1", "p3", "p5"],
    );
    const byName = await ok("GET", `${path}?fieldSelector=metadata.name%3Dp4`);
    assert.deepEqual(
      byName.items!.map((o) => o.metadata.name),
      ["p4"],
    );
    const bad = await s.request("GET", `${path}?fieldSelector=data.x%3D1`);
    assert.equal(bad.status, 400);
    const all = await ok("GET", "/api/v1/configmaps?labelSelector=parity");
    assert.equal(all.items!.length, 7);
    await ok("DELETE", `${path}?labelSelector=parity%3Deven`);
    const left = await ok("GET", path);
    assert.deepEqual(
      left.items!.map((o) => o.metadata.name),
      ["p1", "p3", "p5", "p99"],
    );
  });

  it("keeps objects with finalizers until the last one is removed", async () => {
    await ok(
      "POST",
      CM,
      json({
        apiVersion: "v1",
        kind: "ConfigMap",
        metadata: { name: "fin", finalizers: ["example.com/a", "example.com/b"] },
      }),
    );
    const marked = await ok("DELETE", `${CM}/fin`);
    assert.ok(marked.metadata.deletionTimestamp);
    assert.equal(marked.metadata.deletionGracePeriodSeconds, 0);
    const again = await ok("DELETE", `${CM}/fin`);
    assert.equal(
      again.metadata.deletionTimestamp,
      marked.metadata.deletionTimestamp,
      "a repeated delete changes nothing",
    );
    const added = await s.request(
      "PATCH",
      `${CM}/fin`,
      json({ metadata: { finalizers: ["example.com/a", "example.com/b", "example.com/c"] } }),
      { "Content-Type": "application/merge-patch+json" },
    );
    assert.equal(added.status, 422);
    assert.match(added.text, /no new finalizers can be added if the object is being deleted/);
    await ok("PATCH", `${CM}/fin`, json({ metadata: { finalizers: ["example.com/b"] } }), {
      "Content-Type": "application/merge-patch+json",
    });
    assert.equal((await s.request("GET", `${CM}/fin`)).status, 200);
    await ok("PATCH", `${CM}/fin`, json({ metadata: { finalizers: null } }), {
      "Content-Type": "application/merge-patch+json",
    });
    assert.equal((await s.request("GET", `${CM}/fin`)).status, 404);
  });

  it("honours delete preconditions and propagation finalizers", async () => {
    const obj = await ok("POST", CM, cm("pre"));
    const wrongUid = await s.request(
      "DELETE",
      `${CM}/pre`,
      json({ preconditions: { uid: "nope" } }),
    );
    assert.equal(wrongUid.status, 409);
    assert.match(wrongUid.text, /Precondition failed: UID in precondition: nope/);
    const orphan = await ok(
      "DELETE",
      `${CM}/pre`,
      json({ propagationPolicy: "Orphan", preconditions: { uid: obj.metadata.uid } }),
    );
    assert.deepEqual(orphan.metadata.finalizers, ["orphan"]);
    const gone = await ok(
      "PATCH",
      `${CM}/pre`,
      json([{ op: "remove", path: "/metadata/finalizers" }]),
      { "Content-Type": "application/json-patch+json" },
    );
    assert.equal(gone.metadata.name, "pre");
    assert.equal((await s.request("GET", `${CM}/pre`)).status, 404);
    const plain = await ok("POST", CM, cm("plain"));
    const status = await ok("DELETE", `${CM}/plain`);
    assert.equal(status.kind, "Status");
    assert.deepEqual((status as unknown as { details: unknown }).details, {
      name: "plain",
      group: "",
      kind: "configmaps",
      uid: plain.metadata.uid,
    });
  });

  it("answers 405 for verbs a kind does not serve", async () => {
    const r = await s.request("GET", "/apis/authorization.k8s.io/v1/selfsubjectaccessreviews");
    assert.equal(r.status, 405);
    assert.equal((r.body as { reason: string }).reason, "MethodNotAllowed");
  });

  it("refuses to delete the system namespaces", async () => {
    const r = await s.request("DELETE", "/api/v1/namespaces/kube-system");
    assert.equal(r.status, 403);
    assert.equal((await s.request("GET", "/api/v1/namespaces/kube-system")).status, 200);
  });

  it("watches from a revision, with bookmarks and selector transitions", async () => {
    await ok(
      "POST",
      "/api/v1/namespaces",
      json({ apiVersion: "v1", kind: "Namespace", metadata: { name: "watched" } }),
    );
    const path = "/api/v1/namespaces/watched/configmaps";
    const a = await ok("POST", path, cm("a", { team: "x" }));
    const controller = new AbortController();
    const res = await fetch(
      `${s.url}${path}?watch=true&allowWatchBookmarks=true&labelSelector=team%3Dx&resourceVersion=${a.metadata.resourceVersion}`,
      { signal: controller.signal },
    );
    const events: { type: string; object: KubeObject }[] = [];
    const reading = (async () => {
      const decoder = new TextDecoder();
      let buf = "";
      try {
        for await (const chunk of res.body!) {
          buf += decoder.decode(chunk as Uint8Array, { stream: true });
          let nl = buf.indexOf("\n");
          while (nl >= 0) {
            events.push(JSON.parse(buf.slice(0, nl)));
            buf = buf.slice(nl + 1);
            nl = buf.indexOf("\n");
          }
        }
      } catch {
        // aborted
      }
    })();
    try {
      await ok("POST", path, cm("b", { team: "x" }));
      await ok("POST", path, cm("c", { team: "y" }));
      await ok("PATCH", `${path}/a`, json({ metadata: { labels: { team: "y" } } }), {
        "Content-Type": "application/merge-patch+json",
      });
      await ok("PATCH", `${path}/c`, json({ metadata: { labels: { team: "x" } } }), {
        "Content-Type": "application/merge-patch+json",
      });
      await ok("PATCH", `${path}/b`, json({ data: { k: "v" } }), {
        "Content-Type": "application/merge-patch+json",
      });
      await ok("DELETE", `${path}/b`);
      await waitFor("watch events", () => events.filter((e) => e.type !== "BOOKMARK").length >= 5);
      await waitFor("a bookmark", () => events.some((e) => e.type === "BOOKMARK"));
      const changes = events
        .filter((e) => e.type !== "BOOKMARK")
        .map((e) => `${e.type} ${e.object.metadata.name}`);
      assert.deepEqual(changes, ["ADDED b", "DELETED a", "ADDED c", "MODIFIED b", "DELETED b"]);
      const bookmark = events.find((e) => e.type === "BOOKMARK")!;
      assert.match(bookmark.object.metadata.resourceVersion!, /^\d+$/);
      assert.deepEqual(Object.keys(bookmark.object.metadata), ["resourceVersion"]);
    } finally {
      controller.abort();
      await reading;
    }
  });

  it("removes a CRD's objects, waiting for their finalizers, before the CRD goes", async () => {
    const crd =
      "/apis/apiextensions.k8s.io/v1/customresourcedefinitions/crontabs.stable.example.com";
    const ct = (name: string, finalizers: string[] = []) =>
      json({
        apiVersion: "stable.example.com/v1",
        kind: "CronTab",
        metadata: { name, finalizers },
        spec: {},
      });
    await ok("POST", CT, ct("plain"));
    await ok("POST", CT, ct("held", ["example.com/hold"]));
    await ok("DELETE", crd);
    await waitFor(
      "held marked",
      async () =>
        ((await s.request("GET", `${CT}/held`)).body as KubeObject).metadata?.deletionTimestamp,
    );
    assert.equal((await s.request("GET", `${CT}/plain`)).status, 404);
    const refused = await s.request("POST", CT, ct("new"));
    assert.equal(refused.status, 405);
    assert.match(
      refused.text,
      /create not allowed while custom resource definition is terminating/,
    );
    assert.equal((await s.request("GET", crd)).status, 200, "the CRD waits for its objects");
    await ok("PATCH", `${CT}/held`, json({ metadata: { finalizers: null } }), {
      "Content-Type": "application/merge-patch+json",
    });
    await waitFor("CRD gone", async () => (await s.request("GET", crd)).status === 404);
    assert.equal((await s.request("GET", CT)).status, 404);
    assert.equal(await s.backend.count("/registry/stable.example.com/crontabs/"), 0);
  });
});
