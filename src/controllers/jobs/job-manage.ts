/**
 * kube's manageJob: the pods a running Job should have. Suspended, every active
 * pod goes (released first, so it is not counted as failed). Otherwise the Job
 * wants `min(parallelism, completions - succeeded)` active pods (or
 * `parallelism` until the first success when completions is unset): surplus
 * pods are deleted, missing ones created — unless a recent failure asks to wait
 * (the backoff), which becomes a requeue. Also the `Suspended` condition.
 */

import type { Job, JobStatus, Pod } from "../../api/index.js";
import { rfc3339 } from "../../api/index.js";
import type { EventRecorder } from "../../client/index.js";
import { ensureCondition } from "./job-conditions.js";
import { backoffRemaining, isReady, isTerminating, removalOrder } from "./job-pods.js";
import type { PodCounts } from "./job-status.js";
import type { PodControl } from "./pod-control.js";

export interface ManageInput {
  active: Pod[];
  /** Updated in place as pods are created and deleted. */
  counts: PodCounts;
  succeeded: number;
  pods: Pod[];
  now: number;
  backoff: { baseMs: number; maxMs: number };
}

export interface ManageResult {
  requeueAfter?: number;
  error?: unknown;
}

async function remove(control: PodControl, job: Job, pods: Pod[], counts: PodCounts) {
  const results = await Promise.allSettled(pods.map((p) => control.releaseAndDelete(job, p)));
  results.forEach((r, i) => {
    if (r.status !== "fulfilled") return;
    counts.active--;
    counts.terminating++;
    if (isReady(pods[i]!)) counts.ready--;
  });
  return results.find((r) => r.status === "rejected")?.reason as unknown;
}

export async function manageJob(
  control: PodControl,
  recorder: EventRecorder,
  job: Job,
  status: JobStatus,
  input: ManageInput,
): Promise<ManageResult> {
  const { counts, now } = input;
  status.conditions ??= [];
  const conditions = status.conditions;
  if (job.spec.suspend === true) {
    if (ensureCondition(conditions, "Suspended", "True", "JobSuspended", "Job suspended", now))
      recorder.event(job, "Normal", "Suspended", "Job suspended");
    const error = await remove(control, job, input.active, counts);
    return error === undefined ? {} : { error };
  }
  if (ensureCondition(conditions, "Suspended", "False", "JobResumed", "Job resumed", now)) {
    recorder.event(job, "Normal", "Resumed", "Job resumed");
    // activeDeadlineSeconds counts from the resume.
    status.startTime = rfc3339(now);
  }

  const parallelism = job.spec.parallelism ?? 1;
  const completions = job.spec.completions;
  const want =
    completions === undefined
      ? input.succeeded > 0
        ? counts.active
        : parallelism
      : Math.max(0, Math.min(completions - input.succeeded, parallelism));

  if (counts.active > want) {
    const surplus = removalOrder(input.active).slice(0, counts.active - want);
    const error = await remove(control, job, surplus, counts);
    return error === undefined ? {} : { error };
  }
  // With podReplacementPolicy Failed, pods still terminating hold their place.
  const terminating =
    job.spec.podReplacementPolicy === "Failed" ? input.pods.filter(isTerminating).length : 0;
  const missing = want - terminating - counts.active;
  if (missing <= 0) return {};
  const wait = backoffRemaining(input.pods, job, now, input.backoff.baseMs, input.backoff.maxMs);
  if (wait > 0) return { requeueAfter: wait };
  const { created, error } = await control.create(job, missing);
  counts.active += created;
  return error === undefined ? {} : { error };
}
