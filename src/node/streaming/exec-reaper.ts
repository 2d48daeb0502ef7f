/**
 * Ends an exec'd process whose session went away before it did. containerd
 * 1.6's streaming server runs an exec without a context to cancel: when the
 * client's connection drops, the process would run on (kube's known leak).
 * CRI gives no pid or id for an exec, so the agent asks containerd's own
 * Tasks service (ListPids), which names each exec's process by its exec id —
 * and keeps naming it after the process replaces itself (`sh -c 'exec
 * sleep 1000'`: the pid, and so the id, survive an execve). The session's
 * exec is the one that was not there before the session's streams opened and
 * no other session has claimed; when several are new at once (another
 * session, an exec probe), the one running the session's command is it, and
 * otherwise the reaper waits for the others to end or be claimed. On the
 * session's early end the process, still listed under its exec id, and its
 * descendants get SIGKILL. A session that ends normally kills nothing.
 */
import { readdirSync, readFileSync } from "node:fs";
import type { ContainerProcess } from "../cri/index.js";

/** A container's live processes (containerd's ListPids). */
export type ContainerProcesses = (containerId: string) => Promise<ContainerProcess[]>;

/** `<container>/<exec id>` of every exec claimed by a live session, so that two sessions never take one. */
const claimed = new Set<string>();

/** The parent of `pid`, undefined once it is gone. */
function parentOf(pid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    // The command name is in parentheses and may hold spaces: fields follow its last ")".
    return Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
  } catch {
    return undefined;
  }
}

function argvOf(pid: number): string[] | undefined {
  try {
    const argv = readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0");
    if (argv.at(-1) === "") argv.pop();
    return argv;
  } catch {
    return undefined;
  }
}

/** `pid` and every process below it, deepest first. */
function tree(pid: number): number[] {
  const all = readdirSync("/proc")
    .filter((n) => /^\d+$/.test(n))
    .map((n) => ({ p: Number(n), ppid: parentOf(Number(n)) }));
  const out: number[] = [];
  const walk = (q: number) => {
    for (const c of all) if (c.ppid === q) walk(c.p);
    out.push(q);
  };
  walk(pid);
  return out;
}

export class ExecReaper {
  /** The exec ids listed before the session; undefined when the container could not be listed. */
  private before?: Set<string>;
  private execId?: string;

  constructor(
    private readonly processes: ContainerProcesses,
    private readonly containerId: string,
    private readonly cmd: string[],
  ) {}

  private list(): Promise<ContainerProcess[] | undefined> {
    return this.processes(this.containerId).catch(() => undefined);
  }

  /** Before the session's streams open (so before the process can start): the execs already there. */
  async prepare(): Promise<void> {
    const listed = await this.list();
    if (listed) this.before = new Set(listed.flatMap((p) => (p.execId ? [p.execId] : [])));
  }

  /** The session's exec id, once its process runs and can be told apart (claimed for this session). */
  async identify(): Promise<string | undefined> {
    if (this.execId !== undefined || this.before === undefined) return this.execId;
    const listed = (await this.list()) ?? [];
    if (this.execId !== undefined) return this.execId;
    const fresh = listed.filter(
      (p) => p.execId && !this.before!.has(p.execId) && !claimed.has(this.key(p.execId)),
    );
    const running = fresh.filter((p) => {
      const argv = argvOf(p.pid);
      return argv?.length === this.cmd.length && argv.every((a, i) => a === this.cmd[i]);
    });
    const mine = running[0] ?? (fresh.length === 1 ? fresh[0] : undefined);
    if (!mine) return undefined;
    claimed.add(this.key(mine.execId!));
    this.execId = mine.execId!;
    return this.execId;
  }

  private key(execId: string): string {
    return `${this.containerId}/${execId}`;
  }

  /** Looks for the exec while the session runs (cheap: every 200 ms until found). */
  watch(signal: AbortSignal): void {
    const tick = async () => {
      if (signal.aborted || (await this.identify()) !== undefined) return;
      setTimeout(tick, 200).unref();
    };
    void tick();
  }

  /** The session ended: with `early` (its client went away first) the process is killed. Never rejects. */
  async end(early: boolean): Promise<void> {
    let execId = await this.identify();
    // A client that went away at once may leave before its process is listed: look a little longer.
    for (let i = 0; early && execId === undefined && this.before && i < 10; i++) {
      await new Promise((r) => setTimeout(r, 200));
      execId = await this.identify();
    }
    if (execId === undefined) return;
    claimed.delete(this.key(execId));
    if (!early) return;
    // Listed again: the pid is the exec's still, not a number the kernel has since reused.
    const pid = (await this.list())?.find((p) => p.execId === execId)?.pid;
    if (pid === undefined) return;
    for (const p of tree(pid)) {
      try {
        process.kill(p, "SIGKILL");
      } catch {
        // Already gone.
      }
    }
  }
}
