/**
 * The node's own figures from /proc, as cadvisor's root container gives them
 * where there is no cgroup to read (cgroup v2 root): CPU time from the first
 * line of /proc/stat (every state but idle and iowait; guest time is already
 * in user), memory from /proc/meminfo (usage = MemTotal - MemFree, working set
 * = usage - Inactive(file), available = MemTotal - working set), page faults
 * from /proc/vmstat, and the boot time (the node's `startTime`). The parsers
 * are pure so tests can feed them text.
 */
import { readFileSync } from "node:fs";
import type { CpuSample, MemorySample } from "./usage.js";

/** Clock ticks per second of /proc/stat (USER_HZ, 100 on every Linux architecture Node runs on). */
const USER_HZ = 100;

export interface NodeUsage {
  /** Boot time, ns since the epoch. */
  startTimeNs: number;
  cpu: CpuSample;
  memory: MemorySample & { availableBytes: number };
}

/** CPU time in core-nanoseconds and the boot time (ns since the epoch) from /proc/stat. */
export function parseProcStat(text: string): { usageCoreNanoSeconds: number; bootTimeNs: number } {
  const cpu = /^cpu\s+(.*)$/m.exec(text)?.[1]?.trim().split(/\s+/).map(Number);
  if (!cpu || cpu.length < 4 || cpu.some((n) => !Number.isFinite(n)))
    throw new Error("/proc/stat has no cpu line");
  const [user = 0, nice = 0, system = 0, , , irq = 0, softirq = 0, steal = 0] = cpu;
  const ticks = user + nice + system + irq + softirq + steal;
  const btime = Number(/^btime\s+(\d+)$/m.exec(text)?.[1] ?? 0);
  return { usageCoreNanoSeconds: (ticks * 1e9) / USER_HZ, bootTimeNs: btime * 1e9 };
}

function fields(text: string, unit: number): Map<string, number> {
  const out = new Map<string, number>();
  for (const line of text.split("\n")) {
    const m = /^([^:\s]+):?\s+(\d+)/.exec(line);
    if (m) out.set(m[1]!, Number(m[2]) * unit);
  }
  return out;
}

/** The node's memory figures from /proc/meminfo (kB) and /proc/vmstat (counts). */
export function parseMemInfo(meminfo: string, vmstat: string): Omit<NodeUsage["memory"], "timeNs"> {
  const kb = fields(meminfo, 1024);
  const total = kb.get("MemTotal");
  const free = kb.get("MemFree");
  if (total === undefined || free === undefined)
    throw new Error("/proc/meminfo has no MemTotal or MemFree");
  const usage = total - free;
  const workingSet = Math.max(0, usage - (kb.get("Inactive(file)") ?? 0));
  const vm = fields(vmstat, 1);
  return {
    availableBytes: total - workingSet,
    usageBytes: usage,
    workingSetBytes: workingSet,
    ...(kb.has("AnonPages") ? { rssBytes: kb.get("AnonPages")! } : {}),
    ...(vm.has("pgfault") ? { pageFaults: vm.get("pgfault")! } : {}),
    ...(vm.has("pgmajfault") ? { majorPageFaults: vm.get("pgmajfault")! } : {}),
  };
}

/** Reads the node's figures now. */
export function readNodeUsage(proc = "/proc"): NodeUsage {
  const timeNs = Date.now() * 1e6;
  const stat = parseProcStat(readFileSync(`${proc}/stat`, "utf8"));
  const memory = parseMemInfo(
    readFileSync(`${proc}/meminfo`, "utf8"),
    readFileSync(`${proc}/vmstat`, "utf8"),
  );
  return {
    startTimeNs: stat.bootTimeNs,
    cpu: { timeNs, usageCoreNanoSeconds: stat.usageCoreNanoSeconds },
    memory: { timeNs, ...memory },
  };
}
