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
import { execFileSync, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { readFileSync, readlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, test } from "node:test";
import { withCriHearth } from "../support/cri-hearth.js";
import { criSkipReason } from "../support/cri-node.js";
import { waitFor } from "../support/hearth-process.js";
import {
  apiWebSocket,
  kubectlEnv,
  portForward,
  ptySession,
  stop,
} from "../support/kubectl-streams.js";
import { nodeApi, nodeApiGet } from "../support/node-api.js";

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
metadata: {name: console}
spec:
  terminationGracePeriodSeconds: 1
  containers: [{name: sh, image: "busybox:1.35", command: [sh], stdin: true, tty: true}]
---
apiVersion: v1
kind: Pod
metadata: {name: vbox, namespace: tenant-root}
spec:
  terminationGracePeriodSeconds: 1
  containers: [{name: sh, image: "busybox:1.35", command: [sleep, "3600"]}]
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
      const tty = ptySession(h, "exec -it box -c sh -- sh");
      const session = tty.session;
      const prompts = () => tty.screen.split("/ # ").length - 1;
      await waitFor(`a prompt: ${tty.screen}`, () => prompts() >= 1, 30_000);
      session.stdin.write("echo $((6*7))\r");
      await waitFor(
        `42 in ${JSON.stringify(tty.screen)}`,
        () => /\n42\r?\n/.test(tty.screen) && prompts() >= 2,
        30_000,
      );
      // A resize of kubectl's terminal reaches the shell's (kubectl sends it on channel 4).
      const kubectlPid = execFileSync("ps", ["-o", "pid=", "--ppid", String(session.pid)], {
        encoding: "utf8",
      }).trim();
      const pty = readlinkSync(`/proc/${kubectlPid}/fd/0`);
      execFileSync("stty", ["-F", pty, "rows", "33", "cols", "111"]);
      await waitFor(
        `the new size in ${JSON.stringify(tty.screen)}`,
        async () => {
          session.stdin.write("stty size\r");
          await new Promise((r) => setTimeout(r, 300));
          return tty.screen.includes("33 111");
        },
        30_000,
      );
      session.stdin.write("exit\r");
      const code = await new Promise<number | null>((r) => session.once("exit", (c) => r(c)));
      assert.equal(code, 0, tty.screen);
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

      // A session whose client goes away takes its process with it, over WebSocket and over
      // SPDY, and also when the process has replaced itself with another program.
      const sleeps = async () =>
        (await h.kubectlOk(["exec", "box", "-c", "sh", "--", "ps", "-o", "args"])).includes(
          "sleep 997",
        );
      const spdyExec = { KUBECTL_REMOTE_COMMAND_WEBSOCKETS: "false" };
      for (const [cmd, env] of [
        [["sleep", "997"], {}],
        [["sleep", "997"], spdyExec],
        [["sh", "-c", "exec sleep 997"], {}],
      ] as const) {
        const sleeper = spawn(
          "kubectl",
          ["--kubeconfig", h.kubeconfig, "exec", "box", "-c", "sh", "--", ...cmd],
          { stdio: "ignore", env: { ...process.env, ...env } },
        );
        await waitFor("the exec'd sleep runs", sleeps, 30_000);
        await stop(sleeper);
        await waitFor(
          `the exec'd ${cmd.join(" ")} has ended with its session (${JSON.stringify(env)})`,
          async () => !(await sleeps()),
          30_000,
        );
      }

      // Port-forward to the etcd pod: put and get through it.
      const pf = await portForward(h, ["pod/etcd", "23790:2379"]);
      try {
        const etcdctl = (...a: string[]) =>
          execFileSync("etcdctl", ["--endpoints=127.0.0.1:23790", ...a], { encoding: "utf8" });
        etcdctl("put", "greeting", "hello");
        assert.equal(etcdctl("get", "greeting", "--print-value-only").trim(), "hello");
        assert.doesNotMatch(pf.output(), /fallback/i, "port-forward tunnelled SPDY in a WebSocket");
      } finally {
        await stop(pf);
      }

      // Bad input: a port nothing listens on fails that connection, a port out of range is a 400;
      // the apiserver stays up.
      const nothing = await portForward(h, ["pod/box", "23991:9999"]);
      try {
        await assert.rejects(
          fetch("http://127.0.0.1:23991/", { signal: AbortSignal.timeout(15_000) }),
        );
      } finally {
        await stop(nothing);
      }
      const outOfRange = await h.kubectl([
        "get",
        "--raw",
        "/api/v1/namespaces/default/pods/box/portforward?ports=70000",
      ]);
      assert.match(outOfRange.stderr, /invalid port: "70000": must be between 1 and 65535/);
      assert.equal((await h.kubectlOk(["get", "pod", "box", "-o", "name"])).trim(), "pod/box");

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
        assert.doesNotMatch(web.output(), /fallback/i);
      } finally {
        await stop(web);
      }

      // The same through kubectl's SPDY clients (passed through to the runtime), and
      // kubectl's default WebSocket clients are used, not fallen back from.
      const spdy = {
        KUBECTL_REMOTE_COMMAND_WEBSOCKETS: "false",
        KUBECTL_PORT_FORWARD_WEBSOCKETS: "false",
      };
      assert.deepEqual(
        kubectlEnv(h, spdy, ["exec", "-i", "box", "-c", "sh", "--", "cat"], "over spdy\n"),
        {
          code: 0,
          out: "over spdy\n",
        },
      );
      assert.equal(
        kubectlEnv(h, spdy, ["exec", "box", "-c", "sh", "--", "sh", "-c", "exit 3"]).code,
        3,
      );
      const verbose = kubectlEnv(h, {}, ["-v=4", "exec", "box", "-c", "sh", "--", "true"]);
      assert.equal(verbose.code, 0);
      assert.doesNotMatch(verbose.out, /fallback/i);

      // attach to a container started with stdin and a TTY.
      const attach = ptySession(h, "attach -it console -c sh");
      await waitFor(
        `attached: ${attach.screen}`,
        async () => {
          attach.session.stdin.write("echo $((5*5))\r");
          await new Promise((r) => setTimeout(r, 300));
          return /\n25\r?\n/.test(attach.screen);
        },
        30_000,
      );
      await new Promise<void>((resolve) => {
        attach.session.once("exit", () => resolve());
        attach.session.kill("SIGTERM");
      });
      assert.equal(
        await h.kubectlOk(["get", "pod", "console", "-o", "jsonpath={.status.phase}"]),
        "Running",
      );

      // RBAC on the subresources: a tenant's view level may not exec or port-forward, use may.
      await waitFor(
        "tenant-root's role bindings",
        async () =>
          (
            await h.kubectl(["get", "rolebindings", "-n", "tenant-root", "-o", "name"])
          ).stdout.includes("view"),
        60_000,
      );
      await h.kubectlOk(
        ["wait", "--for=condition=Ready", "pod/vbox", "-n", "tenant-root", "--timeout=60s"],
        { timeoutMs: 70_000 },
      );
      const as = (level: string) => [
        "--as=alice",
        `--as-group=tenant-root-${level}`,
        "-n",
        "tenant-root",
      ];
      const viewExec = await h.kubectl([...as("view"), "exec", "vbox", "--", "true"]);
      assert.notEqual(viewExec.code, 0);
      assert.match(
        viewExec.stderr,
        /User "alice" cannot create resource "pods\/exec" in API group "" in the namespace "tenant-root"/,
      );
      const viewForward = await h.kubectl([...as("view"), "port-forward", "pod/vbox", "23999:80"]);
      assert.notEqual(viewForward.code, 0);
      assert.match(viewForward.stderr, /cannot create resource "pods\/portforward"/);
      assert.equal(
        (await h.kubectlOk([...as("use"), "exec", "vbox", "--", "echo", "ok"])).trim(),
        "ok",
      );

      // nodes/proxy: the node API through the apiserver, for those RBAC lets (an admin here).
      const nodeName = (
        await h.kubectlOk(["get", "nodes", "-o", "jsonpath={.items[0].metadata.name}"])
      ).trim();
      const summary = JSON.parse(
        await h.kubectlOk(["get", "--raw", `/api/v1/nodes/${nodeName}/proxy/stats/summary`]),
      ) as { pods: { podRef: { name: string } }[] };
      assert.ok(
        summary.pods.some((p) => p.podRef.name === "box"),
        "the summary names box",
      );
      const viewProxy = await h.kubectl([
        "--as=alice",
        "--as-group=tenant-root-view",
        "get",
        "--raw",
        `/api/v1/nodes/${nodeName}/proxy/stats/summary`,
      ]);
      assert.match(viewProxy.stderr, /cannot get resource "nodes\/proxy"/);
      // An upgrade through nodes/proxy reaches the node API's streaming routes, by the kubelet's
      // query names; the same refusal for a user without nodes/proxy, before any byte reaches the node.
      const viaNode = `/api/v1/nodes/${nodeName}/proxy/exec/default/box/sh?command=echo&command=via-node-proxy&output=1`;
      const proxied = await apiWebSocket(h, viaNode);
      assert.equal(proxied.stdout, "via-node-proxy\n", JSON.stringify(proxied));
      assert.equal(proxied.status?.status, "Success");
      const viewUpgrade = await apiWebSocket(h, viaNode, {
        user: "alice",
        groups: ["tenant-root-view"],
      });
      assert.equal(viewUpgrade.refused, 403);

      // The node API refuses a caller without the apiserver's certificate, and serves one with it.
      const api = await nodeApi(h);
      const logs = "/containerLogs/default/box/sh";
      assert.equal((await nodeApiGet(api, logs, { anonymous: true })).status, 401);
      assert.equal((await nodeApiGet(api, logs)).status, 200);
      const upgrade = {
        Connection: "Upgrade",
        Upgrade: "websocket",
        "Sec-WebSocket-Version": "13",
        "Sec-WebSocket-Key": randomBytes(16).toString("base64"),
        "Sec-WebSocket-Protocol": "v5.channel.k8s.io",
      };
      const exec = "/exec/default/box/sh?command=id&output=1";
      assert.equal(
        (await nodeApiGet(api, exec, { anonymous: true, headers: upgrade })).status,
        401,
      );
      assert.equal((await nodeApiGet(api, exec, { headers: upgrade })).status, 101);
    });
  });
});
