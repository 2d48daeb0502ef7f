/**
 * Tenants for the benchmarks, through the API as a user's client would: plain
 * Tenants under tenant-root created with concurrent POSTs, an Etcd module
 * turned on for some, and waiting (by polling LISTs, before any measuring
 * window) until every one is Ready.
 */
import type { HttpClient } from "../src/client/index.js";
import { waitFor } from "../test/support/hearth-process.js";
import { closedLoop, type LoadResult } from "./load.js";

const APPS = "/apis/apps.cozystack.io/v1alpha1";
const ROOT = `${APPS}/namespaces/tenant-root/tenants`;
/** Between polls of the tenants: often enough to see convergence, not so often as to cause it. */
const POLL_MS = 1000;

/** Tenant names have no dashes: `t0`, `t1`, …; `tenant-<name>` is its namespace. */
export const tenantName = (i: number) => `t${i}`;
export const tenantNamespace = (i: number) => `tenant-${tenantName(i)}`;

async function expect(
  client: HttpClient,
  method: string,
  path: string,
  body: object,
  code: number,
) {
  const res = await client.request(method, path, JSON.stringify(body), {
    ...(method === "PATCH" ? { "Content-Type": "application/merge-patch+json" } : {}),
  });
  if (res.status !== code)
    throw new Error(`${method} ${path}: HTTP ${res.status}: ${res.body.slice(0, 300)}`);
}

/** POSTs Tenants `t<from>` … `t<to - 1>` with `spec`, `concurrency` at a time. */
export function createTenants(
  client: HttpClient,
  from: number,
  to: number,
  concurrency: number,
  spec: object = {},
): Promise<LoadResult> {
  return closedLoop(concurrency, to - from, (i) =>
    expect(
      client,
      "POST",
      ROOT,
      {
        apiVersion: "apps.cozystack.io/v1alpha1",
        kind: "Tenant",
        metadata: { name: tenantName(from + i), namespace: "tenant-root" },
        spec,
      },
      201,
    ),
  );
}

/** Creates the Etcd app `etcd` in tenant `i`'s namespace, then turns the Tenant's etcd module on. */
export async function enableEtcd(client: HttpClient, i: number, replicas: number): Promise<void> {
  const ns = tenantNamespace(i);
  await waitFor(`namespace ${ns}`, async () => {
    return (await client.request("GET", `/api/v1/namespaces/${ns}`)).status === 200;
  });
  // As the e2e test: the module app leaves values a user set alone, so this sets its size.
  await expect(
    client,
    "POST",
    `${APPS}/namespaces/${ns}/etcds`,
    {
      apiVersion: "apps.cozystack.io/v1alpha1",
      kind: "Etcd",
      metadata: { name: "etcd", namespace: ns },
      spec: { replicas, size: "1Gi" },
    },
    201,
  );
  await expect(client, "PATCH", `${ROOT}/${tenantName(i)}`, { spec: { etcd: true } }, 200);
}

interface Conditioned {
  metadata: { name?: string; namespace?: string };
  status?: { conditions?: { type: string; status: string }[] };
}

const isReady = (o: Conditioned) =>
  (o.status?.conditions ?? []).some((c) => c.type === "Ready" && c.status === "True");

/** `namespace/name` of every Ready object of the collection at `path`. */
async function readyKeys(client: HttpClient, path: string): Promise<Set<string>> {
  const res = await client.request("GET", path);
  if (res.status !== 200) throw new Error(`GET ${path}: HTTP ${res.status}`);
  const items = (JSON.parse(res.body) as { items: Conditioned[] }).items;
  return new Set(items.filter(isReady).map((o) => `${o.metadata.namespace}/${o.metadata.name}`));
}

/**
 * Polls the collection at `path` until the `count` objects `key(i)` names are all
 * Ready or the deadline passes; returns how many were.
 */
async function waitReady(
  client: HttpClient,
  path: string,
  count: number,
  key: (i: number) => string,
  deadlineMs: number,
): Promise<number> {
  const deadline = performance.now() + deadlineMs;
  for (;;) {
    const ready = await readyKeys(client, path);
    let n = 0;
    for (let i = 0; i < count; i++) if (ready.has(key(i))) n++;
    if (n === count || performance.now() > deadline) return n;
    await new Promise((r) => setTimeout(r, POLL_MS));
  }
}

/** Waits until Tenants t0 … t<count - 1> are all Ready; returns how many were. */
export function waitTenantsReady(client: HttpClient, count: number, deadlineMs: number) {
  return waitReady(client, ROOT, count, (i) => `tenant-root/${tenantName(i)}`, deadlineMs);
}

/** Waits until the Etcd app of tenants 0 … count - 1 is Ready in each; returns how many were. */
export function waitEtcdAppsReady(client: HttpClient, count: number, deadlineMs: number) {
  return waitReady(client, `${APPS}/etcds`, count, (i) => `${tenantNamespace(i)}/etcd`, deadlineMs);
}
