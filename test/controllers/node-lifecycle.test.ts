/**
 * The node lifecycle controller on the envtest tier, on a FakeClock: a node
 * whose agent stays silent for the grace period goes Ready=Unknown with the
 * unreachable taints and its Ready pods not Ready; a pod tolerating
 * unreachable for a while is evicted when that runs out (and, its node being
 * unreachable, force-deleted), one tolerating it forever stays; a pod bound to
 * a node that does not exist is removed after the quarantine; a Manager
 * restarted between the status write and the taints finishes the job (and
 * the crash really cut the first one off). The Manager runs on the test's
 * FakeClock, so the controller's requeue timers fire on `clock.advance` alone
 * (a silent node goes Unknown with no nudge at all); elsewhere an object write
 * ("nudge") makes the controller look again sooner. A "not yet" is asserted
 * only after the controller has been made to look at that time (`looked`), so
 * it cannot pass because the controller never ran.
 */
import assert from "node:assert/strict";
import { before, describe, it } from "node:test";
import type { KubeObject } from "../../src/api/types.js";
import type { Client } from "../../src/client/index.js";
import {
  NodeLifecycleController,
  type NodeLifecycleLoops,
} from "../../src/controllers/node-lifecycle/index.js";
import { FakeClock } from "../../src/runtime/index.js";
import { crashAfter, isWrite, pokeAndSettle, useEnv } from "../support/controller-run.js";
import {
  createNamespace,
  getOrGone,
  NODE,
  POD,
  waitEvent,
  waitForObject,
  waitGone,
} from "../support/core-objects.js";
import { waitFor } from "../support/hearth-process.js";

const GRACE_MS = 40_000;
const UNREACHABLE = "node.kubernetes.io/unreachable";
const LEASE = { apiVersion: "coordination.k8s.io/v1", kind: "Lease" };

/** A FakeClock that remembers when each timer it was asked for falls due. */
class TimerLog extends FakeClock {
  readonly dues: number[] = [];
  override after(ms: number, fn: () => void) {
    this.dues.push(this.now() + Math.max(0, ms));
    return super.after(ms, fn);
  }
}

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
  const env = useEnv<NodeLifecycleLoops>();
  let clock: TimerLog;
  let n = 0;
  before(async () => {
    await createNamespace(env.client, "kube-node-lease");
    await createNamespace(env.client, "work");
  });

  /**
   * The controller with no `now` of its own, on a Manager on `clock`, whose
   * reconcile deadline is beyond every step a test takes.
   */
  const start = (client: Client = env.client) =>
    env.start((m) => new NodeLifecycleController(client, { gracePeriodMs: GRACE_MS }).register(m), {
      client,
      clock,
      reconcileDeadlineMs: 3_600_000,
    });
  /** Makes the pod GC look at pod `name` now, and waits until it has. */
  const looked = (name: string) => {
    const { pods } = env.run!.handles;
    return pokeAndSettle("pod-garbage-collector", pods.loop.queue, () =>
      pods.loop.enqueue({ namespace: "work", name }),
    );
  };
  /** Waits until the controller has seen node `name` (first sighting, by the clock's now). */
  const registered = (name: string) => waitEvent(env.client, "default", name, /^RegisteredNode: /);
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
    clock = new TimerLog();
    await start();
    await node("silent");
    await pod("on-silent", "silent", "forever");
    await registered("silent");
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

  it("on the Manager's clock, marks a silent node Unknown by its own requeue timer, with no nudge", async () => {
    clock = new TimerLog();
    await start();
    await node("self-timed");
    // Seen at the clock's now, its grace period's timer set.
    const due = clock.now() + GRACE_MS;
    await registered("self-timed");
    await waitFor("the grace period's requeue timer", () => clock.dues.includes(due));
    clock.advance(GRACE_MS - 1);
    assert.equal(condition((await getNode("self-timed"))!, "Ready")?.status, "True");
    clock.advance(1);
    const silent = await waitForObject(
      "self-timed Unknown and tainted unreachable",
      () => getNode("self-timed"),
      (o) =>
        condition(o, "Ready")?.status === "Unknown" &&
        unreachableEffects(o) === "NoExecute,NoSchedule",
    );
    assert.equal(condition(silent, "Ready")?.reason, "NodeStatusUnknown");
  });

  it("keeps a node whose Lease is renewed Ready, and clears the taints when the agent is back", async () => {
    clock = new TimerLog();
    await start();
    await node("renewing");
    await registered("renewing");
    const leases = env.run!.manager.cache.informer(LEASE, {
      namespace: "kube-node-lease",
    }).informer;
    // Renewed halfway through each grace period: never silent.
    for (let i = 0; i < 3; i++) {
      clock.advance(GRACE_MS / 2);
      const ref = { ...LEASE, name: "renewing", namespace: "kube-node-lease" };
      const lease = await env.client.get(ref);
      const renewTime = new Date(clock.now()).toISOString();
      await env.client.update({ ...lease, spec: { ...(lease.spec as object), renewTime } });
      // In the controller's cache before the clock moves on: its next timer sees it.
      await waitFor("the renewal in the cache", () => {
        const cached = leases.get("kube-node-lease/renewing") as KubeObject | undefined;
        return (cached?.spec as { renewTime?: string } | undefined)?.renewTime === renewTime;
      });
    }
    const { nodes } = env.run!.handles;
    await pokeAndSettle("node-lifecycle", nodes.loop.queue, () =>
      nodes.loop.enqueue({ name: "renewing" }),
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

  it("evicts a pod exactly when its toleration of unreachable runs out, not before", async () => {
    clock = new TimerLog();
    await start();
    await node("dying");
    await pod("short", "dying", 60);
    await pod("long", "dying", 3600);
    await registered("dying");
    clock.advance(GRACE_MS + 1000);
    await unreachable("dying");
    // Tainted at this time: the short toleration runs out 60 s later.
    const evictAt = clock.now() + 60_000;
    clock.advanceTo(evictAt - 1);
    await looked("short");
    const kept = await getPod("short");
    assert.ok(kept && !kept.metadata.deletionTimestamp, "kept 1 ms before its toleration ends");
    clock.advanceTo(evictAt);
    // Evicted, then (its node unreachable) force-deleted.
    await waitGone("the short-tolerating pod", async () => {
      await nudge("Pod", "short", "work").catch(() => {});
      return getPod("short");
    });
    await looked("long");
    const long = await getPod("long");
    assert.ok(long && !long.metadata.deletionTimestamp, "the pod tolerating an hour stays");
  });

  it("removes a pod bound to a node that does not exist, exactly after the quarantine", async () => {
    clock = new TimerLog();
    await start();
    const seenAt = clock.now();
    await pod("orphan", "ghost");
    await looked("orphan");
    clock.advanceTo(seenAt + GRACE_MS - 1);
    await looked("orphan");
    const early = await getPod("orphan");
    assert.ok(early && !early.metadata.deletionTimestamp, "kept during the quarantine");
    clock.advanceTo(seenAt + GRACE_MS);
    await waitGone("the orphan", async () => {
      await nudge("Pod", "orphan", "work").catch(() => {});
      return getPod("orphan");
    });
  });

  it("a Manager restarted after the status write, before the taints, adds them", async () => {
    clock = new TimerLog();
    await env.run?.stop();
    await node("half");
    const crash = crashAfter(env.client, (c) => isWrite(c, "Node", "updateStatus"));
    const run = await start(crash.client);
    await registered("half");
    clock.advance(GRACE_MS + 1000);
    // The crash failed the Manager's calls from there on (bounded: a crash that never comes fails).
    await waitFor("the crash", () => crash.refused() > 0);
    await run.stop();
    const between = (await getNode("half"))!;
    assert.equal(condition(between, "Ready")?.status, "Unknown", "the first write landed");
    assert.equal(unreachableEffects(between), "", "and not the taints");
    await start();
    await unreachable("half");
  });
});
