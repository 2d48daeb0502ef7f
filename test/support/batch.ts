/**
 * Helpers for tests of the batch controllers: an in-process apiserver with the
 * Job and CronJob controllers running on a clock the test moves, Job and
 * CronJob manifests, and "kubelet" moves on pods (set a phase through the
 * status subresource).
 */
import type { CronJob, Job } from "../../src/api/batch.js";
import type { Pod } from "../../src/api/pod.js";
import type { KubeObject } from "../../src/api/types.js";
import { type Client, createHttpClient } from "../../src/client/index.js";
import { type BatchControllers, startBatchControllers } from "../../src/controllers/jobs/index.js";
import { waitFor } from "./hearth-process.js";
import { type InProcessServer, startInProcess } from "./in-process.js";

export interface BatchEnv {
  server: InProcessServer;
  client: Client;
  controllers: BatchControllers;
  /** The controllers' clock: real time plus `skewMs`. */
  clock: { skewMs: number };
  stop(): Promise<void>;
}

export async function startBatchEnv(
  opts: { podFailureBackoffMs?: number } = {},
): Promise<BatchEnv> {
  const server = await startInProcess();
  const client = createHttpClient({ server: server.url });
  const clock = { skewMs: 0 };
  const stopper = new AbortController();
  const controllers = startBatchControllers(client, stopper.signal, {
    now: () => Date.now() + clock.skewMs,
    podFailureBackoffMs: opts.podFailureBackoffMs ?? 50,
    maxPodFailureBackoffMs: 1000,
  });
  return {
    server,
    client,
    controllers,
    clock,
    async stop() {
      stopper.abort();
      await controllers.done;
      await server.stop();
    },
  };
}

const container = { name: "main", image: "busybox", command: ["sh", "-c", "exit 0"] };

export function jobManifest(name: string, spec: Partial<Job["spec"]> = {}): Job {
  return {
    apiVersion: "batch/v1",
    kind: "Job",
    metadata: { name, namespace: "default" },
    spec: { template: { spec: { restartPolicy: "Never", containers: [container] } }, ...spec },
  };
}

export function cronJobManifest(name: string, spec: Partial<CronJob["spec"]> = {}): CronJob {
  return {
    apiVersion: "batch/v1",
    kind: "CronJob",
    metadata: { name, namespace: "default" },
    spec: {
      schedule: "* * * * *",
      jobTemplate: {
        spec: { template: { spec: { restartPolicy: "OnFailure", containers: [container] } } },
      },
      ...spec,
    },
  };
}

export async function podsOfJob(client: Client, job: string): Promise<Pod[]> {
  const list = await client.list<Pod>(
    { apiVersion: "v1", kind: "Pod" },
    {
      namespace: "default",
      labelSelector: `batch.kubernetes.io/job-name=${job}`,
    },
  );
  return list.items;
}

/** Waits until the Job has `n` active (unfinished, undeleted) pods and returns them. */
export function activePods(client: Client, job: string, n: number): Promise<Pod[]> {
  return waitFor(`${n} active pods of job ${job}`, async () => {
    const pods = (await podsOfJob(client, job)).filter(
      (p) =>
        !p.metadata.deletionTimestamp && !["Succeeded", "Failed"].includes(p.status?.phase ?? ""),
    );
    return pods.length === n ? pods : undefined;
  });
}

/** Plays the kubelet: the pod's phase, as a node agent would report it. */
export async function setPhase(
  client: Client,
  pod: Pod,
  phase: "Running" | "Succeeded" | "Failed",
) {
  await client.patchStatus(
    { apiVersion: "v1", kind: "Pod", name: pod.metadata.name!, namespace: "default" },
    { status: { phase } },
    { type: "merge" },
  );
}

export function getJob(client: Client, name: string): Promise<Job> {
  return client.get<Job>({ apiVersion: "batch/v1", kind: "Job", name, namespace: "default" });
}

export function conditionOf(job: Job, type: string) {
  return job.status?.conditions?.find((c) => c.type === type && c.status === "True");
}

/** Waits for the Job to carry a true condition of `type`. */
export function jobCondition(
  client: Client,
  name: string,
  type: string,
  timeoutMs = 20_000,
): Promise<Job> {
  return waitFor(
    `job ${name} ${type}`,
    async () => {
      const job = await getJob(client, name);
      return conditionOf(job, type) ? job : undefined;
    },
    timeoutMs,
  );
}

export async function eventsFor(client: Client, obj: KubeObject): Promise<string[]> {
  const list = await client.list(
    { apiVersion: "v1", kind: "Event" },
    {
      namespace: "default",
      fieldSelector: `involvedObject.name=${obj.metadata.name}`,
    },
  );
  return list.items.map((e) => `${e.reason}: ${e.message}`);
}
