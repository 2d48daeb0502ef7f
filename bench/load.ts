/**
 * Load generators. `closedLoop`: N workers, each issuing its next operation as soon
 * as the previous one finished, until a fixed count is done — throughput at a given
 * concurrency. `openLoop`: operations started on a fixed schedule whatever the
 * replies do; latency counts from the scheduled start, so a stall shows up in the
 * percentiles instead of silently lowering the rate (no coordinated omission).
 * An operation reports failure by throwing; the first few messages are kept.
 * `cpuMsPerOp` is the CPU time of the whole process (every thread: load generator
 * and server) per operation; other work competing for the cores moves it less
 * than it moves the rate.
 */
import { setTimeout as sleep } from "node:timers/promises";
import { type LatencySummary, round, summarize } from "./stats.js";

export type Operation = (i: number) => Promise<void>;

export interface LoadResult {
  count: number;
  errors: number;
  /** Up to three distinct error messages, to see what failed. */
  errorSamples: string[];
  elapsedMs: number;
  opsPerSec: number;
  cpuMsPerOp: number;
  latencyMs: LatencySummary;
}

class Tally {
  readonly latencies: Float64Array;
  errors = 0;
  readonly errorSamples: string[] = [];
  readonly #cpu = process.cpuUsage();

  constructor(count: number) {
    this.latencies = new Float64Array(count);
  }

  async time(op: Operation, i: number, start: number): Promise<void> {
    try {
      await op(i);
    } catch (e) {
      this.errors++;
      const msg = e instanceof Error ? e.message : String(e);
      if (this.errorSamples.length < 3 && !this.errorSamples.includes(msg))
        this.errorSamples.push(msg);
    }
    this.latencies[i] = performance.now() - start;
  }

  result(elapsedMs: number): LoadResult {
    const count = this.latencies.length;
    const cpu = process.cpuUsage(this.#cpu);
    return {
      count,
      errors: this.errors,
      errorSamples: this.errorSamples,
      elapsedMs: round(elapsedMs, 1),
      opsPerSec: round((count / elapsedMs) * 1000, 1),
      cpuMsPerOp: round((cpu.user + cpu.system) / 1000 / count, 4),
      latencyMs: summarize(this.latencies),
    };
  }
}

/** Runs `count` operations on `concurrency` closed-loop workers. */
export async function closedLoop(
  concurrency: number,
  count: number,
  op: Operation,
): Promise<LoadResult> {
  const tally = new Tally(count);
  let next = 0;
  const worker = async () => {
    for (let i = next++; i < count; i = next++) await tally.time(op, i, performance.now());
  };
  const start = performance.now();
  await Promise.all(Array.from({ length: concurrency }, worker));
  return tally.result(performance.now() - start);
}

export interface OpenLoopResult extends LoadResult {
  targetRate: number;
}

/** Starts `rate` operations per second for `durationMs`, then waits for them all. */
export async function openLoop(
  rate: number,
  durationMs: number,
  op: Operation,
): Promise<OpenLoopResult> {
  const count = Math.round((rate * durationMs) / 1000);
  const tally = new Tally(count);
  const inFlight: Promise<void>[] = [];
  const start = performance.now();
  for (let i = 0; i < count; i++) {
    const due = start + (i * 1000) / rate;
    const wait = due - performance.now();
    if (wait >= 1) await sleep(wait);
    inFlight.push(tally.time(op, i, due));
  }
  await Promise.all(inFlight);
  return { ...tally.result(performance.now() - start), targetRate: rate };
}
