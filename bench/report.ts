/**
 * Turns scenario results into the report: ratios, the targets of the performance
 * issue with pass/fail, and the human-readable summary, for the groups that ran
 * (the apiserver group here, the others in report-workloads.ts,
 * report-platform.ts and report-cri.ts). Targets never
 * fail the run; they are reported.
 */
import type { OpenLoopResult } from "./load.js";
import { type CriResults, criErrors, criLines, criRatios, criTargets } from "./report-cri.js";
import {
  type PlatformResults,
  platformErrors,
  platformLines,
  platformTargets,
} from "./report-platform.js";
import {
  streamingErrors,
  streamingLines,
  streamingRatios,
  streamingTargets,
} from "./report-streaming.js";
import {
  type WorkloadResults,
  workloadErrors,
  workloadLines,
  workloadRatios,
} from "./report-workloads.js";
import {
  type ApiserverEtcdResult,
  apiserverEtcdLines,
  apiserverEtcdTargets,
} from "./scenarios/apiserver-etcd.js";
import { type ClusterDnsResult, clusterDnsLines } from "./scenarios/cluster-dns.js";
import type { LevelResult } from "./scenarios/creates.js";
import {
  type EtcdBootstrapResult,
  etcdBootstrapLines,
  etcdBootstrapTargets,
} from "./scenarios/etcd-bootstrap.js";
import type { ListOverHttpResult, Timings } from "./scenarios/reads.js";
import type { StreamingResult } from "./scenarios/streaming.js";
import type { WatchResult } from "./scenarios/watch.js";
import { round } from "./stats.js";

/** The apiserver group: (a)–(f). */
export interface ApiResults {
  apiCreates: LevelResult[];
  floorCreates: LevelResult[];
  bareCreates: LevelResult[];
  get: OpenLoopResult;
  list: ListOverHttpResult;
  listFloor: Timings & { items: number };
  watch: WatchResult;
}

export interface Results extends WorkloadResults, PlatformResults, CriResults {
  apiserver?: ApiResults;
  apiserverEtcd?: ApiserverEtcdResult;
  etcdBootstrap?: EtcdBootstrapResult;
  clusterDns?: ClusterDnsResult;
  streaming?: StreamingResult;
}

export interface Target {
  description: string;
  value: number;
  pass: boolean;
  /** False when this run cannot judge the target (a --quick run lists fewer objects). */
  applicable: boolean;
}

const LIST_TARGET_MS = 300;
const BARE_RATIO_TARGET = 0.5;

const at = (levels: LevelResult[], c: number) => levels.find((l) => l.concurrency === c);

export function ratios(r: Results) {
  return {
    ...(r.apiserver ? apiRatios(r.apiserver) : {}),
    ...workloadRatios(r),
    ...criRatios(r),
    ...streamingRatios(r.streaming),
  };
}

function apiRatios(r: ApiResults) {
  const apiToFloor: Record<string, number> = {};
  for (const api of r.apiCreates) {
    const floor = at(r.floorCreates, api.concurrency);
    if (floor) apiToFloor[`c${api.concurrency}`] = round(api.opsPerSec / floor.opsPerSec, 4);
  }
  const api64 = at(r.apiCreates, 64);
  const bare64 = at(r.bareCreates, 64);
  return {
    apiToFloor,
    api64ToBare64: api64 && bare64 ? round(api64.opsPerSec / bare64.opsPerSec, 3) : 0,
    /** The same ratio from CPU time per create (all threads): a second opinion on a busy machine. */
    api64ToBare64ByCpu: api64 && bare64 ? round(bare64.cpuMsPerOp / api64.cpuMsPerOp, 3) : 0,
  };
}

export function targets(r: Results): Record<string, Target> {
  return {
    ...(r.apiserver ? apiTargets(r.apiserver) : {}),
    ...(r.apiserverEtcd ? apiserverEtcdTargets(r.apiserverEtcd) : {}),
    ...(r.etcdBootstrap ? etcdBootstrapTargets(r.etcdBootstrap) : {}),
    ...platformTargets(r),
    ...criTargets(r),
    ...streamingTargets(r.streaming),
  };
}

function apiTargets(r: ApiResults): Record<string, Target> {
  const errors = r.apiCreates.reduce((n, l) => n + l.errors, 0);
  const bare = apiRatios(r).api64ToBare64;
  return {
    noCreateErrors: {
      description: "API creates: no errors at any concurrency",
      value: errors,
      pass: errors === 0,
      applicable: true,
    },
    api64OverBare64: {
      description: `API creates/s at c=64 ÷ bare HTTPS+SQLite at c=64 ≥ ${BARE_RATIO_TARGET}`,
      value: bare,
      pass: bare >= BARE_RATIO_TARGET,
      applicable: true,
    },
    list10kUnder300ms: {
      description: `LIST of ${r.list.items} ConfigMaps over HTTPS, median < ${LIST_TARGET_MS} ms (target set for 10,000)`,
      value: r.list.medianMs,
      pass: r.list.items >= 10_000 && r.list.medianMs < LIST_TARGET_MS,
      applicable: r.list.items >= 10_000,
    },
    watchNoMissedEvents: {
      description: "watch: every watcher gets every event",
      value: r.watch.missed,
      pass: r.watch.missed === 0 && r.watch.watcherErrors.length === 0,
      applicable: true,
    },
  };
}

const num = (n: number, width: number, digits = 1) => n.toFixed(digits).padStart(width);

function levelLine(label: string, l: LevelResult, extra = ""): string {
  const { p50, p99 } = l.latencyMs;
  return `  ${label.padEnd(6)} c=${String(l.concurrency).padEnd(3)} ${num(l.opsPerSec, 10)} ${num(p50, 9, 3)} ${num(p99, 9, 3)} ${String(l.errors).padStart(7)} ${num(l.cpuMsPerOp, 9, 3)}${extra}`;
}

export function summary(r: Results, header: string): string {
  const lines = [header];
  if (r.apiserver) lines.push("", ...apiLines(r.apiserver));
  lines.push(...workloadLines(r));
  if (r.apiserverEtcd) lines.push("", ...apiserverEtcdLines(r.apiserverEtcd));
  if (r.etcdBootstrap) lines.push("", ...etcdBootstrapLines(r.etcdBootstrap));
  lines.push(...platformLines(r));
  lines.push(...criLines(r));
  if (r.clusterDns) lines.push("", ...clusterDnsLines(r.clusterDns));
  lines.push(...streamingLines(r.streaming));
  const all = Object.values(targets(r));
  if (all.length > 0) lines.push("", "targets:");
  for (const target of all) {
    const verdict = !target.applicable ? "n/a " : target.pass ? "PASS" : "FAIL";
    lines.push(`  ${verdict}  ${target.description}: ${target.value}`);
  }
  const failures = (r.apiserver ? apiErrors(r.apiserver) : []).concat(
    workloadErrors(r),
    platformErrors(r),
    criErrors(r),
    streamingErrors(r.streaming),
  );
  if (failures.length > 0) lines.push("", "errors seen:", ...failures.map((e) => `  ${e}`));
  return lines.join("\n");
}

function apiErrors(r: ApiResults): string[] {
  return [...r.apiCreates, ...r.floorCreates, ...r.bareCreates, r.get, r.list.seed]
    .flatMap((l) => l.errorSamples)
    .concat(r.watch.watcherErrors);
}

function apiLines(r: ApiResults): string[] {
  const rt = apiRatios(r);
  const lines = [
    "(a,b) creates of ~1 KiB ConfigMaps    ops/s    p50 ms    p99 ms  errors  cpu ms/op",
  ];
  for (const api of r.apiCreates) {
    const ratio = rt.apiToFloor[`c${api.concurrency}`];
    lines.push(levelLine("api", api, `   api/floor = ${ratio?.toFixed(3) ?? "-"}`));
    const floor = at(r.floorCreates, api.concurrency);
    if (floor) lines.push(levelLine("floor", floor));
  }
  for (const bare of r.bareCreates) lines.push(levelLine("bare", bare));
  lines.push(
    `  api64 / bare64 = ${rt.api64ToBare64.toFixed(3)} (by CPU time per create: ${rt.api64ToBare64ByCpu.toFixed(3)})`,
  );
  const g = r.get;
  lines.push(
    "",
    `(d) GET at ${g.targetRate}/s: achieved ${g.opsPerSec}/s over ${g.count} requests, p50 ${g.latencyMs.p50} ms, p99 ${g.latencyMs.p99} ms, errors ${g.errors}`,
  );
  const l = r.list;
  lines.push(
    `(e) LIST ${l.items} objects (${(l.bodyBytes / 1e6).toFixed(1)} MB): min ${l.minMs} ms, median ${l.medianMs} ms [${l.runsMs.join(", ")}]`,
    `    backend.list floor (${r.listFloor.items} items): min ${r.listFloor.minMs} ms, median ${r.listFloor.medianMs} ms`,
    `    seeding: ${l.seed.count} creates at ${l.seed.opsPerSec}/s, errors ${l.seed.errors}`,
  );
  const w = r.watch;
  lines.push(
    `(f) watch: ${w.expected} deliveries expected, ${w.delivered} delivered, missed ${w.missed}; p50 ${w.latencyMs.p50} ms, p99 ${w.latencyMs.p99} ms, max ${w.latencyMs.max} ms`,
  );
  return lines;
}
