/**
 * The command-line entry points given what they cannot use: a flag without its
 * value, a missing required flag, a number or URL that does not parse, TLS
 * flags without their partners, an unreadable file. Each rejects with one
 * message naming the flag (the executable prints it as `hearth: …` and exits
 * 1, see test/e2e/cli-errors.test.ts) before it makes a data directory,
 * listens on anything or reaches an apiserver.
 */
import assert from "node:assert/strict";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { kubeconfigYaml } from "../client/index.js";
import { apiserver } from "./apiserver.js";
import { etcdDefrag } from "./etcd-defrag.js";
import { node } from "./node.js";
import { up } from "./up.js";

interface Case {
  run: (argv: string[]) => Promise<void>;
  args: string[];
  message: RegExp;
}

describe("command line errors", () => {
  let dir: string;
  let kubeconfig: string;
  let dataDir: string;
  const saved = process.env.KUBECONFIG;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), "hearth-cli-"));
    kubeconfig = join(dir, "kubeconfig");
    dataDir = join(dir, "data");
    // A server nothing listens on: nothing may get as far as calling it.
    writeFileSync(kubeconfig, kubeconfigYaml({ server: "http://127.0.0.1:9" }));
    delete process.env.KUBECONFIG;
  });
  after(() => {
    if (saved !== undefined) process.env.KUBECONFIG = saved;
    rmSync(dir, { recursive: true, force: true });
  });

  const cases = (): Case[] => [
    { run: node, args: [], message: /^hearth node needs --kubeconfig FILE \(or KUBECONFIG\)$/ },
    { run: node, args: ["--kubeconfig"], message: /^flag --kubeconfig needs a value$/ },
    {
      run: node,
      args: ["--kubeconfig", "--data-dir", dataDir],
      message: /^flag --kubeconfig needs a value$/,
    },
    {
      run: node,
      args: ["--kubeconfig", join(dir, "missing.kubeconfig")],
      message: /missing\.kubeconfig/,
    },
    {
      run: node,
      args: [
        "--kubeconfig",
        kubeconfig,
        "--data-dir",
        dataDir,
        "--crashloop-backoff-base-ms",
        "soon",
      ],
      message: /^--crashloop-backoff-base-ms must be a non-negative integer, got "soon"$/,
    },
    {
      run: node,
      args: [
        "--kubeconfig",
        kubeconfig,
        "--data-dir",
        dataDir,
        "--crashloop-backoff-base-ms=10",
        "--crashloop-backoff-max-ms=-1",
      ],
      message: /^--crashloop-backoff-max-ms must be a non-negative integer, got "-1"$/,
    },
    {
      run: node,
      args: ["--kubeconfig", kubeconfig, "--data-dir", dataDir, "--runtime", "host"],
      message:
        /^--runtime host is gone: pods run only as containers through CRI\. Run as root .*--containerd-socket PATH.*--no-node-agent$/,
    },
    {
      run: up,
      args: ["--data-dir", dataDir, "--runtime=host", "--no-node-agent"],
      message: /^--runtime host is gone: .*--no-node-agent$/,
    },
    {
      run: node,
      args: ["--kubeconfig", kubeconfig, "--data-dir", dataDir, "--node-ip", "10.0.0.0/8"],
      message: /^--node-ip must be an IPv4 address of this node, got "10\.0\.0\.0\/8"$/,
    },
    {
      run: up,
      args: ["--data-dir", dataDir, "--node-ip", "0.0.0.0"],
      message: /^--node-ip must be an IPv4 address of this node, got "0\.0\.0\.0"$/,
    },
    { run: apiserver, args: [], message: /^hearth apiserver needs --etcd-servers$/ },
    {
      run: apiserver,
      args: ["--etcd-servers", "http://127.0.0.1:9", "--data-dir", dataDir, "--port", "http"],
      message: /^--port must be a non-negative integer, got "http"$/,
    },
    {
      run: up,
      args: ["--data-dir", dataDir, "--port", "-5"],
      message: /^--port must be a non-negative integer, got "-5"$/,
    },
    {
      run: etcdDefrag,
      args: [],
      message: /^--endpoints is required \(e\.g\. https:\/\/127\.0\.0\.1:2379\)$/,
    },
    {
      run: etcdDefrag,
      args: ["--endpoints", "127.0.0.1:2379"],
      message: /^--endpoints: "127\.0\.0\.1:2379" is not a URL such as https:\/\/host:2379$/,
    },
    { run: etcdDefrag, args: ["--clusterr"], message: /^etcd-defrag: unknown flag --clusterr$/ },
    {
      run: etcdDefrag,
      args: ["--endpoints=http://127.0.0.1:9", "extra"],
      message: /^etcd-defrag: unexpected argument "extra"$/,
    },
    {
      run: etcdDefrag,
      args: ["--endpoints=http://127.0.0.1:9", "--cert", "c.pem"],
      message: /^--cert and --key go together$/,
    },
    {
      run: etcdDefrag,
      args: ["--endpoints=http://127.0.0.1:9", "--cert=c", "--key=k"],
      message: /^--cert and --key need --cacert$/,
    },
    {
      run: etcdDefrag,
      args: ["--endpoints=http://127.0.0.1:9", "--cacert", join(dir, "no-ca.pem")],
      message: /^--cacert .*no-ca\.pem: .*ENOENT/,
    },
    {
      run: etcdDefrag,
      args: ["--endpoints=http://127.0.0.1:9", "--etcd-storage-quota-bytes", "2GB"],
      message: /^--etcd-storage-quota-bytes must be a positive integer, got "2GB"$/,
    },
  ];

  it("refuses each bad command line with a message naming the flag, making nothing", async () => {
    const failures: string[] = [];
    for (const c of cases()) {
      const what = `${c.run.name} ${c.args.join(" ")}`;
      try {
        await c.run(c.args);
        failures.push(`${what}: accepted`);
      } catch (e) {
        const message = e instanceof Error ? e.message : String(e);
        if (!c.message.test(message)) failures.push(`${what}: ${JSON.stringify(message)}`);
      }
    }
    assert.deepEqual(failures, []);
    assert.equal(existsSync(dataDir), false, "no data directory made");
  });
});
