/**
 * Watch fan-out: many watchers on the ConfigMaps of one fresh namespace, all from
 * the namespace's resourceVersion so none can miss an event while connecting. A
 * sentinel create proves every watch is live before timing starts; then `events`
 * creates, one at a time and spaced apart, are timed per watcher from just before
 * the POST to the watcher seeing the ADDED event.
 */
import { setMaxListeners } from "node:events";
import { setTimeout as sleep } from "node:timers/promises";
import type { HttpClient } from "../../src/client/index.js";
import { type LatencySummary, summarize } from "../stats.js";
import { configMapJson, configMapsPath } from "./creates.js";
import { createNamespace } from "./reads.js";

export interface WatchPlan {
  namespace: string;
  watchers: number;
  events: number;
  spacingMs: number;
  payload: string;
  /** How long to wait for stragglers after the last create. */
  deadlineMs: number;
}

export interface WatchResult {
  expected: number;
  delivered: number;
  missed: number;
  watcherErrors: string[];
  latencyMs: LatencySummary;
}

/** One client per this many watches: a client pools at most 64 sockets. */
const WATCHES_PER_CLIENT = 50;

export async function watchFanOut(
  writer: HttpClient,
  newClient: () => HttpClient,
  plan: WatchPlan,
): Promise<WatchResult> {
  await createNamespace(writer, plan.namespace);
  const path = configMapsPath(plan.namespace);
  const listed = await writer.request("GET", path);
  const rv = (JSON.parse(listed.body) as { metadata: { resourceVersion: string } }).metadata
    .resourceVersion;

  const clients = Array.from({ length: Math.ceil(plan.watchers / WATCHES_PER_CLIENT) }, newClient);
  const stop = new AbortController();
  // Every watch request listens on this one signal.
  setMaxListeners(plan.watchers + 10, stop.signal);
  const seen = Array.from({ length: plan.watchers }, () => new Map<string, number>());
  const watcherErrors: string[] = [];
  const loops = seen.map(async (times, w) => {
    const client = clients[Math.floor(w / WATCHES_PER_CLIENT)]!;
    const opts = { namespace: plan.namespace, resourceVersion: rv };
    try {
      for await (const ev of client.watch(
        { apiVersion: "v1", kind: "ConfigMap" },
        { ...opts, signal: stop.signal },
      )) {
        const name = ev.object.metadata?.name;
        if (ev.type === "ADDED" && name) times.set(name, performance.now());
      }
    } catch (e) {
      watcherErrors.push(`watcher ${w}: ${e instanceof Error ? e.message : String(e)}`);
    }
  });
  const allSaw = (names: string[]) => seen.every((t) => names.every((n) => t.has(n)));
  const create = async (name: string) => {
    const res = await writer.request("POST", path, configMapJson(name, plan.payload));
    if (res.status !== 201) throw new Error(`cannot create ${name}: HTTP ${res.status}`);
  };

  try {
    await create("sentinel");
    await waitFor(() => allSaw(["sentinel"]), plan.deadlineMs);
    const sentAt = new Map<string, number>();
    for (let i = 0; i < plan.events; i++) {
      const name = `ev-${i}`;
      sentAt.set(name, performance.now());
      await create(name);
      await sleep(plan.spacingMs);
    }
    await waitFor(() => allSaw([...sentAt.keys()]), plan.deadlineMs);
    const latencies: number[] = [];
    for (const times of seen) {
      for (const [name, sent] of sentAt) {
        const got = times.get(name);
        if (got !== undefined) latencies.push(got - sent);
      }
    }
    const expected = plan.watchers * plan.events;
    return {
      expected,
      delivered: latencies.length,
      missed: expected - latencies.length,
      watcherErrors: watcherErrors.slice(0, 3),
      latencyMs: summarize(latencies),
    };
  } finally {
    stop.abort();
    await Promise.all(loops);
    for (const c of clients) c.close();
  }
}

/** Polls `cond` every few milliseconds until it holds or `deadlineMs` passes. */
async function waitFor(cond: () => boolean, deadlineMs: number): Promise<boolean> {
  const end = performance.now() + deadlineMs;
  while (!cond()) {
    if (performance.now() > end) return false;
    await sleep(5);
  }
  return true;
}
