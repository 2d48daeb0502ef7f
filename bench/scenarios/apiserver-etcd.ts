/**
 * The apiserver on etcd (`--only apiserverEtcd`): in one run, against one real
 * etcd (test/support/etcd-process.ts, plain HTTP on loopback), at each
 * concurrency: raw puts through the same etcd3 client the backend uses (the
 * floor), ConfigMap creates over HTTPS to an apiserver on the etcd backend in
 * a worker thread (as (a) runs it), and the same creates to one on SQLite. Target:
 * apiserver-on-etcd creates/s ≥ 0.5 × raw puts/s.
 */
import { randomBytes } from "node:crypto";
import { join } from "node:path";
import { createHttpClient } from "../../src/client/index.js";
import type { KeyPair } from "../../src/pki/index.js";
import { createEtcdClient } from "../../src/storage/etcd/etcd-client.js";
import { startEtcd } from "../../test/support/etcd-process.js";
import { closedLoop, type LoadResult } from "../load.js";
import { startServerThread } from "../server-thread.js";
import type { WorkerConfig } from "../server-worker.js";
import { round } from "../stats.js";
import { configMapJson, httpCreates, type LevelPlan, type OperationFactory } from "./creates.js";

export interface EtcdLevel {
  concurrency: number;
  rawPuts: LoadResult;
  apiOnEtcd: LoadResult;
  apiOnSqlite: LoadResult;
  /** apiOnEtcd ÷ rawPuts creates/s (target ≥ 0.5). */
  etcdToRaw: number;
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
}

async function measure(plan: LevelPlan, concurrency: number, ops: OperationFactory) {
  if (plan.warmup > 0) await closedLoop(concurrency, plan.warmup, ops(`w${concurrency}`));
  return closedLoop(concurrency, plan.count, ops(`c${concurrency}`));
}

/** Creates over HTTPS to an apiserver in a worker thread (as in (a)), one result per level. */
async function apiCreates(
  env: Env,
  plan: LevelPlan,
  cfg: Partial<WorkerConfig>,
): Promise<LoadResult[]> {
  const token = randomBytes(24).toString("hex");
  const server = await startServerThread({
    kind: "api",
    dbPath: join(env.dir, "etcd-bench-sqlite.db"),
    certPem: env.tls.serving.certPem,
    keyPem: env.tls.serving.keyPem,
    token,
    ...cfg,
  });
  const client = createHttpClient({ server: server.url, caPem: env.tls.ca.certPem, token });
  try {
    const out: LoadResult[] = [];
    for (const c of plan.levels)
      out.push(await measure(plan, c, httpCreates(client, "default", env.payload)));
    return out;
  } finally {
    client.close();
    await server.stop();
  }
}

export async function apiserverEtcd(
  dir: string,
  plan: LevelPlan,
  tls: { ca: KeyPair; serving: KeyPair },
  payload: string,
): Promise<ApiserverEtcdResult> {
  const env: Env = { dir, tls, payload };
  const etcd = await startEtcd({ dir: join(dir, "etcd") });
  try {
    const raw = createEtcdClient({ endpoints: [etcd.endpoint] });
    const rawPuts: LoadResult[] = [];
    let etcdVersion = "unknown";
    try {
      etcdVersion = (await raw.maintenance.status()).version;
      const puts: OperationFactory = (tag) => async (i) => {
        const name = `${tag}-${i}`;
        await raw.put(`/raw/configmaps/default/${name}`).value(configMapJson(name, payload));
      };
      for (const c of plan.levels) rawPuts.push(await measure(plan, c, puts));
    } finally {
      raw.close();
    }
    const onEtcd = await apiCreates(env, plan, {
      etcd: { endpoints: [etcd.endpoint], prefix: "/bench" },
    });
    const onSqlite = await apiCreates(env, plan, {});
    return {
      etcdVersion,
      levels: plan.levels.map((concurrency, i) => ({
        concurrency,
        rawPuts: rawPuts[i]!,
        apiOnEtcd: onEtcd[i]!,
        apiOnSqlite: onSqlite[i]!,
        etcdToRaw: round(onEtcd[i]!.opsPerSec / rawPuts[i]!.opsPerSec),
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
    `apiserverEtcd: creates of ~1 KiB ConfigMaps on etcd ${r.etcdVersion}   ops/s    p99 ms  errors`,
  ];
  const row = (what: string, l: LoadResult) =>
    `  ${what.padEnd(32)} ${l.opsPerSec.toFixed(0).padStart(8)} ${l.latencyMs.p99.toFixed(2).padStart(9)} ${String(l.errors).padStart(7)}`;
  for (const l of r.levels) {
    lines.push(
      row(`raw etcd puts, ${l.concurrency} clients`, l.rawPuts),
      row(`apiserver on etcd, ${l.concurrency} clients`, l.apiOnEtcd),
      row(`apiserver on SQLite, ${l.concurrency} clients`, l.apiOnSqlite),
      `  etcd/raw = ${l.etcdToRaw} (target ≥ ${ETCD_TO_RAW_TARGET}), etcd/SQLite = ${l.etcdToSqlite}`,
    );
  }
  const errors = r.levels.flatMap((l) => [
    ...l.rawPuts.errorSamples,
    ...l.apiOnEtcd.errorSamples,
    ...l.apiOnSqlite.errorSamples,
  ]);
  if (errors.length > 0) lines.push("  errors seen:", ...errors.map((e) => `    ${e}`));
  return lines;
}

/** The target of this group, in the shape of bench/report.ts's targets. */
export function apiserverEtcdTargets(r: ApiserverEtcdResult) {
  const top = r.levels.at(-1)!;
  return {
    apiserverEtcdOverRawPuts: {
      description: `apiserver creates/s on etcd ÷ raw etcd puts/s at c=${top.concurrency} ≥ ${ETCD_TO_RAW_TARGET}`,
      value: top.etcdToRaw,
      pass: top.etcdToRaw >= ETCD_TO_RAW_TARGET,
      applicable: true,
    },
  };
}
