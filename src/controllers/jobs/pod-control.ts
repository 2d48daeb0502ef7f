/**
 * The Job controller's writes to pods (kube's PodControl): create from the
 * template, delete, and release the job-tracking finalizer, each recording the
 * Event kube records (`SuccessfulCreate`, `FailedCreate`, `SuccessfulDelete`,
 * `FailedDelete`). A pod already gone counts as deleted and released.
 */

import type { Pod } from "../../api/index.js";
import { hasCode, JOB_TRACKING_FINALIZER, type Job } from "../../api/index.js";
import {
  type Client,
  type EventRecorder,
  errorText,
  ignoreNotFound,
  refOf,
} from "../../client/index.js";
import { hasTrackingFinalizer, podFromTemplate } from "./job-pods.js";

const RELEASE_PATCH = {
  metadata: { "$deleteFromPrimitiveList/finalizers": [JOB_TRACKING_FINALIZER] },
};

export class PodControl {
  constructor(
    private readonly client: Client,
    private readonly recorder: EventRecorder,
  ) {}

  /** Creates `count` pods; returns how many were created and the first error. */
  async create(job: Job, count: number): Promise<{ created: number; error?: unknown }> {
    let created = 0;
    let error: unknown;
    // kube's slow start: batches of 1, 2, 4, … stop at the first failing batch.
    for (let batch = 1; created < count && error === undefined; batch *= 2) {
      const n = Math.min(batch, count - created);
      const results = await Promise.allSettled(
        Array.from({ length: n }, () => this.client.create(podFromTemplate(job))),
      );
      for (const r of results) {
        if (r.status === "fulfilled") {
          created++;
          this.recorder.event(
            job,
            "Normal",
            "SuccessfulCreate",
            `Created pod: ${r.value.metadata.name}`,
          );
        } else if (!hasCode(r.reason, 403) || !String(r.reason).includes("being terminated")) {
          error ??= r.reason;
          this.recorder.event(
            job,
            "Warning",
            "FailedCreate",
            `Error creating: ${(r.reason as Error).message}`,
          );
        } else {
          error ??= r.reason; // the namespace is going away: nothing to report
        }
      }
    }
    return error === undefined ? { created } : { created, error };
  }

  /** Deletes a pod, keeping its finalizer so that it is still counted (as failed). */
  async delete(job: Job, pod: Pod): Promise<void> {
    let deleted: unknown;
    try {
      deleted = await ignoreNotFound(this.client.delete(refOf(pod)));
    } catch (e) {
      this.recorder.event(job, "Warning", "FailedDelete", `Error deleting: ${errorText(e)}`);
      throw e;
    }
    if (deleted === undefined) return; // already gone
    this.recorder.event(job, "Normal", "SuccessfulDelete", `Deleted pod: ${pod.metadata.name}`);
  }

  /** Releases the finalizer first, so the pod is not counted, then deletes it. */
  async releaseAndDelete(job: Job, pod: Pod): Promise<void> {
    await this.release(pod);
    await this.delete(job, pod);
  }

  /** Removes the job-tracking finalizer (kube's `$deleteFromPrimitiveList` patch). */
  async release(pod: Pod): Promise<void> {
    if (!hasTrackingFinalizer(pod)) return;
    await ignoreNotFound(this.client.patch(refOf(pod), RELEASE_PATCH, { type: "strategic" }));
  }

  /** Releases every pod; returns the uids released and the first error. */
  async releaseAll(pods: Pod[]): Promise<{ released: Set<string>; error?: unknown }> {
    const released = new Set<string>();
    let error: unknown;
    const results = await Promise.allSettled(pods.map((p) => this.release(p)));
    results.forEach((r, i) => {
      if (r.status === "fulfilled") released.add(pods[i]!.metadata.uid!);
      else error ??= r.reason;
    });
    return error === undefined ? { released } : { released, error };
  }
}
