/**
 * The node lifecycle controller on the envtest tier, on a FakeClock: a node
 * whose agent stays silent for the grace period goes Ready=Unknown with the
 * unreachable taints and its Ready pods not Ready; a pod tolerating
 * unreachable for a while is evicted when that runs out (and, its node being
 * unreachable, force-deleted), one tolerating it forever stays; a pod bound to
 * a node that does not exist is removed after the quarantine; a Manager
 * restarted between the status write and the taints finishes the job. Time
 * moves only by `clock.advance`; an object write ("nudge") makes the
 * controller look again, as its own requeue timer would.
 */
import assert from "node:assert/strict";
import { before, describe, it } from "node:test";
import type { KubeObject } from "../../src/api/types.js";
import type { Client } from "../../src/client/index.js";
import { NodeLifecycleController } from "../../src/controllers/node-lifecycle/index.js";
import { FakeClock } from "../../src/runtime/index.js";
import { crashAfter, isWrite, useEnv } from "../support/controller-run.js";
import {
  createNamespace,
  getOrGone,
  NODE,
  POD,
  waitForObject,
  waitGone,
} from "../support/core-objects.js";

const GRACE_MS = 40_000;
const UNREACHABLE = "node.kubernetes.io/unreachable";

interface NodeObj extends KubeObject {
  spec?: { taints?: { key: string; effect: string }[] };
  status?: { conditions?: { type: string; status: string; reason?: string }[] };
}
interface PodObj extends KubeObject {
  status?: { phase?: string; conditions?: { type: string; status: string; reason?: string }[] };
}

const condition = (o: NodeObj | PodObj, type: string) =>
  o.status?.conditions?.find((c) => c.type === type);
const unreachableEffects = (n: NodeObj) =>
  (n.spec?.taints ?? [])
    .filter((t) => t.key === UNREACHABLE)
    .map((t) => t.effect)
    .sort()
    .join();

describe("node lifecycle controller on a fake clock", () => {
  const env = useEnv();
  let clock: FakeClock;
  let n = 0;
  before(async () => {
    await createNamespace(env.client, "kube-node-lease");
    await createNamespace(env.client, "work");
  });

  const start = (client: Client = env.client) =>
    env.start(
      (m) =>
        new NodeLifecycleController(client, {
          gracePeriodMs: GRACE_MS,
          now: () => clock.now(),
        }).register(m),
      { client },
    );
  /** A node that posted Ready once, with a Lease renewed once, at the clock's now. */
  async function node(name: string) {
    const iso = new Date(clock.now()).toISOString();
    const created = await env.client.create({ apiVersion: "v1", kind: "Node", metadata: { name } });
    await env.client.updateStatus({
      ...created,
      status: {
        conditions: [
          { type: "Ready", status: "True", reason: "KubeletReady", lastHeartbeatTime: iso },
        ],
      },
    });
    await env.client.create({
      apiVersion: "coordination.k8s.io/v1",
      kind: "Lease",
      metadata: { name, namespace: "kube-node-lease" },
      spec: { holderIdentity: name, leaseDurationSeconds: 40, renewTime: iso },
    });
  }
  async function pod(name: string, nodeName: string, tolerationSeconds?: number | "forever") {
    const created = await env.client.create({
      apiVersion: "v1",
      kind: "Pod",
      metadata: { name, namespace: "work" },
      spec: {
        nodeName,
        containers: [{ name: "c", image: "busybox" }],
        ...(tolerationSeconds === undefined
          ? {}
          : {
              tolerations: [
                {
                  key: UNREACHABLE,
                  operator: "Exists",
                  effect: "NoExecute",
                  ...(tolerationSeconds === "forever" ? {} : { tolerationSeconds }),
                },
              ],
            }),
      },
    });
    return env.client.updateStatus({
      ...created,
      status: { phase: "Running", conditions: [{ type: "Ready", status: "True" }] },
    });
  }
  /** Writes a label so the controller looks at the object again now. */
  const nudge = (kind: string, name: string, ns?: string) =>
    env.client.patch(
      { apiVersion: "v1", kind, name, namespace: ns },
      { metadata: { labels: { nudge: `${++n}` } } },
      { type: "merge" },
    );
  const getNode = (name: string) => getOrGone<NodeObj>(env.client, { ...NODE, name });
  const getPod = (name: string) =>
    getOrGone<PodObj>(env.client, { ...POD, name, namespace: "work" });
  const unreachable = (name: string) =>
    waitForObject(
      `${name} Unknown and tainted unreachable`,
      async () => {
        await nudge("Node", name);
        return getNode(name);
      },
      (o) =>
        condition(o, "Ready")?.status === "Unknown" &&
        unreachableEffects(o) === "NoExecute,NoSchedule",
    );

  it("marks a node silent for the grace period Unknown, tainted, its pods not Ready", async () => {
    clock = new FakeClock();
    await start();
    await node("silent");
    await pod("on-silent", "silent", "forever");
    await nudge("Node", "silent");
    clock.advance(GRACE_MS + 1000);
    const n1 = await unreachable("silent");
    assert.equal(condition(n1, "Ready")?.reason, "NodeStatusUnknown");
    for (const type of ["MemoryPressure", "DiskPressure", "PIDPressure"])
      assert.equal(condition(n1, type)?.status, "Unknown", `${type} Unknown too`);
    const p = await waitForObject(
      "the pod not Ready",
      () => getPod("on-silent"),
      (o) => condition(o, "Ready")?.status === "False",
    );
    assert.equal(p.metadata.deletionTimestamp, undefined, "tolerated forever: not evicted");
  });

  it("keeps a node whose Lease is renewed Ready, and clears the taints when the agent is back", async () => {
    clock = new FakeClock();
    await start();
    await node("renewing");
    await nudge("Node", "renewing");
    // Renewed halfway through each grace period: never silent.
    for (let i = 0; i < 3; i++) {
      clock.advance(GRACE_MS / 2);
      const lease = await env.client.get({
        apiVersion: "coordination.k8s.io/v1",
        kind: "Lease",
        name: "renewing",
        namespace: "kube-node-lease",
      });
      await env.client.update({
        ...lease,
        spec: { ...(lease.spec as object), renewTime: new Date(clock.now()).toISOString() },
      });
    }
    await waitForObject(
      "the renewals seen",
      async () => {
        await nudge("Node", "renewing");
        return getNode("renewing");
      },
      (o) => o.metadata.labels?.nudge === `${n}`,
    );
    const still = (await getNode("renewing"))!;
    assert.equal(
      condition(still, "Ready")?.status,
      "True",
      "60 s of fake time, renewed every 20 s",
    );
    clock.advance(GRACE_MS + 1);
    const gone = await unreachable("renewing");
    // The agent posts Ready again: the controller's taints go.
    await env.client.updateStatus({
      ...gone,
      status: {
        conditions: [
          { type: "Ready", status: "True", lastHeartbeatTime: new Date(clock.now()).toISOString() },
        ],
      },
    });
    await waitForObject(
      "the taints cleared",
      () => getNode("renewing"),
      (o) => unreachableEffects(o) === "",
    );
  });

  it("evicts a pod when its toleration of unreachable runs out, not before", async () => {
    clock = new FakeClock();
    await start();
    await node("dying");
    await pod("short", "dying", 60);
    await pod("long", "dying", 3600);
    await nudge("Node", "dying");
    clock.advance(GRACE_MS + 1000);
    await unreachable("dying");
    clock.advance(30_000);
    await nudge("Pod", "short", "work");
    await waitForObject(
      "the nudge seen",
      () => getPod("short"),
      (o) => o.metadata.labels?.nudge === `${n}`,
    );
    clock.advance(31_000); // 61 s since the taint
    await nudge("Pod", "short", "work");
    await nudge("Pod", "long", "work");
    // Evicted, then (its node unreachable) force-deleted.
    await waitGone("the short-tolerating pod", async () => {
      await nudge("Pod", "short", "work").catch(() => {});
      return getPod("short");
    });
    const long = await getPod("long");
    assert.ok(long && !long.metadata.deletionTimestamp, "the pod tolerating an hour stays");
  });

  it("removes a pod bound to a node that does not exist, after the quarantine", async () => {
    clock = new FakeClock();
    await start();
    await pod("orphan", "ghost");
    await nudge("Pod", "orphan", "work");
    await waitForObject(
      "seen",
      () => getPod("orphan"),
      (o) => o.metadata.labels?.nudge === `${n}`,
    );
    const early = await getPod("orphan");
    assert.ok(early && !early.metadata.deletionTimestamp, "kept during the quarantine");
    clock.advance(GRACE_MS + 1);
    await waitGone("the orphan", async () => {
      await nudge("Pod", "orphan", "work").catch(() => {});
      return getPod("orphan");
    });
  });

  it("a Manager restarted after the status write, before the taints, adds them", async () => {
    clock = new FakeClock();
    await env.run?.stop();
    await node("half");
    const crash = crashAfter(env.client, (c) => isWrite(c, "Node", "updateStatus"));
    const run = await start(crash.client);
    await nudge("Node", "half");
    clock.advance(GRACE_MS + 1000);
    await nudge("Node", "half");
    await crash.crashed;
    await run.stop();
    assert.ok(crash.refused() > 0, "the crash failed the Manager's calls from there on");
    const between = (await getNode("half"))!;
    assert.equal(condition(between, "Ready")?.status, "Unknown", "the first write landed");
    assert.equal(unreachableEffects(between), "", "and not the taints");
    await start();
    await unreachable("half");
  });
});
