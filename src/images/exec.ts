/**
 * Runs one build tool (debootstrap, umoci, skopeo, chroot, gcc) to completion:
 * argv only, never a shell string of ours, stdout captured, stderr kept for the
 * error. A failure names the command and ends with the tool's own last words.
 */
import { spawn } from "node:child_process";

export interface RunOptions {
  cwd?: string;
  env?: NodeJS.ProcessEnv;
  signal?: AbortSignal;
  /** Written to the tool's stdin. */
  input?: string;
}

export class CommandError extends Error {
  constructor(
    readonly argv: readonly string[],
    readonly code: number | null,
    readonly stderr: string,
  ) {
    const tail = stderr.trim().split("\n").slice(-8).join("\n");
    super(`${argv.join(" ")} failed (exit ${code ?? "signal"})${tail ? `:\n${tail}` : ""}`);
    this.name = "CommandError";
  }
}

/** Runs `argv`; resolves with its stdout, rejects with a CommandError unless it exits 0. */
export function run(argv: readonly string[], opts: RunOptions = {}): Promise<string> {
  const [cmd, ...args] = argv;
  if (cmd === undefined) return Promise.reject(new Error("run: empty argv"));
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, {
      cwd: opts.cwd,
      env: opts.env ?? process.env,
      signal: opts.signal,
      stdio: [opts.input === undefined ? "ignore" : "pipe", "pipe", "pipe"],
    });
    const out: Buffer[] = [];
    let err = "";
    child.stdout!.on("data", (d: Buffer) => out.push(d));
    child.stderr!.on("data", (d: Buffer) => {
      err = (err + d.toString()).slice(-16_384);
    });
    child.on("error", (e) => reject(new Error(`cannot run ${cmd}: ${e.message}`, { cause: e })));
    child.on("close", (code) => {
      if (code === 0) resolve(Buffer.concat(out).toString());
      else reject(new CommandError(argv, code, err));
    });
    if (child.stdin) {
      child.stdin.on("error", () => {}); // a tool that exits without reading: its exit code tells
      child.stdin.end(opts.input);
    }
  });
}
