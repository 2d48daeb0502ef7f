/**
 * hostPort on containers, as a user runs it with the real kubectl against
 * `hearth up`: stock nginx with `hostPort` answers on a local address of the
 * node (its pod bridge's) at that port, from the host and from another pod (a DNAT in Hearth's own
 * nftables table, not the CNI portmap plugin's iptables chains); a second pod
 * asking for the same host port is not scheduled, with kube-scheduler's
 * NodePorts message, until the first is deleted, and then its port is the
 * one that answers. Skips unless root with containerd and the built images.
 */
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { describe, test } from "node:test";
import { tableNameFor } from "../../src/node/index.js";
import { withCriHearth } from "../support/cri-hearth.js";
import { criSkipReason } from "../support/cri-node.js";
import { waitFor } from "../support/hearth-process.js";

const POD_CIDR = "10.230.0.0/24";
const SERVICE_CIDR = "10.233.0.0/24";
const HOST_PORT = 20_000 + Math.floor(Math.random() * 10_000);

const web = (name: string, greeting: string) => `apiVersion: v1
kind: Pod
metadata: {name: ${name}, labels: {app: hp}}
spec:
  containers:
  - name: nginx
    image: "nginx:1.22"
    command: [sh, -c, 'echo ${greeting} > /var/www/html/index.html && exec nginx -g "daemon off;"']
    ports: [{containerPort: 80, hostPort: ${HOST_PORT}}]
`;

const client = (url: string) => `apiVersion: v1
kind: Pod
metadata: {name: client}
spec:
  restartPolicy: Never
  containers:
  - name: c
    image: "busybox:1.35"
    command: [sh, -c, 'timeout 5 wget -q -O - ${url}']
`;

async function body(url: string): Promise<string | undefined> {
  try {
    const res = await fetch(url, { signal: AbortSignal.timeout(3000) });
    return (await res.text()).trim();
  } catch {
    return undefined;
  }
}

describe("hostPort on containers", { skip: criSkipReason() }, () => {
  test("a pod's hostPort answers on the node's address; a second claim waits for the port", async () => {
    const opts = { prefix: "hearth-crihp-", podCIDR: POD_CIDR, serviceCIDR: SERVICE_CIDR };
    await withCriHearth(opts, async (h, dataDir) => {
      await h.kubectlOk(["apply", "-f", "-"], { input: web("first", "first") });
      await h.kubectlOk(["wait", "--for=condition=Ready", "pod/first", "--timeout=120s"], {
        timeoutMs: 130_000,
      });
      // The node's address on its pod bridge (the CNI gateway): local, and reachable from pods
      // (its InternalIP here is 127.0.0.1, a pod's own loopback).
      const nodeIP = "10.230.0.1";
      const url = `http://${nodeIP}:${HOST_PORT}/`;
      await waitFor(
        "the host port answers from the host",
        async () => (await body(url)) === "first",
        30_000,
      );
      const rules = execFileSync(
        "nft",
        ["list", "chain", "ip", tableNameFor(dataDir), "host-ports"],
        {
          encoding: "utf8",
        },
      );
      assert.match(rules, new RegExp(`tcp dport ${HOST_PORT} dnat to 10\\.230\\.0\\.\\d+:80`));

      await h.kubectlOk(["apply", "-f", "-"], { input: client(url) });
      await waitFor(
        "the client pod done",
        async () =>
          ["Succeeded", "Failed"].includes(
            await h.kubectlOk(["get", "pod", "client", "-o", "jsonpath={.status.phase}"]),
          ),
        120_000,
      );
      assert.equal((await h.kubectlOk(["logs", "client"])).trim(), "first", "from another pod");

      await h.kubectlOk(["apply", "-f", "-"], { input: web("second", "second") });
      const message = await waitFor(
        "the second pod refused by the scheduler",
        async () =>
          (await h.kubectlOk([
            "get",
            "pod",
            "second",
            "-o",
            'jsonpath={.status.conditions[?(@.type=="PodScheduled")].message}',
          ])) || undefined,
        30_000,
      );
      assert.equal(
        message,
        "0/1 nodes are available: 1 node(s) didn't have free ports for the requested pod ports.",
      );
      await h.kubectlOk(["delete", "pod", "first", "--wait=true", "--timeout=60s"], {
        timeoutMs: 70_000,
      });
      await h.kubectlOk(["wait", "--for=condition=Ready", "pod/second", "--timeout=120s"], {
        timeoutMs: 130_000,
      });
      await waitFor(
        "the port now the second pod's",
        async () => (await body(url)) === "second",
        30_000,
      );
    });
  });
});
