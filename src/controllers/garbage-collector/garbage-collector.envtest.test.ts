/**
 * The garbage collector on the envtest apiserver: Background, Foreground and
 * Orphan propagation through chains of owners, dangling and replaced owners,
 * an owner in another namespace (not honoured, as kube), a cluster-scoped
 * owner, a kind whose CRD appears after the collector started, owner
 * references changed by updates, a 409 before each of its metadata patches,
 * and a crash between two of its writes.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import {
  type Call,
  conflictBefore,
  crashAfter,
  isWrite,
  useEnv,
} from "../../../test/support/controller-run.js";
import {
  CONFIG_MAP,
  configMap,
  createCrd,
  createNamespace,
  dropFinalizers,
  getOrGone,
  NODE,
  type ObjectExtras,
  ownerRef,
  refOf,
  SECRET,
  uniqueName,
  waitGone,
} from "../../../test/support/core-objects.js";
import { waitFor } from "../../../test/support/hearth-process.js";
import type { KubeObject, OwnerReference } from "../../api/index.js";
import type { Client } from "../../client/index.js";
import { GarbageCollector } from "./garbage-collector.js";

const HOLD = "example.com/hold";

describe("garbage collector (envtest)", () => {
  const env = useEnv<GarbageCollector>();
  let ns: string;

  /** Runs a collector that uses `client` for its reads and writes. */
  const start = (client: Client = env.client) =>
    env.start((m) => {
      const gc = new GarbageCollector(client, { resyncDiscoveryMs: 60_000 });
      gc.register(m);
      return gc;
    });
  /** A fresh namespace for the test. */
  const freshNamespace = async () => {
    ns = uniqueName("gc");
    await createNamespace(env.client, ns);
    return ns;
  };
  const cm = (name: string, extra: ObjectExtras = {}, type = CONFIG_MAP) =>
    env.client.create(configMap(ns, name, extra, type));
  const exists = async (o: KubeObject) => (await getOrGone(env.client, refOf(o))) !== undefined;
  const ownersOf = async (o: KubeObject) =>
    (await env.client.get(refOf(o))).metadata.ownerReferences;
  /**
   * Waits until the collector has looked at `obj` (its node in the graph) and
   * has nothing queued, so a test can assert that it decided to keep it.
   */
  const settled = async (obj: KubeObject) => {
    const gc = env.run!.handles;
    await waitFor(`the collector settled on ${obj.metadata.name}`, () =>
      gc.graph.get(obj.metadata.uid!) && gc.controller?.loop.queue.length === 0 ? true : undefined,
    );
  };

  /** Waits until the collector's graph holds every one of `objs` (informers of kinds lag apart). */
  const observed = (...objs: KubeObject[]) =>
    waitFor("the collector observed every object", () =>
      objs.every((o) => env.run!.handles.graph.get(o.metadata.uid!)) ? true : undefined,
    );

  it("deletes a chain of dependents in the background once the owner is gone", async () => {
    await freshNamespace();
    await start();
    const owner = await cm("owner");
    const child = await cm("child", { owners: [ownerRef(owner)] }, SECRET);
    const sibling = await cm("sibling", { owners: [ownerRef(owner)] });
    const grandchild = await cm("grandchild", { owners: [ownerRef(child)] });
    const bystander = await cm("bystander");
    await observed(child, sibling, grandchild);
    await settled(grandchild);
    assert.ok(await exists(grandchild), "kept while its owners exist");
    await env.client.delete(refOf(owner));
    for (const o of [child, sibling, grandchild]) await waitGone(env.client, refOf(o));
    assert.ok(await exists(bystander), "an object without owners is not touched");
  });

  it("holds a foreground deletion until every blocking dependent is gone", async () => {
    await freshNamespace();
    await start();
    const owner = await cm("owner");
    const blocking = await cm("blocking", {
      owners: [ownerRef(owner, { blockOwnerDeletion: true })],
      finalizers: [HOLD],
    });
    const free = await cm("free", { owners: [ownerRef(owner)] });
    const grandchild = await cm("grandchild", {
      owners: [ownerRef(free, { blockOwnerDeletion: true })],
    });
    await observed(blocking, free, grandchild);
    await env.client.delete(refOf(owner), { propagationPolicy: "Foreground" });
    await waitGone(env.client, refOf(free));
    await waitGone(env.client, refOf(grandchild));
    const marked = await waitFor("the blocking dependent marked", async () => {
      const o = await env.client.get(refOf(blocking));
      return o.metadata.deletionTimestamp ? o : undefined;
    });
    assert.deepEqual(marked.metadata.finalizers, [HOLD]);
    await settled(marked);
    const held = await env.client.get(refOf(owner));
    assert.ok(held.metadata.deletionTimestamp, "the owner is being deleted");
    assert.deepEqual(held.metadata.finalizers, ["foregroundDeletion"]);
    await dropFinalizers(env.client, refOf(blocking));
    await waitGone(env.client, refOf(owner));
  });

  it("orphans dependents on request, keeping their other owners", async () => {
    await freshNamespace();
    await start();
    const owner = await cm("owner");
    const other = await cm("other");
    const both = await cm("both", { owners: [ownerRef(owner), ownerRef(other)] });
    const only = await cm("only", { owners: [ownerRef(owner)] }, SECRET);
    await observed(both, only);
    await env.client.delete(refOf(owner), { propagationPolicy: "Orphan" });
    await waitGone(env.client, refOf(owner));
    assert.deepEqual(await ownersOf(both), [ownerRef(other)]);
    assert.equal(await ownersOf(only), undefined, "no ownerReferences left at all");
    await settled(only);
    assert.ok(await exists(only), "an orphan is not collected");
  });

  it("deletes a dependent whose owner never existed, and drops only a dangling reference", async () => {
    await freshNamespace();
    await start();
    const live = await cm("live");
    const ghost: OwnerReference = {
      apiVersion: "v1",
      kind: "ConfigMap",
      name: "ghost",
      uid: "00000000-0000-0000-0000-000000000000",
    };
    const dangling = await cm("dangling", { owners: [ghost] });
    const mixed = await cm("mixed", { owners: [ghost, ownerRef(live)] });
    await waitGone(env.client, refOf(dangling));
    await waitFor("the dangling reference dropped", async () =>
      (await ownersOf(mixed))?.length === 1 ? true : undefined,
    );
    assert.deepEqual(await ownersOf(mixed), [ownerRef(live)]);
    assert.ok(await exists(mixed));
  });

  it("does not take an owner recreated under the same name for the one that was deleted", async () => {
    await freshNamespace();
    const owner = await cm("owner");
    const dep = await cm("dep", { owners: [ownerRef(owner)] });
    // Deleted and recreated while no collector ran.
    await env.client.delete(refOf(owner));
    const again = await cm("owner");
    assert.notEqual(again.metadata.uid, owner.metadata.uid);
    await start();
    await waitGone(env.client, refOf(dep));
    assert.ok(await exists(again), "the new owner stays");
  });

  it("does not honour an owner in another namespace (kube: treated as absent)", async () => {
    await freshNamespace();
    const elsewhere = uniqueName("gc-other");
    await createNamespace(env.client, elsewhere);
    const foreign = await env.client.create(configMap(elsewhere, "owner"));
    // Same name in the dependent's namespace, other uid: not the owner either.
    await cm("owner");
    await start();
    const dep = await cm("dep", { owners: [ownerRef(foreign)] });
    await waitGone(env.client, refOf(dep));
    assert.ok(await exists(foreign), "the foreign object itself is not touched");
  });

  it("honours a cluster-scoped owner of a namespaced dependent", async () => {
    await freshNamespace();
    await start();
    const node = await env.client.create({ ...NODE, metadata: { name: uniqueName("gc-node") } });
    const dep = await cm("dep", { owners: [ownerRef(node)] });
    await settled(dep);
    assert.ok(await exists(dep), "kept while the Node exists");
    await env.client.delete(refOf(node));
    await waitGone(env.client, refOf(dep));
  });

  it("collects objects of a kind whose CRD appears after it started", async () => {
    await freshNamespace();
    await start();
    const group = `${uniqueName("late")}.gc.test.hearth.io`;
    const gadget = await createCrd(env.client, group, "Gadget", "gadgets");
    const owner = await cm("owner");
    const dep = await env.client.create(
      configMap(ns, "dep", { owners: [ownerRef(owner)] }, gadget),
    );
    await waitFor("the collector watches gadgets", () =>
      env.run!.handles.graph.get(dep.metadata.uid!) ? true : undefined,
    );
    await env.client.delete(refOf(owner));
    await waitGone(env.client, refOf(dep));
  });

  it("follows owner references changed by updates", async () => {
    await freshNamespace();
    await start();
    const owner = await cm("owner");
    const released = await cm("released", { owners: [ownerRef(owner)] });
    const adopted = await cm("adopted");
    // One loses its owner, the other gains it, before the owner goes.
    await env.client.patch(
      refOf(released),
      { metadata: { ownerReferences: null } },
      { type: "merge" },
    );
    await env.client.patch(
      refOf(adopted),
      { metadata: { ownerReferences: [ownerRef(owner)] } },
      { type: "merge" },
    );
    await settled(adopted);
    await env.client.delete(refOf(owner));
    await waitGone(env.client, refOf(adopted));
    await settled(released);
    assert.ok(await exists(released), "no longer a dependent: kept");
  });

  /** Table: another writer changes an object just before one of the collector's patches. */
  const conflicts: {
    name: string;
    policy: "Orphan" | "Foreground";
    /** Whose patch: the dependent's (orphaning) or the owner's (its finalizer). */
    patched: "dep" | "owner";
  }[] = [
    { name: "it strips the owner from a dependent", policy: "Orphan", patched: "dep" },
    { name: "it removes the orphan finalizer", policy: "Orphan", patched: "owner" },
    { name: "it removes the foregroundDeletion finalizer", policy: "Foreground", patched: "owner" },
  ];
  for (const k of conflicts) {
    it(`converges when the object changes just before ${k.name} (409)`, async () => {
      await freshNamespace();
      const owner = await cm("owner");
      const dep = await cm("dep", { owners: [ownerRef(owner)] });
      const target = k.patched === "dep" ? dep : owner;
      const at = (c: Call) =>
        isWrite(c, "ConfigMap", "patch") &&
        (c.args[0] as { name: string }).name === target.metadata.name;
      const { client, seen } = conflictBefore(env.client, at, () =>
        env.client.patch(
          refOf(target),
          { metadata: { labels: { touched: "yes" } } },
          { type: "merge" },
        ),
      );
      await start(client);
      await observed(owner, dep);
      await env.client.delete(refOf(owner), { propagationPolicy: k.policy });
      await waitGone(env.client, refOf(owner));
      if (k.policy === "Orphan") {
        const kept = await env.client.get(refOf(dep));
        assert.equal(kept.metadata.ownerReferences, undefined);
        if (k.patched === "dep") assert.equal(kept.metadata.labels?.touched, "yes");
      } else {
        await waitGone(env.client, refOf(dep));
      }
      assert.equal(seen.interfered, 1);
      assert.equal(seen.conflicts, 1, "the patch after the concurrent change got a 409");
    });
  }

  /** Table: the collector dies right after one write; a new one finishes the job. */
  const crashes: {
    name: string;
    policy: "Orphan" | "Foreground" | "Background";
    at: (call: Call) => boolean;
  }[] = [
    {
      name: "after orphaning the first of two dependents",
      policy: "Orphan",
      at: (c) => isWrite(c, "ConfigMap", "patch"),
    },
    {
      name: "after deleting the first of two dependents in the foreground",
      policy: "Foreground",
      at: (c) => isWrite(c, "ConfigMap", "delete"),
    },
    {
      name: "after deleting a dependent that has dependents of its own",
      policy: "Background",
      at: (c) => isWrite(c, "ConfigMap", "delete"),
    },
  ];
  for (const k of crashes) {
    it(`finishes a ${k.policy} deletion after a crash ${k.name}`, async () => {
      await freshNamespace();
      const owner = await cm("owner");
      const deps = [
        await cm("dep-a", { owners: [ownerRef(owner, { blockOwnerDeletion: true })] }),
        await cm("dep-b", { owners: [ownerRef(owner, { blockOwnerDeletion: true })] }),
      ];
      const grandchildren = await Promise.all(
        deps.map((d) => cm(`${d.metadata.name}-child`, { owners: [ownerRef(d)] }, SECRET)),
      );
      const { client, crashed } = crashAfter(env.client, k.at);
      const first = await start(client);
      await observed(owner, ...deps, ...grandchildren);
      await env.client.delete(refOf(owner), { propagationPolicy: k.policy });
      await crashed;
      await first.stop();
      // The owner outlives the crash; what its dependents show depends on the policy.
      // (Two workers may each land one write before the crash.)
      const present = await Promise.all(deps.map(exists));
      if (k.policy === "Background") {
        assert.ok(present.includes(false), "a dependent was deleted before the crash");
      } else {
        const held = await env.client.get(refOf(owner));
        assert.ok(held.metadata.deletionTimestamp);
        assert.deepEqual(held.metadata.finalizers, [
          k.policy === "Orphan" ? "orphan" : "foregroundDeletion",
        ]);
      }
      if (k.policy === "Orphan") {
        const owners = await Promise.all(deps.map(ownersOf));
        assert.equal(owners.filter((o) => o === undefined).length, 1, "one dependent orphaned");
      }
      await start();
      if (k.policy === "Orphan") {
        await waitGone(env.client, refOf(owner));
        for (const d of deps) assert.equal(await ownersOf(d), undefined);
        for (const g of grandchildren) assert.ok(await exists(g));
      } else {
        for (const o of [owner, ...deps, ...grandchildren]) await waitGone(env.client, refOf(o));
      }
    });
  }
});
