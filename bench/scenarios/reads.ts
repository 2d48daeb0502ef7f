/**
 * Reads. GET: single objects at a steady request rate (open loop), latency from
 * each request's scheduled start. LIST: a namespace is filled with ConfigMaps, then
 * the full collection is fetched over HTTPS several times (time to the last byte of
 * the body; one untimed warm-up), and the same prefix is listed on a Backend
 * in-process as the floor.
 */
import type { Client } from "../../src/client/index.js";
import type { Backend } from "../../src/storage/index.js";
import { closedLoop, type LoadResult, type OpenLoopResult, openLoop } from "../load.js";
import { median, round } from "../stats.js";
import { configMapsPath, httpCreates } from "./creates.js";

type Requester = Pick<Client, "request">;

export interface GetPlan {
  rate: number;
  durationMs: number;
  namespace: string;
  /** Existing objects; each request picks one at random. */
  names: string[];
}

export function getAtRate(client: Requester, plan: GetPlan): Promise<OpenLoopResult> {
  const base = configMapsPath(plan.namespace);
  return openLoop(plan.rate, plan.durationMs, async () => {
    const name = plan.names[Math.floor(Math.random() * plan.names.length)]!;
    const res = await client.request("GET", `${base}/${name}`);
    if (res.status !== 200) throw new Error(`HTTP ${res.status}: ${res.body.slice(0, 200)}`);
  });
}

export interface ListPlan {
  namespace: string;
  objects: number;
  runs: number;
  /** Concurrency of the creates that fill the namespace. */
  seedConcurrency: number;
  payload: string;
}

export interface Timings {
  runsMs: number[];
  minMs: number;
  medianMs: number;
}

export interface ListOverHttpResult extends Timings {
  seed: LoadResult;
  items: number;
  bodyBytes: number;
}

export async function createNamespace(client: Requester, name: string): Promise<void> {
  const body = JSON.stringify({ apiVersion: "v1", kind: "Namespace", metadata: { name } });
  const res = await client.request("POST", "/api/v1/namespaces", body);
  if (res.status !== 201) throw new Error(`cannot create namespace ${name}: HTTP ${res.status}`);
}

export function timings(runsMs: number[]): Timings {
  const rounded = runsMs.map((ms) => round(ms, 1));
  return { runsMs: rounded, minMs: Math.min(...rounded), medianMs: median(rounded) };
}

export async function listOverHttp(client: Requester, plan: ListPlan): Promise<ListOverHttpResult> {
  await createNamespace(client, plan.namespace);
  const seed = await closedLoop(
    plan.seedConcurrency,
    plan.objects,
    httpCreates(client, plan.namespace, plan.payload)("obj"),
  );
  const path = configMapsPath(plan.namespace);
  const runsMs: number[] = [];
  let items = 0;
  let bodyBytes = 0;
  for (let run = 0; run <= plan.runs; run++) {
    const start = performance.now();
    const res = await client.request("GET", path);
    const ms = performance.now() - start;
    if (res.status !== 200) throw new Error(`cannot list ${path}: HTTP ${res.status}`);
    if (run === 0) continue; // warm-up
    runsMs.push(ms);
    items = (JSON.parse(res.body) as { items: unknown[] }).items.length;
    bodyBytes = Buffer.byteLength(res.body);
  }
  return { seed, items, bodyBytes, ...timings(runsMs) };
}

/** Backend.list of the namespace's prefix, `runs` times after one warm-up. */
export async function listOnBackend(
  backend: Backend,
  namespace: string,
  runs: number,
): Promise<Timings & { items: number }> {
  const prefix = `/registry/core/configmaps/${namespace}/`;
  const runsMs: number[] = [];
  let items = 0;
  for (let run = 0; run <= runs; run++) {
    const start = performance.now();
    const page = await backend.list(prefix);
    if (run > 0) runsMs.push(performance.now() - start);
    items = page.items.length;
  }
  return { items, ...timings(runsMs) };
}
