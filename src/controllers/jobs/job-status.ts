/**
 * Job status arithmetic: moving uncounted pods whose finalizer is gone into the
 * `succeeded`/`failed` counters (kube's cleanUncountedPodsWithoutFinalizers),
 * the gauges `active`, `ready`, `terminating`, and kube's JSON shape (zero
 * counters omitted, `ready`/`terminating` always present, `uncountedTerminatedPods`
 * an object). Also a key-order-blind comparison, to write only real changes.
 */
import type { JobStatus } from "../../api/index.js";

export interface PodCounts {
  active: number;
  ready: number;
  terminating: number;
}

/** A copy of `status` with uncounted uids not in `held` counted, and the gauges set. */
export function withCounters(status: JobStatus, counts: PodCounts, held: Set<string>): JobStatus {
  const next: JobStatus = structuredClone(status);
  const uncounted = next.uncountedTerminatedPods ?? {};
  const still = (uids: string[] | undefined) => (uids ?? []).filter((u) => held.has(u));
  const succeeded = still(uncounted.succeeded);
  const failed = still(uncounted.failed);
  const total = {
    succeeded: (next.succeeded ?? 0) + (uncounted.succeeded?.length ?? 0) - succeeded.length,
    failed: (next.failed ?? 0) + (uncounted.failed?.length ?? 0) - failed.length,
  };
  next.uncountedTerminatedPods = {
    ...(succeeded.length > 0 ? { succeeded } : {}),
    ...(failed.length > 0 ? { failed } : {}),
  };
  delete next.succeeded;
  delete next.failed;
  delete next.active;
  if (total.succeeded > 0) next.succeeded = total.succeeded;
  if (total.failed > 0) next.failed = total.failed;
  if (counts.active > 0) next.active = counts.active;
  next.ready = Math.max(0, counts.ready);
  next.terminating = Math.max(0, counts.terminating);
  return next;
}

function canonical(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(canonical);
  if (v && typeof v === "object")
    return Object.fromEntries(
      Object.entries(v)
        .filter(([, x]) => x !== undefined)
        .sort(([a], [b]) => (a < b ? -1 : 1))
        .map(([k, x]) => [k, canonical(x)]),
    );
  return v;
}

/** True when the two statuses differ other than in key order or an empty `conditions`. */
export function statusChanged(before: object | undefined, after: object): boolean {
  const norm = (s: object | undefined) => {
    const c: Record<string, unknown> = { ...(s ?? {}) };
    if (Array.isArray(c.conditions) && c.conditions.length === 0) delete c.conditions;
    return JSON.stringify(canonical(c));
  };
  return norm(before) !== norm(after);
}
