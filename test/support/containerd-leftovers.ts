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
