/**
 * CPU and memory of one process from /proc: CPU time is utime + stime of
 * `/proc/<pid>/stat` (the process's own threads, not its children), in clock
 * ticks; resident memory is VmRSS of `/proc/<pid>/status`. `measureProcess`
 * samples a window: CPU as a percentage of one core over its wall time, RSS
 * once a second (the median sample, steadier across garbage collections than
 * any one, and the largest).
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

export async function measureProcess(pid: number, windowMs: number): Promise<ProcessWindow> {
  const load0 = loadavg()[0]!;
  const cpu0 = cpuTimeMs(pid);
  const start = performance.now();
  const rss = [rssBytes(pid)];
  while (performance.now() - start < windowMs) {
    await sleep(Math.min(1000, windowMs - (performance.now() - start)));
    rss.push(rssBytes(pid));
  }
  const cpuMs = cpuTimeMs(pid) - cpu0;
  const wallMs = performance.now() - start;
  return {
    windowMs: round(wallMs, 0),
    cpuPercent: round((cpuMs / wallMs) * 100, 2),
    cpuMs: round(cpuMs, 0),
    rssMB: round(median(rss) / 1e6, 1),
    rssMaxMB: round(Math.max(...rss) / 1e6, 1),
    loadAverage: [round(load0, 2), round(loadavg()[0]!, 2)],
  };
}
