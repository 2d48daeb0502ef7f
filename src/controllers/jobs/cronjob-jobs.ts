/**
 * The Jobs of a CronJob: the Job made for a scheduled time (kube's
 * getJobFromTemplate2 — named `<cronjob>-<minutes since epoch>` so that a time
 * is never run twice, owned by the CronJob, annotated with the scheduled time),
 * a Job's object reference for `status.active`, and which finished Jobs fall
 * outside the history limits (oldest start first).
 */
import {
  CRONJOB_SCHEDULED_TIMESTAMP,
  type CronJob,
  type Job,
  jobFinishedAs,
  type ObjectReference,
  wallClock,
} from "../../api/index.js";

export function jobName(cj: CronJob, scheduled: number): string {
  return `${cj.metadata.name}-${Math.floor(scheduled / 60_000)}`;
}

/** RFC 3339 with the zone's offset, as Go's `t.In(loc).Format(time.RFC3339)`. */
export function rfc3339In(ms: number, zone: string): string {
  const w = wallClock(ms, zone);
  const pad = (n: number, l = 2) => String(n).padStart(l, "0");
  const local = `${pad(w.year, 4)}-${pad(w.month)}-${pad(w.day)}T${pad(w.hour)}:${pad(w.minute)}:${pad(w.second)}`;
  const offsetMin = Math.round(
    (Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute, w.second) -
      Math.floor(ms / 1000) * 1000) /
      60_000,
  );
  if (offsetMin === 0) return `${local}Z`;
  const sign = offsetMin < 0 ? "-" : "+";
  const abs = Math.abs(offsetMin);
  return `${local}${sign}${pad(Math.floor(abs / 60))}:${pad(abs % 60)}`;
}

export function jobFromTemplate(cj: CronJob, scheduled: number): Job {
  const tmpl = cj.spec.jobTemplate;
  return {
    apiVersion: "batch/v1",
    kind: "Job",
    metadata: {
      name: jobName(cj, scheduled),
      namespace: cj.metadata.namespace,
      labels: { ...(tmpl.metadata?.labels ?? {}) },
      annotations: {
        ...(tmpl.metadata?.annotations ?? {}),
        [CRONJOB_SCHEDULED_TIMESTAMP]: rfc3339In(scheduled, cj.spec.timeZone ?? "UTC"),
      },
      ownerReferences: [
        {
          apiVersion: "batch/v1",
          kind: "CronJob",
          name: cj.metadata.name!,
          uid: cj.metadata.uid!,
          controller: true,
          blockOwnerDeletion: true,
        },
      ],
    },
    spec: structuredClone(tmpl.spec),
  };
}

export function jobReference(job: Job): ObjectReference {
  return {
    apiVersion: "batch/v1",
    kind: "Job",
    name: job.metadata.name,
    namespace: job.metadata.namespace,
    uid: job.metadata.uid,
    resourceVersion: job.metadata.resourceVersion,
  };
}

/** kube's byJobStartTime: by start time (unstarted last), then by name. */
function byStartTime(a: Job, b: Job): number {
  const sa = a.status?.startTime;
  const sb = b.status?.startTime;
  if (!sa !== !sb) return sa ? -1 : 1;
  if (sa && sb && sa !== sb) return Date.parse(sa) - Date.parse(sb);
  return (a.metadata.name ?? "") < (b.metadata.name ?? "") ? -1 : 1;
}

/** The finished Jobs beyond the limits, oldest first; unset limits keep everything. */
export function jobsBeyondHistory(cj: CronJob, jobs: Job[]): Job[] {
  const out: Job[] = [];
  const limits = {
    Complete: cj.spec.successfulJobsHistoryLimit,
    Failed: cj.spec.failedJobsHistoryLimit,
  };
  for (const kind of ["Complete", "Failed"] as const) {
    const limit = limits[kind];
    if (limit === undefined) continue;
    const finished = jobs.filter((j) => jobFinishedAs(j) === kind).sort(byStartTime);
    out.push(...finished.slice(0, Math.max(0, finished.length - limit)));
  }
  return out;
}
