/**
 * Runs `hearth up` as a real child process for end-to-end tests, on a fresh data
 * directory and a free port, and drives the real `kubectl` against it. Everything
 * a test starts is stopped and removed by `stop()`.
 */

import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import type { KubeObject } from "../../src/api/index.js";
import { NODE_FLAGS } from "../../src/main/node-flags.js";
import { removeContainerRuntime } from "./cri-node.js";
import { podSkipReason, testNetwork } from "./test-network.js";

const here = dirname(fileURLToPath(import.meta.url));
/** dist/test/support → repository root. */
export const REPO_ROOT = resolve(here, "../../..");
export const HEARTH_MAIN = join(REPO_ROOT, "dist/src/main/hearth.js");

export interface RunResult {
  code: number;
  stdout: string;
  stderr: string;
}

export interface Hearth {
  dataDir: string;
  kubeconfig: string;
  url: string;
  port: number;
  process: ChildProcess;
  /** Runs kubectl against this server; never throws on a non-zero exit. */
  kubectl(args: string[], opts?: { input?: string; timeoutMs?: number }): Promise<RunResult>;
  /** Runs kubectl and throws unless it exits 0; returns stdout. */
  kubectlOk(args: string[], opts?: { input?: string; timeoutMs?: number }): Promise<string>;
  /** Starts kubectl without waiting (for `get -w`); the caller kills it. */
  kubectlSpawn(args: string[]): ChildProcess;
  /** SIGTERM and wait for exit (SIGKILL after a minute); the exit code, null if killed. */
  stop(): Promise<number | null>;
  /** SIGKILL and wait for exit. */
  kill9(): Promise<void>;
  /** Stops the server if running and removes its data directory and kubectl home. */
  cleanup(): Promise<void>;
}

export function run(
  cmd: string,
  args: string[],
  opts: { input?: string; env?: NodeJS.ProcessEnv; timeoutMs?: number } = {},
): Promise<RunResult> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(cmd, args, {
      env: opts.env ?? process.env,
      stdio: ["pipe", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => (stdout += d));
    child.stderr.on("data", (d) => (stderr += d));
    const timer = setTimeout(() => child.kill("SIGKILL"), opts.timeoutMs ?? 60_000);
    child.on("error", (e) => {
      clearTimeout(timer);
      reject(e);
    });
    child.on("close", (code) => {
      clearTimeout(timer);
      resolvePromise({ code: code ?? -1, stdout, stderr });
    });
    // A command that exits before reading its input (EPIPE) is judged by its exit code.
    child.stdin.on("error", () => {});
    child.stdin.end(opts.input ?? "");
  });
}

function waitExit(child: ChildProcess): Promise<number | null> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(child.exitCode);
  return new Promise((r) => child.once("exit", (code) => r(code)));
}

/**
 * SIGTERM, then SIGKILL if `child` has not exited within `graceMs`, so a test's
 * clean-up always ends; resolves to the exit code (null when it took a signal).
 */
export async function stopChild(child: ChildProcess, graceMs: number): Promise<number | null> {
  if (child.exitCode !== null || child.signalCode !== null) return child.exitCode;
  child.kill("SIGTERM");
  const timer = setTimeout(() => child.kill("SIGKILL"), graceMs);
  try {
    return await waitExit(child);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Resolves with the first match of `line` in `child`'s stdout (a command's
 * ready line); rejects, with `stderr()` in the message, if `child` exits or
 * `timeoutMs` passes first. `what` names the command in those messages.
 */
export function readyLine(
  child: ChildProcess,
  line: RegExp,
  what: string,
  timeoutMs: number,
  stderr: () => string,
): Promise<RegExpExecArray> {
  return new Promise((resolveMatch, reject) => {
    let out = "";
    const timer = setTimeout(
      () => reject(new Error(`${what} not ready in time; stderr:\n${stderr()}`)),
      timeoutMs,
    );
    child.stdout!.on("data", (d) => {
      out += d;
      const m = line.exec(out);
      if (m) {
        clearTimeout(timer);
        resolveMatch(m);
      }
    });
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`${what} exited with ${code}; stderr:\n${stderr()}`));
    });
  });
}

/** How long `stop()` lets hearth up stop its pods before it is killed. */
const STOP_GRACE_MS = 60_000;

/**
 * The flags a test did not choose: a network of its own (see testNetwork);
 * and where the machine cannot run containers (podSkipReason), no node agent,
 * so that tests of the API run there (tests that need pods skip).
 */
function networkArgs(extra: string[]): string[] {
  if (extra.some((a) => a.startsWith("--containerd-socket"))) return [];
  const noAgent = podSkipReason() && !extra.includes("--no-node-agent") ? ["--no-node-agent"] : [];
  const given = ["--pod-cidr", "--service-cidr"];
  if (extra.some((a) => given.some((flag) => a.startsWith(flag)))) return noAgent;
  return [...testNetwork().args, ...noAgent];
}

/** Starts `hearth up` on `dataDir` (a new temp dir when absent) and waits for its ready line. */
export async function startHearth(
  opts: { dataDir?: string; extraArgs?: string[]; timeoutMs?: number } = {},
): Promise<Hearth> {
  const dataDir = opts.dataDir ?? mkdtempSync(join(tmpdir(), "hearth-e2e-"));
  const home = mkdtempSync(join(tmpdir(), "hearth-kubectl-home-"));
  const child = spawn(
    process.execPath,
    [
      ...NODE_FLAGS,
      HEARTH_MAIN,
      "up",
      "--data-dir",
      dataDir,
      "--port",
      "0",
      ...(opts.extraArgs ?? []),
      ...networkArgs(opts.extraArgs ?? []),
    ],
    {
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  let stderr = "";
  child.stderr!.on("data", (d) => {
    stderr += d;
    if (stderr.length > 100_000) stderr = stderr.slice(-50_000);
  });
  let url: string;
  try {
    // The ready line waits for the whole platform (issue 12), 20–35 s on two busy cores.
    const ready = /ready: (https:\/\/[^\s]+)/;
    url = (await readyLine(child, ready, "hearth up", opts.timeoutMs ?? 90_000, () => stderr))[1]!;
  } catch (e) {
    // Leave nothing behind when the server never came up: SIGTERM first, so that
    // it stops what it has started itself (containerd, pods), then SIGKILL.
    await stopChild(child, 10_000);
    if (!opts.dataDir) rmSync(dataDir, { recursive: true, force: true });
    rmSync(home, { recursive: true, force: true });
    throw e;
  }
  const kubeconfig = join(dataDir, "admin.kubeconfig");
  const env = { ...process.env, HOME: home, KUBECONFIG: kubeconfig };
  const kubectl = (args: string[], o: { input?: string; timeoutMs?: number } = {}) =>
    run("kubectl", ["--kubeconfig", kubeconfig, ...args], { env, ...o });
  let cleaned = false;
  // kubectl processes a test holds: a live one would recreate its HOME's cache after the rm.
  const spawned: ChildProcess[] = [];
  return {
    dataDir,
    kubeconfig,
    url,
    port: Number(new URL(url).port),
    process: child,
    kubectl,
    async kubectlOk(args, o) {
      const r = await kubectl(args, o);
      if (r.code !== 0)
        throw new Error(`kubectl ${args.join(" ")} exited ${r.code}:\n${r.stderr}${r.stdout}`);
      return r.stdout;
    },
    kubectlSpawn(args) {
      const c = spawn("kubectl", ["--kubeconfig", kubeconfig, ...args], {
        env,
        stdio: ["ignore", "pipe", "pipe"],
      });
      spawned.push(c);
      return c;
    },
    stop: () => stopChild(child, STOP_GRACE_MS),
    async kill9() {
      child.kill("SIGKILL");
      await waitExit(child);
    },
    async cleanup() {
      if (cleaned) return;
      cleaned = true;
      const running = child.exitCode === null && child.signalCode === null;
      if (running) {
        child.kill("SIGKILL");
        await waitExit(child);
      }
      for (const c of spawned) if (c.exitCode === null && c.signalCode === null) c.kill("SIGKILL");
      await Promise.all(spawned.map(waitExit));
      // A test that failed with its Hearth running: the containerd it leaves
      // (with pods, bridge and table) goes too. A Hearth the test stopped or
      // killed itself is left for the test to check.
      if (running) await removeContainerRuntime(dataDir);
      if (!opts.dataDir) rmSync(dataDir, { recursive: true, force: true });
      rmSync(home, { recursive: true, force: true });
    },
  };
}

/** Polls `check` until it returns a truthy value or the deadline passes. */
export async function waitFor<T>(
  what: string,
  check: () => Promise<T | undefined | false> | T | undefined | false,
  timeoutMs = 20_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  for (let delay = 20; ; delay = Math.min(delay * 2, 500)) {
    try {
      const v = await check();
      if (v) return v;
    } catch (e) {
      lastError = e;
    }
    if (Date.now() > deadline)
      throw new Error(`timed out waiting for ${what}${lastError ? `: ${String(lastError)}` : ""}`);
    await new Promise((r) => setTimeout(r, delay));
  }
}

/** `kubectl … -o json` parsed, or undefined when kubectl fails (a NotFound, a server not up yet). */
export async function kubectlJson(
  h: Hearth,
  args: string[],
): Promise<(KubeObject & { items?: KubeObject[] }) | undefined> {
  const r = await h.kubectl([...args, "-o", "json"]);
  return r.code === 0 ? (JSON.parse(r.stdout) as KubeObject & { items?: KubeObject[] }) : undefined;
}
