/**
 * What Hearth knows about a process from `/proc` (containerd's, the
 * registry's, a container's init in tests). A pid alone is not an identity
 * (pids are reused): a process is "the same" when `/proc/<pid>/stat` shows
 * the same start time (field 22, clock ticks since boot) as recorded when it
 * started. A zombie is not running.
 */
import { readFileSync } from "node:fs";

export interface ProcStat {
  pid: number;
  state: string;
  ppid: number;
  pgid: number;
  /** Start time in clock ticks after boot: with the pid, the process's identity. */
  startTicks: number;
}

/** Parses `/proc/<pid>/stat`; the command name may hold spaces and parentheses. */
export function parseStat(text: string): ProcStat | undefined {
  const close = text.lastIndexOf(")");
  if (close < 0) return undefined;
  const pid = Number(text.slice(0, text.indexOf(" ")));
  const rest = text
    .slice(close + 2)
    .trim()
    .split(/\s+/);
  // rest[0] is field 3 (state); field n is rest[n - 3].
  const startTicks = Number(rest[19]);
  if (!Number.isFinite(pid) || !Number.isFinite(startTicks)) return undefined;
  return { pid, state: rest[0]!, ppid: Number(rest[1]), pgid: Number(rest[2]), startTicks };
}

export function readStat(pid: number): ProcStat | undefined {
  try {
    return parseStat(readFileSync(`/proc/${pid}/stat`, "utf8"));
  } catch {
    return undefined;
  }
}

/** True when `pid` is a live process (not a zombie) and, if given, started at `startTicks`. */
export function isRunning(pid: number | undefined, startTicks?: number): boolean {
  if (!pid) return false;
  const st = readStat(pid);
  if (!st || st.state === "Z" || st.state === "X") return false;
  return startTicks === undefined || st.startTicks === startTicks;
}

/** Signals a process group; false when it no longer exists. */
export function signalGroup(pgid: number, signal: NodeJS.Signals): boolean {
  try {
    process.kill(-pgid, signal);
    return true;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "ESRCH") return false;
    throw e;
  }
}
