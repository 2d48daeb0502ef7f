/**
 * The StatefulSet controller on the envtest apiserver, the test playing the
 * kubelet (pod phases and Ready through the status subresource): ordered
 * creation with identities and claims, scale-down in reverse order with the
 * claims' retention owner references, a rolling update from the highest
 * ordinal, a failed pod recreated under the same name, Parallel, and the
 * apiserver's StatefulSet rules.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { useEnv } from "../../../test/support/controller-run.js";
import { createNamespace, uniqueName } from "../../../test/support/core-objects.js";
import { waitFor } from "../../../test/support/hearth-process.js";
import type { ControllerRevision, KubeObject, Pod, StatefulSet } from "../../api/index.js";
import { hasCode } from "../../api/index.js";
import type { Client } from "../../client/index.js";
import { registerStatefulSetController } from "./register.js";

const POD = { apiVersion: "v1", kind: "Pod" };
const PVC = { apiVersion: "v1", kind: "PersistentVolumeClaim" };

function manifest(ns: string, name: string, spec: Partial<StatefulSet["spec"]> = {}): StatefulSet {
  return {
    apiVersion: "apps/v1",
    kind: "StatefulSet",
    metadata: { name, namespace: ns },
    spec: {
      replicas: 3,
      serviceName: name,
      selector: { matchLabels: { app: name } },
      template: {
        metadata: { labels: { app: name } },
        spec: { containers: [{ name: "main", image: "busybox", command: ["sleep", "3600"] }] },
      },
      volumeClaimTemplates: [
        {
          metadata: { name: "data" },
          spec: { accessModes: ["ReadWriteOnce"], resources: { requests: { storage: "1Mi" } } },
        },
      ],
      ...spec,
    },
  };
}

async function pods(client: Client, ns: string): Promise<Pod[]> {
  const list = await client.list<Pod>(POD, { namespace: ns });
  return list.items.sort((a, b) => (a.metadata.name! < b.metadata.name! ? -1 : 1));
}

const names = (items: KubeObject[]) => items.map((o) => o.metadata.name).sort();
const live = (items: Pod[]) => items.filter((p) => !p.metadata.deletionTimestamp);

/** Plays the kubelet: the pod runs and is Ready. */
async function markReady(client: Client, pod: Pod): Promise<void> {
  const now = new Date().toISOString();
  await client.patchStatus(
    { ...POD, name: pod.metadata.name!, namespace: pod.metadata.namespace },
    {
      status: {
        phase: "Running",
        conditions: [{ type: "Ready", status: "True", lastTransitionTime: now }],
      },
    },
    { type: "merge" },
  );
}

/** Plays the kubelet finishing a deletion. */
async function finishDeletes(client: Client, ns: string): Promise<void> {
  for (const p of await pods(client, ns))
    if (p.metadata.deletionTimestamp)
      await client
        .delete({ ...POD, name: p.metadata.name!, namespace: ns }, { gracePeriodSeconds: 0 })
        .catch((e) => {
          if (!hasCode(e, 404)) throw e;
        });
}

/** Waits until the live pods are exactly `want`, readying each as it appears. */
async function convergeTo(client: Client, ns: string, want: string[]): Promise<Pod[]> {
  return waitFor(`pods ${want.join(",")}`, async () => {
    await finishDeletes(client, ns);
    const all = live(await pods(client, ns));
    for (const p of all) if (p.status?.phase !== "Running") await markReady(client, p);
    return JSON.stringify(names(all)) === JSON.stringify(want.sort()) ? all : undefined;
  });
}

describe("StatefulSet controller (envtest)", () => {
  const env = useEnv();
  const start = () => env.start((m) => registerStatefulSetController(m, env.client));
  const fresh = async () => {
    const ns = uniqueName("sts");
    await createNamespace(env.client, ns);
    return ns;
  };

  it("creates pods in order, each with its identity and claim, one after the other is Ready", async () => {
    await start();
    const ns = await fresh();
    const set = await env.client.create(manifest(ns, "web"));
    assert.equal(set.spec.podManagementPolicy, "OrderedReady");
    assert.deepEqual(set.spec.persistentVolumeClaimRetentionPolicy, {
      whenDeleted: "Retain",
      whenScaled: "Retain",
    });
    const [first] = await waitFor("web-0", async () => {
      const all = await pods(env.client, ns);
      return all.length > 0 ? all : undefined;
    });
    assert.equal(first!.metadata.name, "web-0");
    assert.equal(first!.spec.hostname, "web-0");
    assert.equal(first!.spec.subdomain, "web");
    assert.equal(first!.metadata.labels?.["statefulset.kubernetes.io/pod-name"], "web-0");
    assert.equal(first!.metadata.labels?.["apps.kubernetes.io/pod-index"], "0");
    assert.match(first!.metadata.labels?.["controller-revision-hash"] ?? "", /^web-[a-z0-9]+$/);
    assert.deepEqual(first!.spec.volumes?.[0], {
      name: "data",
      persistentVolumeClaim: { claimName: "data-web-0" },
    });
    // Not Ready yet: no second pod.
    await new Promise((r) => setTimeout(r, 300));
    assert.deepEqual(names(await pods(env.client, ns)), ["web-0"]);
    await convergeTo(env.client, ns, ["web-0", "web-1", "web-2"]);
    const claims = await env.client.list(PVC, { namespace: ns });
    assert.deepEqual(names(claims.items), ["data-web-0", "data-web-1", "data-web-2"]);
    assert.equal(claims.items[0]!.metadata.labels?.app, "web");
    const status = await waitFor("status", async () => {
      const s = await env.client.get<StatefulSet>({ ...refSts(ns, "web") });
      return s.status?.readyReplicas === 3 ? s.status : undefined;
    });
    assert.equal(status.currentRevision, status.updateRevision);
    assert.equal(status.currentReplicas, 3);
    const revisions = await env.client.list<ControllerRevision>(
      { apiVersion: "apps/v1", kind: "ControllerRevision" },
      { namespace: ns },
    );
    assert.deepEqual(names(revisions.items), [status.updateRevision]);
    assert.equal(revisions.items[0]!.revision, 1);
  });

  it("scales down from the highest ordinal, handing the claims to the pods when whenScaled is Delete", async () => {
    await start();
    const ns = await fresh();
    await env.client.create(
      manifest(ns, "db", {
        persistentVolumeClaimRetentionPolicy: { whenDeleted: "Delete", whenScaled: "Delete" },
      }),
    );
    await convergeTo(env.client, ns, ["db-0", "db-1", "db-2"]);
    const claim0 = await env.client.get({ ...PVC, name: "data-db-0", namespace: ns });
    assert.deepEqual(
      claim0.metadata.ownerReferences?.map((r) => `${r.kind}/${r.name}`),
      ["StatefulSet/db"],
    );
    const order: string[] = [];
    const stop = new AbortController();
    const watching = (async () => {
      const rv = (await env.client.list(POD, { namespace: ns })).metadata.resourceVersion;
      for await (const ev of env.client.watch<Pod>(POD, {
        namespace: ns,
        resourceVersion: rv,
        signal: stop.signal,
      }))
        if (ev.type === "DELETED") order.push(ev.object.metadata.name!);
    })();
    await env.client.patch(refSts(ns, "db"), { spec: { replicas: 1 } }, { type: "merge" });
    await waitFor("scaled to 1", async () => {
      await finishDeletes(env.client, ns);
      return order.length === 2;
    });
    stop.abort();
    await watching;
    assert.deepEqual(order, ["db-2", "db-1"]);
    const claim2 = await env.client.get({ ...PVC, name: "data-db-2", namespace: ns });
    assert.deepEqual(
      claim2.metadata.ownerReferences?.map((r) => `${r.kind}/${r.name}`),
      ["Pod/db-2"],
    );
  });

  it("rolls a template change from the highest ordinal down to the partition", async () => {
    await start();
    const ns = await fresh();
    await env.client.create(manifest(ns, "r", { volumeClaimTemplates: [] }));
    await convergeTo(env.client, ns, ["r-0", "r-1", "r-2"]);
    const before = await env.client.get<StatefulSet>(refSts(ns, "r"));
    await env.client.patch(
      refSts(ns, "r"),
      {
        spec: {
          updateStrategy: { rollingUpdate: { partition: 1 } },
          template: { metadata: { labels: { app: "r", v: "2" } } },
        },
      },
      { type: "merge" },
    );
    const updated = await waitFor("r-1 and r-2 updated", async () => {
      const set = await env.client.get<StatefulSet>(refSts(ns, "r"));
      const all = await convergeTo(env.client, ns, ["r-0", "r-1", "r-2"]);
      const rev = set.status?.updateRevision;
      const byRev = all.map((p) => p.metadata.labels?.["controller-revision-hash"] === rev);
      return rev !== before.status?.updateRevision && byRev.join() === "false,true,true"
        ? set
        : undefined;
    });
    assert.equal(updated.status?.currentRevision, before.status?.currentRevision);
  });

  it("recreates a failed pod under the same name", async () => {
    await start();
    const ns = await fresh();
    await env.client.create(manifest(ns, "f", { replicas: 1, podManagementPolicy: "Parallel" }));
    const [pod] = await convergeTo(env.client, ns, ["f-0"]);
    await env.client.patchStatus(
      { ...POD, name: "f-0", namespace: ns },
      { status: { phase: "Failed" } },
      { type: "merge" },
    );
    await waitFor("a new f-0", async () => {
      const [again] = await convergeTo(env.client, ns, ["f-0"]);
      return again!.metadata.uid !== pod!.metadata.uid;
    });
  });

  it("refuses a selector that does not match and a changed volumeClaimTemplates", async () => {
    const ns = await fresh();
    const bad = manifest(ns, "bad", { selector: { matchLabels: { app: "other" } } });
    await assert.rejects(env.client.create(bad), (e: Error) => {
      assert.match(
        e.message,
        /spec\.template\.metadata\.labels: Invalid value: .*`selector` does not match template `labels`/,
      );
      return true;
    });
    await env.client.create(manifest(ns, "ok"));
    const changed = {
      spec: { volumeClaimTemplates: [{ metadata: { name: "other" }, spec: {} }] },
    };
    await assert.rejects(
      env.client.patch(refSts(ns, "ok"), changed, { type: "merge" }),
      (e: Error) => {
        assert.match(
          e.message,
          /spec: Forbidden: updates to statefulset spec for fields other than 'replicas', 'ordinals', 'template', 'updateStrategy', 'revisionHistoryLimit', 'persistentVolumeClaimRetentionPolicy' and 'minReadySeconds' are forbidden/,
        );
        return true;
      },
    );
    await assert.rejects(
      env.client.patch(refSts(ns, "ok"), { spec: { replicas: -1 } }, { type: "merge" }),
      /spec\.replicas: Invalid value: -1: must be greater than or equal to 0/,
    );
    const kept = await env.client.get<StatefulSet>(refSts(ns, "ok"));
    assert.equal(kept.spec.volumeClaimTemplates?.[0]?.metadata?.name, "data");
    assert.equal(kept.spec.replicas, 3);
  });
});

function refSts(namespace: string, name: string) {
  return { apiVersion: "apps/v1", kind: "StatefulSet", name, namespace };
}
