/**
 * Runs the batch controllers against the API: Jobs, CronJobs and the release
 * of orphaned job-tracking finalizers. Three informers (Jobs, CronJobs, Pods)
 * only decide what to look at — a pod wakes its controlling Job, a Job its
 * controlling CronJob (owner-based enqueue); the reconcilers read fresh state.
 * The handles are returned so that tests can poke a key after moving the clock.
 */

import type { KubeObject } from "../../api/index.js";
import { JOB_TRACKING_FINALIZER, type Job, jobFinishedAs } from "../../api/index.js";
import { type Client, EventRecorder } from "../../client/index.js";
import { Controller, Informer, objectKey } from "../../runtime/index.js";
import { CronJobReconciler } from "./cronjob-controller.js";
import { type JobControllerOptions, JobReconciler } from "./job-controller.js";
import { controllerRef } from "./job-pods.js";
import { OrphanPodReconciler } from "./orphan-pods.js";

export interface BatchControllerOptions extends JobControllerOptions {
  log?(msg: string, err?: unknown): void;
  /** Reconcile workers per controller (default 2). */
  workers?: number;
}

export interface BatchControllers {
  jobs: Controller;
  cronJobs: Controller;
  orphanPods: Controller;
  /** Resolves once every loop has stopped (after `signal` aborts). */
  done: Promise<void>;
}

/** `namespace/name` of the object's controller when it is of `kind`. */
function ownerKey(obj: KubeObject, kind: string): string | undefined {
  const ref = controllerRef(obj);
  if (ref?.kind !== kind || ref.apiVersion !== "batch/v1") return undefined;
  return `${obj.metadata.namespace}/${ref.name}`;
}

const tracked = (o: KubeObject) => (o.metadata.finalizers ?? []).includes(JOB_TRACKING_FINALIZER);

export function startBatchControllers(
  client: Client,
  signal: AbortSignal,
  opts: BatchControllerOptions = {},
): BatchControllers {
  const log = opts.log ?? (() => {});
  const onError = (name: string) => (key: string, err: unknown) =>
    log(`${name} ${key}: reconcile failed`, err);
  const recorder = (component: string) =>
    new EventRecorder(client, {
      component,
      onError: (e) => log(`${component}: recording an event failed`, e),
      ...(opts.now ? { now: () => new Date(opts.now!()) } : {}),
    });
  const workers = opts.workers ?? 2;
  const jobs = new Controller(new JobReconciler(client, recorder("job-controller"), opts), {
    name: "job",
    workers,
    onError: onError("job"),
  });
  const cronJobs = new Controller(
    new CronJobReconciler(
      client,
      recorder("cronjob-controller"),
      opts.now ? { now: opts.now } : {},
    ),
    { name: "cronjob", workers, onError: onError("cronjob") },
  );
  const orphanPods = new Controller(new OrphanPodReconciler(client, recorder("job-controller")), {
    name: "job-orphan-pod",
    workers: 1,
    onError: onError("job orphan pod"),
  });

  const informer = (apiVersion: string, kind: string) =>
    new Informer(client, { apiVersion, kind, onError: (e) => log(`${kind} informer`, e) });
  const jobInformer = informer("batch/v1", "Job");
  const cronJobInformer = informer("batch/v1", "CronJob");
  const podInformer = informer("v1", "Pod");

  const onJob = (job: KubeObject) => {
    jobs.enqueue(objectKey(job));
    const owner = ownerKey(job, "CronJob");
    if (owner) cronJobs.enqueue(owner);
  };
  jobInformer.addHandlers({
    onAdd: onJob,
    onUpdate: (_old, job) => onJob(job),
    onDelete: (job) => {
      const owner = ownerKey(job, "CronJob");
      if (owner) cronJobs.enqueue(owner);
      // Its pods will not be counted any more: let them go.
      for (const pod of podInformer.list())
        if (tracked(pod) && controllerRef(pod)?.uid === job.metadata.uid)
          orphanPods.enqueue(objectKey(pod));
    },
  });
  const onCronJob = (cj: KubeObject) => cronJobs.enqueue(objectKey(cj));
  cronJobInformer.addHandlers({
    onAdd: onCronJob,
    onUpdate: (_old, cj) => onCronJob(cj),
    onDelete: onCronJob,
  });

  const onPod = (pod: KubeObject) => {
    const owner = ownerKey(pod, "Job");
    if (owner) jobs.enqueue(owner);
    if (!tracked(pod)) return;
    const job = owner ? (jobInformer.get(owner) as Job | undefined) : undefined;
    if (!job || job.metadata.uid !== controllerRef(pod)?.uid || jobFinishedAs(job))
      orphanPods.enqueue(objectKey(pod));
  };
  podInformer.addHandlers({ onAdd: onPod, onUpdate: (_old, pod) => onPod(pod), onDelete: onPod });

  const done = Promise.all(
    [jobInformer, cronJobInformer, podInformer, jobs, cronJobs, orphanPods].map((x) =>
      x.run(signal),
    ),
  ).then(() => undefined);
  return { jobs, cronJobs, orphanPods, done };
}
