/**
 * Periodic compaction, as kube-apiserver drives it for etcd: every interval, drop
 * history older than the newest `retain` revisions. Watches resuming from before
 * that get 410 Expired and relist.
 */
import type { Backend } from "../storage/index.js";

export interface CompactorOptions {
  intervalMs: number;
  retain: number;
  log?: (msg: string, err?: unknown) => void;
}

export async function compactOnce(backend: Backend, retain: number): Promise<number | undefined> {
  const current = await backend.currentRevision();
  const target = current - retain;
  if (target <= (await backend.compactedRevision())) return undefined;
  await backend.compact(target);
  return target;
}

/** Runs until `signal` aborts; never throws. */
export function startCompactor(
  backend: Backend,
  opts: CompactorOptions,
  signal: AbortSignal,
): void {
  if (opts.intervalMs <= 0) return;
  const timer = setInterval(() => {
    compactOnce(backend, opts.retain).catch((e) => opts.log?.("compaction failed", e));
  }, opts.intervalMs);
  timer.unref();
  signal.addEventListener("abort", () => clearInterval(timer), { once: true });
}
