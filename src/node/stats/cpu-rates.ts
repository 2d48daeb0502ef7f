/**
 * `usageNanoCores` from two samples of a cumulative CPU counter, kept per
 * series (a container run's id, "node") as the kubelet's CRI stats provider
 * keeps its `cpuUsageCache`: a sample taken with `update` replaces the
 * previous one and yields the rate over the interval between them; one
 * taken without (the /metrics/resource path, which needs no rate) reads the
 * last rate computed and changes nothing, so a Prometheus scrape cannot
 * shorten the interval metrics-server's summary reads measure. The first
 * sample of a series, a counter that went backwards (a reset), or an
 * interval that is not positive gives no rate yet.
 */
import type { CpuSample } from "./usage.js";

interface Cached {
  sample: CpuSample;
  nanoCores?: number;
}

export class CpuRates {
  private readonly cache = new Map<string, Cached>();

  /** The rate of `key` in nanocores, or undefined when it cannot be known yet. */
  rate(key: string, sample: CpuSample, update: boolean): number | undefined {
    const cached = this.cache.get(key);
    if (!update) return cached?.nanoCores;
    if (!cached || sample.usageCoreNanoSeconds < cached.sample.usageCoreNanoSeconds) {
      this.cache.set(key, { sample });
      return undefined;
    }
    const interval = sample.timeNs - cached.sample.timeNs;
    // The same sample read twice (a runtime that caches its figures): keep the rate known.
    if (interval <= 0) return cached.nanoCores;
    const used = sample.usageCoreNanoSeconds - cached.sample.usageCoreNanoSeconds;
    const nanoCores = Math.round((used / interval) * 1e9);
    this.cache.set(key, { sample, nanoCores });
    return nanoCores;
  }

  /** Forgets every series not in `live` (containers that are gone). */
  retain(live: Set<string>): void {
    for (const key of this.cache.keys()) if (!live.has(key)) this.cache.delete(key);
  }
}
