/**
 * What the benchmark runs: the full plan (several minutes on 2 cores) and the
 * quick smoke plan (`--quick`, about a minute), the scenario groups `--only`
 * picks from, and the command line.
 */
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import type { ClusterDnsPlan } from "./scenarios/cluster-dns.js";
import type { LevelPlan } from "./scenarios/creates.js";
import type { CriIdlePodsPlan } from "./scenarios/cri-idle-pods.js";
import type { CriPodStartPlan } from "./scenarios/cri-pod-start.js";
import type { DeploymentStartPlan } from "./scenarios/deployment-start.js";
import type { EtcdBootstrapPlan } from "./scenarios/etcd-bootstrap.js";
import type { IdleTenantsPlan } from "./scenarios/idle-tenants.js";
import type { ReconcilePlan } from "./scenarios/reconcile-throughput.js";
import type { ServiceThroughputPlan } from "./scenarios/service-throughput.js";
import type { StreamingPlan } from "./scenarios/streaming.js";
import type { WatchesPlan } from "./scenarios/watches.js";

/** Scenario groups, in the order they run. `apiserver` is (a)–(f) of the README. */
export const GROUPS = [
  "apiserver",
  "reconcileThroughput",
  "deploymentStart",
  "apiserverEtcd",
  "etcdBootstrap",
  "watches",
  "idleTenants",
  "criPodStart",
  "criIdlePods",
  "serviceThroughput",
  "clusterDns",
  "streaming",
] as const;
export type Group = (typeof GROUPS)[number];

export interface Plan {
  mode: "full" | "quick";
  /** (a) API creates and (b) the in-process floor, level by level. */
  creates: LevelPlan;
  /** (c) the bare HTTPS+SQLite baseline. */
  bare: LevelPlan;
  get: { rate: number; durationMs: number };
  list: { namespace: string; objects: number; runs: number; seedConcurrency: number };
  watch: {
    namespace: string;
    watchers: number;
    events: number;
    spacingMs: number;
    deadlineMs: number;
  };
  reconcile: Omit<ReconcilePlan, "payload">;
  /** deploymentStart: a Deployment of N replicas to all Ready vs the N pods POSTed directly. */
  deploymentStart: DeploymentStartPlan;
  /** apiserverEtcd: raw etcd puts vs apiserver creates on etcd and on SQLite. */
  apiserverEtcd: LevelPlan;
  /** etcdBootstrap: a 3-member EtcdCluster to Ready vs three etcd processes by hand. */
  etcdBootstrap: EtcdBootstrapPlan;
  /** watches: open watches and RSS of hearth up with Tenants that have the Etcd module. */
  watches: WatchesPlan;
  /** idleTenants: idle CPU and RSS of hearth up with 0, 100, 1,000 plain Tenants. */
  idleTenants: IdleTenantsPlan;
  /** criPodStart: pod start → Ready on `hearth up` (containers) vs `ctr run` by hand. */
  criPodStart: CriPodStartPlan;
  /** criIdlePods: hearth, containerd and shims CPU and RSS with 0 and 50 idle pods on CRI. */
  criIdlePods: CriIdlePodsPlan;
  /** serviceThroughput: HTTP GETs through a ClusterIP vs straight to a pod IP. */
  serviceThroughput: ServiceThroughputPlan;
  /** clusterDns: queries/s and p99 of Hearth's DNS server vs a bare UDP responder. */
  clusterDns: ClusterDnsPlan;
  /** streaming: kubectl port-forward and exec vs a direct connection and nsenter. */
  streaming: StreamingPlan;
  /** Characters of the ConfigMap's one data value. */
  payloadChars: number;
}

const FULL: Plan = {
  mode: "full",
  creates: { levels: [1, 8, 64], count: 2000, warmup: 200 },
  bare: { levels: [64], count: 2000, warmup: 200 },
  get: { rate: 200, durationMs: 5000 },
  list: { namespace: "bench-list", objects: 10_000, runs: 5, seedConcurrency: 64 },
  watch: { namespace: "bench-watch", watchers: 100, events: 50, spacingMs: 20, deadlineMs: 10_000 },
  reconcile: {
    objects: 10_000,
    workers: [1, 4],
    runs: 5,
    informerRuns: 3,
    namespace: "bench-reconcile",
  },
  apiserverEtcd: { levels: [8, 64], count: 2000, warmup: 200 },
  etcdBootstrap: { runs: 5, deadlineMs: 120_000 },
  watches: {
    tenants: 10,
    etcdReplicas: 1,
    settleMs: 10_000,
    windowMs: 20_000,
    concurrency: 4,
    readyDeadlineMs: 600_000,
  },
  idleTenants: {
    counts: [0, 100, 1000],
    settleMs: 10_000,
    // Long enough to see any periodic look (the apps engine resynced every Ready
    // app each 60 s before it was event-driven); the "before" runs used 60 s too.
    windowMs: 60_000,
    concurrency: 8,
    readyDeadlineMs: 3_600_000,
  },
  criPodStart: { pods: 15, warmup: 2, deadlineMs: 120_000 },
  deploymentStart: { replicas: 100, deadlineMs: 300_000 },
  criIdlePods: {
    pods: 50,
    windowMs: 30_000,
    settleMs: 5000,
    createConcurrency: 8,
    readyDeadlineMs: 300_000,
  },
  serviceThroughput: {
    concurrency: [1, 16],
    // Short runs, many of them: on a shared machine the load moves within
    // seconds, and runs paired close together see more of the same load.
    requests: 3000,
    warmup: 300,
    repetitions: 8,
    readyDeadlineMs: 120_000,
  },
  clusterDns: { clients: 8, services: 1000, warmupMs: 500, durationMs: 3000, timeoutMs: 1000 },
  streaming: {
    echoes: 200,
    warmup: 20,
    echoBytes: 64 * 1024,
    streamMiB: 64,
    execs: 20,
    repetitions: 5,
    readyDeadlineMs: 120_000,
  },
  payloadChars: 1024,
};

const QUICK: Plan = {
  ...FULL,
  mode: "quick",
  creates: { levels: [1, 8, 64], count: 200, warmup: 50 },
  bare: { levels: [64], count: 200, warmup: 50 },
  get: { rate: 200, durationMs: 1000 },
  list: { ...FULL.list, objects: 1000, runs: 3 },
  watch: { ...FULL.watch, events: 10, spacingMs: 10 },
  reconcile: { ...FULL.reconcile, objects: 1000, runs: 3, informerRuns: 2 },
  apiserverEtcd: { levels: [8, 64], count: 300, warmup: 50 },
  etcdBootstrap: { runs: 1, deadlineMs: 120_000 },
  watches: { ...FULL.watches, tenants: 2, settleMs: 2000, windowMs: 5000 },
  idleTenants: { ...FULL.idleTenants, counts: [0, 10], settleMs: 2000, windowMs: 5000 },
  criPodStart: { ...FULL.criPodStart, pods: 3, warmup: 1 },
  deploymentStart: { ...FULL.deploymentStart, replicas: 10 },
  criIdlePods: { ...FULL.criIdlePods, pods: 10, windowMs: 5000, settleMs: 2000 },
  serviceThroughput: { ...FULL.serviceThroughput, requests: 500, warmup: 100, repetitions: 2 },
  clusterDns: { ...FULL.clusterDns, warmupMs: 200, durationMs: 1000 },
  streaming: { ...FULL.streaming, echoes: 50, warmup: 5, streamMiB: 8, execs: 5, repetitions: 2 },
};

/** dist/bench/plan.js → <repo>/bench/results, wherever the bench is started from. */
const DEFAULT_OUT = resolve(dirname(fileURLToPath(import.meta.url)), "../../bench/results");

export const USAGE = `usage: node dist/bench/run.js [--quick] [--only GROUP,...] [--tenants N,...] [--out DIR]
  --quick             much smaller counts: a smoke run of about a minute
  --only GROUP,...    run only these scenario groups: ${GROUPS.join(", ")}
                      (latest.json is then left as it was)
  --tenants N,...     the Tenant counts of idleTenants (default 0,100,1000; --quick 0,10);
                      also HEARTH_BENCH_TENANTS
  --out DIR           where to write <timestamp>.json and latest.json (default: bench/results)`;

export interface Args {
  plan: Plan;
  outDir: string;
  /** The groups to run, in GROUPS order. */
  only: Group[];
}

function parseOnly(value: string): Group[] {
  const names = value.split(",").map((n) => n.trim());
  const unknown = names.filter((n) => !(GROUPS as readonly string[]).includes(n));
  if (unknown.length > 0)
    throw new Error(
      `--only: unknown scenario group "${unknown.join(",")}"; choose from ${GROUPS.join(", ")}\n${USAGE}`,
    );
  return GROUPS.filter((g) => names.includes(g));
}

function parseCounts(value: string): number[] {
  const counts = value.split(",").map((n) => Number(n.trim()));
  if (value.trim() === "" || counts.some((n) => !Number.isInteger(n) || n < 0))
    throw new Error(
      `--tenants: "${value}" is not a list of whole numbers, e.g. 0,100,1000\n${USAGE}`,
    );
  return counts;
}

/** Parses the command line; throws with the usage on anything unknown. */
export function parseArgs(argv: string[], env = process.env): Args | "help" {
  let plan = FULL;
  let tenants = env.HEARTH_BENCH_TENANTS ? parseCounts(env.HEARTH_BENCH_TENANTS) : undefined;
  let outDir = DEFAULT_OUT;
  let only: Group[] = [...GROUPS];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === "--help" || arg === "-h") return "help";
    if (arg === "--quick") plan = QUICK;
    else if (arg === "--out" && argv[i + 1] !== undefined) outDir = resolve(argv[++i]!);
    else if (arg.startsWith("--out=")) outDir = resolve(arg.slice("--out=".length));
    else if (arg === "--only" && argv[i + 1] !== undefined) only = parseOnly(argv[++i]!);
    else if (arg.startsWith("--only=")) only = parseOnly(arg.slice("--only=".length));
    else if (arg === "--tenants" && argv[i + 1] !== undefined) tenants = parseCounts(argv[++i]!);
    else if (arg.startsWith("--tenants=")) tenants = parseCounts(arg.slice("--tenants=".length));
    else throw new Error(`unknown or incomplete argument "${arg}"\n${USAGE}`);
  }
  if (tenants) plan = { ...plan, idleTenants: { ...plan.idleTenants, counts: tenants } };
  return { plan, outDir, only };
}
