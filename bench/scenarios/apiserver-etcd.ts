/**
 * The apiserver on etcd (`--only apiserverEtcd`): in one run, against one real
 * etcd (test/support/etcd-process.ts, plain HTTP on loopback), at each
 * concurrency: raw puts through the same etcd3 client the backend uses (the
 * floor), ConfigMap creates over HTTPS to an apiserver on the etcd backend in
 * a worker thread (as (a) runs it), the same creates to one on SQLite, and to
 * the bare HTTPS server of (a) writing each with the etcd backend's one
 * transaction (what any Node HTTPS server that stores in etcd pays). Target:
 * apiserver-on-etcd creates/s ≥ 0.5 × raw puts/s. The HTTPS creates come from
 * the lean generator of bench/https-posts.ts, so that the cores the three share
 * go to the apiserver and etcd rather than to the client; etcd's own CPU time
 * per operation is reported beside each series.
 */
import { randomBytes } from "node:crypto";
import { join } from "node:path";
import type { KeyPair } from "../../src/pki/index.js";
import { createEtcdClient } from "../../src/storage/etcd/etcd-client.js";
import { startEtcd } from "../../test/support/etcd-process.js";
import { openPostPool } from "../https-posts.js";
import { closedLoop, type LoadResult } from "../load.js";
import { cpuTimeMs } from "../proc-usage.js";
import { startServerThread } from "../server-thread.js";
import type { WorkerConfig } from "../server-worker.js";
import { round } from "../stats.js";
import { configMapJson, configMapsPath, type LevelPlan, type OperationFactory } from "./creates.js";

/** A load result with etcd's CPU time (its process, all threads) per operation. */
export interface EtcdLoadResult extends LoadResult {
  etcdCpuMsPerOp: number;
}

export interface EtcdLevel {
  concurrency: number;
  rawPuts: EtcdLoadResult;
  apiOnEtcd: EtcdLoadResult;
  apiOnSqlite: EtcdLoadResult;
  bareOnEtcd: EtcdLoadResult;
  /** apiOnEtcd ÷ rawPuts creates/s (target ≥ 0.5). */
  etcdToRaw: number;
  /** bareOnEtcd ÷ rawPuts: the most any Node HTTPS server on this client reaches here. */
  bareToRaw: number;
  /** apiOnEtcd ÷ bareOnEtcd: the apiserver's own work, as (a)'s API ÷ bare. */
  etcdToBare: number;
  /** apiOnEtcd ÷ apiOnSqlite creates/s. */
  etcdToSqlite: number;
}

export interface ApiserverEtcdResult {
  etcdVersion: string;
  levels: EtcdLevel[];
}

export const ETCD_TO_RAW_TARGET = 0.5;

interface Env {
  dir: string;
  tls: { ca: KeyPair; serving: KeyPair };
  payload: string;
  etcdPid: number;
}

async function measure(
  env: Env,
  plan: LevelPlan,
  concurrency: number,
  ops: OperationFactory,
): Promise<EtcdLoadResult> {
  if (plan.warmup > 0) await closedLoop(concurrency, plan.warmup, ops(`w${concurrency}`));
  const etcdCpu = cpuTimeMs(env.etcdPid);
  const result = await closedLoop(concurrency, plan.count, ops(`c${concurrency}`));
  return {
    ...result,
    etcdCpuMsPerOp: round((cpuTimeMs(env.etcdPid) - etcdCpu) / plan.count, 4),
  };
}

/** Creates over HTTPS to a server (the apiserver, or the bare one) in a worker thread, one result per level. */
async function httpsCreates(
  env: Env,
  plan: LevelPlan,
  cfg: Partial<WorkerConfig>,
): Promise<EtcdLoadResult[]> {
  const token = randomBytes(24).toString("hex");
  const server = await startServerThread({
    kind: "api",
    ...cfg,
    dbPath: join(env.dir, "etcd-bench-sqlite.db"),
    certPem: env.tls.serving.certPem,
    keyPem: env.tls.serving.keyPem,
    token,
  });
  const target = {
    host: "127.0.0.1",
    port: Number(new URL(server.url).port),
    caPem: env.tls.ca.certPem,
    token,
  };
  try {
    const out: EtcdLoadResult[] = [];
    for (const c of plan.levels) {
      const pool = await openPostPool(target, configMapsPath("default"), c);
      try {
        const creates: OperationFactory = (tag) => (i) =>
          pool.create(configMapJson(`${tag}-${i}`, env.payload));
        out.push(await measure(env, plan, c, creates));
      } finally {
        pool.close();
      }
    }
    return out;
  } finally {
    await server.stop();
  }
}

export async function apiserverEtcd(
  dir: string,
  plan: LevelPlan,
  tls: { ca: KeyPair; serving: KeyPair },
  payload: string,
): Promise<ApiserverEtcdResult> {
  const etcd = await startEtcd({ dir: join(dir, "etcd") });
  const env: Env = { dir, tls, payload, etcdPid: etcd.pid };
  try {
    const raw = createEtcdClient({ endpoints: [etcd.endpoint] });
    const rawPuts: EtcdLoadResult[] = [];
    let etcdVersion = "unknown";
    try {
      etcdVersion = (await raw.maintenance.status()).version;
      const puts: OperationFactory = (tag) => async (i) => {
        const name = `${tag}-${i}`;
        await raw.put(`/raw/configmaps/default/${name}`).value(configMapJson(name, payload));
      };
      for (const c of plan.levels) rawPuts.push(await measure(env, plan, c, puts));
    } finally {
      raw.close();
    }
    const onEtcd = await httpsCreates(env, plan, {
      etcd: { endpoints: [etcd.endpoint], prefix: "/bench" },
    });
    const onSqlite = await httpsCreates(env, plan, {});
    const bare = await httpsCreates(env, plan, {
      kind: "bare",
      etcd: { endpoints: [etcd.endpoint], prefix: "/bare-bench" },
    });
    return {
      etcdVersion,
      levels: plan.levels.map((concurrency, i) => ({
        concurrency,
        rawPuts: rawPuts[i]!,
        apiOnEtcd: onEtcd[i]!,
        apiOnSqlite: onSqlite[i]!,
        bareOnEtcd: bare[i]!,
        etcdToRaw: round(onEtcd[i]!.opsPerSec / rawPuts[i]!.opsPerSec),
        bareToRaw: round(bare[i]!.opsPerSec / rawPuts[i]!.opsPerSec),
        etcdToBare: round(onEtcd[i]!.opsPerSec / bare[i]!.opsPerSec),
        etcdToSqlite: round(onEtcd[i]!.opsPerSec / onSqlite[i]!.opsPerSec),
      })),
    };
  } finally {
    await etcd.stop();
  }
}

/** The summary's lines for this group. */
export function apiserverEtcdLines(r: ApiserverEtcdResult): string[] {
  const lines = [
    `apiserverEtcd: creates of ~1 KiB ConfigMaps on etcd ${r.etcdVersion}   ops/s    p99 ms  errors  CPU ms/op: bench  etcd`,
  ];
  const row = (what: string, l: EtcdLoadResult) =>
    `  ${what.padEnd(32)} ${l.opsPerSec.toFixed(0).padStart(8)} ${l.latencyMs.p99.toFixed(2).padStart(9)} ${String(l.errors).padStart(7)} ${l.cpuMsPerOp.toFixed(2).padStart(17)} ${l.etcdCpuMsPerOp.toFixed(2).padStart(5)}`;
  for (const l of r.levels) {
    lines.push(
      row(`raw etcd puts, ${l.concurrency} clients`, l.rawPuts),
      row(`apiserver on etcd, ${l.concurrency} clients`, l.apiOnEtcd),
      row(`apiserver on SQLite, ${l.concurrency} clients`, l.apiOnSqlite),
      row(`bare HTTPS on etcd, ${l.concurrency} clients`, l.bareOnEtcd),
      `  etcd/raw = ${l.etcdToRaw} (target ≥ ${ETCD_TO_RAW_TARGET}), etcd/SQLite = ${l.etcdToSqlite}, bare/raw = ${l.bareToRaw}, etcd/bare = ${l.etcdToBare}`,
    );
  }
  const errors = r.levels.flatMap((l) => [
    ...l.rawPuts.errorSamples,
    ...l.apiOnEtcd.errorSamples,
    ...l.apiOnSqlite.errorSamples,
    ...l.bareOnEtcd.errorSamples,
  ]);
  if (errors.length > 0) lines.push("  errors seen:", ...errors.map((e) => `    ${e}`));
  return lines;
}

/**
 * The target of this group at each concurrency, in the shape of bench/report.ts's
 * targets; the bare server's ratio to raw puts is printed beside it, since no
 * Node HTTPS server on this etcd client can do better than that floor.
 */
export function apiserverEtcdTargets(r: ApiserverEtcdResult) {
  return Object.fromEntries(
    r.levels.map((l) => [
      `apiserverEtcdOverRawPuts${l.concurrency}`,
      {
        description: `apiserver creates/s on etcd ÷ raw etcd puts/s at c=${l.concurrency} ≥ ${ETCD_TO_RAW_TARGET} (bare HTTPS on etcd: ${l.bareToRaw})`,
        value: l.etcdToRaw,
        pass: l.etcdToRaw >= ETCD_TO_RAW_TARGET,
        applicable: true,
      },
    ]),
  );
}
