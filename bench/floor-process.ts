/**
 * The floor of pod start-up: the pod's command started directly with
 * `child_process.spawn` (no apiserver, scheduler, agent or sandbox), timed to
 * the same readiness signal — the process running (the `spawn` event), or its
 * port accepting TCP connections, tried every few milliseconds. The process is
 * spawned in its own session and its group is ended afterwards.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import { connect } from "node:net";
import { setTimeout as sleep } from "node:timers/promises";

/** How often the floor tries the port: finer than any probe period. */
export const PORT_POLL_MS = 5;

export interface FloorRun {
  /** ms from just before spawn to the readiness signal. */
  readyMs: number;
  /** Ends the process group and waits for the process to exit. */
  stop(): Promise<void>;
}

export function tcpAccepts(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host, port });
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.once("connect", () => done(true));
    socket.once("error", () => done(false));
    socket.setTimeout(1000, () => done(false));
  });
}

function stopper(child: ChildProcess): () => Promise<void> {
  return async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exit = once(child, "exit");
    const timer = setTimeout(() => signal(child, "SIGKILL"), 10_000);
    signal(child, "SIGTERM");
    await exit;
    clearTimeout(timer);
  };
}

function signal(child: ChildProcess, sig: NodeJS.Signals): void {
  try {
    process.kill(-child.pid!, sig);
  } catch {
    // the group is already gone
  }
}

/**
 * Spawns `argv` and waits for it to run and, with `port`, for `host:port` to
 * accept a connection; throws (after ending it) if that takes over `deadlineMs`
 * or the process exits first.
 */
export async function startFloor(
  argv: string[],
  deadlineMs: number,
  port?: { host: string; port: number },
): Promise<FloorRun> {
  const start = performance.now();
  const child = spawn(argv[0]!, argv.slice(1), { stdio: "ignore", detached: true });
  const stop = stopper(child);
  try {
    await once(child, "spawn");
    while (port && !(await tcpAccepts(port.host, port.port))) {
      if (child.exitCode !== null || child.signalCode !== null)
        throw new Error(
          `${argv[0]} exited (${child.exitCode ?? child.signalCode}) before listening`,
        );
      if (performance.now() - start > deadlineMs)
        throw new Error(`${argv[0]} did not accept connections within ${deadlineMs} ms`);
      await sleep(PORT_POLL_MS);
    }
    return { readyMs: performance.now() - start, stop };
  } catch (e) {
    await stop();
    throw e;
  }
}
