/**
 * Issue 15's disruption acceptance with real kubectl and `hearth up`: three
 * Ready pods `app=web` under a PodDisruptionBudget `minAvailable: 2`.
 * `kubectl drain --force` cordons the node (spec.unschedulable and the
 * node.kubernetes.io/unschedulable taint; a new pod stays Pending), evicts one
 * pod, and gets 429 for the others (kubectl retries every 5 s) until a
 * replacement is Ready; a watch checks that the Ready pods never drop below 2.
 * A direct eviction POST while no disruption is allowed is refused with kube's
 * message and leaves the pod. `kubectl uncordon` lets the Pending pod in.
 * Also: `kubectl get pdb` columns, the budget's Invalid input, and eviction
 * RBAC per namespace (create on pods/eviction).
 */
import assert from "node:assert/strict";
import type { ChildProcess } from "node:child_process";
import { after, before, describe, it } from "node:test";
import type { Pod } from "../../src/api/pod.js";
import type { PodDisruptionBudget } from "../../src/api/policy.js";
import { clientFromKubeconfig } from "../../src/client/index.js";
import { type Hearth, kubectlJson, startHearth, waitFor } from "../support/hearth-process.js";
import { applyObjects, nodeName, stopAndClean } from "../support/node-pods.js";

const READY_MS = 120_000;

function webPod(name: string, opts: { nodeName?: string; namespace?: string } = {}): Pod {
  return {
    apiVersion: "v1",
    kind: "Pod",
    metadata: {
      name,
      labels: { app: "web" },
      ...(opts.namespace ? { namespace: opts.namespace } : {}),
    },
    spec: {
      terminationGracePeriodSeconds: 2,
      ...(opts.nodeName ? { nodeName: opts.nodeName } : {}),
      containers: [
        {
          name: "main",
          image: "busybox",
          command: ["sh", "-c", "trap 'exit 0' TERM; while :; do sleep 0.2; done"],
        },
      ],
    },
  };
}

const budget = (spec: Record<string, unknown>, name = "web-pdb"): PodDisruptionBudget => ({
  apiVersion: "policy/v1",
  kind: "PodDisruptionBudget",
  metadata: { name },
  spec: { selector: { matchLabels: { app: "web" } }, ...spec },
});

const isReady = (p: Pod) =>
  (p.status?.conditions ?? []).some((c) => c.type === "Ready" && c.status === "True");
const healthy = (p: Pod) => isReady(p) && !p.metadata.deletionTimestamp;

async function status(h: Hearth, name = "web-pdb") {
  return ((await kubectlJson(h, ["get", "pdb", name])) as PodDisruptionBudget | undefined)?.status;
}

async function pods(h: Hearth, selector = "app=web", namespace = "default"): Promise<Pod[]> {
  const list = await kubectlJson(h, ["get", "pods", "-n", namespace, "-l", selector]);
  return (list?.items ?? []) as Pod[];
}

function eviction(name: string, namespace = "default"): string {
  return JSON.stringify({
    apiVersion: "policy/v1",
    kind: "Eviction",
    metadata: { name, namespace },
  });
}

/** Collects a child's output; resolves with its exit code. */
function collect(child: ChildProcess) {
  const out = { stdout: "", stderr: "", code: undefined as number | null | undefined };
  child.stdout!.on("data", (d) => {
    out.stdout += d;
  });
  child.stderr!.on("data", (d) => {
    out.stderr += d;
  });
  const done = new Promise<number | null>((resolve) =>
    child.once("exit", (code) => {
      out.code = code;
      resolve(code);
    }),
  );
  return { out, done };
}

describe("PodDisruptionBudgets, eviction and kubectl drain", () => {
  let h: Hearth;
  let node: string;
  before(async () => {
    h = await startHearth({ timeoutMs: 180_000 });
    node = await nodeName(h);
  });
  after(async () => {
    assert.equal(await stopAndClean(h), 0, "no pod process outlived the test");
  });

  it("serves the budget with kube's columns and refuses bad input", async () => {
    // kubectl create sends the budget as protobuf.
    await h.kubectlOk(["create", "pdb", "cols", "--selector=app=web", "--min-available=50%"]);
    const table = await h.kubectlOk(["get", "pdb", "cols"]);
    assert.match(table, /^NAME\s+MIN AVAILABLE\s+MAX UNAVAILABLE\s+ALLOWED DISRUPTIONS\s+AGE\n/);
    assert.match(table, /\ncols\s+50%\s+N\/A\s+0\s+\S+\n/);
    const bad: [Record<string, unknown>, RegExp][] = [
      [
        { minAvailable: 1, maxUnavailable: 1 },
        /spec: Invalid value: .*minAvailable and maxUnavailable cannot be both set/,
      ],
      [
        { minAvailable: "150%" },
        /spec\.minAvailable: Invalid value: .*must not be greater than 100%/,
      ],
      [
        { maxUnavailable: -1 },
        /spec\.maxUnavailable: Invalid value: -1: must be greater than or equal to 0/,
      ],
      [{ maxUnavailable: "1x" }, /spec\.maxUnavailable: Invalid value: .*a valid percent string/],
      [
        { minAvailable: 1, unhealthyPodEvictionPolicy: "Sometimes" },
        /spec\.unhealthyPodEvictionPolicy: Unsupported value: "Sometimes": supported values: "AlwaysAllow", "IfHealthyBudget"/,
      ],
      [
        { minAvailable: 1, selector: { matchExpressions: [{ key: "app", operator: "In" }] } },
        /spec\.selector\.matchExpressions\[0\]\.values: Required value/,
      ],
    ];
    for (const [spec, message] of bad) {
      const r = await h.kubectl(["apply", "-f", "-"], {
        input: JSON.stringify(budget(spec, "bad")),
      });
      assert.notEqual(r.code, 0, JSON.stringify(spec));
      assert.match(r.stderr, /The PodDisruptionBudget "bad" is invalid/);
      assert.match(r.stderr, message);
    }
    assert.equal(await kubectlJson(h, ["get", "pdb", "bad"]), undefined, "nothing was written");
    await h.kubectlOk(["delete", "pdb", "cols"]);
  });

  it("drains one pod at a time, never below minAvailable, and uncordon lets pods in again", async () => {
    await applyObjects(h, [
      budget({ minAvailable: 2 }),
      ...["web-1", "web-2", "web-3"].map((n) => webPod(n)),
    ]);
    await waitFor(
      "three Ready web pods",
      async () => (await pods(h)).filter(isReady).length === 3,
      READY_MS,
    );
    const settled = await waitFor("the budget counting 3 healthy", async () => {
      const s = await status(h);
      return s?.currentHealthy === 3 && s.disruptionsAllowed === 1 ? s : undefined;
    });
    assert.equal(settled.desiredHealthy, 2);
    assert.equal(settled.expectedPods, 3);
    assert.equal(settled.observedGeneration, 1);
    assert.deepEqual(
      settled.conditions?.map((c) => [c.type, c.status, c.reason]),
      [["DisruptionAllowed", "True", "SufficientPods"]],
    );
    assert.match(await h.kubectlOk(["get", "pdb", "web-pdb"]), /\nweb-pdb\s+2\s+N\/A\s+1\s+/);

    // Every event of the web pods: the healthy ones never drop below minAvailable.
    const client = await clientFromKubeconfig(h.kubeconfig);
    const watching = new AbortController();
    const seen = new Map<string, Pod>();
    let least = Number.POSITIVE_INFINITY;
    let counting = false;
    const watched = (async () => {
      for await (const ev of client.watch<Pod>(
        { apiVersion: "v1", kind: "Pod" },
        { namespace: "default", labelSelector: "app=web", signal: watching.signal },
      )) {
        if (ev.type === "DELETED") seen.delete(ev.object.metadata.name!);
        else if (ev.type !== "BOOKMARK") seen.set(ev.object.metadata.name!, ev.object);
        counting ||= seen.size >= 3;
        if (counting) least = Math.min(least, [...seen.values()].filter(healthy).length);
      }
    })();

    const drain = collect(
      h.kubectlSpawn([
        "drain",
        node,
        "--ignore-daemonsets",
        "--delete-emptydir-data",
        "--force",
        "--timeout=240s",
      ]),
    );
    await waitFor(
      "one pod evicted and the others refused",
      async () =>
        drain.out.stderr.includes(
          "Cannot evict pod as it would violate the pod's disruption budget.",
        ) && (await pods(h)).length === 2,
      60_000,
    );
    assert.match(drain.out.stdout, new RegExp(`node/${node} cordoned`));
    assert.match(drain.out.stderr, /will retry after 5s/);
    assert.match(drain.out.stderr, /deleting Pods that declare no controller/);
    const cordoned = (await kubectlJson(h, ["get", "node", node])) as
      | { spec?: { unschedulable?: boolean; taints?: { key: string; effect: string }[] } }
      | undefined;
    assert.equal(cordoned?.spec?.unschedulable, true);
    await waitFor("the unschedulable taint", async () => {
      const n = (await kubectlJson(h, ["get", "node", node])) as typeof cordoned;
      return n?.spec?.taints?.some(
        (t) => t.key === "node.kubernetes.io/unschedulable" && t.effect === "NoSchedule",
      );
    });
    assert.equal((await status(h))?.disruptionsAllowed, 0);
    assert.match(await h.kubectlOk(["get", "pdb", "web-pdb"]), /\nweb-pdb\s+2\s+N\/A\s+0\s+/);

    // A pod for the scheduler stays Pending on the cordoned node.
    await applyObjects(h, [
      { ...webPod("later"), metadata: { name: "later", labels: { app: "later" } } },
    ]);
    await waitFor("the later pod refused by the scheduler", async () => {
      const [p] = await pods(h, "app=later");
      const c = p?.status?.conditions?.find((x) => x.type === "PodScheduled");
      return c?.status === "False" && /node\(s\) were unschedulable/.test(c.message ?? "");
    });

    // A direct eviction is refused with 429 and the pod stays.
    const [victim] = (await pods(h)).filter(healthy);
    const direct = await h.kubectl(
      [
        "create",
        "--raw",
        `/api/v1/namespaces/default/pods/${victim!.metadata.name}/eviction`,
        "-f",
        "-",
      ],
      { input: eviction(victim!.metadata.name!) },
    );
    assert.notEqual(direct.code, 0);
    assert.match(direct.stderr, /Cannot evict pod as it would violate the pod's disruption budget/);
    const raw = await client.request(
      "POST",
      `/api/v1/namespaces/default/pods/${victim!.metadata.name}/eviction`,
      eviction(victim!.metadata.name!),
      { "content-type": "application/json" },
    );
    assert.equal(raw.status, 429);
    const refusal = JSON.parse(raw.body) as {
      reason: string;
      details: { causes: { reason: string; message: string }[] };
    };
    assert.equal(refusal.reason, "TooManyRequests");
    assert.deepEqual(refusal.details.causes, [
      {
        reason: "DisruptionBudget",
        message: "The disruption budget web-pdb needs 2 healthy pods and has 2 currently",
      },
    ]);
    assert.ok(
      (await kubectlJson(h, ["get", "pod", victim!.metadata.name!])) !== undefined,
      "the pod is still there",
    );

    // Each Ready replacement (pinned to the node, as the cordon keeps the scheduler off) lets one more go.
    for (const [i, replacement] of ["web-r1", "web-r2"].entries()) {
      await applyObjects(h, [webPod(replacement, { nodeName: node })]);
      await waitFor(
        `eviction ${i + 2} after ${replacement} is Ready`,
        async () =>
          (await pods(h)).filter((p) => !p.metadata.name!.startsWith("web-r")).length === 1 - i,
        READY_MS,
      );
    }
    assert.equal(
      await waitFor("kubectl drain to finish", () => drain.done.then((c) => `exit ${c}`), 60_000),
      "exit 0",
    );
    assert.match(drain.out.stdout, new RegExp(`node/${node} drained`));
    for (const n of ["web-1", "web-2", "web-3"])
      assert.match(drain.out.stdout, new RegExp(`pod/${n} evicted`));
    watching.abort();
    await watched.catch(() => {});
    assert.ok(least >= 2, `the Ready web pods never dropped below 2 (least ${least})`);

    await h.kubectlOk(["uncordon", node]);
    await waitFor(
      "the later pod scheduled",
      async () => (await pods(h, "app=later"))[0]?.spec?.nodeName === node,
    );
    await waitFor("the unschedulable taint removed", async () => {
      const n = (await kubectlJson(h, ["get", "node", node])) as typeof cordoned;
      return !n?.spec?.taints?.some((t) => t.key === "node.kubernetes.io/unschedulable");
    });
    await h.kubectlOk(["delete", "pods", "-l", "app in (web,later)", "--wait=false"]);
    await h.kubectlOk(["delete", "pdb", "web-pdb"]);
  });

  it("lets a user evict only where RBAC grants create on pods/eviction", async () => {
    for (const ns of ["team-a", "team-b"]) {
      await h.kubectlOk(["create", "namespace", ns]);
      await applyObjects(h, [webPod("solo", { namespace: ns })]);
    }
    await h.kubectlOk([
      "create",
      "rolebinding",
      "alice-edit",
      "-n",
      "team-a",
      "--clusterrole=edit",
      "--user=alice",
    ]);
    const asAlice = (ns: string) =>
      h.kubectl(
        [
          "--as",
          "alice",
          "create",
          "--raw",
          `/api/v1/namespaces/${ns}/pods/solo/eviction`,
          "-f",
          "-",
        ],
        {
          input: eviction("solo", ns),
        },
      );
    const refused = await asAlice("team-b");
    assert.notEqual(refused.code, 0);
    assert.match(refused.stderr, /forbidden/i);
    assert.equal((await pods(h, "app=web", "team-b")).length, 1, "team-b's pod stays");
    const allowed = await asAlice("team-a");
    assert.equal(allowed.code, 0, allowed.stderr);
    assert.match(allowed.stdout, /"status":"Success"/);
    await waitFor(
      "team-a's pod gone",
      async () => (await pods(h, "app=web", "team-a")).length === 0,
      60_000,
    );
    for (const ns of ["team-a", "team-b"])
      await h.kubectlOk(["delete", "namespace", ns, "--wait=false"]);
  });
});
