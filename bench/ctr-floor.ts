/**
 * The floor of a container's start: the same image run by hand with `ctr`
 * against the same containerd (`ctr --address SOCK -n k8s.io run -d
 * --net-host --seccomp …`), no apiserver, scheduler, agent, sandbox or CNI —
 * timed from just before `ctr run` to the same readiness signal: the task
 * started (`ctr run -d` returns once it has), or its port (on the host's
 * network: a loopback address of its own) accepting a TCP connection, tried every few milliseconds. Like a CRI
 * container it gets the runtime's default seccomp profile, its output in a
 * log file and runc's state under the data directory. `stop()` kills and
 * deletes the task and removes the container with its snapshot.
 */
import { spawn } from "node:child_process";
import { setTimeout as sleep } from "node:timers/promises";
import { run } from "../test/support/hearth-process.js";
import type { ContainerdLayout } from "./cri-hearth.js";
import { type FloorRun, PORT_POLL_MS, tcpAccepts } from "./floor-process.js";

export interface CtrContainer {
  /** A fully qualified image reference, already pulled into k8s.io (`docker.io/library/busybox:1.35`). */
  image: string;
  id: string;
  argv: string[];
  /** Where the container's stdout and stderr go. */
  logFile: string;
}

function ctr(layout: ContainerdLayout, args: string[]) {
  return ["--address", layout.socket, "--namespace", "k8s.io", ...args];
}

async function ctrOk(layout: ContainerdLayout, args: string[]): Promise<void> {
  const r = await run("ctr", ctr(layout, args), { timeoutMs: 60_000 });
  if (r.code !== 0) throw new Error(`ctr ${args.join(" ")} exited ${r.code}: ${r.stderr.trim()}`);
}

/** `ctr run -d`; resolves when it exits (the task started), throws on a non-zero exit. */
function ctrRun(layout: ContainerdLayout, c: CtrContainer): Promise<void> {
  const args = ctr(layout, [
    "run",
    "--detach",
    "--net-host",
    "--seccomp",
    "--runc-root",
    layout.runcRoot,
    "--log-uri",
    `file://${c.logFile}`,
    c.image,
    c.id,
    ...c.argv,
  ]);
  return new Promise((resolve, reject) => {
    const child = spawn("ctr", args, { stdio: ["ignore", "ignore", "pipe"] });
    let stderr = "";
    child.stderr!.on("data", (d) => (stderr += d));
    child.once("error", reject);
    child.once("close", (code) =>
      code === 0
        ? resolve()
        : reject(new Error(`ctr run ${c.id} exited ${code}: ${stderr.trim()}`)),
    );
  });
}

async function remove(layout: ContainerdLayout, id: string): Promise<void> {
  await ctrOk(layout, ["task", "delete", "--force", id]).catch(() => {});
  await ctrOk(layout, ["container", "delete", id]).catch(() => {});
}

/**
 * Runs `c` and waits for its task to start and, with `port`, for it to
 * accept a connection; throws (after removing it) if that
 * takes over `deadlineMs` or `ctr run` fails.
 */
export async function startCtrFloor(
  layout: ContainerdLayout,
  c: CtrContainer,
  deadlineMs: number,
  port?: { host: string; port: number },
): Promise<FloorRun> {
  const start = performance.now();
  let failed: unknown;
  const running = ctrRun(layout, c).catch((e: unknown) => {
    failed = e;
  });
  const stop = () => remove(layout, c.id);
  try {
    if (port === undefined) await running;
    else
      while (!(await tcpAccepts(port.host, port.port))) {
        if (failed) break;
        if (performance.now() - start > deadlineMs)
          throw new Error(`${c.id} did not accept connections within ${deadlineMs} ms`);
        await sleep(PORT_POLL_MS);
      }
    const readyMs = performance.now() - start;
    // The port may answer a moment before ctr has returned: the run counts only if it succeeds.
    await running;
    if (failed) throw failed;
    return { readyMs, stop };
  } catch (e) {
    await running;
    await stop();
    throw e;
  }
}
