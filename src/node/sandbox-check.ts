/**
 * Refuses to run pods without the sandbox: before the agent starts, it runs
 * `true` in a sandbox built exactly as a pod's is. A missing `bwrap`, or one
 * the kernel will not let create namespaces, stops the agent with a message
 * saying so (never a silent fallback to unsandboxed processes).
 */
import { spawn } from "node:child_process";
import { type HostLayout, sandboxArgs } from "./sandbox.js";

export async function checkSandbox(bwrap: string, layout: HostLayout): Promise<void> {
  const args = sandboxArgs(
    {
      command: ["true"],
      hostname: "hearth-check",
      workingDir: "/",
      mounts: [],
      dieWithParent: true,
    },
    layout,
  );
  const result = await new Promise<{
    code: number | null;
    stderr: string;
    error?: NodeJS.ErrnoException;
  }>((resolve) => {
    const child = spawn(bwrap, args, { stdio: ["ignore", "ignore", "pipe"] });
    let stderr = "";
    child.stderr.on("data", (d) => (stderr += d));
    child.once("error", (error: NodeJS.ErrnoException) => resolve({ code: null, stderr, error }));
    child.once("close", (code) => resolve({ code, stderr }));
  });
  if (result.error?.code === "ENOENT")
    throw new Error(
      `the node agent needs bubblewrap, and ${JSON.stringify(bwrap)} is not installed: install the Debian package "bubblewrap" (./hearth does so when run as root), or run without the node agent`,
    );
  if (result.error) throw new Error(`cannot run ${bwrap}: ${result.error.message}`);
  if (result.code !== 0)
    throw new Error(
      `bubblewrap cannot create a pod sandbox on this machine (exit ${result.code}): ${result.stderr.trim() || "no message"}; pods will not run without it`,
    );
}
