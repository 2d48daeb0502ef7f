/**
 * The Pod and Node kinds over HTTP against an in-process apiserver: kube's
 * defaults and validation, spec immutability, graceful deletion (a pod on a
 * node waits out its grace period until deleted with grace 0; one not on a
 * node goes at once), and the pods and nodes tables.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import type { KubeObject } from "../../src/api/types.js";
import { type InProcessServer, startInProcess } from "../support/in-process.js";

const PODS = "/api/v1/namespaces/default/pods";

interface PodObj extends KubeObject {
  spec: Record<string, unknown> & { containers: Record<string, unknown>[] };
  status?: Record<string, unknown>;
}

describe("Pod and Node API", () => {
  let s: InProcessServer;
  const json = (o: unknown) => JSON.stringify(o);
  const pod = (name: string, spec: Record<string, unknown> = {}) =>
    json({
      apiVersion: "v1",
      kind: "Pod",
      metadata: { name },
      spec: { containers: [{ name: "c", image: "busybox" }], ...spec },
    });
  async function ok(method: string, path: string, body?: string, headers?: Record<string, string>) {
    const r = await s.request(method, path, body, headers);
    assert.ok(r.status >= 200 && r.status < 300, `${method} ${path}: ${r.status} ${r.text}`);
    return r.body as PodObj;
  }

  before(async () => {
    s = await startInProcess();
  });
  after(async () => {
    await s?.stop();
  });

  it("defaults a new pod as kube does and starts it Pending", async () => {
    const p = await ok(
      "POST",
      PODS,
      pod("defaults", {
        containers: [
          {
            name: "c",
            image: "etcd:3.5",
            ports: [{ containerPort: 2379 }],
            readinessProbe: { tcpSocket: { port: 2379 } },
            resources: { requests: { cpu: "50m" }, limits: { cpu: "100m", memory: "1Gi" } },
          },
        ],
      }),
    );
    const c = p.spec.containers[0]!;
    assert.equal(p.spec.restartPolicy, "Always");
    assert.equal(p.spec.terminationGracePeriodSeconds, 30);
    assert.equal(p.spec.schedulerName, "default-scheduler");
    assert.equal(c.imagePullPolicy, "IfNotPresent");
    assert.deepEqual(c.ports, [{ containerPort: 2379, protocol: "TCP" }]);
    assert.deepEqual(c.readinessProbe, {
      tcpSocket: { port: 2379 },
      timeoutSeconds: 1,
      periodSeconds: 10,
      successThreshold: 1,
      failureThreshold: 3,
    });
    assert.deepEqual(p.status, { phase: "Pending", qosClass: "Burstable" });
  });

  it("refuses invalid pods with kube's field paths", async () => {
    const cases: [string, string, RegExp][] = [
      [
        "none",
        json({
          apiVersion: "v1",
          kind: "Pod",
          metadata: { name: "none" },
          spec: { containers: [] },
        }),
        /spec\.containers: Required value/,
      ],
      [
        "dup",
        pod("dup", {
          initContainers: [{ name: "c", image: "a" }],
          containers: [{ name: "c", image: "b" }],
        }),
        /spec\.containers\[0\]\.name: Duplicate value: "c"/,
      ],
      [
        "noimage",
        pod("noimage", { containers: [{ name: "c" }] }),
        /spec\.containers\[0\]\.image: Required value/,
      ],
      [
        "mount",
        pod("mount", {
          containers: [{ name: "c", image: "a", volumeMounts: [{ name: "v", mountPath: "/v" }] }],
        }),
        /volumeMounts\[0\]\.name: Not found: "v"/,
      ],
      [
        "twovol",
        pod("twovol", { volumes: [{ name: "v", emptyDir: {}, hostPath: { path: "/x" } }] }),
        /spec\.volumes\[0\]\.hostPath: Forbidden: may not specify more than 1 volume type/,
      ],
      [
        "probe",
        pod("probe", {
          containers: [{ name: "c", image: "a", livenessProbe: { periodSeconds: 1 } }],
        }),
        /livenessProbe: Required value: must specify a handler type/,
      ],
      [
        "qty",
        pod("qty", {
          containers: [{ name: "c", image: "a", resources: { limits: { cpu: "lots" } } }],
        }),
        /resources\.limits\[cpu\]: Invalid value: "lots"/,
      ],
    ];
    for (const [name, body, message] of cases) {
      const r = await s.request("POST", PODS, body);
      assert.equal(r.status, 422, `${name}: ${r.text}`);
      assert.match((r.body as { message: string }).message, message, name);
    }
  });

  it("lets updates change images and labels but not the rest of the spec", async () => {
    const p = await ok("POST", PODS, pod("immutable"));
    const patch = (body: unknown) =>
      s.request("PATCH", `${PODS}/immutable`, json(body), {
        "Content-Type": "application/strategic-merge-patch+json",
      });
    assert.equal((await patch({ metadata: { labels: { a: "b" } } })).status, 200);
    const image = await patch({ spec: { containers: [{ name: "c", image: "busybox:2" }] } });
    assert.equal(image.status, 200, image.text);
    const r = await patch({ spec: { restartPolicy: "Never" } });
    assert.equal(r.status, 422);
    assert.match(
      r.text,
      /pod updates may not change fields other than `spec.containers\[\*\].image`/,
    );
    assert.equal(p.metadata.generation, 1);
  });

  it("deletes a pod not on a node at once, and one on a node gracefully", async () => {
    await ok("POST", PODS, pod("unbound"));
    await ok("DELETE", `${PODS}/unbound`);
    assert.equal((await s.request("GET", `${PODS}/unbound`)).status, 404);

    await ok("POST", PODS, pod("bound", { nodeName: "n1", terminationGracePeriodSeconds: 20 }));
    const before = Date.now();
    const marked = await ok("DELETE", `${PODS}/bound`);
    assert.equal(marked.metadata.deletionGracePeriodSeconds, 20);
    const due = Date.parse(marked.metadata.deletionTimestamp!);
    assert.ok(
      due >= before + 18_000 && due <= Date.now() + 21_000,
      marked.metadata.deletionTimestamp,
    );
    // The node agent writes status while stopping it: the pod stays.
    await ok("PATCH", `${PODS}/bound/status`, json({ status: { phase: "Running" } }), {
      "Content-Type": "application/merge-patch+json",
    });
    assert.equal((await s.request("GET", `${PODS}/bound`)).status, 200);
    // A later delete may shorten the grace period, never lengthen it.
    const shorter = await ok("DELETE", `${PODS}/bound`, json({ gracePeriodSeconds: 5 }));
    assert.equal(shorter.metadata.deletionGracePeriodSeconds, 5);
    assert.equal(Date.parse(shorter.metadata.deletionTimestamp!), due - 15_000);
    const same = await ok("DELETE", `${PODS}/bound`, json({ gracePeriodSeconds: 10 }));
    assert.equal(same.metadata.deletionGracePeriodSeconds, 5);
    await ok("DELETE", `${PODS}/bound`, json({ gracePeriodSeconds: 0 }));
    assert.equal((await s.request("GET", `${PODS}/bound`)).status, 404);
  });

  it("keeps a pod deleted with grace 0 while a finalizer holds it", async () => {
    await ok(
      "POST",
      PODS,
      json({
        apiVersion: "v1",
        kind: "Pod",
        metadata: { name: "held", finalizers: ["x/y"] },
        spec: { nodeName: "n1", containers: [{ name: "c", image: "a" }] },
      }),
    );
    const marked = await ok("DELETE", `${PODS}/held`, json({ gracePeriodSeconds: 0 }));
    assert.equal(marked.metadata.deletionGracePeriodSeconds, 0);
    await ok("PATCH", `${PODS}/held`, json({ metadata: { finalizers: null } }), {
      "Content-Type": "application/merge-patch+json",
    });
    assert.equal((await s.request("GET", `${PODS}/held`)).status, 404);
  });

  it("prints pods and nodes as kubectl expects", async () => {
    await ok("POST", PODS, pod("table", { nodeName: "n1" }));
    await ok(
      "PATCH",
      `${PODS}/table/status`,
      json({
        status: {
          phase: "Running",
          podIP: "127.1.0.9",
          podIPs: [{ ip: "127.1.0.9" }],
          containerStatuses: [
            {
              name: "c",
              ready: false,
              restartCount: 2,
              image: "busybox",
              imageID: "",
              state: { waiting: { reason: "CrashLoopBackOff" } },
              lastState: {
                terminated: {
                  exitCode: 1,
                  finishedAt: `${new Date().toISOString().slice(0, 19)}Z`,
                },
              },
            },
          ],
        },
      }),
      { "Content-Type": "application/merge-patch+json" },
    );
    const accept = { Accept: "application/json;as=Table;v=v1;g=meta.k8s.io" };
    const table = (await s.request("GET", `${PODS}/table`, undefined, accept)).body as {
      columnDefinitions: { name: string; priority: number }[];
      rows: { cells: unknown[] }[];
    };
    assert.deepEqual(
      table.columnDefinitions.map((c) => c.name),
      [
        "Name",
        "Ready",
        "Status",
        "Restarts",
        "Age",
        "IP",
        "Node",
        "Nominated Node",
        "Readiness Gates",
      ],
    );
    const [name, ready, status, restarts, , ip, node] = table.rows[0]!.cells;
    assert.deepEqual(
      [name, ready, status, ip, node],
      ["table", "0/1", "CrashLoopBackOff", "127.1.0.9", "n1"],
    );
    assert.match(String(restarts), /^2 \(\d+s ago\)$/);

    await ok(
      "POST",
      "/api/v1/nodes",
      json({
        apiVersion: "v1",
        kind: "Node",
        metadata: { name: "n1", labels: { "node-role.kubernetes.io/control-plane": "" } },
      }),
    );
    await ok(
      "PUT",
      "/api/v1/nodes/n1/status",
      json({
        apiVersion: "v1",
        kind: "Node",
        metadata: { name: "n1" },
        status: {
          conditions: [{ type: "Ready", status: "True" }],
          nodeInfo: Object.fromEntries(
            [
              "machineID",
              "systemUUID",
              "bootID",
              "kernelVersion",
              "osImage",
              "containerRuntimeVersion",
              "kubeProxyVersion",
              "operatingSystem",
              "architecture",
            ]
              .map((k) => [k, ""])
              .concat([["kubeletVersion", "v1.32.0-hearth"]]),
          ),
          addresses: [{ type: "InternalIP", address: "127.0.0.1" }],
        },
      }),
    );
    const nodes = (await s.request("GET", "/api/v1/nodes", undefined, accept)).body as typeof table;
    assert.deepEqual(
      nodes.columnDefinitions.slice(0, 5).map((c) => c.name),
      ["Name", "Status", "Roles", "Age", "Version"],
    );
    assert.deepEqual(nodes.rows[0]!.cells.slice(0, 3), ["n1", "Ready", "control-plane"]);
    assert.equal(
      (await s.request("GET", "/api/v1/namespaces/default/nodes/n1")).status,
      404,
      "nodes are cluster-scoped",
    );
  });
});
