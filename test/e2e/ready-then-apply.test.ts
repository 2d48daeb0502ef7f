/**
 * Issue 12's readiness acceptance: the moment `hearth up` reports ready —
 * `/readyz` answers 200 or the ready line is printed, whichever comes first —
 * a Tenant piped to `kubectl apply -f -` with kubectl's default validation
 * succeeds: ten fresh starts, ten successes. Before readiness meant "every
 * platform kind is in discovery and both OpenAPI versions, and tenant-root
 * exists", `/readyz` passed as soon as the port listened and the apply failed.
 */
import assert from "node:assert/strict";
import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { request } from "node:https";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, it } from "node:test";
import { HEARTH_MAIN, run } from "../support/hearth-process.js";

const TENANT = `
apiVersion: apps.cozystack.io/v1alpha1
kind: Tenant
metadata:
  name: first
  namespace: tenant-root
spec:
  resourceQuotas:
    cpu: "1"
`;

const STARTS = 10;
/** Generous: the machine is shared, and a start under load takes tens of seconds. */
const START_DEADLINE_MS = 150_000;

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

/** The status of GET /readyz, or undefined while nothing answers. */
function readyzStatus(port: number, caPem: string): Promise<number | undefined> {
  return new Promise((resolve) => {
    const req = request(
      { host: "127.0.0.1", port, path: "/readyz", ca: caPem, timeout: 2_000 },
      (res) => {
        res.resume();
        res.on("end", () => resolve(res.statusCode));
      },
    );
    req.on("error", () => resolve(undefined));
    req.on("timeout", () => req.destroy());
    req.end();
  });
}

interface Started {
  child: ChildProcess;
  dataDir: string;
  home: string;
  /** Which readiness signal came first. */
  signal: "readyz" | "ready line";
}

/** Starts `hearth up` and resolves at its first readiness signal, once its kubeconfig exists. */
async function startUntilReady(): Promise<Started> {
  const dataDir = mkdtempSync(join(tmpdir(), "hearth-ready-"));
  const home = mkdtempSync(join(tmpdir(), "hearth-ready-home-"));
  const port = await freePort();
  // The node agent has no part in which kinds are served; leaving it out keeps starts short.
  const args = [
    HEARTH_MAIN,
    "up",
    "--data-dir",
    dataDir,
    "--port",
    String(port),
    "--no-node-agent",
  ];
  const child = spawn(process.execPath, args, { stdio: ["ignore", "pipe", "pipe"] });
  let stdout = "";
  let stderr = "";
  child.stdout!.on("data", (d) => (stdout += d));
  child.stderr!.on("data", (d) => (stderr = (stderr + d).slice(-20_000)));
  const deadline = Date.now() + START_DEADLINE_MS;
  const kubeconfig = join(dataDir, "admin.kubeconfig");
  const caFile = join(dataDir, "pki", "ca.crt");
  const fail = async (why: string) => {
    await stop({ child, dataDir, home, signal: "readyz" });
    return new Error(`${why}; stderr:\n${stderr}`);
  };
  for (;;) {
    if (child.exitCode !== null) throw await fail(`hearth up exited ${child.exitCode}`);
    if (Date.now() > deadline) throw await fail("hearth up not ready in time");
    if (existsSync(kubeconfig)) {
      if (stdout.includes("hearth is ready:"))
        return { child, dataDir, home, signal: "ready line" };
      const status = await readyzStatus(port, readFileSync(caFile, "utf8"));
      if (status === 200) return { child, dataDir, home, signal: "readyz" };
    }
    await new Promise((r) => setTimeout(r, 20));
  }
}

async function stop(s: Started): Promise<void> {
  if (s.child.exitCode === null && s.child.signalCode === null) {
    const exited = new Promise((r) => s.child.once("exit", r));
    s.child.kill("SIGKILL");
    await exited;
  }
  rmSync(s.dataDir, { recursive: true, force: true });
  rmSync(s.home, { recursive: true, force: true });
}

/** One start: readiness, then the apply; a failure is returned as a line, not thrown. */
async function startAndApply(n: number): Promise<string | undefined> {
  const started = await startUntilReady();
  try {
    const kubeconfig = join(started.dataDir, "admin.kubeconfig");
    const env = { ...process.env, HOME: started.home, KUBECONFIG: kubeconfig };
    const r = await run("kubectl", ["--kubeconfig", kubeconfig, "apply", "-f", "-"], {
      input: TENANT,
      env,
    });
    if (r.code === 0 && /tenant\.apps\.cozystack\.io\/first created/.test(r.stdout))
      return undefined;
    return `start ${n} (at ${started.signal}): exit ${r.code}: ${r.stderr.trim()}`;
  } finally {
    await stop(started);
  }
}

describe("hearth up is ready only when a Tenant applies", () => {
  it(`applies a Tenant at the first readiness signal, ${STARTS} fresh starts out of ${STARTS}`, async () => {
    const failures: string[] = [];
    // Two at a time, each on its own port and data directory.
    for (let i = 0; i < STARTS; i += 2) {
      const pair = await Promise.all([startAndApply(i + 1), startAndApply(i + 2)]);
      failures.push(...pair.filter((f): f is string => f !== undefined));
    }
    assert.deepEqual(failures, [], `${failures.length} of ${STARTS} applies failed`);
  });
});
