/**
 * Issue 14's acceptance "two `hearth up` on one machine with different CIDRs
 * run side by side": two Hearths on containers, each with its own
 * containerd, registry, bridge, pod CIDR, service CIDR and nftables table,
 * each serving stock nginx behind a ClusterIP; a pod of one cannot reach a
 * pod of the other (each Hearth's forward rule keeps its pods' traffic on its
 * own bridge); stopping one leaves nothing of it and the other serving.
 * Skips unless root with containerd and the built images.
 */
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { join } from "node:path";
import { describe, test } from "node:test";
import { bridgeName, tableExists, tableNameFor } from "../../src/node/index.js";
import { bridgeExists } from "../support/cri-hearth.js";
import { criSkipReason } from "../support/cri-node.js";
import { type Hearth, startHearth, waitFor } from "../support/hearth-process.js";

/** Pod and service CIDRs no other test uses. */
const NETS = [
  { pod: "10.238.0.0/24", service: "10.239.0.0/24" },
  { pod: "10.238.1.0/24", service: "10.239.1.0/24" },
];

const WEB = `apiVersion: v1
kind: Pod
metadata: {name: web, labels: {app: web}}
spec:
  terminationGracePeriodSeconds: 2
  containers: [{name: nginx, image: "nginx:1.22", ports: [{containerPort: 80}]}]
---
apiVersion: v1
kind: Service
metadata: {name: web}
spec:
  selector: {app: web}
  ports: [{port: 80, targetPort: 80}]
`;

/** A pod that asks each URL once and prints `<url> ok` or `<url> failed`. */
const probe = (urls: string[]) => `apiVersion: v1
kind: Pod
metadata: {name: probe}
spec:
  restartPolicy: Never
  containers:
  - name: c
    image: "busybox:1.35"
    command: [sh, -c, 'for u in ${urls.join(" ")}; do if timeout 3 wget -q -O /dev/null $u; then echo "$u ok"; else echo "$u failed"; fi; done']
`;

async function answers(url: string): Promise<boolean> {
  try {
    const res = await fetch(url, { signal: AbortSignal.timeout(3000) });
    await res.text();
    return res.status === 200;
  } catch {
    return false;
  }
}

interface Side {
  dataDir: string;
  h: Hearth;
  podIP: string;
  clusterIP: string;
}

describe("two Hearths on containers, side by side", { skip: criSkipReason() }, () => {
  test("each serves its own Services, neither's pods reach the other's, and a stop leaves only the other", async () => {
    const tmp = mkdtempSync("/tmp/hearth-cri2-");
    const dirs = [0, 1].map((i) => join(tmp, `data-${i}`));
    const started: Hearth[] = [];
    try {
      const sides: Side[] = [];
      const hearths = await Promise.all(
        NETS.map((net, i) =>
          startHearth({
            dataDir: dirs[i]!,
            extraArgs: ["--runtime", "cri", "--pod-cidr", net.pod, "--service-cidr", net.service],
            timeoutMs: 180_000,
          }).then((h) => {
            started.push(h);
            return h;
          }),
        ),
      );
      for (const [i, h] of hearths.entries()) {
        await h.kubectlOk(["apply", "-f", "-"], { input: WEB });
        await h.kubectlOk(["wait", "--for=condition=Ready", "pod/web", "--timeout=120s"], {
          timeoutMs: 130_000,
        });
        const podIP = await h.kubectlOk(["get", "pod", "web", "-o", "jsonpath={.status.podIP}"]);
        const clusterIP = await h.kubectlOk([
          "get",
          "svc",
          "web",
          "-o",
          "jsonpath={.spec.clusterIP}",
        ]);
        assert.ok(podIP.startsWith(NETS[i]!.pod.replace(/0\/24$/, "")), podIP);
        assert.ok(clusterIP.startsWith(NETS[i]!.service.replace(/0\/24$/, "")), clusterIP);
        sides.push({ dataDir: dirs[i]!, h, podIP, clusterIP });
      }
      const [a, b] = sides as [Side, Side];
      assert.notEqual(tableNameFor(a.dataDir), tableNameFor(b.dataDir));
      assert.notEqual(bridgeName(a.dataDir), bridgeName(b.dataDir));
      for (const s of sides) {
        assert.ok(await tableExists(tableNameFor(s.dataDir)));
        assert.ok(bridgeExists(bridgeName(s.dataDir)));
        await waitFor(`${s.clusterIP} answers from the host`, () =>
          answers(`http://${s.clusterIP}/`),
        );
      }

      // From a pod of A: its own Service answers; B's pod and Service do not.
      const own = `http://${a.clusterIP}/`;
      const others = [`http://${b.podIP}/`, `http://${b.clusterIP}/`];
      await a.h.kubectlOk(["apply", "-f", "-"], { input: probe([own, ...others]) });
      await waitFor(
        "the probe pod done",
        async () =>
          (await a.h.kubectlOk(["get", "pod", "probe", "-o", "jsonpath={.status.phase}"])) ===
          "Succeeded",
        120_000,
      );
      const lines = (await a.h.kubectlOk(["logs", "probe"]))
        .split("\n")
        .filter((l) => / (ok|failed)$/.test(l)); // not timeout's "Terminated"
      assert.deepEqual(lines, [`${own} ok`, ...others.map((u) => `${u} failed`)]);

      // A clean stop of A: nothing of it is left, and B still serves.
      assert.equal(await a.h.stop(), 0, "a clean stop");
      assert.equal(await tableExists(tableNameFor(a.dataDir)), false, "A's table is gone");
      assert.equal(bridgeExists(bridgeName(a.dataDir)), false, "A's bridge is gone");
      assert.ok(await tableExists(tableNameFor(b.dataDir)), "B's table stays");
      assert.ok(await answers(`http://${b.clusterIP}/`), "B still serves its ClusterIP");
      assert.ok(await answers(`http://${b.podIP}/`), "and its pod IP");
      assert.equal(await b.h.stop(), 0);
      assert.equal(await tableExists(tableNameFor(b.dataDir)), false);
      assert.equal(bridgeExists(bridgeName(b.dataDir)), false);
    } finally {
      // A Hearth still running (the test failed) is killed, and what it leaves removed.
      for (const h of started) await h.cleanup();
      rmSync(tmp, { recursive: true, force: true });
    }
  });
});
