/**
 * Ends an exec'd process whose session went away before it did. containerd
 * 1.6's streaming server runs an exec without a context to cancel: when the
 * client's connection drops, the process would run on (kube's known leak).
 * The runtime gives no pid for an exec, so the agent finds it: the container's
 * shim (the parent of its init, read from CRI's verbose status) is the parent
 * of every process runc execs in it; the exec's is the shim's child that was
 * not there before the session, runs the session's command, and no other
 * session has claimed. On the session's early end it and its descendants get
 * SIGKILL. A session that ends normally (the process exited) kills nothing.
 */
import { readdirSync, readFileSync } from "node:fs";

/** Finds the pid of a container's init process (CRI ContainerStatus, verbose). */
export type ContainerPid = (containerId: string) => Promise<number | undefined>;

/** Pids of the processes claimed by live sessions, so that two sessions never take one process. */
const claimed = new Set<number>();

/** ppid and argv of a process, undefined once it is gone. */
function proc(pid: number): { ppid: number; argv: string[] } | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    // The command name is in parentheses and may hold spaces: fields follow its last ")".
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    const argv = readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0");
    if (argv.at(-1) === "") argv.pop();
    return { ppid: Number(fields[1]), argv };
  } catch {
    return undefined;
  }
}

function pids(): number[] {
  return readdirSync("/proc")
    .filter((n) => /^\d+$/.test(n))
    .map(Number);
}

function childrenOf(parent: number): number[] {
  return pids().filter((p) => proc(p)?.ppid === parent);
}

/** `pid` and every process below it, deepest first. */
function tree(pid: number): number[] {
  const all = pids().map((p) => ({ p, ppid: proc(p)?.ppid }));
  const out: number[] = [];
  const walk = (q: number) => {
    for (const c of all) if (c.ppid === q) walk(c.p);
    out.push(q);
  };
  walk(pid);
  return out;
}

export class ExecReaper {
  private shim?: number;
  private before = new Set<number>();
  private pid?: number;

  constructor(
    private readonly containerPid: ContainerPid,
    private readonly containerId: string,
    private readonly cmd: string[],
  ) {}

  /** Before the session's streams open (so before the process can start): the shim's children. */
  async prepare(): Promise<void> {
    const init = await this.containerPid(this.containerId).catch(() => undefined);
    const shim = init !== undefined ? proc(init)?.ppid : undefined;
    if (shim === undefined) return;
    this.shim = shim;
    this.before = new Set(childrenOf(shim));
  }

  /** The session's process, once it runs (claimed for this session). */
  private find(): number | undefined {
    if (this.pid !== undefined || this.shim === undefined) return this.pid;
    for (const p of childrenOf(this.shim)) {
      if (this.before.has(p) || claimed.has(p)) continue;
      const argv = proc(p)?.argv;
      if (argv && argv.length === this.cmd.length && argv.every((a, i) => a === this.cmd[i])) {
        claimed.add(p);
        this.pid = p;
        return p;
      }
    }
    return undefined;
  }

  /** Looks for the process while the session runs (cheap: every 200 ms until found). */
  watch(signal: AbortSignal): void {
    const tick = () => {
      if (signal.aborted || this.find() !== undefined) return;
      setTimeout(tick, 200).unref();
    };
    tick();
  }

  /** The session ended: with `early` (its client went away first) the process is killed. */
  end(early: boolean): void {
    const pid = this.find();
    if (pid === undefined) return;
    claimed.delete(pid);
    if (!early) return;
    for (const p of tree(pid)) {
      try {
        process.kill(p, "SIGKILL");
      } catch {
        // Already gone.
      }
    }
  }
}
