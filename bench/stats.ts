/**
 * Latency summaries for the benchmarks: percentiles by nearest rank over every
 * sample (no histogram buckets, the sample counts are small), in milliseconds
 * rounded to microseconds so the JSON stays readable.
 */

export interface LatencySummary {
  count: number;
  p50: number;
  p90: number;
  p99: number;
  mean: number;
  max: number;
}

export function round(n: number, digits = 3): number {
  const f = 10 ** digits;
  return Math.round(n * f) / f;
}

/** Nearest-rank percentile of ascending `sorted`; 0 for no samples. */
export function percentile(sorted: ArrayLike<number>, p: number): number {
  if (sorted.length === 0) return 0;
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1]!;
}

export function summarize(samples: ArrayLike<number>): LatencySummary {
  const sorted = Float64Array.from(samples).sort();
  let sum = 0;
  for (const v of sorted) sum += v;
  return {
    count: sorted.length,
    p50: round(percentile(sorted, 50)),
    p90: round(percentile(sorted, 90)),
    p99: round(percentile(sorted, 99)),
    mean: round(sorted.length ? sum / sorted.length : 0),
    max: round(sorted.length ? sorted[sorted.length - 1]! : 0),
  };
}

export function median(values: number[]): number {
  return percentile(
    [...values].sort((a, b) => a - b),
    50,
  );
}

/** min, median and max of a few repetitions' values. */
export interface Range {
  min: number;
  median: number;
  max: number;
}

export const range = (values: number[]): Range => ({
  min: round(Math.min(...values)),
  median: round(median(values)),
  max: round(Math.max(...values)),
});
