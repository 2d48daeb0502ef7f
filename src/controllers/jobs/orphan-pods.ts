/**
 * Releases the job-tracking finalizer of pods no running Job will count (kube's
 * orphan-pod queue): the pod has no controller, or its Job is gone, replaced
 * (another uid) or finished. Without this, pods of a deleted Job would wait for
 * the finalizer forever. Pods controlled by something other than a Job are not
 * touched.
 */

import type { Pod } from "../../api/index.js";
import { type Job, jobFinishedAs } from "../../api/index.js";
import { type Client, type EventRecorder, getOptional } from "../../client/index.js";
import { DONE, type Request, type Result, type TypedReconciler } from "../../runtime/index.js";
import { controllerRef, hasTrackingFinalizer } from "./job-pods.js";
import { PodControl } from "./pod-control.js";

export class OrphanPodReconciler implements TypedReconciler {
  private readonly pods: PodControl;

  constructor(
    private readonly client: Client,
    recorder: EventRecorder,
  ) {
    this.pods = new PodControl(client, recorder);
  }

  async reconcile(req: Request): Promise<Result> {
    const { name } = req;
    const namespace = req.namespace ?? "";
    const pod = await getOptional<Pod>(this.client, {
      apiVersion: "v1",
      kind: "Pod",
      name,
      namespace,
    });
    if (!pod || !hasTrackingFinalizer(pod)) return DONE;
    const ref = controllerRef(pod);
    if (ref) {
      if (ref.kind !== "Job" || ref.apiVersion !== "batch/v1") return DONE;
      const job = await getOptional<Job>(this.client, {
        apiVersion: "batch/v1",
        kind: "Job",
        name: ref.name,
        namespace,
      });
      const counted = job && job.metadata.uid === ref.uid && !job.metadata.deletionTimestamp;
      if (counted && !jobFinishedAs(job)) return DONE; // the Job controller counts it
    }
    await this.pods.release(pod);
    return DONE;
  }
}
