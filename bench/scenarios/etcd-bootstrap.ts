/**
 * etcd bootstrap (`--only etcdBootstrap`): on a real `hearth up`, the time
 * from POSTing a 3-member EtcdCluster with TLS and auth to its Ready condition
 * (Services, certificates, members, claims, pods, etcd's quorum, root user and
 * auth), then its deletion awaited; against it, alternating run by run, the
 * same three etcd processes with the same TLS started by hand
 * (bench/etcd-trio.ts), certificates included, to all three healthy.
 */
import type { HttpClient } from "../../src/client/index.js";
import { clientFromKubeconfig } from "../../src/client/index.js";
import { etcdClusterObject, etcdHearthArgs, tlsSecrets } from "../../test/support/etcd-cluster.js";
import { startHearth, waitFor } from "../../test/support/hearth-process.js";
import { stopAndClean } from "../../test/support/node-pods.js";
import { startTrio } from "../etcd-trio.js";
import { type LatencySummary, round, summarize } from "../stats.js";

export interface EtcdBootstrapPlan {
  runs: number;
  deadlineMs: number;
}

export interface EtcdBootstrapResult {
  runs: number;
  errors: number;
  errorSamples: string[];
  /** POST → Ready=True of a 3-member EtcdCluster, ms. */
  operatorMs: LatencySummary;
  /** DELETE → the cluster and every pod and claim gone, ms. */
  deleteMs: LatencySummary;
  /** Certificates + three etcd processes by hand → all healthy, ms. */
  byHandMs: LatencySummary;
  /** operator p50 ÷ by-hand p50. */
  operatorToByHand: number;
  /** Pod processes still alive after `hearth up` stopped (then killed); should be 0. */
  leftoverProcesses: number;
}

const BASE = "/apis/etcd.hearth.io/v1alpha1/namespaces/default/etcdclusters";

async function ready(client: HttpClient, name: string): Promise<boolean> {
  const res = await client.request("GET", `${BASE}/${name}`);
  if (res.status !== 200) return false;
  const conds = (JSON.parse(res.body).status?.conditions ?? []) as {
    type: string;
    status: string;
  }[];
  return conds.some((c) => c.type === "Ready" && c.status === "True");
}

async function operatorRun(
  client: HttpClient,
  name: string,
  deadlineMs: number,
): Promise<[number, number]> {
  const start = performance.now();
  const body = JSON.stringify(etcdClusterObject(name, { replicas: 3, auth: true }));
  const res = await client.request("POST", BASE, body);
  if (res.status !== 201)
    throw new Error(`cannot create EtcdCluster ${name}: HTTP ${res.status} ${res.body}`);
  await waitFor(`EtcdCluster ${name} Ready`, () => ready(client, name), deadlineMs);
  const readyMs = performance.now() - start;
  const del = performance.now();
  await client.request("DELETE", `${BASE}/${name}`);
  const selector = encodeURIComponent(`etcd.hearth.io/cluster=${name}`);
  await waitFor(
    `EtcdCluster ${name} and its pods and claims gone`,
    async () => {
      const gone = (await client.request("GET", `${BASE}/${name}`)).status === 404;
      const left = await Promise.all(
        ["pods", "persistentvolumeclaims"].map(async (r) => {
          const list = await client.request(
            "GET",
            `/api/v1/namespaces/default/${r}?labelSelector=${selector}`,
          );
          return JSON.parse(list.body).items.length as number;
        }),
      );
      return gone && left.every((n) => n === 0);
    },
    deadlineMs,
  );
  const deleteMs = performance.now() - del;
  const s = tlsSecrets(name);
  for (const kept of [s.ca, s.client, s.peerCa])
    await client.request("DELETE", `/api/v1/namespaces/default/secrets/${kept}`);
  return [readyMs, deleteMs];
}

export async function etcdBootstrap(plan: EtcdBootstrapPlan): Promise<EtcdBootstrapResult> {
  const h = await startHearth({ extraArgs: etcdHearthArgs() });
  const client = await clientFromKubeconfig(h.kubeconfig);
  const operator: number[] = [];
  const deletes: number[] = [];
  const byHand: number[] = [];
  const errorSamples: string[] = [];
  let errors = 0;
  const fail = (e: unknown) => {
    errors++;
    const msg = e instanceof Error ? e.message : String(e);
    if (errorSamples.length < 3) errorSamples.push(msg);
  };
  let leftoverProcesses = 0;
  try {
    for (let i = 0; i < plan.runs; i++) {
      try {
        const [readyMs, deleteMs] = await operatorRun(client, `boot${i}`, plan.deadlineMs);
        operator.push(readyMs);
        deletes.push(deleteMs);
      } catch (e) {
        fail(e);
      }
      try {
        const start = performance.now();
        const trio = await startTrio(plan.deadlineMs);
        byHand.push(performance.now() - start);
        await trio.stop();
      } catch (e) {
        fail(e);
      }
    }
  } finally {
    client.close();
    leftoverProcesses = await stopAndClean(h);
  }
  const operatorMs = summarize(operator);
  const byHandMs = summarize(byHand);
  return {
    runs: plan.runs,
    errors,
    errorSamples,
    operatorMs,
    deleteMs: summarize(deletes),
    byHandMs,
    operatorToByHand: byHandMs.p50 > 0 ? round(operatorMs.p50 / byHandMs.p50, 2) : 0,
    leftoverProcesses,
  };
}

export function etcdBootstrapLines(r: EtcdBootstrapResult): string[] {
  const row = (what: string, l: LatencySummary) =>
    `  ${what.padEnd(44)} ${l.p50.toFixed(0).padStart(8)} ${l.max.toFixed(0).padStart(8)} ${String(l.count).padStart(5)}`;
  return [
    `etcdBootstrap: 3 members with TLS, ${r.runs} run(s)              p50 ms   max ms  runs`,
    row("EtcdCluster POST → Ready (operator)", r.operatorMs),
    row("EtcdCluster DELETE → pods and claims gone", r.deleteMs),
    row("three etcd processes by hand → healthy", r.byHandMs),
    `  operator/by-hand = ${r.operatorToByHand}, errors ${r.errors}, leftover processes ${r.leftoverProcesses}`,
    ...r.errorSamples.map((e) => `    ${e}`),
  ];
}

export function etcdBootstrapTargets(r: EtcdBootstrapResult) {
  return {
    etcdBootstrapClean: {
      description: "etcd bootstrap: every run Ready and deleted, no process left",
      value: r.errors + r.leftoverProcesses,
      pass: r.errors === 0 && r.leftoverProcesses === 0,
      applicable: true,
    },
  };
}
