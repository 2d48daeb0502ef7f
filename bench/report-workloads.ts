/**
 * The report of the workload groups — (g) pod start, (h) node-agent footprint,
 * (i) reconcile throughput: ratios to their floors, sanity targets, summary
 * lines and error samples, each only for a group that ran.
 */
import type { Target } from "./report.js";
import type { FootprintResult } from "./scenarios/agent-footprint.js";
import type { DeploymentStartResult } from "./scenarios/deployment-start.js";
import type { KindResult, PodStartResult } from "./scenarios/pod-start.js";
import type { Rate, ReconcileResult } from "./scenarios/reconcile-throughput.js";
import { round } from "./stats.js";

export interface WorkloadResults {
  podStart?: PodStartResult;
  agentFootprint?: FootprintResult;
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
  const p = r.podStart;
  const rt = r.reconcileThroughput;
  return {
    ...(p ? { podStartToFloor: { trivial: startRatio(p.trivial), etcd: startRatio(p.etcd) } } : {}),
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

export function workloadTargets(r: WorkloadResults): Record<string, Target> {
  const out: Record<string, Target> = {};
  const p = r.podStart;
  if (p) {
    const errors = KINDS.reduce((n, k) => n + p[k].hearth.errors + p[k].floor.errors, 0);
    out.podStartNoErrors = {
      description: "pod start: every pod Ready and then gone in time, every floor start ready",
      value: errors,
      pass: errors === 0,
      applicable: true,
    };
  }
  const f = r.agentFootprint;
  if (f) {
    out.footprintAllReady = {
      description: `agent footprint: all ${f.pods} idle pods Ready`,
      value: f.ready,
      pass: f.ready === f.pods && f.create.errors === 0,
      applicable: true,
    };
  }
  if (p || f) {
    const left = (p?.leftoverProcesses ?? 0) + (f?.leftoverProcesses ?? 0);
    out.noLeftoverPodProcesses = {
      description: "no pod process outlives its agent's SIGTERM",
      value: left,
      pass: left === 0,
      applicable: true,
    };
  }
  return out;
}

const ms = (n: number) => n.toFixed(1).padStart(9);

export function podStartLines(
  p: Pick<PodStartResult, "trivial" | "etcd">,
  title = "(g) pod start-to-Ready",
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

const signed = (n: number) => (n >= 0 ? `+${n}` : `${n}`);

function footprintLines(f: FootprintResult): string[] {
  const { idle, loaded } = f;
  return [
    `(h) node agent (own process), ${f.pods} idle pods vs none, ${Math.round(loaded.windowMs / 1000)} s windows:`,
    `    CPU ${loaded.cpuPercent} % of a core (no pods: ${idle.cpuPercent} %); RSS median ${loaded.rssMB} MB, max ${loaded.rssMaxMB} MB (no pods: ${idle.rssMB} MB, max ${idle.rssMaxMB} MB)`,
    `    per pod: ${signed(f.perPod.cpuPercent)} % CPU, ${signed(f.perPod.rssKB)} KB RSS; ${f.ready}/${f.pods} Ready ${f.allReadyMs} ms after the first POST`,
  ];
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
  const s = (ms: number) => (ms < 0 ? "failed" : `${round(ms / 1000, 1)} s`);
  const ratio =
    d.directReadyMs > 0 && d.deploymentReadyMs > 0 ? over(d.deploymentReadyMs, d.directReadyMs) : 0;
  return `deploymentStart: ${d.replicas} replicas Ready in ${s(d.deploymentReadyMs)} (${d.replicas} pods directly: ${s(d.directReadyMs)}, × ${ratio}); rolling update of ${d.replicas}: ${s(d.rollingUpdateMs)}`;
}

export function workloadLines(r: WorkloadResults): string[] {
  const lines: string[] = [];
  if (r.podStart) lines.push("", ...podStartLines(r.podStart));
  if (r.agentFootprint) lines.push("", ...footprintLines(r.agentFootprint));
  if (r.reconcileThroughput) lines.push("", ...reconcileLines(r.reconcileThroughput));
  if (r.deploymentStart) lines.push("", deploymentLine(r.deploymentStart));
  const left = (r.podStart?.leftoverProcesses ?? 0) + (r.agentFootprint?.leftoverProcesses ?? 0);
  if (left > 0) lines.push(`    pod processes left behind (killed): ${left}`);
  return lines;
}

export function workloadErrors(r: WorkloadResults): string[] {
  const p = r.podStart;
  return [
    ...(p ? KINDS.flatMap((k) => [...p[k].hearth.errorSamples, ...p[k].floor.errorSamples]) : []),
    ...(r.agentFootprint?.create.errorSamples ?? []),
    ...(r.deploymentStart?.errors ?? []),
  ];
}
