/**
 * kube's TTL-after-finished controller, for one Job: a finished Job with
 * `ttlSecondsAfterFinished` is deleted (Background propagation, guarded by its
 * uid) that many seconds after it finished; until then the Job is looked at
 * again when the time comes.
 */

import type { Job } from "../../api/index.js";
import { hasCode } from "../../api/index.js";
import type { Client } from "../../client/index.js";
import { DONE, type Result } from "../../runtime/index.js";

/** When the Job finished: its completionTime, else its Complete/Failed transition. */
export function finishedTime(job: Job): number | undefined {
  if (job.status?.completionTime) return Date.parse(job.status.completionTime);
  const c = job.status?.conditions?.find(
    (x) => (x.type === "Complete" || x.type === "Failed") && x.status === "True",
  );
  return c?.lastTransitionTime ? Date.parse(c.lastTransitionTime) : undefined;
}

export async function jobTtlResult(client: Client, job: Job, now: number): Promise<Result> {
  const ttl = job.spec.ttlSecondsAfterFinished;
  const finished = finishedTime(job);
  if (ttl === undefined || finished === undefined) return DONE;
  const expiresIn = finished + ttl * 1000 - now;
  if (expiresIn > 0) return { requeueAfter: expiresIn };
  await client
    .delete(
      {
        apiVersion: "batch/v1",
        kind: "Job",
        name: job.metadata.name!,
        namespace: job.metadata.namespace,
      },
      {
        propagationPolicy: "Background",
        preconditions: { uid: job.metadata.uid! },
      },
    )
    .catch((e: unknown) => {
      if (!hasCode(e, 404) && !hasCode(e, 409)) throw e;
    });
  return DONE;
}
