/**
 * Service throughput (`--only serviceThroughput`): on `hearth up --runtime
 * cri`, three stock nginx pods behind a ClusterIP Service (DNAT in Hearth's
 * nftables table). From the host, closed-loop HTTP GETs of `/` over keep-alive
 * connections (node:http, one Agent per run with `concurrency` sockets) to the
 * ClusterIP, and the same load straight to the first pod's IP (the floor): the
 * ClusterIP pays the DNAT and its conntrack entry, and spreads the
 * connections over three pods; a third series spreads the same load over the
 * three pod IPs directly, to tell one from the other. Each repetition runs
 * the three one after the other (the order turns every repetition), each
 * after its own uncounted warm-up on the same connections;
 * reported per repetition and as ranges, with the ClusterIP ÷ pod IP ratio of
 * requests/s and the p50 it adds, paired within each repetition.
 */
import { Agent, get } from "node:http";
import { loadavg } from "node:os";
import type { HttpClient } from "../../src/client/index.js";
import { tableNameFor } from "../../src/node/index.js";
import { run, waitFor } from "../../test/support/hearth-process.js";
import { type CriGroupResult, onCriHearth } from "../cri-hearth.js";
import { NGINX, nginxPod } from "../cri-pod-specs.js";
import { closedLoop, type Operation } from "../load.js";
import type { PodWatch } from "../pod-watch.js";
import { type Range, range, round } from "../stats.js";

export interface ServiceThroughputPlan {
  /** Concurrent keep-alive connections, one level after the other. */
  concurrency: number[];
  /** Timed GETs per run. */
  requests: number;
  /** Uncounted GETs before each run, on its connections. */
  warmup: number;
  repetitions: number;
  readyDeadlineMs: number;
}

/** One closed-loop run against one series' address(es). */
export interface TargetRun {
  opsPerSec: number;
  p50Ms: number;
  p99Ms: number;
  errors: number;
  /** CPU time of this process (the load generator) per GET. */
  clientCpuMsPerOp: number;
  loadAverage: [number, number];
}

/**
 * What each run is aimed at: the ClusterIP; the first pod's IP (the floor);
 * and the three pod IPs directly, GET i to pod i mod 3 — three pods without
 * the DNAT, which tells what the rules cost from what spreading costs.
 */
const SERIES = ["clusterIP", "podIP", "podIPs"] as const;
type Series = (typeof SERIES)[number];
type Ranges = Record<"opsPerSec" | "p50Ms" | "p99Ms", Range>;

export interface ServiceLevel {
  concurrency: number;
  clusterIP: TargetRun[];
  podIP: TargetRun[];
  podIPs: TargetRun[];
  /** Per repetition: ClusterIP requests/s ÷ pod IP requests/s. */
  throughputRatio: number[];
  /** Per repetition: ClusterIP p50 − pod IP p50, ms. */
  addedP50Ms: number[];
  /** Per repetition: ClusterIP requests/s ÷ the three pod IPs' (the same spread, no DNAT). */
  throughputRatioToPodIPs: number[];
  ranges: Record<Series, Ranges> & {
    throughputRatio: Range;
    addedP50Ms: Range;
    throughputRatioToPodIPs: Range;
  };
}

export type ServiceThroughputResult = CriGroupResult<{
  clusterIP: string;
  podIPs: string[];
  levels: ServiceLevel[];
  errorSamples: string[];
}>;

const NAMESPACE = "default";
const LABELS = { app: "bench-web" };

function service(): object {
  return {
    apiVersion: "v1",
    kind: "Service",
    metadata: { name: "bench-web" },
    spec: { selector: LABELS, ports: [{ port: 80, targetPort: 80 }] },
  };
}

async function post(client: HttpClient, resource: string, body: object): Promise<string> {
  const res = await client.request(
    "POST",
    `/api/v1/namespaces/${NAMESPACE}/${resource}`,
    JSON.stringify(body),
  );
  if (res.status !== 201)
    throw new Error(`cannot create ${resource}: HTTP ${res.status} ${res.body.slice(0, 200)}`);
  return res.body;
}

/** GET http://host/ on `agent`, the i-th to hosts[i mod n]; throws on anything but a 200 read to its end. */
function getter(hosts: string[], agent: Agent): Operation {
  return (i) =>
    new Promise((resolve, reject) => {
      const host = hosts[i % hosts.length]!;
      const req = get({ host, port: 80, path: "/", agent }, (res) => {
        res.resume();
        res.once("error", reject);
        res.once("end", () =>
          res.statusCode === 200
            ? resolve()
            : reject(new Error(`GET http://${host}/: HTTP ${res.statusCode}`)),
        );
      });
      req.once("error", reject);
      req.setTimeout(10_000, () =>
        req.destroy(new Error(`GET http://${host}/: no answer in 10 s`)),
      );
    });
}

async function runTarget(
  hosts: string[],
  concurrency: number,
  plan: ServiceThroughputPlan,
  errorSamples: string[],
): Promise<TargetRun> {
  const agent = new Agent({ keepAlive: true, maxSockets: concurrency });
  try {
    const op = getter(hosts, agent);
    await closedLoop(concurrency, plan.warmup, op);
    const load0 = loadavg()[0]!;
    const r = await closedLoop(concurrency, plan.requests, op);
    for (const e of r.errorSamples)
      if (errorSamples.length < 3 && !errorSamples.includes(e)) errorSamples.push(e);
    return {
      opsPerSec: r.opsPerSec,
      p50Ms: r.latencyMs.p50,
      p99Ms: r.latencyMs.p99,
      errors: r.errors,
      clientCpuMsPerOp: r.cpuMsPerOp,
      loadAverage: [round(load0, 2), round(loadavg()[0]!, 2)],
    };
  } finally {
    agent.destroy();
  }
}

function ranges(runs: TargetRun[]): Ranges {
  return {
    opsPerSec: range(runs.map((r) => r.opsPerSec)),
    p50Ms: range(runs.map((r) => r.p50Ms)),
    p99Ms: range(runs.map((r) => r.p99Ms)),
  };
}

async function runLevel(
  concurrency: number,
  targets: Record<Series, string[]>,
  plan: ServiceThroughputPlan,
  errorSamples: string[],
): Promise<ServiceLevel> {
  const runs: Record<Series, TargetRun[]> = { clusterIP: [], podIP: [], podIPs: [] };
  for (let rep = 0; rep < plan.repetitions; rep++)
    for (let k = 0; k < SERIES.length; k++) {
      // The order turns every repetition, so no series always runs first or last.
      const series = SERIES[(k + rep) % SERIES.length]!;
      runs[series].push(await runTarget(targets[series], concurrency, plan, errorSamples));
    }
  const { clusterIP, podIP, podIPs } = runs;
  const throughputRatio = clusterIP.map((c, i) => round(c.opsPerSec / podIP[i]!.opsPerSec));
  const addedP50Ms = clusterIP.map((c, i) => round(c.p50Ms - podIP[i]!.p50Ms));
  const toPodIPs = clusterIP.map((c, i) => round(c.opsPerSec / podIPs[i]!.opsPerSec));
  return {
    concurrency,
    clusterIP,
    podIP,
    podIPs,
    throughputRatio,
    addedP50Ms,
    throughputRatioToPodIPs: toPodIPs,
    ranges: {
      clusterIP: ranges(clusterIP),
      podIP: ranges(podIP),
      podIPs: ranges(podIPs),
      throughputRatio: range(throughputRatio),
      addedP50Ms: range(addedP50Ms),
      throughputRatioToPodIPs: range(toPodIPs),
    },
  };
}

/** The three pods Ready (on the watch) and their IPs, in name order. */
async function readyPodIPs(
  client: HttpClient,
  watch: PodWatch,
  names: string[],
  deadlineMs: number,
) {
  if (!(await watch.until(() => names.every((n) => watch.readyAt.has(n)), deadlineMs)))
    throw new Error(`nginx pods not all Ready within ${deadlineMs} ms`);
  const ips: string[] = [];
  for (const name of names) {
    const res = await client.request("GET", `/api/v1/namespaces/${NAMESPACE}/pods/${name}`);
    const ip = (JSON.parse(res.body) as { status?: { podIP?: string } }).status?.podIP;
    if (!ip) throw new Error(`pod ${name} is Ready without a pod IP`);
    ips.push(ip);
  }
  return ips;
}

/** True once Hearth's nftables table names every pod IP (the Service's rules list all three). */
async function rulesList(table: string, podIPs: string[]): Promise<boolean> {
  const r = await run("nft", ["list", "table", "ip", table], { timeoutMs: 10_000 });
  return r.code === 0 && podIPs.every((ip) => r.stdout.includes(ip));
}

/** True once `host` answers GET / with 200. */
const answers = (host: string) => {
  const agent = new Agent();
  return getter(
    [host],
    agent,
  )(0)
    .then(
      () => true,
      () => false,
    )
    .finally(() => agent.destroy());
};

export function serviceThroughput(
  dir: string,
  plan: ServiceThroughputPlan,
): Promise<ServiceThroughputResult> {
  return onCriHearth(dir, "service-throughput", [NGINX], async (ch, watch) => {
    const names = ["web-0", "web-1", "web-2"];
    for (const name of names) await post(ch.client, "pods", nginxPod(name, LABELS));
    const svc = JSON.parse(await post(ch.client, "services", service())) as {
      spec: { clusterIP: string };
    };
    const podIPs = await readyPodIPs(ch.client, watch, names, plan.readyDeadlineMs);
    const clusterIP = svc.spec.clusterIP;
    const table = tableNameFor(ch.hearth.dataDir);
    await waitFor(
      `the rules of ${clusterIP} in ${table}`,
      () => rulesList(table, podIPs),
      plan.readyDeadlineMs,
    );
    await waitFor(
      `the ClusterIP ${clusterIP} answering`,
      () => answers(clusterIP),
      plan.readyDeadlineMs,
    );
    const errorSamples: string[] = [];
    const levels: ServiceLevel[] = [];
    const targets = { clusterIP: [clusterIP], podIP: [podIPs[0]!], podIPs };
    for (const c of plan.concurrency) levels.push(await runLevel(c, targets, plan, errorSamples));
    return { clusterIP, podIPs, levels, errorSamples };
  });
}
