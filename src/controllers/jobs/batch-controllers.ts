/**
 * Runs the batch controllers against the API: Jobs, CronJobs and the release
 * of orphaned job-tracking finalizers. Three informers (Jobs, CronJobs, Pods)
 * only decide what to look at — a pod wakes its controlling Job, a Job its
 * controlling CronJob (owner-based enqueue); the reconcilers read fresh state.
 * Every controller reads time from the Manager's Clock (`ManagerOptions.clock`)
 * unless `now` is given, so its requeueAfter (the backoff, the active deadline,
 * the TTL, the next schedule) fires on the same clock it measured with. The
 * handles are returned so that tests can poke a key after moving the clock.
 */

import type { KubeObject } from "../../api/index.js";
import { JOB_TRACKING_FINALIZER, type Job, jobFinishedAs } from "../../api/index.js";
import { type Client, controllerRecorder } from "../../client/index.js";
import {
  type BuiltController,
  type Clock,
  Manager,
  type RequestQueue,
  requestFromKey,
  requestOf,
  type WorkQueue,
} from "../../runtime/index.js";
import { CronJobReconciler } from "./cronjob-controller.js";
import { type JobControllerOptions, JobReconciler } from "./job-controller.js";
import { controllerRef } from "./job-pods.js";
import { OrphanPodReconciler } from "./orphan-pods.js";

export interface BatchControllerOptions extends JobControllerOptions {
  log?(msg: string, err?: unknown): void;
  /** Reconcile workers per controller (default 2). */
  workers?: number;
}

/** `startBatchControllers`' Manager runs on `clock` (default: the machine's). */
export interface StartBatchOptions extends BatchControllerOptions {
  clock?: Clock;
}

/** A controller's queue, for tests that poke a key after moving the clock. */
export interface ControllerHandle {
  enqueue(key: string): void;
  readonly queue: WorkQueue;
}

export interface BatchControllers {
  jobs: ControllerHandle;
  cronJobs: ControllerHandle;
  orphanPods: ControllerHandle;
}

const JOB = { apiVersion: "batch/v1", kind: "Job" };
const CRON_JOB = { apiVersion: "batch/v1", kind: "CronJob" };
const POD = { apiVersion: "v1", kind: "Pod" };

/** `namespace/name` of the object's controller when it is of `kind`. */
function ownerKey(obj: KubeObject, kind: string): string | undefined {
  const ref = controllerRef(obj);
  if (ref?.kind !== kind || ref.apiVersion !== "batch/v1") return undefined;
  return `${obj.metadata.namespace}/${ref.name}`;
}

const tracked = (o: KubeObject) => (o.metadata.finalizers ?? []).includes(JOB_TRACKING_FINALIZER);

function handle(c: BuiltController): ControllerHandle {
  return { enqueue: (key) => c.loop.enqueue(requestFromKey(key)), queue: c.loop.queue };
}

/** Runs the batch controllers on `manager`, the Pod informer shared with the others. */
export function registerBatchControllers(
  manager: Manager,
  client: Client,
  opts: BatchControllerOptions = {},
): BatchControllers {
  const log = opts.log ?? (() => {});
  const now = opts.now ?? (() => manager.clock.now());
  const recorder = (component: string) => controllerRecorder(client, component, log, now);
  const workers = opts.workers ?? 2;
  const jobInformer = manager.cache.informer(JOB).informer;
  const podInformer = manager.cache.informer(POD).informer;
  const jobs = manager
    .controller("job")
    .workers(workers)
    // A deleted Job's pods are the orphan controller's.
    .for(JOB, { predicates: [{ delete: () => false }] })
    .owns(POD)
    .complete(new JobReconciler(client, recorder("job-controller"), { ...opts, now }));
  const cronJobs = manager
    .controller("cronjob")
    .workers(workers)
    .for(CRON_JOB)
    .owns(JOB)
    .complete(new CronJobReconciler(client, recorder("cronjob-controller"), { now }));
  const orphanPod = (pod: KubeObject, q: RequestQueue) => {
    if (!tracked(pod)) return;
    const owner = ownerKey(pod, "Job");
    const job = owner ? (jobInformer.get(owner) as Job | undefined) : undefined;
    if (!job || job.metadata.uid !== controllerRef(pod)?.uid || jobFinishedAs(job))
      q.add(requestOf(pod));
  };
  const orphanPods = manager
    .controller("job-orphan-pod")
    .workers(1)
    .watchesWith(POD, {
      create: orphanPod,
      update: (_old, pod, q) => orphanPod(pod, q),
      delete: orphanPod,
    })
    .watchesWith(JOB, {
      // Its pods will not be counted any more: let them go.
      delete: (job, q) => {
        for (const pod of podInformer.list())
          if (tracked(pod) && controllerRef(pod)?.uid === job.metadata.uid) q.add(requestOf(pod));
      },
    })
    .complete(new OrphanPodReconciler(client, recorder("job-controller")));
  return { jobs: handle(jobs), cronJobs: handle(cronJobs), orphanPods: handle(orphanPods) };
}

/** Runs the batch controllers alone, on a Manager of their own, until `signal` aborts. */
export function startBatchControllers(
  client: Client,
  signal: AbortSignal,
  opts: StartBatchOptions = {},
): BatchControllers & { done: Promise<void> } {
  const manager = new Manager(client, {
    ...(opts.log ? { log: opts.log } : {}),
    ...(opts.clock ? { clock: opts.clock } : {}),
  });
  const controllers = registerBatchControllers(manager, client, opts);
  return { ...controllers, done: manager.start(signal) };
}
