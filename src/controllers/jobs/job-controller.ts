/**
 * The Job controller (kube's pkg/controller/job; NonIndexed completion only —
 * an Indexed Job gets a Warning event and is left alone): keeps
 * `parallelism` pods running until `completions` have succeeded, recreates
 * failed ones after an exponential backoff, fails the Job past `backoffLimit`
 * or `activeDeadlineSeconds` (stopping its pods), deletes active pods while
 * suspended, and deletes a finished Job `ttlSecondsAfterFinished` later.
 *
 * Finished pods are counted exactly once with kube's protocol: pods carry the
 * `batch.kubernetes.io/job-tracking` finalizer; a finished pod's uid is first
 * written to `status.uncountedTerminatedPods`, then its finalizer is removed,
 * then the uid moves into `succeeded`/`failed`. A crash between any two steps
 * is repaired by the next reconcile. `Complete`/`Failed` follow the interim
 * `SuccessCriteriaMet`/`FailureTarget` once no pod is uncounted or terminating.
 * Reads are fresh from the API (no cache), so pods just created are never
 * missed and never created twice.
 */

import type { Pod } from "../../api/index.js";
import {
  type Job,
  type JobCondition,
  type JobStatus,
  jobFinishedAs,
  rfc3339,
  trueCondition,
} from "../../api/index.js";
import { type Client, type EventRecorder, getOptional } from "../../client/index.js";
import { DONE, type Request, type Result, type TypedReconciler } from "../../runtime/index.js";
import {
  MESSAGE_BACKOFF_LIMIT,
  MESSAGE_COMPLETIONS_REACHED,
  MESSAGE_DEADLINE,
  newCondition,
  REASON_BACKOFF_LIMIT,
  REASON_COMPLETIONS_REACHED,
  REASON_DEADLINE,
} from "./job-conditions.js";
import { manageJob } from "./job-manage.js";
import {
  controllerRef,
  hasTrackingFinalizer,
  isActive,
  isFailed,
  isReady,
  isTerminating,
  pastBackoffLimitOnFailure,
  selectorString,
} from "./job-pods.js";
import { trackPods } from "./job-tracking.js";
import { jobTtlResult } from "./job-ttl.js";
import { PodControl } from "./pod-control.js";

export interface JobControllerOptions {
  /** The clock (epoch ms); tests pass their own. */
  now?: () => number;
  /** First delay before recreating pods after a failure (kube: 10 s), doubled per failure. */
  podFailureBackoffMs?: number;
  /** Cap of that delay (kube: 10 minutes). */
  maxPodFailureBackoffMs?: number;
}

export class JobReconciler implements TypedReconciler {
  readonly pods: PodControl;
  private readonly now: () => number;

  constructor(
    readonly client: Client,
    readonly recorder: EventRecorder,
    private readonly opts: JobControllerOptions = {},
  ) {
    this.pods = new PodControl(client, recorder);
    this.now = opts.now ?? Date.now;
  }

  async reconcile(req: Request): Promise<Result> {
    const { name } = req;
    const namespace = req.namespace ?? "";
    const job = await getOptional<Job>(this.client, {
      apiVersion: "batch/v1",
      kind: "Job",
      name,
      namespace,
    });
    if (!job) return DONE;
    const pods = await this.podsOf(job);
    if (job.metadata.deletionTimestamp || jobFinishedAs(job)) {
      // Nothing more to count: let every pod go (kube's cleanupPodFinalizers).
      const { error } = await this.pods.releaseAll(pods.filter(hasTrackingFinalizer));
      if (error) throw error;
      if (job.metadata.deletionTimestamp) return DONE;
      return jobTtlResult(this.client, job, this.now());
    }
    if (job.spec.completionMode === "Indexed") {
      // Not implemented yet: say so rather than run it as NonIndexed.
      this.recorder.event(
        job,
        "Warning",
        "UnsupportedCompletionMode",
        "Skipped Job sync because Hearth's Job controller does not run Indexed Jobs yet",
      );
      return DONE;
    }
    return this.sync(job, pods);
  }

  /** The pods this Job controls (selected by its selector, controlled by its uid). */
  private async podsOf(job: Job): Promise<Pod[]> {
    const list = await this.client.list<Pod>(
      { apiVersion: "v1", kind: "Pod" },
      {
        namespace: job.metadata.namespace,
        labelSelector: selectorString(job.spec.selector),
      },
    );
    return list.items.filter((p) => controllerRef(p)?.uid === job.metadata.uid);
  }

  private async sync(job: Job, pods: Pod[]): Promise<Result> {
    const now = this.now();
    const status: JobStatus = structuredClone(job.status ?? {});
    status.conditions ??= [];
    const uncounted = {
      succeeded: new Set(status.uncountedTerminatedPods?.succeeded ?? []),
      failed: new Set(status.uncountedTerminatedPods?.failed ?? []),
    };
    const isUncounted = (p: Pod) =>
      uncounted.succeeded.has(p.metadata.uid!) || uncounted.failed.has(p.metadata.uid!);
    const counting = pods.filter((p) => hasTrackingFinalizer(p) && !isUncounted(p));
    const succeeded =
      (status.succeeded ?? 0) +
      uncounted.succeeded.size +
      counting.filter((p) => p.status?.phase === "Succeeded").length;
    const failed =
      (status.failed ?? 0) +
      uncounted.failed.size +
      counting.filter((p) => isFailed(p, job)).length;
    const suspended = job.spec.suspend === true;
    if (!status.startTime && !suspended) status.startTime = rfc3339(now);

    const active = pods.filter(isActive);
    const counts = {
      active: active.length,
      ready: active.filter(isReady).length,
      terminating: pods.filter(isTerminating).length,
    };
    let requeueAfter: number | undefined;
    let finished = this.finishedCondition(job, status, pods, failed, now);
    if (!finished && job.spec.activeDeadlineSeconds !== undefined && !suspended) {
      requeueAfter = job.spec.activeDeadlineSeconds * 1000 - (now - Date.parse(status.startTime!));
    }
    let manageError: unknown;
    if (finished) {
      // Stop what still runs; those pods keep their finalizer and count as failed.
      const results = await Promise.allSettled(active.map((p) => this.pods.delete(job, p)));
      const deleted = results.filter((r) => r.status === "fulfilled").length;
      counts.active -= deleted;
      counts.terminating += deleted;
      counts.ready = 0;
      manageError = results.find((r) => r.status === "rejected")?.reason;
      if (manageError) finished = undefined;
    } else {
      const managed = await manageJob(this.pods, this.recorder, job, status, {
        active,
        counts,
        succeeded,
        pods,
        now,
        backoff: {
          baseMs: this.opts.podFailureBackoffMs ?? 10_000,
          maxMs: this.opts.maxPodFailureBackoffMs ?? 600_000,
        },
      });
      manageError = managed.error;
      if (managed.requeueAfter !== undefined)
        requeueAfter = Math.min(requeueAfter ?? Number.POSITIVE_INFINITY, managed.requeueAfter);
      const want = job.spec.completions;
      const complete =
        counts.active === 0 && (want === undefined ? succeeded > 0 : succeeded >= want);
      if (complete)
        finished = newCondition(
          "SuccessCriteriaMet",
          "True",
          REASON_COMPLETIONS_REACHED,
          MESSAGE_COMPLETIONS_REACHED,
          now,
        );
    }
    await trackPods(this, job, status, pods, uncounted, counts, finished, now);
    if (manageError) throw manageError;
    return requeueAfter === undefined ? DONE : { requeueAfter: Math.max(requeueAfter, 1) };
  }

  /** An interim condition already set, or the failure the counters and clock call for. */
  private finishedCondition(
    job: Job,
    status: JobStatus,
    pods: Pod[],
    failed: number,
    now: number,
  ): JobCondition | undefined {
    const success = trueCondition(status, "SuccessCriteriaMet");
    if (success) return success;
    const target = trueCondition(status, "FailureTarget");
    if (target) return target;
    if (failed > (job.spec.backoffLimit ?? 6) || pastBackoffLimitOnFailure(job, pods))
      return newCondition(
        "FailureTarget",
        "True",
        REASON_BACKOFF_LIMIT,
        MESSAGE_BACKOFF_LIMIT,
        now,
      );
    const deadline = job.spec.activeDeadlineSeconds;
    if (deadline !== undefined && status.startTime && job.spec.suspend !== true) {
      if (now - Date.parse(status.startTime) >= deadline * 1000)
        return newCondition("FailureTarget", "True", REASON_DEADLINE, MESSAGE_DEADLINE, now);
    }
    return undefined;
  }
}
