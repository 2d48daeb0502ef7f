/**
 * What a test's containerd may leave on the machine, found by what points at
 * the test's own directory: mounts under it (/proc/self/mountinfo) and
 * processes whose command line names its socket or config (containerd and
 * its shims). `removeLeftovers` undoes them — only those, never anything
 * found by name — so a failed test does not leak into the next.
 */
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { readdirSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";

/**
 * The socket a containerd 1.6 shim listens on, from its command line
 * (`-namespace NS -id ID -address SOCK`): /run/containerd/s/sha256(SOCK/NS/ID).
 * A SIGKILLed shim leaves it behind.
 */
export function shimSocket(cmdline: string[]): string | undefined {
  const arg = (flag: string) => cmdline[cmdline.indexOf(flag) + 1];
  const [ns, id, address] = [arg("-namespace"), arg("-id"), arg("-address")];
  if (!cmdline.includes("-id") || !ns || !id || !address) return undefined;
  const hash = createHash("sha256")
    .update(join(address, ns, id))
    .digest("hex");
  return `/run/containerd/s/${hash}`;
}

/** Mount points under `dir`, deepest first. */
export function mountsUnder(dir: string): string[] {
  const points = readFileSync("/proc/self/mountinfo", "utf8")
    .split("\n")
    .map((line) => line.split(" ")[4] ?? "")
    .map((p) => p.replace(/\\040/g, " "))
    .filter((p) => p === dir || p.startsWith(`${dir}/`));
  return points.sort((a, b) => b.length - a.length);
}

/** Pids of processes whose command line contains `needle` (a socket or config path). */
export function processesNaming(needle: string): number[] {
  const pids: number[] = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue;
    try {
      const cmdline = readFileSync(`/proc/${entry}/cmdline`, "utf8");
      const state = readFileSync(`/proc/${entry}/stat`, "utf8").split(") ")[1]?.[0];
      if (cmdline.includes(needle) && state !== "Z") pids.push(Number(entry));
    } catch {
      // gone meanwhile
    }
  }
  return pids;
}

/** SIGKILLs the processes naming `needles` and unmounts what is left under `dir`; returns what it found. */
export function removeLeftovers(dir: string, needles: string[]): string[] {
  const found: string[] = [];
  // The containers first, while their shims still hold them: every task under
  // the test's own state directory, by the cgroup containerd gave it.
  for (const pid of containerProcesses(dir)) {
    found.push(`container process ${pid}`);
    try {
      process.kill(pid, "SIGKILL");
    } catch {
      // gone meanwhile
    }
  }
  for (const needle of needles)
    for (const pid of processesNaming(needle)) {
      found.push(`process ${pid} (${needle})`);
      let socket: string | undefined;
      try {
        socket = shimSocket(readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0"));
        process.kill(pid, "SIGKILL");
      } catch {
        // gone meanwhile
      }
      if (socket) rmSync(socket, { force: true });
    }
  for (const point of mountsUnder(dir)) {
    found.push(`mount ${point}`);
    execFileSync("umount", ["-l", point]);
  }
  return found;
}

/**
 * The processes of every container task under `dir` (containerd's
 * `state/io.containerd.runtime.v2.task/<namespace>/<id>`), from the cgroup
 * CRI puts each in (`/<namespace>/<id>`, cgroupfs; v1 `pids` or v2).
 */
export function containerProcesses(dir: string): number[] {
  const pids: number[] = [];
  const ls = (d: string) => {
    try {
      return readdirSync(d);
    } catch {
      return [];
    }
  };
  const tasks = findDirs(dir, "io.containerd.runtime.v2.task");
  for (const t of tasks)
    for (const ns of ls(t))
      for (const id of ls(join(t, ns)))
        for (const root of [
          "/sys/fs/cgroup/pids",
          "/sys/fs/cgroup/memory",
          "/sys/fs/cgroup/unified",
          "/sys/fs/cgroup",
        ])
          try {
            const text = readFileSync(join(root, ns, id, "cgroup.procs"), "utf8");
            for (const line of text.split("\n")) if (line) pids.push(Number(line));
            break;
          } catch {
            // not this hierarchy
          }
  return [...new Set(pids)];
}

/** Directories named `name` up to four levels under `dir`. */
function findDirs(dir: string, name: string, depth = 4): string[] {
  if (depth < 0) return [];
  let entries: import("node:fs").Dirent[];
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return [];
  }
  const out: string[] = [];
  for (const e of entries) {
    if (!e.isDirectory()) continue;
    const p = join(dir, e.name);
    if (e.name === name) out.push(p);
    else out.push(...findDirs(p, name, depth - 1));
  }
  return out;
}
