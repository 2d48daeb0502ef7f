/**
 * The report of the container groups on `hearth up --runtime cri` —
 * criPodStart, criIdlePods, serviceThroughput: ratios to their floors, the
 * issue's goals as targets (pod start ≤ 2× `ctr run` by hand; through a
 * ClusterIP ≥ 0.9× the requests/s of a pod IP and < 0.2 ms added at p50),
 * summary lines and error samples, each only for a group that ran. A group
 * skipped on this machine (not root, images missing) says why, and its
 * targets are `n/a`.
 */
import type { Target } from "./report.js";
import { podStartLines, startRatio } from "./report-workloads.js";
import type { CriFootprint, CriIdlePodsResult } from "./scenarios/cri-idle-pods.js";
import type { CriPodStartResult } from "./scenarios/cri-pod-start.js";
import type { ServiceLevel, ServiceThroughputResult } from "./scenarios/service-throughput.js";

export interface CriResults {
  criPodStart?: CriPodStartResult;
  criIdlePods?: CriIdlePodsResult;
  serviceThroughput?: ServiceThroughputResult;
}

/** Issue 14's goals. */
const POD_START_TARGET = 2;
const THROUGHPUT_TARGET = 0.9;
const ADDED_P50_TARGET_MS = 0.2;

type Ran<T> = Exclude<T, { skipped: string }>;
const ran = <T extends object>(r: T | undefined): Ran<T> | undefined =>
  r && !("skipped" in r) ? (r as Ran<T>) : undefined;

export function criRatios(r: CriResults) {
  const p = ran(r.criPodStart);
  const s = ran(r.serviceThroughput);
  return {
    ...(p
      ? { criPodStartToFloor: { trivial: startRatio(p.trivial), etcd: startRatio(p.etcd) } }
      : {}),
    ...(s
      ? {
          /** Medians over the repetitions of the per-repetition ratio and added p50. */
          clusterIpToPodIp: Object.fromEntries(
            s.levels.map((l) => [
              `c${l.concurrency}`,
              {
                throughput: l.ranges.throughputRatio.median,
                addedP50Ms: l.ranges.addedP50Ms.median,
                /** ÷ the three pod IPs directly: what the DNAT alone costs. */
                throughputToPodIPs: l.ranges.throughputRatioToPodIPs.median,
              },
            ]),
          ),
        }
      : {}),
  };
}

const target = (description: string, value: number, pass: boolean, applicable = true): Target => ({
  description,
  value,
  pass: applicable && pass,
  applicable,
});

function podStartTargets(r: CriPodStartResult): Record<string, Target> {
  const p = ran(r);
  const ratio = (k: "trivial" | "etcd") => (p ? startRatio(p[k]).p50 : 0);
  const errors = p
    ? p.trivial.hearth.errors + p.trivial.floor.errors + p.etcd.hearth.errors + p.etcd.floor.errors
    : 0;
  return {
    criPodStartTrivialUnder2x: target(
      `pod start on CRI, busybox: Hearth p50 ≤ ${POD_START_TARGET}× ctr run by hand`,
      ratio("trivial"),
      ratio("trivial") <= POD_START_TARGET,
      p !== undefined,
    ),
    criPodStartEtcdUnder2x: target(
      `pod start on CRI, etcd: Hearth p50 ≤ ${POD_START_TARGET}× ctr run by hand`,
      ratio("etcd"),
      ratio("etcd") <= POD_START_TARGET,
      p !== undefined,
    ),
    criPodStartNoErrors: target(
      "pod start on CRI: every pod Ready and gone in time, every ctr run ready",
      errors,
      errors === 0,
      p !== undefined,
    ),
  };
}

function serviceTargets(r: ServiceThroughputResult): Record<string, Target> {
  const s = ran(r);
  const levels = s?.levels ?? [];
  const worstRatio = Math.min(...levels.map((l) => l.ranges.throughputRatio.median));
  // The added p50 is judged with the fewest connections: more of them queue
  // for the 2 cores, and their p50 is mostly that wait, on either path.
  const fewest = levels.reduce<ServiceLevel | undefined>(
    (a, l) => (a && a.concurrency <= l.concurrency ? a : l),
    undefined,
  );
  const added = fewest?.ranges.addedP50Ms.median ?? 0;
  const errors = levels.reduce(
    (n, l) => n + [...l.clusterIP, ...l.podIP].reduce((m, run) => m + run.errors, 0),
    0,
  );
  const some = s !== undefined && levels.length > 0;
  return {
    serviceThroughputOver09: target(
      `Service: ClusterIP requests/s ≥ ${THROUGHPUT_TARGET}× a pod IP's (median ratio, worst level)`,
      some ? worstRatio : 0,
      worstRatio >= THROUGHPUT_TARGET,
      some,
    ),
    serviceAddedP50Under02ms: target(
      `Service: ClusterIP adds < ${ADDED_P50_TARGET_MS} ms at p50 (median, c=${fewest?.concurrency ?? "-"})`,
      added,
      added < ADDED_P50_TARGET_MS,
      some,
    ),
    serviceNoErrors: target("Service: every GET answered 200", errors, errors === 0, some),
  };
}

export function criTargets(r: CriResults): Record<string, Target> {
  const out: Record<string, Target> = {
    ...(r.criPodStart ? podStartTargets(r.criPodStart) : {}),
    ...(r.serviceThroughput ? serviceTargets(r.serviceThroughput) : {}),
  };
  const i = ran(r.criIdlePods);
  if (r.criIdlePods)
    out.criIdlePodsAllReady = target(
      `idle pods on CRI: all ${i?.pods ?? 0} Ready`,
      i?.ready ?? 0,
      i !== undefined && i.ready === i.pods && i.create.errors === 0,
      i !== undefined,
    );
  const groups = [ran(r.criPodStart), i, ran(r.serviceThroughput)].filter((g) => g !== undefined);
  if (groups.length > 0) {
    const left = groups.reduce((n, g) => n + g.leftoverProcesses, 0);
    out.criNoLeftoverProcesses = target(
      "no container process outlives a clean stop of hearth up --runtime cri",
      left,
      left === 0,
    );
  }
  return out;
}

const signed = (n: number) => (n >= 0 ? `+${n}` : `${n}`);

function footprintLine(label: string, f: CriFootprint): string {
  const g = (k: keyof CriFootprint) =>
    `${k} ${f[k].cpuPercent} % CPU, RSS ${f[k].rssMB} MB (Pss ${f[k].pssMB})`;
  return `    ${label}: ${g("hearth")}; ${g("containerd")}; ${f.shims.processes} ${g("shims")}`;
}

function idleLines(i: Ran<CriIdlePodsResult>): string[] {
  const per = (k: keyof CriFootprint) =>
    `${k} ${signed(i.perPod[k].cpuPercent)} % CPU, ${signed(i.perPod[k].rssKB)} KB RSS (${signed(i.perPod[k].pssKB)} KB Pss)`;
  return [
    `criIdlePods: ${i.pods} idle busybox pods vs none on hearth up --runtime cri, ${Math.round(i.loaded.hearth.windowMs / 1000)} s windows:`,
    footprintLine("no pods", i.idle),
    footprintLine(`${i.pods} pods`, i.loaded),
    `    per pod: ${per("hearth")}; ${per("containerd")}; ${per("shims")}`,
    `    ${i.ready}/${i.pods} Ready ${i.allReadyMs} ms after the first POST`,
  ];
}

const fmt = (n: number, width: number, digits = 3) => n.toFixed(digits).padStart(width);

function levelLines(l: ServiceLevel): string[] {
  const row = (label: string, k: "clusterIP" | "podIP" | "podIPs") => {
    const rg = l.ranges[k];
    return `  c=${String(l.concurrency).padEnd(3)} ${label.padEnd(16)} ${fmt(rg.opsPerSec.min, 8, 0)}–${fmt(rg.opsPerSec.max, 0, 0).padEnd(6)} ${fmt(rg.p50Ms.min, 6)}–${fmt(rg.p50Ms.max, 0).padEnd(6)} ${fmt(rg.p99Ms.min, 6)}–${fmt(rg.p99Ms.max, 0)}`;
  };
  const ratio = l.ranges.throughputRatio;
  const added = l.ranges.addedP50Ms;
  const spread = l.ranges.throughputRatioToPodIPs;
  return [
    row("ClusterIP", "clusterIP"),
    row("pod IP (floor)", "podIP"),
    row("3 pod IPs", "podIPs"),
    `        ClusterIP ÷ pod IP: ${ratio.min}–${ratio.max} (median ${ratio.median}); added p50 ${added.min}–${added.max} ms (median ${added.median}) (ranges are min–max over the repetitions)`,
    `        ClusterIP ÷ 3 pod IPs: ${spread.min}–${spread.max} (median ${spread.median})`,
  ];
}

function serviceLines(s: Ran<ServiceThroughputResult>): string[] {
  const runs = s.levels[0]?.clusterIP.length ?? 0;
  return [
    `serviceThroughput: GET / of 3 nginx pods via ClusterIP ${s.clusterIP} vs pod IP ${s.podIPs[0]}, ${runs} repetitions`,
    "                       requests/s           p50 ms          p99 ms",
    ...s.levels.flatMap(levelLines),
  ];
}

export function criLines(r: CriResults): string[] {
  const lines: string[] = [];
  const skip = (group: string, g: { skipped: string }) =>
    lines.push("", `${group}: skipped: ${g.skipped}`);
  if (r.criPodStart) {
    const p = ran(r.criPodStart);
    if (p) lines.push("", ...podStartLines(p, "criPodStart"));
    else skip("criPodStart", r.criPodStart as { skipped: string });
  }
  if (r.criIdlePods) {
    const i = ran(r.criIdlePods);
    if (i) lines.push("", ...idleLines(i));
    else skip("criIdlePods", r.criIdlePods as { skipped: string });
  }
  if (r.serviceThroughput) {
    const s = ran(r.serviceThroughput);
    if (s) lines.push("", ...serviceLines(s));
    else skip("serviceThroughput", r.serviceThroughput as { skipped: string });
  }
  return lines;
}

export function criErrors(r: CriResults): string[] {
  const p = ran(r.criPodStart);
  const kinds = ["trivial", "etcd"] as const;
  return [
    ...(p ? kinds.flatMap((k) => [...p[k].hearth.errorSamples, ...p[k].floor.errorSamples]) : []),
    ...(ran(r.criIdlePods)?.create.errorSamples ?? []),
    ...(ran(r.serviceThroughput)?.errorSamples ?? []),
  ];
}
