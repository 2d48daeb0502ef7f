/**
 * The namespace controller on the envtest apiserver: a terminating namespace is
 * emptied pods first, then every other kind (custom resources too), and goes
 * once empty; its conditions say what remains, which finalizers hold it, and
 * when discovery or a deletion failed; a live namespace is left alone; a 409
 * between its read and write, and a crash between its steps, still end with the
 * namespace gone.
 */
import assert from "node:assert/strict";
import { before, describe, it } from "node:test";
import {
  type Call,
  conflictBefore,
  counted,
  crashAfter,
  intercept,
  isRequest,
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
  NAMESPACE,
  POD,
  refOf,
  SECRET,
  uniqueName,
  waitGone,
} from "../../../test/support/core-objects.js";
import { waitFor } from "../../../test/support/hearth-process.js";
import type { KubeObject } from "../../api/index.js";
import { ApiError } from "../../api/index.js";
import type { Client } from "../../client/index.js";
import type { Manager } from "../../runtime/index.js";
import type { NamespaceCondition } from "./conditions.js";
import { NamespaceReconciler } from "./namespace-controller.js";

const HOLD = "example.com/hold";

interface NamespaceStatus {
  phase?: string;
  conditions?: NamespaceCondition[];
}

function pod(namespace: string, name: string, finalizers?: string[]): KubeObject {
  return {
    ...POD,
    metadata: { name, namespace, ...(finalizers ? { finalizers } : {}) },
    spec: { containers: [{ name: "c", image: "busybox" }] },
  };
}

describe("namespace controller (envtest)", () => {
  const env = useEnv();
  let widget: { apiVersion: string; kind: string };
  before(async () => {
    widget = await createCrd(env.client, "ns.test.hearth.io", "Widget", "widgets");
  });

  /** Runs the namespace controller with `client` (the real one unless a test wraps it). */
  const start = (client: Client = env.client, wrap = (r: NamespaceReconciler) => r) =>
    env.start((m: Manager) => {
      m.controller("namespace")
        .for(NAMESPACE)
        .workers(2)
        .complete(wrap(new NamespaceReconciler(client)));
    });

  const nsRef = (name: string) => ({ ...NAMESPACE, name });
  const statusOf = async (name: string) =>
    ((await env.client.get(nsRef(name))).status ?? {}) as NamespaceStatus;
  /** Waits until the namespace's condition `type` has `status` and returns it. */
  const condition = (name: string, type: string, status: "True" | "False") =>
    waitFor(`${name} ${type}=${status}`, async () => {
      const c = (await statusOf(name)).conditions?.find((x) => x.type === type);
      return c?.status === status ? c : undefined;
    });
  const names = async (type: { apiVersion: string; kind: string }, namespace: string) =>
    (await env.client.list(type, { namespace })).items.map((o) => o.metadata.name).sort();

  /** A namespace with a pod, a ConfigMap, a Secret and a Widget in it. */
  async function populated(prefix: string, podFinalizers?: string[]) {
    const ns = uniqueName(prefix);
    await createNamespace(env.client, ns);
    await env.client.create(pod(ns, "p", podFinalizers));
    await env.client.create(configMap(ns, "cm"));
    await env.client.create(configMap(ns, "s", {}, SECRET));
    await env.client.create(configMap(ns, "w", {}, widget));
    return ns;
  }

  it("deletes pods first, touches nothing else while one remains, then empties and removes it", async () => {
    const ns = await populated("order", [HOLD]);
    const bystander = await populated("bystander");
    await start();
    await env.client.delete(nsRef(ns));
    const remaining = await condition(ns, "NamespaceContentRemaining", "True");
    assert.equal(remaining.reason, "SomeResourcesRemain");
    assert.equal(remaining.message, "Some resources are remaining: pods has 1 resource instances");
    const held = await condition(ns, "NamespaceFinalizersRemaining", "True");
    assert.equal(
      held.message,
      `Some content in the namespace has finalizers remaining: ${HOLD} in 1 resource instances`,
    );
    assert.equal((await statusOf(ns)).phase, "Terminating");
    // KEP-5080: nothing but pods is touched while a pod remains.
    assert.deepEqual(await names(CONFIG_MAP, ns), ["cm"]);
    assert.deepEqual(await names(SECRET, ns), ["s"]);
    assert.deepEqual(await names(widget, ns), ["w"]);
    const p = await env.client.get({ ...POD, namespace: ns, name: "p" });
    assert.ok(p.metadata.deletionTimestamp, "the pod is being deleted");
    await dropFinalizers(env.client, refOf(p));
    await waitGone(env.client, nsRef(ns));
    for (const type of [POD, CONFIG_MAP, SECRET, widget])
      assert.deepEqual(await names(type, ns), [], `no ${type.kind} left in ${ns}`);
    // Another namespace's content is not touched.
    assert.deepEqual(await names(CONFIG_MAP, bystander), ["cm"]);
    assert.deepEqual(await names(widget, bystander), ["w"]);
    assert.deepEqual(await names(POD, bystander), ["p"]);
  });

  it("names a finalizer that holds a custom resource, with every condition as kube words it", async () => {
    const ns = uniqueName("held");
    await createNamespace(env.client, ns);
    await env.client.create(
      configMap(ns, "w1", { finalizers: [HOLD, "example.com/other"] }, widget),
    );
    await env.client.create(configMap(ns, "w2", { finalizers: [HOLD] }, widget));
    await env.client.create(configMap(ns, "free"));
    await start();
    await env.client.delete(nsRef(ns));
    await waitFor("only the held widgets remain", async () =>
      (await names(CONFIG_MAP, ns)).length === 0 ? true : undefined,
    );
    const byType = await waitFor("the conditions", async () => {
      const conditions = (await statusOf(ns)).conditions ?? [];
      const m = Object.fromEntries(conditions.map((c) => [c.type, c]));
      return m.NamespaceFinalizersRemaining?.status === "True" ? m : undefined;
    });
    const summary = Object.values(byType).map((c) => [c.type, c.status, c.reason, c.message]);
    assert.deepEqual(summary, [
      [
        "NamespaceDeletionDiscoveryFailure",
        "False",
        "ResourcesDiscovered",
        "All resources successfully discovered",
      ],
      [
        "NamespaceDeletionGroupVersionParsingFailure",
        "False",
        "ParsedGroupVersions",
        "All legacy kube types successfully parsed",
      ],
      [
        "NamespaceDeletionContentFailure",
        "False",
        "ContentDeleted",
        "All content successfully deleted, may be waiting on finalization",
      ],
      [
        "NamespaceContentRemaining",
        "True",
        "SomeResourcesRemain",
        "Some resources are remaining: widgets.ns.test.hearth.io has 2 resource instances",
      ],
      [
        "NamespaceFinalizersRemaining",
        "True",
        "SomeFinalizersRemain",
        "Some content in the namespace has finalizers remaining: example.com/hold in 2 resource instances, example.com/other in 1 resource instances",
      ],
    ]);
    for (const c of Object.values(byType)) assert.ok(c.lastTransitionTime, `${c.type} has a time`);
    await dropFinalizers(env.client, { ...widget, namespace: ns, name: "w1" });
    await waitFor("one widget left", async () => {
      const c = (await statusOf(ns)).conditions?.find(
        (x) => x.type === "NamespaceContentRemaining",
      );
      return c?.message.endsWith("has 1 resource instances") ? c : undefined;
    });
    await dropFinalizers(env.client, { ...widget, namespace: ns, name: "w2" });
    await waitGone(env.client, nsRef(ns));
  });

  it("removes only its own spec finalizer and leaves the others to their owners", async () => {
    const ns = uniqueName("spec-final");
    await createNamespace(env.client, ns, { spec: { finalizers: ["example.com/ns-hold"] } });
    await env.client.create(configMap(ns, "cm"));
    await start();
    await env.client.delete(nsRef(ns));
    const left = await waitFor("the kubernetes finalizer removed", async () => {
      const o = await env.client.get(nsRef(ns));
      const f = (o.spec as { finalizers?: string[] }).finalizers ?? [];
      return f.includes("kubernetes") ? undefined : o;
    });
    assert.deepEqual((left.spec as { finalizers?: string[] }).finalizers, ["example.com/ns-hold"]);
    assert.deepEqual(await names(CONFIG_MAP, ns), []);
    const c = await condition(ns, "NamespaceContentRemaining", "False");
    assert.equal(c.reason, "ContentRemoved");
    // Whoever owns the other finalizer finalizes; then the namespace goes.
    const res = await env.client.request(
      "PUT",
      `/api/v1/namespaces/${ns}/finalize`,
      JSON.stringify({ ...left, spec: { finalizers: [] } }),
      { "Content-Type": "application/json" },
    );
    assert.equal(res.status, 200, res.body);
    await waitGone(env.client, nsRef(ns));
  });

  it("leaves a live namespace and its content alone, however it changes", async () => {
    const ns = await populated("live");
    const passes = counted(new NamespaceReconciler(env.client));
    await env.start((m) => {
      m.controller("namespace").for(NAMESPACE).complete(passes.reconciler);
    });
    await waitFor("the namespace reconciled", () => passes.passes(ns) >= 1);
    await env.client.patch(nsRef(ns), { metadata: { labels: { x: "y" } } }, { type: "merge" });
    await waitFor("the update reconciled", () => passes.passes(ns) >= 2);
    const o = await env.client.get(nsRef(ns));
    assert.equal(o.metadata.deletionTimestamp, undefined);
    assert.equal(((o.status ?? {}) as NamespaceStatus).conditions, undefined, "no conditions");
    for (const type of [POD, CONFIG_MAP, SECRET, widget])
      assert.equal((await names(type, ns)).length, 1, `the ${type.kind} is still there`);
  });

  /** Table: a failure the controller reports in a condition, then recovers from. */
  const failures: {
    name: string;
    fails: (call: Call) => boolean;
    type: string;
    reason: string;
    message: RegExp;
  }[] = [
    {
      name: "a content deletion that fails",
      fails: (c) => isWrite(c, "Secret", "deleteCollection"),
      type: "NamespaceDeletionContentFailure",
      reason: "ContentDeletionFailed",
      message: /^Failed to delete all resource types: secrets: .*injected outage/,
    },
    {
      name: "discovery that fails",
      fails: (c) => c.method === "request" && String(c.args[1]).startsWith("/apis"),
      type: "NamespaceDeletionDiscoveryFailure",
      reason: "DiscoveryFailed",
      message: /^Discovery failed for some groups: .*injected outage/,
    },
  ];
  for (const f of failures) {
    it(`reports ${f.name} in ${f.type} and finishes once it works again`, async () => {
      const ns = await populated("failing");
      let failing = true;
      const client = intercept(env.client, {
        before(call) {
          if (failing && f.fails(call)) throw new ApiError(500, "InternalError", "injected outage");
        },
      });
      await start(client);
      await env.client.delete(nsRef(ns));
      const c = await condition(ns, f.type, "True");
      assert.equal(c.reason, f.reason);
      assert.match(c.message, f.message);
      assert.ok(await getOrGone(env.client, nsRef(ns)), "held while it fails");
      failing = false;
      await waitGone(env.client, nsRef(ns));
    });
  }

  /** Table: another writer changes the namespace just before one of the controller's writes. */
  const conflicts: { name: string; at: (call: Call) => boolean; held: boolean }[] = [
    { name: "its status write", at: (c) => isWrite(c, "Namespace", "updateStatus"), held: true },
    { name: "its finalize", at: (c) => isRequest(c, "PUT", "/finalize"), held: false },
  ];
  for (const k of conflicts) {
    it(`converges when the namespace changes just before ${k.name} (409)`, async () => {
      const ns = uniqueName("conflict");
      await createNamespace(env.client, ns);
      if (k.held) await env.client.create(configMap(ns, "cm", { finalizers: [HOLD] }));
      const label = (n: number) =>
        env.client.patch(
          nsRef(ns),
          { metadata: { labels: { touched: `${n}` } } },
          { type: "merge" },
        );
      let n = 0;
      const { client, seen } = conflictBefore(env.client, k.at, () => label(++n));
      await start(client);
      await env.client.delete(nsRef(ns));
      if (k.held) {
        await condition(ns, "NamespaceFinalizersRemaining", "True");
        await dropFinalizers(env.client, { ...CONFIG_MAP, namespace: ns, name: "cm" });
      }
      await waitGone(env.client, nsRef(ns));
      assert.equal(seen.interfered, 1);
      assert.equal(seen.conflicts, 1, "the write after the concurrent change got a 409");
    });
  }

  /** Table: the controller dies right after one write; a new one finishes the deletion. */
  const crashes: {
    name: string;
    at: (call: Call) => boolean;
    /** What the dead controller left, checked before the restart. */
    left: (ns: string) => Promise<void>;
  }[] = [
    {
      name: "after deleting the pods, before the rest",
      at: (c) => isWrite(c, "Pod", "deleteCollection"),
      left: async (ns) => {
        assert.deepEqual(await names(POD, ns), []);
        assert.deepEqual(await names(CONFIG_MAP, ns), ["cm"]);
        assert.deepEqual(await names(widget, ns), ["w"]);
      },
    },
    {
      name: "after deleting some kinds, before the others",
      at: (c) => isWrite(c, "ConfigMap", "deleteCollection"),
      left: async (ns) => {
        assert.deepEqual(await names(CONFIG_MAP, ns), []);
        assert.deepEqual(await names(widget, ns), ["w"]);
      },
    },
    {
      name: "after the status write, before finalize",
      at: (c) =>
        isWrite(c, "Namespace", "updateStatus") &&
        !JSON.stringify(c.args[0]).includes("SomeResourcesRemain"),
      left: async (ns) => {
        for (const type of [POD, CONFIG_MAP, SECRET, widget])
          assert.deepEqual(await names(type, ns), []);
        const o = await env.client.get(nsRef(ns));
        assert.deepEqual((o.spec as { finalizers?: string[] }).finalizers, ["kubernetes"]);
      },
    },
  ];
  for (const k of crashes) {
    it(`finishes after a crash ${k.name}`, async () => {
      const ns = await populated("crash");
      const { client, crashed } = crashAfter(env.client, k.at);
      const first = await start(client);
      await env.client.delete(nsRef(ns));
      await crashed;
      await first.stop();
      await k.left(ns);
      assert.ok(await getOrGone(env.client, nsRef(ns)), "the namespace outlives the crash");
      await start();
      await waitGone(env.client, nsRef(ns));
    });
  }
});
