/**
 * `kubectl top` on a `hearth up` with containers: metrics.k8s.io is in
 * discovery, `kubectl top nodes` and `kubectl top pods -A` print figures, a
 * busybox pod that waits for a file and then burns CPU shows a CPU figure
 * that rises once the test writes the file, label selectors pick pods, the
 * objects read as metrics-server writes them (nano-cores, Ki, a Go duration
 * window), watch is refused with 405, a node whose agent cannot be reached
 * is left out (kubectl shows it as `<unknown>`, not a 500). Access: a user with kube's `view` in one
 * namespace sees that namespace's pod metrics only; a tenant's `view` group
 * sees its tenant namespace and is refused elsewhere and on node metrics.
 * Skips unless root with containerd and the built images.
 */
import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, test } from "node:test";
import { withCriHearth } from "../support/cri-hearth.js";
import { criSkipReason } from "../support/cri-node.js";
import { type Hearth, waitFor } from "../support/hearth-process.js";

const POD_CIDR = "10.238.0.0/16";
const SERVICE_CIDR = "10.239.0.0/16";

const pod = (
  name: string,
  namespace: string,
  script: string,
  extra: { labels?: Record<string, string>; trigger?: string } = {},
) => ({
  apiVersion: "v1",
  kind: "Pod",
  metadata: { name, namespace, ...(extra.labels ? { labels: extra.labels } : {}) },
  spec: {
    terminationGracePeriodSeconds: 1,
    containers: [
      {
        name: "main",
        image: "busybox:1.35",
        command: ["sh", "-c", script],
        // Half a core: the burner shares two cores with other tests.
        resources: { limits: { cpu: "500m", memory: "64Mi" } },
        ...(extra.trigger ? { volumeMounts: [{ name: "trigger", mountPath: "/trigger" }] } : {}),
      },
    ],
    ...(extra.trigger
      ? { volumes: [{ name: "trigger", hostPath: { path: extra.trigger, type: "Directory" } }] }
      : {}),
  },
});

/** `kubectl top pods` rows: namespace (with -A), name, millicores, MiB. */
interface PodRow {
  namespace?: string;
  name: string;
  cpuMilli: number;
  memoryMi: number;
}

function podRows(out: string, allNamespaces: boolean): PodRow[] {
  const rows: PodRow[] = [];
  for (const line of out.trim().split("\n").slice(1)) {
    const cells = line.trim().split(/\s+/);
    const [namespace, name, cpu, memory] = allNamespaces ? cells : [undefined, ...cells];
    const cpuMatch = /^(\d+)m$/.exec(cpu ?? "");
    const memMatch = /^(\d+)Mi$/.exec(memory ?? "");
    assert.ok(cpuMatch && memMatch && name, `a row of numbers: ${JSON.stringify(line)}`);
    rows.push({
      ...(namespace ? { namespace } : {}),
      name,
      cpuMilli: Number(cpuMatch[1]),
      memoryMi: Number(memMatch[1]),
    });
  }
  return rows;
}

async function topPods(h: Hearth, args: string[]): Promise<PodRow[] | undefined> {
  const r = await h.kubectl(["top", "pods", ...args]);
  if (r.code !== 0) return undefined;
  return podRows(r.stdout, args.includes("-A"));
}

/** `kubectl get --raw PATH`, parsed. */
async function rawJson(h: Hearth, path: string) {
  return JSON.parse(await h.kubectlOk(["get", "--raw", path]));
}

async function burnerCpu(h: Hearth): Promise<number | undefined> {
  const rows = await topPods(h, ["burner"]);
  return rows?.find((r) => r.name === "burner")?.cpuMilli;
}

describe("kubectl top: the metrics.k8s.io API from the node agents", {
  skip: criSkipReason(),
}, () => {
  test("nodes and pods have figures, a burner's CPU rises, and access follows RBAC", async () => {
    const trigger = mkdtempSync("/tmp/hearth-top-trigger-");
    try {
      await withCriHearth(
        { prefix: "hearth-top-", podCIDR: POD_CIDR, serviceCIDR: SERVICE_CIDR },
        async (h) => {
          const pods = {
            apiVersion: "v1",
            kind: "List",
            items: [
              pod(
                "burner",
                "default",
                "while [ ! -e /trigger/go ]; do sleep 1; done; while :; do :; done",
                { labels: { app: "burner" }, trigger },
              ),
              pod("idle", "default", "while :; do sleep 3600; done", { labels: { app: "idle" } }),
              pod("tenant-idle", "tenant-root", "while :; do sleep 3600; done"),
            ],
          };
          await h.kubectlOk(["apply", "-f", "-"], { input: JSON.stringify(pods) });
          for (const [ns, names] of [
            ["default", ["burner", "idle"]],
            ["tenant-root", ["tenant-idle"]],
          ] as const)
            await h.kubectlOk(
              ["wait", "-n", ns, "--for=condition=Ready", "pod", ...names, "--timeout=120s"],
              { timeoutMs: 130_000 },
            );

          // Discovery names the group as metrics-server registers it.
          const resources = await h.kubectlOk(["api-resources", "--api-group=metrics.k8s.io"]);
          assert.match(resources, /^nodes\s+metrics\.k8s\.io\/v1beta1\s+false\s+NodeMetrics$/m);
          assert.match(resources, /^pods\s+metrics\.k8s\.io\/v1beta1\s+true\s+PodMetrics$/m);

          // kubectl top nodes: the node, with CPU and memory figures and percentages.
          const nodeName = (await h.kubectlOk(["get", "nodes", "-o", "name"]))
            .trim()
            .split("/")[1]!;
          const nodes = await waitFor("kubectl top nodes", async () => {
            const r = await h.kubectl(["top", "nodes"]);
            return r.code === 0 ? r.stdout : undefined;
          });
          assert.match(
            nodes,
            new RegExp(`^${nodeName}\\s+\\d+m\\s+\\d+%\\s+[1-9]\\d*Mi\\s+\\d+%\\s*$`, "m"),
          );

          // kubectl top pods -A: every running pod, across namespaces.
          const all = await waitFor("the three pods in kubectl top pods -A", async () => {
            const rows = await topPods(h, ["-A"]);
            const names = new Set(rows?.map((r) => `${r.namespace}/${r.name}`));
            return ["default/burner", "default/idle", "tenant-root/tenant-idle"].every((n) =>
              names.has(n),
            )
              ? rows
              : undefined;
          });
          const idleBurner = all.find((r) => r.name === "burner")!;
          assert.ok(idleBurner.cpuMilli < 100, `the burner waits: ${JSON.stringify(idleBurner)}`);

          // The burner starts burning: its CPU figure rises between reads.
          writeFileSync(join(trigger, "go"), "");
          const burning = await waitFor(
            "the burner's CPU figure to rise",
            async () => {
              const cpu = await burnerCpu(h);
              return cpu !== undefined && cpu >= 150 ? cpu : undefined;
            },
            60_000,
          );
          assert.ok(burning > idleBurner.cpuMilli);

          // A label selector picks pods; --containers shows the container.
          const selected = await topPods(h, ["-l", "app=idle"]);
          assert.deepEqual(
            selected?.map((r) => r.name),
            ["idle"],
          );
          assert.match(
            await h.kubectlOk(["top", "pods", "burner", "--containers"]),
            /^burner\s+main\s+\d+m\s+\d+Mi/m,
          );

          // The objects as metrics-server writes them.
          const raw = await rawJson(
            h,
            "/apis/metrics.k8s.io/v1beta1/namespaces/default/pods/burner",
          );
          assert.equal(raw.kind, "PodMetrics");
          assert.equal(raw.apiVersion, "metrics.k8s.io/v1beta1");
          assert.deepEqual(raw.metadata.labels, { app: "burner" });
          assert.match(raw.timestamp, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
          assert.match(raw.window, /^(\d+m)?\d+(\.\d+)?s$|^\d+ms$/);
          assert.equal(raw.containers[0].name, "main");
          assert.match(raw.containers[0].usage.cpu, /^\d+[nm]?$/);
          assert.match(raw.containers[0].usage.memory, /^\d+(Ki|Mi)?$/);
          const nodeRaw = await rawJson(h, `/apis/metrics.k8s.io/v1beta1/nodes/${nodeName}`);
          assert.equal(nodeRaw.kind, "NodeMetrics");
          assert.match(nodeRaw.usage.cpu, /^\d+[nm]?$/);
          assert.match(nodeRaw.usage.memory, /^\d+(Ki|Mi|Gi)$/);
          // Tables, as `kubectl get podmetrics` shows them.
          assert.match(
            await h.kubectlOk(["get", "podmetrics.metrics.k8s.io", "burner"]),
            /^NAME\s+CPU\s+MEMORY\s+WINDOW\nburner\s+\d+[nm]?\s+\d+(Ki|Mi)?\s+\S+s\n$/,
          );

          // The schemas are in OpenAPI, for kubectl explain.
          assert.match(
            await h.kubectlOk([
              "explain",
              "podmetrics.containers",
              "--api-version=metrics.k8s.io/v1beta1",
            ]),
            /KIND:\s+PodMetrics[\s\S]*FIELD:\s+containers/,
          );
          // Sorted by CPU, the burner comes first.
          const sorted = await topPods(h, ["-A", "--sort-by=cpu"]);
          assert.equal(sorted?.[0]?.name, "burner");

          // Watch is not served; a missing pod is NotFound.
          const watch = await h.kubectl([
            "get",
            "--raw",
            "/apis/metrics.k8s.io/v1beta1/pods?watch=true",
          ]);
          assert.notEqual(watch.code, 0);
          assert.match(watch.stderr, /MethodNotAllowed|not allowed|405/);
          const missing = await h.kubectl(["top", "pod", "nosuch"]);
          assert.match(missing.stderr, /pods "nosuch" not found/);

          // A user with kube's view in default: that namespace only, no nodes.
          await h.kubectlOk([
            "create",
            "rolebinding",
            "alice-view",
            "--clusterrole=view",
            "--user=alice",
            "-n",
            "default",
          ]);
          const alice = ["--as=alice"];
          const own = await waitFor("alice's pod metrics", () =>
            topPods(h, [...alice, "-n", "default"]),
          );
          assert.ok(own.some((r) => r.name === "burner"));
          const aliceAll = await h.kubectl(["top", "pods", "-A", ...alice]);
          assert.notEqual(aliceAll.code, 0);
          assert.match(
            aliceAll.stderr,
            /Forbidden.*"alice" cannot list resource "pods" in API group "metrics\.k8s\.io" at the cluster scope/,
          );
          const aliceNodes = await h.kubectl(["top", "nodes", ...alice]);
          assert.match(
            aliceNodes.stderr,
            /Forbidden.*cannot list resource "nodes" in API group "metrics\.k8s\.io"/,
          );

          // A tenant's view group: its namespace's pods, nothing else.
          const jane = ["--as=jane", "--as-group=tenant-root-view"];
          const tenantRows = await topPods(h, [...jane, "-n", "tenant-root"]);
          assert.deepEqual(
            tenantRows?.map((r) => r.name),
            ["tenant-idle"],
          );
          const janeDefault = await h.kubectl(["top", "pods", ...jane, "-n", "default"]);
          assert.match(
            janeDefault.stderr,
            /Forbidden.*cannot list resource "pods" in API group "metrics\.k8s\.io" in the namespace "default"/,
          );
          const janeNodes = await h.kubectl(["top", "nodes", ...jane]);
          assert.match(janeNodes.stderr, /Forbidden/);

          // A node whose agent does not answer is left out, not a failure.
          await h.kubectlOk(["apply", "-f", "-"], {
            input: JSON.stringify({
              apiVersion: "v1",
              kind: "Node",
              metadata: { name: "ghost" },
              spec: { unschedulable: true },
            }),
          });
          await h.kubectlOk([
            "patch",
            "node",
            "ghost",
            "--subresource=status",
            "--type=merge",
            "-p",
            JSON.stringify({
              status: {
                addresses: [{ type: "InternalIP", address: "127.0.0.1" }],
                daemonEndpoints: { kubeletEndpoint: { Port: 1 } },
              },
            }),
          ]);
          const withGhost = await h.kubectlOk(["top", "nodes"]);
          assert.match(withGhost, new RegExp(`^${nodeName}\\s+\\d+m`, "m"));
          // kubectl lists every Node and marks those without figures.
          assert.match(withGhost, /^ghost\s+<unknown>\s+<unknown>/m);
          const ghost = await h.kubectl([
            "get",
            "--raw",
            "/apis/metrics.k8s.io/v1beta1/nodes/ghost",
          ]);
          assert.match(ghost.stderr, /NotFound|not found/);

          assert.equal(await h.stop(), 0, "a clean stop");
        },
      );
    } finally {
      rmSync(trigger, { recursive: true, force: true });
    }
  });
});
