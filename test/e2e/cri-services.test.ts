/**
 * Issue 14's first acceptance test, as a user runs it with the real kubectl
 * against `hearth up --runtime cri`: three replicas of stock nginx (no
 * configuration change) each bind 0.0.0.0:80 in their own network namespace
 * and answer on their own pod IP; a ClusterIP Service in front of them
 * (nftables rules in Hearth's own table) answers from the host and from a pod,
 * spreading over all three (each nginx's access log, read with `kubectl
 * logs`, counts its requests; a pod's requests arrive from its own address,
 * not masqueraded), while a pod's packet to an address off the machine is
 * dropped. A clean stop leaves no nftables table, bridge or containerd. Skips unless root with containerd and the built images.
 */
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { describe, test } from "node:test";
import { bridgeName, tableExists, tableNameFor } from "../../src/node/index.js";
import { bridgeExists, withCriHearth } from "../support/cri-hearth.js";
import { criSkipReason } from "../support/cri-node.js";
import { waitFor } from "../support/hearth-process.js";

const POD_CIDR = "10.236.0.0/24";
const SERVICE_CIDR = "10.237.0.0/16";

const web = (i: number) => `apiVersion: v1
kind: Pod
metadata: {name: web-${i}, labels: {app: web}}
spec:
  containers: [{name: nginx, image: "nginx:1.22", ports: [{containerPort: 80}]}]
`;

const SERVICE = `apiVersion: v1
kind: Service
metadata: {name: web}
spec:
  selector: {app: web}
  ports: [{port: 80, targetPort: 80}]
`;

const client = (ip: string) => `apiVersion: v1
kind: Pod
metadata: {name: client}
spec:
  restartPolicy: Never
  containers:
  - name: c
    image: "busybox:1.35"
    command: [sh, -c, 'for i in $(seq 30); do wget -q -O /dev/null http://${ip}/ && echo ok; done; timeout 3 wget -q -O /dev/null http://198.51.100.7/ || echo blocked']
`;

async function get(url: string): Promise<number> {
  const res = await fetch(url, { signal: AbortSignal.timeout(5000) });
  await res.text();
  return res.status;
}

describe("Services on containers: stock nginx behind a ClusterIP", {
  skip: criSkipReason(),
}, () => {
  test("three nginx pods on their own IPs, a Service spreading over them from the host and from a pod", async () => {
    const opts = { prefix: "hearth-crisvc-", podCIDR: POD_CIDR, serviceCIDR: SERVICE_CIDR };
    await withCriHearth(opts, async (h, dataDir) => {
      const table = tableNameFor(dataDir);
      await h.kubectlOk(["apply", "-f", "-"], {
        input: `${[1, 2, 3].map(web).join("---\n")}---\n${SERVICE}`,
      });
      await h.kubectlOk(
        ["wait", "--for=condition=Ready", "pod", "-l", "app=web", "--timeout=120s"],
        { timeoutMs: 130_000 },
      );
      const ips = (
        await h.kubectlOk([
          "get",
          "pods",
          "-l",
          "app=web",
          "-o",
          "jsonpath={.items[*].status.podIP}",
        ])
      ).split(" ");
      assert.equal(new Set(ips).size, 3, `three pod IPs: ${ips.join(", ")}`);
      for (const ip of ips) {
        assert.ok(ip.startsWith("10.236.0."), ip);
        assert.equal(await get(`http://${ip}/`), 200, `nginx answers on ${ip}:80`);
      }

      const clusterIP = await h.kubectlOk([
        "get",
        "service",
        "web",
        "-o",
        "jsonpath={.spec.clusterIP}",
      ]);
      assert.ok(clusterIP.startsWith("10.237."), clusterIP);
      assert.ok(await tableExists(table), `nftables table ${table}`);
      // The rules follow the EndpointSlice: wait until the ClusterIP answers, then count.
      await waitFor(
        "the ClusterIP answers",
        () =>
          get(`http://${clusterIP}/`).then(
            (s) => s === 200,
            () => false,
          ),
        60_000,
      );
      for (let i = 0; i < 60; i++) assert.equal(await get(`http://${clusterIP}/`), 200);

      await h.kubectlOk(["apply", "-f", "-"], { input: client(clusterIP) });
      const clientIP = await waitFor(
        "the client pod's IP",
        async () =>
          (await h.kubectlOk(["get", "pod", "client", "-o", "jsonpath={.status.podIP}"])) ||
          undefined,
      );
      await waitFor(
        "the client pod done",
        async () =>
          (await h.kubectlOk(["get", "pod", "client", "-o", "jsonpath={.status.phase}"])) ===
          "Succeeded",
        120_000,
      );
      const oks = (await h.kubectlOk(["logs", "client"])).split("\n").filter((l) => l === "ok");
      assert.equal(oks.length, 30, "every request from the pod through the ClusterIP answered");

      let fromClient = 0;
      for (let i = 1; i <= 3; i++) {
        const log = await h.kubectlOk(["logs", `web-${i}`]);
        const requests = log.split("\n").filter((l) => l.includes('"GET / HTTP/1.1"'));
        assert.ok(
          requests.length >= 5,
          `web-${i} served ${requests.length} requests: spread over all three`,
        );
        fromClient += requests.filter((l) => l.startsWith(`${clientIP} `)).length;
      }
      assert.equal(fromClient, 30, "the pod's requests arrive from its own address");
      // Off the machine (TEST-NET-2, routed by the host's default route if it has one):
      // the forward rule drops it, and counts it.
      assert.ok((await h.kubectlOk(["logs", "client"])).includes("blocked"));
      if (execFileSync("ip", ["route", "show", "default"], { encoding: "utf8" }).trim()) {
        const chain = execFileSync("nft", ["list", "chain", "ip", table, "filter-forward"], {
          encoding: "utf8",
        });
        const dropped =
          /ip saddr 10\.236\.0\.0\/24 oifname != "[^"]+" ip daddr != @routed-cidrs counter packets (\d+)/.exec(
            chain,
          );
        assert.ok(
          dropped && Number(dropped[1]) > 0,
          `pod traffic off the machine dropped: ${chain}`,
        );
      }

      assert.equal(await h.stop(), 0, "a clean stop");
      assert.equal(await tableExists(table), false, "the nftables table is gone");
      assert.equal(bridgeExists(bridgeName(dataDir)), false, "the bridge is gone");
    });
  });
});
