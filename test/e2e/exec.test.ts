/**
 * Issue 16's exec, cp, attach and port-forward acceptance lines with the real
 * kubectl on `hearth up --runtime cri`: the byte path kubectl → apiserver
 * (WebSocket v5, SPDY tunnelled in WebSocket) → node API (HTTPS, the
 * apiserver's client certificate) → containerd's streaming server (SPDY).
 * Exit codes 0/3/127, `-i` stdin with EOF, a 10 MiB `kubectl cp` round trip,
 * a `-it` shell through a PTY (util-linux `script`), etcdctl through exec and
 * through port-forward, a Service port-forward with 20 concurrent curls,
 * kube's errors for a wrong container and a stopped one, and the node API
 * refusing a caller without the apiserver's certificate.
 */
import assert from "node:assert/strict";
import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { readFileSync, readlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, test } from "node:test";
import { withCriHearth } from "../support/cri-hearth.js";
import { criSkipReason } from "../support/cri-node.js";
import { type Hearth, waitFor } from "../support/hearth-process.js";

const POD_CIDR = "10.236.0.0/17";
const SERVICE_CIDR = "10.237.0.0/17";

const PODS = `apiVersion: v1
kind: Pod
metadata: {name: box}
spec:
  terminationGracePeriodSeconds: 1
  containers:
  - {name: sh, image: "busybox:1.35", command: [sleep, "3600"]}
  - {name: done, image: "busybox:1.35", command: [sh, -c, "true"]}
---
apiVersion: v1
kind: Pod
metadata: {name: etcd, labels: {app: etcd}}
spec:
  terminationGracePeriodSeconds: 1
  containers:
  - name: etcd
    image: etcd
    command: [etcd]
    env: [{name: POD_IP, valueFrom: {fieldRef: {fieldPath: status.podIP}}}]
    args: [--data-dir=/tmp/etcd, --listen-client-urls=http://0.0.0.0:2379, "--advertise-client-urls=http://$(POD_IP):2379"]
    # The image has no etcdctl (Debian's etcd-client is another package): the host's, lent read-only.
    volumeMounts: [{name: etcdctl, mountPath: /usr/local/bin/etcdctl, readOnly: true}]
  volumes: [{name: etcdctl, hostPath: {path: /usr/bin/etcdctl, type: File}}]
---
apiVersion: v1
kind: Pod
metadata: {name: web, labels: {app: web}}
spec:
  terminationGracePeriodSeconds: 1
  containers: [{name: nginx, image: "nginx:1.22", ports: [{containerPort: 80}]}]
---
apiVersion: v1
kind: Service
metadata: {name: web}
spec:
  selector: {app: web}
  ports: [{port: 80, targetPort: 80}]
`;

/** Starts `kubectl port-forward` and resolves once it listens. */
async function portForward(h: Hearth, args: string[]): Promise<ChildProcess> {
  const child = spawn("kubectl", ["--kubeconfig", h.kubeconfig, "port-forward", ...args], {
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  child.stdout.on("data", (d: Buffer) => {
    out += d.toString();
  });
  child.stderr.on("data", (d: Buffer) => {
    out += d.toString();
  });
  await waitFor(
    `port-forward ${args.join(" ")}: ${out}`,
    () => out.includes("Forwarding from"),
    30_000,
  );
  return child;
}

function stop(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null) return resolve();
    child.once("exit", () => resolve());
    child.kill("SIGTERM");
  });
}

describe("exec, cp, attach and port-forward through the node API", {
  skip: criSkipReason(),
}, () => {
  test("kubectl exec, cp and port-forward reach the pods' processes", async () => {
    const opts = { prefix: "hearth-exec-", podCIDR: POD_CIDR, serviceCIDR: SERVICE_CIDR };
    await withCriHearth(opts, async (h, dataDir) => {
      await h.kubectlOk(["apply", "-f", "-"], { input: PODS });
      await h.kubectlOk(
        ["wait", "--for=condition=Ready", "pod/etcd", "pod/web", "--timeout=120s"],
        { timeoutMs: 130_000 },
      );
      await waitFor(
        "box's sh container runs",
        async () => (await h.kubectl(["exec", "box", "-c", "sh", "--", "true"])).code === 0,
        60_000,
      );

      // The pod's own view, and exit codes.
      assert.equal(
        (await h.kubectlOk(["exec", "box", "-c", "sh", "--", "cat", "/etc/hostname"])).trim(),
        "box",
      );
      assert.equal(
        (await h.kubectl(["exec", "box", "-c", "sh", "--", "sh", "-c", "exit 3"])).code,
        3,
      );
      assert.equal(
        (await h.kubectl(["exec", "box", "-c", "sh", "--", "sh", "-c", "no-such-command"])).code,
        127,
      );
      const err = await h.kubectl([
        "exec",
        "box",
        "-c",
        "sh",
        "--",
        "sh",
        "-c",
        "echo out; echo err >&2",
      ]);
      assert.equal(err.stdout, "out\n");
      assert.match(err.stderr, /err/);
      // stdin, half-closed at its end.
      assert.equal(
        await h.kubectlOk(["exec", "-i", "box", "-c", "sh", "--", "cat"], { input: "hello\n" }),
        "hello\n",
      );

      // kube's errors: no container name among two, a wrong one, one that is not running.
      assert.match(
        (await h.kubectl(["exec", "box", "-c", "nope", "--", "true"])).stderr,
        /container nope is not valid for pod box/,
      );
      assert.match(
        (await h.kubectl(["exec", "box", "-c", "done", "--", "true"])).stderr,
        /container not found \("done"\)/,
      );

      // etcdctl inside the etcd pod.
      const etcdIP = (
        await h.kubectlOk(["get", "pod", "etcd", "-o", "jsonpath={.status.podIP}"])
      ).trim();
      const health = await h.kubectl([
        "exec",
        "etcd",
        "--",
        "etcdctl",
        `--endpoints=${etcdIP}:2379`,
        "endpoint",
        "health",
      ]);
      assert.match(health.stdout + health.stderr, /is healthy/);

      // kubectl cp both ways, 10 MiB, byte-identical.
      const local = join(dataDir, "..", "big.bin");
      const back = join(dataDir, "..", "back.bin");
      writeFileSync(local, randomBytes(10 * 1024 * 1024));
      await h.kubectlOk(["cp", local, "box:/tmp/big.bin", "-c", "sh"], { timeoutMs: 120_000 });
      await h.kubectlOk(["cp", "box:/tmp/big.bin", back, "-c", "sh"], { timeoutMs: 120_000 });
      assert.ok(readFileSync(local).equals(readFileSync(back)), "the file came back unchanged");

      // An interactive shell through a PTY: arithmetic, a resize, exit.
      const session = spawn(
        "script",
        ["-q", "-c", `kubectl --kubeconfig ${h.kubeconfig} exec -it box -c sh -- sh`, "/dev/null"],
        { stdio: ["pipe", "pipe", "pipe"] },
      );
      let screen = "";
      session.stdout.on("data", (d: Buffer) => {
        const text = d.toString();
        screen += text;
        // busybox ash asks where the cursor is (ESC[6n) at each prompt: answer as a terminal does.
        const asks = text.split("\u001b[6n").length - 1;
        for (let i = 0; i < asks; i++) session.stdin.write("\u001b[1;1R");
      });
      const prompts = () => screen.split("/ # ").length - 1;
      await waitFor(`a prompt: ${screen}`, () => prompts() >= 1, 30_000);
      session.stdin.write("echo $((6*7))\r");
      await waitFor(
        `42 in ${JSON.stringify(screen)}`,
        () => /\n42\r?\n/.test(screen) && prompts() >= 2,
        30_000,
      );
      // A resize of kubectl's terminal reaches the shell's (kubectl sends it on channel 4).
      const kubectlPid = execFileSync("ps", ["-o", "pid=", "--ppid", String(session.pid)], {
        encoding: "utf8",
      }).trim();
      const pty = readlinkSync(`/proc/${kubectlPid}/fd/0`);
      execFileSync("stty", ["-F", pty, "rows", "33", "cols", "111"]);
      await waitFor(
        `the new size in ${JSON.stringify(screen)}`,
        async () => {
          session.stdin.write("stty size\r");
          await new Promise((r) => setTimeout(r, 300));
          return screen.includes("33 111");
        },
        30_000,
      );
      session.stdin.write("exit\r");
      const code = await new Promise<number | null>((r) => session.once("exit", (c) => r(c)));
      assert.equal(code, 0, screen);
      // No exec'd process outlives its session: only the pod's sleep (and this ps) is left.
      let ps = "";
      await waitFor(
        `the session's shell has ended: ${ps}`,
        async () => {
          ps = await h.kubectlOk(["exec", "box", "-c", "sh", "--", "ps", "-o", "comm"]);
          return !ps.split("\n").some((l) => l.trim() === "sh");
        },
        15_000,
      );

      // Port-forward to the etcd pod: put and get through it.
      const pf = await portForward(h, ["pod/etcd", "23790:2379"]);
      try {
        const etcdctl = (...a: string[]) =>
          execFileSync("etcdctl", ["--endpoints=127.0.0.1:23790", ...a], { encoding: "utf8" });
        etcdctl("put", "greeting", "hello");
        assert.equal(etcdctl("get", "greeting", "--print-value-only").trim(), "hello");
      } finally {
        await stop(pf);
      }

      // Port-forward to a Service: 20 concurrent requests.
      const web = await portForward(h, ["svc/web", "23880:80"]);
      try {
        const codes = await Promise.all(
          Array.from({ length: 20 }, async () => {
            const res = await fetch("http://127.0.0.1:23880/", {
              signal: AbortSignal.timeout(15_000),
            });
            await res.text();
            return res.status;
          }),
        );
        assert.deepEqual(codes, Array(20).fill(200));
      } finally {
        await stop(web);
      }

      // The node API refuses a caller without the apiserver's certificate.
      const node = JSON.parse(await h.kubectlOk(["get", "nodes", "-o", "json"])) as {
        items: { status: { daemonEndpoints: { kubeletEndpoint: { Port: number } } } }[];
      };
      const port = node.items[0]!.status.daemonEndpoints.kubeletEndpoint.Port;
      const anon = spawnSync("curl", [
        "-sk",
        "-o",
        "/dev/null",
        "-w",
        "%{http_code}",
        `https://127.0.0.1:${port}/containerLogs/default/box/sh`,
      ]);
      assert.equal(anon, "401");
      const upgrade = spawnSync("curl", [
        "-sk",
        "-o",
        "/dev/null",
        "-w",
        "%{http_code}",
        "-H",
        "Connection: Upgrade",
        "-H",
        "Upgrade: websocket",
        `https://127.0.0.1:${port}/exec/default/box/sh?command=id&stdout=true`,
      ]);
      assert.equal(upgrade, "401");
    });
  });
});

function spawnSync(cmd: string, args: string[]): string {
  try {
    return execFileSync(cmd, args, { encoding: "utf8", timeout: 15_000 });
  } catch (e) {
    return String((e as { stdout?: string }).stdout ?? "");
  }
}
