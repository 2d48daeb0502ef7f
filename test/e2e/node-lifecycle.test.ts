/**
 * The node lifecycle controller, end to end. First against a real `hearth up
 * --no-node-agent --node-monitor-grace-period 2s`, where the test plays a dead
 * node: a Node and its Lease made by hand and never renewed. The node goes
 * Ready=Unknown with the unreachable taints; a terminating pod on it is
 * force-deleted, so `kubectl delete namespace` finishes; a pod bound to a node
 * that does not exist is marked Failed (DeletionByPodGC) and removed; a pod
 * tolerating unreachable for 1 s is evicted (DeletionByTaintManager) and gone,
 * while pods tolerating it longer stay. Then, in process, the agent's own
 * heartbeat code: while it renews the node stays Ready; when it stops the node
 * goes Unknown, tainted, its pods not Ready; when it comes back the node is
 * Ready again and the taints go.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import type { Node, Pod } from "../../src/api/pod.js";
import type { KubeObject } from "../../src/api/types.js";
import { clientFromKubeconfig, createHttpClient, type HttpClient } from "../../src/client/index.js";
import { NodeLifecycleController } from "../../src/controllers/index.js";
import { heartbeat, registerNode } from "../../src/node/node-registration.js";
import { type Hearth, startHearth, waitFor } from "../support/hearth-process.js";
import { type InProcessServer, startInProcess } from "../support/in-process.js";

const DEAD = "dead-node";
const UNREACHABLE = "node.kubernetes.io/unreachable";

type Taint = { key: string; effect: string; timeAdded?: string };
type NodeObj = Node & { spec?: { taints?: Taint[] } };

function microTime(ms = Date.now()): string {
  return `${new Date(ms).toISOString().slice(0, 23)}000Z`;
}

function podManifest(
  name: string,
  namespace: string,
  nodeName: string,
  tolerations?: Record<string, unknown>[],
): Pod {
  return {
    apiVersion: "v1",
    kind: "Pod",
    metadata: { name, namespace },
    spec: {
      nodeName,
      containers: [{ name: "main", image: "busybox", command: ["sleep", "3600"] }],
      ...(tolerations ? { tolerations } : {}),
    },
  };
}

const tolerateUnreachable = (seconds?: number) => [
  {
    key: UNREACHABLE,
    operator: "Exists",
    effect: "NoExecute",
    ...(seconds === undefined ? {} : { tolerationSeconds: seconds }),
  },
];

const condition = (node: NodeObj, type: string) =>
  node.status?.conditions?.find((c) => c.type === type);

const unreachableEffects = (node: NodeObj) =>
  (node.spec?.taints ?? [])
    .filter((t) => t.key === UNREACHABLE)
    .map((t) => t.effect)
    .sort();

/** Every state of the pod a watch shows from `rv` until it is deleted (or `ms` pass). */
async function historyUntilDeleted(
  client: HttpClient,
  pod: Pod,
  ms = 30_000,
): Promise<{ states: Pod[]; deleted: boolean }> {
  const states: Pod[] = [];
  const watch = client.watch<Pod>(
    { apiVersion: "v1", kind: "Pod" },
    {
      namespace: pod.metadata.namespace,
      fieldSelector: `metadata.name=${pod.metadata.name}`,
      resourceVersion: pod.metadata.resourceVersion,
      signal: AbortSignal.timeout(ms),
    },
  );
  for await (const ev of watch) {
    states.push(ev.object);
    if (ev.type === "DELETED") return { states, deleted: true };
  }
  return { states, deleted: false };
}

async function eventReasons(client: HttpClient, namespace: string, name: string) {
  const list = await client.list(
    { apiVersion: "v1", kind: "Event" },
    {
      namespace,
      fieldSelector: `involvedObject.name=${name}`,
    },
  );
  return list.items.map((e) => `${e.reason}: ${e.message}`);
}

describe("node lifecycle: a dead node under hearth up", () => {
  let h: Hearth;
  let client: HttpClient;

  before(async () => {
    h = await startHearth({
      extraArgs: ["--no-node-agent", "--node-monitor-grace-period", "2s"],
    });
    client = await clientFromKubeconfig(h.kubeconfig);
    // The dead node: registered once, with a Lease renewed once, never again.
    const node = await client.create<Node>({
      apiVersion: "v1",
      kind: "Node",
      metadata: { name: DEAD, labels: { "kubernetes.io/hostname": DEAD } },
    });
    await client.updateStatus({
      ...node,
      status: {
        capacity: { cpu: "2", memory: "2Gi", pods: "110" },
        allocatable: { cpu: "2", memory: "2Gi", pods: "110" },
        conditions: [
          {
            type: "Ready",
            status: "True",
            reason: "KubeletReady",
            message: "kubelet is posting ready status",
            lastHeartbeatTime: new Date().toISOString().replace(/\.\d+Z$/, "Z"),
          },
        ],
      },
    });
    await h.kubectlOk(["apply", "-f", "-"], {
      input: "apiVersion: v1\nkind: Namespace\nmetadata: {name: kube-node-lease}\n",
    });
    await client.create({
      apiVersion: "coordination.k8s.io/v1",
      kind: "Lease",
      metadata: { name: DEAD, namespace: "kube-node-lease" },
      spec: { holderIdentity: DEAD, leaseDurationSeconds: 2, renewTime: microTime() },
    });
  });
  after(async () => {
    client?.close();
    await h?.cleanup();
  });

  const getNode = async () =>
    JSON.parse(await h.kubectlOk(["get", "node", DEAD, "-o", "json"])) as NodeObj;
  const unknownAndTainted = () =>
    waitFor("the dead node Unknown and tainted", async () => {
      const n = await getNode();
      const ready = condition(n, "Ready");
      const tainted = unreachableEffects(n).join() === "NoExecute,NoSchedule";
      return ready?.status === "Unknown" && tainted ? n : undefined;
    });

  it("marks the node Ready=Unknown with kube's reason and the unreachable taints", async () => {
    const n = await unknownAndTainted();
    const ready = condition(n, "Ready");
    assert.equal(ready?.reason, "NodeStatusUnknown");
    assert.equal(ready?.message, "Kubelet stopped posting node status.");
    for (const type of ["MemoryPressure", "DiskPressure", "PIDPressure"])
      assert.equal(condition(n, type)?.status, "Unknown", type);
    for (const t of n.spec?.taints ?? []) assert.ok(t.timeAdded, `${t.key} has timeAdded`);
    const shown = await h.kubectlOk(["get", "node", DEAD]);
    assert.match(shown, new RegExp(`${DEAD}\\s+NotReady`));
    const events = await waitFor("the NodeNotReady event", async () => {
      const reasons = await eventReasons(client, "default", DEAD);
      return reasons.some((r) => r.startsWith("NodeNotReady")) ? reasons : undefined;
    });
    assert.ok(
      events.includes(`NodeNotReady: Node ${DEAD} status is now: NodeNotReady`),
      events.join("; "),
    );
  });

  it("force-deletes a terminating pod there, so deleting its namespace finishes", async () => {
    await unknownAndTainted();
    await h.kubectlOk(["create", "namespace", "doomed"]);
    // Tolerating unreachable forever: only the terminating-pod rule can remove it.
    const pod = await client.create(podManifest("stuck", "doomed", DEAD, tolerateUnreachable()));
    const history = historyUntilDeleted(client, pod);
    await h.kubectlOk(["delete", "namespace", "doomed", "--timeout=60s"], { timeoutMs: 70_000 });
    const r = await h.kubectl(["get", "namespace", "doomed"]);
    assert.notEqual(r.code, 0);
    assert.match(r.stderr, /NotFound/);
    const { states, deleted } = await history;
    assert.ok(deleted, "the pod was deleted");
    const last = states.at(-1)!;
    assert.ok(last.metadata.deletionTimestamp, "it was terminating first");
    assert.equal(last.status?.phase, "Failed", "and marked Failed before it went");
  });

  it("removes a pod bound to a node that does not exist, marked DeletionByPodGC", async () => {
    const pod = await client.create(podManifest("orphan", "default", "no-such-node"));
    const { states, deleted } = await historyUntilDeleted(client, pod);
    assert.ok(deleted, "the orphaned pod was deleted");
    const last = states.at(-1)!;
    assert.equal(last.status?.phase, "Failed");
    const target = last.status?.conditions?.find((c) => c.type === "DisruptionTarget");
    assert.deepEqual(
      [target?.status, target?.reason, target?.message],
      ["True", "DeletionByPodGC", "PodGC: node no longer exists"],
    );
  });

  it("evicts a pod whose toleration of unreachable ran out, and keeps the others", async () => {
    await unknownAndTainted();
    const quick = await client.create(
      podManifest("quick", "default", DEAD, tolerateUnreachable(1)),
    );
    await client.create(podManifest("patient", "default", DEAD));
    await client.create(podManifest("loyal", "default", DEAD, tolerateUnreachable()));
    const { states, deleted } = await historyUntilDeleted(client, quick);
    assert.ok(deleted, "the pod tolerating 1 s was evicted and removed");
    const target = states.at(-1)?.status?.conditions?.find((c) => c.type === "DisruptionTarget");
    assert.deepEqual(
      [target?.reason, target?.message],
      ["DeletionByTaintManager", "Taint manager: deleting due to NoExecute taint"],
    );
    assert.ok(states.some((s) => s.metadata.deletionTimestamp && s.status?.phase !== "Failed"));
    const reasons = await waitFor("the eviction event", async () => {
      const r = await eventReasons(client, "default", "quick");
      return r.length > 0 ? r : undefined;
    });
    assert.ok(
      reasons.includes("TaintManagerEviction: Marking for deletion Pod default/quick"),
      reasons.join("; "),
    );
    // Default toleration (300 s) and an unlimited one: both still there, not terminating.
    for (const name of ["patient", "loyal"]) {
      const p = await client.get<Pod>({
        apiVersion: "v1",
        kind: "Pod",
        name,
        namespace: "default",
      });
      assert.equal(p.metadata.deletionTimestamp, undefined, name);
    }
  });
});

describe("node lifecycle: the agent stops and comes back", () => {
  let s: InProcessServer;
  let client: HttpClient;
  const stop = new AbortController();
  let running: Promise<void>;
  const facts = { name: "flaky", podCIDR: "127.77.0.0/24", port: 1, token: "t" };
  const hbOpts = {
    leaseDurationSeconds: 1,
    renewIntervalMs: 100,
    // Long: only a node that is no longer Ready makes the agent post its status early.
    statusIntervalMs: 600_000,
    onError: () => {},
  };

  before(async () => {
    s = await startInProcess();
    client = createHttpClient({ server: s.url });
    running = new NodeLifecycleController(client, { gracePeriodMs: 1000 }).run(stop.signal);
  });
  after(async () => {
    stop.abort();
    await running;
    client?.close();
    await s?.stop();
  });

  const getNode = () => client.get<NodeObj>({ apiVersion: "v1", kind: "Node", name: facts.name });
  const renewTime = async () =>
    Date.parse(
      (
        (
          await client.get({
            apiVersion: "coordination.k8s.io/v1",
            kind: "Lease",
            name: facts.name,
            namespace: "kube-node-lease",
          })
        ).spec as {
          renewTime: string;
        }
      ).renewTime,
    );

  it("keeps a renewing node Ready, marks it when it stops, restores it when it is back", async () => {
    const node = await registerNode(client, facts);
    const alive = new AbortController();
    let beating = heartbeat(client, facts, node, hbOpts, alive.signal);
    const pod = await client.create<KubeObject>(podManifest("web", "default", facts.name));
    await client.updateStatus({
      ...pod,
      status: { phase: "Running", conditions: [{ type: "Ready", status: "True" }] },
    });

    // Alive: renewals over three grace periods, and the node still Ready, untainted.
    const first = await waitFor("a first renewal", () => renewTime().catch(() => undefined));
    await waitFor(
      "renewals over three grace periods",
      async () => (await renewTime()) > first + 3000,
    );
    let n = await getNode();
    assert.equal(condition(n, "Ready")?.status, "True");
    assert.deepEqual(unreachableEffects(n), []);
    const flaps = (await eventReasons(client, "default", facts.name)).filter((r) =>
      r.startsWith("NodeNotReady"),
    );
    assert.deepEqual(flaps, [], "never marked while renewing");

    // The agent stops: Unknown, tainted, and its pod no longer Ready.
    alive.abort();
    await beating;
    n = await waitFor("the silent node Unknown and tainted", async () => {
      const x = await getNode();
      return condition(x, "Ready")?.status === "Unknown" && unreachableEffects(x).length === 2
        ? x
        : undefined;
    });
    const notReady = await waitFor("the pod marked not Ready", async () => {
      const p = await client.get<Pod>({
        apiVersion: "v1",
        kind: "Pod",
        name: "web",
        namespace: "default",
      });
      return p.status?.conditions?.find((c) => c.type === "Ready")?.status === "False"
        ? p
        : undefined;
    });
    assert.equal(notReady.metadata.deletionTimestamp, undefined, "not evicted within 300 s");
    assert.ok(
      (await eventReasons(client, "default", "web")).includes("NodeNotReady: Node is not ready"),
    );

    // The agent comes back (same process, its heartbeat loop resumes).
    const back = new AbortController();
    beating = heartbeat(client, facts, n, hbOpts, back.signal);
    n = await waitFor("the node Ready and untainted again", async () => {
      const x = await getNode();
      return condition(x, "Ready")?.status === "True" && unreachableEffects(x).length === 0
        ? x
        : undefined;
    });
    assert.equal(condition(n, "Ready")?.reason, "KubeletReady");
    back.abort();
    await beating;
  });
});
