/**
 * The node agent inside `hearth up`, driven with kubectl and etcdctl as a user
 * would, on containers: a Node with a Lease, a real etcd in a pod on its own IP (Ready
 * through a tcp probe, reachable with etcdctl, its logs with --tail, -f and
 * --previous), a restart after its process is killed, deletion that stops the
 * process and removes the pod's directory, and an unknown image.
 */
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { type Hearth, run, startHearth, waitFor } from "../support/hearth-process.js";
import { nodeName, podProcesses, stopAndClean } from "../support/node-pods.js";
import { podSkipReason, testNetwork } from "../support/test-network.js";

interface PodJson {
  metadata: { uid: string };
  status: {
    phase?: string;
    podIP?: string;
    containerStatuses?: {
      restartCount: number;
      ready: boolean;
      state: Record<string, { reason?: string; message?: string }>;
      lastState: { terminated?: { exitCode: number } };
    }[];
  };
}

export function etcdPod(name: string, node: string): string {
  return `apiVersion: v1
kind: Pod
metadata:
  name: ${name}
spec:
  nodeName: ${node}
  terminationGracePeriodSeconds: 10
  containers:
  - name: etcd
    image: etcd:3.4
    command: [etcd]
    env:
    - name: POD_IP
      valueFrom: {fieldRef: {fieldPath: status.podIP}}
    args:
    - --name=${name}
    - --data-dir=/var/lib/etcd
    - --listen-client-urls=http://$(POD_IP):2379
    - --advertise-client-urls=http://$(POD_IP):2379
    - --listen-peer-urls=http://$(POD_IP):2380
    - --initial-advertise-peer-urls=http://$(POD_IP):2380
    - --initial-cluster=${name}=http://$(POD_IP):2380
    ports:
    - {name: client, containerPort: 2379}
    readinessProbe:
      tcpSocket: {port: client}
      periodSeconds: 1
    volumeMounts:
    - {name: data, mountPath: /var/lib/etcd}
  volumes:
  - {name: data, emptyDir: {}}
`;
}

describe("node agent: pods run by the node's runtime", { skip: podSkipReason() }, () => {
  let h: Hearth;
  let node: string;
  const net = testNetwork();
  const cidr = net.podCidr;
  const processesOf = async (uid: string) =>
    (await podProcesses(h.dataDir)).filter((p) => p.uid === uid);

  before(async () => {
    h = await startHearth({
      extraArgs: [...net.args, "--crashloop-backoff-base-ms", "1000"],
    });
    node = await nodeName(h);
  });
  after(async () => {
    assert.equal(await stopAndClean(h), 0, "SIGTERM stopped every pod process");
  });

  const pod = async (name: string) =>
    JSON.parse(await h.kubectlOk(["get", "pod", name, "-o", "json"])) as PodJson;

  it("registers a Ready Node with capacity, a kubelet endpoint and a Lease", async () => {
    const n = JSON.parse(await h.kubectlOk(["get", "node", node, "-o", "json"]));
    assert.equal(n.spec.podCIDR, cidr);
    assert.equal(n.status.capacity.pods, "110");
    assert.ok(Number(n.status.capacity.cpu) >= 1);
    assert.deepEqual(
      n.status.conditions.find((c: { type: string }) => c.type === "Ready").status,
      "True",
    );
    assert.deepEqual(n.status.addresses[0], { type: "InternalIP", address: "127.0.0.1" });
    assert.ok(n.status.daemonEndpoints.kubeletEndpoint.Port > 0);
    const lease = JSON.parse(
      await h.kubectlOk(["get", "lease", node, "-n", "kube-node-lease", "-o", "json"]),
    );
    assert.equal(lease.spec.holderIdentity, node);
    assert.match(await h.kubectlOk(["get", "nodes"]), new RegExp(`${node}\\s+Ready`));
  });

  it("runs etcd on its pod IP: Ready by a tcp probe, etcdctl works, logs with --tail and -f", async () => {
    await h.kubectlOk(["apply", "-f", "-"], { input: etcdPod("etcd-0", node) });
    await h.kubectlOk(["wait", "--for=condition=Ready", "pod/etcd-0", "--timeout=60s"]);
    const p = await pod("etcd-0");
    assert.ok(p.status.podIP?.startsWith(cidr.split(".").slice(0, 2).join(".")), p.status.podIP);
    const endpoint = `http://${p.status.podIP}:2379`;
    const put = await run("etcdctl", ["--endpoints", endpoint, "put", "greeting", "hello"]);
    assert.equal(put.code, 0, put.stderr);
    const get = await run("etcdctl", [
      "--endpoints",
      endpoint,
      "get",
      "greeting",
      "--print-value-only",
    ]);
    assert.equal(get.stdout.trim(), "hello");

    const logs = await h.kubectlOk(["logs", "etcd-0"]);
    assert.match(logs, /serving insecure client requests on/);
    const tail = await h.kubectlOk(["logs", "etcd-0", "--tail", "1"]);
    assert.equal(tail.trimEnd().split("\n").length, 1);
    const stamped = await h.kubectlOk(["logs", "etcd-0", "--tail", "1", "--timestamps"]);
    assert.match(stamped, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z /);

    // -f keeps the stream open: what etcd writes meanwhile arrives.
    const follow = h.kubectlSpawn(["logs", "-f", "etcd-0", "--tail", "0"]);
    let streamed = "";
    follow.stdout?.on("data", (d) => (streamed += d));
    try {
      await new Promise((r) => setTimeout(r, 500));
      await run("etcdctl", ["--endpoints", endpoint, "compact", "1"]);
      await run("etcdctl", ["--endpoints", endpoint, "defrag"]);
      await waitFor("followed log lines", () => streamed.length > 0, 15_000);
    } finally {
      follow.kill();
    }
    assert.equal(follow.exitCode, null, "follow was still streaming");
  });

  it("restarts etcd killed by its recorded pid, with a higher restartCount and --previous logs", async () => {
    const uid = (await pod("etcd-0")).metadata.uid;
    const [proc] = await processesOf(uid);
    assert.ok(proc, "etcd's process is found");
    process.kill(proc.pid, "SIGKILL");
    const restarted = await waitFor(
      "a restart",
      async () => {
        const s = (await pod("etcd-0")).status.containerStatuses?.[0];
        return s && s.restartCount === 1 && s.ready ? s : undefined;
      },
      30_000,
    );
    assert.equal(restarted.lastState.terminated?.exitCode, 137);
    const [now] = await processesOf(uid);
    assert.notEqual(now?.pid, proc.pid);
    const previous = await h.kubectlOk(["logs", "etcd-0", "--previous"]);
    assert.match(previous, /serving insecure client requests/);
    assert.match(await h.kubectlOk(["get", "pod", "etcd-0"]), /etcd-0\s+1\/1\s+Running\s+1 \(/);
    const podIP = (await pod("etcd-0")).status.podIP;
    const get = await run("etcdctl", [
      "--endpoints",
      `http://${podIP}:2379`,
      "get",
      "greeting",
      "--print-value-only",
    ]);
    assert.equal(get.stdout.trim(), "hello", "the emptyDir kept etcd's data across the restart");
  });

  it("deleting the pod stops its process, then removes the pod and its directory", async () => {
    const uid = (await pod("etcd-0")).metadata.uid;
    assert.equal((await processesOf(uid)).length, 1);
    await h.kubectlOk(["delete", "pod", "etcd-0", "--timeout=60s"]);
    assert.match((await h.kubectl(["get", "pod", "etcd-0"])).stderr, /NotFound/);
    await waitFor("the pod directory to go", () => !existsSync(join(h.dataDir, "pods", uid)));
    assert.deepEqual(await processesOf(uid), []);
  });

  it("gives an image the node cannot get ErrImagePull, and leaves other nodes' pods alone", async () => {
    await h.kubectlOk([
      "run",
      "elsewhere",
      "--image=busybox",
      `--overrides={"spec":{"nodeName":"other-node"}}`,
    ]);
    await h.kubectlOk([
      "run",
      "web",
      "--image=nginx-unknown:1.27",
      `--overrides={"spec":{"nodeName":"${node}"}}`,
    ]);
    // On CRI the sync right after a failed pull finds it backing off: ImagePullBackOff, as the
    // kubelet's; the registry's error is in the Failed event.
    const reasons = /^(ErrImagePull|ImagePullBackOff)$/;
    await waitFor("ErrImagePull", async () => {
      const s = (await pod("web")).status.containerStatuses?.[0]?.state.waiting;
      return reasons.test(s?.reason ?? "") ? s : undefined;
    });
    assert.match(
      await h.kubectlOk(["get", "events", "--field-selector", "involvedObject.name=web"]),
      /Failed to pull image "nginx-unknown:1.27": .*docker\.io\/library\/nginx-unknown:1\.27/,
    );
    assert.match(
      await h.kubectlOk(["get", "pod", "web"]),
      /web\s+0\/1\s+(ErrImagePull|ImagePullBackOff)/,
    );
    const logs = await h.kubectl(["logs", "web"]);
    assert.match(
      logs.stderr,
      /container "web" in pod "web" is waiting to start: (ErrImagePull|ImagePullBackOff)/,
    );
    await h.kubectlOk(["delete", "pod", "web", "--timeout=30s"]);
    const other = await pod("elsewhere");
    assert.equal(other.status.podIP, undefined, "a pod of another node is not run here");
    assert.ok(!existsSync(join(h.dataDir, "pods", other.metadata.uid)));
    await h.kubectlOk(["delete", "pod", "elsewhere", "--force", "--grace-period=0"]);
  });
});
