/**
 * When each part of a container's log was written, for `kubectl logs
 * --timestamps` and `--since`. The container writes its log file directly (no
 * pipe through the agent), so the agent samples the file's size on every poll
 * and appends `<size> <time>` to `<attempt>.idx` when it grew: a line's time is
 * the first sample that covers its end, i.e. when the agent saw it, within one
 * poll interval (later for lines written while no agent ran).
 */
import { appendFileSync, readFileSync, statSync } from "node:fs";

export interface Sample {
  size: number;
  time: string;
}

export function indexFile(logFile: string): string {
  return logFile.replace(/\.log$/, ".idx");
}

/** Records the log's size if it grew since `lastSize`; returns the size now. */
export function sampleLog(logFile: string, lastSize: number, now = new Date()): number {
  let size: number;
  try {
    size = statSync(logFile).size;
  } catch {
    return lastSize;
  }
  if (size > lastSize) appendFileSync(indexFile(logFile), `${size} ${now.toISOString()}\n`);
  return size;
}

export function readIndex(logFile: string): Sample[] {
  try {
    return readFileSync(indexFile(logFile), "utf8")
      .split("\n")
      .filter((l) => l !== "")
      .map((l) => {
        const [size, time] = l.split(" ");
        return { size: Number(size), time: time ?? "" };
      });
  } catch {
    return [];
  }
}

/** The time a line ending at byte `end` was seen; `fallback` when no sample covers it yet. */
export function timeOf(samples: Sample[], end: number, fallback: string): string {
  let lo = 0;
  let hi = samples.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (samples[mid]!.size >= end) hi = mid;
    else lo = mid + 1;
  }
  return samples[lo]?.time ?? fallback;
}
