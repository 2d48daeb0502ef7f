/**
 * The scheduler against an in-process apiserver: the `pods/binding`
 * subresource's rules, then pending pods bound to Ready nodes by requests and
 * anti-affinity, an unschedulable pod's condition and message, and its binding
 * once a node with room appears.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import type { KubeObject } from "../../src/api/types.js";
import { createHttpClient, type HttpClient } from "../../src/client/index.js";
import { Scheduler } from "../../src/controllers/scheduler/index.js";
import { waitFor } from "../support/hearth-process.js";
import { type InProcessServer, startInProcess } from "../support/in-process.js";

const NS = "default";

type Pod = KubeObject & {
  spec: { nodeName?: string };
  status?: { conditions?: { type: string; status: string; reason?: string; message?: string }[] };
};

function pod(
  name: string,
  cpu: string,
  extra: Record<string, unknown> = {},
  labels = {},
): KubeObject {
  return {
    apiVersion: "v1",
    kind: "Pod",
    metadata: { name, namespace: NS, labels },
    spec: {
      containers: [{ name: "main", image: "sleep", resources: { requests: { cpu } } }],
      ...extra,
    },
  };
}

describe("scheduler", () => {
  let s: InProcessServer;
  let client: HttpClient;

  async function addNode(name: string, cpu: string, ready = true): Promise<void> {
    const node = await client.create<KubeObject>({
      apiVersion: "v1",
      kind: "Node",
      metadata: { name, labels: { "kubernetes.io/hostname": name } },
    });
    await client.updateStatus({
      ...node,
      status: {
        capacity: { cpu, memory: "4Gi", pods: "110" },
        allocatable: { cpu, memory: "4Gi", pods: "110" },
        conditions: [{ type: "Ready", status: ready ? "True" : "False" }],
      },
    });
  }

  const binding = (name: string, target: Record<string, unknown>) =>
    s.request(
      "POST",
      `/api/v1/namespaces/${NS}/pods/${name}/binding`,
      JSON.stringify({ apiVersion: "v1", kind: "Binding", metadata: { name }, target }),
    );

  before(async () => {
    s = await startInProcess();
    client = createHttpClient({ server: s.url });
  });
  after(async () => {
    client?.close();
    await s?.stop();
  });

  it("binds through pods/binding once, as kube-apiserver does", async () => {
    await client.create(pod("manual", "100m"));
    const wrongKind = await binding("manual", { kind: "Pod", name: "x" });
    assert.equal(wrongKind.status, 422);
    assert.match(wrongKind.text, /target\.kind: Unsupported value: \\"Pod\\"/);
    const noName = await binding("manual", { kind: "Node" });
    assert.equal(noName.status, 422);
    assert.match(noName.text, /target\.name: Required value/);
    const ok = await binding("manual", { kind: "Node", name: "elsewhere" });
    assert.equal(ok.status, 201);
    assert.equal((ok.body as { status: string }).status, "Success");
    const bound = await client.get<Pod>({
      apiVersion: "v1",
      kind: "Pod",
      name: "manual",
      namespace: NS,
    });
    assert.equal(bound.spec.nodeName, "elsewhere");
    const scheduled = bound.status?.conditions?.find((c) => c.type === "PodScheduled");
    assert.equal(scheduled?.status, "True");
    const again = await binding("manual", { kind: "Node", name: "other" });
    assert.equal(again.status, 409);
    assert.equal(
      (again.body as { message: string }).message,
      'Operation cannot be fulfilled on pods/binding "manual": pod manual is already assigned to node "elsewhere"',
    );
    await client.delete(
      { apiVersion: "v1", kind: "Pod", name: "manual", namespace: NS },
      { gracePeriodSeconds: 0 },
    );
  });

  it("schedules by requests and anti-affinity, and retries the unschedulable", async () => {
    await addNode("n1", "1");
    await addNode("n2", "2");
    await addNode("down", "8", false);
    const stop = new AbortController();
    const running = new Scheduler(client, { retryMs: 60_000 }).run(stop.signal);
    try {
      const spread = {
        affinity: {
          podAntiAffinity: {
            requiredDuringSchedulingIgnoredDuringExecution: [
              {
                labelSelector: { matchLabels: { app: "db" } },
                topologyKey: "kubernetes.io/hostname",
              },
            ],
          },
        },
      };
      await client.create(pod("db-0", "500m", spread, { app: "db" }));
      await client.create(pod("db-1", "500m", spread, { app: "db" }));
      const nodes = await Promise.all(
        ["db-0", "db-1"].map((n) =>
          waitFor(
            `${n} bound`,
            async () =>
              (await client.get<Pod>({ apiVersion: "v1", kind: "Pod", name: n, namespace: NS }))
                .spec.nodeName,
          ),
        ),
      );
      assert.deepEqual(nodes.sort(), ["n1", "n2"]);

      await client.create(pod("db-2", "100m", spread, { app: "db" }));
      await client.create(pod("big", "1600m"));
      const message = async (name: string) => {
        const p = await client.get<Pod>({ apiVersion: "v1", kind: "Pod", name, namespace: NS });
        const c = p.status?.conditions?.find((x) => x.type === "PodScheduled");
        return c?.status === "False" && c.reason === "Unschedulable" ? c.message : undefined;
      };
      assert.equal(
        await waitFor("db-2 unschedulable", () => message("db-2")),
        "0/3 nodes are available: 1 node(s) had untolerated taint {node.kubernetes.io/not-ready: }, 2 node(s) didn't satisfy existing pods anti-affinity rules.",
      );
      assert.equal(
        await waitFor("big unschedulable", () => message("big")),
        "0/3 nodes are available: 1 node(s) had untolerated taint {node.kubernetes.io/not-ready: }, 2 Insufficient cpu.",
      );
      // A new node with room lets both in, long before the periodic retry.
      await addNode("n3", "4");
      for (const name of ["db-2", "big"])
        assert.equal(
          await waitFor(
            `${name} bound`,
            async () =>
              (await client.get<Pod>({ apiVersion: "v1", kind: "Pod", name, namespace: NS })).spec
                .nodeName,
          ),
          "n3",
        );
    } finally {
      stop.abort();
      await running;
    }
  });
});
