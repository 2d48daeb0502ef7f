/**
 * The Informer against a real Hearth apiserver on loopback, through a WireTap
 * that records every request and can cut the network: it lists with its scope,
 * then watches from the list's resourceVersion; a watch cut off resumes from the
 * last revision seen without a relist and loses nothing written meanwhile; a
 * 410 Expired (after a compaction) relists and reports what vanished as deleted;
 * a failing list is reported and retried after its delay on its clock; and
 * aborting stops it wherever it is (a list in flight, a watch, a retry delay).
 */
import assert from "node:assert/strict";
import { after, afterEach, before, describe, it } from "node:test";
import {
  type LoopbackApiServer,
  shutdown,
  startLoopbackApiServer,
  waitUntil,
} from "../../test/support/loopback-apiserver.js";
import { openCrd } from "../../test/support/open-crd.js";
import type { KubeObject } from "../api/index.js";
import { hasCode } from "../api/index.js";
import { createHttpClient, type HttpClient } from "../client/index.js";
import { FakeClock } from "./clock.js";
import { Informer, type InformerHandlers, type InformerOptions } from "./informer.js";

const CM = { apiVersion: "v1", kind: "ConfigMap" };
const cm = (name: string, labels: Record<string, string> = {}): KubeObject => ({
  ...CM,
  metadata: { name, namespace: "d", labels },
  data: { v: "1" },
});
const ref = (name: string) => ({ ...CM, name, namespace: "d" });

/** Handlers that record each event as a line: `add a 5`, `update a 5→6`, `delete a 6`. */
function recorder(): { seen: string[]; handlers: InformerHandlers } {
  const seen: string[] = [];
  const rv = (o: KubeObject) => o.metadata.resourceVersion;
  return {
    seen,
    handlers: {
      onAdd: (o) => seen.push(`add ${o.metadata.name} ${rv(o)}`),
      onUpdate: (o, n) => seen.push(`update ${n.metadata.name} ${rv(o)}→${rv(n)}`),
      onDelete: (o) => seen.push(`delete ${o.metadata.name} ${rv(o)}`),
    },
  };
}

describe("Informer (real apiserver)", () => {
  let server: LoopbackApiServer;
  /** Writes straight to the apiserver, past the tap (so a partition does not hold them). */
  let direct: HttpClient;
  /** The informers' client, through the tap. */
  let client: HttpClient;
  const running: { stop: AbortController; done: Promise<void> }[] = [];

  before(async () => {
    server = await startLoopbackApiServer({ bookmarkIntervalMs: 20 });
    direct = createHttpClient({ server: server.directUrl });
    client = createHttpClient({ server: server.url });
    await direct.create({ apiVersion: "v1", kind: "Namespace", metadata: { name: "d" } });
  });
  afterEach(async () => {
    server.tap.heal();
    server.backend.release();
    for (const r of running.splice(0)) {
      r.stop.abort();
      await ends(r.done, "the informer to stop");
    }
    await direct.deleteCollection(CM, { namespace: "d" });
    server.tap.requests.length = 0;
  });
  after(async () => {
    await shutdown(server, direct, client);
  });

  /** Waits (with a deadline) until `done` has settled. */
  async function ends(done: Promise<void>, what: string): Promise<void> {
    let ended = false;
    void done.then(() => {
      ended = true;
    });
    await waitUntil(() => ended, what);
  }

  /** Starts an informer on the tap's client; `afterEach` stops it. */
  function start(opts: Partial<InformerOptions> = {}) {
    const reported: unknown[] = [];
    const informer = new Informer(client, {
      ...CM,
      namespace: "d",
      retryMs: 5,
      onError: (e) => reported.push(e),
      ...opts,
    });
    const { seen, handlers } = recorder();
    informer.addHandlers(handlers);
    const stop = new AbortController();
    const done = informer.run(stop.signal);
    running.push({ stop, done });
    return { informer, seen, reported, stop, done };
  }
  const requests = (verb: "list" | "watch") =>
    server
      .calls()
      .filter((r) => r.url.startsWith("/api/v1/namespaces/d/configmaps"))
      .filter((r) => r.url.includes("watch=true") === (verb === "watch"))
      .map((r) => new URL(r.url, "http://x").searchParams);
  const watchedFrom = () => requests("watch").map((q) => q.get("resourceVersion"));
  const serverWatches = () => server.backend.openWatches("/registry/core/configmaps/d/");

  it("lists with its scope, then watches from the list's resourceVersion and follows every change", async () => {
    await direct.create(cm("a", { app: "web" }));
    await direct.create(cm("other", { app: "db" }));
    const { informer, seen, stop } = start({ labelSelector: "app=web" });
    assert.equal(await informer.waitForSync(stop.signal), true);
    await waitUntil(() => serverWatches() === 1, "the watch to open");
    const [list] = requests("list");
    assert.equal(list?.get("labelSelector"), "app=web");
    const rv = (await direct.list(CM, { namespace: "d" })).metadata.resourceVersion;
    const [watch] = requests("watch");
    assert.equal(watch?.get("resourceVersion"), rv, "from the list's revision");
    assert.equal(watch?.get("labelSelector"), "app=web");
    assert.equal(watch?.get("allowWatchBookmarks"), "true");
    const timeout = Number(watch?.get("timeoutSeconds"));
    assert.ok(timeout >= 300 && timeout < 600, `timeoutSeconds ${timeout}`);

    const a = await direct.get(ref("a"));
    const a2 = await direct.update({ ...a, data: { v: "2" } });
    const b = await direct.create(cm("b", { app: "web" }));
    await direct.create(cm("not-selected", { app: "db" }));
    await direct.delete(ref("b"));
    await waitUntil(
      () => seen.length === 4,
      () => `four events, seen ${seen.join(", ")}`,
    );
    const at = (o: KubeObject) => o.metadata.resourceVersion;
    assert.deepEqual(seen, [
      `add a ${at(a)}`,
      `update a ${at(a)}→${at(a2)}`,
      `add b ${at(b)}`,
      `delete b ${at(b)}`,
    ]);
    assert.deepEqual(
      informer.list().map((o) => o.metadata.name),
      ["a"],
    );
    assert.equal(requests("list").length, 1, "bookmarks and events never relist");
  });

  it("replays its cache as adds to handlers added after the sync", async () => {
    await direct.create(cm("a"));
    await direct.create(cm("b"));
    const { informer, seen, stop } = start();
    assert.equal(await informer.waitForSync(stop.signal), true);
    const late = recorder();
    informer.addHandlers(late.handlers);
    assert.deepEqual(late.seen, seen);
    assert.deepEqual(
      late.seen.map((l) => l.split(" ").slice(0, 2).join(" ")),
      ["add a", "add b"],
    );
  });

  it("resumes a watch cut off from the last revision it saw, without a relist, and misses nothing", async () => {
    await direct.create(cm("a"));
    const { informer, seen, stop } = start();
    assert.equal(await informer.waitForSync(stop.signal), true);
    await waitUntil(() => serverWatches() === 1, "the watch to open");
    server.tap.partition();
    await waitUntil(() => serverWatches() === 0, "the server to see the watch go");
    const a = await direct.get(ref("a"));
    const a2 = await direct.update({ ...a, data: { v: "2" } });
    const b = await direct.create(cm("b"));
    await waitUntil(() => watchedFrom().length === 2, "the informer to watch again");
    server.tap.heal();
    await waitUntil(
      () => seen.length === 3,
      () => `three events, seen ${seen.join(", ")}`,
    );
    assert.deepEqual(seen.slice(1), [
      `update a ${a.metadata.resourceVersion}→${a2.metadata.resourceVersion}`,
      `add b ${b.metadata.resourceVersion}`,
    ]);
    assert.equal(requests("list").length, 1, "no relist");
    const [first, again] = watchedFrom().map(Number);
    assert.ok(again! >= first!, `resumed at ${again}, after the list's ${first}`);
    assert.ok(again! < Number(a2.metadata.resourceVersion), "from before the missed writes");
  });

  it("relists on 410 Expired after a compaction and reports what vanished meanwhile", async () => {
    await direct.create(cm("a"));
    await direct.create(cm("b"));
    const { informer, seen, reported, stop } = start();
    assert.equal(await informer.waitForSync(stop.signal), true);
    await waitUntil(() => serverWatches() === 1, "the watch to open");
    server.tap.partition();
    await direct.delete(ref("b"));
    const c = await direct.create(cm("c"));
    await server.backend.compact(await server.backend.currentRevision());
    await waitUntil(() => watchedFrom().length === 2, "the informer to watch again");
    server.tap.heal();
    await waitUntil(() => requests("list").length === 2, "the relist");
    await waitUntil(
      () => seen.length === 4,
      () => `four events, seen ${seen.join(", ")}`,
    );
    assert.deepEqual(
      seen.slice(2).map((l) => l.split(" ").slice(0, 2).join(" ")),
      ["add c", "delete b"],
    );
    assert.deepEqual(
      informer
        .list()
        .map((o) => o.metadata.name)
        .sort(),
      ["a", "c"],
    );
    assert.equal(informer.get("d/c")?.metadata.resourceVersion, c.metadata.resourceVersion);
    assert.ok(!reported.some((e) => hasCode(e, 410)), "a 410 is not reported as an error");
    await waitUntil(() => watchedFrom().length === 3, "the watch after the relist");
    assert.equal(
      watchedFrom()[2],
      (await direct.list(CM, { namespace: "d" })).metadata.resourceVersion,
    );
  });

  it("reports a failing list and retries it after retryMs on its clock, until the kind is served", async () => {
    const clock = new FakeClock(0);
    const WIDGET = { apiVersion: "example.com/v1", kind: "Widget" };
    const { informer, reported } = start({ ...WIDGET, retryMs: 1_000, clock });
    await waitUntil(() => clock.nextDue() === 1_000, "the retry delay");
    assert.equal(reported.length, 1);
    assert.ok(hasCode(reported[0], 404), String(reported[0]));
    clock.advance(999);
    await new Promise((r) => setImmediate(r));
    assert.equal(reported.length, 1, "no retry before the clock says");
    clock.advance(1);
    await waitUntil(() => reported.length === 2, "the second attempt");
    await direct.create(openCrd("example.com", "Widget", "widgets"));
    await direct.create({ ...WIDGET, metadata: { name: "w", namespace: "d" } });
    for (let n = 0; !informer.hasSynced(); n++) {
      await waitUntil(() => clock.pending > 0, "the next retry delay");
      clock.advance(1_000);
      await waitUntil(() => informer.hasSynced() || reported.length > n + 2, "another attempt");
    }
    assert.equal(informer.get("d/w")?.kind, "Widget");
    await direct.delete({
      apiVersion: "apiextensions.k8s.io/v1",
      kind: "CustomResourceDefinition",
      name: "widgets.example.com",
    });
  });

  it("stops on abort with a list in flight, without waiting for its answer", async () => {
    server.backend.hold = true;
    const { informer, stop, done } = start();
    await waitUntil(() => server.backend.waiting.length > 0, "the list to reach storage");
    stop.abort();
    await ends(done, "run() to end while the list is held");
    assert.equal(informer.hasSynced(), false);
    server.backend.release();
    assert.equal(serverWatches(), 0);
  });

  it("stops on abort while watching, and the server's watch ends", async () => {
    const { informer, stop, done } = start();
    assert.equal(await informer.waitForSync(stop.signal), true);
    await waitUntil(() => serverWatches() === 1, "the watch to open");
    stop.abort();
    await ends(done, "run() to end");
    await waitUntil(() => serverWatches() === 0, "the server to drop the watch");
    assert.equal(watchedFrom().length, 1, "no watch after the abort");
  });

  it("stops on abort during its retry delay, leaving no timer", async () => {
    const clock = new FakeClock(0);
    const { stop, done } = start({ apiVersion: "example.com/v1", kind: "Gadget", clock });
    await waitUntil(() => clock.pending === 1, "the retry delay");
    stop.abort();
    await ends(done, "run() to end");
    assert.equal(clock.pending, 0);
  });

  it("waitForSync reports false when its signal aborts before the first list", async () => {
    const informer = new Informer(direct, CM);
    const stop = new AbortController();
    const waiting = informer.waitForSync(stop.signal);
    stop.abort();
    assert.equal(await waiting, false);
    assert.equal(informer.hasSynced(), false);
  });
});
