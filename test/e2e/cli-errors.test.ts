/**
 * The `hearth` executable's exit codes: an unknown command exits 2 with the
 * usage on stderr, a bad flag exits 1 with one `hearth: …` line (the messages
 * themselves are src/cli/cli-errors.test.ts), and `help` prints the usage on
 * stdout and exits 0. Each runs in a temporary directory with a temporary HOME
 * and no KUBECONFIG, and makes nothing there.
 */
import assert from "node:assert/strict";
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { kubeconfigYaml } from "../../src/client/index.js";
import { HEARTH_MAIN, type RunResult, run } from "../support/hearth-process.js";

describe("hearth exit codes", () => {
  let dir: string;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), "hearth-cli-"));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  const hearth = (args: string[]): Promise<RunResult> => {
    const { KUBECONFIG: _, ...env } = process.env;
    return run("sh", ["-c", 'cd "$0" && exec "$@"', dir, process.execPath, HEARTH_MAIN, ...args], {
      env: { ...env, HOME: dir },
      timeoutMs: 60_000,
    });
  };

  it("exits 2 on an unknown command and 1 on a bad flag, saying why on stderr", async () => {
    const unknown = await hearth(["frobnicate"]);
    assert.equal(unknown.code, 2);
    assert.match(unknown.stderr, /^hearth: unknown command "frobnicate"\nusage: hearth <command>/);
    assert.equal(unknown.stdout, "");
    const bad = await hearth(["node", "--kubeconfig"]);
    assert.equal(bad.code, 1);
    assert.equal(bad.stderr, "hearth: flag --kubeconfig needs a value\n");
    assert.equal(bad.stdout, "");
    assert.deepEqual(readdirSync(dir), []);
  });

  it("hearth node refuses a kubeconfig without the cluster CA unless --client-ca-file names one", {
    skip: process.getuid?.() !== 0 && "needs root (hearth node checks for it first)",
  }, async () => {
    const own = mkdtempSync(join(tmpdir(), "hearth-cli-node-"));
    try {
      const kubeconfig = join(own, "kubeconfig");
      writeFileSync(kubeconfig, kubeconfigYaml({ server: "https://127.0.0.1:1" }));
      const dataDir = join(own, "node");
      const r = await hearth(["node", "--kubeconfig", kubeconfig, "--data-dir", dataDir]);
      assert.equal(r.code, 1);
      assert.equal(
        r.stderr,
        "hearth: hearth node needs the cluster CA, so that its node API lets in the apiserver and no one else: " +
          "the kubeconfig names no certificate-authority; add one to it, or give --client-ca-file FILE\n",
      );
      const notPem = join(own, "ca.crt");
      writeFileSync(notPem, "not a certificate\n");
      const bad = await hearth([
        "node",
        "--kubeconfig",
        kubeconfig,
        "--data-dir",
        dataDir,
        "--client-ca-file",
        notPem,
      ]);
      assert.equal(bad.code, 1);
      assert.equal(bad.stderr, `hearth: --client-ca-file ${notPem}: no PEM certificate in it\n`);
      assert.ok(!existsSync(dataDir), "nothing was started");
    } finally {
      rmSync(own, { recursive: true, force: true });
    }
  });

  it("prints the usage for help and exits 0", async () => {
    const r = await hearth(["help"]);
    assert.equal(r.code, 0);
    assert.equal(r.stderr, "");
    assert.match(r.stdout, /^usage: hearth <command> \[flags\]\n/);
    for (const command of ["up", "apiserver", "node", "etcd-defrag"])
      assert.match(r.stdout, new RegExp(`^  ${command} `, "m"));
  });
});
