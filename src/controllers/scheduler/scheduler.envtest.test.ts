/**
 * The scheduler on the envtest apiserver, playing the node lifecycle by writing
 * Node status: a pending pod goes to the node with the most room, pods it must
 * not schedule are left alone, one that fits nowhere gets kube's counted
 * reasons (condition and Warning Event) and is bound once a node is added or
 * room is made; back-to-back pods never overcommit a node (assumed pods); a
 * 409 before its status write or its binding, and a crash between two
 * bindings, still end with every pod placed once and no node overcommitted.
 */
import assert from "node:assert/strict";
import { afterEach, describe, it } from "node:test";
import {
  type Call,
  conflictBefore,
  crashAfter,
  isRequest,
  isWrite,
  useEnv,
} from "../../../test/support/controller-run.js";
import {
  createNamespace,
  eventsAbout,
  NODE,
  POD,
  uniqueName,
  waitEvent,
} from "../../../test/support/core-objects.js";
import { waitFor } from "../../../test/support/hearth-process.js";
import type { KubeObject } from "../../api/index.js";
import type { Client } from "../../client/index.js";
import { Scheduler } from "./scheduler.js";
import type { Condition, Pod, PodSpec, Taint } from "./types.js";

interface NodeOpts {
  cpu?: string;
  ready?: "True" | "False";
  unschedulable?: boolean;
  taints?: Taint[];
}

describe("scheduler (envtest)", () => {
  const env = useEnv();
  let ns: string;
  afterEach(async () => {
    // Nodes are cluster-wide, and a pod bound to a node name would count on its
    // namesake in the next test: each test starts with no nodes and no pods.
    await env.client.deleteCollection(POD, { namespace: ns, gracePeriodSeconds: 0 });
    await env.client.deleteCollection(NODE);
  });

  /** Runs a scheduler that uses `client`; unschedulable pods are retried on changes only. */
  const start = (client: Client = env.client, errors: unknown[] = []) =>
    env.start(
      (m) => {
        new Scheduler(client, { retryMs: 600_000 }).register(m);
      },
      { onReconcileError: (_c, _r, err) => errors.push(err) },
    );
  const freshNamespace = async () => {
    ns = uniqueName("sched");
    await createNamespace(env.client, ns);
  };

  async function addNode(name: string, opts: NodeOpts = {}): Promise<KubeObject> {
    const node = await env.client.create<KubeObject>({
      ...NODE,
      metadata: { name, labels: { "kubernetes.io/hostname": name } },
      spec: {
        ...(opts.unschedulable ? { unschedulable: true } : {}),
        ...(opts.taints ? { taints: opts.taints } : {}),
      },
    });
    const cpu = opts.cpu ?? "4";
    return env.client.updateStatus({
      ...node,
      status: {
        capacity: { cpu, memory: "8Gi", pods: "110" },
        allocatable: { cpu, memory: "8Gi", pods: "110" },
        conditions: [{ type: "Ready", status: opts.ready ?? "True" }],
      },
    });
  }

  const createPod = (name: string, cpu: string, spec: Partial<PodSpec> = {}) =>
    env.client.create<Pod>({
      ...POD,
      metadata: { name, namespace: ns },
      spec: {
        containers: [{ name: "main", image: "busybox", resources: { requests: { cpu } } }],
        ...spec,
      } as PodSpec,
    });
  /** Plays the kubelet: the pod's phase. */
  const setPodPhase = (name: string, phase: "Succeeded" | "Failed") =>
    env.client.patchStatus(
      { ...POD, namespace: ns, name },
      { status: { phase } },
      { type: "merge" },
    );
  const getPod = (name: string) => env.client.get<Pod>({ ...POD, namespace: ns, name });
  const boundTo = (name: string) =>
    waitFor(`pod ${name} bound`, async () => (await getPod(name)).spec?.nodeName);
  const scheduledCondition = (name: string) =>
    waitFor(`pod ${name} PodScheduled=False`, async () => {
      const c = (await getPod(name)).status?.conditions?.find((x) => x.type === "PodScheduled");
      return c?.status === "False" ? c : undefined;
    });
  /** Every pod of the namespace by name → its node ("" while pending). */
  const placement = async (): Promise<Record<string, string>> =>
    Object.fromEntries(
      (await env.client.list<Pod>(POD, { namespace: ns })).items.map((p) => [
        p.metadata.name,
        p.spec?.nodeName ?? "",
      ]),
    );

  it("binds a pending pod to the node with the most room and says so", async () => {
    await freshNamespace();
    await addNode("small", { cpu: "2" });
    await addNode("big", { cpu: "8" });
    await start();
    await createPod("p", "1");
    assert.equal(await boundTo("p"), "big");
    await waitEvent(
      env.client,
      ns,
      "p",
      new RegExp(`^Scheduled: Successfully assigned ${ns}/p to big$`),
    );
    // The next one sees p on big: 7 of 8 left there, 2 of 2 on small.
    await createPod("q", "6");
    assert.equal(await boundTo("q"), "big");
    await createPod("r", "1");
    assert.equal(await boundTo("r"), "small");
  });

  it("leaves alone pods another scheduler owns, pods already placed and finished ones", async () => {
    await freshNamespace();
    await addNode("only");
    await createPod("finished", "1");
    await setPodPhase("finished", "Succeeded");
    await start();
    await createPod("other", "1", { schedulerName: "my-scheduler" });
    // A pod created last is handled last by the scheduler's one worker.
    await createPod("probe", "1");
    assert.equal(await boundTo("probe"), "only");
    assert.deepEqual(await placement(), { finished: "", other: "", probe: "only" });
    assert.deepEqual(await eventsAbout(env.client, ns, "other"), []);
  });

  it("counts every node's reason for an unschedulable pod, and binds it to a node added later", async () => {
    await freshNamespace();
    await addNode("cordoned", { unschedulable: true });
    await addNode("tainted", { taints: [{ key: "x", value: "y", effect: "NoSchedule" }] });
    await addNode("tiny", { cpu: "1" });
    await addNode("down", { ready: "False" });
    await start();
    await createPod("p", "2");
    const c: Condition = await scheduledCondition("p");
    const message =
      "0/4 nodes are available: 1 Insufficient cpu, 1 node(s) had untolerated taint {node.kubernetes.io/not-ready: }, 1 node(s) had untolerated taint {x: y}, 1 node(s) were unschedulable.";
    assert.equal(c.reason, "Unschedulable");
    assert.equal(c.message, message);
    await waitEvent(
      env.client,
      ns,
      "p",
      new RegExp(`^FailedScheduling: ${message.replace(/[.{}()]/g, "\\$&")}$`),
    );
    await addNode("roomy", { cpu: "4" });
    assert.equal(await boundTo("p"), "roomy");
  });

  it("binds a pod that tolerates a node's taint and one cordoned away once it is uncordoned", async () => {
    await freshNamespace();
    await addNode("tainted", { taints: [{ key: "x", value: "y", effect: "NoSchedule" }] });
    await addNode("cordoned", { unschedulable: true });
    await start();
    await createPod("tolerant", "1", {
      tolerations: [{ key: "x", operator: "Equal", value: "y", effect: "NoSchedule" }],
    });
    assert.equal(await boundTo("tolerant"), "tainted");
    await createPod("waiting", "1", { nodeSelector: { "kubernetes.io/hostname": "cordoned" } });
    await scheduledCondition("waiting");
    await env.client.patch(
      { ...NODE, name: "cordoned" },
      { spec: { unschedulable: null } },
      { type: "merge" },
    );
    assert.equal(await boundTo("waiting"), "cordoned");
  });

  /** Table: a bound pod stops holding its node's room; the pending one is bound. */
  const freeing: { name: string; free: (pod: string) => Promise<unknown> }[] = [
    {
      name: "succeeds",
      free: (p) => setPodPhase(p, "Succeeded"),
    },
    {
      name: "fails",
      free: (p) => setPodPhase(p, "Failed"),
    },
    {
      name: "is deleted",
      free: (p) => env.client.delete({ ...POD, namespace: ns, name: p }, { gracePeriodSeconds: 0 }),
    },
  ];
  for (const f of freeing) {
    it(`binds a waiting pod once the pod that filled the node ${f.name}`, async () => {
      await freshNamespace();
      await addNode("one", { cpu: "2" });
      await start();
      await createPod("first", "2");
      assert.equal(await boundTo("first"), "one");
      await createPod("second", "2");
      const c = await scheduledCondition("second");
      assert.equal(c.message, "0/1 nodes are available: 1 Insufficient cpu.");
      await f.free("first");
      assert.equal(await boundTo("second"), "one");
    });
  }

  it("never overcommits a node with pods created back to back", async () => {
    await freshNamespace();
    await addNode("three", { cpu: "3" });
    await start();
    const names = ["a", "b", "c", "d", "e"];
    await Promise.all(names.map((n) => createPod(n, "1")));
    await waitFor("every pod decided", async () => {
      const pods = (await env.client.list<Pod>(POD, { namespace: ns })).items;
      return pods.every(
        (p) => p.spec?.nodeName || p.status?.conditions?.some((c) => c.type === "PodScheduled"),
      )
        ? true
        : undefined;
    });
    const placed = Object.values(await placement());
    assert.equal(placed.filter((n) => n === "three").length, 3);
    assert.equal(placed.filter((n) => n === "").length, 2);
  });

  it("converges when the pod changes just before its Unschedulable status write (409)", async () => {
    await freshNamespace();
    await addNode("tiny", { cpu: "1" });
    const { client, seen } = conflictBefore(
      env.client,
      (c) => isWrite(c, "Pod", "patchStatus"),
      () =>
        env.client.patch(
          { ...POD, namespace: ns, name: "big" },
          { metadata: { labels: { touched: "yes" } } },
          { type: "merge" },
        ),
    );
    await start(client);
    await createPod("big", "2");
    const c = await scheduledCondition("big");
    assert.equal(c.message, "0/1 nodes are available: 1 Insufficient cpu.");
    assert.equal((await getPod("big")).metadata.labels?.touched, "yes");
    assert.ok(
      seen.conflicts >= 1,
      "the write after the concurrent change got a 409 (a retry on a stale cache may get another)",
    );
  });

  it("accepts a binding made by someone else just before its own (409) and counts it", async () => {
    await freshNamespace();
    await addNode("left", { cpu: "2" });
    await addNode("right", { cpu: "1" });
    const bindElsewhere = (call: Call) => {
      const name = String(call.args[1]).split("/").at(-2)!;
      return env.client.request(
        "POST",
        `/api/v1/namespaces/${ns}/pods/${name}/binding`,
        JSON.stringify({
          apiVersion: "v1",
          kind: "Binding",
          metadata: { name },
          target: { apiVersion: "v1", kind: "Node", name: "right" },
        }),
        { "Content-Type": "application/json" },
      );
    };
    const { client, seen } = conflictBefore(
      env.client,
      (c) => isRequest(c, "POST", "/binding"),
      bindElsewhere,
    );
    const errors: unknown[] = [];
    await start(client, errors);
    await createPod("raced", "1");
    assert.equal(await boundTo("raced"), "right");
    await waitFor("the scheduler's own binding refused with a 409", () => seen.conflicts === 1);
    // The scheduler counts the pod where it is: right is full, left takes the next.
    await createPod("next", "1");
    assert.equal(await boundTo("next"), "left");
    const events = await eventsAbout(env.client, ns, "raced");
    assert.ok(!events.some((e) => e.startsWith("Scheduled:")), `no Scheduled event: ${events}`);
    assert.deepEqual(errors, [], "a lost race is not an error");
  });

  /** Table: the scheduler dies right after one write; a new one carries on. */
  const crashes: { name: string; at: (call: Call) => boolean; node: string; cpu: string }[] = [
    {
      name: "after binding the first of three pods",
      at: (c) => isRequest(c, "POST", "/binding"),
      node: "two",
      cpu: "2",
    },
    {
      name: "after marking a pod Unschedulable",
      at: (c) => isWrite(c, "Pod", "patchStatus"),
      node: "none",
      cpu: "0",
    },
  ];
  for (const k of crashes) {
    it(`places every pod once after a crash ${k.name}`, async () => {
      await freshNamespace();
      await addNode(k.node, { cpu: k.cpu });
      const { client, crashed } = crashAfter(env.client, k.at);
      const first = await start(client);
      await Promise.all(["a", "b", "c"].map((n) => createPod(n, "1")));
      await crashed;
      await first.stop();
      const before = Object.values(await placement());
      if (k.cpu === "2") assert.ok(before.filter((n) => n !== "").length >= 1);
      else assert.deepEqual(before, ["", "", ""]);
      await start();
      if (k.cpu === "0") await addNode("later", { cpu: "3" });
      const want = k.cpu === "0" ? { later: 3 } : { two: 2, "": 1 };
      const got = await waitFor("the pods placed", async () => {
        const counts: Record<string, number> = {};
        for (const n of Object.values(await placement())) counts[n] = (counts[n] ?? 0) + 1;
        return Object.entries(want).every(([n, c]) => counts[n] === c) ? counts : undefined;
      });
      assert.deepEqual(got, want);
      if (k.cpu === "2") {
        // The one left over is told why, and the node still holds just two.
        const pending = Object.entries(await placement()).find(([, n]) => n === "")![0];
        assert.equal(
          (await scheduledCondition(pending)).message,
          "0/1 nodes are available: 1 Insufficient cpu.",
        );
        assert.equal(Object.values(await placement()).filter((n) => n === "two").length, 2);
      }
    });
  }
});
