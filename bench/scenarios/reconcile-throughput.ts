/**
 * Throughput of the controller runtime (src/runtime) with an in-memory no-op
 * reconciler that only notes each request. `queue`: every key enqueued on the
 * Manager's ReconcileLoop, timed from the first enqueue to the last key reconciled, at each
 * worker count. `informer`: an Informer on the ConfigMaps of an in-process
 * apiserver (memory backend, plain HTTP, same thread) feeding a ReconcileLoop,
 * timed from the informer's start to every key reconciled once. The floors, in
 * the same run: a plain loop awaiting the same reconcile over the same keys,
 * and for the informer, one LIST with the same client and then that loop.
 */
import { randomUUID } from "node:crypto";
import { ApiServer } from "../../src/apiserver/index.js";
import { createHttpClient, type HttpClient } from "../../src/client/index.js";
import {
  Informer,
  objectKey,
  ReconcileLoop,
  type Request,
  requestFromKey,
  requestKey,
  type TypedReconciler,
} from "../../src/runtime/index.js";
import { MemoryBackend } from "../../src/storage/index.js";
import { median, round } from "../stats.js";

export interface ReconcilePlan {
  objects: number;
  workers: number[];
  /** Timed runs of each variant (after an untimed warm-up round); the median is reported. */
  runs: number;
  informerRuns: number;
  namespace: string;
  payload: string;
}

export interface Rate {
  keys: number;
  runsMs: number[];
  medianMs: number;
  /** keys ÷ the median run. */
  keysPerSec: number;
}

export interface ReconcileResult {
  /** A plain loop awaiting the reconcile for each key. */
  floor: Rate;
  queue: (Rate & { workers: number })[];
  informer: Rate & { workers: number };
  /** One LIST of the same ConfigMaps, then the plain loop. */
  listFloor: Rate;
}

/** The no-op reconciler: notes the key; `all` resolves once `expected` distinct keys were seen. */
function noop(expected: number): TypedReconciler & { all: Promise<void> } {
  const seen = new Set<string>();
  let resolve!: () => void;
  const all = new Promise<void>((r) => (resolve = r));
  return {
    all,
    async reconcile(req: Request) {
      seen.add(requestKey(req));
      if (seen.size === expected) resolve();
    },
  };
}

/** The loop the Manager runs for one controller, without a Manager around it. */
function reconcileLoop(r: TypedReconciler, name: string, workers = 1): ReconcileLoop {
  return new ReconcileLoop(r, { name, workers, deadlineMs: 60_000, onError: () => {} });
}

/**
 * Runs the variants in turn, `runs` times after one untimed warm-up round, so
 * that each sees the same conditions; each returns its elapsed ms.
 */
async function interleaved(
  runs: number,
  keys: number,
  variants: (() => Promise<number>)[],
): Promise<Rate[]> {
  const runsMs = variants.map(() => [] as number[]);
  for (let run = 0; run <= runs; run++) {
    for (const [i, variant] of variants.entries()) {
      const ms = await variant();
      if (run > 0) runsMs[i]!.push(round(ms, 2));
    }
  }
  return runsMs.map((ms) => {
    const medianMs = median(ms);
    return { keys, runsMs: ms, medianMs, keysPerSec: round((keys / medianMs) * 1000, 0) };
  });
}

async function loop(keys: string[]): Promise<number> {
  const r = noop(keys.length);
  const ctx = { signal: new AbortController().signal, retries: 0 };
  const start = performance.now();
  for (const key of keys) await r.reconcile(requestFromKey(key), ctx);
  return performance.now() - start;
}

async function queue(keys: string[], workers: number): Promise<number> {
  const r = noop(keys.length);
  const controller = reconcileLoop(r, "bench-reconcile", workers);
  const stop = new AbortController();
  const start = performance.now();
  for (const key of keys) controller.enqueue(requestFromKey(key));
  const running = controller.run(stop.signal);
  await r.all;
  const ms = performance.now() - start;
  stop.abort();
  await running;
  return ms;
}

async function informer(client: HttpClient, ns: string, count: number): Promise<number> {
  const r = noop(count);
  const controller = reconcileLoop(r, "bench-informer");
  const inf = new Informer(client, { apiVersion: "v1", kind: "ConfigMap", namespace: ns });
  inf.addHandlers({ onAdd: (obj) => controller.enqueue(requestFromKey(objectKey(obj))) });
  const stop = new AbortController();
  const start = performance.now();
  const running = [inf.run(stop.signal), controller.run(stop.signal)];
  await r.all;
  const ms = performance.now() - start;
  stop.abort();
  await Promise.all(running);
  return ms;
}

async function listThenLoop(client: HttpClient, ns: string): Promise<number> {
  const start = performance.now();
  const list = await client.list({ apiVersion: "v1", kind: "ConfigMap" }, { namespace: ns });
  const ms = performance.now() - start;
  return ms + (await loop(list.items.map(objectKey)));
}

/** The ConfigMaps as the apiserver stores them, written straight to the backend. */
async function seed(backend: MemoryBackend, plan: ReconcilePlan): Promise<void> {
  const creationTimestamp = new Date().toISOString().replace(/\.\d+Z$/, "Z");
  for (let i = 0; i < plan.objects; i++) {
    const name = `cm-${i}`;
    const obj = {
      apiVersion: "v1",
      kind: "ConfigMap",
      metadata: { name, namespace: plan.namespace, uid: randomUUID(), creationTimestamp },
      data: { k: plan.payload },
    };
    await backend.create(
      `/registry/core/configmaps/${plan.namespace}/${name}`,
      JSON.stringify(obj),
    );
  }
}

export async function reconcileThroughput(plan: ReconcilePlan): Promise<ReconcileResult> {
  const keys = Array.from({ length: plan.objects }, (_, i) => `${plan.namespace}/cm-${i}`);
  const [floor, ...queued] = await interleaved(plan.runs, keys.length, [
    () => loop(keys),
    ...plan.workers.map((workers) => () => queue(keys, workers)),
  ]);

  const backend = new MemoryBackend();
  await seed(backend, plan);
  const server = new ApiServer({ backend, tokens: new Map(), host: "127.0.0.1", port: 0 });
  const stop = new AbortController();
  await server.start(stop.signal);
  const client = createHttpClient({ server: `http://127.0.0.1:${server.port}` });
  try {
    const [listFloor, inf] = await interleaved(plan.informerRuns, plan.objects, [
      () => listThenLoop(client, plan.namespace),
      () => informer(client, plan.namespace, plan.objects),
    ]);
    return {
      floor: floor!,
      queue: plan.workers.map((workers, i) => ({ workers, ...queued[i]! })),
      informer: { workers: 1, ...inf! },
      listFloor: listFloor!,
    };
  } finally {
    client.close();
    stop.abort();
    await server.closed();
    await backend.close();
  }
}
