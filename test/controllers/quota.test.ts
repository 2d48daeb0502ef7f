/**
 * The ResourceQuota controller on the envtest tier: `status.hard` follows
 * `spec.hard` and `status.used` is measured from the namespace's pods, claims,
 * services and config maps; a deleted pod or claim, or a pod turning terminal,
 * releases its share without waiting for a resync; a scope counts only its
 * pods; a status write that conflicts with another writer's is measured again;
 * a Manager restarted after objects went away while it was down measures them
 * afresh; and the periodic resync repairs a status someone else drifted.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { canonicalList, listsEqual, type ResourceQuota } from "../../src/api/index.js";
import type { KubeObject } from "../../src/api/types.js";
import type { Client } from "../../src/client/index.js";
import { QuotaController } from "../../src/controllers/quota/index.js";
import { FakeClock } from "../../src/runtime/index.js";
import { conflictBefore, isWrite, useEnv } from "../support/controller-run.js";
import { configMap, createNamespace, getOrGone, waitForObject } from "../support/core-objects.js";
import { waitFor } from "../support/hearth-process.js";

const HARD = {
  pods: "10",
  "requests.cpu": "4",
  persistentvolumeclaims: "5",
  "requests.storage": "10Gi",
  services: "5",
  "count/configmaps": "5",
};

function pod(name: string, ns: string, cpu?: string): KubeObject {
  return {
    apiVersion: "v1",
    kind: "Pod",
    metadata: { name, namespace: ns },
    spec: {
      containers: [
        {
          name: "c",
          image: "busybox",
          ...(cpu ? { resources: { requests: { cpu }, limits: { cpu } } } : {}),
        },
      ],
    },
  };
}

const claim = (name: string, ns: string, storage: string): KubeObject => ({
  apiVersion: "v1",
  kind: "PersistentVolumeClaim",
  metadata: { name, namespace: ns },
  spec: { accessModes: ["ReadWriteOnce"], resources: { requests: { storage } } },
});

/** kube's --resource-quota-sync-period, the controller's default resync. */
const RESYNC_MS = 5 * 60_000;

/** The one quota of each test namespace (add its namespace). */
const QUOTA = { apiVersion: "v1", kind: "ResourceQuota", name: "q" };

describe("ResourceQuota controller", () => {
  const env = useEnv();
  let n = 0;

  const start = (client: Client = env.client, clock?: FakeClock) =>
    env.start((m) => new QuotaController(client).register(m), {
      client,
      ...(clock ? { clock } : {}),
    });
  /**
   * A namespace with quota `q`. With `settled` (a Manager runs), waits until the
   * controller filled in `status.hard`: admission charges only such a quota, and
   * creations are not events for the controller (kube's neither), so an object
   * created before could go uncounted until the resync.
   */
  async function freshNamespace(
    hard: Record<string, string> = HARD,
    scopes?: string[],
    settled = true,
  ) {
    const ns = `q${++n}`;
    await createNamespace(env.client, ns);
    await env.client.create({
      apiVersion: "v1",
      kind: "ResourceQuota",
      metadata: { name: "q", namespace: ns },
      spec: { hard, ...(scopes ? { scopes } : {}) },
    });
    if (settled)
      await waitForObject(
        `quota in ${ns} filled in`,
        () => quota(ns),
        (q) => listsEqual(q.status?.hard ?? {}, canonicalList(q.spec?.hard ?? {})),
      );
    return ns;
  }
  const quota = (ns: string) => getOrGone<ResourceQuota>(env.client, { ...QUOTA, namespace: ns });
  /** Waits until the quota's used values are exactly `used` (and its hard is its spec). */
  const usedIs = async (ns: string, used: Record<string, string>) => {
    try {
      return await waitForObject(
        `quota in ${ns} used ${JSON.stringify(used)}`,
        () => quota(ns),
        (q) =>
          listsEqual(q.status?.hard ?? {}, canonicalList(q.spec?.hard ?? {})) &&
          Object.entries(used).every(([k, v]) => q.status?.used?.[k] === v),
      );
    } catch (e) {
      // Say what the quota shows, so a failure says how far it got.
      const last = await quota(ns);
      throw new Error(`${(e as Error).message}; last status ${JSON.stringify(last?.status)}`, {
        cause: e,
      });
    }
  };
  const del = (kind: string, name: string, ns: string) =>
    env.client.delete({ apiVersion: "v1", kind, name, namespace: ns }, { gracePeriodSeconds: 0 });

  it("fills in hard and measures the namespace's usage of every kind it counts", async () => {
    await start();
    const ns = await freshNamespace();
    await usedIs(ns, { pods: "0", "requests.cpu": "0", services: "0", "count/configmaps": "0" });
    await env.client.create(pod("a", ns, "500m"));
    await env.client.create(pod("b", ns, "1"));
    await env.client.create(claim("c1", ns, "2Gi"));
    await env.client.create(configMap(ns, "cm"));
    const q = await usedIs(ns, {
      pods: "2",
      "requests.cpu": "1500m",
      persistentvolumeclaims: "1",
      "requests.storage": "2Gi",
      "count/configmaps": "1",
    });
    assert.deepEqual(Object.keys(q.status?.used ?? {}).sort(), Object.keys(HARD).sort());
  });

  it("releases a deleted pod's and claim's share, and a pod's that turned terminal", async () => {
    await start();
    const ns = await freshNamespace();
    await env.client.create(pod("a", ns, "1"));
    const b = await env.client.create(pod("b", ns, "1"));
    await env.client.create(claim("c1", ns, "3Gi"));
    await usedIs(ns, { pods: "2", "requests.cpu": "2", "requests.storage": "3Gi" });
    await del("Pod", "a", ns);
    await del("PersistentVolumeClaim", "c1", ns);
    // Admission put pvc-protection on it and no storage controller runs here: let it go.
    await env.client.patch(
      { apiVersion: "v1", kind: "PersistentVolumeClaim", name: "c1", namespace: ns },
      { metadata: { finalizers: null } },
      { type: "merge" },
    );
    await usedIs(ns, {
      pods: "1",
      "requests.cpu": "1",
      persistentvolumeclaims: "0",
      "requests.storage": "0",
    });
    await env.client.updateStatus({ ...b, status: { phase: "Succeeded" } });
    await usedIs(ns, { pods: "0", "requests.cpu": "0" });
  });

  it("follows a changed spec.hard, dropping names no longer counted", async () => {
    await start();
    const ns = await freshNamespace({ pods: "3", "count/configmaps": "2" });
    await env.client.create(configMap(ns, "cm"));
    await usedIs(ns, { pods: "0", "count/configmaps": "1" });
    const q = (await quota(ns))!;
    await env.client.update({ ...q, spec: { hard: { pods: "7" } } });
    const after = await waitForObject(
      "hard follows spec",
      () => quota(ns),
      (o) => o.status?.hard?.pods === "7",
    );
    assert.deepEqual(after.status?.hard, { pods: "7" });
    assert.deepEqual(after.status?.used, { pods: "0" });
  });

  it("counts only the pods in the quota's scope", async () => {
    await start();
    const ns = await freshNamespace({ pods: "5" }, ["BestEffort"]);
    await env.client.create(pod("best-effort", ns));
    await env.client.create(pod("guaranteed", ns, "100m"));
    await usedIs(ns, { pods: "1" });
  });

  it("measures again when its status write conflicts with another writer's", async () => {
    // Just before each of the controller's first two status writes, someone else writes its status.
    const { client, seen } = conflictBefore(
      env.client,
      (call) => isWrite(call, "ResourceQuota", "updateStatus"),
      (call, nth) => {
        const q = call.args[0] as ResourceQuota;
        // A status write (as admission's charge is): no event the controller would react to.
        return env.client.patchStatus(
          { ...QUOTA, namespace: q.metadata.namespace },
          {
            status: {
              hard: q.status?.hard,
              used: { "count/configmaps": `${6 + nth}` },
            },
          },
          { type: "merge" },
        );
      },
      2,
    );
    await env.run?.stop(); // no other Manager measures this namespace first
    const ns = await freshNamespace({ "count/configmaps": "5" }, undefined, false);
    await env.client.create(configMap(ns, "one"));
    await env.client.create(configMap(ns, "two"));
    await start(client);
    const q = await usedIs(ns, { "count/configmaps": "2" });
    assert.equal(seen.interfered, 2, "another writer went before both first writes");
    assert.equal(seen.conflicts, 2, "both first writes conflicted");
    assert.equal(q.status?.used?.["count/configmaps"], "2", "measured, not the other writer's 8");
  });

  it("a Manager restarted after objects went away while it was down measures them afresh", async () => {
    await start();
    const ns = await freshNamespace({ pods: "5", "count/configmaps": "5" });
    for (const name of ["a", "b", "c"]) await env.client.create(pod(name, ns));
    await env.client.create(configMap(ns, "cm"));
    await usedIs(ns, { pods: "3", "count/configmaps": "1" });
    await env.run?.stop();
    await del("Pod", "a", ns);
    await del("Pod", "b", ns);
    await del("ConfigMap", "cm", ns);
    assert.equal((await quota(ns))?.status?.used?.pods, "3", "nothing measured while down");
    await start();
    await usedIs(ns, { pods: "1", "count/configmaps": "0" });
  });

  it("the periodic resync, on the Manager's clock, repairs a status someone else drifted", async () => {
    const clock = new FakeClock();
    const resync = clock.now() + RESYNC_MS;
    await start(env.client, clock);
    const ns = await freshNamespace({ pods: "5" });
    await env.client.create(pod("a", ns));
    const q = await usedIs(ns, { pods: "1" });
    // A status write is no event for the controller: only the resync sees it.
    await env.client.updateStatus({ ...q, status: { hard: q.status?.hard, used: { pods: "4" } } });
    // Nothing else waits on the clock once the reconciles are done (their deadlines are cancelled).
    await waitFor("the resync timer alone", () => clock.nextDue() === resync);
    clock.advanceTo(resync - 1);
    assert.equal(clock.nextDue(), resync, "no resync before its period");
    assert.equal((await quota(ns))?.status?.used?.pods, "4", "the drift stands until then");
    clock.advanceTo(resync);
    await usedIs(ns, { pods: "1" });
    // And the next period is timed on the same clock.
    await waitFor("the next resync timer", () => clock.nextDue() === resync + RESYNC_MS);
  });
});
