/**
 * The DaemonSet controller with the scheduler on the envtest apiserver, the
 * test playing the kubelet (Ready through the status subresource): one pod per
 * node, pinned by node affinity matchFields and bound by the scheduler, with
 * kube's default tolerations; a node joining or becoming selectable gets its
 * pod, one leaving the selector loses it; a NoExecute taint removes the pod, a
 * NoSchedule one does not; a rolling update replaces pods one node at a time;
 * and the apiserver's DaemonSet rules.
 */
import assert from "node:assert/strict";
import { afterEach, describe, it } from "node:test";
import { useEnv } from "../../../test/support/controller-run.js";
import { createNamespace, NODE, POD, uniqueName } from "../../../test/support/core-objects.js";
import { waitFor } from "../../../test/support/hearth-process.js";
import type { DaemonSet, KubeObject, Pod } from "../../api/index.js";
import { Scheduler } from "../scheduler/index.js";
import { registerDaemonSetController } from "./register.js";

type Taint = { key: string; value?: string; effect: string };

function manifest(ns: string, name: string, spec: Partial<DaemonSet["spec"]> = {}): DaemonSet {
  return {
    apiVersion: "apps/v1",
    kind: "DaemonSet",
    metadata: { name, namespace: ns },
    spec: {
      selector: { matchLabels: { app: name } },
      template: {
        metadata: { labels: { app: name } },
        spec: { containers: [{ name: "main", image: "busybox", command: ["sleep", "3600"] }] },
      },
      ...spec,
    },
  };
}

describe("DaemonSet controller (envtest)", () => {
  const env = useEnv();
  let ns: string;
  afterEach(async () => {
    await env.client.deleteCollection(POD, { namespace: ns, gracePeriodSeconds: 0 });
    await env.client.deleteCollection(NODE);
  });
  const start = async () => {
    ns = uniqueName("ds");
    await createNamespace(env.client, ns);
    await env.start((m) => {
      new Scheduler(env.client, { retryMs: 200 }).register(m);
      registerDaemonSetController(m, env.client);
    });
  };
  const addNode = async (name: string, labels: Record<string, string> = {}, taints?: Taint[]) => {
    const node = await env.client.create<KubeObject>({
      ...NODE,
      metadata: { name, labels: { "kubernetes.io/hostname": name, ...labels } },
      spec: taints ? { taints } : {},
    });
    await env.client.updateStatus({
      ...node,
      status: {
        capacity: { cpu: "4", memory: "8Gi", pods: "110" },
        allocatable: { cpu: "4", memory: "8Gi", pods: "110" },
        conditions: [{ type: "Ready", status: "True" }],
      },
    });
  };
  const livePods = async () =>
    (await env.client.list<Pod>(POD, { namespace: ns })).items.filter(
      (p) => !p.metadata.deletionTimestamp,
    );
  /** Waits until the live pods are bound to exactly `nodes`, readying each (the kubelet's part). */
  const boundTo = (nodes: string[]) =>
    waitFor(`pods on ${nodes.join(",")}`, async () => {
      const pods = await livePods();
      for (const p of pods)
        if (p.spec.nodeName && p.status?.phase !== "Running")
          await env.client.patchStatus(
            { ...POD, name: p.metadata.name!, namespace: ns },
            {
              status: {
                phase: "Running",
                conditions: [
                  { type: "Ready", status: "True", lastTransitionTime: new Date().toISOString() },
                ],
              },
            },
            { type: "merge" },
          );
      const on = pods.map((p) => p.spec.nodeName ?? "?").sort();
      return JSON.stringify(on) === JSON.stringify([...nodes].sort()) ? pods : undefined;
    });
  const dsRef = (name: string) => ({
    apiVersion: "apps/v1",
    kind: "DaemonSet",
    name,
    namespace: ns,
  });

  it("runs one pod per node, pinned by matchFields, with kube's tolerations and status", async () => {
    await start();
    await addNode("a");
    await addNode("b");
    await env.client.create(manifest(ns, "agent"));
    const pods = await boundTo(["a", "b"]);
    const pod = pods.find((p) => p.spec.nodeName === "a")!;
    assert.deepEqual(pod.spec.affinity?.nodeAffinity, {
      requiredDuringSchedulingIgnoredDuringExecution: {
        nodeSelectorTerms: [
          { matchFields: [{ key: "metadata.name", operator: "In", values: ["a"] }] },
        ],
      },
    });
    assert.deepEqual(
      pod.spec.tolerations?.map((t) => `${t.key}:${t.effect}`),
      [
        "node.kubernetes.io/not-ready:NoExecute",
        "node.kubernetes.io/unreachable:NoExecute",
        "node.kubernetes.io/disk-pressure:NoSchedule",
        "node.kubernetes.io/memory-pressure:NoSchedule",
        "node.kubernetes.io/pid-pressure:NoSchedule",
        "node.kubernetes.io/unschedulable:NoSchedule",
      ],
    );
    assert.match(pod.metadata.generateName ?? "", /^agent-$/);
    const status = await waitFor("status 2/2", async () => {
      const ds = await env.client.get<DaemonSet>(dsRef("agent"));
      return ds.status?.numberReady === 2 ? ds.status : undefined;
    });
    assert.equal(status.desiredNumberScheduled, 2);
    assert.equal(status.currentNumberScheduled, 2);
    assert.equal(status.updatedNumberScheduled, 2);
    assert.equal(status.numberMisscheduled, 0);
    await addNode("c");
    await boundTo(["a", "b", "c"]);
  });

  it("follows the nodeSelector as nodes are relabelled", async () => {
    await start();
    await addNode("a", { disk: "ssd" });
    await addNode("b");
    await env.client.create(
      manifest(ns, "ssd", {
        template: {
          metadata: { labels: { app: "ssd" } },
          spec: {
            nodeSelector: { disk: "ssd" },
            containers: [{ name: "main", image: "busybox", command: ["sleep", "3600"] }],
          },
        },
      }),
    );
    await boundTo(["a"]);
    await env.client.patch(
      { ...NODE, name: "b" },
      { metadata: { labels: { disk: "ssd" } } },
      { type: "merge" },
    );
    await boundTo(["a", "b"]);
    await env.client.patch(
      { ...NODE, name: "a" },
      { metadata: { labels: { disk: null } } },
      { type: "merge" },
    );
    await boundTo(["b"]);
  });

  it("removes the pod of a node tainted NoExecute, keeps it under a later NoSchedule taint", async () => {
    await start();
    await addNode("a");
    await addNode("b");
    await env.client.create(manifest(ns, "t"));
    await boundTo(["a", "b"]);
    await env.client.patch(
      { ...NODE, name: "b" },
      { spec: { taints: [{ key: "dedicated", value: "x", effect: "NoSchedule" }] } },
      { type: "merge" },
    );
    await env.client.patch(
      { ...NODE, name: "a" },
      { spec: { taints: [{ key: "dedicated", value: "x", effect: "NoExecute" }] } },
      { type: "merge" },
    );
    await boundTo(["b"]);
    const ds = await waitFor("misscheduled none, desired 0", async () => {
      const d = await env.client.get<DaemonSet>(dsRef("t"));
      return d.status?.desiredNumberScheduled === 0 && d.status.numberMisscheduled === 1
        ? d
        : undefined;
    });
    assert.equal(ds.status?.currentNumberScheduled, 0);
    assert.equal(
      ds.status?.numberMisscheduled,
      1,
      "b's pod stays, though b no longer takes new ones",
    );
  });

  it("rolls a template change one node at a time", async () => {
    await start();
    for (const n of ["a", "b", "c"]) await addNode(n);
    await env.client.create(manifest(ns, "roll"));
    const before = await boundTo(["a", "b", "c"]);
    const oldHash = before[0]!.metadata.labels?.["controller-revision-hash"];
    await env.client.patch(
      dsRef("roll"),
      { spec: { template: { metadata: { labels: { app: "roll", v: "2" } } } } },
      { type: "merge" },
    );
    let most = 0;
    await waitFor(
      "every pod updated",
      async () => {
        const pods = await boundTo(["a", "b", "c"]).catch(() => undefined);
        const all = await livePods();
        most = Math.max(most, 3 - all.length);
        return pods?.every((p) => p.metadata.labels?.["controller-revision-hash"] !== oldHash);
      },
      30_000,
    );
    assert.ok(most <= 1, "never more than one node without its pod");
    const revisions = await env.client.list(
      { apiVersion: "apps/v1", kind: "ControllerRevision" },
      { namespace: ns },
    );
    assert.equal(revisions.items.length, 2);
  });

  it("refuses maxSurge and maxUnavailable both 0, and a changed selector", async () => {
    await start();
    const zero = manifest(ns, "zero", {
      updateStrategy: { type: "RollingUpdate", rollingUpdate: { maxUnavailable: 0, maxSurge: 0 } },
    });
    await assert.rejects(
      env.client.create(zero),
      /spec\.updateStrategy\.rollingUpdate\.maxUnavailable: Required value: cannot be 0 when maxSurge is 0/,
    );
    const both = manifest(ns, "both", {
      updateStrategy: {
        type: "RollingUpdate",
        rollingUpdate: { maxUnavailable: 1, maxSurge: "10%" },
      },
    });
    await assert.rejects(
      env.client.create(both),
      /spec\.updateStrategy\.rollingUpdate\.maxSurge: Invalid value: "10%": may not be set when maxUnavailable is non-zero/,
    );
    const created = await env.client.create(manifest(ns, "keep"));
    assert.deepEqual(created.spec.updateStrategy, {
      type: "RollingUpdate",
      rollingUpdate: { maxUnavailable: 1, maxSurge: 0 },
    });
    assert.equal(created.spec.revisionHistoryLimit, 10);
    await assert.rejects(
      env.client.patch(
        dsRef("keep"),
        {
          spec: {
            selector: { matchLabels: { app: "keep", x: "y" } },
            template: { metadata: { labels: { app: "keep", x: "y" } } },
          },
        },
        { type: "merge" },
      ),
      /spec\.selector: Invalid value: .*field is immutable/,
    );
  });
});
