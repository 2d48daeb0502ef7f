/**
 * Informer against a scripted client (a unit test of this layer): a watch that
 * fails with 410 Expired makes it relist, and objects that vanished meanwhile
 * are reported deleted; a watch that simply ends resumes from the last revision.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { KubeList, KubeObject, WatchEvent } from "../api/index.js";
import { ApiError } from "../api/index.js";
import type {
  CallOptions,
  ListOptions,
  Reader,
  TypeRef,
  Watcher,
  WatchOptions,
} from "../client/index.js";
import { FakeClock } from "./clock.js";
import { Informer, type InformerHandlers } from "./informer.js";

const cm = (name: string, rv: string): KubeObject => ({
  apiVersion: "v1",
  kind: "ConfigMap",
  metadata: { name, namespace: "d", resourceVersion: rv },
});

class ScriptedClient implements Reader, Watcher {
  lists: KubeList[] = [];
  watches: (() => AsyncIterable<WatchEvent>)[] = [];
  watchedFrom: string[] = [];
  listOptions: ListOptions[] = [];
  watchOptions: WatchOptions[] = [];

  async get<T extends KubeObject>(): Promise<T> {
    throw new Error("unused");
  }
  async list<T extends KubeObject>(_type: TypeRef, opts: ListOptions = {}): Promise<KubeList<T>> {
    this.listOptions.push(opts);
    const next = this.lists.shift();
    if (!next) throw new Error("no more lists scripted");
    return next as KubeList<T>;
  }
  watch<T extends KubeObject>(
    _type: TypeRef,
    opts: WatchOptions & CallOptions,
  ): AsyncIterable<WatchEvent<T>> {
    const { signal, ...rest } = opts;
    this.watchOptions.push(rest);
    this.watchedFrom.push(opts.resourceVersion ?? "");
    const next = this.watches.shift();
    if (next) return next() as AsyncIterable<WatchEvent<T>>;
    return (async function* () {
      if (signal?.aborted) return;
      await new Promise((r) => signal?.addEventListener("abort", r, { once: true }));
    })() as AsyncIterable<WatchEvent<T>>;
  }
}

const list = (rv: string, items: KubeObject[]): KubeList => ({
  apiVersion: "v1",
  kind: "ConfigMapList",
  metadata: { resourceVersion: rv },
  items,
});

describe("Informer (scripted client)", () => {
  it("relists on 410 and reports what vanished; resumes from the last revision when a watch ends", async () => {
    const client = new ScriptedClient();
    client.lists.push(
      list("10", [cm("a", "5"), cm("b", "6")]),
      list("20", [cm("a", "5"), cm("c", "18")]),
    );
    client.watches.push(
      async function* () {
        yield { type: "MODIFIED", object: cm("b", "11") } as WatchEvent;
      },
      async function* () {
        yield* [];
        throw new ApiError(410, "Expired", "too old resource version: 11 (15)");
      },
    );
    const seen: string[] = [];
    const informer = new Informer(client, { apiVersion: "v1", kind: "ConfigMap", retryMs: 1 });
    informer.addHandlers({
      onAdd: (o) => seen.push(`add ${o.metadata.name}`),
      onUpdate: (_o, n) => seen.push(`update ${n.metadata.name} ${n.metadata.resourceVersion}`),
      onDelete: (o) => seen.push(`delete ${o.metadata.name}`),
    });
    const stop = new AbortController();
    const running = informer.run(stop.signal);
    const deadline = Date.now() + 2000;
    while (!seen.includes("add c") && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 5));
    stop.abort();
    await running;
    assert.deepEqual(seen, ["add a", "add b", "update b 11", "add c", "delete b"]);
    assert.deepEqual(client.watchedFrom.slice(0, 3), ["10", "11", "20"]);
  });
});

/** Resolves once `until` holds; fails after 2 s. */
async function waitUntil(until: () => boolean): Promise<void> {
  const deadline = Date.now() + 2000;
  while (!until() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 5));
  assert.ok(until(), "condition not met within 2 s");
}

/** Runs `informer` until `until` holds (or 2 s pass), then stops it. */
async function runUntil(informer: Informer, until: () => boolean): Promise<void> {
  const stop = new AbortController();
  const running = informer.run(stop.signal);
  try {
    await waitUntil(until);
  } finally {
    stop.abort();
    await running;
  }
}

/** Handlers that record each event as a line. */
function recorder(): { seen: string[]; handlers: InformerHandlers } {
  const seen: string[] = [];
  return {
    seen,
    handlers: {
      onAdd: (o) => seen.push(`add ${o.metadata.name} ${o.metadata.resourceVersion}`),
      onUpdate: (o, n) =>
        seen.push(
          `update ${n.metadata.name} ${o.metadata.resourceVersion}→${n.metadata.resourceVersion}`,
        ),
      onDelete: (o) => seen.push(`delete ${o.metadata.name} ${o.metadata.resourceVersion}`),
    },
  };
}

describe("Informer events (scripted client)", () => {
  it("sends its scope to list and watch, and fills in apiVersion and kind of listed items", async () => {
    const client = new ScriptedClient();
    const bare = { metadata: { name: "a", namespace: "d", resourceVersion: "1" } } as KubeObject;
    client.lists.push(list("7", [bare]));
    const informer = new Informer(client, {
      apiVersion: "v1",
      kind: "ConfigMap",
      namespace: "d",
      labelSelector: "app=web",
      fieldSelector: "metadata.name=a",
    });
    await runUntil(informer, () => client.watchOptions.length === 1);
    assert.deepEqual(client.listOptions, [
      { namespace: "d", labelSelector: "app=web", fieldSelector: "metadata.name=a" },
    ]);
    const w = client.watchOptions[0]!;
    assert.equal(w.resourceVersion, "7");
    assert.equal(w.allowWatchBookmarks, true);
    assert.equal(w.namespace, "d");
    assert.equal(w.labelSelector, "app=web");
    assert.equal(w.fieldSelector, "metadata.name=a");
    assert.ok(w.timeoutSeconds! >= 300 && w.timeoutSeconds! < 600, `timeout ${w.timeoutSeconds}`);
    assert.equal(informer.get("d/a")?.kind, "ConfigMap");
    assert.equal(informer.get("d/a")?.apiVersion, "v1");
  });

  it("skips bookmarks and unchanged revisions, and reports a delete with the last state it held", async () => {
    const client = new ScriptedClient();
    client.lists.push(list("10", [cm("a", "5")]));
    client.watches.push(async function* () {
      yield { type: "BOOKMARK", object: cm("", "12") } as WatchEvent;
      yield { type: "MODIFIED", object: cm("a", "5") } as WatchEvent;
      yield { type: "ADDED", object: cm("b", "13") } as WatchEvent;
      yield { type: "MODIFIED", object: cm("b", "14") } as WatchEvent;
      yield { type: "DELETED", object: cm("b", "15") } as WatchEvent;
      yield { type: "DELETED", object: cm("never-seen", "16") } as WatchEvent;
    });
    const informer = new Informer(client, { apiVersion: "v1", kind: "ConfigMap" });
    const { seen, handlers } = recorder();
    informer.addHandlers(handlers);
    await runUntil(informer, () => client.watchedFrom.length === 2);
    assert.deepEqual(seen, [
      "add a 5",
      "add b 13",
      "update b 13→14",
      "delete b 14",
      "delete never-seen 16",
    ]);
    assert.deepEqual(
      client.watchedFrom,
      ["10", "16"],
      "the next watch starts after the last event",
    );
    assert.deepEqual(
      informer.list().map((o) => o.metadata.name),
      ["a"],
    );
  });

  it("replays the cache as adds to handlers added after the sync", async () => {
    const client = new ScriptedClient();
    client.lists.push(list("3", [cm("a", "1"), cm("b", "2")]));
    const informer = new Informer(client, { apiVersion: "v1", kind: "ConfigMap" });
    const early = recorder();
    informer.addHandlers(early.handlers);
    const stop = new AbortController();
    const running = informer.run(stop.signal);
    assert.equal(await informer.waitForSync(stop.signal), true);
    const late = recorder();
    informer.addHandlers(late.handlers);
    stop.abort();
    await running;
    assert.deepEqual(late.seen, early.seen);
    assert.deepEqual(late.seen, ["add a 1", "add b 2"]);
  });

  const failures = [
    {
      name: "a 404 relists",
      error: new ApiError(404, "NotFound", "the server could not find it"),
      relists: 2,
      reported: 1,
    },
    {
      name: "a 500 retries the watch without a relist",
      error: new ApiError(500, "InternalError", "boom"),
      relists: 1,
      reported: 1,
    },
    {
      name: "a 410 relists at once and is not reported",
      error: new ApiError(410, "Expired", "too old"),
      relists: 2,
      reported: 0,
    },
  ];
  for (const f of failures) {
    it(`on a failed watch: ${f.name}`, async () => {
      const client = new ScriptedClient();
      client.lists.push(list("10", [cm("a", "5")]), list("20", [cm("a", "5")]));
      client.watches.push(async function* () {
        yield* [];
        throw f.error;
      });
      const reported: unknown[] = [];
      const informer = new Informer(client, {
        apiVersion: "v1",
        kind: "ConfigMap",
        retryMs: 1,
        onError: (e) => reported.push(e),
      });
      await runUntil(informer, () => client.watchedFrom.length === 2);
      assert.equal(client.listOptions.length, f.relists);
      assert.equal(reported.length, f.reported);
      if (f.reported) assert.equal(reported[0], f.error);
      assert.equal(client.watchedFrom[1], f.relists === 2 ? "20" : "10");
    });
  }

  it("waits out its retry delay on its clock", async () => {
    const clock = new FakeClock(0);
    const client = new ScriptedClient();
    client.lists.push(list("10", [cm("a", "5")]));
    client.watches.push(async function* () {
      yield* [];
      throw new ApiError(500, "InternalError", "boom");
    });
    const reported: unknown[] = [];
    const informer = new Informer(client, {
      apiVersion: "v1",
      kind: "ConfigMap",
      retryMs: 1_000,
      clock,
      onError: (e) => reported.push(e),
    });
    const stop = new AbortController();
    const running = informer.run(stop.signal);
    await waitUntil(() => clock.nextDue() === 1_000);
    assert.equal(reported.length, 1);
    clock.advance(999);
    await new Promise((r) => setImmediate(r));
    assert.deepEqual(client.watchedFrom, ["10"], "no retry before the clock says");
    clock.advance(1);
    await waitUntil(() => client.watchedFrom.length === 2);
    assert.deepEqual(client.watchedFrom, ["10", "10"]);
    stop.abort();
    await running;
  });

  it("waitForSync reports false when its signal aborts before the first list", async () => {
    const informer = new Informer(new ScriptedClient(), { apiVersion: "v1", kind: "ConfigMap" });
    const stop = new AbortController();
    const waiting = informer.waitForSync(stop.signal);
    stop.abort();
    assert.equal(await waiting, false);
    assert.equal(informer.hasSynced(), false);
  });
});
