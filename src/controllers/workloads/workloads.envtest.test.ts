/**
 * The ReplicaSet and Deployment controllers on the envtest apiserver, the test
 * playing the kubelet (a pod is made Running and Ready through the status
 * subresource once the test says so): replicas kept, orphans adopted and
 * non-matching pods released, not-ready pods deleted first on scale-down,
 * ReplicaFailure while Pod Security refuses the pods, a
 * rolling update over two ReplicaSets with revisions, a 409 before a
 * ReplicaSet write, and crashes between pod creations and right after the new
 * ReplicaSet's create — each converging with nothing made twice.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import {
  conflictBefore,
  crashAfter,
  isWrite,
  useEnv,
} from "../../../test/support/controller-run.js";
import { POD, uniqueName } from "../../../test/support/core-objects.js";
import { waitFor } from "../../../test/support/hearth-process.js";
import { replicasByRevision } from "../../../test/support/workloads.js";
import type { Deployment, Pod, ReplicaSet } from "../../api/index.js";
import type { Client } from "../../client/index.js";
import { registerWorkloadControllers } from "./workload-controllers.js";

const NS = "default";
const RS = { apiVersion: "apps/v1", kind: "ReplicaSet" };
const DEPLOY = { apiVersion: "apps/v1", kind: "Deployment" };

const template = (app: string, image = "busybox") => ({
  metadata: { labels: { app } },
  spec: { containers: [{ name: "c", image }] },
});

const replicaSet = (name: string, replicas: number): ReplicaSet => ({
  ...RS,
  metadata: { name, namespace: NS },
  spec: { replicas, selector: { matchLabels: { app: name } }, template: template(name) },
});

const deployment = (name: string, replicas: number, image = "busybox"): Deployment => ({
  ...DEPLOY,
  metadata: { name, namespace: NS },
  spec: {
    replicas,
    selector: { matchLabels: { app: name } },
    template: template(name, image),
    strategy: { type: "RollingUpdate", rollingUpdate: { maxSurge: 1, maxUnavailable: 0 } },
  },
});

async function podsOf(client: Client, app: string): Promise<Pod[]> {
  const list = await client.list<Pod>(POD, { namespace: NS, labelSelector: `app=${app}` });
  return list.items.filter((p) => !p.metadata.deletionTimestamp);
}

/** The kubelet's part: the pod Running and Ready now. */
async function makeReady(client: Client, pod: Pod): Promise<void> {
  const now = new Date().toISOString().replace(/\.\d+Z$/, "Z");
  await client.patchStatus(
    { ...POD, namespace: NS, name: pod.metadata.name! },
    {
      status: {
        phase: "Running",
        conditions: [{ type: "Ready", status: "True", lastTransitionTime: now }],
      },
    },
    { type: "merge" },
  );
}

/** Makes every pod of `app` ready until there are `count` ready pods. */
async function readyPods(client: Client, app: string, count: number): Promise<Pod[]> {
  return waitFor(
    `${count} ready pods of ${app}`,
    async () => {
      const pods = await podsOf(client, app);
      for (const p of pods)
        if (p.status?.phase !== "Running") await makeReady(client, p).catch(() => {});
      const ready = (await podsOf(client, app)).filter((p) => p.status?.phase === "Running");
      return ready.length === count && pods.length === count ? ready : undefined;
    },
    20_000,
  );
}

describe("ReplicaSet controller (envtest)", () => {
  const env = useEnv();
  const start = (client: Client = env.client) =>
    env.start((m) => registerWorkloadControllers(m, client));
  const getRS = (name: string) => env.client.get<ReplicaSet>({ ...RS, namespace: NS, name });

  it("keeps replicas pods, adopting a matching orphan and releasing a pod that stops matching", async () => {
    const name = uniqueName("rs");
    const orphan = await env.client.create<Pod>({
      ...POD,
      metadata: { name: `${name}-orphan`, namespace: NS, labels: { app: name } },
      spec: { containers: [{ name: "c", image: "busybox" }] },
    } as Pod);
    await start();
    const rs = await env.client.create(replicaSet(name, 3));
    const pods = await readyPods(env.client, name, 3);
    assert.ok(
      pods.some((p) => p.metadata.uid === orphan.metadata.uid),
      "the orphan adopted",
    );
    for (const p of pods) {
      assert.equal(p.metadata.ownerReferences?.length, 1);
      assert.equal(p.metadata.ownerReferences?.[0]?.uid, rs.metadata.uid);
    }
    const status = await waitFor("the status", async () => {
      const s = (await getRS(name)).status;
      return s?.availableReplicas === 3 ? s : undefined;
    });
    assert.deepEqual(status, {
      replicas: 3,
      fullyLabeledReplicas: 3,
      readyReplicas: 3,
      availableReplicas: 3,
      observedGeneration: 1,
    });
    // A pod relabelled out of the selector is released and replaced.
    await env.client.patch(
      { ...POD, namespace: NS, name: orphan.metadata.name! },
      { metadata: { labels: { app: "elsewhere" } } },
      { type: "merge" },
    );
    await readyPods(env.client, name, 3);
    const released = await env.client.get<Pod>({
      ...POD,
      namespace: NS,
      name: orphan.metadata.name!,
    });
    assert.deepEqual(released.metadata.ownerReferences ?? [], []);
  });

  it("deletes the not-ready pods first when scaled down", async () => {
    const name = uniqueName("rs");
    await start();
    await env.client.create(replicaSet(name, 2));
    const ready = await readyPods(env.client, name, 2);
    await env.client.patch(
      { ...RS, namespace: NS, name },
      { spec: { replicas: 4 } },
      { type: "merge" },
    );
    await waitFor("four pods", async () => (await podsOf(env.client, name)).length === 4);
    await env.client.patch(
      { ...RS, namespace: NS, name },
      { spec: { replicas: 2 } },
      { type: "merge" },
    );
    const left = await waitFor("two pods left", async () => {
      const pods = await podsOf(env.client, name);
      return pods.length === 2 ? pods : undefined;
    });
    assert.deepEqual(
      left.map((p) => p.metadata.uid).sort(),
      ready.map((p) => p.metadata.uid).sort(),
      "the two new, not ready pods went",
    );
  });

  it("reports ReplicaFailure while pods are refused, and drops it once they are made", async () => {
    const name = uniqueName("rs");
    const ns = uniqueName("restricted");
    const enforce = (level: string) => ({
      metadata: { labels: { "pod-security.kubernetes.io/enforce": level } },
    });
    await env.client.create({ apiVersion: "v1", kind: "Namespace", metadata: { name: ns } });
    const nsRef = { apiVersion: "v1", kind: "Namespace", name: ns };
    await env.client.patch(nsRef, enforce("restricted"), { type: "merge" });
    await start();
    await env.client.create({ ...replicaSet(name, 2), metadata: { name, namespace: ns } });
    const failing = await waitFor("ReplicaFailure", async () => {
      const rs = await env.client.get<ReplicaSet>({ ...RS, namespace: ns, name });
      return rs.status?.conditions?.find((c) => c.type === "ReplicaFailure");
    });
    assert.equal(failing.status, "True");
    assert.equal(failing.reason, "FailedCreate");
    assert.match(failing.message ?? "", /forbidden/);
    // Pod Security allows the pods now: they are made and the condition goes.
    await env.client.patch(nsRef, enforce("privileged"), { type: "merge" });
    const healed = await waitFor("pods made, no ReplicaFailure", async () => {
      const rs = await env.client.get<ReplicaSet>({ ...RS, namespace: ns, name });
      return rs.status?.replicas === 2 && !rs.status.conditions ? rs : undefined;
    });
    assert.equal(healed.status?.observedGeneration, 1);
  });

  it("creates no pod twice after a crash between pod creations", async () => {
    const name = uniqueName("rs");
    const { client, crashed } = crashAfter(env.client, (c) => isWrite(c, "Pod", "create"));
    await start(client);
    await env.client.create(replicaSet(name, 3));
    await crashed;
    await env.run!.stop();
    assert.equal((await podsOf(env.client, name)).length, 1, "one pod made it before the crash");
    await start();
    await readyPods(env.client, name, 3);
    assert.equal((await podsOf(env.client, name)).length, 3);
  });
});

describe("Deployment controller (envtest)", () => {
  const env = useEnv();
  const start = (client: Client = env.client) =>
    env.start((m) => registerWorkloadControllers(m, client));
  const getDeployment = (name: string) =>
    env.client.get<Deployment>({ ...DEPLOY, namespace: NS, name });
  const replicaSetsOf = async (name: string) =>
    (await env.client.list<ReplicaSet>(RS, { namespace: NS, labelSelector: `app=${name}` })).items;
  /** Plays the kubelet until the Deployment reports every replica updated and available. */
  const rolledOut = (name: string, replicas: number) =>
    waitFor(
      `deployment ${name} rolled out`,
      async () => {
        for (const p of await podsOf(env.client, name))
          if (p.status?.phase !== "Running") await makeReady(env.client, p).catch(() => {});
        const d = await getDeployment(name);
        const s = d.status;
        const done =
          s?.observedGeneration === d.metadata.generation &&
          s?.updatedReplicas === replicas &&
          s?.replicas === replicas &&
          s?.availableReplicas === replicas;
        return done ? d : undefined;
      },
      30_000,
    );

  it("rolls a template change from one ReplicaSet to the next, with revisions", async () => {
    const name = uniqueName("web");
    await start();
    await env.client.create(deployment(name, 3));
    const first = await rolledOut(name, 3);
    assert.equal(first.metadata.annotations?.["deployment.kubernetes.io/revision"], "1");
    await env.client.patch(
      { ...DEPLOY, namespace: NS, name },
      { spec: { template: template(name, "busybox:1.35") } },
      { type: "strategic" },
    );
    const second = await rolledOut(name, 3);
    assert.equal(second.metadata.annotations?.["deployment.kubernetes.io/revision"], "2");
    const sets = await replicaSetsOf(name);
    assert.equal(sets.length, 2);
    assert.deepEqual(replicasByRevision(sets), { "1": 0, "2": 3 });
    const progressing = second.status?.conditions?.find((c) => c.type === "Progressing");
    assert.equal(progressing?.reason, "NewReplicaSetAvailable");
    assert.equal((await podsOf(env.client, name)).length, 3);
  });

  it("converges when a ReplicaSet changes just before the controller scales it (409)", async () => {
    const name = uniqueName("web");
    const { client, seen } = conflictBefore(
      env.client,
      (c) => isWrite(c, "ReplicaSet", "update"),
      async (call) => {
        const rs = call.args[0] as ReplicaSet;
        await env.client.patch(
          { ...RS, namespace: NS, name: rs.metadata.name! },
          { metadata: { labels: { touched: "yes" } } },
          { type: "merge" },
        );
      },
      2,
    );
    await start(client);
    await env.client.create(deployment(name, 2));
    await rolledOut(name, 2);
    await env.client.patch(
      { ...DEPLOY, namespace: NS, name },
      { spec: { template: template(name, "busybox:1.35") } },
      { type: "strategic" },
    );
    await rolledOut(name, 2);
    assert.ok(seen.conflicts >= 1, `a ReplicaSet write got a 409 (${seen.conflicts})`);
    assert.equal((await replicaSetsOf(name)).length, 2);
  });

  it("makes the new ReplicaSet once after a crash right after creating it", async () => {
    const name = uniqueName("web");
    await start();
    await env.client.create(deployment(name, 2));
    await rolledOut(name, 2);
    await env.run!.stop();
    const { client, crashed } = crashAfter(env.client, (c) => isWrite(c, "ReplicaSet", "create"));
    await start(client);
    await env.client.patch(
      { ...DEPLOY, namespace: NS, name },
      { spec: { template: template(name, "busybox:1.35") } },
      { type: "strategic" },
    );
    await crashed;
    await env.run!.stop();
    assert.equal((await replicaSetsOf(name)).length, 2, "the new ReplicaSet was stored");
    await start();
    const d = await rolledOut(name, 2);
    assert.equal((await replicaSetsOf(name)).length, 2, "and not made again");
    assert.equal(d.metadata.annotations?.["deployment.kubernetes.io/revision"], "2");
    assert.equal(
      d.status?.conditions?.find((c) => c.type === "Progressing")?.reason,
      "NewReplicaSetAvailable",
    );
  });
});
