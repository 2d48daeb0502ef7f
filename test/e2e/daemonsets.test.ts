/**
 * Issue 15's DaemonSet acceptance with kubectl on real containers: `hearth up
 * --runtime cri` in the root network namespace (pods 10.244.0.0/24, serving
 * the API on 10.244.3.1) and a second `hearth node --runtime cri` in a
 * namespace of its own (pods 10.244.1.0/24, InternalIP 10.244.3.2), joined by
 * a veth pair on 10.244.3.0/30 that the test creates and removes; Services on
 * 10.244.2.0/24. A DaemonSet runs one Ready pod on each node (`kubectl get ds`
 * shows kube's columns); `kubectl taint` of the second node NoExecute, which
 * its pods do not tolerate, removes that pod and the untaint brings it back;
 * the second node leaving (stopped, its Node deleted) takes its pod with it.
 * Skips unless root with containerd, nsenter and the built images.
 */
import assert from "node:assert/strict";
import type { ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { join } from "node:path";
import { describe, test } from "node:test";
import type { Pod } from "../../src/api/pod.js";
import { containerdLayout } from "../../src/node/index.js";
import { removeLeftovers } from "../support/containerd-leftovers.js";
import { removeContainerRuntime } from "../support/cri-node.js";
import { type Hearth, startHearth, stopChild, waitFor } from "../support/hearth-process.js";
import {
  addHostPair,
  namespacedNodeSkipReason,
  removeHostPair,
  startNamespacedNode,
} from "../support/namespaced-node.js";

const ROOT_CIDR = "10.244.0.0/24";
const NS_CIDR = "10.244.1.0/24";
const SERVICE_CIDR = "10.244.2.0/24";
const ROOT_IP = "10.244.3.1";
const NS_IP = "10.244.3.2";
const ROOT_NODE = "ds-root";
const NS_NODE = "ds-ns";

const skipReason = namespacedNodeSkipReason;

const DAEMON_SET = `apiVersion: apps/v1
kind: DaemonSet
metadata: {name: agent}
spec:
  selector: {matchLabels: {app: agent}}
  template:
    metadata: {labels: {app: agent}}
    spec:
      terminationGracePeriodSeconds: 1
      containers: [{name: agent, image: "busybox:1.35", command: [sh, -c, "exec sleep 3600"]}]
`;

const ready = (p: Pod) =>
  p.status?.conditions?.some((c) => c.type === "Ready" && c.status === "True") ?? false;

describe("a DaemonSet across two nodes", { skip: skipReason() }, () => {
  test("one pod per node; a NoExecute taint removes one and the untaint brings it back; a node leaving takes its pod", async () => {
    const tmp = mkdtempSync("/tmp/hearth-ds-");
    const rootDir = join(tmp, "root");
    const nsDir = join(tmp, "ns");
    const tag = String(process.pid % 100_000);
    const ns = `hds-${tag}`;
    const pair = {
      netns: ns,
      vethRoot: `hds${tag}a`,
      vethNs: `hds${tag}b`,
      rootIp: ROOT_IP,
      nsIp: NS_IP,
    };
    let hearth: Hearth | undefined;
    let nodeChild: ChildProcess | undefined;
    try {
      addHostPair(pair);
      hearth = await startHearth({
        dataDir: rootDir,
        extraArgs: [
          ...["--runtime", "cri", "--pod-cidr", ROOT_CIDR, "--service-cidr", SERVICE_CIDR],
          ...["--host", ROOT_IP, "--node-ip", ROOT_IP, "--node-name", ROOT_NODE],
        ],
        timeoutMs: 180_000,
      });
      const h = hearth;
      const node = startNamespacedNode({
        netns: ns,
        kubeconfig: h.kubeconfig,
        dataDir: nsDir,
        podCidr: NS_CIDR,
        serviceCidr: SERVICE_CIDR,
        nodeIp: NS_IP,
        nodeName: NS_NODE,
      });
      nodeChild = node.child;
      await node.ready;

      const pods = async () =>
        (
          JSON.parse(await h.kubectlOk(["get", "pods", "-l", "app=agent", "-o", "json"])) as {
            items: Pod[];
          }
        ).items;
      /** Waits until the live agent pods are Ready on exactly `nodes`. */
      const readyOn = (nodes: string[]) =>
        waitFor(
          `agent pods Ready on ${nodes.join(", ")}`,
          async () => {
            const all = await pods();
            const on = all.map((p) => p.spec.nodeName ?? "?").sort();
            return JSON.stringify(on) === JSON.stringify([...nodes].sort()) && all.every(ready)
              ? all
              : undefined;
          },
          150_000,
        );
      const columns = (want: number) =>
        waitFor(
          `kubectl get ds shows ${want}`,
          async () => {
            const table = await h.kubectlOk(["get", "ds", "agent"]);
            const row = new RegExp(
              `\\nagent\\s+${want}\\s+${want}\\s+${want}\\s+${want}\\s+${want}\\s+<none>\\s+`,
            );
            return row.test(table) ? table : undefined;
          },
          30_000,
        );

      await h.kubectlOk(["apply", "-f", "-"], { input: DAEMON_SET });
      const both = await readyOn([ROOT_NODE, NS_NODE]);
      for (const p of both)
        assert.equal(
          p.status?.podIP?.startsWith(p.spec.nodeName === ROOT_NODE ? "10.244.0." : "10.244.1."),
          true,
          `${p.metadata.name} runs on ${p.spec.nodeName}'s pod network: ${p.status?.podIP}`,
        );
      const table = await columns(2);
      assert.match(
        table,
        /^NAME\s+DESIRED\s+CURRENT\s+READY\s+UP-TO-DATE\s+AVAILABLE\s+NODE SELECTOR\s+AGE\n/,
      );

      await h.kubectlOk(["taint", "node", NS_NODE, "dedicated=db:NoExecute"]);
      await waitFor(
        `no agent pod left on ${NS_NODE}`,
        async () => (await pods()).every((p) => p.spec.nodeName === ROOT_NODE) || undefined,
        60_000,
      );
      await readyOn([ROOT_NODE]);
      await columns(1);
      await h.kubectlOk(["taint", "node", NS_NODE, "dedicated-"]);
      await readyOn([ROOT_NODE, NS_NODE]);

      // The node leaves: stopped, and its Node deleted, as a drained and removed node is.
      assert.equal(await stopChild(node.child, 90_000), 0, `hearth node stopped: ${node.stderr()}`);
      await h.kubectlOk(["delete", "node", NS_NODE]);
      await readyOn([ROOT_NODE]);
      await columns(1);
      await h.kubectlOk(["delete", "ds", "agent"]);
      await waitFor(
        "the agent pods gone",
        async () => (await pods()).length === 0 || undefined,
        60_000,
      );
      assert.equal(await h.stop(), 0, "hearth up stopped cleanly");
    } finally {
      if (nodeChild) await stopChild(nodeChild, 5_000);
      await removeContainerRuntime(nsDir);
      await hearth?.cleanup();
      for (const d of [rootDir, nsDir]) {
        const layout = containerdLayout(d);
        removeLeftovers(d, [layout.config, layout.socket, join(d, "registry", "config.yml")]);
      }
      removeHostPair(pair);
      rmSync(tmp, { recursive: true, force: true });
    }
  });
});
