/**
 * `./hearth bench`: Hearth's performance benchmarks in one run — creates over HTTPS
 * at 1, 8 and 64 clients against the in-process SQLite floor and a bare
 * HTTPS+SQLite server, GET latency at a steady rate, LIST of 10,000 objects,
 * watch delivery to 100 watchers, the controller runtime's reconcile
 * throughput, the platform groups, and on `hearth up` (pods as containers)
 * pod start against `ctr run`, idle pods' cost and Service throughput (see
 * bench/README.md); `--only` picks groups.
 * Writes `<out>/<timestamp>.json` (and `<out>/latest.json` when every group ran)
 * and prints a summary. Missed targets are reported, not fatal: the exit code is
 * non-zero only on a crash. Everything runs on a temporary data directory; every
 * server and process is stopped and it is removed before the report is written.
 */
import { randomBytes } from "node:crypto";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import { join } from "node:path";
import { createHttpClient } from "../src/client/index.js";
import { NODE_FLAGS } from "../src/main/node-flags.js";
import { createCA, issueLeaf } from "../src/pki/index.js";
import { openSqliteBackend } from "../src/storage/index.js";
import { CRI_POD_CIDR, CRI_SERVICE_CIDR } from "./cri-hearth.js";
import { type Args, GROUPS, type Plan, parseArgs, USAGE } from "./plan.js";
import { type ApiResults, type Results, ratios, summary, targets } from "./report.js";
import { apiserverEtcd } from "./scenarios/apiserver-etcd.js";
import { clusterDns } from "./scenarios/cluster-dns.js";
import { backendCreates, httpCreates, runLevels } from "./scenarios/creates.js";
import { criIdlePods } from "./scenarios/cri-idle-pods.js";
import { criPodStart } from "./scenarios/cri-pod-start.js";
import { deploymentStart } from "./scenarios/deployment-start.js";
import { etcdBootstrap } from "./scenarios/etcd-bootstrap.js";
import { idleTenants } from "./scenarios/idle-tenants.js";
import { getAtRate, listOnBackend, listOverHttp } from "./scenarios/reads.js";
import { reconcileThroughput } from "./scenarios/reconcile-throughput.js";
import { serviceThroughput } from "./scenarios/service-throughput.js";
import { STREAMING_NETWORK, streaming } from "./scenarios/streaming.js";
import { watchFanOut } from "./scenarios/watch.js";
import { watchesScenario } from "./scenarios/watches.js";
import { startServerThread } from "./server-thread.js";

const log = (msg: string) => console.error(`bench: ${msg}`);

function payloadOf(plan: Plan): string {
  return randomBytes(Math.ceil((plan.payloadChars * 3) / 4))
    .toString("base64")
    .slice(0, plan.payloadChars);
}

async function runAll(dir: string, { plan, only }: Args): Promise<Results> {
  const results: Results = {};
  if (only.includes("apiserver")) results.apiserver = await runApiServer(dir, plan);
  if (only.includes("reconcileThroughput")) {
    log(`(i) reconcile throughput: ${plan.reconcile.objects} keys`);
    results.reconcileThroughput = await reconcileThroughput({
      ...plan.reconcile,
      payload: payloadOf(plan),
    });
  }
  if (only.includes("deploymentStart")) {
    log(`deploymentStart: a Deployment of ${plan.deploymentStart.replicas} vs as many pods`);
    results.deploymentStart = await deploymentStart(dir, plan.deploymentStart);
  }
  if (only.includes("apiserverEtcd")) {
    log(`apiserverEtcd: raw etcd puts vs apiserver creates on etcd and SQLite`);
    results.apiserverEtcd = await apiserverEtcd(
      dir,
      plan.apiserverEtcd,
      await benchTls(),
      payloadOf(plan),
    );
  }
  if (only.includes("etcdBootstrap")) {
    log(`etcdBootstrap: ${plan.etcdBootstrap.runs} 3-member EtcdCluster(s) vs by hand`);
    results.etcdBootstrap = await etcdBootstrap(plan.etcdBootstrap);
  }
  if (only.includes("watches")) {
    log(`watches: hearth up with ${plan.watches.tenants} Tenants with the Etcd module`);
    results.watches = await watchesScenario(dir, plan.watches);
  }
  if (only.includes("idleTenants")) {
    log(`idleTenants: hearth up with ${plan.idleTenants.counts.join(", ")} plain Tenants`);
    results.idleTenants = await idleTenants(dir, plan.idleTenants);
  }
  if (only.includes("criPodStart")) {
    log(`criPodStart: ${plan.criPodStart.pods} busybox and etcd pods on CRI vs ctr run by hand`);
    results.criPodStart = await criPodStart(dir, plan.criPodStart);
  }
  if (only.includes("criIdlePods")) {
    log(
      `criIdlePods: hearth, containerd and shims with 0 and ${plan.criIdlePods.pods} pods on CRI`,
    );
    results.criIdlePods = await criIdlePods(dir, plan.criIdlePods);
  }
  if (only.includes("serviceThroughput")) {
    log("serviceThroughput: GETs through a ClusterIP vs a pod IP");
    results.serviceThroughput = await serviceThroughput(dir, plan.serviceThroughput);
  }
  if (only.includes("clusterDns")) {
    log(`clusterDns: ${plan.clusterDns.clients} UDP clients vs Hearth's DNS and a bare responder`);
    results.clusterDns = await clusterDns(plan.clusterDns);
  }
  if (only.includes("streaming")) {
    log("streaming: kubectl port-forward and exec vs a direct connection and nsenter");
    results.streaming = await streaming(dir, plan.streaming);
  }
  return results;
}

/** A fresh CA and a serving certificate for 127.0.0.1. */
async function benchTls() {
  const ca = await createCA("hearth-bench-ca");
  const serving = await issueLeaf(ca, {
    commonName: "127.0.0.1",
    dnsNames: ["localhost"],
    ipAddresses: ["127.0.0.1"],
    usage: ["server"],
  });
  return { ca, serving };
}

async function runApiServer(dir: string, plan: Plan): Promise<ApiResults> {
  const ca = await createCA("hearth-bench-ca");
  const leaf = await issueLeaf(ca, {
    commonName: "127.0.0.1",
    dnsNames: ["localhost"],
    ipAddresses: ["127.0.0.1"],
    usage: ["server"],
  });
  const token = randomBytes(24).toString("hex");
  const payload = payloadOf(plan);
  const serverCfg = (kind: "api" | "bare", db: string) => ({
    kind,
    dbPath: join(dir, db),
    certPem: leaf.certPem,
    keyPem: leaf.keyPem,
    token,
  });

  log("(b) floor: Backend.create in-process");
  const floorDb = await openSqliteBackend(join(dir, "floor.db"));
  const floorCreates = await runLevels(
    plan.creates,
    backendCreates(floorDb, "default", payload),
  ).finally(() => floorDb.close());

  // The baseline runs right after the API creates, so both see the same
  // conditions on a shared machine; its idle thread costs nothing meanwhile.
  const api = await startServerThread(serverCfg("api", "api.db"));
  const bare = await startServerThread(serverCfg("bare", "bare.db")).catch(async (e: unknown) => {
    await api.stop();
    throw e;
  });
  const newClient = () => createHttpClient({ server: api.url, caPem: ca.certPem, token });
  const client = newClient();
  const bareClient = createHttpClient({ server: bare.url, caPem: ca.certPem });
  let scenarios: Omit<ApiResults, "floorCreates" | "listFloor">;
  try {
    log(`(a) API creates at ${plan.creates.levels.join(", ")} clients`);
    const apiCreates = await runLevels(plan.creates, httpCreates(client, "default", payload));
    log("(c) bare HTTPS+SQLite server");
    const bareCreates = await runLevels(plan.bare, httpCreates(bareClient, "default", payload));
    bareClient.close();
    await bare.stop();
    const last = plan.creates.levels.at(-1)!;
    const names = Array.from({ length: plan.creates.count }, (_, i) => `c${last}-${i}`);
    log(`(d) GET at ${plan.get.rate}/s`);
    const get = await getAtRate(client, { ...plan.get, namespace: "default", names });
    log(`(e) LIST: seeding ${plan.list.objects} objects`);
    const list = await listOverHttp(client, { ...plan.list, payload });
    log(`(f) watch: ${plan.watch.watchers} watchers`);
    const watch = await watchFanOut(client, newClient, { ...plan.watch, payload });
    scenarios = { apiCreates, bareCreates, get, list, watch };
  } finally {
    client.close();
    bareClient.close();
    await Promise.all([api.stop(), bare.stop()]);
  }

  log("(e) LIST floor: Backend.list on the apiserver's database");
  const apiDb = await openSqliteBackend(join(dir, "api.db"));
  const listFloor = await listOnBackend(apiDb, plan.list.namespace, plan.list.runs).finally(() =>
    apiDb.close(),
  );
  return { ...scenarios, floorCreates, listFloor };
}

function machine() {
  const cpus = os.cpus();
  return {
    cpus: cpus.length,
    cpuModel: cpus[0]?.model ?? "unknown",
    node: process.version,
    /** Flags of this process (its worker-thread servers share them) and of the Hearth processes it starts. */
    nodeFlags: { bench: process.execArgv, hearth: NODE_FLAGS },
    platform: `${os.platform()} ${os.release()} ${os.arch()}`,
    totalMemGiB: Math.round(os.totalmem() / 2 ** 30),
    loadAverageAtStart: os.loadavg().map((l) => Math.round(l * 100) / 100),
  };
}

function apiScenarios(plan: Plan, r: ApiResults) {
  return {
    apiCreates: { params: { ...plan.creates, namespace: "default" }, levels: r.apiCreates },
    floorCreates: { params: plan.creates, levels: r.floorCreates },
    bareCreates: { params: plan.bare, levels: r.bareCreates },
    get: { params: plan.get, result: r.get },
    list: { params: plan.list, result: r.list, backendFloor: r.listFloor },
    watch: { params: plan.watch, result: r.watch },
  };
}

/** A container group's plan, with the runtime and networks it ran on. */
function criParams<T extends object>(plan: T) {
  return { ...plan, runtime: "cri", podCIDR: CRI_POD_CIDR, serviceCIDR: CRI_SERVICE_CIDR };
}

function report(args: Args, r: Results, startedAt: Date, finishedAt: Date, host: object) {
  const { plan } = args;
  return {
    benchmark: "hearth",
    mode: plan.mode,
    groups: args.only,
    startedAt: startedAt.toISOString(),
    finishedAt: finishedAt.toISOString(),
    durationS: Math.round((finishedAt.getTime() - startedAt.getTime()) / 100) / 10,
    machine: { ...host, loadAverageAtEnd: os.loadavg().map((l) => Math.round(l * 100) / 100) },
    setup: {
      transport: "HTTPS (ECDSA P-256 certificate) on 127.0.0.1, keep-alive, client maxSockets 64",
      servers:
        "each server under test runs in its own worker thread; the load runs on the main thread",
      object: `ConfigMap with one data value of ${plan.payloadChars} characters`,
      latency: "milliseconds; p50/p90/p99 by nearest rank over all samples",
      workloads:
        "reconcileThroughput runs its apiserver in this process on the memory backend; criPodStart, criIdlePods and serviceThroughput run `hearth up` as a child process with its own containerd",
    },
    scenarios: {
      ...(r.apiserver ? apiScenarios(plan, r.apiserver) : {}),
      ...(r.reconcileThroughput
        ? { reconcileThroughput: { params: plan.reconcile, result: r.reconcileThroughput } }
        : {}),
      ...(r.deploymentStart
        ? { deploymentStart: { params: plan.deploymentStart, result: r.deploymentStart } }
        : {}),
      ...(r.apiserverEtcd
        ? { apiserverEtcd: { params: plan.apiserverEtcd, result: r.apiserverEtcd } }
        : {}),
      ...(r.watches ? { watches: { params: plan.watches, result: r.watches } } : {}),
      ...(r.clusterDns ? { clusterDns: { params: plan.clusterDns, result: r.clusterDns } } : {}),
      ...(r.idleTenants
        ? { idleTenants: { params: plan.idleTenants, result: r.idleTenants } }
        : {}),
      ...(r.criPodStart
        ? { criPodStart: { params: criParams(plan.criPodStart), result: r.criPodStart } }
        : {}),
      ...(r.criIdlePods
        ? { criIdlePods: { params: criParams(plan.criIdlePods), result: r.criIdlePods } }
        : {}),
      ...(r.serviceThroughput
        ? {
            serviceThroughput: {
              params: criParams(plan.serviceThroughput),
              result: r.serviceThroughput,
            },
          }
        : {}),
      ...(r.streaming
        ? {
            streaming: {
              params: { ...plan.streaming, runtime: "cri", ...STREAMING_NETWORK },
              result: r.streaming,
            },
          }
        : {}),
    },
    ratios: ratios(r),
    targets: targets(r),
    /** Handles still open after everything was stopped (stdio aside); should be empty. */
    leftoverResources: process
      .getActiveResourcesInfo()
      .filter((h) => !["TTYWrap", "PipeWrap", "FSReqCallback"].includes(h)),
  };
}

async function main(): Promise<void> {
  let args: Args | "help";
  try {
    args = parseArgs(process.argv.slice(2));
  } catch (e) {
    console.error(e instanceof Error ? e.message : String(e));
    process.exitCode = 2;
    return;
  }
  if (args === "help") {
    console.log(USAGE);
    return;
  }
  const host = machine();
  const startedAt = new Date();
  log(`${args.plan.mode} run of ${args.only.join(", ")} on ${host.cpus} CPUs, node ${host.node}`);
  const dir = await mkdtemp(join(os.tmpdir(), "hearth-bench-"));
  const results = await runAll(dir, args).finally(() => rm(dir, { recursive: true, force: true }));
  const finishedAt = new Date();
  const out = report(args, results, startedAt, finishedAt, host);
  const text = `${JSON.stringify(out, null, 2)}\n`;
  await mkdir(args.outDir, { recursive: true });
  const file = join(args.outDir, `${out.startedAt.replace(/:/g, "-")}.json`);
  await writeFile(file, text);
  // A partial run (--only) leaves latest.json to the last run of every group.
  if (args.only.length === GROUPS.length) await writeFile(join(args.outDir, "latest.json"), text);
  const load = [host.loadAverageAtStart[0]!, out.machine.loadAverageAtEnd[0]!];
  const busy =
    Math.max(...load) > host.cpus / 2 ? " (other work was running: numbers are noisy)" : "";
  const header = `Hearth bench (${out.mode}), ${host.cpus} × ${host.cpuModel}, node ${host.node}, ${out.durationS} s, load average ${load.join(" → ")}${busy}`;
  console.log(summary(results, header));
  console.log(`\nresults: ${file}`);
  if (out.leftoverResources.length > 0)
    console.log(`leftover handles: ${out.leftoverResources.join(", ")}`);
}

main().catch((e: unknown) => {
  console.error("bench: crashed:", e);
  process.exitCode = 1;
});
