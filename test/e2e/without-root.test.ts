/**
 * Hearth run by a user without root (the test, as root, runs it as `nobody`):
 * `hearth up` and `hearth node` stop at once with the message that says what
 * running containers needs (root, `--containerd-socket PATH`, or
 * `--no-node-agent`); `--runtime host` is refused, saying host processes are
 * gone; `hearth up --no-node-agent` serves the API and the platform without
 * pods, and stops cleanly on SIGTERM.
 */
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { chownSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { NODE_FLAGS } from "../../src/main/node-flags.js";
import { HEARTH_MAIN, readyLine, run, stopChild } from "../support/hearth-process.js";

const NOBODY = 65534;
const NEEDS_ROOT =
  /running containers needs root: .*Run hearth as root, point it at a containerd already serving CRI with --containerd-socket PATH, or run `hearth up --no-node-agent`/;

describe("hearth without root", {
  skip: process.getuid?.() !== 0 && "needs root, to run hearth as another user",
}, () => {
  let dir: string;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), "hearth-no-root-"));
    chownSync(dir, NOBODY, NOBODY);
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  /** `hearth <args>` as nobody, with its own HOME and data directory under the test's. */
  const spawnHearth = (args: string[]) =>
    spawn(process.execPath, [...NODE_FLAGS, HEARTH_MAIN, ...args], {
      uid: NOBODY,
      gid: NOBODY,
      env: { ...process.env, HOME: dir },
      stdio: ["ignore", "pipe", "pipe"],
    });

  /** Runs `hearth <args>` as nobody to its end: exit code and stderr. */
  const refused = (args: string[]) =>
    new Promise<{ code: number | null; stderr: string }>((resolve, reject) => {
      const child = spawnHearth(args);
      let stderr = "";
      child.stderr.on("data", (d) => (stderr += d));
      const timer = setTimeout(() => child.kill("SIGKILL"), 60_000);
      child.on("error", reject);
      child.on("close", (code) => {
        clearTimeout(timer);
        resolve({ code, stderr });
      });
    });

  it("hearth up stops at once, saying what running containers needs", async () => {
    const r = await refused(["up", "--data-dir", join(dir, "up"), "--port", "0"]);
    assert.notEqual(r.code, 0);
    assert.match(r.stderr, NEEDS_ROOT);
  });

  it("hearth node stops at once with the same message", async () => {
    const kubeconfig = join(dir, "kubeconfig");
    writeFileSync(kubeconfig, "apiVersion: v1\nkind: Config\n");
    const args = ["node", "--kubeconfig", kubeconfig, "--data-dir", join(dir, "node")];
    const r = await refused(args);
    assert.notEqual(r.code, 0);
    assert.match(r.stderr, NEEDS_ROOT);
  });

  it("--runtime host is refused: host processes are gone, and what to do instead", async () => {
    const r = await refused(["up", "--data-dir", join(dir, "host"), "--runtime", "host"]);
    assert.notEqual(r.code, 0);
    assert.match(
      r.stderr,
      /--runtime host is gone: pods run only as containers through CRI\. Run as root .*--containerd-socket PATH.*--no-node-agent/,
    );
  });

  it("hearth up --no-node-agent serves the API and the platform, and stops on SIGTERM", async () => {
    const dataDir = join(dir, "api");
    const child = spawnHearth(["up", "--data-dir", dataDir, "--port", "0", "--no-node-agent"]);
    let stderr = "";
    child.stderr.on("data", (d) => (stderr += d));
    try {
      const [, , kubeconfig] = await readyLine(
        child,
        /hearth is ready: (\S+) \(kubectl --kubeconfig (\S+)\)/,
        "hearth up --no-node-agent",
        90_000,
        () => stderr,
      );
      const ns = await run("kubectl", [
        "--kubeconfig",
        kubeconfig!,
        "get",
        "namespace",
        "tenant-root",
      ]);
      assert.equal(ns.code, 0, ns.stderr);
      const nodes = await run("kubectl", [
        "--kubeconfig",
        kubeconfig!,
        "get",
        "nodes",
        "-o",
        "name",
      ]);
      assert.equal(nodes.stdout.trim(), "", "no node agent, no Node");
    } finally {
      assert.equal(await stopChild(child, 30_000), 0, `a clean stop; stderr:\n${stderr}`);
    }
  });
});
