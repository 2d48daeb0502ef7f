/**
 * Watches (`--only watches`): a real `hearth up` (fresh data directory, node
 * agent) with `tenants` Tenants, each with the Etcd module and its app of
 * `etcdReplicas` members. Once every Tenant and Etcd app is Ready and a
 * settling pause has passed: the open watches per resource and per selector
 * from `/metrics` (bench/watch-metrics.ts), and the CPU and RSS of the hearth
 * process over a window. The same census and window with no Tenant yet, right
 * after start-up, is the baseline.
 */
import { setTimeout as sleep } from "node:timers/promises";
import type { LoadResult } from "../load.js";
import { startPlatform } from "../platform-process.js";
import { measureProcess, type ProcessWindow } from "../proc-usage.js";
import { round } from "../stats.js";
import { createTenants, enableEtcd, waitEtcdAppsReady, waitTenantsReady } from "../tenants.js";
import { scrapeWatches, type WatchCensus } from "../watch-metrics.js";

export interface WatchesPlan {
  tenants: number;
  /** Members of each tenant's Etcd app (the module's default is 3; fewer spare the machine). */
  etcdReplicas: number;
  settleMs: number;
  windowMs: number;
  concurrency: number;
  readyDeadlineMs: number;
}

export interface WatchesSample {
  watches: WatchCensus;
  process: ProcessWindow;
}

export interface WatchesResult {
  tenants: number;
  etcdReplicas: number;
  /** Right after start-up, no Tenant. */
  empty: WatchesSample;
  /** Every Tenant and Etcd app Ready. */
  converged: WatchesSample;
  create: LoadResult;
  /** From the first POST to every Tenant and Etcd app Ready. */
  convergeMs: number;
  tenantsReady: number;
  etcdAppsReady: number;
  leftoverProcesses: number;
}

async function sample(
  p: { pid: number; client: Parameters<typeof scrapeWatches>[0] },
  plan: WatchesPlan,
) {
  await sleep(plan.settleMs);
  const watches = await scrapeWatches(p.client);
  return { watches, process: await measureProcess(p.pid, plan.windowMs) };
}

export async function watchesScenario(dir: string, plan: WatchesPlan): Promise<WatchesResult> {
  const p = await startPlatform(dir, "watches");
  let leftoverProcesses = 0;
  let result: Omit<WatchesResult, "leftoverProcesses">;
  try {
    const empty = await sample(p, plan);
    const start = performance.now();
    const create = await createTenants(p.client, 0, plan.tenants, plan.concurrency);
    await Promise.all(
      Array.from({ length: plan.tenants }, (_, i) => enableEtcd(p.client, i, plan.etcdReplicas)),
    );
    const etcdAppsReady = await waitEtcdAppsReady(p.client, plan.tenants, plan.readyDeadlineMs);
    const tenantsReady = await waitTenantsReady(p.client, plan.tenants, plan.readyDeadlineMs);
    const convergeMs = round(performance.now() - start, 0);
    const converged = await sample(p, plan);
    result = {
      tenants: plan.tenants,
      etcdReplicas: plan.etcdReplicas,
      empty,
      converged,
      create,
      convergeMs,
      tenantsReady,
      etcdAppsReady,
    };
  } finally {
    leftoverProcesses = await p.stop();
  }
  return { ...result, leftoverProcesses };
}
