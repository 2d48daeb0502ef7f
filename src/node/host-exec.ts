/**
 * An exec probe's command for a host-process pod: a fresh bubblewrap sandbox
 * built like the container's (same mounts, env, hostname and working
 * directory) that dies with the agent, killed (its whole session) when the
 * timeout passes.
 */
import { spawn } from "node:child_process";
import type { ProbeResult } from "./probes.js";
import { signalGroup } from "./proc.js";
import { type HostLayout, type Mount, sandboxArgs } from "./sandbox.js";

export interface ExecSandbox {
  env: ReadonlyMap<string, string>;
  mounts: Mount[];
  hostname: string;
  workingDir: string;
}

export function execInSandbox(
  command: string[],
  sandbox: ExecSandbox,
  layout: HostLayout,
  bwrap: string,
  timeoutMs: number,
): Promise<ProbeResult> {
  return new Promise((resolve) => {
    const args = sandboxArgs({ command, dieWithParent: true, ...sandbox }, layout);
    const child = spawn(bwrap, args, {
      detached: true,
      stdio: ["ignore", "pipe", "pipe"],
      env: Object.fromEntries(sandbox.env),
    });
    let output = "";
    const collect = (d: Buffer) => {
      if (output.length < 10_240) output += d.toString("utf8");
    };
    child.stdout.on("data", collect);
    child.stderr.on("data", collect);
    const timer = setTimeout(() => {
      if (child.pid) signalGroup(child.pid, "SIGKILL");
    }, timeoutMs);
    child.once("error", (e) => {
      clearTimeout(timer);
      resolve({ ok: false, message: e.message });
    });
    child.once("close", (code, signal) => {
      clearTimeout(timer);
      if (signal) resolve({ ok: false, message: `command timed out after ${timeoutMs / 1000}s` });
      else
        resolve({
          ok: code === 0,
          message: output.trim() || (code === 0 ? "" : `command exited with ${code}`),
        });
    });
  });
}
