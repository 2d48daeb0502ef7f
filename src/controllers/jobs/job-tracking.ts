/**
 * kube's trackJobStatusAndRemoveFinalizers, the exactly-once counting of
 * finished pods: (1) write their uids to `status.uncountedTerminatedPods`
 * together with any interim condition, (2) release their job-tracking
 * finalizers, (3) move the released uids into `succeeded`/`failed`, and set
 * the final `Complete`/`Failed` once nothing is uncounted or terminating. A
 * crash between steps is repaired by the next pass: uncounted uids whose pod
 * has lost its finalizer (or is gone) are counted then.
 */

import type { Pod } from "../../api/index.js";
import { type Job, type JobCondition, type JobStatus, trueCondition } from "../../api/index.js";
import type { Client, EventRecorder } from "../../client/index.js";
import { finalOf } from "./job-conditions.js";
import { hasTrackingFinalizer, isFailed } from "./job-pods.js";
import { type PodCounts, statusChanged, withCounters } from "./job-status.js";
import type { PodControl } from "./pod-control.js";

export interface TrackDeps {
  client: Client;
  pods: PodControl;
  recorder: EventRecorder;
}

/** One pass of the protocol for a running Job; `status` already holds this pass's changes. */
export async function trackPods(
  deps: TrackDeps,
  job: Job,
  status: JobStatus,
  pods: Pod[],
  uncounted: { succeeded: Set<string>; failed: Set<string> },
  counts: PodCounts,
  finished: JobCondition | undefined,
  now: number,
): Promise<void> {
  const failure =
    finished !== undefined &&
    finished.type !== "SuccessCriteriaMet" &&
    finished.type !== "Complete";
  const toRelease = pods.filter(
    (p) =>
      hasTrackingFinalizer(p) && (finished || p.status?.phase === "Succeeded" || isFailed(p, job)),
  );
  for (const p of toRelease) {
    const uid = p.metadata.uid!;
    if (uncounted.succeeded.has(uid) || uncounted.failed.has(uid)) continue;
    if (p.status?.phase === "Succeeded") uncounted.succeeded.add(uid);
    else if (isFailed(p, job) || failure) uncounted.failed.add(uid);
  }
  let final: JobCondition | undefined;
  if (finished) {
    const interim = finished.type === "FailureTarget" || finished.type === "SuccessCriteriaMet";
    if (interim && !trueCondition(status, finished.type)) status.conditions!.push(finished);
    final = interim ? finalOf(finished, now) : finished;
  }
  status.uncountedTerminatedPods = {
    succeeded: [...uncounted.succeeded],
    failed: [...uncounted.failed],
  };
  const holding = (except: Set<string>) =>
    new Set(
      pods
        .filter((p) => hasTrackingFinalizer(p) && !except.has(p.metadata.uid!))
        .map((p) => p.metadata.uid!),
    );
  let current = job;
  const first = withCounters(status, counts, holding(new Set()));
  if (statusChanged(job.status, first))
    current = await deps.client.updateStatus({ ...job, status: first });

  const { released, error } = await deps.pods.releaseAll(toRelease);
  const next = withCounters(first, counts, holding(released));
  const left =
    (next.uncountedTerminatedPods?.succeeded?.length ?? 0) +
    (next.uncountedTerminatedPods?.failed?.length ?? 0);
  if (final && !error && left === 0 && counts.terminating === 0) {
    next.conditions = (next.conditions ?? []).filter((c) => c.type !== final.type);
    next.conditions.push(final);
    if (final.type === "Complete") {
      next.completionTime = final.lastTransitionTime;
      deps.recorder.event(job, "Normal", "Completed", "Job completed");
    } else {
      deps.recorder.event(job, "Warning", final.reason ?? "Failed", final.message ?? "");
    }
  }
  if (statusChanged(current.status, next))
    await deps.client.updateStatus({ ...current, status: next });
  if (error) throw error;
}
