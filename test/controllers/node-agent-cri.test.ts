/**
 * The node agent on CRI (a real containerd with a CNI bridge, images from the
 * local registry): each pod is a sandbox with its own network namespace and
 * address in the node's pod CIDR, so three stock nginx pods all bind
 * 0.0.0.0:80 and each answers on its own IP; exits, restart policy and
 * reasons come from CRI; a container over its memory limit is OOMKilled; a
 * container sees its image's files, not the host's, and as a non-root user
 * cannot write a read-only root; a new agent adopts running containers through
 * CRI (same container ID, no restart). (The pod-sync, probe, volume and
 * adoption suites run on CRI too: node-agent-{pods,probes-volumes,adopt}.)
 */
import assert from "node:assert/strict";
import { get } from "node:http";
import { after, before, describe, it } from "node:test";
import type { Pod } from "../../src/api/index.js";
import { CriClient } from "../../src/node/index.js";
import {
  type AgentEnv,
  agentPod,
  containerStatus,
  type RunningAgent,
  shContainer,
  startAgentEnv,
  testNamespace,
  waitPod,
} from "../support/agent-env.js";
import { uniqueName } from "../support/core-objects.js";
import { criSkipReason } from "../support/cri-node.js";

const skip = criSkipReason();

function httpGet(url: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = get(url, { timeout: 5000 }, (res) => {
      let body = "";
      res.on("data", (d) => (body += d));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on("error", reject);
    req.on("timeout", () => req.destroy(new Error(`GET ${url} timed out`)));
  });
}

const over = (p: Pod) => p.status?.phase === "Succeeded" || p.status?.phase === "Failed";
const running = (p: Pod) =>
  p.status?.phase === "Running" && containerStatus(p, "c")?.state?.running !== undefined;

describe("node agent on CRI: pods as containers", { skip }, () => {
  let a: AgentEnv;
  let ns: string;
  let agent: RunningAgent;

  before(async () => {
    a = await startAgentEnv();
    ns = await testNamespace(a.env, "cri");
    // Stopping it leaves the containers running, as a killed agent would.
    agent = await a.startAgent({ keepWorkloads: true });
  });
  after(() => a?.stop());

  it("three stock nginx pods each bind 0.0.0.0:80 and answer on their own pod IP", async () => {
    const pods = await Promise.all(
      [1, 2, 3].map((i) =>
        a.env.client.create(agentPod(ns, `web-${i}`, [{ name: "c", image: "nginx:1.22" }])),
      ),
    );
    const up = await Promise.all(pods.map((p) => waitPod(a.env, p, "running", running, 90_000)));
    const ips = up.map((p) => p.status?.podIP ?? "");
    assert.equal(new Set(ips).size, 3, `three addresses: ${ips.join(", ")}`);
    for (const ip of ips) {
      assert.match(ip, /^10\.\d+\.\d+\.\d+$/);
      const res = await httpGet(`http://${ip}/`);
      assert.equal(res.status, 200);
      assert.match(res.body, /nginx/i);
    }
    for (const p of up)
      assert.match(containerStatus(p, "c")?.containerID ?? "", /^containerd:\/\/[0-9a-f]{64}$/);
  });

  it("an exit is reported from CRI and restartPolicy Never ends the pod", async () => {
    const pod = await a.env.client.create(
      agentPod(ns, uniqueName("exit"), [shContainer("c", "exit 3", {}, a.shImage)], {
        restartPolicy: "Never",
      }),
    );
    const done = await waitPod(a.env, pod, "failed", (p) => p.status?.phase === "Failed", 60_000);
    const t = containerStatus(done, "c")?.state?.terminated;
    assert.equal(t?.exitCode, 3);
    assert.equal(t?.reason, "Error");
  });

  it("a container over its 64 MiB memory limit is OOMKilled", async () => {
    const pod = await a.env.client.create(
      agentPod(
        ns,
        uniqueName("oom"),
        [
          // tail keeps the whole endless line in memory.
          shContainer(
            "c",
            "tail /dev/zero",
            { resources: { limits: { memory: "64Mi" } } },
            a.shImage,
          ),
        ],
        { restartPolicy: "Never" },
      ),
    );
    const done = await waitPod(a.env, pod, "failed", (p) => p.status?.phase === "Failed", 60_000);
    const t = containerStatus(done, "c")?.state?.terminated;
    assert.equal(t?.reason, "OOMKilled", JSON.stringify(t));
    assert.equal(t?.exitCode, 137);
  });

  it("a container sees its own root, hostname and hosts file, not the host's", async () => {
    const name = uniqueName("view");
    const script = [
      // The node's data directory and the host's Node.js do not exist in the container.
      `test ! -e ${JSON.stringify(a.dataDir)} || exit 11`,
      `test ! -e ${JSON.stringify(process.execPath)} || exit 12`,
      // Debian's busybox image has no shadow file; the host has one.
      "test ! -e /etc/shadow || exit 13",
      `test "$(cat /etc/hostname)" = ${name} || exit 14`,
      `grep -q "${name}" /etc/hosts || exit 15`,
    ].join("; ");
    const pod = await a.env.client.create(
      agentPod(ns, name, [shContainer("c", script, {}, a.shImage)], { restartPolicy: "Never" }),
    );
    const done = await waitPod(a.env, pod, "over", over, 60_000);
    assert.equal(
      containerStatus(done, "c")?.state?.terminated?.exitCode,
      0,
      JSON.stringify(done.status),
    );
  });

  it("runAsUser 1000 with a read-only root runs as 1000 and cannot write its root", async () => {
    const pod = await a.env.client.create(
      agentPod(
        ns,
        uniqueName("ro"),
        [
          shContainer(
            "c",
            'test "$(id -u)" = 1000 || exit 21; if touch /x 2>/dev/null; then exit 22; fi; exit 0',
            { securityContext: { runAsUser: 1000, readOnlyRootFilesystem: true } },
            a.shImage,
          ),
        ],
        { restartPolicy: "Never" },
      ),
    );
    const done = await waitPod(a.env, pod, "over", over, 60_000);
    assert.equal(
      containerStatus(done, "c")?.state?.terminated?.exitCode,
      0,
      JSON.stringify(done.status),
    );
  });

  it("runAsNonRoot against an image that runs as root is CreateContainerConfigError", async () => {
    const pod = await a.env.client.create(
      agentPod(ns, uniqueName("nonroot"), [
        shContainer("c", "sleep 3600", { securityContext: { runAsNonRoot: true } }, a.shImage),
      ]),
    );
    const waiting = await waitPod(
      a.env,
      pod,
      "CreateContainerConfigError",
      (p) => containerStatus(p, "c")?.state?.waiting?.reason === "CreateContainerConfigError",
      60_000,
    );
    assert.match(
      containerStatus(waiting, "c")?.state?.waiting?.message ?? "",
      /container has runAsNonRoot and image will run as root/,
    );
  });

  it("a new agent adopts running containers through CRI: same container, no restart", async () => {
    const pod = await a.env.client.create(
      agentPod(ns, uniqueName("keep"), [shContainer("c", "sleep 3600", {}, a.shImage)]),
    );
    const before = await waitPod(a.env, pod, "running", running, 60_000);
    const id = containerStatus(before, "c")?.containerID;
    await agent.stop();
    const cri = await CriClient.connect(a.cri!.socket);
    try {
      const live = await cri.listContainers({ state: { state: "CONTAINER_RUNNING" } }, {});
      assert.ok(
        live.some((c) => `containerd://${c.id}` === id),
        "still running without an agent",
      );
    } finally {
      cri.close();
    }
    agent = await a.startAgent({ keepWorkloads: true });
    const after = await waitPod(a.env, pod, "running again", (p) => running(p), 30_000);
    assert.equal(containerStatus(after, "c")?.containerID, id);
    assert.equal(containerStatus(after, "c")?.restartCount, 0);
  });
});
