/**
 * The Manager against a real in-process apiserver (test/support/envtest.ts):
 * shared informers (one WATCH per kind and scope however many controllers use
 * it), the cache as a Reader with indexes, for/owns/watches mapping and
 * predicates, and controllers run alone on a Manager of their own.
 */
import assert from "node:assert/strict";
import { afterEach, beforeEach, describe, it } from "node:test";
import { hasCode } from "../../src/api/errors.js";
import type { KubeObject } from "../../src/api/types.js";
import {
  labelsChanged,
  Manager,
  onStop,
  type Request,
  requestKey,
  runOnOwnManager,
  untilAborted,
} from "../../src/runtime/index.js";
import { type Env, startEnv } from "../support/envtest.js";
import { waitFor } from "../support/hearth-process.js";
import { openCrd } from "../support/open-crd.js";

const POD = { apiVersion: "v1", kind: "Pod" };
const CONFIG_MAP = { apiVersion: "v1", kind: "ConfigMap" };
const SECRET = { apiVersion: "v1", kind: "Secret" };
const PODS_PREFIX = "/registry/core/pods/";
const WIDGET = { apiVersion: "example.com/v1", kind: "Widget" };

function pod(name: string, extra: Partial<KubeObject["metadata"]> = {}): KubeObject {
  return {
    apiVersion: "v1",
    kind: "Pod",
    metadata: { name, namespace: "t", ...extra },
    spec: { containers: [{ name: "c", image: "busybox" }] },
  };
}

/** A reconciler that records each request it is given, by key. */
function recorder() {
  const seen: string[] = [];
  return {
    seen,
    reconciler: {
      reconcile: async (req: Request) => {
        seen.push(requestKey(req));
      },
    },
  };
}

describe("Manager", () => {
  let env: Env;
  beforeEach(async () => {
    env = await startEnv();
    await env.client.create({ apiVersion: "v1", kind: "Namespace", metadata: { name: "t" } });
  });
  afterEach(() => env.stop());

  it("shares a running cache with a second Manager: one WATCH, started and stopped by its owner", async () => {
    const owner = recorder();
    const guest = recorder();
    env.manager.controller("owner").for(POD).complete(owner.reconciler);
    const second = new Manager(env.client, { sharedCache: env.manager.cache });
    second.controller("guest").for(POD).complete(guest.reconciler);
    env.startManager();
    const stopGuest = new AbortController();
    const guestDone = second.start(stopGuest.signal);
    await waitFor("both Managers ready", () => env.manager.readyz() && second.readyz());
    await env.client.create(pod("shared"));
    await waitFor("both controllers saw the pod", () =>
      owner.seen.includes("t/shared") && guest.seen.includes("t/shared") ? true : undefined,
    );
    // One WATCH for both (waited on: under load the informer may be between a dropped watch and its next).
    await waitFor("one WATCH for both Managers", () => env.backend.openWatches(PODS_PREFIX) === 1);
    // The guest stopping leaves the owner's cache running.
    stopGuest.abort();
    await guestDone;
    await env.client.create(pod("after"));
    await waitFor("the owner still watches", () =>
      owner.seen.includes("t/after") ? true : undefined,
    );
    assert.equal(guest.seen.includes("t/after"), false);
    assert.equal(env.backend.openWatches(PODS_PREFIX), 1);
  });

  it("opens one WATCH per kind and scope however many controllers use it", async () => {
    const { manager } = env;
    const a = recorder();
    const b = recorder();
    const c = recorder();
    const d = recorder();
    manager.controller("a").for(POD).complete(a.reconciler);
    manager
      .controller("b")
      .watches(POD, (o) => [{ name: o.metadata.name! }])
      .complete(b.reconciler);
    manager.controller("c").for(CONFIG_MAP).owns(POD).complete(c.reconciler);
    manager
      .controller("d")
      .for(POD, { scope: { labelSelector: "app=x" } })
      .complete(d.reconciler);
    env.startManager();
    await waitFor("the Manager ready", () => manager.readyz());
    await env.client.create(pod("p1", { labels: { app: "x" } }));
    await waitFor("every controller saw p1", () =>
      [a, b, d].every((r) => r.seen.length > 0) ? true : undefined,
    );
    // One for the whole kind (a, b, c), one for the selector (d).
    assert.equal(env.backend.openWatches(PODS_PREFIX), 2);
    assert.equal(env.backend.openWatches("/registry/core/configmaps/"), 1);
    assert.deepEqual(a.seen, ["t/p1"]);
    assert.deepEqual(b.seen, ["p1"]);
    assert.deepEqual(d.seen, ["t/p1"]);
    assert.deepEqual(c.seen, [], "a pod without a controller owner maps to nothing");
  });

  it("serves get and list from memory, with selectors and indexes", async () => {
    const { manager } = env;
    manager.cache.index(POD, "app", (o) => (o.metadata.labels?.app ? [o.metadata.labels.app] : []));
    const r = recorder();
    manager.controller("pods").for(POD).complete(r.reconciler);
    await env.client.create(pod("p1", { labels: { app: "x" } }));
    await env.client.create(pod("p2", { labels: { app: "y" } }));
    env.startManager();
    await waitFor("both pods reconciled", () => (r.seen.length === 2 ? true : undefined));
    const { cache } = manager;
    const got = await cache.get({ ...POD, namespace: "t", name: "p1" });
    assert.equal(got.metadata.labels?.app, "x");
    got.metadata.labels = {};
    const again = await cache.get({ ...POD, namespace: "t", name: "p1" });
    assert.equal(again.metadata.labels?.app, "x", "a read is a copy");
    const byIndex = await cache.list(POD, { index: { name: "app", value: "y" } });
    assert.deepEqual(
      byIndex.items.map((o) => o.metadata.name),
      ["p2"],
    );
    const bySelector = await cache.list(POD, { labelSelector: "app in (x,z)", namespace: "t" });
    assert.deepEqual(
      bySelector.items.map((o) => o.metadata.name),
      ["p1"],
    );
    await assert.rejects(
      cache.get({ ...POD, namespace: "t", name: "nope" }),
      (e: unknown) => hasCode(e, 404) && /pods "nope" not found/.test(String(e)),
    );
    const live = await manager.apiReader.get({ ...POD, namespace: "t", name: "p2" });
    assert.equal(live.metadata.name, "p2");
  });

  it("maps owned children to their controller and watched objects through the map", async () => {
    const { manager } = env;
    const r = recorder();
    manager
      .controller("parents")
      .for(CONFIG_MAP)
      .owns(POD)
      .watches(SECRET, (o) =>
        o.metadata.labels?.parent ? [{ namespace: "t", name: o.metadata.labels.parent }] : [],
      )
      .complete(r.reconciler);
    env.startManager();
    await waitFor("the Manager ready", () => manager.readyz());
    const parent = await env.client.create<KubeObject>({
      apiVersion: "v1",
      kind: "ConfigMap",
      metadata: { name: "parent", namespace: "t" },
    });
    await waitFor("parent reconciled", () => (r.seen.includes("t/parent") ? true : undefined));
    r.seen.length = 0;
    const owner = (controller: boolean, kind = "ConfigMap") => ({
      apiVersion: "v1",
      kind,
      name: "parent",
      uid: parent.metadata.uid!,
      controller,
    });
    // Not a controller owner, then an owner of another kind: neither maps.
    await env.client.create(pod("other", { ownerReferences: [owner(false)] }));
    await env.client.create(pod("foreign", { ownerReferences: [owner(true, "Secret")] }));
    await env.client.create(pod("child", { ownerReferences: [owner(true)] }));
    await waitFor("child mapped", () => (r.seen.length > 0 ? true : undefined));
    await env.client.create({
      apiVersion: "v1",
      kind: "Secret",
      metadata: { name: "s", namespace: "t", labels: { parent: "watched" } },
    });
    await waitFor("secret mapped", () => (r.seen.includes("t/watched") ? true : undefined));
    assert.deepEqual(r.seen, ["t/parent", "t/watched"]);
  });

  it("lets an update through only when a predicate passes it", async () => {
    const { manager } = env;
    const filtered: string[] = [];
    const all: string[] = [];
    const cm = (o: KubeObject) => `${o.metadata.name}@${JSON.stringify(o.metadata.labels ?? {})}`;
    // Handlers of one informer run in order for each event: when `all` has seen
    // an event, the filtered source has already decided about it.
    manager
      .controller("filtered")
      .watches(
        CONFIG_MAP,
        (o) => {
          filtered.push(cm(o));
          return [];
        },
        { predicates: [labelsChanged] },
      )
      .complete(recorder().reconciler);
    manager
      .controller("all")
      .watches(CONFIG_MAP, (o) => {
        all.push(`${cm(o)}:${o.metadata.resourceVersion}`);
        return [];
      })
      .complete(recorder().reconciler);
    env.startManager();
    await waitFor("the Manager ready", () => manager.readyz());
    const created = await env.client.create<KubeObject>({
      apiVersion: "v1",
      kind: "ConfigMap",
      metadata: { name: "x", namespace: "t" },
    });
    const dataOnly = await env.client.update({ ...created, data: { k: "v" } });
    await waitFor("data update seen", () =>
      all.some((s) => s.endsWith(`:${dataOnly.metadata.resourceVersion}`)) ? true : undefined,
    );
    const labelled = await env.client.update<KubeObject>({
      ...dataOnly,
      metadata: { ...dataOnly.metadata, labels: { a: "b" } },
    });
    await waitFor("label update seen", () =>
      all.some((s) => s.endsWith(`:${labelled.metadata.resourceVersion}`)) ? true : undefined,
    );
    // The create, then the label change (old and new object); not the data change.
    assert.deepEqual(filtered, ["x@{}", "x@{}", 'x@{"a":"b"}']);
  });

  it("drops an informer on request, closing its watch", async () => {
    const { manager } = env;
    manager.controller("pods").for(POD).complete(recorder().reconciler);
    env.startManager();
    const open = (n: number) => () =>
      env.backend.openWatches(PODS_PREFIX) === n ? true : undefined;
    await waitFor("the pod watch open", open(1));
    manager.cache.drop(POD);
    await waitFor("the pod watch closed", open(0));
    await manager.cache.list(POD);
    await waitFor("a new pod watch open", open(1));
  });

  it("waits for a root kind not served yet with one info line, not errors, then starts", async () => {
    const r = recorder();
    const errors: string[] = [];
    const infos: string[] = [];
    const stop = new AbortController();
    const done = runOnOwnManager(
      env.client,
      stop.signal,
      (m) => m.controller("widgets").for(WIDGET).complete(r.reconciler),
      { log: (msg) => errors.push(msg), info: (msg) => infos.push(msg), resolveRetryMs: 5 },
    );
    try {
      await waitFor("the waiting line", () => (infos.length > 0 ? true : undefined));
      // Several more lookups fail meanwhile (one per retry); none is news.
      const lookups = () => env.client.mapper.resolve(WIDGET.apiVersion, WIDGET.kind);
      await assert.rejects(lookups());
      await env.client.create(openCrd("example.com", "Widget", "widgets"));
      await env.client.create({ ...WIDGET, metadata: { name: "w", namespace: "t" } });
      await waitFor("w reconciled", () => (r.seen.includes("t/w") ? true : undefined));
    } finally {
      stop.abort();
      await done;
    }
    assert.deepEqual(infos, [
      "controller widgets: waiting for example.com/v1 Widget to be served",
      "controller widgets: Widget is served now; starting",
    ]);
    assert.deepEqual(errors, []);
  });

  it("runs controllers alone on a Manager of their own, stop hooks included", async () => {
    const r = recorder();
    const calls: string[] = [];
    const stop = new AbortController();
    const done = runOnOwnManager(env.client, stop.signal, (m) => {
      assert.notEqual(m, env.manager, "a new Manager");
      m.controller("alone").for(POD).complete(r.reconciler);
      m.add(onStop(() => calls.push("stopped")));
    });
    try {
      await env.client.create(pod("p1"));
      await waitFor("p1 reconciled", () => (r.seen.includes("t/p1") ? true : undefined));
      // The informer lists before it watches: the reconcile may come first.
      await waitFor("its one watch open", () =>
        env.backend.openWatches(PODS_PREFIX) === 1 ? true : undefined,
      );
      assert.deepEqual(calls, [], "the stop hook waits for the signal");
    } finally {
      stop.abort();
      await done;
    }
    assert.deepEqual(calls, ["stopped"], "the Manager resolves after its stop hooks ran");
    await waitFor("its watch closed", () =>
      env.backend.openWatches(PODS_PREFIX) === 0 ? true : undefined,
    );
  });

  it("runs a raw source with its controller, feeding requests of its own", async () => {
    const { manager } = env;
    const r = recorder();
    let sourceStopped = false;
    manager
      .controller("raw")
      .watchesRaw(async (queue, signal) => {
        queue.add({ name: "uid-1" });
        queue.add({ namespace: "n", name: "x" });
        await untilAborted(signal);
        // A source that takes a moment to stop: the Manager must still wait for it.
        await new Promise((resolve) => setTimeout(resolve, 50));
        sourceStopped = true;
      })
      .complete(r.reconciler);
    env.startManager();
    await waitFor("both requests reconciled", () => (r.seen.length === 2 ? true : undefined));
    assert.deepEqual(r.seen.sort(), ["n/x", "uid-1"]);
    await env.stopManager();
    assert.ok(sourceStopped, "the Manager waits for its raw sources to stop");
  });
});
