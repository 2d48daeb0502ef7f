/**
 * Idle tenants (`--only idleTenants`): what plain Tenants cost a `hearth up`
 * that has nothing to do. One real `hearth up` (fresh data directory, node
 * agent); for each count in turn, in increasing order, Tenants are added
 * through the API (concurrent POSTs) until there are that many, all are
 * awaited Ready, and after a settling pause the hearth process's CPU (% of one
 * core) and RSS are measured over a window from /proc, with no request from
 * the bench meanwhile; the open watches are counted after the window. Floor: a
 * bare `node` process that only keeps a timer, measured over the same window.
 */
import { spawn } from "node:child_process";
import { once } from "node:events";
import { setTimeout as sleep } from "node:timers/promises";
import type { LoadResult } from "../load.js";
import { startPlatform } from "../platform-process.js";
import { measureProcess, type ProcessWindow } from "../proc-usage.js";
import { round } from "../stats.js";
import { createTenants, waitTenantsReady } from "../tenants.js";
import { scrapeWatches, type WatchCensus } from "../watch-metrics.js";

export interface IdleTenantsPlan {
  /** Tenant counts, measured in increasing order on one hearth up. */
  counts: number[];
  settleMs: number;
  windowMs: number;
  concurrency: number;
  /** Per level, from its first POST. */
  readyDeadlineMs: number;
}

export interface IdleLevel {
  tenants: number;
  /** The POSTs that brought the count up to `tenants` (absent at 0). */
  create?: LoadResult;
  /** From this level's first POST to every Tenant Ready. */
  readyMs: number;
  ready: number;
  idle: ProcessWindow;
  watches: Pick<WatchCensus, "total" | "maxPerSelector" | "series">;
  /** (this level − the level with no Tenant) ÷ tenants; absent at 0. */
  perTenant?: { cpuPercent: number; rssKB: number };
}

export interface IdleTenantsResult {
  levels: IdleLevel[];
  /** A bare node process with one timer, over the same window. */
  floor: ProcessWindow;
  leftoverProcesses: number;
}

/** A bare `node` that does nothing but keep a timer, measured over one window. */
async function floorWindow(windowMs: number, settleMs: number): Promise<ProcessWindow> {
  const child = spawn(process.execPath, ["-e", "setInterval(() => {}, 1 << 30)"], {
    stdio: "ignore",
  });
  try {
    await once(child, "spawn");
    await sleep(settleMs);
    return await measureProcess(child.pid!, windowMs);
  } finally {
    const exited = once(child, "exit");
    child.kill("SIGKILL");
    await exited;
  }
}

const log = (msg: string) => console.error(`bench: ${msg}`);

export async function idleTenants(dir: string, plan: IdleTenantsPlan): Promise<IdleTenantsResult> {
  const counts = [...new Set(plan.counts)].sort((a, b) => a - b);
  const floor = await floorWindow(plan.windowMs, plan.settleMs);
  const p = await startPlatform(dir, "idle-tenants");
  const levels: IdleLevel[] = [];
  let leftoverProcesses = 0;
  try {
    let have = 0;
    for (const n of counts) {
      const start = performance.now();
      const create =
        n > have ? await createTenants(p.client, have, n, plan.concurrency) : undefined;
      have = Math.max(have, n);
      const ready = await waitTenantsReady(p.client, n, plan.readyDeadlineMs);
      const readyMs = round(performance.now() - start, 0);
      log(`idleTenants: ${ready}/${n} Tenants Ready in ${readyMs} ms; measuring`);
      await sleep(plan.settleMs);
      const idle = await measureProcess(p.pid, plan.windowMs);
      const { total, maxPerSelector, series } = await scrapeWatches(p.client);
      const base = levels.find((l) => l.tenants === 0)?.idle;
      const per = (a: number, b: number) => round((b - a) / n, 4);
      levels.push({
        tenants: n,
        ...(create ? { create } : {}),
        readyMs,
        ready,
        idle,
        watches: { total, maxPerSelector, series },
        ...(base && n > 0
          ? {
              perTenant: {
                cpuPercent: per(base.cpuPercent, idle.cpuPercent),
                rssKB: round(per(base.rssMB, idle.rssMB) * 1000, 1),
              },
            }
          : {}),
      });
    }
  } finally {
    leftoverProcesses = await p.stop();
  }
  return { levels, floor, leftoverProcesses };
}
