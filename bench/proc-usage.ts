/**
 * CPU and memory of one process from /proc: CPU time is utime + stime of
 * `/proc/<pid>/stat` (the process's own threads, not its children), in clock
 * ticks; resident memory is VmRSS of `/proc/<pid>/status`. `measureProcess`
 * samples a window: CPU as a percentage of one core over its wall time, RSS
 * once a second (the median sample, steadier across garbage collections than
 * any one, and the largest). `measureProcesses` takes the same window over
 * groups of processes at once (containerd's shims), each summed.
 */
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { loadavg } from "node:os";
import { setTimeout as sleep } from "node:timers/promises";
import { median, round } from "./stats.js";

export interface ProcessWindow {
  windowMs: number;
  /** CPU time over the window ÷ its wall time, in percent of one core. */
  cpuPercent: number;
  cpuMs: number;
  /** Median VmRSS of the samples, MB (10^6 bytes). */
  rssMB: number;
  rssMaxMB: number;
  /** The machine's 1-minute load average at the window's start and end: other work skews it. */
  loadAverage: [number, number];
}

let ticksPerSecond: number | undefined;

function clockTicks(): number {
  ticksPerSecond ??= Number(execFileSync("getconf", ["CLK_TCK"], { encoding: "utf8" }).trim());
  return ticksPerSecond;
}

/** utime + stime of `pid`, in ms. */
export function cpuTimeMs(pid: number): number {
  const text = readFileSync(`/proc/${pid}/stat`, "utf8");
  // Fields after the command name (which may hold spaces): field n is rest[n - 3].
  const rest = text.slice(text.lastIndexOf(")") + 2).split(" ");
  return ((Number(rest[11]) + Number(rest[12])) * 1000) / clockTicks();
}

/** VmRSS of `pid`, in bytes. */
export function rssBytes(pid: number): number {
  const m = /^VmRSS:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
  if (!m) throw new Error(`no VmRSS for process ${pid}`);
  return Number(m[1]) * 1024;
}

/** Proportional set size (Pss of `/proc/<pid>/smaps_rollup`) of `pid`, in bytes. */
export function pssBytes(pid: number): number {
  const m = /^Pss:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/smaps_rollup`, "utf8"));
  if (!m) throw new Error(`no Pss for process ${pid}`);
  return Number(m[1]) * 1024;
}

/** A window over several processes together (containerd's shims): sums of each sample. */
export interface GroupWindow extends ProcessWindow {
  processes: number;
  /**
   * Median sum of Pss, MB: RSS summed over processes that share pages (one
   * binary's text, libraries) counts the shared ones once per process; Pss
   * divides each page among its sharers, so the sum is what they use together.
   */
  pssMB: number;
}

/** `read(pid)`, or undefined once the process is gone. */
function tryRead(read: (pid: number) => number, pid: number): number | undefined {
  try {
    return read(pid);
  } catch {
    return undefined;
  }
}

const sumOf = (pids: number[], read: (pid: number) => number) =>
  pids.reduce((n, pid) => n + (tryRead(read, pid) ?? 0), 0);

/**
 * One window over every group of `groups` at once: each group's CPU time (the
 * sum of its processes') over the wall time, and its RSS and Pss summed per
 * 1 s sample. A process that exits within the window counts up to its last
 * reading.
 */
export async function measureProcesses<K extends string>(
  groups: Record<K, number[]>,
  windowMs: number,
): Promise<Record<K, GroupWindow>> {
  const names = Object.keys(groups) as K[];
  const load0 = loadavg()[0]!;
  const cpu0 = new Map(names.flatMap((n) => groups[n].map((pid) => [pid, cpuTimeMs(pid)])));
  const start = performance.now();
  const sample = () =>
    names.map((n) => ({ rss: sumOf(groups[n], rssBytes), pss: sumOf(groups[n], pssBytes) }));
  const samples = [sample()];
  while (performance.now() - start < windowMs) {
    await sleep(Math.min(1000, windowMs - (performance.now() - start)));
    samples.push(sample());
  }
  const cpuEnd = (pid: number) => tryRead(cpuTimeMs, pid) ?? cpu0.get(pid)!;
  const wallMs = performance.now() - start;
  const load1 = loadavg()[0]!;
  const out = {} as Record<K, GroupWindow>;
  names.forEach((n, i) => {
    const cpuMs = groups[n].reduce((t, pid) => t + cpuEnd(pid) - cpu0.get(pid)!, 0);
    const rss = samples.map((s) => s[i]!.rss);
    out[n] = {
      processes: groups[n].length,
      windowMs: round(wallMs, 0),
      cpuPercent: round((cpuMs / wallMs) * 100, 2),
      cpuMs: round(cpuMs, 0),
      rssMB: round(median(rss) / 1e6, 1),
      rssMaxMB: round(Math.max(...rss) / 1e6, 1),
      pssMB: round(median(samples.map((s) => s[i]!.pss)) / 1e6, 1),
      loadAverage: [round(load0, 2), round(load1, 2)],
    };
  });
  return out;
}

export async function measureProcess(pid: number, windowMs: number): Promise<ProcessWindow> {
  const { one } = await measureProcesses({ one: [pid] }, windowMs);
  const { processes: _, pssMB: __, ...window } = one;
  return window;
}
