/**
 * Runs `hearth node` (a standalone node agent) as a child process, so that its
 * CPU and memory in /proc are the agent's alone. `start` waits for its ready
 * line; `stop` sends SIGTERM (the agent stops its pods gracefully) and waits for
 * the exit, with SIGKILL after a deadline. Only this child is ever signalled.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { NODE_FLAGS } from "../src/main/node-flags.js";
import { HEARTH_MAIN, readyLine } from "../test/support/hearth-process.js";

const READY = /hearth node is ready/;

export interface NodeProcessOptions {
  kubeconfig: string;
  dataDir: string;
  podCidr: string;
  nodeName: string;
  readyTimeoutMs?: number;
}

export interface NodeProcess {
  pid: number;
  /** SIGTERM, then SIGKILL after `deadlineMs`; resolves once the process has exited. */
  stop(deadlineMs: number): Promise<void>;
}

const exited = (c: ChildProcess) => c.exitCode !== null || c.signalCode !== null;

function waitExit(child: ChildProcess): Promise<void> {
  if (exited(child)) return Promise.resolve();
  return new Promise((resolve) => child.once("exit", () => resolve()));
}

export async function startNodeProcess(o: NodeProcessOptions): Promise<NodeProcess> {
  const args = [
    ...NODE_FLAGS,
    HEARTH_MAIN,
    "node",
    "--kubeconfig",
    o.kubeconfig,
    "--data-dir",
    o.dataDir,
  ];
  // The host runtime: this bench measures the agent itself (criIdlePods measures containers).
  args.push("--runtime", "host", "--pod-cidr", o.podCidr, "--node-name", o.nodeName);
  const child = spawn(process.execPath, args, { stdio: ["ignore", "pipe", "pipe"] });
  let stderr = "";
  child.stderr!.on("data", (d) => {
    stderr = (stderr + d).slice(-20_000);
  });
  const stop = async (deadlineMs: number) => {
    if (exited(child)) return;
    child.kill("SIGTERM");
    const timer = setTimeout(() => child.kill("SIGKILL"), deadlineMs);
    await waitExit(child);
    clearTimeout(timer);
  };
  try {
    await readyLine(child, READY, "hearth node", o.readyTimeoutMs ?? 30_000, () => stderr);
  } catch (e) {
    await stop(5_000);
    throw e;
  }
  return { pid: child.pid!, stop };
}
