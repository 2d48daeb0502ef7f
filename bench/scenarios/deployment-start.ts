/**
 * A Deployment of N replicas on a real `hearth up` on containers (busybox
 * sleepers, as criIdlePods; see cri-hearth.ts):
 * from its POST to all N pods Ready (each `Ready=True` seen on one pod watch),
 * beside the floor — the same N pods POSTed directly (16 at a time) to all
 * Ready — and then a rolling update of the N (a template annotation changed)
 * to the Deployment's status reporting all N updated and available. Each side
 * is deleted and awaited gone before the next.
 */
import type { Deployment } from "../../src/api/apps.js";
import type { Pod } from "../../src/api/pod.js";
import type { HttpClient } from "../../src/client/index.js";
import { type CriGroupResult, onCriHearth } from "../cri-hearth.js";
import { BUSYBOX, sleeperPod } from "../cri-pod-specs.js";
import type { PodWatch } from "../pod-watch.js";

export interface DeploymentStartPlan {
  replicas: number;
  /** Longest wait for all pods Ready (or gone, or rolled). */
  deadlineMs: number;
}

export interface DeploymentStartRun {
  replicas: number;
  /** POST of the Deployment → every pod Ready. */
  deploymentReadyMs: number;
  /** The same pods POSTed directly → every pod Ready (the floor). */
  directReadyMs: number;
  /** A template change → status: all replicas updated and available. */
  rollingUpdateMs: number;
  errors: string[];
}

/** The run, with the container processes left after `hearth up` stopped (should be 0), or why it was skipped. */
export type DeploymentStartResult = CriGroupResult<DeploymentStartRun>;

const NS = "default";
const PODS = `/api/v1/namespaces/${NS}/pods`;
const DEPLOYMENTS = `/apis/apps/v1/namespaces/${NS}/deployments`;

async function ok(client: HttpClient, method: string, path: string, body?: unknown) {
  const headers: Record<string, string> =
    method === "PATCH" ? { "content-type": "application/merge-patch+json" } : {};
  const res = await client.request(
    method,
    path,
    body === undefined ? undefined : JSON.stringify(body),
    headers,
  );
  if (res.status >= 300) throw new Error(`${method} ${path}: HTTP ${res.status} ${res.body}`);
  return JSON.parse(res.body) as Record<string, unknown>;
}

/** Waits until `count` pods whose name starts with `prefix` are Ready; false on the deadline. */
function allReady(watch: PodWatch, prefix: string, count: number, ms: number) {
  const ready = () => [...watch.readyAt.keys()].filter((n) => n.startsWith(prefix)).length;
  return watch.until(() => ready() >= count, ms);
}

async function untilGone(client: HttpClient, prefix: string, ms: number): Promise<void> {
  const deadline = Date.now() + ms;
  for (let delay = 50; Date.now() < deadline; delay = Math.min(delay * 2, 1000)) {
    const list = await client.list<Pod>({ apiVersion: "v1", kind: "Pod" }, { namespace: NS });
    if (!list.items.some((p) => p.metadata.name?.startsWith(prefix))) return;
    await new Promise((r) => setTimeout(r, delay));
  }
  throw new Error(`pods ${prefix}* not gone within ${ms} ms`);
}

async function direct(client: HttpClient, watch: PodWatch, plan: DeploymentStartPlan) {
  const start = performance.now();
  const names = Array.from({ length: plan.replicas }, (_, i) => `direct-${i}`);
  for (let i = 0; i < names.length; i += 16)
    await Promise.all(names.slice(i, i + 16).map((n) => ok(client, "POST", PODS, sleeperPod(n))));
  if (!(await allReady(watch, "direct-", plan.replicas, plan.deadlineMs)))
    throw new Error(`direct pods not all Ready within ${plan.deadlineMs} ms`);
  const ms = performance.now() - start;
  await Promise.all(names.map((n) => client.request("DELETE", `${PODS}/${n}`)));
  await untilGone(client, "direct-", plan.deadlineMs);
  return ms;
}

function deployment(replicas: number): Deployment {
  const pod = sleeperPod("x");
  return {
    apiVersion: "apps/v1",
    kind: "Deployment",
    metadata: { name: "bench", namespace: NS },
    spec: {
      replicas,
      selector: { matchLabels: { app: "bench" } },
      template: { metadata: { labels: { app: "bench" } }, spec: { ...pod.spec } },
    },
  };
}

async function rolled(client: HttpClient, replicas: number, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  for (let delay = 20; Date.now() < deadline; delay = Math.min(delay * 2, 200)) {
    const d = (await ok(client, "GET", `${DEPLOYMENTS}/bench`)) as unknown as Deployment;
    const s = d.status;
    if (
      s?.observedGeneration === d.metadata.generation &&
      s?.updatedReplicas === replicas &&
      s?.availableReplicas === replicas &&
      s?.replicas === replicas
    )
      return true;
    await new Promise((r) => setTimeout(r, delay));
  }
  return false;
}

export function deploymentStart(
  dir: string,
  plan: DeploymentStartPlan,
): Promise<DeploymentStartResult> {
  return onCriHearth(dir, "deployment-start", [BUSYBOX], async ({ client }, watch) => {
    const result = {
      replicas: plan.replicas,
      deploymentReadyMs: -1,
      directReadyMs: -1,
      rollingUpdateMs: -1,
    };
    const errors: string[] = [];
    try {
      result.directReadyMs = await direct(client, watch, plan);
    } catch (e) {
      errors.push(String(e));
    }
    try {
      const start = performance.now();
      await ok(client, "POST", DEPLOYMENTS, deployment(plan.replicas));
      if (!(await allReady(watch, "bench-", plan.replicas, plan.deadlineMs)))
        throw new Error(`Deployment pods not all Ready within ${plan.deadlineMs} ms`);
      result.deploymentReadyMs = performance.now() - start;
      await rolled(client, plan.replicas, plan.deadlineMs);
      const rollStart = performance.now();
      const patch = { spec: { template: { metadata: { annotations: { "bench/rev": "2" } } } } };
      await ok(client, "PATCH", `${DEPLOYMENTS}/bench`, patch);
      if (!(await rolled(client, plan.replicas, plan.deadlineMs)))
        throw new Error(`rolling update not done within ${plan.deadlineMs} ms`);
      result.rollingUpdateMs = performance.now() - rollStart;
    } catch (e) {
      errors.push(String(e));
    }
    return { ...result, errors };
  });
}
