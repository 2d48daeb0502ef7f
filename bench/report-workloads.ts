/**
 * The report of (i) reconcile throughput (its ratios to the floors and
 * summary lines), and the pod start lines and ratios the container groups'
 * report (report-cri.ts) prints.
 */
import type { KindResult } from "./pod-start-timing.js";
import type { DeploymentStartResult } from "./scenarios/deployment-start.js";
import type { Rate, ReconcileResult } from "./scenarios/reconcile-throughput.js";
import { round } from "./stats.js";

export interface WorkloadResults {
  reconcileThroughput?: ReconcileResult;
  deploymentStart?: DeploymentStartResult;
}

const KINDS = ["trivial", "etcd"] as const;

const over = (a: number, b: number) => (b > 0 ? round(a / b, 3) : 0);

export function startRatio(k: KindResult) {
  const h = k.hearth.latencyMs;
  const f = k.floor.latencyMs;
  return { p50: over(h.p50, f.p50), p90: over(h.p90, f.p90) };
}

export function workloadRatios(r: WorkloadResults) {
  const rt = r.reconcileThroughput;
  const d = r.deploymentStart;
  return {
    ...(d && !("skipped" in d) && d.deploymentReadyMs > 0 && d.directReadyMs > 0
      ? {
          /** Deployment to all Ready ÷ the same pods POSTed directly (1 = no overhead). */
          deploymentStartToFloor: over(d.deploymentReadyMs, d.directReadyMs),
        }
      : {}),
    ...(rt
      ? {
          /** Runtime keys/s ÷ floor keys/s (1 = no overhead). */
          reconcileToFloor: {
            ...Object.fromEntries(
              rt.queue.map((q) => [`queueW${q.workers}`, over(q.keysPerSec, rt.floor.keysPerSec)]),
            ),
            informer: over(rt.informer.keysPerSec, rt.listFloor.keysPerSec),
          },
        }
      : {}),
  };
}

const ms = (n: number) => n.toFixed(1).padStart(9);

export function podStartLines(
  p: { trivial: KindResult; etcd: KindResult },
  title: string,
): string[] {
  const n = p.trivial.hearth.latencyMs.count + p.trivial.hearth.errors;
  const lines = [
    `${`${title}, ${n} pods of each kind`.padEnd(43)}    p50 ms    p90 ms    max ms  errors`,
  ];
  for (const kind of KINDS) {
    const k = p[kind];
    for (const [label, s] of [
      ["hearth", k.hearth],
      ["floor", k.floor],
    ] as const) {
      const l = s.latencyMs;
      lines.push(
        `  ${kind.padEnd(8)} ${label.padEnd(33)}${ms(l.p50)} ${ms(l.p90)} ${ms(l.max)} ${String(s.errors).padStart(7)}`,
      );
    }
    const ratio = startRatio(k);
    lines.push(
      `  ${kind.padEnd(8)} hearth/floor: p50 ${ratio.p50}×, p90 ${ratio.p90}×; delete to gone p50 ${k.deleteMs.p50} ms, max ${k.deleteMs.max} ms`,
    );
  }
  return lines;
}

function rateLine(label: string, r: Rate, floor: Rate): string {
  return `  ${label.padEnd(28)}${String(r.keysPerSec).padStart(10)} ${r.medianMs.toFixed(2).padStart(10)} ${over(r.keysPerSec, floor.keysPerSec).toFixed(3).padStart(9)}`;
}

function reconcileLines(rt: ReconcileResult): string[] {
  return [
    `(i) reconcile ${rt.floor.keys} keys, no-op reconciler       keys/s  median ms  ÷ floor`,
    rateLine("floor: plain loop", rt.floor, rt.floor),
    ...rt.queue.map((q) => rateLine(`Controller, ${q.workers} worker(s)`, q, rt.floor)),
    rateLine("floor: LIST + plain loop", rt.listFloor, rt.listFloor),
    rateLine(`Informer → Controller (${rt.informer.workers})`, rt.informer, rt.listFloor),
  ];
}

/** deploymentStart's line: the Deployment to all Ready, its floor, the ratio, the rolling update. */
function deploymentLine(d: DeploymentStartResult): string {
  if ("skipped" in d) return `deploymentStart: skipped: ${d.skipped}`;
  const s = (ms: number) => (ms < 0 ? "failed" : `${round(ms / 1000, 1)} s`);
  const ratio =
    d.directReadyMs > 0 && d.deploymentReadyMs > 0 ? over(d.deploymentReadyMs, d.directReadyMs) : 0;
  const left =
    d.leftoverProcesses > 0 ? `; container processes left behind: ${d.leftoverProcesses}` : "";
  return `deploymentStart: ${d.replicas} replicas Ready in ${s(d.deploymentReadyMs)} (${d.replicas} pods directly: ${s(d.directReadyMs)}, × ${ratio}); rolling update of ${d.replicas}: ${s(d.rollingUpdateMs)}${left}`;
}

export function workloadLines(r: WorkloadResults): string[] {
  const lines: string[] = [];
  if (r.reconcileThroughput) lines.push("", ...reconcileLines(r.reconcileThroughput));
  if (r.deploymentStart) lines.push("", deploymentLine(r.deploymentStart));
  return lines;
}

export function workloadErrors(r: WorkloadResults): string[] {
  const d = r.deploymentStart;
  return d && !("skipped" in d) ? d.errors : [];
}
