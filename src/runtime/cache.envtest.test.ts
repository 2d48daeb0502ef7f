/**
 * The Manager's Cache on the real in-process apiserver: scopes (namespace,
 * label and field selectors sent to the server), in-memory list filters,
 * indexes that follow updates and deletes, copies versus `noCopy`, NotFound,
 * drop, and the errors of reading a cache that is not started.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { type Env, startEnv } from "../../test/support/envtest.js";
import { waitFor } from "../../test/support/hearth-process.js";
import type { KubeObject } from "../api/index.js";
import { ApiError } from "../api/index.js";
import { Cache } from "./cache.js";

const CM = { apiVersion: "v1", kind: "ConfigMap" } as const;

function configMap(namespace: string, name: string, labels: Record<string, string> = {}) {
  return { ...CM, metadata: { namespace, name, labels }, data: { v: "1" } };
}

const names = (items: KubeObject[]) => items.map((o) => o.metadata.name).sort();

describe("Cache (in-process apiserver)", () => {
  let env: Env;
  let cache: Cache;
  const stop = new AbortController();
  let running: Promise<void>;

  before(async () => {
    env = await startEnv();
    for (const ns of ["c-a", "c-b"]) {
      await env.client.create({ apiVersion: "v1", kind: "Namespace", metadata: { name: ns } });
    }
    await env.client.create(configMap("c-a", "web", { app: "web", tier: "front" }));
    await env.client.create(configMap("c-a", "db", { app: "db", tier: "back" }));
    await env.client.create(configMap("c-b", "web", { app: "web", tier: "front" }));
    cache = new Cache(env.client);
    running = cache.start(stop.signal);
  });

  after(async () => {
    stop.abort();
    await running;
    await env.stop();
  });

  /** Waits until the cache lists exactly `want` (names) in `scope`. */
  async function listed(want: string[], opts: Parameters<Cache["list"]>[1] = {}) {
    await waitFor(
      `cache to list ${want.join(",")}`,
      async () => {
        const got = names((await cache.list(CM, opts)).items);
        return JSON.stringify(got) === JSON.stringify([...want].sort());
      },
      5000,
    );
  }

  it("lists every namespace by default, filtered in memory by namespace and labels", async () => {
    const all = await cache.list(CM, { labelSelector: "app" });
    assert.equal(all.kind, "ConfigMapList");
    assert.deepEqual(all.items.map((o) => `${o.metadata.namespace}/${o.metadata.name}`).sort(), [
      "c-a/db",
      "c-a/web",
      "c-b/web",
    ]);
    const cases = [
      { opts: { namespace: "c-a", labelSelector: "app" }, want: ["db", "web"] },
      { opts: { labelSelector: "app=web" }, want: ["web", "web"] },
      { opts: { labelSelector: "tier in (back),app" }, want: ["db"] },
      { opts: { namespace: "c-b", labelSelector: "app!=web" }, want: [] },
    ];
    for (const c of cases) {
      assert.deepEqual(names((await cache.list(CM, c.opts)).items), c.want, JSON.stringify(c.opts));
    }
  });

  it("holds only what a scope asks the server for", async () => {
    const scopes = [
      { scope: { namespace: "c-b" }, want: ["c-b/web"] },
      { scope: { labelSelector: "tier=back" }, want: ["c-a/db"] },
      { scope: { fieldSelector: "metadata.name=web" }, want: ["c-a/web", "c-b/web"] },
      {
        scope: { namespace: "c-a", fieldSelector: "metadata.name!=web", labelSelector: "app" },
        want: ["c-a/db"],
      },
    ];
    for (const { scope, want } of scopes) {
      const got = (await cache.list(CM, { scope })).items;
      assert.deepEqual(
        got.map((o) => `${o.metadata.namespace}/${o.metadata.name}`).sort(),
        want,
        JSON.stringify(scope),
      );
    }
  });

  it("drops an object from a label scope once it stops matching, and takes it back", async () => {
    const scope = { labelSelector: "moving=yes" };
    await env.client.create(configMap("c-b", "mover", { moving: "yes" }));
    await listed(["mover"], { scope });
    const cm = await env.client.get({ ...CM, namespace: "c-b", name: "mover" });
    await env.client.update({ ...cm, metadata: { ...cm.metadata, labels: { moving: "no" } } });
    await listed([], { scope });
    await env.client.patch(
      { ...CM, namespace: "c-b", name: "mover" },
      {
        metadata: { labels: { moving: "yes" } },
      },
      { type: "merge" },
    );
    await listed(["mover"], { scope });
  });

  it("returns copies unless noCopy, and a NotFound ApiError for what is not cached", async () => {
    const ref = { ...CM, namespace: "c-a", name: "web" };
    const a = await cache.get(ref);
    a.metadata.labels = { changed: "yes" };
    const b = await cache.get(ref);
    assert.equal(b.metadata.labels?.app, "web", "a copy was changed, not the cache");
    assert.equal(await cache.get(ref, { noCopy: true }), await cache.get(ref, { noCopy: true }));
    const listA = await cache.list(CM, { noCopy: true, namespace: "c-a" });
    const listB = await cache.list(CM, { noCopy: true, namespace: "c-a" });
    assert.equal(listA.items[0], listB.items[0]);
    await assert.rejects(cache.get({ ...CM, namespace: "c-a", name: "nope" }), (e: unknown) => {
      assert.ok(e instanceof ApiError);
      assert.equal(e.code, 404);
      assert.equal(e.message, 'configmaps "nope" not found');
      return true;
    });
  });

  it("keeps an index in step with creates, updates and deletes", async () => {
    const byApp = (o: KubeObject) => (o.metadata.labels?.app ? [o.metadata.labels.app] : []);
    cache.index(CM, "app", byApp);
    const inIndex = async (value: string) =>
      (await cache.list(CM, { index: { name: "app", value } })).items
        .map((o) => `${o.metadata.namespace}/${o.metadata.name}`)
        .sort();
    assert.deepEqual(await inIndex("web"), ["c-a/web", "c-b/web"], "cached objects filed at once");
    await env.client.create(configMap("c-b", "cache", { app: "redis" }));
    await waitFor("redis indexed", async () => (await inIndex("redis")).length === 1, 5000);
    await env.client.patch(
      { ...CM, namespace: "c-b", name: "cache" },
      {
        metadata: { labels: { app: "web" } },
      },
      { type: "merge" },
    );
    await waitFor("cache refiled under web", async () => (await inIndex("web")).length === 3, 5000);
    assert.deepEqual(await inIndex("redis"), [], "the old value no longer lists it");
    await env.client.delete({ ...CM, namespace: "c-b", name: "cache" });
    await waitFor("cache unfiled", async () => (await inIndex("web")).length === 2, 5000);
    assert.deepEqual(
      names(
        (await cache.list(CM, { index: { name: "app", value: "web" }, namespace: "c-b" })).items,
      ),
      ["web"],
      "an index list is still filtered by namespace",
    );
    assert.throws(
      () => cache.index(CM, "app", byApp),
      /cannot add index "app" to ConfigMap: it exists already/,
    );
    await assert.rejects(
      cache.list(CM, { index: { name: "nope", value: "x" } }),
      /cannot list ConfigMap by index "nope": no such index/,
    );
  });

  it("drop forgets an informer: the next read starts a new one that lists again", async () => {
    const scope = { namespace: "c-a" };
    const first = cache.informer(CM, scope);
    assert.equal(cache.informer(CM, scope), first, "one informer per kind and scope");
    cache.drop(CM, scope);
    assert.ok(first.stop.signal.aborted);
    const second = cache.informer(CM, scope);
    assert.notEqual(second, first);
    assert.deepEqual(names((await cache.list(CM, { scope })).items), ["db", "web"]);
    assert.equal(cache.hasSynced(), true);
  });

  it("refuses a second start", async () => {
    await assert.rejects(cache.start(new AbortController().signal), /it is running already/);
  });
});

describe("Cache before start", () => {
  it("refuses reads, and waitForCacheSync reports false once its signal aborts", async () => {
    const env = await startEnv();
    try {
      const cache = new Cache(env.client);
      await assert.rejects(cache.get({ ...CM, namespace: "x", name: "y" }), {
        message: "cannot read ConfigMap from the cache: it is not started",
      });
      await assert.rejects(cache.list(CM), /it is not started/);
      cache.informer(CM);
      assert.equal(cache.hasSynced(), false);
      const aborted = new AbortController();
      const waiting = cache.waitForCacheSync(aborted.signal);
      aborted.abort();
      assert.equal(await waiting, false);
      const stop = new AbortController();
      const running = cache.start(stop.signal);
      assert.equal(await cache.waitForCacheSync(stop.signal), true);
      stop.abort();
      await running;
    } finally {
      await env.stop();
    }
  });
});
